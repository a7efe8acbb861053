"""The ready-made boards of lightsout.boards: the hexagon, the triangles and the cube's surface.

Every graph is checked against a description built here from the geometry (cells that share an
edge of their outline; cube cells that share an edge in space), every symmetry against the edge
set, every solution by replaying it with the oracle, nullities against brute force and the
oracle's elimination, and the triangle of hexagonal cells against a published list.
"""
from __future__ import annotations

import inspect
import itertools
import math
import pickle
from collections import Counter

import numpy as np
import pytest

import lightsout
from lightsout import boards
from lightsout.boards import cube, hexagon, triangle

import oracle


def hex_triangle(n):
    return triangle(n, tiles="hexagons")


FAMILIES = {"hexagon": hexagon, "triangle": triangle, "hex_triangle": hex_triangle, "cube": cube}


def sizes(family, most_cells):
    """The sides of a family whose boards have at most ``most_cells`` cells."""
    cells = {"hexagon": lambda n: 3 * n * (n - 1) + 1, "triangle": lambda n: n * n,
             "hex_triangle": lambda n: n * (n + 1) // 2, "cube": lambda n: 6 * n * n}[family]
    return [n for n in range(1, 40) if cells(n) <= most_cells]


def small_boards(most_cells):
    return [(family, n) for family in FAMILIES for n in sizes(family, most_cells)]


def edge_set(edges):
    return {(int(u), int(v)) for u, v in edges}


def neighbour_sets(board):
    return oracle.graph_neighbour_sets(board.cells, [tuple(map(int, e)) for e in board.edges])


# --- the graphs, from their geometry ---------------------------------------------------------------

@pytest.mark.parametrize("family, n", small_boards(400))
def test_edges_are_a_simple_graph(family, n):
    board = FAMILIES[family](n)
    edges = board.edges
    assert edges.dtype == np.int64 and edges.ndim == 2 and edges.shape[1] == 2
    assert (edges[:, 0] < edges[:, 1]).all(), "a self-loop or an edge listed backwards"
    assert edges.min(initial=0) >= 0 and edges.max(initial=0) < board.cells
    assert len(edge_set(edges)) == len(edges), "an edge listed twice"
    assert not edges.flags.writeable and not board.coordinates.flags.writeable
    # the CSR lists hold each edge both ways
    indptr, indices = board.neighbours()
    pairs = {(u, int(v)) for u in range(board.cells) for v in indices[indptr[u]:indptr[u + 1]]}
    assert pairs == edge_set(edges) | {(v, u) for u, v in edge_set(edges)}


@pytest.mark.parametrize("n", range(1, 9))
def test_hexagon_cells_and_degrees(n):
    board = hexagon(n)
    assert board.cells == 3 * n * (n - 1) + 1
    wanted = {(q, r, -q - r) for q in range(-n + 1, n) for r in range(-n + 1, n) if abs(q + r) <= n - 1}
    assert {tuple(map(int, c)) for c in board.coordinates} == wanted
    degrees = Counter(board.degrees().tolist())
    if n == 1:
        assert degrees == {0: 1}
    else:  # six corners of 3, the sides' other cells 4, a hexagon of side n - 1 inside with 6
        assert degrees == +Counter({3: 6, 4: 6 * (n - 2), 6: 3 * (n - 1) * (n - 2) + 1})


@pytest.mark.parametrize("n", range(1, 9))
def test_triangle_cells_and_degrees(n):
    board = triangle(n)
    assert board.cells == n * n
    ups = {(a, b, n - 1 - a - b) for a in range(n) for b in range(n - a)}
    downs = {(a, b, n - 2 - a - b) for a in range(n - 1) for b in range(n - 1 - a)}
    assert {tuple(map(int, c)) for c in board.coordinates} == ups | downs
    degrees = Counter(board.degrees().tolist())
    if n == 1:
        assert degrees == {0: 1}
    else:  # three corners of 1, 3(n - 2) side cells of 2, the rest (every down cell among them) 3
        assert degrees == +Counter({1: 3, 2: 3 * (n - 2), 3: n * n - 3 - 3 * (n - 2)})


@pytest.mark.parametrize("n", range(1, 9))
def test_hex_triangle_cells_and_degrees(n):
    board = hex_triangle(n)
    assert board.cells == n * (n + 1) // 2
    degrees = Counter(board.degrees().tolist())
    if n == 1:
        assert degrees == {0: 1}
    else:  # three corners of 2, 3(n - 2) side cells of 4, the inside triangle of side n - 3 with 6
        inside = max(n - 3, 0) * max(n - 2, 0) // 2
        assert degrees == +Counter({2: 3, 4: 3 * (n - 2), 6: inside})


@pytest.mark.parametrize("n", range(1, 7))
def test_cube_cells_and_degrees(n):
    board = cube(n)
    assert board.cells == 6 * n * n
    assert set(board.degrees().tolist()) == {4}
    on_faces = Counter()
    for x, y, z in board.coordinates.tolist():
        outer = [axis for axis, v in enumerate((x, y, z)) if v in (0, 2 * n)]
        assert len(outer) == 1, "a cell's centre lies on exactly one face"
        assert all(v % 2 == 1 and 1 <= v <= 2 * n - 1 for axis, v in enumerate((x, y, z)) if axis != outer[0])
        on_faces[outer[0], (x, y, z)[outer[0]]] += 1
    assert sorted(on_faces.values()) == [n * n] * 6


def _corner_key(point):
    return tuple(round(float(v), 6) for v in point)


def _shared_corner_pairs(outlines):
    """Cells whose outlines share two corners: an edge (independent of the board's own edges)."""
    cells_at: dict[tuple, set[int]] = {}
    for cell, corners in enumerate(outlines):
        for corner in corners:
            cells_at.setdefault(_corner_key(corner), set()).add(cell)
    shared = Counter()
    for cells in cells_at.values():
        for u, v in itertools.combinations(sorted(cells), 2):
            shared[u, v] += 1
    return {pair for pair, count in shared.items() if count >= 2}


@pytest.mark.parametrize("family, n", [(f, n) for f in ("hexagon", "triangle", "hex_triangle") for n in range(1, 8)])
def test_flat_boards_neighbours_share_an_edge_of_their_outlines(family, n):
    board = FAMILIES[family](n)
    outlines = board.outlines()
    assert edge_set(board.edges) == _shared_corner_pairs(outlines)
    # the outlines tile the board without overlap: their areas add up to the shape's area
    x, y = outlines[..., 0], outlines[..., 1]
    areas = np.abs(0.5 * (x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))
    if family == "triangle":  # unit triangles in the triangle of side n
        assert math.isclose(areas.sum(), n * n * math.sqrt(3) / 4)
        assert np.allclose(areas, math.sqrt(3) / 4)
    else:  # hexagons one unit across
        assert np.allclose(areas, math.sqrt(3) / 2)
    centres = board.positions
    assert len({_corner_key(c) for c in centres}) == board.cells, "two cells drawn in one place"


@pytest.mark.parametrize("n", range(1, 6))
def test_cube_neighbours_share_an_edge_in_space(n):
    board = cube(n)
    corners_of = []
    for centre in board.coordinates.tolist():
        outer = next(axis for axis, v in enumerate(centre) if v in (0, 2 * n))
        tangents = [axis for axis in range(3) if axis != outer]
        square = set()
        for da, db in itertools.product((-1, 1), repeat=2):
            corner = list(centre)
            corner[tangents[0]] += da
            corner[tangents[1]] += db
            square.add(tuple(corner))
        corners_of.append(square)
    shared = {(u, v) for u, v in itertools.combinations(range(board.cells), 2)
              if len(corners_of[u] & corners_of[v]) == 2}
    assert edge_set(board.edges) == shared
    # the net: one unit square a cell, no two on one place, neighbours on a face side by side
    assert len({_corner_key(c) for c in board.positions}) == board.cells


# --- the symmetry groups ----------------------------------------------------------------------------

ORDERS = {"hexagon": 12, "triangle": 6, "hex_triangle": 6, "cube": 48}


@pytest.mark.parametrize("family, n", small_boards(300))
def test_symmetries_form_the_group_of_automorphisms_of_its_order(family, n):
    board = FAMILIES[family](n)
    group = board.symmetries()
    cells = board.cells
    assert np.array_equal(group[0], np.arange(cells)), "the identity comes first"
    keys = {g.tobytes() for g in group}
    assert len(keys) == len(group), "an element listed twice"
    single = cells == 1 or (family == "hex_triangle" and n == 1)
    assert len(group) == (1 if single else ORDERS[family])
    edges = edge_set(board.edges)
    for g in group:
        assert sorted(g.tolist()) == list(range(cells)), "not a permutation"
        moved = {tuple(sorted((int(g[u]), int(g[v])))) for u, v in edges}
        assert moved == edges, "not an automorphism"
    for g, h in itertools.product(group, repeat=2):
        assert g[h].tobytes() in keys, "the set is not closed under composition"


def test_the_hexagon_group_holds_rotations_of_order_six():
    group = hexagon(3).symmetries()
    cells = len(group[0])
    orders = Counter()
    for g in group:
        power, k = g.copy(), 1
        while not np.array_equal(power, np.arange(cells)):
            power, k = g[power], k + 1
        orders[k] += 1
    # the dihedral group of order 12: the identity, 7 elements of order 2, 2 of order 3, 2 of order 6
    assert orders == {1: 1, 2: 7, 3: 2, 6: 2}


def test_symmetries_refused_past_the_group_limit(monkeypatch):
    monkeypatch.setattr(boards, "MAX_GROUP_CELLS", 100)
    with pytest.raises(lightsout.BoardTooLargeError, match="MAX_GROUP_CELLS"):
        cube(2).symmetries()


# --- solving: every answer replayed ---------------------------------------------------------------

@pytest.mark.parametrize("states", [2, 3])
@pytest.mark.parametrize("family, n", small_boards(100))
def test_all_lit_boards_solved_and_every_solution_replayed(family, n, states):
    board = FAMILIES[family](n)
    sets = neighbour_sets(board)
    lights = np.ones(board.cells, dtype=np.int64)
    try:
        s = lightsout.solve_graph(board.edges, nvertices=board.cells, states=states)
    except lightsout.UnsolvableError as error:
        quiet = np.asarray(error.quiet_pattern).ravel().astype(np.int64)
        assert not oracle.replay_sets(sets, np.zeros(board.cells), quiet, states).any(), "the proof is no quiet pattern"
        assert int(quiet @ lights) % states != 0
        return
    seen = 0
    for presses in s.all():
        assert not oracle.replay_sets(sets, lights, presses, states).any()
        seen += 1
        if seen == 64:
            break
    assert seen == min(s.count, 64)
    assert s.count == states ** s.nullity
    same = board.solve(states=states)
    assert np.array_equal(same.presses, s.presses)


@pytest.mark.parametrize("states", [2, 3])
@pytest.mark.parametrize("family, n", small_boards(16))
def test_small_boards_against_brute_force(family, n, states):
    board = FAMILIES[family](n)
    if states ** board.cells > 1 << 16:
        pytest.skip("too many press vectors to try")
    sets = neighbour_sets(board)
    rng = np.random.default_rng(board.cells * 10 + states)
    for lights in (np.ones(board.cells, dtype=np.int64), rng.integers(0, states, board.cells)):
        solutions, quiet = oracle.exhaustive(sets, lights, states)
        assert quiet == states ** board.solve(np.zeros(board.cells, dtype=np.int64), states=states).nullity
        if len(solutions) == 0:
            with pytest.raises(lightsout.UnsolvableError):
                board.solve(lights, states=states)
            continue
        s = board.solve(lights, states=states)
        assert s.count == len(solutions)
        assert np.array_equal(s.presses.astype(np.int64), solutions[0]), "not the lexicographically smallest"
        assert {tuple(map(int, p)) for p in s.all()} == {tuple(p) for p in solutions.tolist()}
        fewest = int(np.minimum(solutions, 1).sum(axis=1).min()) if states == 2 else int(solutions.sum(axis=1).min())
        assert int(board.solve(lights, states=states, minimal=True).presses.astype(np.int64).sum()) == fewest


@pytest.mark.parametrize("states", [2, 3])
@pytest.mark.parametrize("family, n", [("hexagon", 2), ("hexagon", 3), ("triangle", 3), ("cube", 2), ("cube", 3)])
def test_unsolvable_boards_carry_a_proof(family, n, states):
    board = FAMILIES[family](n)
    sets = neighbour_sets(board)
    rng = np.random.default_rng(7 * n + states)
    refused = 0
    for _ in range(40):
        lights = rng.integers(0, states, board.cells)
        try:
            s = board.solve(lights, states=states)
        except lightsout.UnsolvableError as error:
            refused += 1
            proof = np.asarray(error.quiet_pattern).ravel().astype(np.int64)
            # y^T A == 0 (A is symmetric here, so y is a quiet pattern) and y . b != 0 (mod k)
            assert not oracle.replay_sets(sets, np.zeros(board.cells), proof, states).any()
            assert int(proof @ lights) % states != 0
        else:
            assert not oracle.replay_sets(sets, lights, s.presses, states).any()
    matrix = oracle.effect_matrix(sets)
    if oracle.rank_mod_prime(matrix, states) < board.cells:
        assert refused > 0, "a board with quiet patterns refuses some random starts"


@pytest.mark.parametrize("family, n", [("hexagon", n) for n in range(3, 7)] + [("triangle", n) for n in range(4, 10)]
                         + [("hex_triangle", n) for n in range(5, 12)] + [("cube", n) for n in range(2, 5)])
def test_nullity_against_the_oracles_elimination(family, n):
    board = FAMILIES[family](n)
    matrix = oracle.effect_matrix(neighbour_sets(board))
    for states in (2, 3):
        zero = board.solve(np.zeros(board.cells, dtype=np.int64), states=states)
        assert zero.nullity == board.cells - oracle.rank_mod_prime(matrix, states), states


def test_the_triangle_of_circles_matches_the_published_invertible_sides():
    # Marcarini & Morais, "Lights Out! A game of combinatorics and linear algebra", arXiv:2603.14065
    # (2026): a triangle of circles, a press changing a circle and those touching it; as summarised in
    # "A Piece of the Pi" (metastack.me/topics/linear-algebra, 22 Mar 2026), every start is solvable
    # with a unique solution exactly for the sides 1, 3, 4, 7, 8, 9, 11, 15, 16, 17, 20, 21 (up to 21).
    published = [1, 3, 4, 7, 8, 9, 11, 15, 16, 17, 20, 21]
    found = [n for n in range(1, 22) if hex_triangle(n).solve(np.zeros(n * (n + 1) // 2, dtype=int)).nullity == 0]
    assert found == published


def _all_lit_solutions(board):
    """Every solution of the all-lit board: by brute force when small, else the solver's list, each replayed."""
    sets = neighbour_sets(board)
    lights = np.ones(board.cells, dtype=np.int64)
    if board.cells <= 16:
        return oracle.exhaustive(sets, lights, 2)[0].tolist()
    s = board.solve()
    rank = oracle.rank_mod_prime(oracle.effect_matrix(sets), 2)
    assert s.count == 2 ** (board.cells - rank)
    found = {tuple(int(v) for v in p) for p in s.all()}
    assert len(found) == s.count
    for p in found:
        assert not oracle.replay_sets(sets, lights, p, 2).any()
    return [list(p) for p in found]


@pytest.mark.parametrize("family, n", small_boards(16) + [("hexagon", 3), ("hexagon", 4), ("triangle", 5),
                                                        ("hex_triangle", 6), ("cube", 2), ("cube", 3)])
def test_count_up_to_symmetry_counts_the_orbits(family, n):
    board = FAMILIES[family](n)
    group = board.symmetries()
    solutions = _all_lit_solutions(board)
    remaining = {tuple(p) for p in solutions}
    orbits = 0
    while remaining:
        first = np.array(remaining.pop())
        orbits += 1
        for g in group:
            image = np.zeros_like(first)
            image[g] = first  # cell i's press moves to cell g[i]
            remaining.discard(tuple(image.tolist()))
    s = board.solve()
    assert s.count_up_to_symmetry(group=board.symmetries()) == orbits


# --- the grid form ----------------------------------------------------------------------------------

def stencil_sets(grid):
    """Each board cell's press effect on the grid, by the stencil convention (holes neither press nor light)."""
    weights, centre, holes = grid.weights, grid.centre, grid.holes
    number = -np.ones(holes.shape, dtype=int)
    number[~holes] = np.arange(int((~holes).sum()))
    sets = []
    for p in zip(*np.nonzero(~holes)):
        hit = set()
        for i in zip(*np.nonzero(weights)):
            target = tuple(pi + ii - ci for pi, ii, ci in zip(p, i, centre))
            if all(0 <= t < size for t, size in zip(target, holes.shape)) and not holes[target]:
                hit.add(int(number[target]))
        sets.append(hit)
    return sets


@pytest.mark.parametrize("family, n", [(f, n) for f in ("hexagon", "hex_triangle") for n in range(1, 7)])
def test_the_axial_grid_presses_what_the_graph_presses(family, n):
    board = FAMILIES[family](n)
    grid = board.grid
    assert grid.weights.dtype == np.uint8 and grid.holes.dtype == bool
    assert grid.holes.shape == grid.shape and int((~grid.holes).sum()) == board.cells
    assert np.array_equal(grid.weights, grid.weights[::-1, ::-1]), "a symmetric stencil"
    assert grid.weights[grid.centre] == 1 and int(grid.weights.sum()) == 7
    assert stencil_sets(grid) == neighbour_sets(board)
    values = np.arange(1, board.cells + 1)
    on_grid = grid.to_grid(values)
    assert not on_grid[grid.holes].any()
    assert np.array_equal(grid.from_grid(on_grid), values)


def _solve_takes_stencils_and_holes():
    parameters = inspect.signature(lightsout.solve).parameters
    return "stencil" in parameters and "holes" in parameters


@pytest.mark.skipif(not _solve_takes_stencils_and_holes(), reason="lightsout.solve takes no stencil and holes yet")
@pytest.mark.parametrize("family, n", [(f, n) for f in ("hexagon", "hex_triangle") for n in range(2, 6)])
def test_the_axial_grid_solves_through_the_stencil_route(family, n):
    # once issue 30's stencil route lands: the grid form solves the same board as the graph
    board = FAMILIES[family](n)
    grid = board.grid
    lights = np.random.default_rng(n).integers(0, 2, board.cells)
    graph = None
    try:
        graph = board.solve(lights)
    except lightsout.UnsolvableError:
        pass
    try:
        s = lightsout.solve(grid.to_grid(lights), stencil=grid.weights, holes=grid.holes)
    except lightsout.UnsolvableError:
        assert graph is None, "the grid form refuses a board the graph solves"
        return
    assert graph is not None, "the grid form solves a board the graph refuses"
    presses = grid.from_grid(np.asarray(s.presses).astype(np.int64))
    assert not oracle.replay_sets(stencil_sets(grid), lights, presses, 2).any()
    assert s.nullity == graph.nullity


def test_boards_without_one_stencil_have_no_grid():
    assert triangle(3).grid is None and cube(2).grid is None


# --- pictures, values, refusals -------------------------------------------------------------------

def test_svg_draws_every_cell_and_every_press():
    board = triangle(4)
    s = board.solve()
    svg = board.svg(s.board, s.presses)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count("<polygon") == board.cells
    assert svg.count("<circle") == int(np.count_nonzero(s.presses))
    assert board.svg().count("<circle") == 0
    assert cube(2)._repr_svg_().count("<polygon") == 24
    with pytest.raises(lightsout.InvalidBoardError, match="one int per cell"):
        board.svg([1, 0])
    with pytest.raises(lightsout.BoardTooLargeError, match="MAX_SVG_CELLS"):
        hexagon(200).svg()


@pytest.mark.parametrize("make", [hexagon, triangle, hex_triangle, cube])
def test_bad_sizes_are_refused_clearly(make):
    for bad, error in ((0, lightsout.InvalidBoardError), (-2, lightsout.InvalidBoardError),
                       (2.5, lightsout.InvalidTypeError), ("3", lightsout.InvalidTypeError),
                       (True, lightsout.InvalidTypeError)):
        with pytest.raises(error, match="positive int"):
            make(bad)
    with pytest.raises(lightsout.BoardTooLargeError, match="MAX_GRAPH_BYTES"):
        make(10 ** 9)  # refused from the count, before anything is allocated


def test_tiles_names_are_checked():
    with pytest.raises(lightsout.InvalidBoardError, match="'triangles' or 'hexagons'"):
        triangle(3, tiles="squares")
    with pytest.raises(lightsout.InvalidTypeError, match="'triangles' or 'hexagons'"):
        triangle(3, tiles=3)
    assert issubclass(lightsout.InvalidBoardError, ValueError) and issubclass(lightsout.InvalidTypeError, TypeError)


def test_a_board_is_a_frozen_value_that_pickles():
    board = hexagon(3)
    with pytest.raises(AttributeError):
        board.name = "other"
    back = pickle.loads(pickle.dumps(board))
    assert back.name == board.name and np.array_equal(back.edges, board.edges)
    assert [g.tolist() for g in back.symmetries()] == [g.tolist() for g in board.symmetries()]
    assert "19 cells" in repr(board)


def test_exported_from_lightsout_and_every_public_name_has_an_example():
    assert lightsout.boards is boards and "boards" in lightsout.__all__
    for name in boards.__all__:
        value = getattr(boards, name)
        if not callable(value):
            continue
        assert ">>>" in (inspect.getdoc(value) or ""), name
        if inspect.isclass(value):
            for member, raw in vars(value).items():
                if not member.startswith("_") and (callable(raw) or isinstance(raw, property)):
                    assert ">>>" in (inspect.getdoc(raw) or ""), f"{name}.{member}"
