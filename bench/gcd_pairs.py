"""The half-gcd's pairs of independent products on two threads, turned off and on, in one run.

Usage:
    python bench/gcd_pairs.py [--sizes 1e8 1e9] [--repeats 1] [--pair-words 128]

For each size n, ``lightsout.nullity(n)`` (a gcd of two polynomials of degree about n) runs
with the pairs turned off (``set_thresholds(pair_words=10**12)``) and then on (``pair_words``
words, default the shipped threshold), alternating ``--repeats`` times in this one process;
the answers must agree.  Prints each run's wall and CPU time (the CPU time counts both threads,
a waiting partner's spin included).  A measurement aid: not run by CI.
"""
from __future__ import annotations

import argparse
import time


def main() -> None:
    # Imported here: the benchmark gate imports every module of bench/ (doctests) against older
    # builds too, which lack lightsout._kernels.load.
    import lightsout
    from lightsout._kernels import load

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e8, 1e9])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--pair-words", type=int, default=None)
    args = parser.parse_args()
    poly = load("gf2poly")
    shipped = poly.thresholds()
    settings = [("off", 10**12), ("on", args.pair_words or shipped["pair_words"])]
    try:
        for size in args.sizes:
            n = int(size)
            answers = set()
            for _ in range(args.repeats):
                for name, words in settings:
                    poly.set_thresholds(pair_words=words)
                    wall, cpu = time.perf_counter(), time.process_time()
                    answers.add(lightsout.nullity(n))
                    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                    print(f"nullity({n}) pairs {name:3s} (pair_words={words}): {wall:7.2f} s wall, "
                          f"{cpu:7.2f} s CPU", flush=True)
            if len(answers) != 1:
                raise SystemExit(f"nullity({n}) differs between the runs: {sorted(answers)}")
    finally:
        poly.set_thresholds(**shipped)


if __name__ == "__main__":
    main()
