"""Run the examples in every docstring of the installed package, at every SIMD level."""
from __future__ import annotations

import doctest
import importlib

import pytest

from lightsout._dispatch import kernel_module

PYTHON_MODULES = [
    "lightsout", "lightsout.solve", "lightsout.board", "lightsout.cli", "lightsout.gf2",
    "lightsout._validate", "lightsout._packing", "lightsout._dispatch", "lightsout._polyroute",
    "lightsout._denseroute", "lightsout._cpu",
]
COMPILED_MODULES = ["_kernels", "_gf2elim", "_gf2poly"]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("name", PYTHON_MODULES)
def test_python_module_examples(name):
    failures, attempted = doctest.testmod(importlib.import_module(name), optionflags=FLAGS, verbose=False)
    assert attempted > 0 and failures == 0


@pytest.mark.parametrize("name", COMPILED_MODULES)
def test_compiled_module_examples(name, simd_level):
    failures, attempted = doctest.testmod(kernel_module(name, simd_level), optionflags=FLAGS, verbose=False)
    assert attempted > 0 and failures == 0
