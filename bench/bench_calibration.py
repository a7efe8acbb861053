"""Calibration for the regression gate: a fixed numpy workload timed in the same run.

Every benchmark's time is divided by this one before it is compared with the
baseline, so a slower or busier machine moves both and the ratio stays put.
The workload (XOR of 4 MiB word arrays, then a popcount-free reduction) leans on
the same vector units and caches as the kernels.
"""
from __future__ import annotations

import numpy as np


def test_calibration_xor_4mib(benchmark):
    benchmark.group = "calibration"
    rng = np.random.default_rng(1)
    a = rng.integers(0, 2**63, size=1 << 19, dtype=np.uint64)
    b = rng.integers(0, 2**63, size=1 << 19, dtype=np.uint64)
    out = np.empty_like(a)

    def work():
        for _ in range(64):
            np.bitwise_xor(a, b, out=out)
            np.bitwise_xor(out, a, out=b)
        return int(np.bitwise_or.reduce(out[:1024]))

    benchmark.pedantic(work, rounds=15, iterations=1, warmup_rounds=2)
