"""Light chasing and the A/B iteration (lightsout._kernels.chase) at every SIMD level.

The references below work on numpy bool arrays, one bit per cell, straight from
docs/algebra.md section 1: the row recurrence r_{k+1} = T r_k + r_{k-1} + b_k,
and the reduced system [U_{R+1}(T) | c] built by its definition (column i of
U_{R+1}(T) is the residue of chasing first row e_i on the zero board, c the
residue of chasing first row 0 on the board).  They never call the package.
"""
from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import oracle
import pytest
from conftest import AWKWARD_BITS

from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._kernels import load

ROWS = (1, 2, 3, 63, 64, 65, 130)
SMALL_BITS = tuple(c for c in AWKWARD_BITS if c <= 257)
SENTINEL = np.uint64(0xDEADBEEFCAFEF00D)


# ---------------------------------------------------------------------------
# Bool-array references


def t_apply(r: np.ndarray) -> np.ndarray:
    """T r along the last axis: each cell plus its left and right neighbours."""
    out = r.copy()
    out[..., 1:] ^= r[..., :-1]
    out[..., :-1] ^= r[..., 1:]
    return out


def ref_chase(board: np.ndarray | None, nrows: int, ncols: int, first: np.ndarray):
    """(residue r_{R+1}, presses r_1..r_R) by the row recurrence; first may be (C,) or (C, m) columns."""
    first = np.asarray(first, dtype=bool)
    older, newer = np.zeros_like(first), first.copy()
    presses = []
    for k in range(nrows):
        presses.append(newer)
        lit = np.ones(ncols, dtype=bool) if board is None else board[k]
        if first.ndim == 2:  # chase many first rows at once: one column each
            lit = lit[:, None]
            nxt = older ^ lit
            nxt[1:] ^= newer[:-1]
            nxt[:-1] ^= newer[1:]
            nxt ^= newer
        else:
            nxt = t_apply(newer) ^ older ^ lit
        older, newer = newer, nxt
    return newer, np.array(presses)


def ref_system(board: np.ndarray | None, nrows: int, ncols: int) -> np.ndarray:
    """The (C, C+1) bool system [U_{R+1}(T) | c] by its definition."""
    zero_board = np.zeros((nrows, ncols), dtype=bool)
    u, _ = ref_chase(zero_board, nrows, ncols, np.eye(ncols, dtype=bool))  # column i: chase of e_i
    c, _ = ref_chase(board, nrows, ncols, np.zeros(ncols, dtype=bool))
    return np.concatenate([u, c[:, None]], axis=1)


def pack(bits: np.ndarray, nbits: int) -> np.ndarray:
    """Bool (..., nbits) -> uint64 (..., words_for_bits(nbits)), least-significant bit first."""
    nwords = (nbits + 63) // 64
    padded = np.zeros(bits.shape[:-1] + (nwords * 64,), dtype=bool)
    padded[..., :nbits] = bits
    return np.packbits(padded, axis=-1, bitorder="little").view("<u8").astype(np.uint64)


def unpack(words: np.ndarray, nbits: int) -> np.ndarray:
    return np.unpackbits(words.astype("<u8").view(np.uint8), axis=-1, bitorder="little")[..., :nbits].astype(bool)


def random_board(rng: np.random.Generator, nrows: int, ncols: int) -> np.ndarray:
    return rng.integers(0, 2, size=(nrows, ncols)).astype(bool)


def system_out(ncols: int, fill=0) -> np.ndarray:
    return np.full((ncols, (ncols + 64) // 64), fill, dtype=np.uint64)


# ---------------------------------------------------------------------------
# chase


@pytest.mark.parametrize("ncols", AWKWARD_BITS)
def test_chase_matches_recurrence(simd_level, rng, ncols):
    k = load("chase", simd_level)
    for nrows in ROWS:
        for board in (None, random_board(rng, nrows, ncols)):
            first = rng.integers(0, 2, size=ncols).astype(bool)
            want_res, want_presses = ref_chase(board, nrows, ncols, first)
            packed = None if board is None else pack(board, ncols)
            res, presses, _ = k.chase(packed, nrows, ncols, pack(first, ncols), presses=True)
            assert res.dtype == np.uint64 and res.shape == ((ncols + 63) // 64,)
            np.testing.assert_array_equal(unpack(res, ncols), want_res, err_msg=f"{nrows}x{ncols}")
            np.testing.assert_array_equal(unpack(presses, ncols), want_presses)
            res2, none, _ = k.chase(packed, nrows, ncols, pack(first, ncols))
            assert none is None
            np.testing.assert_array_equal(res2, res)


def test_chase_long_rows_cross_tiles_and_chunks(simd_level, rng):
    """Rows wider than a tile, and more steps than one chunk between returns to Python."""
    k = load("chase", simd_level)
    ncols, nrows = 64 * 1300 + 17, 7000  # a chunk is about 6450 steps at 1301 words
    first = rng.integers(0, 2, size=ncols).astype(bool)
    calls = []
    res, _, _ = k.chase(None, nrows, ncols, pack(first, ncols), progress=lambda *a: calls.append(a))
    want, _ = ref_chase(None, nrows, ncols, first)
    np.testing.assert_array_equal(unpack(res, ncols), want)
    assert len(calls) >= 2 and calls[-1] == ("chase", nrows, nrows)
    assert all(a[0] == "chase" and 0 < a[1] <= nrows for a in calls)
    board = random_board(rng, 700, ncols)
    res, presses, _ = k.chase(pack(board, ncols), 700, ncols, pack(first, ncols), presses=True)
    want, want_presses = ref_chase(board, 700, ncols, first)
    np.testing.assert_array_equal(unpack(res, ncols), want)
    np.testing.assert_array_equal(unpack(presses, ncols), want_presses)


def test_chase_agrees_with_oracle(simd_level, rng):
    k = load("chase", simd_level)
    for nrows, ncols in ((1, 1), (3, 3), (4, 7), (7, 4), (5, 65)):
        board = random_board(rng, nrows, ncols)
        first = rng.integers(0, 2, size=ncols).astype(bool)
        res, presses, _ = k.chase(pack(board, ncols), nrows, ncols, pack(first, ncols), presses=True)
        want_presses, left = oracle.chase(board.astype(np.uint8), first.astype(np.uint8))
        np.testing.assert_array_equal(unpack(presses, ncols), want_presses.astype(bool))
        # The last row's leftover lights are the residue r_{R+1}.
        np.testing.assert_array_equal(unpack(res, ncols), left[-1].astype(bool))
        assert not left[:-1].any()


ORACLE_ROWS = (1, 2, 5)
ORACLE_BITS = (1, 63, 64, 65, 127, 128, 129, 255, 257, 1000)


@pytest.mark.parametrize("ncols", ORACLE_BITS)
def test_chase_every_mode_against_oracle(simd_level, rng, ncols):
    """The one chase: given, all-lit and dark boards, with and without presses and first column."""
    k = load("chase", simd_level)
    for nrows in ORACLE_ROWS:
        given = random_board(rng, nrows, ncols)
        lit = np.ones((nrows, ncols), dtype=bool)
        dark = np.zeros((nrows, ncols), dtype=bool)
        first = rng.integers(0, 2, size=ncols).astype(bool)
        cases = ((given, pack(given, ncols), True), (lit, None, True), (dark, None, False),
                 (lit, None, None))  # None: the default, all_lit=True
        for lights, packed, all_lit in cases:
            want_presses, left = oracle.chase(lights.astype(np.uint8), first.astype(np.uint8))
            want_presses = want_presses.astype(bool)
            kwargs = {} if all_lit is None else {"all_lit": all_lit}
            for presses in (False, True):
                for first_column in (False, True):
                    res, press_rows, column = k.chase(packed, nrows, ncols, pack(first, ncols),
                                                      presses=presses, first_column=first_column, **kwargs)
                    np.testing.assert_array_equal(unpack(res, ncols), left[-1].astype(bool))
                    assert not left[:-1].any()
                    if presses:
                        assert press_rows.dtype == np.uint64 and press_rows.shape == (nrows, (ncols + 63) // 64)
                        np.testing.assert_array_equal(unpack(press_rows, ncols), want_presses)
                    else:
                        assert press_rows is None
                    if first_column:
                        assert column.dtype == bool and column.shape == (nrows,)
                        np.testing.assert_array_equal(column, want_presses[:, 0])
                    else:
                        assert column is None


def test_chase_all_lit_flag_ignored_with_a_board(simd_level, rng):
    k = load("chase", simd_level)
    board = random_board(rng, 9, 70)
    first = pack(rng.integers(0, 2, size=70).astype(bool), 70)
    a = k.chase(pack(board, 70), 9, 70, first, all_lit=True, presses=True)
    b = k.chase(pack(board, 70), 9, 70, first, all_lit=False, presses=True)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


def test_chase_first_column_across_chunks(simd_level, rng):
    """first_column with more steps than one chunk and rows wider than a tile (dark board)."""
    k = load("chase", simd_level)
    ncols, nrows = 64 * 1300 + 17, 7000
    first = rng.integers(0, 2, size=ncols).astype(bool)
    _, none, column = k.chase(None, nrows, ncols, pack(first, ncols), all_lit=False, first_column=True)
    assert none is None
    # Cell (k, 0) depends only on first-row cells 0..k, so a strip of nrows + 2
    # columns gives the same first column.
    width = nrows + 2
    _, want = ref_chase(np.zeros((nrows, width), dtype=bool), nrows, width, first[:width])
    np.testing.assert_array_equal(column, want[:, 0])


# ---------------------------------------------------------------------------
# The C API table (lightsout/capi.h)


class _KernelsApi(ctypes.Structure):
    _fields_ = [
        ("abi_version", ctypes.c_int),
        ("simd_level", ctypes.c_char_p),
        ("chase", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_ssize_t,
                                   ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)),
    ]


def _capi_table(module) -> _KernelsApi:
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    address = get(module._capi, b"lightsout._kernels._capi")
    return _KernelsApi.from_address(address)


def _ptr(a: np.ndarray | None) -> int | None:
    return None if a is None else a.ctypes.data


@pytest.mark.parametrize("ncols", (1, 64, 65, 1000))
def test_capi_chase_matches_python_chase(simd_level, rng, ncols):
    k = load("chase", simd_level)
    api = _capi_table(k)
    assert api.abi_version == 1
    assert api.simd_level.decode() == simd_level
    nwords = (ncols + 63) // 64
    for nrows in (1, 3, 70):
        first = pack(rng.integers(0, 2, size=ncols).astype(bool), ncols)
        for board in (None, pack(random_board(rng, nrows, ncols), ncols)):
            want_res, want_presses, _ = k.chase(board, nrows, ncols, first, presses=True)
            res = np.full(nwords, SENTINEL)
            presses = np.full((nrows, nwords), SENTINEL)
            assert api.chase(_ptr(board), nrows, ncols, _ptr(first), _ptr(res), _ptr(presses)) == 0
            np.testing.assert_array_equal(res, want_res)
            np.testing.assert_array_equal(presses, want_presses)
            res[:] = SENTINEL
            assert api.chase(_ptr(board), nrows, ncols, _ptr(first), _ptr(res), None) == 0
            np.testing.assert_array_equal(res, want_res)
    assert api.chase(None, 0, ncols, _ptr(first), _ptr(res), None) == -1


# ---------------------------------------------------------------------------
# ab_reduce


@pytest.mark.parametrize("ncols", SMALL_BITS)
def test_ab_reduce_matches_definition(simd_level, rng, ncols):
    k = load("chase", simd_level)
    for nrows in ROWS:
        for board in (None, random_board(rng, nrows, ncols)):
            out = system_out(ncols)
            k.ab_reduce(None if board is None else pack(board, ncols), nrows, ncols, out)
            want = ref_system(board, nrows, ncols)
            np.testing.assert_array_equal(unpack(out, ncols + 1), want, err_msg=f"{nrows}x{ncols}")
            if (ncols + 1) % 64:  # bits past column C stay zero
                assert not (out[:, -1] >> np.uint64((ncols + 1) % 64)).any()


@pytest.mark.parametrize("nrows", (3, 65, pytest.param(1000, marks=pytest.mark.thorough),
                                   pytest.param(1500, marks=pytest.mark.thorough)))
def test_ab_reduce_wide(simd_level, rng, nrows):
    k = load("chase", simd_level)
    ncols = 1000
    board = random_board(rng, nrows, ncols) if nrows != 1000 else None
    out = system_out(ncols)
    k.ab_reduce(None if board is None else pack(board, ncols), nrows, ncols, out)
    np.testing.assert_array_equal(unpack(out, ncols + 1), ref_system(board, nrows, ncols))


def test_ab_reduce_block_ranges(simd_level, rng):
    k = load("chase", simd_level)
    nrows, ncols = 77, 1100  # 18 words: blocks of 8, 8 and 2 words; the constant in the last
    board = pack(random_board(rng, nrows, ncols), ncols)
    nblocks = k.ab_block_count(ncols)
    assert nblocks == 3
    full = system_out(ncols)
    k.ab_reduce(board, nrows, ncols, full)
    for start, stop in ((0, 1), (1, 2), (2, 3), (1, 3), (0, 0), (3, 3)):
        out = system_out(ncols, SENTINEL)
        k.ab_reduce(board, nrows, ncols, out, start, stop)
        inside = np.zeros(out.shape[1], dtype=bool)
        inside[8 * start:8 * stop] = True
        np.testing.assert_array_equal(out[:, inside], full[:, inside])
        assert (out[:, ~inside] == SENTINEL).all(), (start, stop)
    pieces = system_out(ncols, SENTINEL)
    for block in range(nblocks):
        k.ab_reduce(board, nrows, ncols, pieces, block, block + 1)
    np.testing.assert_array_equal(pieces, full)


def test_ab_reduce_levels_agree(rng):
    from lightsout._kernels import available_levels
    nrows, ncols = 200, 700
    board = pack(random_board(rng, nrows, ncols), ncols)
    outs = []
    for level in available_levels():
        out = system_out(ncols)
        load("chase", level).ab_reduce(board, nrows, ncols, out)
        outs.append(out)
    for out in outs[1:]:
        np.testing.assert_array_equal(out, outs[0])


def gf2_solve(system: np.ndarray, ncols: int) -> np.ndarray | None:
    """One solution f of system[:, :C] f = system[:, C] (free variables 0), or None."""
    a = system.copy()
    pivots, row = [], 0
    for col in range(ncols):
        hits = np.nonzero(a[row:, col])[0]
        if len(hits) == 0:
            continue
        p = row + hits[0]
        a[[row, p]] = a[[p, row]]
        mask = a[:, col].copy()
        mask[row] = False
        a[mask] ^= a[row]
        pivots.append(col)
        row += 1
        if row == ncols:
            break
    if a[row:, ncols].any():
        return None
    f = np.zeros(ncols, dtype=bool)
    for i, col in enumerate(pivots):
        f[col] = a[i, ncols]
    return f


def test_ab_reduce_solves_boards(simd_level, rng):
    """End to end: solve the reduced system, chase the solution, replay it on the oracle."""
    k = load("chase", simd_level)
    for nrows, ncols in ((1, 1), (3, 3), (5, 5), (4, 6), (6, 4), (2, 9), (9, 2)):
        for board in (np.ones((nrows, ncols), dtype=bool), random_board(rng, nrows, ncols)):
            out = system_out(ncols)
            k.ab_reduce(pack(board, ncols), nrows, ncols, out)
            f = gf2_solve(unpack(out, ncols + 1), ncols)
            if f is None:  # unsolvable: no first row chases the board dark
                _, left = oracle.chase(board.astype(np.uint8), np.zeros(ncols, dtype=np.uint8))
                assert left[-1].any()
                continue
            res, presses, _ = k.chase(pack(board, ncols), nrows, ncols, pack(f, ncols), presses=True)
            assert not res.any()
            assert oracle.clears(board.astype(np.uint8), unpack(presses, ncols).astype(np.uint8))
    out = system_out(5)
    k.ab_reduce(None, 5, 5, out)
    assert gf2_solve(unpack(out, 6), 5) is not None  # all-lit 5x5 is solvable (nullity 2)


# ---------------------------------------------------------------------------
# Bad inputs


def test_bad_inputs(simd_level):
    k = load("chase", simd_level)
    first = np.zeros(2, dtype=np.uint64)
    board = np.zeros((4, 2), dtype=np.uint64)
    with pytest.raises(TypeError):
        k.chase(board.astype(np.int64), 4, 100, first)
    with pytest.raises(TypeError):
        k.chase(board.tolist(), 4, 100, first)
    with pytest.raises(TypeError):
        k.chase(None, 4, 100, first.astype(np.uint32))
    with pytest.raises(ValueError):
        k.chase(board, 5, 100, first)  # wrong shape
    with pytest.raises(ValueError):
        k.chase(None, 4, 100, np.zeros(3, dtype=np.uint64))
    with pytest.raises(ValueError):
        k.chase(np.zeros((4, 4), dtype=np.uint64)[:, ::2], 4, 100, first)  # not contiguous
    with pytest.raises(ValueError):
        k.chase(None, 4, 100, np.array([0, 1 << 36], dtype=np.uint64))  # bit 100 is past ncols
    for nrows, ncols in ((0, 5), (5, 0), (-1, 5)):
        with pytest.raises(ValueError):
            k.chase(None, nrows, ncols, np.zeros(1, dtype=np.uint64))
        with pytest.raises(ValueError):
            k.ab_reduce(None, nrows, ncols, np.zeros((max(ncols, 1), 1), dtype=np.uint64))
    out = system_out(100)
    with pytest.raises(TypeError):
        k.ab_reduce(None, 4, 100, out.astype(np.int64))
    with pytest.raises(ValueError):
        k.ab_reduce(None, 4, 100, out[:, :1].copy())
    with pytest.raises(ValueError):
        k.ab_reduce(None, 4, 100, np.zeros((100, 4), dtype=np.uint64)[:, ::2])
    with pytest.raises(ValueError):
        k.ab_reduce(board, 5, 100, out)  # board shape
    readonly = system_out(100)
    readonly.flags.writeable = False
    with pytest.raises(ValueError):
        k.ab_reduce(None, 4, 100, readonly)
    for start, stop in ((0, 2), (-1, 1), (1, 0)):
        with pytest.raises(ValueError):
            k.ab_reduce(None, 4, 100, out, start, stop)
    with pytest.raises(ValueError):
        k.ab_block_count(0)


def test_packed_arrays_refused_with_package_errors(simd_level):
    """Tail bits, wrong shapes and types: the one validation path's own exceptions."""
    k = load("chase", simd_level)
    first = np.zeros(2, dtype=np.uint64)
    tail_first = np.array([0, 1 << 36], dtype=np.uint64)  # bit 100 of a 100-column row
    with pytest.raises(InvalidBoardError):
        k.chase(None, 4, 100, tail_first)
    board = np.zeros((4, 2), dtype=np.uint64)
    board[2, 1] = np.uint64(1) << np.uint64(40)  # bit 104 in row 2
    with pytest.raises(InvalidBoardError):
        k.chase(board, 4, 100, first)
    with pytest.raises(InvalidBoardError):
        k.ab_reduce(board, 4, 100, system_out(100))
    with pytest.raises(InvalidTypeError):
        k.chase(board.astype(np.int64), 4, 100, first)
    with pytest.raises(InvalidTypeError):
        k.chase(None, 4, 100, [0, 0])
    with pytest.raises(InvalidBoardError):
        k.chase(np.zeros((5, 2), dtype=np.uint64), 4, 100, first)
    with pytest.raises(InvalidBoardError):
        k.chase(None, 4, 100, np.zeros((1, 2), dtype=np.uint64))
    with pytest.raises(InvalidTypeError):
        k.ab_reduce(None, 4, 100, system_out(100).astype(np.int64))
    for nrows, ncols in ((0, 5), (5, 0), (-1, 5), (5, -3)):
        with pytest.raises(InvalidBoardError):
            k.chase(None, nrows, ncols, np.zeros(1, dtype=np.uint64))
        with pytest.raises(InvalidBoardError):
            k.ab_reduce(None, nrows, ncols, np.zeros((max(ncols, 1), 1), dtype=np.uint64))
    with pytest.raises(InvalidBoardError):
        k.ab_block_count(0)
    with pytest.raises(InvalidTypeError):
        k.chase(None, 4, 100, first, progress=5)


# ---------------------------------------------------------------------------
# Stopping the A/B iteration (cancel flag, Ctrl-C)


def test_ab_reduce_returns_true_when_finished(simd_level):
    k = load("chase", simd_level)
    out = system_out(70)
    assert k.ab_reduce(None, 70, 70, out) is True
    again = system_out(70)
    assert k.ab_reduce(None, 70, 70, again, cancel=np.zeros(1, dtype=np.uint8)) is True
    np.testing.assert_array_equal(again, out)


def test_ab_reduce_cancel_flag(simd_level):
    """A flag set before the call, or by another thread during it, stops the iteration early."""
    k = load("chase", simd_level)
    n = 20_000  # seconds of work at any SIMD level: a working flag returns long before
    out = system_out(n)
    assert k.ab_reduce(None, n, n, out, cancel=np.ones(1, dtype=np.uint8)) is False
    flag = np.zeros(1, dtype=np.uint8)
    result = []
    worker = threading.Thread(target=lambda: result.append(k.ab_reduce(None, n, n, out, cancel=flag)))
    worker.start()
    time.sleep(0.05)
    flag[0] = 1
    worker.join()
    assert result == [False]
    for bad in (np.ones((1, 1), dtype=np.uint8), np.zeros(0, dtype=np.uint8), np.ones(4, dtype=np.uint8)[::2],
                np.ones(1, dtype=bool), [1]):
        with pytest.raises(InvalidTypeError, match="cancel must be None or a C-contiguous 1-D numpy uint8"):
            k.ab_reduce(None, 5, 5, system_out(5), cancel=bad)


def test_ab_reduce_stops_on_ctrl_c(tmp_path):
    """SIGINT during a long A/B iteration raises KeyboardInterrupt promptly (it took a whole block)."""
    code = (
        "import sys, numpy as np\n"
        "from lightsout._kernels import load\n"
        "n = 30000\n"
        "out = np.zeros((n, (n + 64) // 64), dtype=np.uint64)\n"
        "print('start', flush=True)\n"
        "try:\n"
        "    load('chase').ab_reduce(None, n, n, out)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "start"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=10)  # the old kernel needed tens of seconds here
    finally:
        proc.kill()
    assert out.strip() == "interrupted"
