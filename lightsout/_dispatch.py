"""Pick the widest build of each compiled kernel module that this CPU can run.

``setup.py`` compiles every hot module (``_kernels``, ``_gf2elim``, ``_gf2poly``)
once per SIMD level.  The portable build is ``lightsout.<name>``; the wide ones
are ``lightsout.<name>_avx2`` and ``lightsout.<name>_avx512``.  A wide module is
imported only after the CPU has been checked, because its compiler may have used
wide instructions anywhere, module initialisation included.

Set ``LIGHTSOUT_SIMD=generic|avx2|avx512`` to force one level (tests and
benchmarks use this to compare them); asking for a level the CPU lacks raises
:class:`~lightsout.SettingError`.

:func:`kernel_module` is typed per module name (``typing.overload`` on a
``Literal``), so mypy checks every kernel call against the module's stub.
"""
from __future__ import annotations

import importlib
import os
from functools import lru_cache
from types import ModuleType
from typing import Literal, Optional, overload

from lightsout import _cpu
from lightsout._errors import SettingError
from lightsout._kernel_types import (
    Gf2ElimModule, Gf2PolyModule, GraphChaseModule, GridChaseModule, KernelsModule, ManyKernelsModule,
    ModElimModule, WalshModule,
)

__all__ = ["SIMD_LEVELS", "available_levels", "selected_level", "kernel_module", "c_api",
           "KernelsModule", "Gf2PolyModule", "Gf2ElimModule", "ModElimModule", "GridChaseModule",
           "GraphChaseModule", "WalshModule", "ManyKernelsModule"]

SIMD_LEVELS = ("avx512", "avx2", "generic")


@lru_cache(maxsize=None)
def available_levels() -> tuple[str, ...]:
    """SIMD levels that this CPU supports and this installation was built with.

    Example:
        >>> available_levels()[-1]
        'generic'
    """
    levels: list[str] = []
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
            raise SettingError(f"LIGHTSOUT_SIMD={forced!r}: expected one of {', '.join(SIMD_LEVELS)}")
        if forced not in available_levels():
            raise SettingError(
                f"LIGHTSOUT_SIMD={forced!r}: this CPU/build supports only {', '.join(available_levels())}"
            )
        return forced
    return available_levels()[0]


# One overload per compiled module, returning its Protocol (lightsout._kernel_types), so
# mypy checks every kernel call; any other name falls back to a plain module, the way
# typeshed types open() by mode.
@overload
def kernel_module(name: Literal["_kernels"], level: Optional[str] = None) -> KernelsModule: ...  # type: ignore[overload-overlap]
@overload
def kernel_module(name: Literal["_gf2poly"], level: Optional[str] = None) -> Gf2PolyModule: ...  # type: ignore[overload-overlap]
@overload
def kernel_module(name: Literal["_gf2elim"], level: Optional[str] = None) -> Gf2ElimModule: ...  # type: ignore[overload-overlap]
@overload
def kernel_module(name: Literal["_modelim"], level: Optional[str] = None) -> ModElimModule: ...  # type: ignore[overload-overlap]
@overload
def kernel_module(name: Literal["_gridchase"], level: Optional[str] = None) -> GridChaseModule: ...  # type: ignore[overload-overlap]
@overload
def kernel_module(name: Literal["_graphchase"], level: Optional[str] = None) -> GraphChaseModule: ...  # type: ignore[overload-overlap]
@overload
def kernel_module(name: Literal["_walsh"], level: Optional[str] = None) -> WalshModule: ...  # type: ignore[overload-overlap]
@overload
def kernel_module(name: Literal["_manykernels"], level: Optional[str] = None) -> ManyKernelsModule: ...  # type: ignore[overload-overlap]
@overload
def kernel_module(name: str, level: Optional[str] = None) -> ModuleType: ...


def kernel_module(name: str, level: Optional[str] = None) -> object:
    """The compiled module ``name`` (e.g. ``"_kernels"``) at ``level`` (default: selected).

    Example:
        >>> kernel_module("_kernels").__name__.startswith("lightsout._kernels")
        True
    """
    return importlib.import_module(_module_name(name, level or selected_level()))


def c_api(name: Literal["_kernels", "_gf2elim"], level: Optional[str] = None) -> object:
    """The C function table (a PyCapsule) of compiled module ``name`` at the selected SIMD level.

    The capsule is named ``"lightsout.<name>._capi"`` and points to the table
    declared in ``lightsout/capi.h``; C or Cython code that embeds the kernels
    calls through it, so it gets the widest build this CPU runs.

    Example:
        >>> type(c_api("_kernels")).__name__
        'PyCapsule'
    """
    capsule: object = getattr(kernel_module(name, level), "_capi")
    return capsule
