"""Fewest presses of an all-lit board on a Dask cluster, timed and resumable (the README's cluster figures,
and the d = 48 run of bench/road79.py).

Usage:
    python bench/cluster_fewest.py 61                       # a LocalCluster of this machine's cores
    python bench/cluster_fewest.py 61 tcp://scheduler:8786   # an existing cluster
    python bench/cluster_fewest.py 119 159 --checkpoint d48.json   # the d = 48 run: kill it, run it again

With ``--checkpoint FILE`` the search writes where it stands to FILE (every half minute and when
it stops) and the same command run again resumes from it: the driver may be killed at any time
(Ctrl-C, SIGKILL, a lost machine), and a worker that dies mid-job has its job run again.  The
seconds printed are this run's; the file keeps the total of every run (``state.seconds``).

Prints n, m, the nullity, the fewest presses (proven) and the wall time of the search; with
``--every S`` a line of progress every S seconds (jobs done, the proven bracket).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Optional

import numpy as np


def parse(argv: Optional[list[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("where", nargs="+", metavar="N [M] [ADDRESS]",
                        help="rows, columns (default: rows), and a scheduler's address (default: a LocalCluster)")
    parser.add_argument("--checkpoint", metavar="FILE", help="keep the search's state in FILE and resume from it")
    parser.add_argument("--time-limit", type=float, metavar="SECONDS", help="stop after SECONDS (resume later)")
    parser.add_argument("--workers", type=int, default=None, help="LocalCluster workers (default: usable cores)")
    parser.add_argument("--every", type=float, default=30.0, metavar="S", help="seconds between progress lines")
    args = parser.parse_args(argv)
    sizes = [int(value) for value in args.where if value.isdigit()]
    addresses = [value for value in args.where if not value.isdigit()]
    if not 1 <= len(sizes) <= 2 or len(addresses) > 1:
        parser.error("give N, or N M, and at most one scheduler address")
    args.n, args.m = sizes[0], sizes[-1]
    args.address = addresses[0] if addresses else None
    return args


def reporter(every: float) -> Any:
    """A progress callback that prints a line every ``every`` seconds: jobs done and the proven bracket."""
    began = last = time.monotonic()

    def progress(stage: str, done: int, total: int, bounds: Optional[tuple[int, int]] = None) -> None:
        nonlocal last
        now = time.monotonic()
        if stage == "fewest presses" and (now - last >= every or done == total):
            last = now
            bracket = "" if bounds is None else f", fewest in [{bounds[0]}, {bounds[1]}]"
            print(f"  {now - began:8.1f} s: {done} of {total} jobs done{bracket}", flush=True)

    return progress


def main(argv: Optional[list[str]] = None) -> None:
    import lightsout
    from dask.distributed import Client, LocalCluster

    args = parse(argv)
    if args.address is None:
        workers = args.workers or len(os.sched_getaffinity(0))
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(args.address)
    with client:
        workers = len(client.scheduler_info()["workers"])
        if args.checkpoint and os.path.exists(args.checkpoint):
            with open(args.checkpoint, encoding="utf-8") as saved:
                state = json.load(saved)["state"]
            print(f"resuming {args.checkpoint}: {sum(b - a + 1 for a, b in state['done'])} jobs done, "
                  f"{len(state['reached'])} part way, {state['seconds']:.1f} s of search so far", flush=True)
        start = time.perf_counter()
        s = lightsout.solve(np.ones((args.n, args.m), dtype=np.uint8), minimal=True, executor=client.get_executor(),
                            time_limit=args.time_limit, checkpoint=args.checkpoint, progress=reporter(args.every))
        seconds = time.perf_counter() - start
    print(f"n={args.n} m={args.m} nullity={s.nullity} fewest={int(s.presses.sum())} proven={s.proven_minimal} "
          f"lower_bound={s.lower_bound} workers={workers} seconds={seconds:.1f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
