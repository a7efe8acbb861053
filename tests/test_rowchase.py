"""The row chase (forcing rows inverted in linear time) against brute force, elimination and the windowed chase."""
from __future__ import annotations

import numpy as np
import pytest

import lightsout
import oracle
from lightsout import Stencil
from lightsout._kernels import load
from lightsout._routes import rowchase
from lightsout._routes.rowchase import rowchase_plan, solve_rowchase
from lightsout._routes.stencilchase import ChaseGeometry, chase_stencil, stencil_effect


def random_row_stencil(rng: np.random.Generator) -> Stencil:
    """A random 0/1 stencil whose forcing row, on a random side, is one cell in the pressed cell's column
    or a pair at -a and +a from it."""
    while True:
        height, width = (int(v) for v in rng.integers(1, 6, 2))
        weights = (rng.random((height, width)) < 0.4).astype(np.uint8)
        centre = (int(rng.integers(0, height)), int(rng.integers(0, width)))
        turned = bool(rng.integers(0, 2))
        w = weights.T.copy() if turned else weights
        c = (centre[1], centre[0]) if turned else centre
        edge = 0 if rng.integers(0, 2) else w.shape[0] - 1
        w[edge] = 0
        a = int(rng.integers(0, 3))
        if c[1] - a < 0 or c[1] + a >= w.shape[1]:
            continue
        w[edge, c[1] - a] = w[edge, c[1] + a] = 1
        weights = np.ascontiguousarray(w.T if turned else w)
        return Stencil(weights, centre)


def test_the_named_rules_plan_as_expected():
    knight = rowchase_plan((100, 100), Stencil.named("knight"))
    assert (knight.up, knight.pair, knight.unknowns, knight.turned) == (2, 1, 200, False)
    x = rowchase_plan((10, 12), Stencil.named("x"))
    assert (x.up, x.pair, x.unknowns) == (1, 1, 10)          # 10 odd rows chased along the columns: 12 rows of 10
    assert x.transpose
    assert rowchase_plan((9, 11), Stencil.named("x")) is None  # odd both ways: the pair is singular
    assert rowchase_plan((8, 8), Stencil.named("plus")).pair == 0
    assert rowchase_plan((8, 8), Stencil.named("moore")) is None
    assert rowchase_plan((8, 8, 8), Stencil.named("plus", ndim=3)) is None
    assert rowchase_plan((1, 8), Stencil.named("knight")) is None  # no row below the free ones either way


@pytest.mark.parametrize("seed", range(30))
def test_every_answer_is_the_brute_force_one(seed):
    rng = np.random.default_rng(9100 + seed)
    stencil = random_row_stencil(rng)
    tried = 0
    while tried < 3:
        shape = tuple(int(v) for v in rng.integers(1, 5, 2))
        if shape[0] * shape[1] > 14 or rowchase_plan(shape, stencil) is None:
            if rng.random() < 0.02:
                break
            continue
        tried += 1
        matrix = oracle.stencil_matrix(shape, False, stencil.weights, stencil.centre, 2)
        sets = [set(np.flatnonzero(matrix[:, p]).tolist()) for p in range(matrix.shape[1])]
        board = rng.integers(0, 2, shape).astype(np.uint8)
        solutions, quiet = oracle.exhaustive(sets, board)
        for kernel, canonical in ((True, True), (False, False), (True, False)):
            found = solve_rowchase(board, stencil, kernel=kernel, canonical=canonical)
            if found is None:  # left to the windowed chase: the smallest of several solutions of a turned board
                assert canonical and rowchase_plan(shape, stencil).turned and quiet > 1
                continue
            assert found.solvable == (len(solutions) > 0)
            assert 2 ** found.nullity == quiet
            if not found.solvable:
                if kernel:  # the proof: every press meets it evenly, the lit cells oddly
                    y = found.proof.astype(np.int64)
                    assert not (y @ matrix % 2).any() and y @ board.ravel() % 2 == 1
                continue
            assert not oracle.stencil_replay(board, found.particular.astype(np.int64), matrix, 2).any()
            if canonical:
                assert np.array_equal(found.particular, solutions[0])
            if kernel and found.nullity:
                basis = found.kernel_rows(board.size)
                assert oracle.gf2_rank(basis) == found.nullity
                assert not (matrix @ basis.T.astype(np.int64) % 2).any()


@pytest.mark.parametrize("seed", range(12))
def test_it_agrees_with_the_windowed_chase_on_larger_boards(seed):
    rng = np.random.default_rng(9200 + seed)
    stencil = random_row_stencil(rng)
    shape = tuple(int(v) for v in rng.integers(6, 40, 2))
    if rowchase_plan(shape, stencil) is None:
        shape = (shape[0] + 1, shape[1] + 1)
    board = rng.integers(0, 2, shape).astype(np.uint8)
    found = solve_rowchase(board, stencil, kernel=False, canonical=False)
    if found is None:
        pytest.skip("no orientation chases this stencil on this board")
    windowed = chase_stencil(shape, False, stencil.weights, stencil.centre, 2, board, canonical=True)
    assert (found.solvable, found.nullity) == (windowed.solvable, windowed.nullity)
    if found.solvable:
        matrix = oracle.stencil_matrix(shape, False, stencil.weights, stencil.centre, 2)
        assert not oracle.stencil_replay(board, found.particular.astype(np.int64), matrix, 2).any()
        smallest = solve_rowchase(board, stencil)
        if smallest is not None:
            assert np.array_equal(smallest.particular, windowed.particular)


@pytest.mark.parametrize("block", [1, 2, 3, 8])
@pytest.mark.parametrize("threads", [1, 2])
def test_blocks_and_threads_give_the_same_bits(monkeypatch, block, threads):
    monkeypatch.setattr(rowchase, "BLOCK_WORDS", block)
    knight = Stencil.named("knight")
    geometry = ChaseGeometry((30, 250), False, knight.weights, knight.centre, 2)
    pressed = np.random.default_rng(5).integers(0, 2, 30 * 250).astype(np.uint8)
    board = stencil_effect(geometry, np.ones(30 * 250, np.uint8), pressed).reshape(30, 250)   # solvable: A x
    found = solve_rowchase(board, knight, threads=threads)          # 500 unknowns: 8 words, blocks of `block`
    windowed = chase_stencil(board.shape, False, knight.weights, knight.centre, 2, board, canonical=True)
    assert found is not None and found.nullity == windowed.nullity
    assert np.array_equal(found.particular, windowed.particular)
    left = (stencil_effect(geometry, np.ones(board.size, np.uint8), found.particular) + board.ravel()) % 2
    assert not left.any()


def test_the_public_calls_take_it_and_replay_dark():
    rng = np.random.default_rng(6)
    for name in ("x", "knight"):
        stencil = Stencil.named(name)
        matrix = oracle.stencil_matrix((24, 30), False, stencil.weights, stencil.centre, 2)
        board = (matrix @ rng.integers(0, 2, 24 * 30) % 2).reshape(24, 30).astype(np.uint8)
        found = lightsout.solve(board, stencil=name)
        assert found.method == "stencilchase"
        assert not oracle.stencil_replay(board, found.presses.astype(np.int64), matrix, 2).any()
        assert lightsout.nullity((24, 30), stencil=name) == board.size - oracle.gf2_rank(matrix) == found.nullity


def test_an_unsolvable_board_gets_its_proof():
    shape = (6, 8)       # the knight's rule here has quiet patterns
    matrix = oracle.stencil_matrix(shape, False, Stencil.named("knight").weights, (2, 2), 2)
    assert oracle.gf2_rank(matrix) < matrix.shape[0]
    rng = np.random.default_rng(7)
    for _ in range(20):
        board = rng.integers(0, 2, shape).astype(np.uint8)
        if lightsout.is_solvable(board, stencil="knight"):
            continue
        with pytest.raises(lightsout.UnsolvableError) as caught:
            lightsout.solve(board, stencil="knight")
        proof = np.asarray(caught.value.proof, dtype=np.int64).ravel()
        assert not (proof @ matrix % 2).any() and proof @ board.ravel() % 2 == 1
        return
    pytest.fail("no unsolvable board drawn")


def test_the_kernel_refuses_what_it_cannot_chase():
    kernel = load("rowchase")
    init = np.zeros((9, 1), np.uint64)
    none = np.zeros(0, np.int64)
    with pytest.raises(ValueError, match="singular"):
        kernel.chase(4, 9, none, none, 1, 1, None, -1, 0, init, None, 0, None)
    with pytest.raises(ValueError, match="init"):
        kernel.chase(4, 8, none, none, 1, 1, None, -1, 0, init, None, 0, None)
    with pytest.raises(lightsout.InvalidTypeError):
        kernel.chase(4, 8, none, none, 1, 1, None, -1, 0, np.zeros((8, 1), np.int64), None, 0, None)
    assert kernel.forcing_invertible(12, 2) and not kernel.forcing_invertible(10, 2)
