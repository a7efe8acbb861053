"""Docstring examples found in the module that defines each object.

The package's public functions and classes report ``__module__ == "lightsout"``, so the
stock ``doctest`` finder would take their examples to the package and run them among the
package's names.  This finder goes by where an object was written: a function's globals,
or those of the functions a class defines.
"""
from __future__ import annotations

import doctest
import types
from typing import Any, Optional

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _written_in(value: Any) -> Optional[dict[str, Any]]:
    """The globals of the module whose source holds ``value``, when a function tells."""
    if isinstance(value, types.FunctionType):
        return value.__globals__
    if isinstance(value, type):
        for member in vars(value).values():
            member = getattr(member, "__func__", getattr(member, "fget", member))
            if isinstance(member, types.FunctionType) and member.__qualname__.startswith(value.__qualname__ + "."):
                return member.__globals__
    return None


class DefiningModuleFinder(doctest.DocTestFinder):
    """A ``DocTestFinder`` that takes each example to the module that defines the object."""

    def _from_module(self, module: Any, value: Any) -> bool:  # type: ignore[override]
        home = _written_in(value)
        if module is not None and home is not None:
            return home is module.__dict__
        return bool(super()._from_module(module, value))  # type: ignore[misc]


def find_examples(module: types.ModuleType) -> list[doctest.DocTest]:
    """The examples of ``module`` and of everything defined in it."""
    return DefiningModuleFinder().find(module, module.__name__)


def run_examples(module: types.ModuleType, flags: int = FLAGS) -> tuple[int, int]:
    """(failures, examples run) of :func:`find_examples`, as ``doctest.testmod`` reports them."""
    runner = doctest.DocTestRunner(optionflags=flags)
    for test in find_examples(module):
        runner.run(test)
    return runner.failures, runner.tries
