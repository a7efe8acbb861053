"""Pick the widest build of each compiled kernel module that this CPU can run.

``setup.py`` compiles every hot module (``_kernels``, ``_gf2elim``, ``_gf2poly``)
once per SIMD level.  The portable build is ``lightsout.<name>``; the wide ones
are ``lightsout.<name>_avx2`` and ``lightsout.<name>_avx512``.  A wide module is
imported only after the CPU has been checked, because its compiler may have used
wide instructions anywhere, module initialisation included.

Set ``LIGHTSOUT_SIMD=generic|avx2|avx512`` to force one level (tests and
benchmarks use this to compare them); asking for a level the CPU lacks raises.
"""
from __future__ import annotations

import importlib
import os
from functools import lru_cache
from types import ModuleType

from lightsout import _cpu

SIMD_LEVELS = ("avx512", "avx2", "generic")


@lru_cache(maxsize=None)
def available_levels() -> tuple[str, ...]:
    """SIMD levels that this CPU supports and this installation was built with.

    Example:
        >>> available_levels()[-1]
        'generic'
    """
    levels = []
    for level in _cpu.supported_simd_levels():
        try:
            importlib.import_module(_module_name("_kernels", level))
        except ImportError:
            continue
        levels.append(level)
    return tuple(levels)


def _module_name(name: str, level: str) -> str:
    return f"lightsout.{name}" if level == "generic" else f"lightsout.{name}_{level}"


def selected_level() -> str:
    """The SIMD level in use: ``LIGHTSOUT_SIMD`` if set, else the widest available.

    Example:
        >>> selected_level() in SIMD_LEVELS
        True
    """
    forced = os.environ.get("LIGHTSOUT_SIMD", "").strip().lower()
    if forced:
        if forced not in SIMD_LEVELS:
            raise ValueError(f"LIGHTSOUT_SIMD={forced!r}: expected one of {', '.join(SIMD_LEVELS)}")
        if forced not in available_levels():
            raise ValueError(
                f"LIGHTSOUT_SIMD={forced!r}: this CPU/build supports only {', '.join(available_levels())}"
            )
        return forced
    return available_levels()[0]


def kernel_module(name: str, level: str | None = None) -> ModuleType:
    """The compiled module ``name`` (e.g. ``"_kernels"``) at ``level`` (default: selected).

    Example:
        >>> kernel_module("_kernels").__name__.startswith("lightsout._kernels")
        True
    """
    return importlib.import_module(_module_name(name, level or selected_level()))
