"""Every module path the project names exists, and no message sends a user to a private module.

Modules move (issue 17 moved most of them into floors); a dotted ``lightsout.``
path or a ``lightsout/`` file path left behind in a docstring, a guide page, a
test or a benchmark sends its reader nowhere.  These tests read every tracked
text file of the checkout (the changelogs excepted: they describe the past) and
resolve every such name: a dotted path by importing its longest module prefix
and looking the rest up as attributes, a file path against the checkout.

Users see the messages of the package's exceptions and warnings; a message that
names a private module path (``lightsout._search...``) goes stale at the next
move and points at nothing a user can read, so messages name the public
``lightsout.limits`` (or another public name) instead.
"""
from __future__ import annotations

import ast
import importlib
import re
import subprocess
import warnings
from pathlib import Path

import pytest

import lightsout

ROOT = Path(__file__).resolve().parent.parent
#: The folders and files whose text is read for names.
SCANNED = ("lightsout", "docs", "tests", "bench", "examples", "scripts", "README.md", "setup.py",
           "pyproject.toml", ".ci")
#: Text files only; the changelogs tell history, in the names of their day.
SUFFIXES = {".py", ".pyx", ".pxd", ".pxi", ".pyi", ".h", ".c", ".md", ".rst", ".txt", ".toml", ".cfg", ".sh", ".js",
            ".html", ".ipynb", ""}
HISTORY = {"CHANGELOG.md", "docs/changelog.md"}

DOTTED = re.compile(r"(?<![\w.])lightsout(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
FILE_PATH = re.compile(r"(?<![\w./-])lightsout/[A-Za-z0-9_./*-]*[A-Za-z0-9_*/]")
#: File names that are build products: they exist after a build, not in a checkout.
BUILD_PRODUCT = re.compile(r"\.(c|so|pyd|o)$|_cyutility")
#: The flat layout of the gate's reference commit (bench/reference), which the benchmarks still find
#: their modules in (bench/private.py, bench/compiled.py): allowed under bench/ only.
REFERENCE_LAYOUT = {"lightsout._dispatch", "lightsout._fewest", "lightsout._gf2poly", "lightsout._many",
                    "lightsout._modelim", "lightsout._modring", "lightsout._ndroute", "lightsout._packing",
                    "lightsout._search.manyboards"}


def _tracked_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "--", *SCANNED], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the names are checked in the source tree")
    files = [ROOT / name for name in listed if name not in HISTORY]
    return [path for path in files if path.suffix in SUFFIXES and path.is_file()]


def _names(pattern: re.Pattern[str]) -> dict[str, list[str]]:
    """Every match of ``pattern`` in the tracked text files: name -> the places it stands."""
    found: dict[str, list[str]] = {}
    for path in _tracked_files():
        if path == Path(__file__).resolve():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        where = str(path.relative_to(ROOT))
        for number, line in enumerate(text.splitlines(), 1):
            for match in pattern.finditer(line):
                name = match.group(0)
                if line[match.end():match.end() + 1] in ("{", "<"):
                    continue  # a template: lightsout._kernels.chase_{level}
                if where.startswith("bench/") and name in REFERENCE_LAYOUT:
                    continue
                found.setdefault(name, []).append(f"{where}:{number}")
    return found


def _resolves(dotted: str) -> bool:
    """Whether ``dotted`` names a module, an attribute reached from its longest importable module prefix,
    or a Cython declaration file (``cimport lightsout._kernels.bitrow``)."""
    parts = dotted.split(".")
    if parts[-1] == "_capi":
        return True  # a PyCapsule's name (lightsout/capi.h), not a module path
    if any((ROOT / Path(*parts)).with_suffix(suffix).is_file() for suffix in (".pxd", ".pyx")):
        return True
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        with warnings.catch_warnings():  # a deprecated name still resolves (lightsout.graph.METHODS)
            warnings.simplefilter("ignore", DeprecationWarning)
            for attribute in parts[cut:]:
                if not hasattr(obj, attribute):
                    return False
                obj = getattr(obj, attribute)
        return True
    return False


def test_every_dotted_lightsout_path_resolves():
    names = _names(DOTTED)
    assert names, "no dotted lightsout paths found: the scan itself is broken"
    stale = {name: places for name, places in names.items() if not _resolves(name)}
    assert not stale, "dotted paths that name nothing (module or attribute moved?):\n" + "\n".join(
        f"  {name}: {', '.join(places[:4])}" for name, places in sorted(stale.items()))


def test_every_lightsout_file_path_exists():
    names = _names(FILE_PATH)
    assert names, "no lightsout/ file paths found: the scan itself is broken"
    stale = {}
    for name, places in names.items():
        path = name.rstrip("/.")
        if "*" in path or BUILD_PRODUCT.search(path):
            exists = (ROOT / path).parent.is_dir()  # a pattern or a build product: its folder exists
        else:
            exists = (ROOT / path).exists()
        if not exists:
            stale[name] = places
    assert not stale, "file paths that name nothing (file moved?):\n" + "\n".join(
        f"  {name}: {', '.join(places[:4])}" for name, places in sorted(stale.items()))


def _message_strings(tree: ast.AST) -> list[tuple[int, str]]:
    """The literal text of every exception made and warning issued in a module: (line, text)."""
    texts: list[tuple[int, str]] = []

    def literal_parts(node: ast.AST) -> list[str]:
        return [piece.value for piece in ast.walk(node)
                if isinstance(piece, ast.Constant) and isinstance(piece.value, str)]

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            # AttributeError keeps Python's own wording ("module 'lightsout._kernels' has no attribute ...")
            if name in {"warn", "unsolvable_error"} or (name.endswith("Error") and name != "AttributeError"):
                texts += [(node.lineno, text) for text in literal_parts(node)]
    return sorted(set(texts))


PRIVATE_PATH = re.compile(r"lightsout[./]_[a-z]")


def test_no_message_names_a_private_module_path():
    package = Path(lightsout.__file__).resolve().parent
    offenders = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, text in _message_strings(tree):
            if PRIVATE_PATH.search(text):
                offenders.append(f"{path.relative_to(package.parent)}:{line}: {text.strip()[:100]}")
    assert not offenders, "messages that name a private module path (name lightsout.limits or a public name):\n" + \
        "\n".join(offenders)


def test_the_scans_catch_what_they_look_for():
    # the checks above pass on a clean tree; make sure they would fail on a stale one
    assert not _resolves("lightsout._no_such_module.MAX_X")
    assert not _resolves("lightsout.solve.no_such_attribute")
    assert _resolves("lightsout.Solution.minimal") and _resolves("lightsout._kernels.registry")
    assert DOTTED.findall("see lightsout._search.minweight.MAX_UNTIMED_NULLITY.") == [
        "lightsout._search.minweight.MAX_UNTIMED_NULLITY"]
    assert FILE_PATH.findall("(`lightsout/_core/rules.py`)") == ["lightsout/_core/rules.py"]
    tree = ast.parse("raise ValueError(f'over the limit ({x}, lightsout._base.validate.MAX_X)')")
    assert any(PRIVATE_PATH.search(text) for _, text in _message_strings(tree))


# lightsout.limits: one public name for every limit, the very value its home module checks ------------

#: MAX_* constants that are not limits a user meets in a refusal, and why.
NOT_PUBLIC_LIMITS = {
    "MAX_TIE_ELEMENTS": "the search's tie rule switches to an ordered scan past it; nothing is refused",
    "MAX_TIE_TASKS": "the same switch, in the tasks' tie list",
    # the play page's own limits, documented in lightsout.play.api (a front-end: the library does not name them)
    "MAX_SIDE": "the play page's", "MAX_BODY_BYTES": "the play page's", "MAX_TIME_LIMIT": "the play page's",
    "MAX_QUIET_PATTERNS": "the play page's", "MAX_WORKERS": "the play page's", "MAX_QUEUED": "the play page's",
    "MAX_PENDING": "the play page's", "MAX_HEADER_BYTES": "the play page's", "MAX_STENCIL_SIDE": "the play page's",
}


def _limit_homes() -> dict[str, tuple[str, str]]:
    """lightsout/limits.py's own statement of where each name comes from: public name -> (module, attribute)."""
    tree = ast.parse(Path(lightsout.limits.__file__).read_text(encoding="utf-8"))
    modules: dict[str, str] = {}
    homes = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lightsout"):
            for alias in node.names:
                modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute) \
                and isinstance(node.value.value, ast.Name):
            (target,) = node.targets
            assert isinstance(target, ast.Name)
            homes[target.id] = (modules[node.value.value.id], node.value.attr)
    return homes


def _defined_limits() -> dict[str, list[str]]:
    """Every module-level MAX_* assignment in the package's Python modules: name -> the modules that define it."""
    package = Path(lightsout.__file__).resolve().parent
    found: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        if path.name == "limits.py" and path.parent == package:
            continue
        module = ".".join(path.relative_to(package.parent).with_suffix("").parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                if isinstance(node, ast.AnnAssign) else []
            for target in targets:
                if isinstance(target, ast.Name) and target.id.startswith("MAX_"):
                    found.setdefault(target.id, []).append(module)
    return found


def test_every_name_in_lightsout_limits_is_the_very_object_its_home_module_checks():
    homes = _limit_homes()
    assert set(homes) == set(lightsout.limits.__all__), "every public limit is one assignment from its home"
    for name, (module_name, attribute) in homes.items():
        home = importlib.import_module(module_name)
        assert getattr(lightsout.limits, name) is getattr(home, attribute), name
        # defined there (not imported from elsewhere) and used there, beyond its definition
        tree = ast.parse(Path(home.__file__).read_text(encoding="utf-8"))
        defined = [node for node in tree.body if isinstance(node, ast.Assign)
                   and any(isinstance(t, ast.Name) and t.id == attribute for t in node.targets)]
        used = [node for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id == attribute
                and isinstance(node.ctx, ast.Load)]
        assert defined, f"lightsout.limits.{name}: {module_name} does not define {attribute}"
        assert used, f"lightsout.limits.{name}: {module_name} defines {attribute} but checks nothing with it"


def test_every_public_limit_is_named_in_lightsout_limits():
    exported = {attribute for _, attribute in _limit_homes().values()}
    missing = {name: where for name, where in _defined_limits().items()
               if name not in exported and name not in NOT_PUBLIC_LIMITS}
    assert not missing, f"limits that lightsout.limits does not name (add them, or say why not): {missing}"
    stale = set(NOT_PUBLIC_LIMITS) - set(_defined_limits())
    assert not stale, f"NOT_PUBLIC_LIMITS names what no module defines: {stale}"


LIMIT_NAME = re.compile(r"lightsout\.limits\.([A-Za-z_][A-Za-z0-9_]*)")


def _all_message_texts() -> list[tuple[str, str]]:
    package = Path(lightsout.__file__).resolve().parent
    return [(f"{path.relative_to(package.parent)}:{line}", text) for path in sorted(package.rglob("*.py"))
            for line, text in _message_strings(ast.parse(path.read_text(encoding="utf-8")))]


def test_every_limit_a_message_names_exists():
    named = {(place, name) for place, text in _all_message_texts() for name in LIMIT_NAME.findall(text)}
    assert len(named) > 30, "the messages name too few limits: the scan itself is broken"
    unknown = sorted(f"{place}: lightsout.limits.{name}" for place, name in named
                     if name not in lightsout.limits.__all__)
    assert not unknown, "messages name limits that lightsout.limits does not have:\n" + "\n".join(unknown)


def test_every_size_refusal_names_its_limit():
    # BoardTooLargeError says what was too large against which limit, under its public name
    unnamed = []
    package = Path(lightsout.__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == \
                    "BoardTooLargeError":
                text = "".join(piece.value for piece in ast.walk(node)
                               if isinstance(piece, ast.Constant) and isinstance(piece.value, str))
                # Pillow's own limit, and the free space of a disk, are no limits of ours
                if "lightsout.limits." not in text and "MAX_IMAGE_PIXELS" not in text and " GB free" not in text:
                    unnamed.append(f"{path.relative_to(package.parent)}:{node.lineno}: {text[:90]}")
    assert not unnamed, "size refusals that name no lightsout.limits limit:\n" + "\n".join(unnamed)


def test_the_limit_scans_catch_what_they_look_for():
    text = "over the limit (lightsout.limits.MAX_X), or lightsout.limits.MAX_Y"
    assert LIMIT_NAME.findall(text) == ["MAX_X", "MAX_Y"]
    assert "MAX_BOARD_CELLS" in _defined_limits() and "MAX_ND_WORD_OPS" in _defined_limits()
    assert _limit_homes()["MAX_GF2_BYTES"] == ("lightsout._core.bitmatrix", "MAX_BYTES")
