"""Products in GF(2)[t] at 10^6 .. 10^9 bits: the additive FFT beside Toom-3 and gf2x, same inputs.

Usage:
    python bench/poly_product.py [--sizes 1e6 1e7 1e8 | --log-words 20 21 22 23] [--repeats 3]
                                 [--threads 1 2] [--toom] [--gf2x] [--long 16]

For each size, two random polynomials of that degree (fixed seed) are multiplied
by ``poly_mul`` (the FFT from ``fft_words`` words up), and with ``--toom`` by
the same build with the FFT turned off; ``--gf2x`` compiles
bench/baselines/gf2x_mul.c against Debian's libgf2x-dev (the library NTL
multiplies with) and runs it on the same operands.  ``--threads 1 2`` times
``poly_mul(a, b, threads=n)`` for each n (the first is the one the others are
compared with; default: 1), and ``--log-words 22`` sizes operands at 2^22 words
(degree 64 * 2^22 - 1) instead of ``--sizes``' degrees.  ``--long 16`` makes the second
operand 16 times as long as the first (an unbalanced product: the short one's transform serves
every piece of the long one).  Every product is compared
bit for bit with the first thread count's.  Prints the best wall time of ``--repeats`` runs and
the peak resident memory of this process.  A measurement aid: not run by CI.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent


def best_time(call: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - start)
    return best, result


def build_gf2x(workdir: Path) -> Path:
    exe = workdir / "gf2x_mul"
    subprocess.run(["cc", "-O2", "-o", str(exe), str(HERE / "baselines" / "gf2x_mul.c"), "-lgf2x"], check=True)
    return exe


def main(argv: list[str] | None = None) -> int:
    import numpy as np

    from lightsout import _kernels

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e6, 1e7, 1e8])
    parser.add_argument("--log-words", nargs="+", type=int, default=None,
                        help="operands of 2^k words (degree 64 * 2^k - 1), in place of --sizes")
    parser.add_argument("--threads", nargs="+", type=int, default=[1],
                        help="thread counts to time (threads= of poly_mul); products compared with the first")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--toom", action="store_true", help="also time the product with the FFT off")
    parser.add_argument("--gf2x", action="store_true", help="also time gf2x (needs libgf2x-dev)")
    parser.add_argument("--long", type=int, default=1, metavar="R",
                        help="the second operand R times as long as the first (default 1: balanced)")
    args = parser.parse_args(argv)
    poly = _kernels.gf2poly
    print(f"# level {_kernels.selected_level()}, wide FFT loops {poly.fft_wide_supported()}, "
          f"thresholds {poly.thresholds()}", flush=True)
    rng = np.random.default_rng(20261125)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        exe = build_gf2x(workdir) if args.gf2x else None
        sizes = args.sizes if args.log_words is None else [64 * (1 << k) - 1 for k in args.log_words]
        for size in sizes:
            bits = int(size)
            nwords = bits // 64 + 1
            a = rng.integers(0, 2**64, nwords, dtype=np.uint64)
            b = rng.integers(0, 2**64, nwords * args.long, dtype=np.uint64)
            top = np.uint64(1 << (bits % 64))
            a[-1] = (a[-1] & (top - np.uint64(1))) | top
            b[-1] = (b[-1] & (top - np.uint64(1))) | top
            first = args.threads[0]
            seconds, product = best_time(lambda: poly.poly_mul(a, b, threads=first), args.repeats)
            shape = f"{nwords:,} words" if args.long == 1 else f"{nwords:,} x {nwords * args.long:,} words"
            line = f"degree {bits:>11,} ({shape}): fft {seconds:8.3f} s on {first} thread(s)"
            for more in args.threads[1:]:
                more_seconds, more_product = best_time(lambda: poly.poly_mul(a, b, threads=more), args.repeats)
                line += (f" | {more} thread(s) {more_seconds:8.3f} s, {seconds / more_seconds:.2f}x, "
                         f"same {np.array_equal(product, more_product)}")
            if args.toom:
                old = poly.set_thresholds(fft_words=10**12)
                try:
                    toom_seconds, toom_product = best_time(lambda: poly.poly_mul(a, b), 1)
                finally:
                    poly.set_thresholds(**old)
                line += f" | toom-3 {toom_seconds:8.3f} s, same {np.array_equal(product, toom_product)}"
            if exe is not None:
                a.astype("<u8").tofile(workdir / "a.bin")
                b.astype("<u8").tofile(workdir / "b.bin")
                run = subprocess.run([str(exe), str(workdir / "a.bin"), str(workdir / "b.bin"),
                                      str(workdir / "c.bin"), str(args.repeats)],
                                     check=True, capture_output=True, text=True)
                theirs = np.fromfile(workdir / "c.bin", dtype="<u8")
                same = np.array_equal(theirs[: len(product)], product) and not theirs[len(product):].any()
                line += f" | gf2x {float(run.stdout):8.3f} s, same {same}"
                os.remove(workdir / "c.bin")
            print(line, flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"# peak resident memory of this process: {peak:.2f} GiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
