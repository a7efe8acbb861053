"""Benchmarks of the board helpers: ``press``, ``chase``, ``all_lit``, ``format_board``, ``parse_board``.

Sizes keep the arrays within the core's own L2 cache where the work allows: a
memory-bound benchmark measures the neighbours' traffic on a shared machine.

Run: python -m pytest bench/bench_board.py --benchmark-only
"""
from __future__ import annotations

import numpy as np

import lightsout


def _board(n: int) -> np.ndarray:
    return np.random.default_rng(20261121).random((n, n)) < 0.5


def test_board_press_2000(gate):
    board = _board(2000)
    gate(lightsout.press, board, board)


def test_board_chase_1000(gate):
    board = _board(1000)
    gate(lightsout.chase, board, board[0])


def test_board_all_lit_1000(gate):
    gate(lightsout.all_lit, 1000)


def test_board_format_500(gate):
    gate(lightsout.format_board, _board(500))


def test_board_parse_500(gate):
    text = lightsout.format_board(_board(500))
    assert gate(lightsout.parse_board, text).shape == (500, 500)
