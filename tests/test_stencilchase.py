"""The stencil chase (lightsout/_routes/stencilchase.py) against its own small simulator and brute force.

Nothing here shares code with the package: the press matrix is built cell by cell from the
stencil's definition, solutions are replayed on it, solvability and nullity come from a plain
Gaussian elimination over GF(p) (or, for composite k, from enumerating every press vector of a
tiny board), every proof and every quiet pattern is checked against the matrix.
"""
from __future__ import annotations

import itertools
import threading

import numpy as np
import pytest

from lightsout import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._routes.stencilchase import chase_stencil, refuse_chase
from conftest import stops_at_ctrl_c


# -- the independent model -------------------------------------------------------------------

def press_matrix(shape, wraps, weights, centre, k):
    """A[light, press] (mod k), cells in C order, from the convention: press p adds weights[i] to p + i - centre."""
    cells = list(itertools.product(*[range(n) for n in shape]))
    index = {cell: j for j, cell in enumerate(cells)}
    a = np.zeros((len(cells), len(cells)), dtype=np.int64)
    for p in cells:
        for i in itertools.product(*[range(s) for s in weights.shape]):
            w = int(weights[i])
            if w == 0:
                continue
            target = []
            for axis, (pa, ia, ca) in enumerate(zip(p, i, centre)):
                t = pa + ia - ca
                if not 0 <= t < shape[axis]:
                    if not wraps[axis]:
                        break
                    t %= shape[axis]
                target.append(t)
            else:
                a[index[tuple(target)], index[p]] = (a[index[tuple(target)], index[p]] + w) % k
    return a


def rank_mod_p(rows, p):
    """Rank of an integer matrix over GF(p), p prime, by plain Gaussian elimination (row operations in numpy)."""
    m = np.array(rows, dtype=np.int64) % p
    if m.ndim != 2 or m.size == 0:
        return 0
    rank = 0
    for col in range(m.shape[1]):
        nonzero = np.flatnonzero(m[rank:, col]) + rank
        if nonzero.size == 0:
            continue
        pivot = nonzero[0]
        m[[rank, pivot]] = m[[pivot, rank]]
        m[rank] = (m[rank] * pow(int(m[rank, col]), p - 2, p)) % p
        others = np.flatnonzero(m[:, col])
        others = others[others != rank]
        m[others] = (m[others] - np.outer(m[others, col], m[rank])) % p
        rank += 1
        if rank == m.shape[0]:
            break
    return rank


def is_prime(k):
    return k > 1 and all(k % d for d in range(2, int(k ** 0.5) + 1))


class Board:
    """A random small board: shape, wraps, stencil, states, masks, lights."""

    def __init__(self, rng, k, ndim=None, masks=True):
        ndim = ndim or int(rng.integers(1, 4))
        self.k = k
        self.shape = tuple(int(rng.integers(1, 6 if ndim < 3 else 4)) for _ in range(ndim))
        stencil_shape = tuple(int(rng.integers(1, 4)) for _ in range(ndim))
        weights = rng.integers(0, k, size=stencil_shape).astype(np.uint8)
        if rng.random() < 0.4:  # symmetric under i -> 2 * centre - i (odd extents, centre in the middle)
            stencil_shape = tuple(2 * int(rng.integers(0, 2)) + 1 for _ in range(ndim))
            weights = rng.integers(0, k, size=stencil_shape).astype(np.uint8)
            weights = ((weights.astype(int) + weights[tuple(slice(None, None, -1) for _ in range(ndim))]) % k
                       ).astype(np.uint8)
        if not weights.any():
            weights[tuple(rng.integers(0, s) for s in weights.shape)] = 1 + int(rng.integers(0, k - 1))
        self.weights = weights
        self.centre = tuple(int(rng.integers(0, s)) for s in weights.shape)
        self.wraps = tuple(bool(rng.random() < 0.4) and n >= s for n, s in zip(self.shape, weights.shape))
        self.lights = rng.integers(0, k, size=self.shape).astype(np.uint8)
        cells = int(np.prod(self.shape))
        self.pressable = np.ones(self.shape, bool)
        self.required = np.ones(self.shape, bool)
        if masks and rng.random() < 0.6:
            holes = rng.random(self.shape) < 0.15
            self.pressable = ~holes & (rng.random(self.shape) >= 0.15)
            self.required = ~holes & (rng.random(self.shape) >= 0.15)
        self.a = press_matrix(self.shape, self.wraps, weights, self.centre, k)
        self.rows = self.required.reshape(-1)
        self.cols = self.pressable.reshape(-1)
        self.sub = self.a[np.ix_(self.rows, self.cols)]
        self.b = self.lights.reshape(-1).astype(np.int64)
        assert cells == self.a.shape[0]

    def solve(self, **kw):
        return chase_stencil(self.shape, self.wraps, self.weights, self.centre, self.k, self.lights,
                             self.pressable, self.required, **kw)

    def residual(self, presses):
        """The required lights after pressing (mod k)."""
        return ((self.a @ presses.astype(np.int64) + self.b) % self.k)[self.rows]

    def brute(self):
        """(number of solutions, number of quiet patterns) by enumerating every press vector."""
        n = int(self.cols.sum())
        solutions = quiet = 0
        for combo in itertools.product(range(self.k), repeat=n):
            x = np.zeros(self.a.shape[0], dtype=np.int64)
            x[self.cols] = combo
            effect = (self.a @ x) % self.k
            quiet += not effect[self.rows].any()
            solutions += not ((effect + self.b) % self.k)[self.rows].any()
        return solutions, quiet


def check_board(board, found):
    k = board.k
    cells = board.a.shape[0]
    npress = int(board.cols.sum())
    if is_prime(k):
        rank = rank_mod_p(board.sub, k) if board.sub.size else 0
        aug = np.concatenate([board.sub, (-board.b[board.rows] % k)[:, None]], axis=1)
        solvable = (rank_mod_p(aug, k) if aug.size else 0) == rank
        assert found.solvable == solvable
        assert found.nullity == npress - rank
        assert found.count == k ** (npress - rank)
    if k ** npress <= 4096:
        solutions, quiet = board.brute()
        assert found.count == quiet
        assert found.solvable == (solutions > 0)
        if solutions:
            assert solutions == quiet
    if found.solvable:
        x = found.particular
        assert x.shape == (cells,) and x.max(initial=0) < k
        assert not x[~board.cols].any()
        assert not board.residual(x).any()
    else:
        y = found.proof.astype(np.int64)
        assert y.shape == (cells,)
        assert not y[~board.rows].any()
        assert not ((y @ board.a) % k)[board.cols].any()
        assert (y @ board.b) % k != 0
    basis = found.kernel_rows(cells).astype(np.int64)
    for q in basis:
        assert not q[~board.cols].any()
        assert not ((board.a @ q) % k)[board.rows].any()
    if is_prime(k):
        assert len(basis) == found.nullity
        assert (rank_mod_p(basis, k) if len(basis) else 0) == found.nullity
    else:  # the span of the generators has exactly `count` elements
        span = {tuple([0] * cells)}
        for q in basis:
            grown = set(span)
            frontier = list(span)
            while frontier:
                v = frontier.pop()
                w = tuple((np.array(v) + q) % k)
                if w not in grown:
                    grown.add(w)
                    frontier.append(w)
            span = grown
            assert len(span) <= found.count
        assert len(span) == found.count


@pytest.mark.parametrize("seed", range(150))
def test_random_boards_two_states(seed):
    rng = np.random.default_rng(seed)
    board = Board(rng, 2)
    check_board(board, board.solve())


@pytest.mark.parametrize("k", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("seed", range(30))
def test_random_boards_k_states(k, seed):
    rng = np.random.default_rng(1000 * k + seed)
    board = Board(rng, k)
    check_board(board, board.solve())


class MediumBoard(Board):
    """A 2-D board of 6..16 cells a side, where the chase's window is smaller than the board."""

    def __init__(self, rng, k):
        self.k = k
        self.shape = (int(rng.integers(6, 17)), int(rng.integers(6, 17)))
        weights = rng.integers(0, k, size=(int(rng.integers(1, 6)), int(rng.integers(1, 6)))).astype(np.uint8)
        weights[tuple(rng.integers(0, s) for s in weights.shape)] = 1
        self.weights = weights
        self.centre = tuple(int(rng.integers(0, s)) for s in weights.shape)
        self.wraps = tuple(bool(rng.random() < 0.4) for _ in range(2))
        self.lights = rng.integers(0, k, size=self.shape).astype(np.uint8)
        self.pressable = np.ones(self.shape, bool)
        self.required = np.ones(self.shape, bool)
        if rng.random() < 0.5:
            holes = rng.random(self.shape) < 0.1
            self.pressable = ~holes & (rng.random(self.shape) >= 0.1)
            self.required = ~holes & (rng.random(self.shape) >= 0.1)
        self.a = press_matrix(self.shape, self.wraps, weights, self.centre, k)
        self.rows = self.required.reshape(-1)
        self.cols = self.pressable.reshape(-1)
        self.sub = self.a[np.ix_(self.rows, self.cols)]
        self.b = self.lights.reshape(-1).astype(np.int64)


@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("seed", range(12))
def test_medium_boards_where_the_window_slides(k, seed):
    board = MediumBoard(np.random.default_rng(5000 + 100 * k + seed), k)
    check_board(board, board.solve())


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("seed", range(10))
def test_rows_worked_a_column_block_at_a_time_give_the_same_answers(k, seed, monkeypatch):
    """Every row worked one word (or value) at a time, band by band, on two threads."""
    import lightsout._routes.stencilchase as route
    monkeypatch.setattr(route, "COLUMN_BLOCK", 1)
    rng = np.random.default_rng(7000 + 10 * k + seed)
    board = MediumBoard(rng, k)
    board.weights[-1, :] = 1                    # a tall stencil: more unknowns than one word
    board.a = press_matrix(board.shape, board.wraps, board.weights, board.centre, k)
    board.sub = board.a[np.ix_(board.rows, board.cols)]
    check_board(board, board.solve(threads=2))


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("seed", range(8))
def test_rows_in_blocks_give_the_same_reduced_system_on_one_and_two_threads(k, seed, monkeypatch):
    """Rows worked a word (or value) at a time: the reduced system is the same, bit for bit, on one
    thread and on two (which share the columns by work, route._shares)."""
    import lightsout._routes.stencilchase as route
    monkeypatch.setattr(route, "COLUMN_BLOCK", 1)
    rng = np.random.default_rng(7500 + 10 * k + seed)
    board = MediumBoard(rng, k)
    board.weights[-1, :] = 1                    # a tall stencil: more unknowns than one word
    board.a = press_matrix(board.shape, board.wraps, board.weights, board.centre, k)
    board.sub = board.a[np.ix_(board.rows, board.cols)]
    one, two = board.solve(threads=1), board.solve(threads=2)
    check_board(board, one)
    check_board(board, two)
    assert one.solvable == two.solvable and one.nullity == two.nullity
    if one.solvable:
        assert np.array_equal(one.particular, two.particular)
    geometry = route.ChaseGeometry(board.shape, board.wraps, board.weights, board.centre, k)
    press = board.pressable.reshape(-1).astype(np.uint8)
    plan = route._Plan(geometry, press, board.required.reshape(-1).astype(np.uint8))
    lights = board.lights.reshape(-1)
    systems = [route._reduced_system(geometry, plan, press, lights, threads) for threads in (1, 2)]
    assert np.array_equal(systems[0][0], systems[1][0]) and np.array_equal(systems[0][1], systems[1][1])


@pytest.mark.parametrize("seed", range(20))
def test_the_threads_shares_of_the_columns_cover_every_column_once(seed):
    import lightsout._routes.stencilchase as route
    rng = np.random.default_rng(8000 + seed)

    class Met:
        free_at = np.sort(rng.choice(5000, size=int(rng.integers(0, 400)), replace=False))
    per_column = int(rng.choice([1, 64]))
    width = -(-(len(Met.free_at) + 1) // per_column)
    nchunks = int(rng.integers(1, 6))
    bounds = route._shares(Met(), 5000, width, per_column, nchunks)
    assert bounds[0] == 0 and bounds[-1] == width and len(bounds) - 1 <= nchunks
    assert all(a < b for a, b in zip(bounds, bounds[1:]))


@pytest.mark.parametrize("k", [2, 3, 4])
@pytest.mark.parametrize("seed", range(12))
def test_one_solution_on_the_whole_board_matches_the_windowed_numeric_chase(k, seed):
    """The whole-board pass of one vector (route._solution's kernel) and the windowed pass give the same
    presses, and the same count of equations that do not read 0, for any values of the unknowns."""
    import lightsout._routes.stencilchase as route
    from lightsout import _kernels
    rng = np.random.default_rng(8100 + 20 * k + seed)
    board = MediumBoard(rng, k)
    geometry = route.ChaseGeometry(board.shape, board.wraps, board.weights, board.centre, k)
    press = board.pressable.reshape(-1).astype(np.uint8)
    plan = route._Plan(geometry, press, board.required.reshape(-1).astype(np.uint8))
    lights = board.lights.reshape(-1)
    unknowns = rng.integers(0, k, plan.nfree).astype(np.uint8)
    presses, nonzero = _kernels.stencilchase.solution(*geometry.geometry, press, plan.code, lights, k, unknowns)
    assert not presses[press == 0].any()
    # the presses clear every light the chase forces: its residual is 0 there
    residual = board.residual(presses)
    forcing = (plan.code.reshape(-1) >= 0) & (plan.code.reshape(-1) & 1 == 1)
    assert not residual[forcing[board.rows]].any()
    chased = (plan.code.reshape(-1) >= 0) & ~forcing       # and counts the chased equations that miss
    assert nonzero == int(np.count_nonzero(residual[chased[board.rows]]))
    if nonzero == 0:
        assert np.array_equal(presses, route._expand(geometry, plan, press, lights, unknowns[None, :],
                                                     with_lights=True)[0])
    else:
        with pytest.raises(Exception, match="did not read 0"):
            route._expand(geometry, plan, press, lights, unknowns[None, :], with_lights=True)
    with pytest.raises(Exception, match="number of unknowns"):
        _kernels.stencilchase.solution(*geometry.geometry, press, plan.code, lights, k,
                                       np.zeros(plan.nfree + 1, np.uint8))


def test_the_classic_plus_rule_keeps_its_nullities():
    """The plus rule's nullities of the n x n board (A075462: 0 0 0 4 2 0 0 0 8 0 ...)."""
    plus = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)
    got = [chase_stencil((n, n), False, plus, (1, 1), 2, None).nullity for n in range(1, 11)]
    assert got == [0, 0, 0, 4, 2, 0, 0, 0, 8, 0]


def test_a_solvable_answer_without_the_kernel_is_the_same_coset():
    rng = np.random.default_rng(7)
    board = MediumBoard(rng, 2)
    full, bare = board.solve(), board.solve(kernel=False)
    assert (full.solvable, full.nullity, full.count) == (bare.solvable, bare.nullity, bare.count)
    assert bare.proof is None and bare.kernel_batches is None
    if bare.solvable:
        assert not board.residual(bare.particular).any()


def test_a_light_no_press_reaches_decides_alone():
    weights = np.array([[1, 1]], np.uint8)                      # a press lights itself and its right neighbour
    lights = np.array([[0, 0, 0, 1]], np.uint8)
    a = press_matrix((1, 4), (False, False), weights, (0, 0), 2)
    found = chase_stencil((1, 4), False, weights, (0, 0), 2, lights)
    assert found.solvable and found.particular.tolist() == [0, 0, 0, 1]
    pressable = np.array([[True, True, False, False]])          # now no press reaches light 3
    found = chase_stencil((1, 4), False, weights, (0, 0), 2, lights, pressable=pressable)
    assert not found.solvable and found.proof[3] == 1
    assert not ((found.proof.astype(int) @ a) % 2)[:2].any()
    found = chase_stencil((1, 4), False, weights, (0, 0), 2, lights, pressable=pressable,
                          required=np.array([[True, True, True, False]]))   # light 3 need not go out
    assert found.solvable and found.particular.tolist() == [0, 0, 0, 0] and found.nullity == 0


@pytest.mark.parametrize("bad, error", [
    (dict(weights=np.zeros((3, 3), np.uint8)), InvalidBoardError),                 # an empty stencil
    (dict(weights=np.full((3, 3), 2, np.uint8)), InvalidBoardError),               # a weight >= k
    (dict(weights=np.ones((3,), np.uint8)), InvalidBoardError),                    # axes do not match
    (dict(weights=[[1]]), InvalidTypeError),
    (dict(centre=(3, 0)), InvalidBoardError),
    (dict(centre=(1,)), InvalidTypeError),
    (dict(shape=(5, 2), wraps=(False, True)), InvalidBoardError),                  # wraps shorter than the stencil
    (dict(lights=np.full((5, 5), 2, np.uint8)), InvalidBoardError),
    (dict(lights=np.ones((4, 5), np.uint8)), InvalidBoardError),
    (dict(pressable=np.ones((5, 5), np.uint8)), InvalidTypeError),
    (dict(required=np.ones((5, 4), bool)), InvalidBoardError),
    (dict(states=1), InvalidBoardError),
])
def test_bad_arguments_are_refused_clearly(bad, error):
    args = dict(shape=(5, 5), wraps=False, weights=np.ones((3, 3), np.uint8), centre=(1, 1), states=2,
                lights=None)
    args.update(bad)
    with pytest.raises(error):
        chase_stencil(**args)


def test_a_board_past_the_budget_is_refused_before_the_work():
    with pytest.raises(BoardTooLargeError, match="lightsout.limits.MAX_STENCIL_CHASE_BYTES"):
        chase_stencil((60000, 60000), False, np.ones((5, 5), np.uint8), (2, 2), 2, None)
    with pytest.raises(BoardTooLargeError, match="lightsout.limits.MAX_STENCIL_CHASE_BYTES"):
        refuse_chase((60000, 60000), (True, False), np.ones((3, 3), np.uint8), (1, 1), 2)
    refuse_chase((2000, 2000), False, np.ones((5, 5), np.uint8), (2, 2), 2)
    with pytest.raises(InvalidBoardError):
        refuse_chase((2000, 2), True, np.ones((3, 3), np.uint8), (1, 1), 2)


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signal handlers run on the main thread")
def test_ctrl_c_stops_a_big_chase():
    weights = np.random.default_rng(3).integers(0, 2, size=(5, 5)).astype(np.uint8)
    weights[4, 2] = 1
    stops_at_ctrl_c(lambda: chase_stencil((4000, 4000), False, weights, (2, 2), 2, None), "the chase", delay=0.3)


@pytest.mark.parametrize("states", [2, 3])
@pytest.mark.parametrize("torus", [False, True])
@pytest.mark.parametrize("self_toggle", [True, False])
def test_the_plus_rule_and_the_sigma_game_agree_with_the_grid_routes(states, torus, self_toggle):
    """Today's rules as two stencils: the same nullity as lightsout.nullity, each answer replayed here."""
    import lightsout
    plus = np.array([[0, 1, 0], [1, int(self_toggle), 1], [0, 1, 0]], np.uint8)
    for rows, cols in [(3, 3), (4, 4), (5, 5), (3, 7), (6, 4), (9, 9)]:
        found = chase_stencil((rows, cols), torus, plus, (1, 1), states, None)
        assert found.nullity == lightsout.nullity((rows, cols), torus=torus, self_toggle=self_toggle, states=states)
        a = press_matrix((rows, cols), (torus, torus), plus, (1, 1), states)
        if found.solvable:
            assert not ((a @ found.particular.astype(np.int64) + 1) % states).any()
        else:
            assert ((found.proof.astype(np.int64) @ np.ones(rows * cols, np.int64)) % states) != 0
            assert not ((found.proof.astype(np.int64) @ a) % states).any()


def test_three_axes_and_the_hexagonal_rule():
    """The 3 x 3 x 3 rule on a 4 x 5 x 3 box and the hexagonal rule (axial coordinates) on 7 x 7, replayed."""
    for shape, weights, centre in [((4, 5, 3), np.ones((3, 3, 3), np.uint8), (1, 1, 1)),
                                   ((7, 7), np.array([[0, 1, 1], [1, 1, 1], [1, 1, 0]], np.uint8), (1, 1))]:
        a = press_matrix(shape, (False,) * len(shape), weights, centre, 2)
        lights = np.random.default_rng(1).integers(0, 2, size=shape).astype(np.uint8)
        found = chase_stencil(shape, False, weights, centre, 2, lights)
        assert found.nullity == a.shape[0] - rank_mod_p(a, 2)
        if found.solvable:
            assert not ((a @ found.particular.astype(np.int64) + lights.reshape(-1)) % 2).any()
        else:
            assert not ((found.proof.astype(np.int64) @ a) % 2).any()


def test_a_wrapping_axis_as_long_as_the_nonzero_part_of_the_stencil():
    """Zeros around a stencil do not count: a 5-wide stencil whose nonzero part is 3 wide wraps a ring of 3."""
    weights = np.zeros((1, 5), np.uint8)
    weights[0, 1:4] = [1, 1, 2]
    lights = np.array([[1, 2, 0], [0, 1, 1]], np.uint8)
    a = press_matrix((2, 3), (False, True), weights, (0, 2), 3)
    found = chase_stencil((2, 3), (False, True), weights, (0, 2), 3, lights)
    assert found.nullity == 6 - rank_mod_p(a, 3)
    if found.solvable:
        assert not ((a @ found.particular.astype(np.int64) + lights.reshape(-1)) % 3).any()
    else:
        assert not ((found.proof.astype(np.int64) @ a) % 3).any()
    with pytest.raises(InvalidBoardError, match="wraps"):
        chase_stencil((2, 2), (False, True), weights, (0, 2), 3, lights[:, :2])


@pytest.mark.parametrize("k", [2, 3])
def test_every_simd_level_of_the_kernel(k, simd_level, monkeypatch):
    """The route's answers with the kernel built at each SIMD level (the narrower ones: thorough)."""
    from lightsout import _kernels
    monkeypatch.setattr(_kernels, "stencilchase", _kernels.load("stencilchase", simd_level), raising=False)
    assert _kernels.stencilchase.SIMD_LEVEL == simd_level
    for seed in range(6):
        board = MediumBoard(np.random.default_rng(9000 + 10 * k + seed), k)
        check_board(board, board.solve())
