"""The play API with press rules and masks (issue 30), over real HTTP on a free port.

Every answer is checked with tests/oracle.py, which shares no code with the package: the
press matrix is built from the stencil's weights written out here (not asked of
``lightsout.Stencil``), presses are replayed on it, solvability and nullity come from
textbook elimination mod a prime (or from trying every press vector), the fewest presses
from brute force, and every proof of an unsolvable board is checked to be zero off the
required lights, zero on every allowed press and not zero on the board.
"""
from __future__ import annotations

import json
import urllib.error
import urllib.request

import numpy as np
import pytest

import oracle
from lightsout.play import api as play_api
from playserver import serving

#: The named rules, written out from the issue's definitions: rows of weights, the pressed cell in the middle.
NAMED = {
    "plus": [[0, 1, 0], [1, 1, 1], [0, 1, 0]],
    "sigma": [[0, 1, 0], [1, 0, 1], [0, 1, 0]],
    "x": [[1, 0, 1], [0, 1, 0], [1, 0, 1]],
    "3x3": [[1] * 3] * 3,
    "moore": [[1] * 3] * 3,
    "knight": [[0, 1, 0, 1, 0], [1, 0, 0, 0, 1], [0, 0, 1, 0, 0], [1, 0, 0, 0, 1], [0, 1, 0, 1, 0]],
    "hex": [[0, 1, 1], [1, 1, 1], [1, 1, 0]],
}
#: A one-way rule inside 3 x 3 with weights up to 2 (not symmetric about its middle).
ONE_WAY = [[0, 2, 0], [0, 1, 1], [1, 0, 0]]


@pytest.fixture(scope="module")
def server():
    with serving() as srv:
        yield srv


def post(srv, path, payload):
    """(status, decoded JSON body) of a POST."""
    request = urllib.request.Request(srv.url.rstrip("/") + path, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def ok(srv, path, payload):
    status, body = post(srv, path, payload)
    assert status == 200, body
    return body


def weights_of(stencil, self_toggle=True):
    weights = np.array(NAMED[stencil] if isinstance(stencil, str) else stencil, dtype=np.int64)
    if not self_toggle:  # the σ game: the pressed cell itself is left alone
        weights[weights.shape[0] // 2, weights.shape[1] // 2] = 0
    return weights


def system(shape, stencil, torus, states, masks, self_toggle=True):
    """(the full press matrix, the restricted system, required light numbers, pressable cell numbers)."""
    weights = weights_of(stencil, self_toggle)
    centre = tuple(s // 2 for s in weights.shape)
    full = oracle.stencil_matrix(shape, torus, weights, centre, states)
    restricted, required, pressable = oracle.masked_system(full, masks.get("holes"), masks.get("unpressable"),
                                                           masks.get("free_lights"))
    return full, restricted, required, pressable


def solvable_by_oracle(restricted, rhs, states):
    if len(oracle.prime_factors(states)) == 1 and oracle.prime_factors(states)[0] == states:
        return oracle.solve_mod_prime(restricted, (-np.asarray(rhs)) % states, states) is not None
    solutions, _ = oracle.brute_force_system(restricted, rhs, states)
    return len(solutions) > 0


def check_answer(board, answer, stencil, torus, states, masks, self_toggle=True):
    """The answer against the oracle: a solution clears the required lights, a proof proves."""
    board = np.asarray(board, dtype=np.int64)
    full, restricted, required, pressable = system(board.shape, stencil, torus, states, masks, self_toggle)
    rhs = board.ravel()[required]
    expected = solvable_by_oracle(restricted, rhs, states)
    assert answer["solvable"] is expected
    if expected:
        presses = np.array(answer["presses"], dtype=np.int64)
        assert presses.shape == board.shape and presses.min() >= 0 and presses.max() < states
        outside = np.ones(board.size, bool)
        outside[pressable] = False
        assert not presses.ravel()[outside].any(), "a hole or an unpressable cell was pressed"
        left = (board.ravel() + full @ presses.ravel()) % states
        assert not left[required].any(), "the presses leave a required light on"
        if answer["fewest"] is not None:
            assert answer["kind"] == "fewest" and answer["fewest"] == int(presses.sum())
        return presses
    proof = np.array(answer["proof"], dtype=np.int64)
    assert proof.shape == board.shape
    assert oracle.proves_unsolvable(proof, board, full, states, required, pressable)
    assert "cannot be turned dark" in answer["message"]
    assert answer["proof_kind"] in ("quiet pattern", "weights on the lights")
    if answer["quiet_pattern"] is not None:  # said to be a quiet pattern: it presses nothing but changes nothing
        pattern = np.array(answer["quiet_pattern"], dtype=np.int64)
        assert answer["proof_kind"] == "quiet pattern"
        assert not ((full @ pattern.ravel()) % states)[required].any()
    else:
        assert answer["proof_kind"] == "weights on the lights"
    return None


def random_masks(rng, shape, which=("holes", "unpressable", "free_lights"), rate=0.2):
    masks = {}
    for name in which:
        mask = rng.random(shape) < rate
        if mask.any():
            masks[name] = mask
    return masks


def as_lists(masks):
    return {name: mask.astype(int).tolist() for name, mask in masks.items()}


# ---- every named rule, over HTTP -------------------------------------------------------

@pytest.mark.parametrize("stencil", sorted(NAMED))
@pytest.mark.parametrize("states, torus", [(2, False), (3, True), (2, [True, False])])
def test_named_rules_random_then_solve(server, stencil, states, torus):
    shape = (5, 6)
    rules = {"torus": torus, "states": states, "stencil": stencil}
    for seed in range(3):
        board = ok(server, "/api/random", {"rows": shape[0], "columns": shape[1], "seed": seed, **rules})["board"]
        answer = ok(server, "/api/solve", {"board": board, **rules})
        assert answer["solvable"], "a random board is solvable by construction"
        check_answer(board, answer, stencil, torus, states, {})


@pytest.mark.parametrize("stencil", ["x", "knight", "hex", "3x3"])
def test_named_rules_fewest_against_brute_force(server, stencil):
    rng = np.random.default_rng(30)
    for _ in range(4):
        board = rng.integers(0, 2, size=(3, 4))
        answer = ok(server, "/api/solve", {"board": board.tolist(), "stencil": stencil})
        presses = check_answer(board, answer, stencil, False, 2, {})
        if presses is None:
            continue
        _, restricted, required, _ = system((3, 4), stencil, False, 2, {})
        solutions, quiet = oracle.brute_force_system(restricted, board.ravel()[required], 2)
        assert answer["count"] == str(len(solutions)) and len(solutions) == quiet
        assert answer["kind"] == "fewest" and answer["fewest"] == int(solutions.sum(axis=1).min())


def test_sigma_game_under_any_rule(server):
    """self_toggle false leaves the pressed cell alone, with a named rule as with today's."""
    rng = np.random.default_rng(5)
    for stencil in ("x", "3x3", "hex"):
        board = rng.integers(0, 2, size=(4, 5))
        answer = ok(server, "/api/solve", {"board": board.tolist(), "stencil": stencil, "self_toggle": False})
        check_answer(board, answer, stencil, False, 2, {}, self_toggle=False)


# ---- a custom one-way rule, masks and k states --------------------------------------------

@pytest.mark.parametrize("states", [2, 3, 4, 5])
def test_custom_one_way_rule_with_masks(server, states):
    rng = np.random.default_rng(states)
    stencil = (np.array(ONE_WAY) % states).tolist()
    seen = {True: 0, False: 0}
    shape = (3, 3) if states in (4,) else (3, 4)
    for trial in range(12):
        masks = random_masks(rng, shape)
        board = rng.integers(0, states, size=shape)
        if "holes" in masks:
            board[masks["holes"]] = 0
        torus = bool(trial % 3 == 0)
        request = {"board": board.tolist(), "stencil": stencil, "states": states, "torus": torus, **as_lists(masks)}
        answer = ok(server, "/api/solve", request)
        check_answer(board, answer, stencil, torus, states, masks)
        seen[answer["solvable"]] += 1
    assert seen[True] and seen[False], seen  # both kinds of answer were met and checked


def test_one_way_proof_is_weights_not_a_quiet_pattern(server):
    rule = [[0, 0, 0], [0, 0, 1], [0, 1, 0]]  # a press changes the cell to its right and the cell below
    answer = ok(server, "/api/solve", {"board": [[1] * 3] * 3, "stencil": rule})
    assert answer["solvable"] is False and answer["proof_kind"] == "weights on the lights"
    check_answer(np.ones((3, 3)), answer, rule, False, 2, {})


@pytest.mark.parametrize("mask", ["holes", "unpressable", "free_lights"])
def test_each_mask_alone(server, mask):
    rng = np.random.default_rng(len(mask))
    for stencil in ("plus", "x", "knight"):
        for _ in range(4):
            masks = random_masks(rng, (4, 5), which=(mask,), rate=0.3)
            board = rng.integers(0, 2, size=(4, 5))
            if "holes" in masks:
                board[masks["holes"]] = 0
            answer = ok(server, "/api/solve", {"board": board.tolist(), "stencil": stencil, **as_lists(masks)})
            check_answer(board, answer, stencil, False, 2, masks)


def test_random_boards_under_masks_are_solvable(server):
    rng = np.random.default_rng(7)
    for states in (2, 3):
        for stencil in ("x", ONE_WAY):
            stencil = stencil if isinstance(stencil, str) else (np.array(stencil) % states).tolist()
            masks = random_masks(rng, (4, 5))
            request = {"rows": 4, "columns": 5, "states": states, "stencil": stencil, "seed": 3, **as_lists(masks)}
            board = np.array(ok(server, "/api/random", request)["board"])
            if "holes" in masks:
                assert not board[masks["holes"]].any(), "a hole holds no light"
            _, restricted, required, _ = system((4, 5), stencil, False, states, masks)
            assert solvable_by_oracle(restricted, board.ravel()[required], states)
            answer = ok(server, "/api/solve", {"board": board.tolist(), "states": states, "stencil": stencil,
                                               **as_lists(masks)})
            check_answer(board, answer, stencil, False, states, masks)


@pytest.mark.parametrize("states", [2, 3])
def test_quiet_patterns_under_rules_and_masks(server, states):
    rng = np.random.default_rng(11)
    for stencil in ("x", "3x3", (np.array(ONE_WAY) % states).tolist()):
        masks = random_masks(rng, (4, 4), rate=0.15)
        answer = ok(server, "/api/quiet", {"rows": 4, "columns": 4, "states": states, "stencil": stencil,
                                           **as_lists(masks)})
        full, restricted, required, pressable = system((4, 4), stencil, False, states, masks)
        assert answer["nullity"] == oracle.masked_nullity(restricted, states)
        assert answer["count"] == str(states ** answer["nullity"])
        assert len(answer["patterns"]) == answer["nullity"] and not answer["truncated"]
        outside = np.ones(16, bool)
        outside[pressable] = False
        for pattern in answer["patterns"]:
            x = np.array(pattern, dtype=np.int64).ravel()
            assert x.any() and not x[outside].any()
            assert not ((full @ x) % states)[required].any(), "the pattern changes a required light"


def test_fewest_with_masks_against_brute_force(server):
    rng = np.random.default_rng(12)
    checked = 0
    for _ in range(10):
        masks = random_masks(rng, (3, 4))
        board = rng.integers(0, 2, size=(3, 4))
        if "holes" in masks:
            board[masks["holes"]] = 0
        answer = ok(server, "/api/solve", {"board": board.tolist(), "stencil": "x", **as_lists(masks)})
        if check_answer(board, answer, "x", False, 2, masks) is None:
            continue
        _, restricted, required, _ = system((3, 4), "x", False, 2, masks)
        solutions, _ = oracle.brute_force_system(restricted, board.ravel()[required], 2)
        assert answer["fewest"] == int(solutions.sum(axis=1).min())
        checked += 1
    assert checked


def test_today_rule_given_as_plus_keeps_todays_answers(server):
    rng = np.random.default_rng(1)
    for torus in (False, True):
        board = rng.integers(0, 2, size=(5, 5)).tolist()
        plain = ok(server, "/api/solve", {"board": board, "torus": torus})
        named = ok(server, "/api/solve", {"board": board, "torus": torus, "stencil": "plus"})
        drawn = ok(server, "/api/solve", {"board": board, "torus": torus, "stencil": NAMED["plus"]})
        assert plain == named == drawn


# ---- bad requests: 400 with a message saying what is wrong and what is accepted -------------------

BAD = [
    ("/api/solve", {"board": [[0]], "stencil": "queen"}, "stencil must be one of"),
    ("/api/solve", {"board": [[0]], "stencil": 3}, "stencil must be a name"),
    ("/api/solve", {"board": [[0]], "stencil": []}, "odd number of rows from 1 to 5"),
    ("/api/solve", {"board": [[0]], "stencil": [[1, 1]]}, "odd number of columns from 1 to 5"),
    ("/api/solve", {"board": [[0]], "stencil": [[1] * 7] * 7}, "odd number of rows from 1 to 5"),
    ("/api/solve", {"board": [[0]], "stencil": [[1, 1, 1], [1, 1], [1, 1, 1]]}, "equal lengths"),
    ("/api/solve", {"board": [[0]], "stencil": [[0, 0, 0]]}, "every stencil weight is 0"),
    ("/api/solve", {"board": [[0]], "stencil": [[0, 2, 0]]}, "weights must be integers from 0 to 1"),
    ("/api/solve", {"board": [[0]], "stencil": [[0, 1.5, 0]]}, "not an integer"),
    ("/api/solve", {"board": [[0]], "stencil": [[0, True, 0]]}, "got a boolean"),
    ("/api/solve", {"board": [[0]], "stencil": [1, 1, 1]}, "every row of the stencil must be an array"),
    ("/api/solve", {"board": [[0, 0]], "holes": [[1]]}, "holes must have the board's shape, 1 rows of 2"),
    ("/api/solve", {"board": [[0, 0]], "holes": [[0, 0], [0, 0]]}, "got 2 rows"),
    ("/api/solve", {"board": [[0, 0]], "unpressable": [[0, 2]]}, "only 0 and 1"),
    ("/api/solve", {"board": [[0, 0]], "free_lights": [[0, False]]}, "only 0 and 1"),
    ("/api/solve", {"board": [[0, 0]], "free_lights": "all"}, "free_lights must be rows of 0/1"),
    ("/api/solve", {"board": [[1, 0]], "holes": [[1, 0]]}, "is a hole (holes: 1) and must be 0"),
    ("/api/solve", {"board": [[0]], "mask": [[1]]}, "unknown field 'mask'"),
    ("/api/random", {"rows": 2, "columns": 3, "holes": [[0, 0]]}, "holes must have the board's shape"),
    ("/api/random", {"rows": 2, "columns": 2, "stencil": "hexagon"}, "stencil must be one of"),
    ("/api/quiet", {"rows": 2, "columns": 2, "stencil": [[0, 3, 0]], "states": 3}, "from 0 to 2 (states=3)"),
    ("/api/quiet", {"rows": 2, "columns": 2, "unpressable": [[1, 1], [1]]}, "a row of 1 cells"),
]


@pytest.mark.parametrize("path, payload, words", BAD)
def test_bad_rule_requests_are_refused(server, path, payload, words):
    status, body = post(server, path, payload)
    assert status == 400, body
    assert words in body["error"], body["error"]
    with pytest.raises(play_api.ApiError) as caught:
        play_api.ENDPOINTS[path](json.loads(json.dumps(payload)))
    assert caught.value.status == 400


def test_floats_in_a_stencil_are_refused_at_decoding(server):
    request = urllib.request.Request(server.url.rstrip("/") + "/api/solve", method="POST",
                                     data=b'{"board": [[0]], "stencil": [[0.5]]}',
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=30)
    assert caught.value.code == 400 and b"not an integer" in caught.value.read()


def test_every_hole_is_a_board_with_nothing_to_do(server):
    answer = ok(server, "/api/solve", {"board": [[0, 0]], "holes": [[1, 1]], "stencil": "x"})
    assert answer["solvable"] and answer["presses"] == [[0, 0]]
