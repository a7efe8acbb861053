"""distance_distribution under press stencils and masks (issue 30), against brute force.

Every press vector of the pressable cells is tried on the press matrix tests/oracle.py builds
from the stencil's definition; each reachable pattern of the required lights keeps its fewest
presses.  The table must match, and sum to k^rank (rank from oracle's own elimination).
"""
from __future__ import annotations

import numpy as np
import pytest

from lightsout import BoardTooLargeError, InvalidBoardError, Stencil, distance_distribution

import oracle


def brute_distances(shape, torus, weights, centre, states, holes=None, unpressable=None, free_lights=None):
    matrix = oracle.stencil_matrix(shape, torus, weights, centre, states)
    system, _, pressable = oracle.masked_system(matrix, holes, unpressable, free_lights)
    vectors = oracle.all_press_vectors(len(pressable), states)
    effects = (vectors @ system.T) % states
    fewest: dict[bytes, int] = {}
    for effect, cost in zip(effects, vectors.sum(axis=1)):
        key = effect.astype(np.uint8).tobytes()
        fewest[key] = min(fewest.get(key, int(cost)), int(cost))
    table = np.bincount(np.array(list(fewest.values()), dtype=np.int64))
    rank = oracle.rank_mod_prime(system, states) if system.size else 0
    return table, rank


@pytest.mark.parametrize("seed", range(20))
def test_distance_tables_of_random_rules_and_masks_match_brute_force(seed):
    rng = np.random.default_rng(300 + seed)
    states = int(rng.choice([2, 2, 3]))
    shape = (int(rng.integers(1, 4)), int(rng.integers(2, 4)))
    if states == 3:
        shape = (min(shape[0], 2), shape[1])
    weights = rng.integers(0, states, size=(int(rng.integers(1, 4)), int(rng.integers(1, 4)))).astype(np.uint8)
    weights.flat[rng.integers(weights.size)] = 1
    centre = (int(rng.integers(weights.shape[0])), int(rng.integers(weights.shape[1])))
    torus = (bool(rng.integers(2)), bool(rng.integers(2)))
    masks = {name: (rng.random(shape) < 0.2) if rng.integers(2) else None
             for name in ("holes", "unpressable", "free_lights")}
    expected, rank = brute_distances(shape, torus, weights, centre, states, **masks)
    got = distance_distribution(shape, stencil=Stencil(weights, centre), torus=torus, states=states, **masks)
    assert got.dtype == np.int64
    assert np.array_equal(np.trim_zeros(got, "b"), np.trim_zeros(expected, "b"))
    assert int(got.sum()) == states ** rank


def test_todays_rule_given_as_a_stencil_keeps_todays_table():
    for kwargs in ({}, {"torus": True}, {"states": 3}):
        shape = (3, 3) if kwargs.get("states", 2) == 2 else (2, 3)
        assert np.array_equal(distance_distribution(shape, stencil="plus", **kwargs), distance_distribution(shape, **kwargs))
        assert np.array_equal(distance_distribution(shape, stencil="sigma", **kwargs),
                              distance_distribution(shape, self_toggle=False, **kwargs))


def test_a_one_way_rule_and_a_board_of_holes():
    one_way = np.array([[0, 1, 0], [0, 1, 1], [0, 0, 0]], np.uint8)  # up and right, not down or left
    expected, _ = brute_distances((3, 3), False, one_way, (1, 1), 2)
    assert np.array_equal(distance_distribution(3, 3, stencil=Stencil(one_way, (1, 1))), expected)
    everything = np.ones((2, 2), bool)
    assert distance_distribution(2, 2, holes=everything).tolist() == [1]  # no light, no button: one empty state


def test_refusals_count_the_pressable_cells_and_need_a_prime():
    with pytest.raises(BoardTooLargeError, match="2\\^42 press vectors"):
        distance_distribution(6, 7, stencil="x")
    unpressable = np.zeros((6, 7), bool)
    unpressable[:2] = True  # 28 buttons left: walked
    table = distance_distribution(6, 7, stencil="x", unpressable=unpressable, free_lights=unpressable)
    assert int(table.sum()) > 0
    with pytest.raises(InvalidBoardError, match="prime"):
        distance_distribution(2, 2, stencil="x", states=4)
