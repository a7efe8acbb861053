"""The symmetric cut of the fewest-presses search (lightsout/_search/orbitcut.py, docs/algebra.md section 11).

The cut weighs one task of each orbit of the board's symmetries; it must return what the
plain search returns: the same minimum and the same (lexicographically first) solution.
Checked against brute force (every element of the coset written out) on small cosets,
against the published fewest presses (OEIS A075464), and against the plain search on every
all-lit square up to 78 x 78, with the task size forced down so that many tasks, many
orbits and many ties occur.
"""
from __future__ import annotations

import concurrent.futures

import numpy as np
import pytest

import lightsout
import oracle
from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._kernels import available_levels, load
from lightsout._search import cosetform, minweight as _fewest, minimal as _minimal, orbitcut as _orbitcut, tasksearch
from lightsout._search.minweight import coset_min_weight
from lightsout._search.symmetry import close_group, grid_symmetries
from test_fewest import A075464, brute_coset_min

INT64_MAX = np.iinfo(np.int64).max


def translations(shape: tuple[int, ...], wraps: tuple[bool, ...]) -> list[np.ndarray]:
    """One step along each wrapped axis, as the image of every cell."""
    index = np.arange(int(np.prod(shape))).reshape(shape)
    return [np.roll(index, 1, axis=axis).ravel() for axis in range(len(shape)) if wraps[axis]]


def orbit_constant(rng: np.random.Generator, cells: int, group: list[np.ndarray]) -> np.ndarray:
    """Random lights that every element of the group keeps: constant on each orbit of cells."""
    parent = list(range(cells))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for image in group:
        for cell in range(cells):
            a, b = root(cell), root(int(image[cell]))
            if a != b:
                parent[a] = b
    draw = rng.integers(0, 2, size=cells).astype(np.uint8)
    return draw[[root(cell) for cell in range(cells)]]


def coset_of(lights: np.ndarray, torus: tuple[bool, ...], self_toggle: bool) -> tuple[np.ndarray, np.ndarray]:
    """A solution and a quiet basis from the package, each checked by the test oracle."""
    s = lightsout.solve(lights, torus=torus, self_toggle=self_toggle)
    particular = s.presses.ravel().astype(np.uint8)
    basis = s.quiet_patterns().reshape(s.nullity, particular.size).astype(np.uint8)
    assert np.array_equal(oracle.replay_nd(lights, particular.reshape(lights.shape), torus, self_toggle) % 2,
                          np.zeros(lights.shape))
    for row in basis:
        quiet = oracle.replay_nd(np.zeros(lights.shape, np.uint8), row.reshape(lights.shape), torus, self_toggle)
        assert not quiet.any()
    return particular, basis


def symmetric_case(seed: int) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """A random box (1-3 axes, some wrapped, either rule) with lights its group keeps,
    nullity 1..14, and the group's generators (point symmetries, sometimes translations)."""
    rng = np.random.default_rng(seed)
    while True:
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(v) for v in rng.integers(1, 9 if ndim < 3 else 5, size=ndim))
        torus = tuple(bool(v) for v in rng.integers(0, 2, size=ndim))
        self_toggle = bool(rng.integers(0, 2))
        generators = grid_symmetries(shape, torus)
        if any(torus) and rng.integers(0, 2):
            generators = generators + translations(shape, torus)
        cells = int(np.prod(shape))
        group = close_group([np.asarray(g) for g in generators], cells)
        lights = (np.ones(cells, np.uint8) if rng.integers(0, 2) else orbit_constant(rng, cells, group)).reshape(shape)
        try:
            particular, basis = coset_of(lights, torus, self_toggle)
        except lightsout.UnsolvableError:
            continue
        if 1 <= basis.shape[0] <= 14:
            return particular, basis, generators


@pytest.mark.parametrize("seed", [seed if seed < 20 else pytest.param(seed, marks=pytest.mark.thorough)
                                  for seed in range(60)])
def test_random_symmetric_boxes_match_brute_force(seed):
    particular, basis, generators = symmetric_case(seed)
    d = basis.shape[0]
    expected = brute_coset_min(particular, basis)
    for split in sorted({0, d // 2, d - 1, d}):
        result = coset_min_weight(particular, basis, symmetry=generators, split_bits=split)
        assert (result.weight, tuple(int(v) for v in result.presses)) == expected, split
        assert result.proven


def square_cases(low: int, high: int) -> list[int]:
    return [n for n, d in enumerate(lightsout.nullity_table(78), start=1) if low <= d <= high]


@pytest.mark.parametrize("n", square_cases(1, 32))
def test_all_lit_squares_to_78_match_the_plain_search(n):
    particular = lightsout.solve(np.ones((n, n), bool)).presses.ravel().astype(np.uint8)
    basis = lightsout.solve(np.ones((n, n), bool)).quiet_patterns().reshape(-1, n * n).astype(np.uint8)
    plain = coset_min_weight(particular, basis)
    group = grid_symmetries((n, n), (False, False))
    d = basis.shape[0]
    for split in sorted({0, max(0, min(d - 6, 12))}):   # up to 2^12 tasks (each scatters every form)
        cut = coset_min_weight(particular, basis, symmetry=group, split_bits=split)
        assert cut.weight == plain.weight and np.array_equal(cut.presses, plain.presses), split
    if n <= len(A075464):
        assert plain.weight == A075464[n - 1]


@pytest.mark.parametrize("n", [pytest.param(n, marks=pytest.mark.thorough if n == 61 else pytest.mark.slow)
                               for n in square_cases(33, 64)])
def test_the_cut_matches_the_shipped_table_of_the_plain_search(n):
    # n = 61 (nullity 40, seconds) and 65 (42, half a minute): the shipped table was proven by the
    # plain search, with no cut
    assert lightsout.fewest_presses(n) == lightsout.proven_fewest_presses()[n]["fewest"]


@pytest.mark.slow
@pytest.mark.parametrize("n", square_cases(33, 64))
def test_the_cut_matches_the_plain_search_beyond_nullity_32(n):
    # minutes each: the plain search over 2^40 and 2^42 solutions
    s = lightsout.solve(np.ones((n, n), bool))
    particular = s.presses.ravel().astype(np.uint8)
    basis = s.quiet_patterns().reshape(-1, n * n).astype(np.uint8)
    plain = coset_min_weight(particular, basis)
    cut = coset_min_weight(particular, basis, symmetry=grid_symmetries((n, n), (False, False)))
    assert cut.weight == plain.weight and np.array_equal(cut.presses, plain.presses)


def test_fewest_presses_with_the_cut_matches_the_published_values(monkeypatch):
    calls = []
    real = _fewest.prepare_cut

    def spy(*args, **kwargs):
        cut = real(*args, **kwargs)
        calls.append(cut.order)
        return cut

    monkeypatch.setattr(_fewest, "prepare_cut", spy)
    monkeypatch.setattr(_minimal, "SYMMETRY_MIN_NULLITY", 1)
    for n in (4, 9, 16, 19, 23, 30, 33, 39):
        found = lightsout.solve(np.ones((n, n), bool), minimal=True)     # searched: not the shipped table
        assert found.proven_minimal and int(found.presses.sum()) == A075464[n - 1]
    assert calls and all(order == 8 for order in calls)
    assert lightsout.fewest_presses(3, 4) == oracle.min_presses_brute(np.ones((3, 4), np.uint8))


@pytest.mark.parametrize("tie_tasks, tie_elements", [(1, 1 << 22), (256, 4), (0, 0)])
def test_both_tie_routes_give_the_first_minimum(monkeypatch, tie_tasks, tie_elements):
    scans = []
    real = _fewest.ordered_scan
    monkeypatch.setattr(_fewest, "ordered_scan", lambda *args: scans.append(1) or real(*args))
    monkeypatch.setattr(tasksearch, "MAX_TIE_TASKS", tie_tasks)
    monkeypatch.setattr(_fewest, "MAX_TIE_ELEMENTS", tie_elements)
    for n in (4, 9, 16, 19, 30):
        particular = lightsout.solve(np.ones((n, n), bool)).presses.ravel().astype(np.uint8)
        basis = lightsout.solve(np.ones((n, n), bool)).quiet_patterns().reshape(-1, n * n).astype(np.uint8)
        plain = coset_min_weight(particular, basis)
        d = basis.shape[0]
        cut = coset_min_weight(particular, basis, symmetry=grid_symmetries((n, n), (False, False)),
                               split_bits=max(0, d - 3))
        assert np.array_equal(cut.presses, plain.presses), n
    assert scans


def test_groups_that_are_not_2_groups():
    # a 6 x 6 torus with its translations (order 288 = 2^5 * 9) and a 3 x 3 torus (translations: order 9,
    # whose Sylow 2-subgroup with the mirrors is small); a cube (48 = 2^4 * 3)
    for shape, torus in (((6, 6), (True, True)), ((3, 3), (True, True)), ((4, 4, 4), (False, False, False)),
                         ((5, 10), (True, False))):
        lights = np.ones(shape, np.uint8)
        for self_toggle in (True, False):
            try:
                particular, basis = coset_of(lights, torus, self_toggle)
            except lightsout.UnsolvableError:
                continue
            if basis.shape[0] == 0:
                continue
            generators = grid_symmetries(shape, torus) + translations(shape, torus)
            plain = coset_min_weight(particular, basis)
            d = basis.shape[0]
            for split in sorted({0, max(0, d - 4)}):
                cut = coset_min_weight(particular, basis, symmetry=generators, split_bits=split)
                assert np.array_equal(cut.presses, plain.presses), (shape, torus, self_toggle, split)


def test_about_one_task_in_the_group_order_runs():
    n = 39                                    # nullity 32
    s = lightsout.solve(np.ones((n, n), bool))
    particular = s.presses.ravel().astype(np.uint8)
    basis = s.quiet_patterns().reshape(-1, n * n).astype(np.uint8)
    coset = cosetform.reduce_coset(particular, basis)
    cut = _orbitcut.prepare_cut(grid_symmetries((n, n), (False, False)), coset.rows, coset.pivots, coset.reduced, 20)
    assert cut.order == 8 and cut.orbits.task_bits == 12
    runs = _orbitcut.representatives(cut.orbits, 0, 1 << 12)
    assert (1 << 12) / 8 <= runs.size <= 2 * (1 << 12) / 8
    assert np.all(np.diff(runs.astype(np.int64)) > 0)


@pytest.mark.parametrize("shape", [(65, 65), (39, 39), (23, 23), (23, 47), (27, 35), (30, 30)])
def test_the_lanes_basis_keeps_the_orbits_and_packs_the_positions(shape):
    # the low basis chosen for the kernel's lanes: the same span (a task covers the same elements),
    # the same orbits, no more array positions than the group's own basis
    s = lightsout.solve(np.ones(shape, bool))
    particular = s.presses.ravel().astype(np.uint8)
    basis = s.quiet_patterns().reshape(-1, particular.size).astype(np.uint8)
    coset = cosetform.reduce_coset(particular, basis)
    d = len(coset.pivots)
    lanes, m = 4, min(14, d - 6)
    symmetries = grid_symmetries(shape, (False, False))
    own = _orbitcut.prepare_cut(symmetries, coset.rows, coset.pivots, coset.reduced, lanes + m)
    packed = _orbitcut.prepare_cut(symmetries, coset.rows, coset.pivots, coset.reduced, lanes + m, lane_bits=lanes)
    assert own.order == packed.order > 1
    low_own, low_packed = own.rows[d - lanes - m:], packed.rows[d - lanes - m:]
    rank = oracle.gf2_rank
    assert rank(low_own) == rank(low_packed) == rank(np.vstack([low_own, low_packed])) == lanes + m
    assert np.array_equal(own.rows[:d - lanes - m], packed.rows[:d - lanes - m])
    tasks = 1 << (d - lanes - m)
    assert np.array_equal(_orbitcut.representatives(own.orbits, 0, tasks),
                          _orbitcut.representatives(packed.orbits, 0, tasks))

    def positions(rows):
        low = rows[d - m:][::-1].astype(np.int64)          # kernel bit j: row d - 1 - j
        return np.unique((low << np.arange(m)[:, None]).sum(axis=0)).size

    assert positions(packed.rows) <= positions(own.rows)
    if shape == (65, 65):
        assert positions(packed.rows) < positions(own.rows) / 2


def test_symmetry_arguments_are_checked():
    n = 4
    s = lightsout.solve(np.ones((n, n), bool))
    particular = s.presses.ravel().astype(np.uint8)
    basis = s.quiet_patterns().reshape(-1, n * n).astype(np.uint8)
    identity = np.arange(16)
    with pytest.raises(InvalidTypeError, match="symmetry"):
        coset_min_weight(particular, basis, symmetry="mirror")
    with pytest.raises(InvalidTypeError, match="symmetry"):
        coset_min_weight(particular, basis, symmetry=np.arange(16))
    with pytest.raises(InvalidTypeError, match="integer"):
        coset_min_weight(particular, basis, symmetry=[identity.astype(float)])
    with pytest.raises(InvalidBoardError, match="not a permutation"):
        coset_min_weight(particular, basis, symmetry=[np.zeros(16, int)])
    with pytest.raises(InvalidBoardError, match="one per cell"):
        coset_min_weight(particular, basis, symmetry=[np.arange(15)])
    swap = identity.copy()
    swap[[0, 5]] = swap[[5, 0]]               # a corner and an inner cell: not a symmetry of the board
    with pytest.raises(InvalidBoardError, match="does not map the coset"):
        coset_min_weight(particular, basis, symmetry=[swap])
    as_array = coset_min_weight(particular, basis, symmetry=np.array(grid_symmetries((4, 4), (False, False))))
    assert as_array.weight == 4
    with pytest.raises(InvalidTypeError, match="symmetry"):        # checked even when there is nothing to cut
        coset_min_weight(particular, np.zeros((0, 16), np.uint8), symmetry="mirror")


@pytest.mark.thorough
def test_executors_threads_and_time_limits():
    n = 39
    s = lightsout.solve(np.ones((n, n), bool))
    particular = s.presses.ravel().astype(np.uint8)
    basis = s.quiet_patterns().reshape(-1, n * n).astype(np.uint8)
    group = grid_symmetries((n, n), (False, False))
    plain = coset_min_weight(particular, basis)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for split in (None, 4, 12):
            found = coset_min_weight(particular, basis, symmetry=group, executor=pool, split_bits=split)
            assert np.array_equal(found.presses, plain.presses) and found.proven
    assert np.array_equal(coset_min_weight(particular, basis, symmetry=group, threads=1).presses, plain.presses)
    cut_short = coset_min_weight(particular, basis, symmetry=group, time_limit=0)
    assert not cut_short.proven and cut_short.weight >= plain.weight
    assert oracle.clears(np.ones((n, n), np.uint8), cut_short.presses.reshape(n, n))


@pytest.mark.parametrize("level", available_levels())
def test_kernel_reports_each_listed_task_minimum(level):
    walsh = load("walsh", level)
    rng = np.random.default_rng(7)
    d, lanes, m = 9, 2, 3
    forms = rng.choice(1 << d, size=40, replace=False).astype(np.uint64)
    values = rng.integers(-3, 4, size=40).astype(np.int32)
    values[values == 0] = 1
    coordinates = np.arange(1 << d, dtype=np.uint64)
    parity = np.array([[bin(int(f) & int(c)).count("1") & 1 for f in forms] for c in coordinates])
    sums = ((1 - 2 * parity) * values.astype(np.int64)).sum(axis=1)       # S(c) for every c, by brute force
    per_task = sums.reshape(1 << (d - lanes - m), -1)
    tasks = rng.permutation(1 << (d - lanes - m)).astype(np.uint64)
    bound = int(np.sort(per_task.min(axis=1))[3])
    found, total, index, reported = walsh.search_task_list(forms, values, d, m, lanes, tasks, bound, False)
    running = bound
    for task, got in zip(tasks, reported):
        low = int(per_task[int(task)].min())
        if low <= running:
            assert got == low
            running = low
        else:
            assert got == INT64_MAX
    best = min((int(sums[c]), c) for c in range(1 << d) if sums[c] <= bound)
    assert (found, total, index) == (True, *best)
    assert walsh.search_tasks(forms, values, d, m, lanes, 0, 1 << (d - lanes - m), bound, False) == (True, *best)
    empty = walsh.search_task_list(forms, values, d, m, lanes, np.zeros(0, np.uint64), 5, False)
    assert empty[:3] == (False, 5, 0) and empty[3].size == 0
    with pytest.raises(InvalidTypeError):
        walsh.search_task_list(forms, values, d, m, lanes, tasks.astype(np.int64), bound, False)
    with pytest.raises(InvalidBoardError, match="below"):
        walsh.search_task_list(forms, values, d, m, lanes, np.array([16], np.uint64), bound, False)
