"""The fewest presses of every all-lit n x n board up to a nullity, proven, on a Dask cluster; resumable.

Usage:
    python bench/fewest_table.py                                   # n <= 200, nullity <= 46, a LocalCluster
    python bench/fewest_table.py --max-n 200 --max-nullity 46 --scheduler tcp://scheduler:8786
    python bench/fewest_table.py --out my_table.csv --workers 2

Each finished n is appended to the output file at once (CSV: n, nullity, fewest, seconds,
machine), so an interrupted run started again redoes nothing it finished; rows already in
the file are skipped, whoever computed them.  Boards of nullity below --cluster-from are searched
in this process (seconds each); the others are split into tasks for the cluster's workers.
The default output is the table shipped with the package,
lightsout/fewest_presses.csv (lightsout.proven_fewest_presses()), which docs/tables.md shows.
"""
from __future__ import annotations

import argparse
import csv
import io
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, Optional

import numpy as np

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "lightsout" / "fewest_presses.csv"
FIELDS = ["n", "nullity", "fewest", "seconds", "machine"]


def machine() -> str:
    """The CPU model, its cores and the kernel build in use: where a figure was measured."""
    import lightsout._kernels as kernels

    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {kernels.selected_level()}"


def finished(path: Path, column: str = "fewest") -> set[int]:
    """The sizes already in the output file (rows with an integer ``column``); a partial last line
    (a kill mid-write) is cut off first."""
    if not path.exists():
        return set()
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        keep = data.rfind(b"\n") + 1
        with path.open("r+b") as handle:
            handle.truncate(keep)
        data = data[:keep]
    done = set()
    for row in csv.DictReader(io.StringIO(data.decode("utf-8"))):
        try:
            int(row[column])
            done.add(int(row["n"]))
        except (KeyError, TypeError, ValueError):
            continue
    return done


def append(path: Path, row: dict[str, Any], fields: Optional[list[str]] = None) -> None:
    """Add one row (columns ``fields``, default :data:`FIELDS`) and make it durable before the next search starts."""
    new = not path.exists() or path.stat().st_size == 0
    with path.open("a", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, FIELDS if fields is None else fields, lineterminator="\n")
        if new:
            writer.writeheader()
        writer.writerow(row)
        handle.flush()
        os.fsync(handle.fileno())


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-n", type=int, default=200)
    parser.add_argument("--max-nullity", type=int, default=46)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)")
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)),
                        help="LocalCluster workers (one thread each)")
    parser.add_argument("--cluster-from", type=int, default=34,
                        help="the smallest nullity sent to the cluster (default 34)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds per size; needed beyond the untimed limit (nullity 47 with the square's "
                             "symmetries); a size whose time runs out is not written")
    args = parser.parse_args(argv)

    import lightsout

    args.out.parent.mkdir(parents=True, exist_ok=True)
    done = finished(args.out)
    nullities = {n: int(d) for n, d in enumerate(lightsout.nullity_table(args.max_n), start=1)}
    todo = [(n, d) for n, d in nullities.items() if n not in done and d <= args.max_nullity]
    skipped = [n for n, d in nullities.items() if n not in done and d > args.max_nullity]
    print(f"{len(done)} sizes already in {args.out}; {len(todo)} to search; over nullity {args.max_nullity}: "
          f"{skipped}", flush=True)
    where = machine()
    client = None
    try:
        for n, d in sorted(todo, key=lambda item: (item[1], item[0])):  # cheap ones first
            executor = None
            if d >= args.cluster_from:
                if client is None:
                    client = _client(args.scheduler, args.workers)
                executor = client.get_executor()
                workers = len(client.scheduler_info()["workers"])
                where_now = f"{where}; Dask, {workers} workers"
            else:
                where_now = where
            start = time.perf_counter()
            s = lightsout.solve(np.ones((n, n), dtype=np.uint8)).minimal(time_limit=args.time_limit,
                                                                          executor=executor)
            seconds = time.perf_counter() - start
            if not s.proven_minimal:
                print(f"n={n}: the time limit ran out (best found {int(s.presses.sum())}); not written", flush=True)
                continue
            assert s.verify()
            append(args.out, {"n": n, "nullity": d, "fewest": int(s.presses.sum()),
                              "seconds": f"{seconds:.2f}", "machine": where_now})
            print(f"n={n} nullity={d} fewest={int(s.presses.sum())} seconds={seconds:.1f}", flush=True)
    except KeyboardInterrupt:
        print("interrupted: the finished sizes are saved; run the same command again to go on", file=sys.stderr)
        return 130
    finally:
        if client is not None:
            client.close()
    return 0


def _client(address: Optional[str], workers: int) -> Any:
    from dask.distributed import Client, LocalCluster

    if address is not None:
        return Client(address)
    return Client(LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None))


if __name__ == "__main__":
    sys.exit(main())
