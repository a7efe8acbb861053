"""Build examples/embed (Cython) and examples/embed_c (plain C) against the installed lightsout and run them.

The Cython example cimports lightsout's contract (lightsout/capi.pxd, capi.h), the C
one includes lightsout/capi.h alone; each fills a matrix in its own malloc'd buffer and
eliminates it without the GIL through the table lightsout's dispatcher picked.  Their
ranks are checked against tests/oracle.py's textbook elimination on the same matrix
(the examples hand the matrix out as 0/1 lists), and the SIMD level they report
against lightsout._kernels.  Skipped only when no C compiler, Cython or setuptools is
available.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import numpy as np
import pytest

import oracle
from conftest import missing_build_tools
from lightsout._kernels import available_levels, selected_level

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "embed"
C_EXAMPLE = EXAMPLE.parent / "embed_c"


pytestmark = pytest.mark.skipif(missing_build_tools() is not None, reason=str(missing_build_tools()))


@pytest.fixture(scope="module")
def example_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/embed copied to a temporary folder and built in place with its own setup.py."""
    folder = tmp_path_factory.mktemp("embed") / "embed"
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("build", "*.so", "*.c", "*.egg-info"))
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=folder,
                           capture_output=True, text=True)
    assert build.returncode == 0, f"building examples/embed failed:\n{build.stdout}\n{build.stderr}"
    return folder


def run_example(folder: Path, code: str, level: Optional[str] = None) -> str:
    """Run Python code next to the built example (a fresh process), LIGHTSOUT_SIMD=level if given."""
    env = dict(os.environ)
    env.pop("LIGHTSOUT_SIMD", None)
    if level is not None:
        env["LIGHTSOUT_SIMD"] = level
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def example_call(folder: Path, expression: str, level: Optional[str] = None, module: str = "lightsout_embed") -> Any:
    return json.loads(run_example(folder, f"import json, {module} as e; print(json.dumps({expression}))", level))


@pytest.mark.parametrize("nrows, ncols", [(1, 1), (40, 70), (64, 64), (65, 129), (150, 257)])
def test_rank_matches_oracle(example_dir: Path, simd_level: str, nrows: int, ncols: int) -> None:
    # 150 rows > the four-Russians threshold, so the table update runs too.
    seed = nrows * 1000 + ncols
    got = example_call(example_dir, f"[e.rank({nrows}, {ncols}, {seed}), e.random_matrix({nrows}, {ncols}, {seed})]",
                       simd_level)
    (rank, level), bits = got
    assert np.array(bits).shape == (nrows, ncols)
    assert rank == oracle.gf2_rank(bits)
    assert level == simd_level


def test_default_level_is_the_dispatchers(example_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # With no LIGHTSOUT_SIMD the example gets the widest level the CPU runs (AVX-512 where present).
    monkeypatch.delenv("LIGHTSOUT_SIMD", raising=False)
    _, level = example_call(example_dir, "e.rank(10, 10)")
    assert level == selected_level() == available_levels()[0]


def test_main_prints_rank_and_level(example_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LIGHTSOUT_SIMD", raising=False)
    out = run_example(example_dir, "import lightsout_embed; lightsout_embed.main()")
    bits = example_call(example_dir, "e.random_matrix(200, 300)")
    expected = f"rank of the 200 x 300 matrix: {oracle.gf2_rank(bits)} (lightsout SIMD level: {selected_level()})"
    assert out.splitlines()[0] == expected


@pytest.mark.parametrize("nrows, ncols", [(5, 5), (3, 64), (4, 65)])
def test_chase_matches_oracle(example_dir: Path, simd_level: str, nrows: int, ncols: int) -> None:
    first_row = [(j * 7 + 3) % 3 == 0 for j in range(ncols)]
    got = example_call(example_dir, f"e.chase_all_lit({nrows}, {ncols}, {[int(b) for b in first_row]})", simd_level)
    if got is None:
        pytest.skip("this build of lightsout._kernels.chase exports no _capi (chase C API) yet")
    residue, level = got
    _, left = oracle.chase(np.ones((nrows, ncols), dtype=np.uint8), [int(b) for b in first_row])
    # The lights left in the last row are what a next row of presses would have to clear.
    assert residue == left[-1].tolist()
    assert level == simd_level


# --- the plain C example: lightsout/capi.h's own import functions, nothing copied ---------------

@pytest.fixture(scope="module")
def c_example_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/embed_c copied to a temporary folder and built in place with its own setup.py."""
    folder = tmp_path_factory.mktemp("embed_c") / "embed_c"
    shutil.copytree(C_EXAMPLE, folder, ignore=shutil.ignore_patterns("build", "*.so", "*.egg-info"))
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=folder,
                           capture_output=True, text=True)
    assert build.returncode == 0, f"building examples/embed_c failed:\n{build.stdout}\n{build.stderr}"
    return folder


def c_call(folder: Path, expression: str, level: Optional[str] = None) -> Any:
    return example_call(folder, expression, level, module="lightsout_embed_c")


def test_the_c_example_needs_only_the_header() -> None:
    source = (C_EXAMPLE / "lightsout_embed_c.c").read_text()
    assert '#include "lightsout/capi.h"' in source
    assert "_capi" not in source and "PyCapsule" not in source      # no capsule name, no copied import code


@pytest.mark.parametrize("nrows, ncols", [(1, 1), (40, 70), (64, 64), (65, 129), (150, 257)])
def test_c_rank_matches_oracle(c_example_dir: Path, simd_level: str, nrows: int, ncols: int) -> None:
    seed = nrows * 1000 + ncols + 7
    (rank, level), bits = c_call(c_example_dir, f"[e.rank({nrows}, {ncols}, {seed}), "
                                                f"e.random_matrix({nrows}, {ncols}, {seed})]", simd_level)
    assert np.array(bits).shape == (nrows, ncols)
    assert rank == oracle.gf2_rank(bits)
    assert level == simd_level


@pytest.mark.parametrize("nrows, ncols", [(5, 5), (3, 64), (4, 65), (7, 130)])
def test_c_chase_matches_oracle(c_example_dir: Path, simd_level: str, nrows: int, ncols: int) -> None:
    first_row = [int((j * 7 + 3) % 3 == 0) for j in range(ncols)]
    residue, level = c_call(c_example_dir, f"e.chase_all_lit({nrows}, {ncols}, {first_row})", simd_level)
    _, left = oracle.chase(np.ones((nrows, ncols), dtype=np.uint8), first_row)
    assert residue == left[-1].tolist()
    assert level == simd_level


def test_c_main_prints_what_its_readme_shows(c_example_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LIGHTSOUT_SIMD", raising=False)
    out = run_example(c_example_dir, "import lightsout_embed_c; lightsout_embed_c.main()").splitlines()
    level = selected_level()
    bits = c_call(c_example_dir, "e.random_matrix(200, 300)")
    assert out[0] == f"rank of the 200 x 300 matrix: {oracle.gf2_rank(bits)} (lightsout SIMD level: {level})"
    _, left = oracle.chase(np.ones((5, 5), dtype=np.uint8), [1, 1, 0, 0, 0])
    verdict = "solves it" if not left[-1].any() else "does not solve it"
    assert out[1] == (f"chase of the all-lit 5 x 5 board from first row 11000: residue "
                      f"{''.join(str(int(v)) for v in left[-1])}, so 11000 {verdict} (lightsout SIMD level: {level})")
    readme = (C_EXAMPLE / "README.md").read_text()
    for line in out:
        assert line.replace(level, "LEVEL") in readme


#: Python run beside the built C example: c_api() hands out a table the header must refuse.
_OLD_TABLE = """
import ctypes, lightsout._kernels as kernels, lightsout_embed_c as e
version = ctypes.c_int(0)                                   # a table of C API version 0
new = ctypes.pythonapi.PyCapsule_New
new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
name = b"lightsout._gf2elim._capi"
kernels.c_api = lambda module, level=None: new(ctypes.addressof(version), name, None)
try:
    e.rank(3, 3)
except ImportError as error:
    print(error)
def missing(module, level=None):
    raise AttributeError("_capi")
kernels.c_api = missing
try:
    e.chase_all_lit(3, 3, [1, 0, 1])
except ImportError as error:
    print(error)
"""


def test_c_import_refuses_an_older_or_missing_table(c_example_dir: Path) -> None:
    older, missing = run_example(c_example_dir, _OLD_TABLE).splitlines()
    assert older == ("lightsout._kernels.gf2elim C API version 0 is older than version 1 this extension was "
                     "compiled against; upgrade lightsout")
    assert missing == "lightsout._kernels.chase of this installation exports no C API (_capi)"
