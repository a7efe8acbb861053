"""The compiled modules: the one list that ``setup.py`` builds and :mod:`lightsout._kernels` loads.

Adding a compiled module takes its source here (``<name>.pyx``, with its stub
``<name>.pyi``) and one entry below, plus its name on the ``TYPE_CHECKING``
import line of ``__init__.py`` so that mypy reads the stub (tests/test_dispatch.py
holds the lists equal).  ``setup.py`` compiles it (once per SIMD level unless ``simd`` is
False) and ``lightsout._kernels.<name>`` loads the build this CPU runs.
``setup.py`` runs this file on its own, before anything is built: it imports
nothing but the standard library.

Example:
    >>> sorted(name for name, module in MODULES.items() if not module.simd)
    ['cpu']
"""
from __future__ import annotations

from typing import NamedTuple


class CompiledModule(NamedTuple):
    """How one compiled module is built.

    Attributes:
        simd: compiled once per SIMD level (``<name>_generic``, ``_avx2``,
            ``_avx512``), the widest the CPU runs loaded; False: one build,
            ``<name>``, for any CPU.
        headers: C headers (in this folder) that its C code includes beyond what
            Cython tracks, so that changing one rebuilds it.
        purpose: one line, for readers of this table.
        gcc_flags: extra GCC/Clang flags for this module alone (not given to MSVC).
    """

    simd: bool = True
    headers: tuple[str, ...] = ()
    purpose: str = ""
    gcc_flags: tuple[str, ...] = ()


MODULES: dict[str, CompiledModule] = {
    "cpu": CompiledModule(simd=False, purpose="CPU feature detection, run before any wide build is loaded"),
    "chase": CompiledModule(purpose="2-D boards: the chase and the A/B two-row iteration"),
    "gf2elim": CompiledModule(purpose="packed Gauss-Jordan elimination over GF(2)"),
    "gf2poly": CompiledModule(headers=("gf2fft.h",), purpose="GF(2)[t] arithmetic: products, division, gcds"),
    "polybasis": CompiledModule(purpose="the polynomial route's conversions between rows and polynomials"),
    "modelim": CompiledModule(purpose="elimination and Howell forms over Z/k"),
    # its byte chase runs a short inner loop once per cell: placed across a 32-byte boundary it
    # lost 30% on Zen 4 (test_nd_chase_line_1000000: 10.0 ms against 7.5 ms); aligned, 8.0 ms.
    # (Aligning every module's loops instead cost the many-boards kernel 25%.)
    "gridchase": CompiledModule(purpose="the N-D route's chase in matrix form, bits or bytes",
                                gcc_flags=("-falign-loops=32",)),
    "graphchase": CompiledModule(purpose="graphs: the forcing plan, its system and its expansion"),
    "walsh": CompiledModule(headers=("walsh.h", "walsh_body.h"),
                            purpose="fewest presses: Walsh-Hadamard weighing of a coset"),
    "many": CompiledModule(purpose="many boards at once: one GF(2) matrix applied to many rows"),
}

#: The GCC/Clang flags of each wide build (x86-64 only); the portable build ``generic`` adds none.
#: The tests compile their own probe of the inline primitives (tests/kernels) with the same flags.
SIMD_FLAGS: dict[str, list[str]] = {
    "avx2": ["-march=x86-64-v3", "-mpclmul"],
    "avx512": ["-march=x86-64-v4", "-mpclmul", "-mprefer-vector-width=512"],
}
