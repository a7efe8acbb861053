"""The package's private modules for the benchmarks, in this checkout's layout or the reference commit's.

bench/ab.py times these benchmarks against the reference commit too (bench/reference),
whose private modules stood in one flat folder (``lightsout._fewest``) before they moved
to the floors (``lightsout._search.minweight``); :func:`private` finds either.
"""
from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["private"]


def private(name: str, flat: str) -> ModuleType:
    """The module ``name`` (this checkout's), or ``flat`` where the package predates the floors."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        return importlib.import_module(flat)
