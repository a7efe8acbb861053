"""poly_mul beside bitpolymul, one thread each, the same operands, bit for bit: the ratio per size.

Usage:
    python bench/baselines/bitpolymul_side.py LIBBITPOLYMUL.so [--log-words 12 13 ... 23]
                                              [--repeats 5] [--before GF2POLY.so] [--clock wall|cpu]
                                              [--no-scratch]

bitpolymul (Chen, Cheng, Kuo, Li, Yang: "Faster multiplication for long binary
polynomials", arXiv 1708.09746; https://github.com/fast-crypto-lab/bitpolymul) is
the yardstick of issue 31.  This script fetches and builds nothing: build their
sources outside this repository with their own Makefile flags plus -fPIC, e.g.

    git clone https://github.com/fast-crypto-lab/bitpolymul /tmp/bitpolymul && cd /tmp/bitpolymul
    make CFLAGS="-O3 -funroll-loops -mavx2 -mpclmul -std=gnu99 -fPIC"
    gcc -shared -o libbitpolymul.so bc.o bitpolymul.o encode.o gf2128_tower_iso.o butterfly_net.o \\
        gf16.o ska.o gf2256_tower_iso.o gf2128_cantor_iso.o btfy.o trunc_btfy_tab.o

and pass the library's path.  At each size two random operands of 2^k full 64-bit
words (fixed seed) are multiplied by ``bitpolymul_2`` (through ctypes, which
releases the GIL and adds microseconds) and by ``poly_mul(a, b, threads=1)``,
alternating, and the best wall time of ``--repeats`` runs of each is kept.  Every
product is compared bit for bit with bitpolymul's; a difference stops the run.
``--before`` times a second build of the gf2poly kernel module (for example the
``gf2poly_avx512*.so`` of an older checkout, copied aside) in the same run, so a
change is measured side by side under the same load.  ``--clock cpu`` times the
CPU seconds of the calling thread (both run on it) instead of the wall clock: on
a shared machine it leaves out the time the thread waited for a core.  poly_mul keeps the
transforms of a product for the next one of its size from the third in a row
(gf2poly.fft_scratch_limit, the scratch arena), so the repeats from the fourth find their
pages mapped: every size runs ``--repeats`` times (at 2^23 words the first three, on fresh
pages, took 1.6-2.2 s where the later ones took 1.2 s, on a virtual machine whose fresh pages
cost wall time beyond the CPU's); ``--no-scratch`` sets this tree's limit to 0 and every
product faults fresh pages.  Prints one row per size:
the times and the ratios ``poly_mul / bitpolymul`` (issue 31's target: <= 0.8).
A measurement aid: not run by CI, and bitpolymul is never a dependency.
"""
from __future__ import annotations

import argparse
import ctypes
import importlib.machinery
import importlib.util
import os
import sys
import time
from types import ModuleType
from typing import Any, Callable

import numpy as np

ALIGN_BYTES = 64


def aligned_words(nwords: int) -> np.ndarray:
    """A zeroed uint64 array of ``nwords`` words whose first word is on a 64-byte boundary.

    Example:
        >>> w = aligned_words(5)
        >>> (w.ctypes.data % ALIGN_BYTES, w.size, int(w.sum()))
        (0, 5, 0)
    """
    raw = np.zeros(nwords + ALIGN_BYTES // 8, dtype=np.uint64)
    skip = (-raw.ctypes.data % ALIGN_BYTES) // 8
    return raw[skip:skip + nwords]


def load_bitpolymul(path: str) -> Callable[[np.ndarray, np.ndarray, np.ndarray], None]:
    """``mul(c, a, b)``: bitpolymul_2 of the library at ``path``; ``c`` holds 2 * len(a) words."""
    lib = ctypes.CDLL(os.path.abspath(path))
    fn = lib.bitpolymul_2
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint]

    def mul(c: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
        fn(c.ctypes.data, a.ctypes.data, b.ctypes.data, a.size)

    return mul


def load_gf2poly_build(path: str) -> ModuleType:
    """A gf2poly kernel module from another build, loaded beside this tree's (not put in sys.modules).

    This tree's modules are imported first: loaded the other way round, the
    dynamic loader handed the first build to both names.
    """
    from lightsout import _kernels

    for level in ("avx512", "avx2", "generic"):
        try:
            _kernels.load("gf2poly", level)
        except ImportError:  # a level this machine or build lacks
            pass
    name = f"lightsout._kernels.{os.path.basename(path).split('.')[0]}"
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def seconds(call: Callable[[], Any], clock: Callable[[], float] = time.perf_counter) -> float:
    start = clock()
    call()
    return clock() - start


def main(argv: list[str] | None = None) -> int:
    from lightsout import _kernels

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", help="path to a built libbitpolymul.so")
    parser.add_argument("--log-words", nargs="+", type=int, default=list(range(12, 24)),
                        help="operands of 2^k 64-bit words each (default 12 .. 23)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--before", default=None,
                        help="a gf2poly kernel .so of another build, timed in the same run")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall clock (default) or the CPU time of this thread")
    parser.add_argument("--no-scratch", action="store_true",
                        help="keep no transforms between this tree's products (fft_scratch_limit(0))")
    args = parser.parse_args(argv)
    clock = time.perf_counter if args.clock == "wall" else time.thread_time
    bitpolymul = load_bitpolymul(args.library)
    ours = _kernels.gf2poly
    if args.no_scratch:
        ours.fft_scratch_limit(0)
    contenders: list[tuple[str, ModuleType]] = [("poly_mul", ours)]
    if args.before is not None:
        contenders.insert(0, ("before", load_gf2poly_build(args.before)))
    load = os.getloadavg()
    print(f"# level {_kernels.selected_level()}, thresholds {ours.thresholds()}, "
          f"scratch limit {ours.fft_scratch_limit()} bytes; "
          f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; best of {args.repeats}, {args.clock} clock", flush=True)
    header = "| words | bitpolymul_2 ms | " + " | ".join(f"{n} ms | {n}/bitpolymul" for n, _ in contenders) + " |"
    print(header)
    print("|" + "---|" * (2 + 2 * len(contenders)))
    rng = np.random.default_rng(20261127)
    for k in args.log_words:
        nwords = 1 << k
        a, b = aligned_words(nwords), aligned_words(nwords)
        a[:] = rng.integers(0, 2**64, nwords, dtype=np.uint64)
        b[:] = rng.integers(0, 2**64, nwords, dtype=np.uint64)
        c = aligned_words(2 * nwords)
        best = {"bitpolymul": float("inf")} | {n: float("inf") for n, _ in contenders}
        for _ in range(args.repeats):
            best["bitpolymul"] = min(best["bitpolymul"], seconds(lambda: bitpolymul(c, a, b), clock))
            for n, module in contenders:
                product: np.ndarray | None = None

                def run(module: ModuleType = module) -> None:
                    nonlocal product
                    product = module.poly_mul(a, b, threads=1)

                best[n] = min(best[n], seconds(run, clock))
                assert product is not None
                top = int(np.flatnonzero(c)[-1]) + 1 if c.any() else 1
                if product.size != top or not np.array_equal(product, c[:top]):
                    print(f"2^{k} words: {n} differs from bitpolymul", flush=True)
                    return 1
        row = f"| 2^{k} | {1e3 * best['bitpolymul']:.2f} | "
        row += " | ".join(f"{1e3 * best[n]:.2f} | {best[n] / best['bitpolymul']:.2f}" for n, _ in contenders)
        print(row + " |", flush=True)
    load = os.getloadavg()
    print(f"# load at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
