"""A kernel is one declaration: the entry in lightsout/_kernels/registry.py.

What follows from an entry is generated (``python -m lightsout._kernels.registry --write``) or
checked here, so that none of it can fall behind: the builds setup.py makes, each module's stub
(present, naming every def of its source, naming nothing the build lacks), the typed import
line of ``lightsout/_kernels/__init__.py``, the table of modules in docs/building.md, the mypy
list of test and benchmark modules in pyproject.toml, and the README's count of extension
modules.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from lightsout import _kernels
from lightsout._kernels import registry
from lightsout._kernels.registry import MODULES

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "lightsout" / "_kernels"
SOURCE_CHECKOUT = (KERNELS / "chase.pyx").exists()   # installs ship the stubs, not the sources
needs_sources = pytest.mark.skipif(not SOURCE_CHECKOUT, reason="needs the source checkout")


def source_defs(name: str, folder: Path = KERNELS) -> set[str]:
    """The public module-level def (and cpdef) functions of <name>.pyx and the .pxi files it includes."""
    text = (folder / f"{name}.pyx").read_text()
    for included in re.findall(r'^include "([\w.]+\.pxi)"$', text, flags=re.M):
        text += (folder / included).read_text()
    return {n for n in re.findall(r"^(?:def|cpdef [\w\s*]*?) *\b(\w+)\(", text, flags=re.M) if not n.startswith("_")}


def stub_names(name: str, folder: Path = KERNELS) -> set[str]:
    """The public names a module's stub declares: functions, re-exports and typed attributes."""
    tree = ast.parse((folder / f"{name}.pyi").read_text())
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lightsout."):
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if not n.startswith("__")}


@pytest.mark.parametrize("name", list(MODULES))
def test_every_module_has_a_stub_that_names_exactly_what_its_builds_have(name):
    assert (KERNELS / f"{name}.pyi").exists(), f"lightsout/_kernels/{name}.pyi is missing"
    declared = stub_names(name)
    levels = _kernels.available_levels() if MODULES[name].simd else ("generic",)
    for level in levels:
        build = _kernels.load(name, level)
        missing = sorted(n for n in declared if not hasattr(build, n))
        assert not missing, f"{name}.pyi declares {missing}, which {build.__name__} lacks"
    if SOURCE_CHECKOUT:
        untyped = sorted(source_defs(name) - declared)
        assert not untyped, f"{name}.pyi does not type {untyped} of lightsout/_kernels/{name}.pyx"


@needs_sources
def test_a_def_missing_from_a_stub_is_caught(tmp_path):
    """The stub check is not vacuous: a def the stub leaves out shows up, in the module or an include."""
    assert "poly_mul" in source_defs("gf2poly") and "poly_mul" in stub_names("gf2poly")
    assert "fft_init" not in source_defs("gf2poly")          # a C function, not a def
    assert "set_thresholds" in source_defs("gf2poly")        # defined in polytuning.pxi, an include
    (tmp_path / "mod.pyx").write_text('include "part.pxi"\ndef kept(a):\n    pass\ndef _private(c):\n    pass\n')
    (tmp_path / "part.pxi").write_text("cdef int helper(int x):\n    return x\ndef forgotten(b):\n    pass\n")
    (tmp_path / "mod.pyi").write_text("def kept(a: int) -> None: ...\n")
    assert source_defs("mod", tmp_path) - stub_names("mod", tmp_path) == {"forgotten"}


@needs_sources
def test_the_derived_files_say_what_the_registry_says():
    stale = {str(path.relative_to(ROOT)): wanted for path, (now, wanted) in registry.derived_texts(ROOT).items()
             if now != wanted}
    assert not stale, (f"{sorted(stale)} lag behind lightsout/_kernels/registry.py: "
                       "run python -m lightsout._kernels.registry --write")
    init = (KERNELS / "__init__.py").read_text()
    assert registry.typing_import_line() in init.splitlines()
    docs = (ROOT / "docs" / "building.md").read_text()
    for name in MODULES:
        assert f"| `{name}` |" in docs, f"docs/building.md does not name the kernel module {name}"


def test_the_typing_line_names_every_module_with_wide_builds():
    names = registry.typing_import_line().split(" import ")[1].split(", ")
    assert names == sorted(name for name, module in MODULES.items() if module.simd)


@needs_sources
def test_the_source_folder_holds_exactly_the_registered_modules():
    assert {path.stem for path in KERNELS.glob("*.pyx")} == set(MODULES)
    assert {path.stem for path in KERNELS.glob("*.pyi")} == set(MODULES)
    included = {m for path in KERNELS.glob("*.pyx")
                for m in re.findall(r'^include "([\w.]+)"$', path.read_text(), flags=re.M)}
    assert {path.name for path in KERNELS.glob("*.pxi")} == included, "a .pxi that no module includes"


def test_the_builds_are_each_registered_module_at_each_level():
    names = [built for built, _, _ in registry.builds()]
    assert len(names) == len(set(names))
    for name, module in MODULES.items():
        expected = [f"{name}_{level}" for level in ("generic", *registry.SIMD_FLAGS)] if module.simd else [name]
        assert [built for built, source, _ in registry.builds() if source == name] == expected
    assert names[-1] == registry.SHARED_UTILITY
    portable = [built for built, _, _ in registry.builds(wide=False)]
    assert all(not built.endswith(("_avx2", "_avx512")) for built in portable)


@needs_sources
def test_setup_py_builds_what_the_registry_names():
    text = (ROOT / "setup.py").read_text()
    assert 'REGISTRY["builds"](wide=with_simd)' in text
    assert not re.search(r"\b\d+ (extension )?modules\b", text), "setup.py names a count of modules"


@needs_sources
def test_the_readme_counts_the_extension_modules_the_registry_builds():
    readme = (ROOT / "README.md").read_text()
    counts = re.findall(r"\b(\d+) extension modules\b", readme)
    assert counts, "the README no longer counts the extension modules: drop this test with it"
    assert {int(c) for c in counts} == {len(registry.builds())}, (
        f"the README counts {counts} extension modules; the registry builds {len(registry.builds())}")


@needs_sources
def test_every_test_and_benchmark_module_is_in_the_mypy_list():
    text = (ROOT / "pyproject.toml").read_text()
    block = text[text.index("# Every module of tests/ and bench/"):]
    listed = set(re.findall(r'"(\w+)"', block[: block.index("]")]))
    modules = {path.stem for folder in ("tests", "bench") for path in (ROOT / folder).glob("*.py")}
    missing = sorted(modules - listed)
    assert not missing, f"pyproject.toml's mypy override list lacks {missing}"
