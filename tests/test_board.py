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


# --- boards of k states given where two are the default: the message says how to ask for more ----

STATES_HINT = "lights with more states need states=K, K from 3 to 255"


@pytest.mark.parametrize("call", [
    lambda: lightsout.solve([[0, 1, 2]]),
    lambda: lightsout.solve(np.full((300, 300), 2, dtype=np.uint8)),     # the big boards' packed path
    lambda: lightsout.is_solvable([[2, 0], [0, 0]]),
    lambda: lightsout.press([[0, 2]], [[0, 0]]),
    lambda: lightsout.format_board([[0, 1, 2]], states=2),
])
def test_a_value_of_more_states_says_how_to_pass_them(call):
    with pytest.raises(InvalidBoardError, match="found 2") as error:
        call()
    assert STATES_HINT in str(error.value)


def test_other_values_are_named_without_the_hint():
    for board, found in (([[0, -1]], "found -1"), ([[0.5, 1]], "found 0.5")):
        with pytest.raises(InvalidBoardError, match=found) as error:
            lightsout.solve(board)
        assert "states=K" not in str(error.value)


def test_parse_board_says_how_to_read_more_states():
    with pytest.raises(InvalidBoardError, match="light state 2 is out of range 0..1.*states=K for K states"):
        lightsout.parse_board("012")


@pytest.mark.parametrize("states", [3, 4, 11])
def test_format_board_writes_a_k_state_solution_without_being_told(states):
    rng = np.random.default_rng(states)
    for _ in range(20):
        board = rng.integers(0, states, (3, 4))
        try:
            s = lightsout.solve(board, states=states)
        except lightsout.UnsolvableError:
            continue
        text = lightsout.format_board(s.presses)
        top = int(s.presses.max())
        assert text == lightsout.format_board(s.presses, states=max(top + 1, 2))
        presses = lightsout.parse_board(text, states=max(top + 1, 2))   # the states it was written with
        assert np.array_equal(presses, s.presses)
        assert not oracle.replay_nd(board, presses, states=states).any()   # the text's presses clear it
        return
    pytest.fail("no solvable board drawn")


def test_format_board_infers_two_states_for_zero_one_and_bools():
    assert lightsout.format_board([[True, False]]) == "10"
    assert lightsout.format_board(np.array([[1.0, 0.0]])) == "10"
    assert lightsout.format_board([[0, 12]]) == "0 12"        # 13 states: numbers separated by spaces


# --- masked arrays: refused, not solved with their mask dropped ----------------------------------

_MASKED = np.ma.masked_array(np.ones((3, 3), dtype=int), mask=np.eye(3, dtype=bool))
_BIG_MASKED = np.ma.masked_array(np.ones((300, 300), dtype=np.uint8), mask=np.eye(300, dtype=bool))


@pytest.mark.parametrize("name, call", [
    ("board", lambda: lightsout.solve(_MASKED)),
    ("board", lambda: lightsout.solve(_BIG_MASKED)),             # the big boards' packed path
    ("board", lambda: lightsout.solve(_MASKED, states=3, torus=True)),
    ("board", lambda: lightsout.is_solvable(_MASKED)),
    ("board", lambda: lightsout.press(_MASKED, np.zeros((3, 3), int))),
    ("presses", lambda: lightsout.press(np.zeros((3, 3), int), _MASKED)),
    ("board", lambda: lightsout.chase(_MASKED, [1, 0, 1])),
    ("first_row", lambda: lightsout.chase(np.ones((3, 3)), np.ma.masked_array([1, 0, 1], mask=[False, True, False]))),
    ("board", lambda: lightsout.format_board(_MASKED)),
    ("board", lambda: lightsout.write_board("never-written.txt", _MASKED)),     # refused before opening
    ("board", lambda: lightsout.picture.board_svg(_MASKED)),
    ("lit", lambda: lightsout.solve_graph([[0, 1], [1, 0]], np.ma.masked_array([1, 1], mask=[True, False]))),
    ("boards", lambda: lightsout.solve_many(np.ma.masked_array(np.ones((2, 3, 3), int), mask=False))),
])
def test_masked_arrays_are_refused(name, call):
    with pytest.raises(InvalidTypeError, match=f"{name} is a numpy masked array.*{name}.filled\\(0\\)"):
        call()


def test_the_filled_board_the_message_suggests_solves():
    s = lightsout.solve(_MASKED.filled(0))
    assert oracle.clears(_MASKED.filled(0), s.presses)
