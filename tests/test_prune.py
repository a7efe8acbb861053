"""The branch and bound of the fewest-presses search (lightsout/_search/prune.py).

Every answer is compared with an independent one: brute force over the whole coset (every
element written out), the plain search that weighs every element, or (for graphs of
several components) the minima of the components found one at a time and put side by
side.  The pruned search must return the same minimum and the same tie as the plain one.
"""
from __future__ import annotations

import concurrent.futures
import itertools

import numpy as np
import pytest

import lightsout
import oracle
from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._search import cosetform, minweight as _fewest, prune as _prune
from lightsout._search.minweight import coset_min_weight
from test_fewest import A075464, brute_coset_min, random_basis
from test_orbitcut import coset_of, square_cases


def brute_signed_min(forms: np.ndarray, values: np.ndarray, nullity: int) -> tuple[int, int]:
    """The smallest (S, c) over every c in [0, 2^nullity): each sum written out."""
    c = np.arange(1 << nullity, dtype=np.uint64)
    sums = np.zeros(c.size, dtype=np.int64)
    for form, value in zip(forms.tolist(), values.tolist()):
        bits = c & np.uint64(form)
        parity = np.zeros(c.size, dtype=np.uint64)
        for shift in range(nullity):
            parity ^= (bits >> np.uint64(shift)) & np.uint64(1)
        sums += value * (1 - 2 * parity.astype(np.int64))
    best = int(sums.min())
    return best, int(np.flatnonzero(sums == best)[0])


def block_basis(rng: np.random.Generator, sizes: list[int], cells_each: int) -> np.ndarray:
    """A basis whose rows live in separate blocks of cells: the coset splits into parts."""
    rows = []
    for block, d in enumerate(sizes):
        part = random_basis(rng, d, cells_each)
        full = np.zeros((d, cells_each * len(sizes)), dtype=np.uint8)
        full[:, block * cells_each:(block + 1) * cells_each] = part
        rows.append(full)
    return np.concatenate(rows)


def layouts(nullity: int) -> list[tuple[int, int, int]]:
    """Small (lanes, array bits, task bits) layouts, so that the tree has many leaves."""
    found = {(0, 0, nullity), (0, 1, nullity - 1), (1, 2, nullity - 3), (2, 3, nullity - 5)}
    return sorted(layout for layout in found if layout[2] >= 0)


def random_problem(seed: int) -> tuple[np.ndarray, np.ndarray, cosetform.SearchProblem, cosetform.ReducedCoset]:
    rng = np.random.default_rng(seed)
    kind = seed % 3
    if kind == 0:    # dense: every quiet pattern spans the cells
        d = int(rng.integers(1, 13))
        basis = random_basis(rng, d, int(rng.integers(d, 120)), density=float(rng.uniform(0.1, 0.6)))
    elif kind == 1:  # split into small parts (the bounds are exact)
        basis = block_basis(rng, [int(v) for v in rng.integers(1, 4, size=int(rng.integers(2, 5)))],
                            int(rng.integers(4, 20)))
    else:            # one larger part beside small ones
        basis = block_basis(rng, [int(rng.integers(3, 7))] + [int(v) for v in rng.integers(1, 3, size=2)],
                            int(rng.integers(6, 24)))
    particular = np.asarray(rng.integers(0, 2, size=basis.shape[1]), dtype=np.uint8)
    coset = cosetform.reduce_coset(particular, basis)
    return particular, basis, cosetform.search_problem(coset), coset


@pytest.mark.parametrize("seed", range(90))
def test_random_cosets_match_brute_force_at_every_layout(seed):
    particular, basis, problem, coset = random_problem(seed)
    expected_sum, expected_index = brute_signed_min(problem.forms, problem.values, problem.nullity)
    expected = brute_coset_min(particular, basis)
    for layout in layouts(problem.nullity):
        for threads in (1, 3):
            complete, total, index, stats = _prune.pruned_search(
                problem.forms, problem.values, problem.nullity, problem.bound, problem.wide, layout,
                threads=threads)
            assert complete and (total, index) == (expected_sum, expected_index), (layout, threads)
            assert stats.weighed + stats.skipped == 1 << layout[2]
            result = cosetform.coset_element(coset, particular, index, True)
            assert (result.weight, tuple(int(v) for v in result.presses)) == expected


@pytest.mark.parametrize("seed", range(10))
def test_exact_bounds_weigh_about_one_task(seed):
    rng = np.random.default_rng(100 + seed)
    basis = block_basis(rng, [3] * 5, 12)                   # 15 coordinates in five parts of 3
    particular = np.asarray(rng.integers(0, 2, size=basis.shape[1]), dtype=np.uint8)
    problem = cosetform.search_problem(cosetform.reduce_coset(particular, basis))
    complete, total, index, stats = _prune.pruned_search(
        problem.forms, problem.values, problem.nullity, problem.bound, problem.wide, (0, 1, 14))
    assert complete and (total, index) == brute_signed_min(problem.forms, problem.values, problem.nullity)
    assert stats.weighed <= 2 and stats.nodes <= 2 * 15      # one leaf, and maybe a tied one


def union_find_components(forms: list[int], free_bits: int) -> list[int]:
    """The components of the coordinates, by a plain union-find over each form's bits."""
    parent = list(range(free_bits))

    def root(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    used = 0
    for form in forms:
        bits = [i for i in range(free_bits) if form >> i & 1]
        used |= sum(1 << i for i in bits)
        for a, b in zip(bits, bits[1:]):
            parent[root(a)] = root(b)
    groups: dict[int, int] = {}
    for i in range(free_bits):
        if used >> i & 1:
            groups[root(i)] = groups.get(root(i), 0) | 1 << i
    return sorted(groups.values(), key=lambda mask: mask & -mask)


@pytest.mark.parametrize("seed", range(20))
def test_components_match_a_union_find(seed):
    rng = np.random.default_rng(seed)
    d = int(rng.integers(1, 64))
    forms = [int(sum(1 << int(b) for b in rng.choice(d, size=int(rng.integers(1, 3)), replace=False)))
             for _ in range(int(rng.integers(1, 40)))]
    array = np.array(forms, dtype=np.uint64)
    for free_bits in sorted({d, d // 2, 1}):
        expected = union_find_components([f & ((1 << free_bits) - 1) for f in forms], free_bits)
        assert _prune.components(array, d, free_bits) == expected


@pytest.mark.parametrize("n", square_cases(1, 32))
def test_all_lit_squares_to_78_match_the_plain_search(n):
    s = lightsout.solve(np.ones((n, n), bool))
    particular = s.presses.ravel().astype(np.uint8)
    basis = s.quiet_patterns().reshape(-1, n * n).astype(np.uint8)
    plain = coset_min_weight(particular, basis, prune=False)
    pruned = coset_min_weight(particular, basis, prune=True)
    assert pruned.weight == plain.weight and np.array_equal(pruned.presses, plain.presses)
    assert pruned.proven and pruned.coefficients == plain.coefficients
    if n <= len(A075464):
        assert pruned.weight == A075464[n - 1]


def random_board_case(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A random box board (1-3 axes, some wrapped, either rule, random lights) of nullity 1..20."""
    rng = np.random.default_rng(seed)
    while True:
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(v) for v in rng.integers(1, 24 if ndim == 1 else (12 if ndim == 2 else 6), size=ndim))
        torus = tuple(bool(v) for v in rng.integers(0, 2, size=ndim))
        lights = rng.integers(0, 2, size=shape).astype(np.uint8)
        try:
            particular, basis = coset_of(lights, torus, bool(rng.integers(0, 2)))
        except lightsout.UnsolvableError:
            continue
        if 1 <= basis.shape[0] <= 20:
            return particular, basis


@pytest.mark.parametrize("seed", range(40))
def test_random_boards_of_every_kind_match_the_plain_search(seed, monkeypatch):
    particular, basis = random_board_case(seed)
    plain = coset_min_weight(particular, basis, prune=False)
    # small tasks, so that the tree has leaves to skip even at nullity 1..20
    monkeypatch.setattr(_fewest, "task_layout", lambda problem, split: (0, min(2, problem.nullity),
                                                                     problem.nullity - min(2, problem.nullity)))
    for threads in (1, 2):
        pruned = coset_min_weight(particular, basis, prune=True, threads=threads)
        assert (pruned.weight, pruned.coefficients, pruned.proven) == (plain.weight, plain.coefficients, True)
        assert np.array_equal(pruned.presses, plain.presses)
    if basis.shape[0] <= 14:
        assert (plain.weight, tuple(int(v) for v in plain.presses)) == brute_coset_min(particular, basis)


def component_graph(sides: list[int]) -> "object":
    nx = pytest.importorskip("networkx")
    return nx.disjoint_union_all([nx.grid_2d_graph(side, side) for side in sides])


@pytest.mark.parametrize("sides", [[4] * 9, [4, 9, 4, 9], [19, 19, 19], [5, 4, 16, 4, 9]])
def test_graphs_of_several_components_are_their_parts_side_by_side(sides):
    """The lexicographically first minimum of independent parts is each part's first minimum
    (the parts' coordinates interleave nowhere), so the answer is the parts' answers in a row."""
    graph = component_graph(sides)
    s = lightsout.solve_graph(graph)
    expected = []
    for side in sides:
        part = lightsout.solve(np.ones((side, side), bool))
        expected.append(part.minimal().presses.ravel() if part.nullity else part.presses.ravel())
        if side <= len(A075464):
            assert int(expected[-1].sum()) == A075464[side - 1]
    best = s.minimal()                      # the default search splits the coset and prunes
    assert best.proven_minimal
    assert np.array_equal(np.asarray(best.presses, dtype=bool).ravel(), np.concatenate(expected).astype(bool))
    nodes = list(graph.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    sets = [[index[node]] + [index[other] for other in graph.neighbors(node)] for node in nodes]
    assert not oracle.replay_sets(sets, np.ones(len(nodes), np.uint8), np.asarray(best.presses, np.uint8)).any()


def test_a_split_coset_beyond_the_untimed_nullity_is_searched():
    # nullity 48 in three parts of 16: 2^48 elements for the plain search, refused without a
    # time limit; the branch and bound weighs about one task
    s = lightsout.solve_graph(component_graph([19, 19, 19]))
    particular = s.presses.ravel().astype(np.uint8)
    basis = s.quiet_patterns().reshape(s.nullity, -1).astype(np.uint8)
    assert basis.shape[0] == 48
    with pytest.raises(lightsout.BoardTooLargeError):
        coset_min_weight(particular, basis, prune=False)
    result = coset_min_weight(particular, basis)
    assert result.proven and result.weight == 3 * A075464[18]


def test_arguments_time_limits_and_progress():
    s = lightsout.solve(np.ones((67, 67), bool))                # nullity 32
    particular = s.presses.ravel().astype(np.uint8)
    basis = s.quiet_patterns().reshape(-1, 67 * 67).astype(np.uint8)
    with pytest.raises(InvalidTypeError, match="prune"):
        coset_min_weight(particular, basis, prune="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidBoardError, match="symmetry"):
        coset_min_weight(particular, basis, prune=True, symmetry=[np.arange(67 * 67)])
    with concurrent.futures.ThreadPoolExecutor(1) as pool, pytest.raises(InvalidBoardError, match="executor"):
        coset_min_weight(particular, basis, prune=True, executor=pool)
    stopped = coset_min_weight(particular, basis, prune=True, time_limit=0)
    assert not stopped.proven and stopped.weight >= 2015
    assert not oracle.replay_nd(np.ones((67, 67), np.uint8), stopped.presses.reshape(67, 67)).any() % 2
    seen = []
    done = coset_min_weight(particular, basis, prune=True, progress=lambda *args: seen.append(args))
    assert done.proven and done.weight == 2015 and seen and seen[-1][1] == seen[-1][2]


def test_every_order_of_children_and_threads_agrees():
    """Many tied minima: all 2^8 elements of this coset weigh the same."""
    basis = np.zeros((8, 16), dtype=np.uint8)
    for i in range(8):
        basis[i, 2 * i:2 * i + 2] = 1                       # each pattern swaps a pair of cells
    particular = np.tile(np.array([1, 0], np.uint8), 8)
    problem = cosetform.search_problem(cosetform.reduce_coset(particular, basis))
    for layout, threads in itertools.product(layouts(8), (1, 2, 5)):
        complete, total, index, _ = _prune.pruned_search(problem.forms, problem.values, 8, problem.bound,
                                                         problem.wide, layout, threads=threads)
        assert complete and (total, index) == brute_signed_min(problem.forms, problem.values, 8)
