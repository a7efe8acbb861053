"""The compiled kernels, and the build of each that this CPU runs.

Every module in :data:`registry.MODULES` is written once (``<name>.pyx``, typed
by its stub ``<name>.pyi``) and, unless the registry says otherwise, compiled
once per SIMD level: ``<name>_generic`` for any CPU and, on x86-64,
``<name>_avx2`` (x86-64-v3) and ``<name>_avx512`` (x86-64-v4).  The attribute
``lightsout._kernels.<name>`` is the widest build the running CPU supports
(:func:`load` with no level).  A wide build is imported only after the CPU has
been checked, because its compiler may have used wide instructions anywhere,
module initialisation included.

Set ``LIGHTSOUT_SIMD=generic|avx2|avx512`` to force one level (tests and
benchmarks use this to compare them); asking for a level the CPU lacks raises
:class:`~lightsout.SettingError`.

The library calls kernels as ``kernels.gf2poly.poly_mul(a, b)`` after
``from lightsout import _kernels as kernels``: mypy reads the attribute as the
module the stub describes, so every kernel call is type-checked against it.

Example:
    >>> from lightsout import _kernels as kernels
    >>> kernels.chase.__name__ == f"lightsout._kernels.chase_{selected_level()}"
    True
"""
from __future__ import annotations

import importlib
import os
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Literal, Optional

from lightsout._base.errors import SettingError
from lightsout._kernels import cpu
from lightsout._kernels.registry import MODULES

if TYPE_CHECKING:  # one stub types every level's build (every module of registry.MODULES with simd)
    from lightsout._kernels import chase, gf2elim, gf2ext, gf2poly, graphchase, graywalk, gridchase, many, modelim, modwalk, polybasis, rowchase, stencilchase, walsh

__all__ = ["SIMD_LEVELS", "MODULES", "available_levels", "selected_level", "load", "c_api"]

SIMD_LEVELS = ("avx512", "avx2", "generic")


@lru_cache(maxsize=None)
def available_levels() -> tuple[str, ...]:
    """SIMD levels that this CPU supports and this installation was built with, widest first.

    Example:
        >>> available_levels()[-1]
        'generic'
    """
    levels: list[str] = []
    for level in cpu.supported_simd_levels():
        try:
            importlib.import_module(f"lightsout._kernels.chase_{level}")
        except ImportError:
            continue
        levels.append(level)
    return tuple(levels)


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


#: Modules loaded so far, by (name, level asked for or LIGHTSOUT_SIMD's raw value): a kernel
#: attribute costs a dictionary lookup, not an import, so hot loops of small calls stay cheap.
_LOADED: dict[tuple[str, str], ModuleType] = {}


def load(name: str, level: Optional[str] = None) -> ModuleType:
    """The build of compiled module ``name`` at ``level`` (default: :func:`selected_level`).

    Example:
        >>> load("gf2elim", "generic").__name__
        'lightsout._kernels.gf2elim_generic'
        >>> load("cpu").__name__
        'lightsout._kernels.cpu'
    """
    key = (name, level if level is not None else os.environ.get("LIGHTSOUT_SIMD", ""))
    loaded = _LOADED.get(key)
    if loaded is None:
        loaded = _LOADED[key] = _import(name, level)
    return loaded


def _import(name: str, level: Optional[str]) -> ModuleType:
    module = MODULES.get(name)
    if module is None:
        raise ValueError(f"no compiled module {name!r}; the modules are {', '.join(MODULES)}")
    if not module.simd:
        return importlib.import_module(f"lightsout._kernels.{name}")
    return importlib.import_module(f"lightsout._kernels.{name}_{level or selected_level()}")


def c_api(name: Literal["chase", "gf2elim"], level: Optional[str] = None) -> object:
    """The C function table (a PyCapsule) of compiled module ``name`` at the selected SIMD level.

    The table is the one declared in ``lightsout/capi.h``; C or Cython code
    that embeds the kernels calls through it (``lightsout/capi.pxd``), so it
    gets the widest build this CPU runs.

    Example:
        >>> type(c_api("chase")).__name__
        'PyCapsule'
    """
    capsule: object = getattr(load(name, level), "_capi")
    return capsule


if not TYPE_CHECKING:
    def __getattr__(name: str) -> ModuleType:
        """``lightsout._kernels.<name>``: the selected build (never bound: LIGHTSOUT_SIMD is read each time)."""
        loaded = _LOADED.get((name, os.environ.get("LIGHTSOUT_SIMD", "")))
        if loaded is not None:
            return loaded
        if name in MODULES:
            return load(name)
        raise AttributeError(f"module 'lightsout._kernels' has no attribute {name!r}")
