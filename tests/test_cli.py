"""The command line, called in-process and as `python -m lightsout`."""
from __future__ import annotations

import subprocess
import sys

import numpy as np

import oracle
from lightsout.cli import main


def test_first_row_prints_bits(capsys):
    assert main(["first-row", "6"]) == 0
    bits = capsys.readouterr().out.strip()
    row = np.array([c == "1" for c in bits])
    assert len(row) == 6
    _, lights = oracle.chase_fast(np.ones((6, 6), bool), [row])
    assert not lights.any()


def test_rectangle_and_nullity(capsys):
    assert main(["nullity", "5"]) == 0
    assert capsys.readouterr().out.strip() == str(oracle.nullity(5, 5))
    assert main(["nullity", "4", "7", "--method", "dense"]) == 0
    assert capsys.readouterr().out.strip() == str(oracle.nullity(4, 7))


def test_solve_file(tmp_path, capsys):
    path = tmp_path / "board.txt"
    path.write_text("#.#\n.#.\n#.#\n")
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    presses = np.array([[c == "1" for c in line] for line in out])
    board = np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]])
    assert oracle.clears(board, presses)


def test_errors_have_exit_codes(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("1000\n1000\n1000\n1000\n")
    assert main(["solve", str(path)]) == 1
    assert "cannot be turned dark" in capsys.readouterr().err
    assert main(["solve", str(tmp_path / "missing.txt")]) == 2
    assert main(["first-row", "3", "5"]) in (0, 1)


def test_module_entry_point(tmp_path):
    # Run outside the checkout, so the installed package is imported, not the source tree.
    run = dict(capture_output=True, text=True, cwd=tmp_path)
    done = subprocess.run([sys.executable, "-m", "lightsout", "first-row", "3"], **run)
    assert done.returncode == 0 and done.stdout.strip() == "101"
    bad = subprocess.run([sys.executable, "-m", "lightsout", "first-row", "-4"], **run)
    assert bad.returncode == 2 and "positive integer" in bad.stderr
