"""press, chase, parse_board and format_board against the oracle."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import oracle
import lightsout
from lightsout import InvalidBoardError, InvalidTypeError

boards = st.tuples(st.integers(1, 9), st.integers(1, 70)).flatmap(
    lambda shape: arrays(bool, shape))


@settings(max_examples=150, deadline=None)
@given(boards, st.data())
def test_press_matches_cell_by_cell_replay(board, data):
    presses = data.draw(arrays(bool, board.shape))
    assert np.array_equal(lightsout.press(board, presses), oracle.replay(board, presses).astype(bool))


@settings(max_examples=150, deadline=None)
@given(boards, st.data())
def test_chase_matches_oracle(board, data):
    first = data.draw(arrays(bool, board.shape[1]))
    expected, _ = oracle.chase(board, first)
    assert np.array_equal(lightsout.chase(board, first), expected.astype(bool))


def test_chase_at_word_boundaries(rng):
    for cols in (63, 64, 65, 127, 128, 129, 257):
        board = rng.random((5, cols)) < 0.5
        first = rng.random(cols) < 0.5
        presses, _ = oracle.chase_fast(board, [first])
        assert np.array_equal(lightsout.chase(board, first), presses[0])


def test_parse_and_format_round_trip(rng):
    board = rng.random((7, 13)) < 0.5
    assert np.array_equal(lightsout.parse_board(lightsout.format_board(board)), board)
    assert np.array_equal(lightsout.parse_board(lightsout.format_board(board, "#", ".")), board)


@pytest.mark.parametrize("text, message", [
    ("", "no rows"), ("10\n1", "different widths"), ("1a0", "unexpected character"),
])
def test_parse_board_errors(text, message):
    with pytest.raises(InvalidBoardError, match=message):
        lightsout.parse_board(text)


def test_bad_arguments():
    with pytest.raises(InvalidBoardError, match="shape"):
        lightsout.press(np.zeros((2, 2)), np.zeros((2, 3)))
    with pytest.raises(InvalidBoardError, match="length 3"):
        lightsout.chase(np.zeros((2, 3)), [1, 0])
    with pytest.raises(InvalidBoardError):
        lightsout.chase(np.zeros((2, 3)), [1, 0, 2])
    with pytest.raises(InvalidTypeError):
        lightsout.parse_board(b"101")
    with pytest.raises(InvalidTypeError):
        lightsout.all_lit(2.0)
