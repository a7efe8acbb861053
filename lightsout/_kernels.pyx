# Grid kernels on bit-packed rows: light chasing and the A/B two-row iteration.
#
# An R x C board is R rows of words_for_bits(C) uint64 words (see _bitrow.pxd
# for the bit layout).  Row k's presses r_k follow from the two rows above by
#     r_{k+1} = T r_k + r_{k-1} + b_k      (r_0 = 0, r_1 = the first row)
# where T = I + P (P = adjacency of the path on C cells) and b_k is row k of the
# start state; the board is dark iff the virtual row r_{R+1} is zero.  See
# shared/design/algebra.md section 1.
#
# The neighbour structure lives in two places only: lo_chase_words below (the
# within-row neighbours of T, as chase_step/apply_T in _bitrow.pxd) and the
# three-row stencil LO_AB_STEP (neighbours across rows).  Another slice
# operator (a torus row, a (d-1)-dimensional slice) slots in there.
#
# This file is compiled once per SIMD level (see setup.py); def functions check
# their arguments with the GIL, then run the cdef core inside `with nogil`.

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc

from lightsout._bitrow cimport (
    copy_row, get_bit, tail_mask, words_for_bits,
)

import numpy as np

cdef enum:
    # Column block of the A/B iteration: 8 words = 512 bit columns, run as
    # lanes of one SIMD vector each (see LO_AB_VWORDS).
    BLOCK_WORDS = 8
    # About this many word operations between two returns to Python.
    CHUNK_WORD_OPS = 1 << 25
    # Words per tile of the chase's temporal blocking: two rows of it plus a
    # board row stay well inside a 32 KiB L1d.
    CHASE_TILE_WORDS = 512


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

# Temporal blocking over words.  Word i of r_{k+1} needs words i-1..i+1 of r_k
# and word i of r_{k-1}, so a chunk of steps runs as tiles of CHASE_TILE_WORDS
# words, each skewed one word left per step (tile a covers words
# [a - s, a + CHASE_TILE_WORDS - s) at step s): a tile's rows stay in L1 for all
# the chunk's steps instead of every step streaming three whole rows through
# L2.  Tiles run left to right, so everything a word needs is already computed
# (the word to its right by this tile one step earlier, the word to its left by
# this tile or the previous one), and r_{k+1} can overwrite r_{k-1} in place:
# the two rows alternate, r_k in rows[k & 1].

cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    #include <string.h>
    #if defined(_MSC_VER)
    #define LO_CH_RESTRICT __restrict
    #else
    #define LO_CH_RESTRICT __restrict__
    #endif

    /* acc[i] ^= (T cur)[i] ^ lit[i] for words [lo, hi) of an nwords-word row
       (edges read as zero); lit == NULL means all ones (the all-lit board: one
       load stream fewer).  tail masks the row's last word. */
    #if defined(_MSC_VER)
    #define LO_CH_INLINE static __forceinline
    #else
    #define LO_CH_INLINE static inline __attribute__((always_inline))
    #endif
    #define LO_CH_LIT(i) (lit != NULL ? lit[i] : ~(uint64_t)0)
    LO_CH_INLINE void lo_chase_words(uint64_t *LO_CH_RESTRICT acc, const uint64_t *LO_CH_RESTRICT cur,
                                     const uint64_t *LO_CH_RESTRICT lit, ptrdiff_t lo, ptrdiff_t hi,
                                     ptrdiff_t nwords, uint64_t tail)
    {
        uint64_t w;
        ptrdiff_t i, mid_hi;
        if (lo >= hi) return;
        if (lo == 0) {
            w = cur[0];
            acc[0] ^= w ^ (w << 1) ^ ((w >> 1) | (nwords > 1 ? cur[1] << 63 : 0)) ^ LO_CH_LIT(0);
            if (nwords == 1) acc[0] &= tail;
            lo = 1;
        }
        mid_hi = hi < nwords - 1 ? hi : nwords - 1;
        for (i = lo; i < mid_hi; i++) {
            w = cur[i];
            acc[i] ^= w ^ ((w << 1) | (cur[i - 1] >> 63)) ^ ((w >> 1) | (cur[i + 1] << 63)) ^ LO_CH_LIT(i);
        }
        if (hi == nwords && nwords > 1 && lo <= nwords - 1) {
            i = nwords - 1;
            w = cur[i];
            acc[i] = (acc[i] ^ w ^ ((w << 1) | (cur[i - 1] >> 63)) ^ (w >> 1) ^ LO_CH_LIT(i)) & tail;
        }
    }

    static void lo_chase_words_lit(uint64_t *acc, const uint64_t *cur, const uint64_t *lit,
                                   ptrdiff_t lo, ptrdiff_t hi, ptrdiff_t nwords, uint64_t tail)
    {
        lo_chase_words(acc, cur, lit, lo, hi, nwords, tail);
    }

    static void lo_chase_words_all_lit(uint64_t *acc, const uint64_t *cur,
                                       ptrdiff_t lo, ptrdiff_t hi, ptrdiff_t nwords, uint64_t tail)
    {
        lo_chase_words(acc, cur, NULL, lo, hi, nwords, tail);
    }

    /* Rows r_k live in rows[k & 1]; computes r_{k+1} for k = k0 .. k1-1 by
       skewed tiles of `tile` words.  b_k is board row k-1, or all ones when
       board is NULL.  When presses is not NULL, its row k-1 receives r_k. */
    static void lo_chase_tiled(uint64_t *row0, uint64_t *row1, const uint64_t *board,
                               ptrdiff_t nwords, uint64_t tail,
                               ptrdiff_t k0, ptrdiff_t k1, uint64_t *presses, ptrdiff_t tile)
    {
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
                if (board != NULL)
                    lo_chase_words_lit(rows[(k + 1) & 1], rows[k & 1], board + (k - 1) * nwords,
                                       lo, hi, nwords, tail);
                else
                    lo_chase_words_all_lit(rows[(k + 1) & 1], rows[k & 1], lo, hi, nwords, tail);
            }
        }
    }
    """
    void lo_chase_tiled(uint64_t* row0, uint64_t* row1, const uint64_t* board,
                        Py_ssize_t nwords, uint64_t tail,
                        Py_ssize_t k0, Py_ssize_t k1, uint64_t* presses, Py_ssize_t tile) noexcept nogil


cdef struct ChaseState:
    uint64_t* older       # r_{k-1}
    uint64_t* newer       # r_k
    Py_ssize_t step       # k: rows r_0..r_k are known


cdef int _chase_init(ChaseState* st, const uint64_t* first_row, Py_ssize_t nwords,
                     Py_ssize_t ncols) noexcept nogil:
    st.older = <uint64_t*>calloc(nwords, sizeof(uint64_t))
    st.newer = <uint64_t*>calloc(nwords, sizeof(uint64_t))
    if st.older == NULL or st.newer == NULL:
        return -1
    copy_row(st.newer, first_row, nwords)
    st.step = 1
    return 0


cdef void _chase_free(ChaseState* st) noexcept nogil:
    free(st.older)
    free(st.newer)


cdef void _chase_run(ChaseState* st, const uint64_t* board, Py_ssize_t nwords, Py_ssize_t ncols,
                     Py_ssize_t last_step, uint64_t* presses) noexcept nogil:
    """Advance to r_{last_step}: computes r_{k+1} for k = st.step .. last_step-1.

    When presses is not NULL, row k-1 of it receives r_k (0-based rows).
    """
    cdef Py_ssize_t k = st.step
    cdef uint64_t* rows[2]
    if last_step <= k:
        return
    rows[k & 1] = st.newer
    rows[(k + 1) & 1] = st.older
    lo_chase_tiled(rows[0], rows[1], board, nwords, tail_mask(ncols), k, last_step,
                   presses, CHASE_TILE_WORDS)
    st.newer = rows[last_step & 1]
    st.older = rows[(last_step + 1) & 1]
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
        0
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
# that chase), computed once by _chase_residue and or-ed in at the end, so every
# block, the constant one included, runs the same banded kernel for any board.

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
       positions.  MASKED zeroes rows outside [lo, hi) and skips their loads
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
            lo_abv v_ = N[i_ - 1] ^ LT[i_ - 1] ^ PV[i_ - 1] ^ (i_ == 1 ? xm_ : PV[i_ - 2]); \
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

    /* Zeroed scratch aligned to 64 bytes: returns the aligned pointer and the
       one to free through *raw. */
    static uint64_t *lo_ab_alloc(size_t nwords, void **raw)
    {
        char *p = (char *)calloc(nwords * sizeof(uint64_t) + 64, 1);
        *raw = p;
        if (p == NULL) return NULL;
        return (uint64_t *)(p + (64 - ((uintptr_t)p & 63)));
    }
    """
    int LO_AB_VWORDS
    int LO_AB_LEVELS
    int LO_AB_RS
    void lo_ab_sweep(uint64_t* base, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil
    void lo_ab_sweep_1(uint64_t* base, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil
    uint64_t* lo_ab_alloc(size_t nwords, void** raw) noexcept nogil


cdef int _chase_residue(const uint64_t* board, Py_ssize_t nrows, Py_ssize_t ncols,
                        uint64_t* dst) noexcept nogil:
    """dst = r_{R+1} with first row 0: the constant column c of the reduced system."""
    cdef Py_ssize_t nwords = words_for_bits(ncols)
    cdef ChaseState st
    cdef uint64_t* zero = <uint64_t*>calloc(nwords, sizeof(uint64_t))
    cdef int status = -1
    if zero != NULL and _chase_init(&st, zero, nwords, ncols) == 0:
        _chase_run(&st, board, nwords, ncols, nrows + 1, NULL)
        copy_row(dst, st.newer, nwords)
        status = 0
    _chase_free(&st)
    free(zero)
    return status


cdef int _ab_block(Py_ssize_t nrows, Py_ssize_t ncols, Py_ssize_t first_word,
                   const uint64_t* constant, uint64_t* out, Py_ssize_t out_nwords) noexcept nogil:
    """Words [first_word, first_word + BLOCK_WORDS) of [U_{R+1}(T) | c] (those below out_nwords).

    constant is c (words_for_bits(ncols) words), needed only by the block
    holding column ncols.
    """
    cdef Py_ssize_t C = ncols, VW = LO_AB_VWORDS, RS = LO_AB_RS
    cdef Py_ssize_t nlanes = BLOCK_WORDS // LO_AB_VWORDS
    cdef Py_ssize_t lane_words = (C + 2) * RS
    cdef Py_ssize_t lane, lw, col_lo, col_hi, j, w, t, nlev, lev_end, row_lo, row_hi, i
    cdef uint64_t* base
    cdef void* raw
    cdef uint64_t* scratch = lo_ab_alloc(<size_t>(lane_words * nlanes), &raw)
    if scratch == NULL:
        free(raw)
        return -1
    for lane in range(nlanes):
        lw = first_word + lane * VW
        if lw >= out_nwords:
            break
        base = scratch + lane * lane_words
        col_lo = 64 * lw
        col_hi = min(C, 64 * (lw + VW))
        if col_lo < col_hi:
            # Level 0 is r_0 = 0; level 1 is r_1 = I restricted to the lane.
            for j in range(col_lo, col_hi):
                base[(j + 1) * RS + VW + (j >> 6) - lw] = (<uint64_t>1) << (j & 63)
            t = 1
            while t < nrows + 1:
                nlev = min(<Py_ssize_t>LO_AB_LEVELS, nrows + 1 - t)
                lev_end = t + nlev
                row_lo = max(0, col_lo - lev_end)
                row_hi = min(C, col_hi + lev_end)
                if nlev == LO_AB_LEVELS:
                    lo_ab_sweep(base, row_lo, row_hi)
                else:
                    for i in range(nlev):
                        lo_ab_sweep_1(base, row_lo, row_hi)
                t = lev_end
        for j in range(C):
            for w in range(lw, min(lw + VW, out_nwords)):
                out[j * out_nwords + w] = base[(j + 1) * RS + VW + w - lw]
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
    cdef uint64_t* constant = NULL
    with nogil:
        if block_start <= (ncols >> 6) // BLOCK_WORDS < block_stop:
            constant = <uint64_t*>calloc(nwords, sizeof(uint64_t))
            status = -1 if constant == NULL else _chase_residue(board_ptr, nrows, ncols, constant)
        if status == 0:
            for block in range(block_start, block_stop):
                status = _ab_block(nrows, ncols, block * BLOCK_WORDS, constant, &out_view[0, 0], out_nwords)
                if status != 0:
                    break
        free(constant)
    if status != 0:
        raise MemoryError("out of memory allocating A/B iteration scratch")
