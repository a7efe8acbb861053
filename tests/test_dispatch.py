"""Runtime choice of the SIMD build."""
from __future__ import annotations

import subprocess
import sys

import pytest

from lightsout import _kernels


def test_generic_is_always_available():
    assert _kernels.available_levels()[-1] == "generic"
    assert _kernels.selected_level() in _kernels.available_levels()


def test_forced_level_and_bad_values(monkeypatch):
    monkeypatch.setenv("LIGHTSOUT_SIMD", "generic")
    assert _kernels.load("chase").__name__ == "lightsout._kernels.chase_generic"
    assert _kernels.chase.__name__ == "lightsout._kernels.chase_generic"  # the attribute reads the setting
    monkeypatch.setenv("LIGHTSOUT_SIMD", _kernels.available_levels()[0])
    assert _kernels.chase.__name__ == f"lightsout._kernels.chase_{_kernels.available_levels()[0]}"
    monkeypatch.setenv("LIGHTSOUT_SIMD", "sse9")
    with pytest.raises(ValueError, match="expected one of"):
        _kernels.selected_level()


@pytest.mark.parametrize("level", _kernels.available_levels())
def test_every_build_gives_the_same_answers(level, tmp_path):
    code = ("import lightsout, numpy as np; "
            "print(lightsout.first_row(300).astype(int).sum(), lightsout.first_row(150, method='dense').sum(), "
            "lightsout.nullity_table(64).sum(), lightsout._kernels.selected_level())")
    # Run outside the checkout, so the installed package is imported, not the source tree.
    run = dict(capture_output=True, text=True, cwd=tmp_path, check=True)
    out = subprocess.run([sys.executable, "-c", code], env={"LIGHTSOUT_SIMD": level}, **run).stdout
    reference = subprocess.run([sys.executable, "-c", code], env={"LIGHTSOUT_SIMD": "generic"}, **run).stdout
    assert out.split()[:3] == reference.split()[:3]
    assert out.split()[3] == level


def test_unknown_module_names_are_refused():
    with pytest.raises(ValueError, match="no compiled module 'gf3poly'"):
        _kernels.load("gf3poly")
    with pytest.raises(AttributeError, match="gf3poly"):
        _kernels.gf3poly  # noqa: B018


def test_every_registered_module_is_built_at_every_level_and_typed():
    """The registry is the one list: each entry builds at each level, has its stub, and mypy sees it."""
    import ast
    from pathlib import Path

    from lightsout._kernels.registry import MODULES

    folder = Path(_kernels.__file__).parent
    for name, module in MODULES.items():
        levels = _kernels.available_levels() if module.simd else ("generic",)
        for level in levels:
            assert _kernels.load(name, level).__name__.startswith(f"lightsout._kernels.{name}")
    tree = ast.parse((folder / "__init__.py").read_text())
    checking = [node for node in tree.body if isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                and node.test.id == "TYPE_CHECKING"]
    typed = {alias.name for block in checking for node in ast.walk(block) if isinstance(node, ast.ImportFrom)
             and node.module == "lightsout._kernels" for alias in node.names}
    assert typed == {name for name, module in MODULES.items() if module.simd}
    if (folder / "chase.pyx").exists():  # a source checkout (installs ship the stubs, not the sources)
        assert {path.stem for path in folder.glob("*.pyx")} == set(MODULES)
    assert {path.stem for path in folder.glob("*.pyi")} == set(MODULES)
