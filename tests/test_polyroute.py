"""The polynomial route against the independent oracle (tests/oracle.py) and published facts."""
from __future__ import annotations

import numpy as np
import oracle
import pytest

from lightsout._base.packing import pack_rows
from lightsout._routes.poly import nullity_poly, nullity_table, solve_grid_poly

# Nullity of the n x n board, n = 1..20 (docs/algebra.md section 6; Sutner 1989).
PUBLISHED_NULLITY_1_20 = [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0]


def numpy_chase(board: np.ndarray, first_row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Presses and lights left after chasing ``board`` from ``first_row`` (plain numpy)."""
    b = np.asarray(board, dtype=np.uint8) % 2
    rows, cols = b.shape
    presses = np.zeros((rows + 1, cols), dtype=np.uint8)
    presses[0] = np.asarray(first_row, dtype=np.uint8)
    prev = np.zeros(cols, dtype=np.uint8)
    for k in range(rows):
        cur = presses[k]
        own = cur.copy()
        own[1:] ^= cur[:-1]
        own[:-1] ^= cur[1:]
        presses[k + 1] = own ^ prev ^ b[k]  # the row below must turn row k dark
        prev = cur
    return presses[:rows], presses[rows]


def dense_solvable(board: np.ndarray) -> tuple[bool, int]:
    """(solvable, nullity) from the explicit C x C system U_{R+1}(T) f = c, built by chasing.

    Column j of the system is the residue of chasing e_j over a dark board; c is the
    residue of chasing 0 over ``board``.  Independent of the polynomial route.
    """
    rows, cols = board.shape
    zero = np.zeros_like(board)
    columns = [numpy_chase(zero, np.eye(cols, dtype=np.uint8)[j])[1] for j in range(cols)]
    system = np.array(columns, dtype=np.uint8).T
    c = numpy_chase(board, np.zeros(cols, dtype=np.uint8))[1]
    rank = oracle.gf2_rank(system)
    return rank == oracle.gf2_rank(np.column_stack([system, c])), cols - rank


def test_published_square_nullities():
    assert nullity_table(20).tolist() == PUBLISHED_NULLITY_1_20
    assert [nullity_poly(n, n) for n in range(1, 21)] == PUBLISHED_NULLITY_1_20


@pytest.mark.parametrize("rows", range(1, 9))
def test_nullity_matches_full_rank(rows):
    for cols in range(1, 9):
        expected = oracle.nullity(rows, cols)
        assert nullity_poly(rows, cols) == expected, (rows, cols)
        assert solve_grid_poly(rows, cols).nullity == expected, (rows, cols)


def test_3x3_all_lit():
    sol = solve_grid_poly(3, 3)
    assert sol.solvable and sol.nullity == 0
    assert sol.first_row.astype(int).tolist() == [1, 0, 1]
    presses, left = oracle.chase(np.ones((3, 3), dtype=np.uint8), sol.first_row)
    assert not left.any()
    assert presses.tolist() == [[1, 0, 1], [0, 1, 0], [1, 0, 1]]


def test_5x5_facts():
    sol = solve_grid_poly(5, 5)
    assert sol.solvable and sol.nullity == 2
    assert oracle.min_presses_brute(np.ones((5, 5), dtype=np.uint8)) == 15


# Brute force tries 2**cols first rows: wide boards only when short.
SHAPES = [(r, c) for r in range(1, 13) for c in range(1, 13) if c <= 8 or r <= 3]


@pytest.mark.parametrize("shape", [shape if shape[0] <= 6 and shape[1] <= 6 else pytest.param(shape, marks=pytest.mark.thorough)
                                   for shape in SHAPES], ids=lambda s: f"{s[0]}x{s[1]}")
def test_random_boards_against_brute_force(shape):
    rows, cols = shape
    rng = np.random.default_rng(rows * 100 + cols)
    for trial in range(3):
        if trial == 2:
            # A solvable board for sure: the lights some random presses leave.
            board = oracle.replay(np.zeros(shape, dtype=np.uint8), rng.integers(0, 2, shape))
        else:
            board = rng.integers(0, 2, shape).astype(np.uint8)
        sol = solve_grid_poly(rows, cols, pack_rows(board), kernel=True)
        first_rows = oracle.brute_force_first_rows(board)
        assert sol.solvable == bool(first_rows), (shape, board)
        if rows * cols <= 64:
            assert sol.nullity == oracle.nullity(rows, cols)
        if sol.solvable:
            assert len(first_rows) == 2**sol.nullity
            assert tuple(int(x) for x in sol.first_row) in first_rows
            presses, _ = oracle.chase(board, sol.first_row)
            assert oracle.clears(board, presses)
        else:
            assert sol.first_row is None
        # Quiet patterns: chased from zeros, their first rows leave nothing on.
        quiet = sol.quiet_first_rows()
        assert quiet.shape == (sol.nullity, cols)
        zero = np.zeros(shape, dtype=np.uint8)
        for row in quiet:
            _, left = oracle.chase(zero, row)
            assert not left.any()
        if sol.nullity:  # and they are independent
            assert oracle.gf2_rank(quiet) == sol.nullity


def test_canonical_first_row_is_the_degree_bounded_solution():
    # For 4x4 all lit (nullity 4) the route picks F0 with deg F0 < C - nullity = 0,
    # i.e. F0 is 0 or 1: the first row is either all dark or e_1.
    sol = solve_grid_poly(4, 4)
    assert sol.nullity == 4
    assert sol.first_row.astype(int).tolist() in ([0, 0, 0, 0], [1, 0, 0, 0])
    presses, left = oracle.chase(np.ones((4, 4), dtype=np.uint8), sol.first_row)
    assert not left.any()


@pytest.mark.parametrize("n", range(1, 61))
def test_all_lit_square_first_row_clears(n):
    sol = solve_grid_poly(n, n)
    assert sol.solvable  # Sutner: every all-lit square board is solvable
    assert sol.nullity == nullity_poly(n, n)
    _, left = numpy_chase(np.ones((n, n), dtype=np.uint8), sol.first_row)
    assert not left.any(), n


@pytest.mark.parametrize("shape", [(1, 200), (7, 300), (64, 65), (65, 64), (130, 129), (200, 3), (3, 200)])
def test_all_lit_rectangles_clear(shape):
    rows, cols = shape
    sol = solve_grid_poly(rows, cols)
    board = np.ones(shape, dtype=np.uint8)
    short = board if cols <= rows else board.T
    assert (sol.solvable, sol.nullity) == dense_solvable(short)
    if sol.solvable:
        _, left = numpy_chase(board, sol.first_row)
        assert not left.any()
    # Cross-check nullity through a second orientation.
    assert sol.nullity == nullity_poly(cols, rows)


@pytest.mark.parametrize("shape", [(100, 37), (37, 100), (65, 65), (130, 70), (67, 129)])
def test_random_larger_boards_clear(shape):
    rows, cols = shape
    rng = np.random.default_rng(rows + 7 * cols)
    board = oracle.replay(np.zeros(shape, dtype=np.uint8), rng.integers(0, 2, shape))  # solvable
    sol = solve_grid_poly(rows, cols, pack_rows(board), kernel=True)
    assert sol.solvable
    _, left = numpy_chase(board, sol.first_row)
    assert not left.any()
    zero = np.zeros(shape, dtype=np.uint8)
    for row in sol.quiet_first_rows():
        _, left = numpy_chase(zero, row)
        assert not left.any()
    # One light flipped: solvable or not, as the explicit system says.
    board2 = board.copy()
    board2[0, 0] ^= 1
    sol2 = solve_grid_poly(rows, cols, pack_rows(board2))
    assert (sol2.solvable, sol2.nullity) == dense_solvable(board2 if cols <= rows else board2.T)
    if sol2.solvable:
        _, left = numpy_chase(board2, sol2.first_row)
        assert not left.any()


def test_progress_counts_the_long_products_and_divisions():
    """The all-lit route reports "reduce" and "divide" once per long call, ending at their totals."""
    seen = []
    solve_grid_poly(500, 500, progress=lambda *a: seen.append(a))
    for stage in ("reduce", "divide"):
        reports = [(done, total) for s, done, total in seen if s == stage]
        assert [done for done, _ in reports] == list(range(len(reports)))
        assert reports[-1][0] == reports[-1][1] and len({total for _, total in reports}) == 1


def test_progress_reports_and_argument_checks():
    seen = []
    solve_grid_poly(300, 200, pack_rows(np.ones((300, 200))), progress=lambda *a: seen.append(a))
    stages = {s for s, _, _ in seen}
    assert {"chase", "convert", "gcd", "horner"} <= stages
    assert all(0 <= done <= total for _, done, total in seen)
    with pytest.raises(ValueError):
        solve_grid_poly(0, 3)
    with pytest.raises(TypeError):
        solve_grid_poly(3.0, 3)
    with pytest.raises(ValueError):
        solve_grid_poly(3, 3, np.zeros((3, 2), dtype=np.uint64))
    with pytest.raises(TypeError):
        solve_grid_poly(3, 3, np.zeros((3, 1), dtype=np.int64))
    with pytest.raises(ValueError):
        solve_grid_poly(3, 3, np.full((3, 1), 0b1000, dtype=np.uint64))


def test_packed_first_row_roundtrip_for_transposed_boards():
    # 2 x 9 board: worked on as 9 x 2; the answer comes back 9 wide.
    board = np.zeros((2, 9), dtype=np.uint8)
    board[0, 4] = 1
    sol = solve_grid_poly(2, 9, pack_rows(board))
    assert sol.transposed
    if sol.solvable:
        assert sol.first_row.shape == (9,)
        presses, _ = oracle.chase(board, sol.first_row)
        assert oracle.clears(board, presses)
    assert sol.solvable == bool(oracle.brute_force_first_rows(board))


def _numpy_rank_gf2(matrix: np.ndarray) -> int:
    m = matrix.astype(np.uint8) % 2
    rank = 0
    for col in range(m.shape[1]):
        pivots = np.nonzero(m[rank:, col])[0]
        if len(pivots) == 0:
            continue
        p = rank + pivots[0]
        m[[rank, p]] = m[[p, rank]]
        below = m[:, col].astype(bool)
        below[rank] = False
        m[below] ^= m[rank]
        rank += 1
        if rank == m.shape[0]:
            break
    return rank


@pytest.mark.parametrize("n", [39, 79, 127, 159, 170, 200])
def test_square_nullity_against_explicit_system(n):
    """n - rank of U_{n+1}(T), built column by column by chasing every e_j at once."""
    prev = np.zeros((n, n), dtype=np.uint8)
    cur = np.eye(n, dtype=np.uint8)  # row j: the chase started from e_j
    for _ in range(n):
        own = cur.copy()
        own[:, 1:] ^= cur[:, :-1]
        own[:, :-1] ^= cur[:, 1:]
        prev, cur = cur, own ^ prev
    assert nullity_table(n)[n - 1] == n - _numpy_rank_gf2(cur)


@pytest.mark.parametrize("nbits", [1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 255, 257, 1000])
def test_mirrored_bits_reads_the_row_right_to_left(nbits):
    from lightsout._routes.poly import mirrored_bits

    rng = np.random.default_rng(nbits)
    bits = rng.integers(0, 2, nbits).astype(bool)
    words = pack_rows(bits.reshape(1, -1))[0]
    row = mirrored_bits(words, nbits)
    assert row.dtype == np.bool_ and row.shape == (nbits,)
    assert (row == bits[::-1]).all()
    # longer word arrays (a polynomial's spare words) read the same
    assert (mirrored_bits(np.concatenate([words, np.zeros(2, np.uint64)]), nbits) == bits[::-1]).all()


# --- The first row packed (issue 31: first_row(10**9) without the bool row beside the route) ---

AWKWARD_BITS = [1, 2, 7, 8, 9, 63, 64, 65, 127, 128, 129, 255, 257, 1000]


@pytest.mark.parametrize("nbits", AWKWARD_BITS)
def test_mirrored_words_reverses_the_row(nbits):
    from lightsout._base.packing import pack_row, unpack_row
    from lightsout._routes.poly import mirrored_words

    bits = np.random.default_rng(nbits).integers(0, 2, nbits).astype(bool)
    mirrored = mirrored_words(pack_row(bits), nbits)
    assert mirrored.dtype == np.uint64 and mirrored.shape == ((nbits + 63) // 64,)
    assert np.array_equal(unpack_row(mirrored, nbits), bits[::-1])
    if nbits % 64:   # bits past the row stay zero
        assert int(mirrored[-1]) >> (nbits % 64) == 0


@pytest.mark.parametrize("piece_words", [1, 2, 3])
def test_mirrored_words_in_pieces_carries_across_them(piece_words, monkeypatch):
    # the row is reversed ROW_PIECE_WORDS words at a time (Ctrl-C is seen between pieces); tiny
    # pieces make every shifted word's carry from the word below cross a piece's edge
    import lightsout._routes.poly as route
    from lightsout._base.packing import pack_row, unpack_row

    monkeypatch.setattr(route, "ROW_PIECE_WORDS", piece_words)
    for nbits in AWKWARD_BITS:
        bits = np.random.default_rng(nbits + 7).integers(0, 2, nbits).astype(bool)
        assert np.array_equal(unpack_row(route.mirrored_words(pack_row(bits), nbits), nbits), bits[::-1])


@pytest.mark.parametrize("n", AWKWARD_BITS[:-1] + [200])
def test_packed_first_row_clears_the_board_and_equals_the_bool_row(n):
    from lightsout._base.packing import unpack_row
    from lightsout._routes.poly import all_lit_first_row_words

    for m in sorted({n, max(1, n - 1), max(1, n // 2)}):
        words, found = all_lit_first_row_words(n, m)
        assert found.first_row is None and words.shape == ((m + 63) // 64,)
        row = unpack_row(words, m)
        assert np.array_equal(row, solve_grid_poly(n, m).first_row)      # the bool path, as before
        _, lights = oracle.chase_fast(np.ones((n, m), bool), row)
        assert not lights.any(), (n, m)


def test_packed_first_row_is_the_canonical_one_of_the_dense_route():
    import lightsout

    for n in (4, 5, 9, 16, 19, 33, 64, 65):   # several with nullity > 0: the canonical choice shows
        assert np.array_equal(lightsout.packed.unpack(lightsout.first_row_packed(n), n),
                              lightsout.first_row(n, method="dense"))


def test_first_row_packed_on_every_board_it_takes():
    import lightsout

    for n, m, options in [(7, 9, {}), (9, 7, {}), (6, None, {"torus": True}), (5, 4, {"torus": (True, False)}),
                          (6, None, {"self_toggle": False}), (300, 200, {}), (300, None, {"verify": True}),
                          (200, 300, {"method": "dense"})]:
        row = lightsout.first_row(n, m, **{k: v for k, v in options.items() if k != "verify"})
        words = lightsout.first_row_packed(n, m, **options)
        assert words.dtype == np.uint64 and words.shape == ((row.shape[0] + 63) // 64,)
        assert np.array_equal(lightsout.packed.unpack(words, row.shape[0]), row), (n, m, options)


def test_first_row_packed_refuses_before_allocating():
    import lightsout

    with pytest.raises(lightsout.BoardTooLargeError):
        lightsout.first_row_packed(10**11)
    with pytest.raises(lightsout.InvalidBoardError):
        lightsout.first_row_packed(0)
    with pytest.raises(lightsout.InvalidTypeError):
        lightsout.first_row_packed("5")  # type: ignore[arg-type]
    with pytest.raises(lightsout.InvalidBoardError):
        lightsout.first_row_packed(5, torus=True, verify=True)


@pytest.mark.parametrize("nwords", [1, 2, 3, 5, 17, 64, 65, 1000, 4097])
def test_mod_in_windows_is_one_division(monkeypatch, nwords):
    from lightsout import _kernels as kernels
    from lightsout._routes import poly as route

    monkeypatch.setattr(route, "MOD_WINDOWS_FROM_WORDS", 1)   # every dividend in windows
    rng = np.random.default_rng(nwords)
    for mwords in sorted({1, 2, 3, max(1, nwords // 2), nwords // 2 + 1, nwords}):
        dividend = rng.integers(0, 2**64, size=nwords, dtype=np.uint64)
        modulus = rng.integers(0, 2**64, size=mwords, dtype=np.uint64)
        modulus[-1] |= np.uint64(1 << int(rng.integers(0, 64)))
        expect = kernels.gf2poly.poly_mod(dividend, modulus)     # a copy: one division
        got = route._mod_in_windows(dividend, modulus)
        assert np.array_equal(got, expect), (nwords, mwords)
        assert not dividend[mwords:].any()                       # reduced in its own words


@pytest.mark.parametrize("n, m", [(4100, 4100), (5000, 4097), (4099, None), (6000, 3001)])
def test_first_rows_with_windowed_divisions_are_the_same(monkeypatch, n, m):
    from lightsout._base.packing import unpack_row
    from lightsout._routes import poly as route

    m = n if m is None else m
    before, _ = route.all_lit_first_row_words(n, m)
    monkeypatch.setattr(route, "MOD_WINDOWS_FROM_WORDS", 1)   # both reductions of the route in windows
    words, _ = route.all_lit_first_row_words(n, m)
    assert np.array_equal(words, before)
    _, lights = oracle.chase_fast(np.ones((n, m), bool), unpack_row(words, m))
    assert not lights[0, -1].any() and not lights.any()
