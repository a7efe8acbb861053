"""Static typing: mypy --strict is clean on the package, and kernel calls are type-checked.

The package calls kernels as ``kernels.<name>.<function>`` after ``from lightsout
import _kernels as kernels``; mypy reads ``kernels.<name>`` as the module its
``.pyi`` stub describes, so a wrong kernel call is a type error, not an ``Any``.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import numpy as np

pytest.importorskip("mypy")
# numpy's stubs before 2.3 give ndarray no default type arguments, so every bare
# ``np.ndarray`` annotation fails --strict there (numpy 2.3 needs Python >= 3.11).
# The package is held to --strict with current numpy; CI's main run checks that.
# mypy runs for seconds a call: these are thorough tests (CI also runs mypy on the package itself)
pytestmark = [pytest.mark.skipif(
    tuple(int(part) for part in np.__version__.split(".")[:2]) < (2, 3),
    reason="mypy --strict is checked against numpy >= 2.3 stubs"), pytest.mark.thorough]
REPO = Path(__file__).resolve().parent.parent


def _mypy(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--config-file",
                           str(REPO / "pyproject.toml"), *args], cwd=cwd, capture_output=True, text=True)


def test_package_is_clean_under_mypy_strict():
    done = _mypy(str(REPO / "lightsout"), cwd=REPO)
    assert done.returncode == 0, done.stdout + done.stderr


def test_wrong_kernel_calls_are_type_errors(tmp_path):
    snippet = tmp_path / "snippet.py"
    snippet.write_text(
        "import numpy as np\n"
        "from lightsout import _kernels as kernels\n"
        "residue, presses = kernels.chase.chase(None, 3, 3, np.zeros(1, np.uint64))\n"
        "kernels.gf2poly.poly_degree('x')\n"
        "kernels.gf2elim.rref_inplace(np.zeros((1, 1), np.uint64), 1, method='gauss')\n"
        "kernels.gf2pol.poly_degree(np.zeros(1, np.uint64))\n"
    )
    done = _mypy("--strict", str(snippet), cwd=REPO)
    errors = [line for line in done.stdout.splitlines() if line.startswith(str(snippet))]
    assert any(":3:" in line and "unpack" in line for line in errors), done.stdout
    assert any(":4:" in line and "poly_degree" in line for line in errors), done.stdout
    assert any(":5:" in line and "rref_inplace" in line for line in errors), done.stdout
    assert any(":6:" in line and "gf2pol" in line for line in errors), done.stdout  # no module of that name
