"""The guide page "Rules and variants" (docs/guide/rules.md): its figures and its picture.

tests/test_docs.py runs the page's examples as doctests; here the objects those examples
build are checked against the tests' independent oracle (tests/oracle.py), and the published
facts the page quotes against a matrix written from the puzzle's own description.
"""
from __future__ import annotations

import doctest
import itertools
from pathlib import Path

import numpy as np
import pytest

import lightsout
from lightsout import Stencil

from oracle import (effect_matrix, gf2_rank, graph_neighbour_sets, masked_nullity, masked_system,
                    proves_unsolvable, rank_mod_prime, solve_mod_prime, stencil_matrix, stencil_replay)

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGE = DOCS / "guide" / "rules.md"
PICTURE = DOCS / "guide" / "rules-hexagon.svg"

pytestmark = pytest.mark.skipif(not PAGE.is_file(), reason="no docs/ folder beside the tests (an installed copy)")


@pytest.fixture(scope="module")
def page():
    """The namespace the page's examples leave behind, run in order as the doctest runs them."""
    namespace: dict = {}
    text = PAGE.read_text(encoding="utf-8")
    for example in doctest.DocTestParser().get_examples(text):
        try:
            exec(compile(example.source, str(PAGE), "single"), namespace)
        except lightsout.UnsolvableError:
            assert example.exc_msg is not None, f"an example raised unexpectedly: {example.source}"
    return namespace


def _nullity(shape, stencil, *, torus=False, states=2, holes=None, unpressable=None, free_lights=None):
    st = Stencil.coerce(stencil, len(shape))
    matrix = stencil_matrix(shape, torus, st.weights, st.centre, states)
    system, _, _ = masked_system(matrix, holes, unpressable, free_lights)
    return masked_nullity(system, states)


def test_page_is_in_the_guide_and_runs_many_examples():
    index = (DOCS / "guide" / "index.md").read_text(encoding="utf-8")
    assert "\nrules\n" in index
    test = doctest.DocTestParser().get_doctest(PAGE.read_text(encoding="utf-8"), {}, "rules", str(PAGE), 0)
    assert len(test.examples) >= 40


@pytest.mark.parametrize("shape, stencil, torus, states, quoted", [
    ((5, 5), "knight", False, 2, 0),      # the XL-25 knight's game: one solution for every start
    ((5, 5), "x", False, 2, 4),           # the XL-25 cross: 16 solutions of the all-lit board
    ((6, 6), "plus", False, 2, 0),        # Lights Out Deluxe, + move
    ((6, 6), "x", False, 2, 0),           # Lights Out Deluxe, x move
    ((5, 5), "x", False, 3, 2),           # three states: 9 solutions
    ((6, 6), "knight", True, 2, 0),       # the knight on a 6 x 6 torus
])
def test_quoted_nullities_against_the_oracle(shape, stencil, torus, states, quoted):
    assert _nullity(shape, stencil, torus=torus, states=states) == quoted
    assert lightsout.nullity(shape[0], stencil=stencil, torus=torus, states=states) == quoted


def test_all_lit_solutions_replay_under_the_oracle():
    for stencil, n, states in (("knight", 5, 2), ("x", 5, 2), ("x", 6, 2), ("x", 5, 3)):
        st = Stencil.named(stencil)
        matrix = stencil_matrix((n, n), False, st.weights, st.centre, states)
        s = lightsout.solve(lightsout.all_lit(n), stencil=stencil, states=states)
        assert not stencil_replay(lightsout.all_lit(n).astype(int), s.presses, matrix, states).any()
    weights = np.array([[0, 2, 0], [1, 1, 1], [0, 2, 0]])
    matrix = stencil_matrix((5, 5), False, weights, (1, 1), 3)
    s = lightsout.solve(lightsout.all_lit(5), stencil=weights, states=3)
    assert not stencil_replay(lightsout.all_lit(5).astype(int), s.presses, matrix, 3).any()


def test_one_way_proof_is_checked_by_the_oracle(page):
    one_way, board, proof = page["one_way"], page["lit"], page["proof"]
    matrix = stencil_matrix((3, 3), False, one_way.weights, one_way.centre, 2)
    assert not np.array_equal(matrix, matrix.T)                      # a one-way rule
    everything = list(range(9))
    assert proves_unsolvable(proof, board, matrix, 2, everything, everything)
    assert solve_mod_prime(matrix, board.ravel() % 2, 2) is None


# Merlin's magic square as the puzzle pages describe it, button by button (cells 1..9 in reading
# order): a corner toggles its 2 x 2 block, an edge its row or column of three, the centre the plus.
MERLIN = {1: "1245", 2: "123", 3: "2356", 4: "147", 5: "24568", 6: "369", 7: "4578", 8: "789", 9: "5689"}


def _merlin_matrix():
    a = np.zeros((9, 9), dtype=np.int64)
    for button, lights in MERLIN.items():
        for light in lights:
            a[int(light) - 1, button - 1] = 1
    return a


def test_merlin_every_start_solvable_as_published(page):
    assert gf2_rank(_merlin_matrix()) == 9                            # "all puzzles are solvable"
    square = page["square"]
    cells = [(r, c) for r in range(3) for c in range(3)]
    ours = np.zeros((9, 9), dtype=np.int64)
    for p in cells:
        for q in [p, *square.successors(p)]:
            ours[cells.index(q), cells.index(p)] = 1
    assert np.array_equal(ours, _merlin_matrix())                     # the page's graph is the published rule


def test_merlin_outer_presses_make_the_magic_square():
    presses = np.array([1, 1, 1, 1, 0, 1, 1, 1, 1])
    assert ((_merlin_matrix() @ presses) % 2).tolist() == [1, 1, 1, 1, 0, 1, 1, 1, 1]


def test_flip_solution_replays_and_counts(page):
    flip, start = page["flip"], page["start"]
    cells = list(flip.nodes)
    index = {cell: i for i, cell in enumerate(cells)}
    a = np.zeros((len(cells), len(cells)), dtype=np.int64)
    for p in cells:
        for q in [p, *flip.successors(p)]:
            a[index[q], index[p]] = 1
    assert not np.array_equal(a, a.T)
    lights = np.array([start[c] for c in cells])
    s = lightsout.solve_graph(flip, start, minimal=True)
    assert not ((lights + a @ s.presses.astype(np.int64)) % 2).any()
    assert s.count == 2 ** (len(cells) - gf2_rank(a))


def test_mask_figures_against_the_oracle():
    free = np.ones((5, 5), dtype=bool)
    free[1:4, 1:4] = False
    assert 2 ** _nullity((5, 5), "plus", free_lights=free) == 65536
    corner = np.zeros((5, 5), dtype=bool)
    corner[0, 0] = True
    assert 2 ** _nullity((5, 5), "plus", unpressable=corner) == 2
    both = corner.copy()
    both[2, 2] = True
    matrix = stencil_matrix((5, 5), False, Stencil.named("plus").weights, (1, 1), 2)
    system, required, _ = masked_system(matrix, None, both, None)
    assert solve_mod_prime(system, np.ones(len(required), dtype=np.int64), 2) is None
    holes = np.zeros((5, 5), dtype=bool)
    holes[0, 0] = holes[2, 2] = True
    system, required, pressable = masked_system(matrix, holes, None, None)
    x = solve_mod_prime(system, np.ones(len(required), dtype=np.int64), 2)
    assert x is not None
    s = lightsout.solve(lightsout.all_lit(5), holes=holes)
    assert s.count == 2 ** masked_nullity(system, 2)


def test_hexagon_and_cube_counts_against_the_oracle():
    hexagon = lightsout.boards.hexagon(3)
    sets = graph_neighbour_sets(hexagon.cells, hexagon.edges.tolist())
    assert 2 ** (hexagon.cells - gf2_rank(effect_matrix(sets))) == 8
    grid = hexagon.grid
    assert 2 ** _nullity(grid.holes.shape, "hex", holes=grid.holes) == 8
    cube = lightsout.boards.cube(3)
    sets = graph_neighbour_sets(cube.cells, cube.edges.tolist())
    assert cube.cells - rank_mod_prime(effect_matrix(sets), 2) == 6


def test_picture_is_the_one_the_code_draws():
    board = lightsout.boards.hexagon(3)
    s = board.solve()
    assert PICTURE.read_text(encoding="utf-8") == board.svg(s.board, s.presses, scale=40) + "\n"
    assert "(rules-hexagon.svg)" in PAGE.read_text(encoding="utf-8")
