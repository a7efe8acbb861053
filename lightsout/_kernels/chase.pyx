# Grid kernels on bit-packed rows: light chasing and the A/B two-row iteration.
#
# An R x C board is R rows of words_for_bits(C) uint64 words (see bitrow.pxd
# for the bit layout).  Row k's presses r_k follow from the two rows above by
#     r_{k+1} = T r_k + r_{k-1} + b_k      (r_0 = 0, r_1 = the first row)
# where T = I + P (P = adjacency of the path on C cells) and b_k is row k of the
# start state; the board is dark iff the virtual row r_{R+1} is zero.  See
# docs/algebra.md section 1.
#
# One chase kernel serves every caller (the chase def below, the A/B
# iteration's constant column, the C API): all-lit, dark or given board, with
# the press rows and the first column as options.  The neighbour structure is
# the T stencil of bitrow.pxd, used by chase_step (within a row) and by the
# A/B sweep (across the transposed rows).
#
# This file is compiled once per SIMD level (see setup.py); def functions check
# their arguments with the GIL (lightsout._base.validate), then run the cdef core
# inside `with nogil`.

from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_New
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport calloc, free

from lightsout._kernels.bitrow cimport (
    LIT_ALL, LIT_BOARD, LIT_NONE, copy_row, get_bit, tail_mask, words_for_bits,
)
from lightsout._kernels.bitrow cimport chase_step  # the C tile loop below calls it as lo_chase_step
from lightsout._kernels.cancel cimport (
    STOP_NONE, Poll, cancelled, make_poll, poll_work, raise_if_interrupted,
)
from lightsout.capi cimport LIGHTSOUT_CAPI_VERSION, lightsout_kernels_api

import numpy as np

from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._base.validate import board_size, packed_matrix, packed_vector

cdef enum:
    # Column block of the A/B iteration: 8 words = 512 bit columns, run as
    # lanes of one SIMD vector each (see LO_AB_VWORDS).
    BLOCK_WORDS = 8
    # About this many word operations between two returns to Python.
    CHUNK_WORD_OPS = 1 << 25
    # A/B iteration: row-level steps of one lane between two polls of the
    # cancel flag and of signals (a millisecond or so).
    AB_POLL_STEPS = 1 << 21


# ---------------------------------------------------------------------------
# Light chasing.

# Temporal blocking over words.  Word i of r_{k+1} needs words i-1..i+1 of r_k
# and word i of r_{k-1}, so a chunk of steps runs as tiles of LO_CHASE_TILE
# words, each skewed one word left per step (tile a covers words
# [a - s, a + LO_CHASE_TILE - s) at step s): a tile's rows (two of them plus a
# board row, well inside a 32 KiB L1d) stay in L1 for all the chunk's steps
# instead of every step streaming three whole rows through L2.  Tiles run left
# to right, so everything a word needs is already computed (the word to its
# right by this tile one step earlier, the word to its left by this tile or the
# previous one), and r_{k+1} can overwrite r_{k-1} in place:
# the two rows alternate, r_k in rows[k & 1].

cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    #include <stdlib.h>
    #include <string.h>

    /* chase_step over [lo, hi) with the light source fixed at compile time:
       one out-of-line copy per mode keeps the tile loop small and each word
       loop branch-free. */
    static void lo_chase_step_board(uint64_t *acc, const uint64_t *cur, const uint64_t *lit,
                                    ptrdiff_t lo, ptrdiff_t hi, ptrdiff_t nwords, uint64_t tail)
    {
        lo_chase_step(acc, cur, lit, lo, hi, nwords, tail, LO_LIT_BOARD);
    }
    static void lo_chase_step_all(uint64_t *acc, const uint64_t *cur,
                                  ptrdiff_t lo, ptrdiff_t hi, ptrdiff_t nwords, uint64_t tail)
    {
        lo_chase_step(acc, cur, NULL, lo, hi, nwords, tail, LO_LIT_ALL);
    }
    static void lo_chase_step_none(uint64_t *acc, const uint64_t *cur,
                                   ptrdiff_t lo, ptrdiff_t hi, ptrdiff_t nwords, uint64_t tail)
    {
        lo_chase_step(acc, cur, NULL, lo, hi, nwords, tail, LO_LIT_NONE);
    }

    #define LO_CHASE_TILE 512

    /* Zeroed words aligned to 64 bytes: returns the aligned pointer and the
       one to free through *raw (NULL, and *raw NULL, if out of memory). */
    static uint64_t *lo_alloc_aligned(size_t nwords, void **raw)
    {
        char *p = (char *)calloc(nwords * sizeof(uint64_t) + 64, 1);
        *raw = p;
        if (p == NULL) return NULL;
        return (uint64_t *)(p + (64 - ((uintptr_t)p & 63)));
    }

    /* Rows r_k live in rows[k & 1]; computes r_{k+1} for k = k0 .. k1-1 by
       skewed tiles of LO_CHASE_TILE words.  b_k is board row k-1 (mode LO_LIT_BOARD),
       all ones (LO_LIT_ALL) or zero (LO_LIT_NONE).  When presses is not NULL,
       its row k-1 receives r_k; when column is not NULL, column[k-1] receives
       bit 0 of r_k.  A step of a 10,000-column row is ~150 cycles, so the mode
       is a compile-time constant here too (one tile loop per mode). */
    LO_ALWAYS_INLINE void lo_chase_tiled_impl(uint64_t *row0, uint64_t *row1, const uint64_t *board,
                                              ptrdiff_t nwords, uint64_t tail, ptrdiff_t k0, ptrdiff_t k1,
                                              uint64_t *presses, uint8_t *column, const int mode)
    {
        const ptrdiff_t tile = LO_CHASE_TILE;
        uint64_t *rows[2];
        ptrdiff_t nsteps = k1 - k0, a, s, s_lo, s_hi, lo, hi, k;
        rows[0] = row0;
        rows[1] = row1;
        for (a = 0; a < nwords + nsteps - 1; a += tile) {
            s_lo = a - nwords + 1 > 0 ? a - nwords + 1 : 0;
            s_hi = a + tile < nsteps ? a + tile : nsteps;
            for (s = s_lo; s < s_hi; s++) {
                lo = a - s > 0 ? a - s : 0;
                hi = a + tile - s < nwords ? a + tile - s : nwords;
                k = k0 + s;
                if (presses != NULL)
                    memcpy(presses + (k - 1) * nwords + lo, rows[k & 1] + lo, (size_t)(hi - lo) * sizeof(uint64_t));
                if (column != NULL && lo == 0)
                    column[k - 1] = (uint8_t)(rows[k & 1][0] & 1);
                if (mode == LO_LIT_BOARD)
                    lo_chase_step_board(rows[(k + 1) & 1], rows[k & 1], board + (k - 1) * nwords,
                                        lo, hi, nwords, tail);
                else if (mode == LO_LIT_ALL)
                    lo_chase_step_all(rows[(k + 1) & 1], rows[k & 1], lo, hi, nwords, tail);
                else
                    lo_chase_step_none(rows[(k + 1) & 1], rows[k & 1], lo, hi, nwords, tail);
            }
        }
    }

    static void lo_chase_tiled(uint64_t *row0, uint64_t *row1, const uint64_t *board, int mode,
                               ptrdiff_t nwords, uint64_t tail, ptrdiff_t k0, ptrdiff_t k1,
                               uint64_t *presses, uint8_t *column)
    {
        if (mode == LO_LIT_BOARD)
            lo_chase_tiled_impl(row0, row1, board, nwords, tail, k0, k1, presses, column, LO_LIT_BOARD);
        else if (mode == LO_LIT_ALL)
            lo_chase_tiled_impl(row0, row1, NULL, nwords, tail, k0, k1, presses, column, LO_LIT_ALL);
        else
            lo_chase_tiled_impl(row0, row1, NULL, nwords, tail, k0, k1, presses, column, LO_LIT_NONE);
    }
    """
    uint64_t* lo_alloc_aligned(size_t nwords, void** raw) noexcept nogil
    void lo_chase_tiled(uint64_t* row0, uint64_t* row1, const uint64_t* board, int mode,
                        Py_ssize_t nwords, uint64_t tail, Py_ssize_t k0, Py_ssize_t k1,
                        uint64_t* presses, uint8_t* column) noexcept nogil


cdef struct Chase:
    # A chase in progress: rows r_0..r_step are known, r_step in row step & 1
    # and r_{step-1} in the other row.  Both rows start on a 64-byte boundary
    # (stride a multiple of 8 words), as two separate allocations would, so
    # the vector loads of acc and cur line up; one allocation, owned (raw).
    uint64_t* rows
    void* raw
    Py_ssize_t stride
    const uint64_t* board       # board rows (mode LIT_BOARD), else unused
    int mode                    # LIT_BOARD, LIT_ALL or LIT_NONE
    Py_ssize_t nwords
    uint64_t tail
    Py_ssize_t step
    uint64_t* presses           # row k-1 receives r_k, or NULL
    uint8_t* column             # [k-1] receives bit 0 of r_k, or NULL


cdef int chase_start(Chase* ch, const uint64_t* board, int mode, Py_ssize_t ncols,
                     const uint64_t* first_row, uint64_t* presses, uint8_t* column) noexcept nogil:
    """Set up a chase from first_row (NULL: the zero row); -1 if out of memory.

    ch is fully initialised even on failure, so chase_free(ch) is always safe.
    """
    ch.nwords = words_for_bits(ncols)
    ch.tail = tail_mask(ncols)
    ch.board = board
    ch.mode = mode
    ch.presses = presses
    ch.column = column
    ch.step = 1
    ch.stride = (ch.nwords + 7) & ~(<Py_ssize_t>7)
    ch.raw = NULL
    ch.rows = lo_alloc_aligned(<size_t>(2 * ch.stride), &ch.raw)  # r_0 = 0, r_1
    if ch.rows == NULL:
        return -1
    if first_row != NULL:
        copy_row(ch.rows + ch.stride, first_row, ch.nwords)
    return 0


cdef void chase_advance(Chase* ch, Py_ssize_t last_step) noexcept nogil:
    """Advance to r_{last_step}: computes r_{k+1} for k = ch.step .. last_step-1."""
    if last_step <= ch.step:
        return
    lo_chase_tiled(ch.rows, ch.rows + ch.stride, ch.board, ch.mode, ch.nwords, ch.tail,
                   ch.step, last_step, ch.presses, ch.column)
    ch.step = last_step


cdef inline const uint64_t* chase_newest(const Chase* ch) noexcept nogil:
    """r_step, the newest row (the residue r_{R+1} once step = R + 1)."""
    return ch.rows + (ch.step & 1) * ch.stride


cdef void chase_free(Chase* ch) noexcept nogil:
    free(ch.raw)
    ch.raw = NULL
    ch.rows = NULL


cdef int chase_nogil(const uint64_t* board, int mode, Py_ssize_t nrows, Py_ssize_t ncols,
                     const uint64_t* first_row, uint64_t* residue, uint64_t* presses,
                     uint8_t* column) noexcept nogil:
    """The whole chase in one call (no check-ins with Python); 0, or -1 if out of memory."""
    cdef Chase ch
    if chase_start(&ch, board, mode, ncols, first_row, presses, column) != 0:
        chase_free(&ch)
        return -1
    chase_advance(&ch, nrows + 1)
    copy_row(residue, chase_newest(&ch), ch.nwords)
    chase_free(&ch)
    return 0


def chase(board, Py_ssize_t nrows, Py_ssize_t ncols, first_row, *, bint all_lit=True,
          bint presses=False, bint first_column=False, progress=None):
    """Chase the lights down an R x C board from a packed first row of presses.

    Memory is O(ncols) words beyond the board and the outputs asked for.

    Args:
        board: packed (nrows, words_for_bits(ncols)) uint64 start state, or None
            for the all-lit board (all_lit=True) or the dark one (all_lit=False),
            never materialised.  all_lit is ignored when a board is given.
        nrows, ncols: board size (positive).
        first_row: packed (words_for_bits(ncols),) uint64 presses of row 1.
        presses: also return every row's presses.
        first_column: also return column 0 of the presses (bit 0 of each row),
            without building the press matrix.
        progress: optional callable(stage, done, total), called between chunks.

    Returns:
        (residue, press_rows, column): residue is r_{R+1}, the lights left on in
        the last row after chasing (zero iff the board is cleared); press_rows
        the packed (nrows, nwords) press matrix or None; column a bool array of
        length nrows or None.

    Raises:
        InvalidTypeError, InvalidBoardError: bad sizes or packed arrays
            (lightsout._base.validate), bits set past column ncols included.

    Example:
        >>> import numpy as np
        >>> residue, _, column = chase(None, 3, 3, np.array([0b101], dtype=np.uint64), first_column=True)
        >>> int(residue[0]), column.tolist()
        (0, [True, False, True])
    """
    board_size(nrows, "nrows")
    board_size(ncols, "ncols")
    if progress is not None and not callable(progress):
        raise InvalidTypeError(f"progress must be a callable or None, got {type(progress).__name__}")
    cdef Py_ssize_t nwords = words_for_bits(ncols)
    cdef const uint64_t[:, ::1] board_view
    cdef const uint64_t* board_ptr = NULL
    cdef int mode = LIT_ALL if all_lit else LIT_NONE
    if board is not None:
        board_view = packed_matrix(board, "board", nbits=ncols, nrows=nrows)
        board_ptr = &board_view[0, 0]
        mode = LIT_BOARD
    cdef const uint64_t[::1] first = packed_vector(first_row, "first_row", nbits=ncols)
    residue = np.zeros(nwords, dtype=np.uint64)
    cdef uint64_t[::1] residue_view = residue
    press_rows = np.zeros((nrows, nwords), dtype=np.uint64) if presses else None
    column = np.zeros(nrows, dtype=np.bool_) if first_column else None
    cdef uint64_t[:, ::1] press_view
    cdef uint64_t* press_ptr = NULL
    cdef uint8_t[::1] column_view
    cdef uint8_t* column_ptr = NULL
    if presses:
        press_view = press_rows
        press_ptr = &press_view[0, 0]
    if first_column:
        column_view = column.view(np.uint8)
        column_ptr = &column_view[0]
    cdef Chase ch
    cdef Py_ssize_t chunk = max(1, CHUNK_WORD_OPS // (4 * nwords)), stop
    cdef int status
    with nogil:
        status = chase_start(&ch, board_ptr, mode, ncols, &first[0], press_ptr, column_ptr)
    try:
        if status != 0:
            raise MemoryError("out of memory allocating chase buffers")
        while ch.step < nrows + 1:
            stop = min(nrows + 1, ch.step + chunk)
            with nogil:
                chase_advance(&ch, stop)
            PyErr_CheckSignals()
            if progress is not None:
                progress("chase", ch.step - 1, nrows)
        copy_row(&residue_view[0], chase_newest(&ch), nwords)
    finally:
        chase_free(&ch)
    return residue, press_rows, column


# ---------------------------------------------------------------------------
# The C API (lightsout/capi.h): this build's chase for other compiled code.

cdef extern from *:
    """
    #ifndef LIGHTSOUT_SIMD_LEVEL
    #define LIGHTSOUT_SIMD_LEVEL "generic"
    #endif
    """
    const char* LIGHTSOUT_SIMD_LEVEL

cdef int _capi_chase(const uint64_t* board, ptrdiff_t nrows, ptrdiff_t ncols, const uint64_t* first_row,
                     uint64_t* residue, uint64_t* presses) noexcept nogil:
    """capi.h's chase: board NULL is the all-lit board; -1 if out of memory (or a size <= 0)."""
    if nrows <= 0 or ncols <= 0:
        return -1
    return chase_nogil(board, LIT_BOARD if board != NULL else LIT_ALL, nrows, ncols, first_row,
                       residue, presses, NULL)


cdef lightsout_kernels_api _api
_api.abi_version = LIGHTSOUT_CAPI_VERSION
_api.simd_level = LIGHTSOUT_SIMD_LEVEL
_api.chase = _capi_chase

#: PyCapsule "lightsout._kernels._capi" holding this build's lightsout_kernels_api table.
_capi = PyCapsule_New(<void*>&_api, b"lightsout._kernels._capi", NULL)


# ---------------------------------------------------------------------------
# The A/B two-row iteration, one column block at a time.
#
# Bit column i of [A | b] evolves independently of every other column (T acts
# on the row index), so the augmented C x (C+1) matrix is computed in blocks
# of BLOCK_WORDS words, and each block in lanes of one SIMD vector (LO_AB_VWORDS
# words).  Write X_l for the level-l matrix (X_0 = U_0(T) = 0, X_1 = I, and
# X_{R+1} the answer), X_l[j] for its row j (a vector of the lane's columns):
#     X_{l+1}[j] = X_l[j-1] ^ X_l[j] ^ X_l[j+1] ^ X_{l-1}[j]     (rows -1, C are 0)
#
# Register-resident wavefront (lo_ab_sweep below).  A lane's scratch holds,
# per row, two slots: "older" X_{t-1}[j] and "newer" X_t[j].  One sweep
# advances both by L levels: at position p it loads one new row of each input
# level (X_t[p+1], X_{t-1}[p]), computes level t+i at row p-i+1 for i = 1..L
# (slope 1: each level trails the one below it by a row), and stores
# X_{t+L-1} and X_{t+L} at row p-L+1, a row every later step has finished
# reading.  Every level keeps its last three rows in registers (the step is
# unrolled by 3 so that the window rotates by renaming), so a row step costs
# two three-input XORs (one vpternlogq each with AVX-512VL) and the memory sees
# 4 vectors per L row steps.  The first and last L-1 positions of a sweep run
# a masked copy of the step that zeroes rows outside [lo, hi).
#
# U_k(T) is banded (bandwidth k-1), so a sweep covers only the rows that can be
# non-zero.  The constant column [0 | b] is not carried through the sweeps: it
# is the chase residue with first row 0 (column C at level l is the row r_l of
# that chase), computed once by chase_nogil and or-ed in at the end, so every
# block, the constant one included, runs the same banded kernel for any board.
#
# Cancelling (cancel.pxd): a lane polls the caller's cancel flag (and, on the main thread,
# Python's signal handlers) every AB_POLL_STEPS row-level steps, so Ctrl-C or a
# sibling thread's failure stops even an n = 40,000 iteration within a few ms.

cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    #include <stdlib.h>
    #include <string.h>

    /* Lane width (words per vector) and levels per sweep.  A level keeps three
       rows in registers.  AVX-512: ymm lanes (AVX-512VL gives vpternlogq and
       32 registers; on double-pumped cores zmm is no faster, and a ymm lane's
       scratch is half the size), 8 levels.  AVX2/SSE2 have 16 registers; 6
       levels spill a little but measured faster than 4 (fewer sweeps) and
       than 8 (more spills) on Zen 4.  Both can be overridden with -D. */
    #if (defined(__GNUC__) || defined(__clang__)) && !defined(_MSC_VER)
    #  ifndef LO_AB_VWORDS
    #    if defined(__AVX512F__) && defined(__AVX512VL__)
    #      define LO_AB_VWORDS 4
    #    elif defined(__AVX2__)
    #      define LO_AB_VWORDS 4
    #    else
    #      define LO_AB_VWORDS 2
    #    endif
    #  endif
    #  ifndef LO_AB_LEVELS
    #    if defined(__AVX512F__) || defined(__aarch64__)
    #      define LO_AB_LEVELS 8
    #    else
    #      define LO_AB_LEVELS 6
    #    endif
    #  endif
    typedef uint64_t lo_abv __attribute__((vector_size(8 * LO_AB_VWORDS)));
    #  define LO_AB_INLINE static inline __attribute__((always_inline))
    #else
    /* Plain 64-bit fallback (MSVC and other compilers). */
    #  undef LO_AB_VWORDS
    #  define LO_AB_VWORDS 1
    #  ifndef LO_AB_LEVELS
    #    define LO_AB_LEVELS 4
    #  endif
    typedef uint64_t lo_abv;
    #  if defined(_MSC_VER)
    #    define LO_AB_INLINE static __forceinline
    #  else
    #    define LO_AB_INLINE static inline
    #  endif
    #endif

    /* Words per scratch row of one lane: the older slot then the newer slot. */
    #define LO_AB_RS (2 * LO_AB_VWORDS)
    #define LO_AB_LD(ptr) (*(const lo_abv *)(ptr))
    #define LO_AB_ST(ptr, v) (*(lo_abv *)(ptr) = (v))

    /* One position p of the wavefront.  N, LT, PV: per level i, the row it
       computes now (p-i+1), and its rows p-i and p-i-1 from the two previous
       positions; level i's row p-i+1 is the T stencil of level i-1's rows
       p-i, p-i+1, p-i+2 (PV, LT, N) plus level i-2's row p-i+1.  MASKED zeroes rows outside [lo, hi) and skips their loads
       and stores (the ends of a sweep). */
    #define LO_AB_STEP(N, LT, PV, pos, MASKED) do {                                  \
        const ptrdiff_t p_ = (pos);                                                \
        lo_abv xm_ = zero;                                                         \
        if (!(MASKED) || (p_ >= lo && p_ < hi))                                    \
            xm_ = LO_AB_LD(base + (p_ + 1) * LO_AB_RS);                            \
        N[0] = zero;                                                               \
        if (!(MASKED) || (p_ + 1 >= lo && p_ + 1 < hi))                            \
            N[0] = LO_AB_LD(base + (p_ + 2) * LO_AB_RS + LO_AB_VWORDS);            \
        for (int i_ = 1; i_ <= L; i_++) {                                          \
            lo_abv v_ = LO_T_STENCIL(PV[i_ - 1], LT[i_ - 1], N[i_ - 1])              \
                        ^ (i_ == 1 ? xm_ : PV[i_ - 2]);                                \
            if ((MASKED) && (p_ - i_ + 1 < lo || p_ - i_ + 1 >= hi)) v_ = zero;     \
            N[i_] = v_;                                                            \
        }                                                                          \
        if (!(MASKED) || (p_ - L + 1 >= lo && p_ - L + 1 < hi)) {                  \
            LO_AB_ST(base + (p_ - L + 2) * LO_AB_RS, LT[L - 1]);                   \
            LO_AB_ST(base + (p_ - L + 2) * LO_AB_RS + LO_AB_VWORDS, N[L]);         \
        }                                                                          \
    } while (0)

    #define LO_AB_STEP3(p, MASKED) do {                                            \
        LO_AB_STEP(wa, wb, wc, (p), MASKED);                                       \
        LO_AB_STEP(wc, wa, wb, (p) + 1, MASKED);                                   \
        LO_AB_STEP(wb, wc, wa, (p) + 2, MASKED);                                   \
    } while (0)

    /* Advance rows [lo, hi) of one lane from (X_{t-1}, X_t) to
       (X_{t+L-1}, X_{t+L}).  base points at the lane's padded row 0 (the zero
       guard row above board row 0); board row j lives at base + (j+1)*RS.
       Rows outside [lo, hi) must be zero at every level the sweep passes. */
    LO_AB_INLINE void lo_ab_sweep_impl(uint64_t *base, ptrdiff_t lo, ptrdiff_t hi, const int L)
    {
        lo_abv zero;
        lo_abv wa[LO_AB_LEVELS + 1], wb[LO_AB_LEVELS + 1], wc[LO_AB_LEVELS + 1];
        memset(&zero, 0, sizeof zero);
        for (int i = 0; i <= L; i++) { wa[i] = zero; wb[i] = zero; wc[i] = zero; }
        /* Before position lo: LT = rows lo-i, PV = rows lo-i-1, all zero except X_t[lo]. */
        wb[0] = LO_AB_LD(base + (lo + 1) * LO_AB_RS + LO_AB_VWORDS);
        const ptrdiff_t steady_lo = lo + L - 1, steady_hi = hi - 1, end = hi + L - 1;
        ptrdiff_t p = lo;
        for (; p < steady_lo && p < end; p += 3) LO_AB_STEP3(p, 1);
        for (; p + 3 <= steady_hi; p += 3) LO_AB_STEP3(p, 0);
        for (; p < end; p += 3) LO_AB_STEP3(p, 1);
    }

    static void lo_ab_sweep(uint64_t *base, ptrdiff_t lo, ptrdiff_t hi)
    {
        lo_ab_sweep_impl(base, lo, hi, LO_AB_LEVELS);
    }

    static void lo_ab_sweep_1(uint64_t *base, ptrdiff_t lo, ptrdiff_t hi)
    {
        lo_ab_sweep_impl(base, lo, hi, 1);
    }

    """
    int LO_AB_VWORDS
    int LO_AB_LEVELS
    int LO_AB_RS
    void lo_ab_sweep(uint64_t* base, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil
    void lo_ab_sweep_1(uint64_t* base, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil


cdef int _ab_lane(uint64_t* base, Py_ssize_t nrows, Py_ssize_t ncols, Py_ssize_t col_lo,
                  Py_ssize_t col_hi, Poll* poll) noexcept nogil:
    """Run one lane (columns [col_lo, col_hi)) from levels (0, 1) to (R, R+1); a STOP_ status."""
    cdef Py_ssize_t j, t = 1, nlev, lev_end, row_lo, row_hi, i
    cdef int status
    # Level 0 is r_0 = 0; level 1 is r_1 = I restricted to the lane.
    for j in range(col_lo, col_hi):
        base[(j + 1) * LO_AB_RS + LO_AB_VWORDS + (j >> 6) - (col_lo >> 6)] = (<uint64_t>1) << (j & 63)
    while t < nrows + 1:
        nlev = min(<Py_ssize_t>LO_AB_LEVELS, nrows + 1 - t)
        lev_end = t + nlev
        row_lo = max(0, col_lo - lev_end)
        row_hi = min(ncols, col_hi + lev_end)
        if nlev == LO_AB_LEVELS:
            lo_ab_sweep(base, row_lo, row_hi)
        else:
            for i in range(nlev):
                lo_ab_sweep_1(base, row_lo, row_hi)
        t = lev_end
        status = poll_work(poll, (row_hi - row_lo) * nlev)
        if status != STOP_NONE:
            return status
    return STOP_NONE


cdef int _ab_block(Py_ssize_t nrows, Py_ssize_t ncols, Py_ssize_t first_word,
                   const uint64_t* constant, uint64_t* out, Py_ssize_t out_nwords,
                   Poll* poll) noexcept nogil:
    """Words [first_word, first_word + BLOCK_WORDS) of [U_{R+1}(T) | c] (those below out_nwords).

    constant is c (words_for_bits(ncols) words), needed only by the block
    holding column ncols.  Returns 0, a STOP_ status, or -2 if out of memory.
    """
    cdef Py_ssize_t C = ncols, VW = LO_AB_VWORDS, RS = LO_AB_RS
    cdef Py_ssize_t nlanes = BLOCK_WORDS // LO_AB_VWORDS
    cdef Py_ssize_t lane_words = (C + 2) * RS
    cdef Py_ssize_t lane, lw, col_lo, col_hi, j, w
    cdef int status = 0
    cdef void* raw = NULL
    cdef uint64_t* scratch = lo_alloc_aligned(<size_t>(lane_words * nlanes), &raw)
    if scratch == NULL:
        return -2
    try:
        for lane in range(nlanes):
            lw = first_word + lane * VW
            if lw >= out_nwords:
                break
            col_lo = 64 * lw
            col_hi = min(C, 64 * (lw + VW))
            if col_lo < col_hi:
                status = _ab_lane(scratch + lane * lane_words, nrows, C, col_lo, col_hi, poll)
                if status != 0:
                    return status
            for j in range(C):
                for w in range(lw, min(lw + VW, out_nwords)):
                    out[j * out_nwords + w] = scratch[lane * lane_words + (j + 1) * RS + VW + w - lw]
    finally:
        free(raw)
    w = C >> 6
    if first_word <= w < first_word + BLOCK_WORDS:
        for j in range(C):
            if get_bit(constant, j):
                out[j * out_nwords + w] |= (<uint64_t>1) << (C & 63)
    return 0


def ab_block_count(Py_ssize_t ncols):
    """Number of column blocks ab_reduce splits the augmented C x (C+1) system into.

    Example:
        >>> ab_block_count(10000)
        20
    """
    board_size(ncols, "ncols")
    return (words_for_bits(ncols + 1) + BLOCK_WORDS - 1) // BLOCK_WORDS


def ab_reduce(board, Py_ssize_t nrows, Py_ssize_t ncols, out, Py_ssize_t block_start=0,
              Py_ssize_t block_stop=-1, *, cancel=None):
    """Reduce an R x C board to its C x (C+1) system [U_{R+1}(T) | c] by the A/B iteration.

    Row j of the result says: (U_{R+1}(T) f)_j = c_j for the first row f of
    presses; c is the residue of chasing with f = 0.  Fills the column blocks
    [block_start, block_stop) of ``out`` (so threads can share the work; the GIL
    is released) and leaves the other words untouched.

    Args:
        board: packed (nrows, words_for_bits(ncols)) uint64 start state, or None
            for the all-lit board.
        out: C-contiguous writable uint64 array of shape (ncols, words_for_bits(ncols + 1)).
        cancel: None or a C-contiguous numpy uint8 array; the kernel polls cancel[0]
            every millisecond or so of work and stops early once it is nonzero.
            On the main thread it also runs Python's signal handlers as often
            (Ctrl-C raises KeyboardInterrupt within milliseconds).

    Returns:
        True when the blocks are finished, False when cancelled (the blocks'
        content is then unspecified).

    Example:
        >>> import numpy as np
        >>> system = np.zeros((3, 1), dtype=np.uint64)
        >>> ab_reduce(None, 3, 3, system)
        True
        >>> [bin(int(w)) for w in system[:, 0]]   # U_4(T) = T^3 with constant column c = (1, 0, 1)
        ['0b1110', '0b111', '0b1011']
    """
    board_size(nrows, "nrows")
    board_size(ncols, "ncols")
    cdef Py_ssize_t out_nwords = words_for_bits(ncols + 1)
    cdef Py_ssize_t nblocks = ab_block_count(ncols)
    cdef const uint64_t[:, ::1] board_view
    cdef const uint64_t* board_ptr = NULL
    cdef int mode = LIT_ALL
    if board is not None:
        board_view = packed_matrix(board, "board", nbits=ncols, nrows=nrows)
        board_ptr = &board_view[0, 0]
        mode = LIT_BOARD
    # Every word of out in the block range is overwritten: any content is fine.
    cdef uint64_t[:, ::1] out_view = packed_matrix(out, "out", nbits=64 * out_nwords, nrows=ncols,
                                                   writable=True)
    cdef Poll poll = make_poll(cancel, AB_POLL_STEPS)
    if block_stop < 0:
        block_stop = nblocks
    if not (0 <= block_start <= block_stop <= nblocks):
        raise InvalidBoardError(f"block range [{block_start}, {block_stop}) is outside [0, {nblocks})")
    cdef Py_ssize_t block
    cdef int status = 0
    cdef uint64_t* constant = NULL
    try:
        with nogil:
            if block_start <= (ncols >> 6) // BLOCK_WORDS < block_stop:
                constant = <uint64_t*>calloc(words_for_bits(ncols), sizeof(uint64_t))
                if constant == NULL or chase_nogil(board_ptr, mode, nrows, ncols, NULL, constant,
                                                   NULL, NULL) != 0:
                    status = -2
            for block in range(block_start, block_stop):
                if status != 0 or cancelled(&poll):
                    break
                status = _ab_block(nrows, ncols, block * BLOCK_WORDS, constant, &out_view[0, 0],
                                   out_nwords, &poll)
    finally:
        free(constant)
    raise_if_interrupted(status)
    if status == -2:
        raise MemoryError("out of memory allocating A/B iteration scratch")
    return status == 0 and not cancelled(&poll)
