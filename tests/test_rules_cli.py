"""The command line's first-row under press stencils (issue 30), checked with the tests' own model."""
from __future__ import annotations

import json

import numpy as np
import pytest

import oracle
from lightsout.cli import main

from test_rules_first_row import chase_rows_down, top_entry

PLUS2 = np.array([[0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [1, 1, 1, 1, 1], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0]])


@pytest.fixture
def plus2_file(tmp_path):
    path = tmp_path / "plus2.txt"
    path.write_text("\n".join("".join("1" if w else "." for w in row) for row in PLUS2) + "\n")
    return str(path)


def _clears(rows, shape, weights, states=2):
    centre = (weights.shape[0] // 2, weights.shape[1] // 2)
    matrix = oracle.stencil_matrix(shape, False, weights, centre, states)
    lit = np.ones(shape, dtype=np.int64)
    presses = chase_rows_down(matrix, lit, rows, shape, top_entry(weights, centre), states, False)
    return not oracle.stencil_replay(lit, presses, matrix, states).any()


def test_first_row_of_a_stencil_file_prints_its_rows_that_chase_the_board_dark(plus2_file, capsys):
    assert main(["first-row", "7", "6", "--stencil-file", plus2_file]) == 0
    lines = capsys.readouterr().out.split()
    rows = np.array([[int(c) for c in line] for line in lines])
    assert rows.shape == (2, 6)
    assert _clears(rows, (7, 6), PLUS2)
    assert main(["first-row", "7", "6", "--stencil-file", plus2_file, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["rows"] == 2 and record["first_rows"] == rows.tolist() and record["shape"] == [7, 6]
    assert main(["first-row", "7", "6", "--stencil-file", plus2_file, "--format", "hex"]) == 0
    hexed = capsys.readouterr().out.split()
    unpacked = [np.unpackbits(np.frombuffer(bytes.fromhex(h), np.uint8), bitorder="little")[:6] for h in hexed]
    assert np.array_equal(np.array(unpacked), rows)


def test_first_row_with_k_states_and_a_one_row_stencil(tmp_path, capsys):
    path = tmp_path / "lean.txt"
    path.write_text(".2.\n111\n...\n")  # a one-way rule: the cell above (weight 2) and the row, mod 3
    weights = np.array([[0, 2, 0], [1, 1, 1], [0, 0, 0]])
    matrix = oracle.stencil_matrix((4, 4), (False, True), weights, (1, 1), 3)
    lit = np.ones((4, 4), dtype=np.int64)
    solvable = oracle.solve_mod_prime(matrix, (-lit.ravel()) % 3, 3) is not None
    status = main(["first-row", "4", "--stencil-file", str(path), "--states", "3", "--torus", "cols"])
    assert status == (0 if solvable else 1)
    if solvable:
        row = np.array([int(c) for c in capsys.readouterr().out.split()[0]])
        presses = chase_rows_down(matrix, lit, [row], (4, 4), (1, 0, 2), 3, True)
        assert not oracle.stencil_replay(lit, presses, matrix, 3).any()


def test_todays_rule_named_keeps_todays_output(capsys):
    for extra in ([], ["--torus"], ["--states", "3"]):
        assert main(["first-row", "9", *extra]) == 0
        plain = capsys.readouterr().out
        assert main(["first-row", "9", "--stencil", "plus", *extra]) == 0
        assert capsys.readouterr().out == plain


@pytest.mark.parametrize("stencil, words", [("moore", "holds 3 weights"), ("knight", "holds 2 weights")])
def test_a_stencil_that_does_not_chase_is_one_line_with_exit_2(stencil, words, capsys):
    assert main(["first-row", "5", "--stencil", stencil]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("lightsout: ") and words in captured.err
    assert "lightsout solve --all-lit 5 5 --stencil" in captured.err and "Traceback" not in captured.err
    assert main(["first-row", "5", "--stencil", stencil, "--json"]) == 2
    record = json.loads(capsys.readouterr().out)
    assert record["exit_status"] == 2 and words in record["error"]


def test_an_unsolvable_all_lit_board_exits_1_and_both_stencil_flags_exit_2(plus2_file, capsys):
    sigma = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    assert oracle.solve_mod_prime(oracle.stencil_matrix((5, 5), False, sigma, (1, 1), 2), np.ones(25), 2) is None
    assert main(["first-row", "5", "--stencil", "sigma"]) == 1
    assert "cannot be turned dark" in capsys.readouterr().err
    assert main(["first-row", "5", "--stencil", "x", "--stencil-file", plus2_file]) == 2
    assert "not both" in capsys.readouterr().err


# -- terminal pictures of the masks ------------------------------------------------------------------

def _cells_of(line, ncols, width):
    return [line[c * width:(c + 1) * width] for c in range(ncols)]


@pytest.mark.parametrize("seed", range(12))
def test_block_pictures_mark_holes_unpressable_cells_and_free_lights(seed):
    from lightsout.picture import board_blocks

    rng = np.random.default_rng(500 + seed)
    shape = (int(rng.integers(1, 5)), int(rng.integers(1, 6)))
    board = rng.integers(0, 2, size=shape)
    presses = rng.integers(0, 2, size=shape)
    holes, unpressable, free = (rng.random(shape) < 0.3 for _ in range(3))
    text = board_blocks(board, presses, holes=holes, unpressable=unpressable, free_lights=free)
    marks = [mark for mark, mask in (("/", unpressable), ("'", free)) if mask.any()]  # a column each, when used
    width = 2 + len(marks) + (1 if marks or holes.any() else 0)  # two characters, the mark columns, a space
    lines = text.split("\n")
    assert len(lines) == shape[0] + 1
    for r, line in enumerate(lines[1:]):
        board_cells = _cells_of(line.ljust(2 * shape[1] * width + 20), shape[1], width)
        offset = max(shape[1] * width, 5) + 2
        press_cells = _cells_of(line[offset:].ljust(shape[1] * width), shape[1], width)
        for c in range(shape[1]):
            for cell, lit in ((board_cells[c], board[r, c]), (press_cells[c], presses[r, c])):
                if holes[r, c]:
                    assert cell.strip() == "~"
                    continue
                assert cell[:2] == ("██" if lit else "··")
                shown = cell[2:2 + len(marks)]
                for mark, mask in (("/", unpressable), ("'", free)):
                    if mark in marks:
                        assert shown[marks.index(mark)] == (mark if mask[r, c] else " ")


def test_solve_draws_a_marked_board_with_its_marks(tmp_path, capsys):
    path = tmp_path / "marked.txt"
    path.write_text("1 1 ~\n1/ 0 0'\n1 1 1\n")
    assert main(["solve", str(path), "--format", "picture", "--color", "never"]) == 0
    lines = capsys.readouterr().out.rstrip("\n").split("\n")
    assert lines[0].split() == ["board", "presses"]
    assert lines[1].count("~") == 2 and lines[2].count("/") == 2 and lines[2].count("'") == 2
    assert lines[3].count("/") == lines[3].count("'") == lines[3].count("~") == 0
    assert main(["solve", str(path), "--format", "picture", "--color", "always"]) == 0
    coloured = capsys.readouterr().out
    assert coloured.count("~") == 1 and coloured.count("/") == 1 and coloured.count("'") == 1


def test_radius_names_the_wider_plus_and_agrees_with_the_stencil_file(plus2_file, capsys):
    assert main(["first-row", "12", "--stencil", "plus", "--radius", "2"]) == 0
    named = capsys.readouterr().out.split()
    assert main(["first-row", "12", "--stencil-file", plus2_file]) == 0
    assert named == capsys.readouterr().out.split()
    rows = np.array([[int(c) for c in line] for line in named])
    assert rows.shape == (2, 12) and _clears(rows, (12, 12), PLUS2)
    assert main(["nullity", "5", "--stencil", "x", "--radius", "1"]) == 0
    capsys.readouterr()
    assert main(["first-row", "5", "--stencil", "knight", "--radius", "2"]) == 2
    assert "--radius goes with" in capsys.readouterr().err
