"""The package's import graph (issue 17): the floors hold, and no module imports itself back.

The contracts themselves are pyproject.toml's ``[tool.importlinter]`` section; CI runs
``lint-imports`` on them, and this test runs it too where import-linter is installed.
"""
from __future__ import annotations

import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import lightsout

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = REPO / "pyproject.toml"



def strongly_connected(graph) -> list[set[str]]:
    """Tarjan's components of the import graph with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in graph.find_modules_directly_imported_by(module):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = set()
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.add(other)
                if other == module:
                    break
            if len(component) > 1:
                found.append(component)

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle():
    # grimp counts imports inside functions too, so none of them hides a cycle either
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("lightsout", exclude_type_checking_imports=True)
    assert strongly_connected(graph) == []


def test_the_layering_contracts_hold():
    if not PYPROJECT.exists():
        pytest.skip("no pyproject.toml beside the tests")
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.skip("import-linter is not installed")
    done = subprocess.run([str(lint), "--config", str(PYPROJECT)], capture_output=True, text=True,
                          cwd=Path(__file__).parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_no_public_module_is_hidden_by_a_function():
    # lightsout.solve is the function; the module of the grid entry points is lightsout._solve
    for info in pkgutil.iter_modules(lightsout.__path__):
        if not info.name.startswith("_"):
            value = getattr(lightsout, info.name, None)
            assert value is None or isinstance(value, types.ModuleType), info.name


def test_the_floors_are_folders():
    # every private module but the package's plumbing lives on a floor's folder
    plumbing = {"_version", "_include", "_import_help", "_solve", "_solution", "__main__"}
    flat = {info.name for info in pkgutil.iter_modules(lightsout.__path__)
            if info.name.startswith("_") and not info.ispkg}
    assert flat <= plumbing, flat - plumbing
    floors = {info.name for info in pkgutil.iter_modules(lightsout.__path__) if info.ispkg}
    assert {"_base", "_kernels", "_core", "_routes", "_search", "_io", "play"} <= floors
