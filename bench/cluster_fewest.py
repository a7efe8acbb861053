"""Fewest presses of an all-lit n x n board on a Dask cluster, timed (the README's cluster figures).

Usage:
    python bench/cluster_fewest.py 61                      # a LocalCluster of this machine's cores
    python bench/cluster_fewest.py 61 tcp://scheduler:8786  # an existing cluster

Prints n, the nullity, the fewest presses (proven) and the wall time of the search.
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np


def main() -> None:
    import lightsout
    from dask.distributed import Client, LocalCluster

    n = int(sys.argv[1])
    address = sys.argv[2] if len(sys.argv) > 2 else None
    if address is None:
        cluster = LocalCluster(n_workers=len(os.sched_getaffinity(0)), threads_per_worker=1, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(address)
    with client:
        workers = len(client.scheduler_info()["workers"])
        start = time.perf_counter()
        s = lightsout.solve(np.ones((n, n), dtype=np.uint8), minimal=True, executor=client.get_executor())
        seconds = time.perf_counter() - start
    print(f"n={n} nullity={s.nullity} fewest={int(s.presses.sum())} proven={s.proven_minimal} "
          f"workers={workers} seconds={seconds:.1f}")


if __name__ == "__main__":
    main()
