"""Press stencils, one-way rules and board masks (issue 30): the model, the general route, the public API.

Every answer is checked by tests/oracle.py's stencil simulator, written from the conventions
alone: solutions replayed, solvability and proofs checked, counts and nullities against brute
force (every press vector, when few) or the oracle's own elimination mod p.
"""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import lightsout
from lightsout import Stencil
from lightsout._core.rules import Rules
from lightsout._routes.registry import ROUTES
from oracle import (
    brute_force_system, effect_matrix, masked_nullity, masked_system, neighbour_sets, proves_unsolvable,
    solve_mod_prime, stencil_matrix, stencil_replay,
)


# -- the model ------------------------------------------------------------------------------------------

def test_named_stencils_hold_the_classic_rules():
    assert Stencil.named("plus").weights.tolist() == [[0, 1, 0], [1, 1, 1], [0, 1, 0]]
    assert Stencil.named("sigma").centre_weight == 0
    assert Stencil.named("moore") == Stencil.named("3x3") == Stencil(np.ones((3, 3), int))
    knight = Stencil.named("knight")
    assert sorted(offset for offset, _ in knight.offsets()) == sorted(
        [(0, 0), (1, 2), (1, -2), (-1, 2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)])
    assert sorted(o for o, _ in Stencil.named("hex").offsets()) == sorted(
        [(0, 0), (0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1)])
    assert sorted(o for o, _ in Stencil.named("x", radius=2).offsets()) == sorted(
        [(0, 0)] + [(a * r, b * r) for r in (1, 2) for a in (1, -1) for b in (1, -1)])
    plus2 = Stencil.named("plus", radius=2)
    assert sorted(o for o, _ in plus2.offsets()) == sorted(
        [(0, 0)] + [(s, 0) for s in (-2, -1, 1, 2)] + [(0, s) for s in (-2, -1, 1, 2)])
    assert Stencil.named("plus", ndim=3).weights.sum() == 7
    for name in ("plus", "x", "moore", "3x3", "knight", "hex"):
        assert Stencil.named(name).centre_weight == 1, name


def test_stencil_value_semantics():
    a = Stencil([[1, 1], [0, 1]], centre=(0, 0))
    b = Stencil(np.array([[True, True], [False, True]]), centre=[0, 0])
    assert a == b and hash(a) == hash(b)
    assert a != Stencil([[1, 1], [0, 1]], centre=(0, 1))
    assert pickle.loads(pickle.dumps(a)) == a
    assert repr(a) == "Stencil([[1, 1], [0, 1]], centre=(0, 0))"
    assert not a.is_symmetric and Stencil.named("knight").is_symmetric
    with pytest.raises(AttributeError):
        a.centre = (1, 1)  # type: ignore[misc]
    with pytest.raises(ValueError):
        a.weights[0, 0] = 0
    assert Stencil.from_offsets([(0, 0), (0, 1)], weights=[2, 1]) == Stencil([[2, 1]], centre=(0, 0))


@pytest.mark.parametrize("weights, centre, message", [
    ([], None, "empty"),
    ([[0, 0, 0]], None, "every stencil weight is 0"),
    ([[1, 1]], None, "centre="),
    ([[1, 1]], (0, 2), "is not a cell"),
    ([[1, 300, 1]], None, "0..255"),
    ([[1, -1, 1]], None, "0..255"),
    ([[1.5, 1, 1]], None, "whole numbers"),
])
def test_bad_stencils_are_refused(weights, centre, message):
    with pytest.raises(lightsout.InvalidBoardError, match=message):
        Stencil(weights, centre=centre)


def test_bad_names_and_types_are_refused():
    with pytest.raises(lightsout.InvalidBoardError, match="unknown stencil"):
        Stencil.named("star")
    with pytest.raises(lightsout.InvalidBoardError, match="2-D"):
        Stencil.named("knight", ndim=3)
    with pytest.raises(lightsout.InvalidTypeError):
        Stencil("plus")  # a name goes through Stencil.named or stencil=
    with pytest.raises(lightsout.InvalidBoardError, match="radius"):
        Stencil.named("plus", radius=0)
    with pytest.raises(lightsout.InvalidBoardError, match="no offsets"):
        Stencil.from_offsets([])


def test_rules_check_the_stencil_and_masks():
    with pytest.raises(lightsout.InvalidBoardError, match="every weight must be 0..1"):
        Rules.check((3, 3), stencil=[[0, 2, 0], [1, 1, 1], [0, 1, 0]])
    assert Rules.check((3, 3), stencil=[[0, 2, 0], [1, 1, 1], [0, 1, 0]], states=3).stencil is not None
    with pytest.raises(lightsout.InvalidBoardError, match="axes"):
        Rules.check((3, 3, 3), stencil=np.ones((3, 3)))
    with pytest.raises(lightsout.InvalidBoardError, match="shape"):
        Rules.check((3, 3), holes=np.zeros((3, 4), bool))
    with pytest.raises(lightsout.InvalidBoardError, match="0 and 1"):
        Rules.check((1, 2), unpressable=[[0, 2]])
    with pytest.raises(lightsout.InvalidTypeError):
        Rules.check((1, 2), free_lights="yes")
    # today's rule, however it is said, is today's rule
    assert Rules.check((4, 4), stencil="plus") == Rules.check((4, 4))
    assert Rules.check((4, 4), stencil=np.pad(Stencil.named("plus").weights, 1)).is_plain_grid
    assert Rules.check((4, 4), stencil="sigma") == Rules.check((4, 4), self_toggle=False)
    assert Rules.check((4, 4), stencil="plus", self_toggle=False) == Rules.check((4, 4), self_toggle=False)
    # self_toggle=False zeroes the centre weight
    assert Rules.check((4, 4), stencil="moore", self_toggle=False).press_stencil.centre_weight == 0
    # masks with no True are no masks; with one, the plain routes step aside
    assert Rules.check((4, 4), holes=np.zeros((4, 4))).is_plain_grid
    masked = Rules.check((4, 4), holes=np.eye(4))
    assert not masked.is_plain_grid and masked != Rules.check((4, 4))
    assert masked == Rules.check((4, 4), holes=np.eye(4, dtype=bool)) and hash(masked) == hash(
        Rules.check((4, 4), holes=np.eye(4, dtype=bool)))


def test_routes_say_which_boards_they_take():
    with pytest.raises(lightsout.InvalidBoardError, match="method 'nd' solves"):
        lightsout.solve(np.ones((3, 3)), stencil="x", method="nd")
    with pytest.raises(lightsout.InvalidBoardError, match="method 'poly' solves"):
        lightsout.solve(np.ones((3, 3)), holes=np.eye(3), method="poly")
    assert lightsout.solve(np.ones((3, 3)), stencil="x").method == "stencilchase"
    assert lightsout.solve(np.ones((3, 3)), stencil="x", torus=True).method == "stencilchase"
    # a wrapping axis shorter than the knight's reach (5) is eliminated whole
    assert lightsout.solve(np.ones((4, 4)), stencil="knight", torus=True).method == "general"
    with pytest.raises(lightsout.InvalidBoardError, match="method 'stencilchase' solves"):
        lightsout.solve(np.ones((4, 4)), stencil="knight", torus=True, method="stencilchase")


@pytest.mark.parametrize("seed", range(120))
def test_the_chase_and_the_elimination_agree(seed):
    """The stencil chase and the general route give the same canonical solution, count and nullity."""
    shape, torus, weights, centre, states, masks, board = random_case(np.random.default_rng(5000 + seed),
                                                                      max_cells=24)
    kwargs = dict(torus=torus, states=states, stencil=Stencil(weights, centre=centre), **masks)
    if not ROUTES["stencilchase"].accepts(Rules.check(shape, **kwargs)):
        return
    assert lightsout.nullity(shape, method="stencilchase", **kwargs) == lightsout.nullity(
        shape, method="general", **kwargs)
    try:
        chased = lightsout.solve(board, method="stencilchase", **kwargs)
    except lightsout.UnsolvableError:
        with pytest.raises(lightsout.UnsolvableError):
            lightsout.solve(board, method="general", **kwargs)
        return
    eliminated = lightsout.solve(board, method="general", **kwargs)
    assert np.array_equal(chased.presses, eliminated.presses)
    assert (chased.count, chased.nullity) == (eliminated.count, eliminated.nullity)


def test_general_route_refuses_before_allocating():
    with pytest.raises(lightsout.BoardTooLargeError, match="lightsout.limits.MAX_GENERAL_BYTES"):
        lightsout.nullity((2000, 2000), stencil="knight", method="general")
    huge = np.broadcast_to(np.uint8(1), (60000, 60000))  # 3.6e9 cells, no memory behind them
    with pytest.raises(lightsout.BoardTooLargeError, match="lightsout.limits.MAX_GENERAL_BYTES"):
        lightsout.solve(huge, stencil="x", method="general")
    with pytest.raises(lightsout.BoardTooLargeError, match="lightsout.limits.MAX_STENCIL_CHASE_BYTES"):
        lightsout.solve(huge, stencil="x")


def test_press_refuses_presses_off_the_board():
    with pytest.raises(lightsout.InvalidBoardError, match="a hole"):
        lightsout.press(np.zeros((2, 2)), [[1, 0], [0, 0]], holes=[[1, 0], [0, 0]])
    with pytest.raises(lightsout.InvalidBoardError, match="may not be pressed"):
        lightsout.press(np.zeros((2, 2)), [[1, 0], [0, 0]], unpressable=[[1, 0], [0, 0]])


# -- today's rule through stencil= --------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_todays_rule_through_stencil_gives_todays_answers(seed):
    rng = np.random.default_rng(seed)
    ndim = int(rng.integers(1, 4))
    shape = tuple(int(s) for s in rng.integers(1, 6 if ndim < 3 else 4, size=ndim))
    torus = tuple(bool(t) for t in rng.integers(0, 2, size=ndim))
    states = int(rng.integers(2, 5))
    board = rng.integers(0, states, size=shape)
    for self_toggle, names in ((True, ("plus", Stencil.named("plus", ndim=ndim))),
                               (False, ("sigma", Stencil.named("sigma", ndim=ndim).weights))):
        kwargs = dict(torus=torus, states=states, self_toggle=self_toggle)
        for stencil in names:
            assert lightsout.is_solvable(board, stencil=stencil, **kwargs) == lightsout.is_solvable(board, **kwargs)
            assert lightsout.nullity(shape, stencil=stencil, **kwargs) == lightsout.nullity(shape, **kwargs)
            presses = rng.integers(0, states, size=shape)
            assert np.array_equal(lightsout.press(board, presses, stencil=stencil, **kwargs),
                                  lightsout.press(board, presses, **kwargs))
            try:
                today = lightsout.solve(board, **kwargs)
            except lightsout.UnsolvableError as error:
                with pytest.raises(lightsout.UnsolvableError) as caught:
                    lightsout.solve(board, stencil=stencil, **kwargs)
                assert np.array_equal(caught.value.quiet_pattern, error.quiet_pattern)
                continue
            same = lightsout.solve(board, stencil=stencil, **kwargs)
            assert np.array_equal(same.presses, today.presses) and same.method == today.method


@pytest.mark.parametrize("shape, torus, states, self_toggle", [
    ((4, 5), False, 2, True), ((5, 5), True, 3, True), ((3, 4), (True, False), 2, False), ((6,), True, 5, True),
    ((2, 3, 3), False, 2, True), ((3, 3), False, 4, False),
])
def test_general_route_agrees_with_the_classic_routes(shape, torus, states, self_toggle):
    """The general route on today's boards: another independent answer for the classic routes."""
    rng = np.random.default_rng(sum(shape) * states)
    kwargs = dict(torus=torus, states=states, self_toggle=self_toggle)
    assert lightsout.nullity(shape, method="general", **kwargs) == lightsout.nullity(shape, **kwargs)
    for _ in range(5):
        board = rng.integers(0, states, size=shape)
        solvable = lightsout.is_solvable(board, **kwargs)
        assert lightsout.is_solvable(board, method="general", **kwargs) == solvable
        if solvable:
            ours, theirs = lightsout.solve(board, method="general", **kwargs), lightsout.solve(board, **kwargs)
            assert np.array_equal(ours.presses, theirs.presses) and ours.count == theirs.count


# -- random rules against the oracle -----------------------------------------------------------------------

def random_case(rng, *, max_cells=10):
    """A random small board under a random rule: shape, torus, weights, centre, states, masks, board."""
    ndim = int(rng.choice([1, 2, 2, 3]))
    while True:
        shape = tuple(int(s) for s in rng.integers(1, {1: 9, 2: 5, 3: 3}[ndim], size=ndim))
        if np.prod(shape) <= max_cells:
            break
    states = int(rng.integers(2, 8))
    extent = tuple(int(e) for e in rng.integers(1, 4, size=ndim))
    density = rng.uniform(0.3, 0.9)
    weights = np.where(rng.random(extent) < density, rng.integers(1, states, size=extent), 0)
    if not weights.any():
        weights[tuple(int(rng.integers(0, e)) for e in extent)] = 1
    if rng.random() < 0.3:  # a symmetric rule now and then
        weights = np.maximum(weights, np.flip(weights))
    centre = tuple(int(rng.integers(0, e)) for e in extent)
    if rng.random() < 0.3:
        centre = tuple(e // 2 for e in extent) if all(e % 2 for e in extent) else centre
    torus = tuple(bool(t) for t in rng.random(ndim) < 0.4)
    masks = {}
    for name in ("holes", "unpressable", "free_lights"):
        if rng.random() < 0.35:
            masks[name] = rng.random(shape) < 0.25
    board = rng.integers(0, states, size=shape)
    return shape, torus, weights, centre, states, masks, board


def wraps_onto_itself(shape, torus, weights, centre):
    """Whether two targets of a press (its nonzero weights and the pressed cell) meet on one cell by wrapping.

    There a general stencil adds both weights (the conventions' targets wrap one by one), and today's
    rule (the plus rule, the sigma game) counts the neighbour once, as it always has."""
    offsets = {tuple(int(i) - c for i, c in zip(index, centre)) for index in np.argwhere(np.asarray(weights))}
    offsets.add((0,) * len(shape))
    cells = {tuple(o % n if wrap else o for o, n, wrap in zip(offset, shape, torus)) for offset in offsets}
    return len(cells) < len(offsets)


def check_case(shape, torus, weights, centre, states, masks, board):
    stencil = Stencil(weights, centre=centre)
    kwargs = dict(torus=torus, states=states, stencil=stencil, **masks)
    plain = {Stencil.named(name, ndim=len(shape)): name for name in ("plus", "sigma")}
    todays = plain.get(stencil.trimmed())
    if todays is not None and wraps_onto_itself(shape, torus, weights, centre):
        # today's rule keeps today's answers: its neighbours are a set of other cells
        full = effect_matrix(neighbour_sets(shape, torus, self_toggle=todays == "plus"))
    else:
        full = stencil_matrix(shape, torus, weights, centre, states)
    system, required, pressable = masked_system(full, masks.get("holes"), masks.get("unpressable"),
                                                masks.get("free_lights"))
    b = board.ravel()[required]
    # the forward rule: press agrees with the oracle's simulator on random presses of the pressable cells
    presses = np.zeros(board.size, dtype=np.int64)
    presses[pressable] = np.random.default_rng(board.size).integers(0, states, size=len(pressable))
    expected = stencil_replay(board, presses, full, states, masks.get("holes"))
    assert np.array_equal(lightsout.press(board, presses.reshape(shape), **kwargs).astype(np.int64), expected)

    nullity = lightsout.nullity(shape, **kwargs)
    assert nullity == masked_nullity(system, states)
    small = states ** len(pressable) <= 4096
    if small:
        solutions, quiet = brute_force_system(system, b, states)
    try:
        found = lightsout.solve(board, **kwargs)
    except lightsout.UnsolvableError as error:
        assert not lightsout.is_solvable(board, **kwargs)
        assert proves_unsolvable(error.proof, board, full, states, required, pressable)
        if small:
            assert len(solutions) == 0
        if states in (2, 3, 5, 7):
            assert solve_mod_prime(system, -b, states) is None
        return "unsolvable"
    assert lightsout.is_solvable(board, **kwargs)
    x = found.presses.astype(np.int64).ravel()
    assert not np.delete(x, pressable).any()
    after = stencil_replay(board, x, full, states)
    assert not after.ravel()[required].any()
    assert found.nullity == nullity
    if states in (2, 3, 5, 7):
        assert found.count == states ** nullity
    if small:
        assert found.count == quiet == len(solutions)
        # the canonical solution is the smallest, and every solution is one of them
        assert tuple(x[pressable]) == tuple(solutions[0])
        if found.count <= 64:
            every = {tuple(np.asarray(s, dtype=np.int64).ravel()[pressable]) for s in found.all()}
            assert every == {tuple(s) for s in solutions}
    for pattern in found.quiet_patterns()[:4]:
        moved = stencil_replay(np.zeros(board.size, np.int64), pattern.astype(np.int64).ravel(), full, states)
        assert not moved.ravel()[required].any()
    return "solved"


@pytest.mark.parametrize("seed", range(150))
def test_random_rules_against_the_oracle(seed):
    check_case(*random_case(np.random.default_rng(seed)))


@pytest.mark.thorough
@pytest.mark.parametrize("block", range(30))
def test_random_rules_against_the_oracle_thorough(block):
    outcomes = set()
    for seed in range(1000 + block * 100, 1100 + block * 100):
        outcomes.add(check_case(*random_case(np.random.default_rng(seed), max_cells=14)))
    assert outcomes  # both outcomes turn up over the sweep; each block checks a hundred boards


def test_the_sweep_meets_both_outcomes():
    outcomes = [check_case(*random_case(np.random.default_rng(seed))) for seed in range(150, 190)]
    assert "solved" in outcomes and "unsolvable" in outcomes


# -- proofs of one-way rules ---------------------------------------------------------------------------------

def test_one_way_proof_is_not_a_quiet_pattern():
    """Under a one-way rule the left kernel proves the board unsolvable where no quiet pattern could."""
    board = np.array([[0, 1]])
    for method in ("stencilchase", "general"):
        with pytest.raises(lightsout.UnsolvableError) as caught:
            lightsout.solve(board, stencil=Stencil([[1, 1]], centre=(0, 0)), unpressable=[[0, 1]], method=method)
        error = caught.value
        full = stencil_matrix((1, 2), False, [[1, 1]], (0, 0), 2)
        assert proves_unsolvable(error.proof, board, full, 2, [0, 1], [0])
        assert error.quiet_pattern is None and error.method == method and error.rules.unpressable is not None
        again = pickle.loads(pickle.dumps(error))
        assert np.array_equal(again.proof, error.proof) and again.rules == error.rules


def test_solution_replays_and_pickles():
    s = lightsout.solve(np.ones((4, 4), int), stencil="knight", states=3, holes=np.eye(4))
    assert s.verify() and s.rules.stencil == Stencil.named("knight")
    again = pickle.loads(pickle.dumps(s))
    assert again.verify() and again.rules == s.rules and np.array_equal(again.presses, s.presses)


def test_a_wrapping_axis_shorter_than_the_stencil():
    """Today's rule counts a neighbour met twice once; a general stencil adds every weight that lands."""
    assert lightsout.press([0, 0], [1, 0], torus=True, stencil=[1, 1, 1]).astype(int).tolist() == [1, 1]
    assert lightsout.press([0, 0], [1, 0], torus=True, stencil=[2, 1, 1], states=3).tolist() == [1, 0]
    assert lightsout.press([0], [1], torus=True, stencil=[1, 1, 0], states=3).tolist() == [2]


def fewest_case(seed):
    """One random small board's fewest presses against every press vector; False when there are too many to try."""
    shape, torus, weights, centre, states, masks, board = random_case(np.random.default_rng(seed), max_cells=9)
    kwargs = dict(torus=torus, states=states, stencil=Stencil(weights, centre=centre), **masks)
    full = stencil_matrix(shape, torus, weights, centre, states)
    system, required, pressable = masked_system(full, masks.get("holes"), masks.get("unpressable"),
                                                masks.get("free_lights"))
    if states ** len(pressable) > 4096:
        return False
    solutions, _ = brute_force_system(system, board.ravel()[required], states)
    if not len(solutions):
        assert not lightsout.is_solvable(board, **kwargs)
        return True
    fewest = lightsout.solve(board, minimal=True, **kwargs)
    assert fewest.proven_minimal and fewest.verify()
    assert int(fewest.presses.astype(np.int64).sum()) == int(solutions.sum(axis=1).min())
    assert not stencil_replay(board, fewest.presses.astype(np.int64), full, states).ravel()[required].any()
    return True


@pytest.mark.parametrize("block", range(4))
def test_fewest_presses_against_brute_force(block):
    checked = sum(fewest_case(seed) for seed in range(5000 + 15 * block, 5015 + 15 * block))
    assert checked >= 8


# -- solutions up to symmetry --------------------------------------------------------------------------------

def square_symmetries(shape):
    """Every point symmetry of a 2-D box as cell permutations (image[i] = where cell i goes): 8 or 4."""
    index = np.arange(int(np.prod(shape))).reshape(shape)
    views = [index, index[::-1], index[:, ::-1], index[::-1, ::-1]]
    if shape[0] == shape[1]:
        views += [view.T for view in views]
    out = []
    for view in views:  # view[i, j] = the cell that lands on (i, j)
        image = np.empty(index.size, dtype=np.int64)
        image[view.ravel()] = np.arange(index.size)
        out.append(image)
    return out


def keeps(image, full, masks, board, states):
    required_mask = np.ones(board.size, bool)
    for name in ("holes", "free_lights"):
        if name in masks:
            required_mask &= ~np.asarray(masks[name]).ravel()
    values = np.where(required_mask, board.ravel() % states, 0)
    if not np.array_equal(values[image], values):
        return False
    pressable = np.ones(board.size, bool)
    for name in ("holes", "unpressable"):
        if name in masks:
            pressable &= ~np.asarray(masks[name]).ravel()
    # the cells as the system sees them: a mark inside a hole means nothing
    if not (np.array_equal(required_mask[image], required_mask) and np.array_equal(pressable[image], pressable)):
        return False
    restricted = full * required_mask[:, None] * pressable[None, :]
    moved = np.zeros_like(restricted)
    moved[np.ix_(image, image)] = restricted
    return np.array_equal(moved, restricted)


def orbits_under(group, solutions):
    """The number of classes of flat solutions under the cell permutations ``group`` (each the image of
    every cell), each solution named by its smallest image."""
    classes = set()
    for x in solutions:
        images = []
        for g in group:
            moved = np.empty_like(x)
            moved[g] = x
            images.append(moved.tobytes())
        classes.add(min(images))
    return len(classes)


@pytest.mark.parametrize("seed", range(30))
def test_count_up_to_symmetry_against_the_orbits(seed):
    rng = np.random.default_rng(7000 + seed)
    side = int(rng.integers(2, 4))
    shape = (side, side) if rng.random() < 0.6 else (side, side + 1)
    states = int(rng.choice([2, 2, 3]))
    named = rng.choice(["x", "moore", "knight", "hex", "plus-r2", "random"])
    if named == "random":
        weights = rng.integers(0, states, size=(3, 3))
        weights[1, 1] = max(weights[1, 1], 1)
        stencil = Stencil(weights)
    elif named == "plus-r2":
        stencil = Stencil.named("plus", radius=2)
    else:
        stencil = Stencil.named(str(named))
    masks = {"holes": np.zeros(shape, bool)} if rng.random() < 0.5 else {}
    if masks:
        masks["holes"][0, 0] = masks["holes"][-1, -1] = True
    board = np.zeros(shape, dtype=int)
    torus = tuple(bool(flag) for flag in rng.random(2) < 0.3)    # the group comes from the matrix, not these
    kwargs = dict(states=states, stencil=stencil, torus=torus, **masks)
    found = lightsout.solve(board, **kwargs)
    if found.count > 512:
        return
    full = stencil_matrix(shape, torus, stencil.weights, stencil.centre, states)
    group = [g for g in square_symmetries(shape) if keeps(g, full, masks, board, states)]
    solutions = {tuple(np.asarray(x, dtype=np.int64).ravel()) for x in found.all()}
    assert len(solutions) == found.count
    orbits = orbits_under(group, [np.array(x) for x in solutions])
    assert found.count_up_to_symmetry() == orbits
    assert found.count_up_to_symmetry(group=group) == orbits


@pytest.mark.parametrize("torus", [(True, False), (False, True), (True, True)])
@pytest.mark.parametrize("weights", [[[1]], [[1, 1, 1]], [[1], [1], [1]], [[1, 0, 1], [0, 1, 0], [1, 0, 1]],
                                     [[0, 1, 0], [1, 1, 1], [0, 1, 1]]])
@pytest.mark.parametrize("side, states", [(2, 2), (3, 2), (3, 3)])
def test_the_default_group_follows_the_press_matrix_not_the_torus_flags(torus, weights, side, states):
    # a stencil may not see an axis's wrap (the lone centre sees none; a row stencil none along the
    # columns), so exchanging a wrapping and an open axis can keep the board; on a 2 x 2 board two
    # weights may land on one cell.  The group: every point symmetry of the square that keeps the
    # oracle's matrix, whatever the flags say
    # free lights on the corners (side 3) or the main diagonal (side 2) give several solutions
    shape = (side, side)
    board = np.zeros(shape, dtype=int)
    free = np.eye(2, dtype=bool) if side == 2 else np.array([[1, 0, 1], [0, 0, 0], [1, 0, 1]], bool)
    stencil = Stencil(np.asarray(weights))
    found = lightsout.solve(board, stencil=stencil, torus=torus, states=states, free_lights=free)
    full = stencil_matrix(shape, torus, stencil.weights, stencil.centre, states)
    group = [g for g in square_symmetries(shape) if keeps(g, full, {"free_lights": free}, board, states)]
    solutions = [np.asarray(x, dtype=np.int64).ravel() for x in found.all()]
    assert len(solutions) == found.count > 1
    for x in solutions:
        assert not ((full @ x) % states)[~free.ravel()].any()
    assert found.count_up_to_symmetry() == orbits_under(group, solutions)


def test_the_lone_centre_on_a_half_torus_counts_patterns_up_to_the_square():
    # every press vector solves the dark board; the 3 x 3 bit patterns up to the square's 8 are 102
    found = lightsout.solve(np.zeros((3, 3), int), stencil=[[1]], torus=(True, False), free_lights=np.ones((3, 3)))
    assert found.count == 512 and found.count_up_to_symmetry() == 102


def test_a_mark_inside_a_hole_changes_no_symmetry():
    # a hole is neither a light nor a button, so marking it free or unpressable too means nothing
    board = np.array([0, 1, 1, 0])
    counts = {lightsout.solve(board, holes=[1, 0, 0, 1], **extra).count_up_to_symmetry()
              for extra in ({}, {"free_lights": [1, 0, 0, 0]}, {"unpressable": [1, 0, 0, 0]})}
    assert counts == {1}  # the two solutions [0, 1, 0, 0] and [0, 0, 1, 0] are mirror images
    found = lightsout.solve(board, holes=[1, 0, 0, 1], free_lights=[1, 0, 0, 0])
    assert found.count == 2 and found.count_up_to_symmetry(group=[np.array([3, 2, 1, 0])]) == 1


def test_a_group_element_that_breaks_a_one_way_rule_is_refused():
    found = lightsout.solve(np.zeros((2, 3), int), stencil=[[0, 1, 1]], free_lights=[[0, 0, 1], [0, 0, 1]])
    assert found.count == 4  # a press in the last column changes only its own free light
    with pytest.raises(lightsout.InvalidBoardError, match="not a symmetry of this board"):
        found.count_up_to_symmetry(group=[np.array([2, 1, 0, 5, 4, 3])])
    assert found.count_up_to_symmetry(group=[np.array([3, 4, 5, 0, 1, 2])]) == 3  # rows swapped: 01 ~ 10


# -- fewest presses of the all-lit board, and stacks of boards -----------------------------------------------

@pytest.mark.parametrize("shape, stencil, states, masks", [
    ((3, 3), "x", 2, {}), ((3, 4), "knight", 2, {}), ((2, 3), "hex", 3, {}), ((3, 3), "moore", 2,
                                                                          {"holes": np.eye(3, dtype=bool)}),
    ((2, 4), [[1, 1, 0]], 2, {"unpressable": [[0, 0, 0, 1], [0, 0, 0, 0]]}),
    ((3, 3), [[0, 1, 0], [0, 1, 1], [0, 0, 0]], 3, {"free_lights": [[1, 0, 0], [0, 0, 0], [0, 0, 1]]}),
])
def test_fewest_presses_of_the_all_lit_board_against_brute_force(shape, stencil, states, masks):
    rule = Stencil.coerce(stencil, 2)
    full = stencil_matrix(shape, False, rule.weights, rule.centre, states)
    system, required, pressable = masked_system(full, masks.get("holes"), masks.get("unpressable"),
                                                masks.get("free_lights"))
    solutions, _ = brute_force_system(system, np.ones(len(required), dtype=np.int64), states)
    kwargs = dict(stencil=stencil, states=states, **masks)
    if not len(solutions):
        with pytest.raises(lightsout.UnsolvableError):
            lightsout.fewest_presses(shape, **kwargs)
        return
    assert lightsout.fewest_presses(shape, **kwargs) == int(solutions.sum(axis=1).min())


def test_solve_many_under_a_stencil_is_solve_board_by_board():
    rng = np.random.default_rng(11)
    boards = rng.integers(0, 2, size=(12, 3, 4))
    kwargs = dict(stencil=[[1, 1, 0], [0, 1, 0], [0, 1, 1]], holes=[[0, 0, 0, 1], [0, 0, 0, 0], [1, 0, 0, 0]],
                  unpressable=[[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    for minimal in (False, True):
        many = lightsout.solve_many(boards, minimal=minimal, **kwargs)
        for board, presses, ok in zip(boards, many.presses, many.solvable):
            assert ok == lightsout.is_solvable(board, **kwargs)
            if ok:
                assert np.array_equal(presses, lightsout.solve(board, minimal=minimal, **kwargs).presses)
    assert {True, False} == set(lightsout.solve_many(boards, **kwargs).solvable.tolist())


# -- directed graphs ---------------------------------------------------------------------------------------

def random_digraph(rng):
    n = int(rng.integers(1, 8))
    adjacency = (rng.random((n, n)) < rng.uniform(0.15, 0.5)).astype(int)
    np.fill_diagonal(adjacency, 0)
    return adjacency, bool(rng.random() < 0.7), int(rng.integers(2, 6))


@pytest.mark.parametrize("seed", range(60))
def test_directed_graphs_against_the_oracle(seed):
    rng = np.random.default_rng(9000 + seed)
    adjacency, self_toggle, states = random_digraph(rng)
    n = len(adjacency)
    effect = adjacency.T + (np.eye(n, dtype=int) if self_toggle else 0)  # effect[v, u]: a press at u changes v
    lights = rng.integers(0, states, size=n)
    kwargs = dict(self_toggle=self_toggle, states=states)
    solutions, quiet = brute_force_system(effect % states, lights, states)
    cells = list(range(n))
    try:
        found = lightsout.solve_graph(adjacency, lights, **kwargs)
    except lightsout.UnsolvableError as error:
        assert len(solutions) == 0
        assert proves_unsolvable(error.proof, lights, effect, states, cells, cells)
        return
    x = found.presses.astype(np.int64)
    assert not ((lights + effect @ x) % states).any() and found.verify()
    assert found.count == quiet == len(solutions) and found.nullity == masked_nullity(effect, states)
    assert tuple(x) == tuple(solutions[0])  # the canonical one: the smallest
    fewest = lightsout.solve_graph(adjacency, lights, minimal=True, **kwargs)
    assert int(fewest.presses.astype(np.int64).sum()) == int(solutions.sum(axis=1).min())
    for method in ("forcing", "elimination"):  # a one-way rule is forced as well as eliminated: the same answer
        assert lightsout.solve_graph(adjacency, lights, method=method, **kwargs).presses.tolist() == x.tolist()


def test_a_networkx_digraph_is_a_one_way_rule():
    nx = pytest.importorskip("networkx")
    graph = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("a", "c")])
    found = lightsout.solve_graph(graph, {"b": 1}, self_toggle=False)
    assert found.verify() and found.rules.directed
    order = list(graph.nodes)
    effect = nx.to_numpy_array(graph, nodelist=order, dtype=int).T
    lights = np.array([1 if v == "b" else 0 for v in order])
    assert not ((lights + effect @ found.presses.astype(int)) % 2).any()
    with pytest.raises(lightsout.InvalidBoardError, match="directed graphs are not accepted here"):
        lightsout.graph.graph_csr(graph)
    # a DiGraph with every edge both ways is an undirected graph: the forcing route takes it
    both = nx.DiGraph([(0, 1), (1, 0), (1, 2), (2, 1)])
    assert lightsout.solve_graph(both, method="forcing").presses.astype(int).tolist() == [0, 1, 0]


@pytest.mark.parametrize("name, kwargs", [("plus", dict(radius=20000)), ("plus", dict(radius=10**9)),
                                          ("moore", dict(ndim=40)), ("moore", dict(radius=3, ndim=12)),
                                          ("sigma", dict(ndim=10**6)), ("x", dict(radius=10**6))])
def test_a_named_stencil_past_the_cell_limit_is_refused_before_its_grid_is_built(name, kwargs):
    # found by fuzzing: the index grid was built first (gigabytes, a MemoryError or numpy's own ValueError)
    with pytest.raises(lightsout.InvalidBoardError, match="MAX_STENCIL_CELLS"):
        Stencil.named(name, **kwargs)


def test_todays_rule_by_name_and_small_stencils_work_on_many_axes():
    # found by fuzzing: the comparison with today's rule built a 3**ndim plus first, so an 11-axis board
    # refused even stencil="plus" and a one-cell stencil ("a stencil spanning (3, ..., 3) ...")
    shape = (2,) * 11
    assert lightsout.nullity(shape, stencil="plus") == lightsout.nullity(shape)
    assert lightsout.nullity(shape, stencil="sigma") == lightsout.nullity(shape, self_toggle=False)
    one_cell = np.ones((1,) * 11, np.uint8)  # a press changes its own cell alone: nothing is quiet
    assert lightsout.nullity(shape, stencil=one_cell) == 0
    found = lightsout.solve(np.ones(shape, int), stencil=one_cell)
    assert found.presses.all()


def test_a_board_dark_on_every_required_light_needs_no_search_whatever_its_nullity():
    # found by fuzzing: 144 free lights made nullity 144 and the search refused a board that needs no press
    free = np.ones((12, 12), bool)
    assert lightsout.fewest_presses(12, free_lights=free) == 0
    found = lightsout.solve(np.ones((12, 12), int), free_lights=free, minimal=True)
    assert found.nullity == 144 and found.proven_minimal and not found.presses.any()
    holes = np.zeros((12, 12), bool)
    holes[:, 6:] = True
    free[:, :6] = True
    assert lightsout.fewest_presses(12, free_lights=free & ~holes, holes=holes) == 0
