"""Run the examples in every docstring of the installed package, at every SIMD level."""
from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import lightsout
from lightsout._dispatch import kernel_module

def _python_modules() -> list[str]:
    """Every pure-Python module of the installed package (``__main__`` runs the CLI on import)."""
    names = ["lightsout"]
    for info in pkgutil.iter_modules(lightsout.__path__):
        spec = importlib.util.find_spec(f"lightsout.{info.name}")
        if info.name != "__main__" and spec is not None and str(spec.origin).endswith(".py"):
            names.append(f"lightsout.{info.name}")
    return names + ["lightsout._cpu"]


#: Modules that hold only type declarations, with nothing to run.
DECLARATION_MODULES = {"lightsout._types", "lightsout._kernel_types"}


PYTHON_MODULES = _python_modules()

COMPILED_MODULES = ["_kernels", "_gf2elim", "_gf2poly", "_modelim", "_gridchase", "_graphchase", "_walsh", "_manykernels"]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("name", PYTHON_MODULES)
def test_python_module_examples(name):
    failures, attempted = doctest.testmod(importlib.import_module(name), optionflags=FLAGS, verbose=False)
    assert failures == 0
    assert attempted > 0 or name in DECLARATION_MODULES, f"{name} has no docstring example"


@pytest.mark.parametrize("name", COMPILED_MODULES)
def test_compiled_module_examples(name, simd_level):
    failures, attempted = doctest.testmod(kernel_module(name, simd_level), optionflags=FLAGS, verbose=False)
    assert attempted > 0 and failures == 0
