"""The first-row check (lightsout/_core/verify.py, the gf2ext kernel; docs/algebra.md section 15).

Correct rows are confirmed by the tests' oracle (tests/oracle.py) or by this file's own chase,
written here with numpy and nothing from the package; wrong rows are made by flipping bits
of correct ones or drawn at random, and every one must fail the identity, whatever the board's
nullity: the identity is sound for any row.
"""
from __future__ import annotations

import numpy as np
import pytest

import lightsout
from lightsout import _solve, cli
from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError, InvalidTypeError
from lightsout._base.packing import pack_row, pack_rows
from lightsout._core import verify
from lightsout._kernels import load

import oracle

POLY = (1 << 64) | 0b11011          # u^64 + u^4 + u^3 + u + 1


def slow_field_mul(a: int, b: int) -> int:
    """a * b in GF(2^64), bit by bit (no code of the package)."""
    product = 0
    for i in range(64):
        if b >> i & 1:
            product ^= a << i
    for i in range(127, 63, -1):
        if product >> i & 1:
            product ^= POLY << (i - 64)
    return product


def chase_residue(row: np.ndarray, nrows: int, ncols: int) -> np.ndarray:
    """The row below the all-lit board after chasing ``row`` down (all zero iff the row clears it)."""
    prev: np.ndarray = np.zeros(ncols, dtype=np.uint8)
    cur: np.ndarray = np.asarray(row, dtype=np.uint8) % 2
    for _ in range(nrows):
        spread = cur.copy()
        spread[1:] ^= cur[:-1]
        spread[:-1] ^= cur[1:]
        prev, cur = cur, spread ^ prev ^ np.uint8(1)
    return cur


def clears(row: np.ndarray, nrows: int, ncols: int) -> bool:
    return not chase_residue(row, nrows, ncols).any()


def identity_holds(level: str, row: np.ndarray, n: int, seed: int) -> bool:
    residues = load("gf2ext", level).square_residues(pack_row(np.asarray(row, dtype=bool)), n,
                                                    verify.draw_points(verify.points_needed(n), seed))
    assert residues is not None
    return not residues.any()


def quiet_first_rows(n: int) -> np.ndarray:
    """Packed first rows of a basis of the n x n board's quiet patterns, each confirmed quiet by the chase here."""
    rows = [np.asarray(q)[0].astype(bool) for q in lightsout.solve(np.zeros((n, n), dtype=np.uint8)).quiet_patterns()]
    for row in rows:
        assert not _quiet_residue(row, n).any()
    return pack_rows(np.array(rows, dtype=bool).reshape(len(rows), n))


def _quiet_residue(row: np.ndarray, n: int) -> np.ndarray:
    prev = np.zeros(n, dtype=np.uint8)
    cur = row.astype(np.uint8)
    for _ in range(n):
        spread = cur.copy()
        spread[1:] ^= cur[:-1]
        spread[:-1] ^= cur[1:]
        prev, cur = cur, spread ^ prev
    return cur


def test_the_field_product_is_the_slow_one_at_every_level(simd_level):
    rng = np.random.default_rng(1)
    kernel = load("gf2ext", simd_level)
    awkward = [0, 1, 2, 2**63, 2**64 - 1, 0x1B, 2**63 + 1]
    pairs = [(a, b) for a in awkward for b in awkward]
    pairs += [(int(a), int(b)) for a, b in rng.integers(0, 2**64, (300, 2), dtype=np.uint64)]
    for a, b in pairs:
        assert kernel.field_mul(a, b) == slow_field_mul(a, b), (a, b)
    for a, _ in pairs:
        if a:
            assert slow_field_mul(a, kernel.field_inv(a)) == 1


def test_the_oracle_confirms_the_rows_that_pass():
    for n in range(1, 25):
        row = lightsout.first_row(n)
        presses, after = oracle.chase(np.ones((n, n), dtype=np.uint8), row)
        assert oracle.clears(np.ones((n, n), dtype=np.uint8), presses)
        assert lightsout.verify_first_row(row, n)
        assert clears(row, n, n)          # this file's chase agrees with the oracle


@pytest.mark.parametrize("n", range(1, 65))
def test_every_single_flip_fails_the_identity(n, simd_level):
    row = lightsout.first_row(n).astype(bool)
    assert clears(row, n, n)
    # the board has one solution: its rows pass the identity for sure; else the widened one
    quiet = quiet_first_rows(n) if lightsout.nullity(n) else None
    if quiet is None:
        assert identity_holds(simd_level, row, n, seed=n)
    else:
        assert verify.square_identity_holds(pack_row(row), n, quiet_rows=quiet, seed=n)
    for j in range(n):
        flipped = row.copy()
        flipped[j] ^= True
        if clears(flipped, n, n):           # a flip by a quiet first row: another correct row
            assert lightsout.verify_first_row(flipped, n, seed=j)
            continue
        assert not identity_holds(simd_level, flipped, n, seed=1000 * n + j), (n, j)
        if quiet is not None:
            assert not verify.square_identity_holds(pack_row(flipped), n, quiet_rows=quiet, seed=j), (n, j)
        assert not lightsout.verify_first_row(flipped, n)


@pytest.mark.parametrize("n", [10_000, 10_001, 65_535, 65_537, 99_999, 100_000])
def test_sampled_flips_fail_on_large_boards(n):
    row = lightsout.first_row(n).astype(bool)
    if lightsout.nullity(n) == 0:
        assert verify.square_identity_holds(pack_row(row), n)
    assert lightsout.verify_first_row(row, n)     # the identity, or the replay of a nullity > 0 board
    rng = np.random.default_rng(n)
    for j in rng.choice(n, 12, replace=False).tolist() + [0, n - 1]:
        flipped = row.copy()
        flipped[j] ^= True
        assert not verify.square_identity_holds(pack_row(flipped), n), (n, j)
    pair = row.copy()
    pair[[1, n - 2]] ^= True                        # a flip that keeps the mirror symmetry
    assert not verify.square_identity_holds(pack_row(pair), n)


def test_random_rows_fail():
    rng = np.random.default_rng(7)
    for n in [2, 3, 7, 64, 65, 127, 1000, 4097, 50_000]:
        for _ in range(5):
            row = rng.integers(0, 2, n).astype(bool)
            if n <= 1000 and clears(row, n, n):
                continue
            assert not verify.square_identity_holds(pack_row(row), n), n
            if n <= 4097:
                assert not lightsout.verify_first_row(row, n), n


def test_every_correct_row_of_a_board_with_several_solutions_passes_the_widened_identity():
    rng = np.random.default_rng(11)
    for n in [4, 5, 9, 16, 19, 30, 61, 123]:
        quiet = quiet_first_rows(n)
        assert len(quiet) == lightsout.nullity(n)
        base = lightsout.first_row(n).astype(bool)
        unpacked = np.array([[bool(int(w[j // 64]) >> (j % 64) & 1) for j in range(n)] for w in quiet])
        for _ in range(6):
            row = base ^ (rng.integers(0, 2, len(quiet)) @ unpacked.astype(int) % 2).astype(bool)
            assert clears(row, n, n)
            assert verify.square_identity_holds(pack_row(row), n, quiet_rows=quiet)
            assert lightsout.verify_first_row(row, n)
            wrong = row ^ rng.integers(0, 2, n).astype(bool)
            if not clears(wrong, n, n):
                assert not verify.square_identity_holds(pack_row(wrong), n, quiet_rows=quiet)


def test_rectangles_are_replayed_and_large_ones_refused():
    for n, m in [(1, 5), (5, 1), (3, 7), (40, 17), (17, 40), (300, 200)]:
        row = lightsout.first_row(n, m).astype(bool)
        assert clears(row, n, m)
        assert lightsout.verify_first_row(row, n, m)
        flipped = row.copy()
        flipped[m // 2] ^= True
        assert lightsout.verify_first_row(flipped, n, m) == clears(flipped, n, m)
    with pytest.raises(BoardTooLargeError, match="MAX_VERIFY_REPLAY_CELLS"):
        lightsout.verify_first_row(np.zeros(2**15, dtype=bool), 2**20, 2**15)


def test_a_large_square_with_several_solutions():
    n = 10**6 + 1
    assert lightsout.nullity(n) == 2
    row = lightsout.first_row(n, verify=True).astype(bool)
    assert lightsout.verify_first_row(row, n)
    for j in [0, 1, n // 3, n - 1]:
        flipped = row.copy()
        flipped[j] ^= True
        assert not lightsout.verify_first_row(flipped, n)


def test_a_square_of_large_nullity_is_replayed_or_refused():
    n = 159                                             # nullity 128
    assert lightsout.nullity(n) > verify.MAX_VERIFY_NULLITY
    row = lightsout.first_row(n).astype(bool)
    assert lightsout.verify_first_row(row, n)           # replayed
    row[7] ^= True
    assert not lightsout.verify_first_row(row, n)
    n = 131_073                                         # nullity 65,088, and more than 2**34 cells
    assert lightsout.nullity(n) > verify.MAX_VERIFY_NULLITY
    with pytest.raises(BoardTooLargeError, match="MAX_VERIFY_REPLAY_CELLS"):
        lightsout.verify_first_row(np.ones(n, dtype=bool), n)


def test_bad_rows_and_sizes_are_refused():
    with pytest.raises(InvalidBoardError, match="length 5"):
        lightsout.verify_first_row([1, 0, 1], 5)
    with pytest.raises(InvalidBoardError):
        lightsout.verify_first_row([1, 2, 1], 3)
    with pytest.raises(InvalidBoardError):
        lightsout.verify_first_row([1, 0, 1], 0)
    with pytest.raises(InvalidTypeError):
        lightsout.verify_first_row([1, 0, 1], 3, seed="x")        # type: ignore[arg-type]
    kernel = load("gf2ext")
    row = pack_row(np.ones(70, dtype=bool))
    points = np.array([5, 7], dtype=np.uint64)
    with pytest.raises(InvalidBoardError, match="words"):
        kernel.square_residues(row, 200, points)
    with pytest.raises(InvalidBoardError, match="past"):
        kernel.square_residues(row, 65, points)
    with pytest.raises(InvalidBoardError, match="0 or 1"):
        kernel.square_residues(row, 70, np.array([1, 7], dtype=np.uint64))
    with pytest.raises(InvalidTypeError):
        kernel.square_residues(row.astype(np.int64), 70, points)    # type: ignore[arg-type]


def test_points_are_fresh_unless_seeded():
    assert (verify.draw_points(4, seed=9) == verify.draw_points(4, seed=9)).all()
    assert not (verify.draw_points(4) == verify.draw_points(4)).all()
    assert ((verify.draw_points(100, seed=1) > 1)).all()
    assert verify.points_needed(1) == 2 and verify.points_needed(10**10) == 4
    for n in [1, 10**6, 10**9, 10**10, 10**12]:       # (3n / 2^64)^k <= 2^-60
        k = verify.points_needed(n)
        assert k * (64 - np.log2(3 * n + 2)) >= 60


def test_a_set_flag_stops_the_kernel(simd_level):
    n = 1 << 21
    row = np.zeros(n // 64, dtype=np.uint64)
    flag = np.ones(1, dtype=np.uint8)
    assert load("gf2ext", simd_level).square_residues(row, n, np.array([3, 5], np.uint64), flag) is None
    flag[0] = 0
    assert load("gf2ext", simd_level).square_residues(row, n, np.array([3, 5], np.uint64), flag) is not None


def test_first_row_verify_returns_the_same_row():
    for n, m in [(1, None), (50, None), (16, None), (20, 30)]:
        assert (lightsout.first_row(n, m, verify=True) == lightsout.first_row(n, m)).all()


@pytest.mark.parametrize("options", [dict(torus=True), dict(self_toggle=False), dict(states=3),
                                     dict(stencil="plus")])
def test_first_row_verify_refuses_other_rules(options):
    with pytest.raises(InvalidBoardError, match="verify=True"):
        lightsout.first_row(6, verify=True, **options)


def test_first_row_verify_raises_when_the_check_fails(monkeypatch):
    monkeypatch.setattr(_solve, "first_row_clears", lambda *args, **kwargs: False)
    with pytest.raises(InternalError, match="does not clear"):
        lightsout.first_row(7, verify=True)


def test_cli_first_row_verify(capsys, monkeypatch):
    assert cli.main(["first-row", "6", "--verify"]) == 0
    out, err = capsys.readouterr()
    assert clears(np.array([int(c) for c in out.strip()]), 6, 6)
    assert "verified" in err
    monkeypatch.setattr(_solve, "first_row_clears", lambda *args, **kwargs: False)
    assert cli.main(["first-row", "6", "--verify"]) == cli.EXIT_NOT_VERIFIED
    out, err = capsys.readouterr()
    assert out == "" and "not verified" in err
