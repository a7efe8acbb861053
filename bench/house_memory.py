"""Peak memory and time of the two large quiet bases of issue 17, each case in a fresh process.

Run: python bench/house_memory.py [graph] [torus]

* ``graph``: ``solve_graph(networkx.grid_2d_graph(1000, 1000), self_toggle=False)``, the
  sigma game on the 1000 x 1000 grid graph, whose quiet basis is kept packed;
* ``torus``: ``solve(all_lit(10000), torus=True).packed_quiet_patterns()``, the packed
  basis of the all-lit 10,000 x 10,000 torus (nullity 128).

For each: the seconds of the measured call, the resident memory before it (after the graph
or the board is built) and the peak of the whole process (``ru_maxrss``), in MB.
"""
from __future__ import annotations

import importlib
import json
import resource
import subprocess
import sys
import time

CASES = ("graph", "torus")


def rss_mb() -> float:
    """The process's resident memory now, in MB (Linux)."""
    with open("/proc/self/statm") as stats:
        pages = int(stats.read().split()[1])
    return pages * resource.getpagesize() / 1e6


def run_case(name: str) -> dict[str, object]:
    """One case, in this process."""
    import lightsout

    if name == "graph":
        graph = importlib.import_module("networkx").grid_2d_graph(1000, 1000)
        before = rss_mb()
        start = time.perf_counter()
        solution = lightsout.solve_graph(graph, self_toggle=False)
        seconds = time.perf_counter() - start
        facts: dict[str, object] = {"nullity": solution.nullity, "verified": bool(solution.verify())}
    else:
        board = lightsout.all_lit(10_000)
        solution = lightsout.solve(board, torus=True)
        before = rss_mb()
        start = time.perf_counter()
        words = solution.packed_quiet_patterns()
        seconds = time.perf_counter() - start
        facts = {"nullity": solution.nullity, "basis": list(words.shape), "basis_mb": words.nbytes / 1e6}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3  # KiB on Linux
    return {"case": name, "seconds": round(seconds, 2), "rss_before_mb": round(before),
            "peak_mb": round(peak), **facts}


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        print(json.dumps(run_case(argv[1])))
        return
    for name in argv or CASES:
        done = subprocess.run([sys.executable, __file__, "--child", name], capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"{name}: {done.stderr.strip()}")
        print(done.stdout.strip())


if __name__ == "__main__":
    main(sys.argv[1:])
