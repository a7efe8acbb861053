"""Run the examples in every docstring of the installed package, at every SIMD level."""
from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import lightsout
from lightsout._kernels import load
from lightsout._kernels.registry import MODULES
from examples import run_examples


def _python_modules() -> list[str]:
    """Every pure-Python module of the installed package and its floors (``__main__`` runs the CLI on import)."""
    names = ["lightsout"]
    for info in pkgutil.walk_packages(lightsout.__path__, "lightsout."):
        if info.name.startswith("lightsout.play."):  # the page's server: tests/test_play.py
            continue
        spec = importlib.util.find_spec(info.name)
        if not info.name.endswith("__main__") and spec is not None and str(spec.origin).endswith(".py"):
            names.append(info.name)
    return names + ["lightsout._kernels.cpu"]


#: Modules with nothing to run: type declarations, and the floors' folders (their table of contents).
DECLARATION_MODULES = {"lightsout._base.types", "lightsout._base", "lightsout._core", "lightsout._routes",
                       "lightsout._search", "lightsout._io", "lightsout._cli"}


PYTHON_MODULES = _python_modules()

#: The compiled modules with SIMD builds.
COMPILED_MODULES = [name for name, module in MODULES.items() if module.simd]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("name", PYTHON_MODULES)
def test_python_module_examples(name):
    failures, attempted = run_examples(importlib.import_module(name))
    assert failures == 0
    assert attempted > 0 or name in DECLARATION_MODULES, f"{name} has no docstring example"


@pytest.mark.parametrize("name", COMPILED_MODULES)
def test_compiled_module_examples(name, simd_level):
    failures, attempted = doctest.testmod(load(name, simd_level), optionflags=FLAGS, verbose=False)
    assert attempted > 0 and failures == 0
