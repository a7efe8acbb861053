# Grid kernels on bit-packed rows: light chasing and the A/B two-row iteration.
#
# An R x C board is R rows of words_for_bits(C) uint64 words (see _bitrow.pxd
# for the bit layout).  Row k's presses r_k follow from the two rows above by
#     r_{k+1} = T r_k + r_{k-1} + b_k      (r_0 = 0, r_1 = the first row)
# where T = I + P (P = adjacency of the path on C cells) and b_k is row k of the
# start state; the board is dark iff the virtual row r_{R+1} is zero.  See
# shared/design/algebra.md section 1.
#
# The neighbour structure lives in two places only: chase_step/apply_T in
# _bitrow.pxd (within-row neighbours) and the three-row stencil in _ab_block
# (neighbours across rows).  Another slice operator (a torus row, a
# (d-1)-dimensional slice) slots in there.
#
# This file is compiled once per SIMD level (see setup.py); def functions check
# their arguments with the GIL, then run the cdef core inside `with nogil`.

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc

from lightsout._bitrow cimport (
    chase_step, copy_row, get_bit, tail_mask, words_for_bits, xor3_into_8, zero_row,
)

import numpy as np

cdef enum:
    # Column block of the A/B iteration: 8 words = 512 bit columns (one zmm,
    # two ymm or four xmm per row step).
    BLOCK_WORDS = 8
    # Time levels fused into one sweep of the block (temporal blocking): the
    # block streams through the cache once per SWEEP_LEVELS steps.
    SWEEP_LEVELS = 64
    # About this many word operations between two returns to Python.
    CHUNK_WORD_OPS = 1 << 25


# ---------------------------------------------------------------------------
# Argument checks (GIL held).

cdef Py_ssize_t _check_sizes(Py_ssize_t nrows, Py_ssize_t ncols) except -1:
    if nrows <= 0 or ncols <= 0:
        raise ValueError(f"nrows and ncols must be positive, got {nrows} x {ncols}")
    return words_for_bits(ncols)


cdef const uint64_t* _board_pointer(object board, Py_ssize_t nrows, Py_ssize_t nwords) except? NULL:
    """Pointer to a packed (nrows, nwords) board, or NULL for the all-lit board (board is None)."""
    cdef const uint64_t[:, ::1] view
    if board is None:
        return NULL
    view = _matrix_view(board, "board")
    if view.shape[0] != nrows or view.shape[1] != nwords:
        raise ValueError(
            f"board must have shape ({nrows}, {nwords}) (rows, words), got ({view.shape[0]}, {view.shape[1]})"
        )
    return &view[0, 0] if nrows > 0 and nwords > 0 else NULL


cdef const uint64_t[:, ::1] _matrix_view(object array, str name):
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{name} must be a numpy array of uint64, got {type(array).__name__}")
    if array.dtype != np.uint64:
        raise TypeError(f"{name} must have dtype uint64, got {array.dtype}")
    if array.ndim != 2:
        raise ValueError(f"{name} must be 2-D (rows, words), got {array.ndim}-D")
    if not array.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous")
    return array


cdef const uint64_t[::1] _row_view(object array, Py_ssize_t nwords, str name):
    cdef const uint64_t[::1] view
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{name} must be a numpy array of uint64, got {type(array).__name__}")
    if array.dtype != np.uint64:
        raise TypeError(f"{name} must have dtype uint64, got {array.dtype}")
    if array.ndim != 1 or array.shape[0] != nwords:
        raise ValueError(f"{name} must have shape ({nwords},), got {array.shape}")
    if not array.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous")
    view = array
    return view


# ---------------------------------------------------------------------------
# Light chasing.

cdef struct ChaseState:
    uint64_t* older       # r_{k-1}
    uint64_t* newer       # r_k
    uint64_t* lit_row     # the all-lit row, used when the board is NULL
    Py_ssize_t step       # k: rows r_0..r_k are known


cdef int _chase_init(ChaseState* st, const uint64_t* first_row, Py_ssize_t nwords,
                     Py_ssize_t ncols) noexcept nogil:
    st.older = <uint64_t*>calloc(nwords, sizeof(uint64_t))
    st.newer = <uint64_t*>calloc(nwords, sizeof(uint64_t))
    st.lit_row = <uint64_t*>malloc(nwords * sizeof(uint64_t))
    if st.older == NULL or st.newer == NULL or st.lit_row == NULL:
        return -1
    copy_row(st.newer, first_row, nwords)
    for i in range(nwords):
        st.lit_row[i] = ~(<uint64_t>0)
    st.lit_row[nwords - 1] = tail_mask(ncols)
    st.step = 1
    return 0


cdef void _chase_free(ChaseState* st) noexcept nogil:
    free(st.older)
    free(st.newer)
    free(st.lit_row)


cdef void _chase_run(ChaseState* st, const uint64_t* board, Py_ssize_t nwords, Py_ssize_t ncols,
                     Py_ssize_t last_step, uint64_t* presses) noexcept nogil:
    """Advance to r_{last_step}: computes r_{k+1} for k = st.step .. last_step-1.

    When presses is not NULL, row k-1 of it receives r_k (0-based rows).
    """
    cdef Py_ssize_t k
    cdef const uint64_t* lit
    cdef uint64_t* tmp
    for k in range(st.step, last_step):
        if presses != NULL:
            copy_row(presses + (k - 1) * nwords, st.newer, nwords)
        lit = st.lit_row if board == NULL else board + (k - 1) * nwords
        chase_step(st.older, st.newer, st.older, lit, nwords, ncols)  # r_{k+1} into r_{k-1}'s place
        tmp = st.older
        st.older = st.newer
        st.newer = tmp
    st.step = last_step


def chase(board, Py_ssize_t nrows, Py_ssize_t ncols, first_row, *, bint presses=False,
          progress=None):
    """Chase the lights down an R x C board from a packed first row of presses.

    Args:
        board: packed (nrows, words_for_bits(ncols)) uint64 start state, or None
            for the all-lit board (never materialised).
        nrows, ncols: board size.
        first_row: packed (words_for_bits(ncols),) uint64 presses of row 1.
        presses: also return every row's presses.
        progress: optional callable(stage, done, total), called between chunks.

    Returns:
        (residue, press_rows): residue is r_{R+1}, the lights left on in the
        last row after chasing (zero iff the board is cleared); press_rows is
        the packed (nrows, nwords) press matrix, or None.

    Example:
        >>> import numpy as np
        >>> residue, _ = chase(None, 3, 3, np.array([0b101], dtype=np.uint64))
        >>> int(residue[0])
         
    """
    cdef Py_ssize_t nwords = _check_sizes(nrows, ncols)
    cdef const uint64_t* board_ptr = _board_pointer(board, nrows, nwords)
    cdef const uint64_t[::1] first = _row_view(first_row, nwords, "first_row")
    if first[nwords - 1] & ~tail_mask(ncols):
        raise ValueError("first_row has bits set past column ncols")
    residue = np.zeros(nwords, dtype=np.uint64)
    cdef uint64_t[::1] residue_view = residue
    press_rows = np.zeros((nrows, nwords), dtype=np.uint64) if presses else None
    cdef uint64_t[:, ::1] press_view
    cdef uint64_t* press_ptr = NULL
    if presses:
        press_view = press_rows
        press_ptr = &press_view[0, 0]
    cdef ChaseState st
    cdef Py_ssize_t chunk = max(1, CHUNK_WORD_OPS // (4 * nwords)), stop
    cdef int status
    with nogil:
        status = _chase_init(&st, &first[0], nwords, ncols)
    try:
        if status != 0:
            raise MemoryError("out of memory allocating chase buffers")
        while st.step < nrows + 1:
            stop = min(nrows + 1, st.step + chunk)
            with nogil:
                _chase_run(&st, board_ptr, nwords, ncols, stop, press_ptr)
            PyErr_CheckSignals()
            if progress is not None:
                progress("chase", st.step - 1, nrows)
        copy_row(&residue_view[0], st.newer, nwords)
    finally:
        _chase_free(&st)
    return residue, press_rows


# ---------------------------------------------------------------------------
# The A/B two-row iteration, one column block at a time.
#
# Bit column i of [A | b] evolves independently of every other column (T acts
# on the row index), so the augmented C x (C+1) matrix is computed in blocks
# of BLOCK_WORDS words: each block keeps two (C + 2) x BLOCK_WORDS scratch
# arrays (levels of even and odd parity, with a zero guard row at each end)
# and runs all R steps on them before moving on.  Each sweep fuses
# SWEEP_LEVELS steps as a wavefront: at position p it computes level t+1 at
# row p, level t+2 at row p-2, and so on, so a level-L row is written over
# the level-(L-2) row it replaces only once nothing needs that row any more,
# and the block passes through the cache once per sweep, not once per step.
# U_k(T) is banded (bandwidth k), so rows beyond the band are skipped.

cdef int _ab_block(Py_ssize_t nrows, Py_ssize_t ncols, Py_ssize_t first_word,
                   const uint64_t* board, uint64_t* out, Py_ssize_t out_nwords) noexcept nogil:
    """Columns [64*first_word, 64*(first_word + BLOCK_WORDS)) of [U_{R+1}(T) | c]."""
    cdef Py_ssize_t C = ncols, W = BLOCK_WORDS
    cdef Py_ssize_t nwords = words_for_bits(ncols)
    cdef Py_ssize_t col_lo = 64 * first_word
    cdef Py_ssize_t col_hi = min(C, 64 * (first_word + W))
    cdef Py_ssize_t const_word = (C >> 6) - first_word
    cdef bint has_constant = 0 <= const_word < W
    cdef uint64_t const_bit = (<uint64_t>1) << (C & 63)
    cdef Py_ssize_t j, p, lev, lev_lo, lev_hi, level, t, nlev, row_lo, row_hi, w
    cdef uint64_t* dst
    cdef const uint64_t* src
    # Scratch: C + 2 padded rows (a zero guard row at each end), each holding
    # the even-level row then the odd-level row, W words apiece.  Interleaving
    # the two parities keeps a row being written and the rows being read at
    # different addresses modulo 4 KiB (two separate arrays alias there and
    # stall the loads on the stores).  One spare cache line per row keeps the
    # rows of the sweep's levels (2 rows apart) from piling into a few L1 sets.
    cdef Py_ssize_t row_stride = 2 * W + 8
    cdef uint64_t* scratch = <uint64_t*>calloc((C + 2) * row_stride, sizeof(uint64_t))
    if scratch == NULL:
        return -1
    # Level 0 is r_0 = 0; level 1 is r_1 = [I | 0] restricted to the block.
    for j in range(col_lo, col_hi):
        scratch[(j + 1) * row_stride + W + (j >> 6) - first_word] = (<uint64_t>1) << (j & 63)
    t = 1
    while t < nrows + 1:
        nlev = min(<Py_ssize_t>SWEEP_LEVELS, nrows + 1 - t)
        if has_constant:
            row_lo, row_hi = 0, C
        else:
            row_lo = max(0, col_lo - (t + nlev))
            row_hi = min(C, col_hi + t + nlev)
        # Wavefront of slope 2: level t+1+lev at row p - 2*lev.  The levels
        # computed at one position p are then independent of each other (each
        # reads rows its predecessor wrote at earlier positions), so they
        # overlap in the pipeline instead of waiting on one another.
        for p in range(row_lo, row_hi + 2 * (nlev - 1)):
            lev_lo = max(0, (p - row_hi + 2) // 2)
            lev_hi = min(nlev, (p - row_lo) // 2 + 1)
            for lev in range(lev_lo, lev_hi):
                j = p - 2 * lev
                level = t + 1 + lev
                dst = scratch + (j + 1) * row_stride + (level & 1) * W  # holds level - 2: the "B" term
                src = scratch + j * row_stride + ((level - 1) & 1) * W  # rows j-1, j, j+1 of level - 1
                for w in range(0, BLOCK_WORDS, 8):
                    xor3_into_8(dst + w, src + w, src + row_stride + w, src + 2 * row_stride + w)
                if has_constant:
                    # + [0 | b_k] with k = level - 1: board row level - 2 (0-based), bit j.
                    if board == NULL:
                        dst[const_word] ^= const_bit
                    elif get_bit(board + (level - 2) * nwords, j):
                        dst[const_word] ^= const_bit
        t += nlev
    src = scratch + ((nrows + 1) & 1) * W
    for j in range(C):
        for w in range(min(W, out_nwords - first_word)):
            out[j * out_nwords + first_word + w] = src[(j + 1) * row_stride + w]
    free(scratch)
    return 0


def ab_block_count(Py_ssize_t ncols):
    """Number of column blocks ab_reduce splits the augmented C x (C+1) system into.

    Example:
        >>> ab_block_count(10000)
        20
    """
    if ncols <= 0:
        raise ValueError(f"ncols must be positive, got {ncols}")
    return (words_for_bits(ncols + 1) + BLOCK_WORDS - 1) // BLOCK_WORDS


def ab_reduce(board, Py_ssize_t nrows, Py_ssize_t ncols, out, Py_ssize_t block_start=0,
              Py_ssize_t block_stop=-1):
    """Reduce an R x C board to its C x (C+1) system [U_{R+1}(T) | c] by the A/B iteration.

    Row j of the result says: (U_{R+1}(T) f)_j = c_j for the first row f of
    presses; c is the residue of chasing with f = 0.  Fills the column blocks
    [block_start, block_stop) of ``out`` (so threads can share the work; the GIL
    is released) and leaves the other words untouched.

    Args:
        board: packed (nrows, words_for_bits(ncols)) uint64 start state, or None
            for the all-lit board.
        out: C-contiguous uint64 array of shape (ncols, words_for_bits(ncols + 1)).

    Example:
        >>> import numpy as np
        >>> system = np.zeros((3, 1), dtype=np.uint64)
        >>> ab_reduce(None, 3, 3, system)
        >>> [bin(int(w)) for w in system[:, 0]]   # U_4(T) = T^3 with constant column c = (1, 0, 1)
        ['0b1110', '0b111', '0b1011']
    """
    cdef Py_ssize_t nwords = _check_sizes(nrows, ncols)
    cdef Py_ssize_t out_nwords = words_for_bits(ncols + 1)
    cdef Py_ssize_t nblocks = ab_block_count(ncols)
    cdef const uint64_t* board_ptr = _board_pointer(board, nrows, nwords)
    cdef const uint64_t[:, ::1] out_checked = _matrix_view(out, "out")
    if out_checked.shape[0] != ncols or out_checked.shape[1] != out_nwords:
        raise ValueError(
            f"out must have shape ({ncols}, {out_nwords}), got ({out_checked.shape[0]}, {out_checked.shape[1]})"
        )
    if not out.flags.writeable:
        raise ValueError("out must be writeable")
    cdef uint64_t[:, ::1] out_view = out
    if block_stop < 0:
        block_stop = nblocks
    if not (0 <= block_start <= block_stop <= nblocks):
        raise ValueError(f"block range [{block_start}, {block_stop}) is outside [0, {nblocks})")
    cdef Py_ssize_t block
    cdef int status = 0
    with nogil:
        for block in range(block_start, block_stop):
            status = _ab_block(nrows, ncols, block * BLOCK_WORDS, board_ptr, &out_view[0, 0], out_nwords)
            if status != 0:
                break
    if status != 0:
        raise MemoryError("out of memory allocating A/B iteration scratch")
