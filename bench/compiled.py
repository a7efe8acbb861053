"""The compiled modules for the benchmarks, in this checkout's layout or the reference commit's.

bench/ab.py times these benchmarks against the reference commit too (bench/reference),
whose compiled modules were flat (``lightsout._gf2poly``, picked by ``lightsout._dispatch``)
before they moved into ``lightsout._kernels``; :func:`load` takes the new names on both.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Optional

try:
    from lightsout._kernels import available_levels, load, selected_level
except ImportError:  # the reference commit: there lightsout._kernels is the compiled chase module
    _dispatch = importlib.import_module("lightsout._dispatch")
    FLAT_NAMES = {"chase": "_kernels", "gf2elim": "_gf2elim", "gf2poly": "_gf2poly", "modelim": "_modelim",
                  "gridchase": "_gridchase", "graphchase": "_graphchase", "walsh": "_walsh", "many": "_manykernels"}
    available_levels = _dispatch.available_levels
    selected_level = _dispatch.selected_level

    def load(name: str, level: Optional[str] = None) -> ModuleType:
        """The build of compiled module ``name`` (new name) in the flat layout."""
        module: ModuleType = _dispatch.kernel_module(FLAT_NAMES[name], level)
        return module

__all__ = ["available_levels", "load", "selected_level"]
