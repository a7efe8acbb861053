# The row chase: two-state stencils on open 2-D boards whose forcing row is solved in
# linear time (docs/algebra.md section 14, "Whole rows at a time").
#
# A stencil is a list of entries (dr, dc): pressing cell (r, c) toggles cell (r + dr, c + dc),
# past an edge dropped.  Light row i meets press rows i - dr; the latest of them, f = i + up
# (up = -min dr >= 0), meets it through the forcing row's entries alone, and those make one of
# two operators on an open row: the identity (one entry, dc = 0) or x -> x shifted by a plus x
# shifted by -a (entries dc = -a and dc = +a), which is invertible exactly when every residue
# class of the columns mod a has an even number of cells (a path of even length).  So light row i
# fixes press row f = F^-1 (lights_i + the other entries' rows), in O(columns) whole-cell xors;
# press rows 0 .. up-1 are free and light rows nrows-up .. nrows-1 are the reduced system.
#
# A cell holds `width` words.  The symbolic run gives each free press one bit (its unknown) and
# the lights' constant one more, over as many runs as the words need, each run a block of
# `width` words; the numeric run gives each cell one bit a vector of unknowns.  Only the rows a
# light row still meets are kept: a ring of (max dr - min dr + 1) rows, padded by the stencil's
# column reach on each side so a shifted row is one pointer and the xors run over whole rows.
# Loops run without the GIL and poll the cancel token (lightsout/_kernels/cancel.pxd).
# Compiled once per SIMD level (lightsout/_kernels/registry.py): the row xors are plain C loops
# on restrict pointers that GCC vectorises.

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport calloc, free

from lightsout._kernels.arrays cimport raw_array
from lightsout._kernels.cancel cimport STOP_NONE, Poll, make_poll, poll_work, raise_if_interrupted

import numpy as np

cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    #include <string.h>
    #if defined(_MSC_VER)
    #define RC_RESTRICT __restrict
    #else
    #define RC_RESTRICT __restrict__
    #endif
    #ifndef LIGHTSOUT_SIMD_LEVEL
    #define LIGHTSOUT_SIMD_LEVEL "generic"
    #endif
    #if defined(_MSC_VER)
    #define RC_INLINE static __forceinline
    #else
    #define RC_INLINE static inline __attribute__((always_inline))
    #endif
    /* acc ^= cell p of the light row's sum: every source row's cell p (a source is a row already
       shifted by its entry's column offset) and the lights' constant. */
    RC_INLINE void rc_add_cell(uint64_t *RC_RESTRICT acc, const uint64_t *const *src, ptrdiff_t nsrc,
                               const uint8_t *lit, ptrdiff_t cw, uint64_t cbit, ptrdiff_t p, const ptrdiff_t W) {
        for (ptrdiff_t s = 0; s < nsrc; s++) {
            const uint64_t *RC_RESTRICT q = src[s] + p * W;
            for (ptrdiff_t w = 0; w < W; w++) acc[w] ^= q[w];
        }
        if (cw >= 0) acc[cw] ^= cbit & ((uint64_t)0 - (uint64_t)lit[p]);
    }
    /* Press row x from its light row's sum c, never stored: x[j - a] ^ x[j + a] = c[j] for every
       cell j < ncols (cells outside read 0), each cell W words; a = 0 is the identity.  Along each
       residue class p_0, p_1, .. p_{L-1} (L even) the odd places are running sums of the even
       places' c from the left end, the even places running sums of the odd places' c from the right. */
    RC_INLINE void rc_force_row(uint64_t *RC_RESTRICT x, const uint64_t *const *src, ptrdiff_t nsrc,
                                const uint8_t *lit, ptrdiff_t cw, uint64_t cbit, ptrdiff_t ncols, ptrdiff_t a,
                                const ptrdiff_t W) {
        uint64_t acc[16];
        ptrdiff_t r, k, w, L;
        if (a == 0) {
            for (k = 0; k < ncols; k++) {
                for (w = 0; w < W; w++) acc[w] = 0;
                rc_add_cell(acc, src, nsrc, lit, cw, cbit, k, W);
                for (w = 0; w < W; w++) x[k * W + w] = acc[w];
            }
            return;
        }
        for (r = 0; r < a && r < ncols; r++) {
            L = (ncols - r + a - 1) / a;
            for (w = 0; w < W; w++) acc[w] = 0;
            for (k = 0; k < L; k += 2) {
                rc_add_cell(acc, src, nsrc, lit, cw, cbit, r + k * a, W);
                for (w = 0; w < W; w++) x[(r + (k + 1) * a) * W + w] = acc[w];
            }
            for (w = 0; w < W; w++) acc[w] = 0;
            for (k = L - 1; k > 0; k -= 2) {
                rc_add_cell(acc, src, nsrc, lit, cw, cbit, r + k * a, W);
                for (w = 0; w < W; w++) x[(r + (k - 1) * a) * W + w] = acc[w];
            }
        }
    }
    #if defined(__GNUC__)
    /* A cell of W words as one vector value, so the running sums stay in registers. */
    #define RC_FORCE(W) \
        typedef uint64_t rc_vec##W __attribute__((vector_size((W) * 8))); \
        static void rc_force_##W(uint64_t *RC_RESTRICT x, const uint64_t *const *src, ptrdiff_t nsrc, \
                                 const uint8_t *lit, ptrdiff_t cw, uint64_t cbit, ptrdiff_t ncols, ptrdiff_t a) { \
            rc_vec##W acc, v, constant = {0}; \
            ptrdiff_t r, k, s, L, p; \
            if (cw >= 0) constant[cw] = cbit; \
            for (r = 0; r < (a ? a : 1) && r < ncols; r++) { \
                L = a ? (ncols - r + a - 1) / a : ncols; \
                for (int half = 0; half < (a ? 2 : 1); half++) { \
                    acc ^= acc; \
                    for (k = half ? L - 1 : 0; half ? k > 0 : k < L; k += half ? -2 : (a ? 2 : 1)) { \
                        p = r + k * (a ? a : 1); \
                        if (a == 0) acc ^= acc; \
                        for (s = 0; s < nsrc; s++) { memcpy(&v, src[s] + p * (W), sizeof v); acc ^= v; } \
                        if (cw >= 0) acc ^= constant & ((uint64_t)0 - (uint64_t)lit[p]); \
                        p = a == 0 ? p : r + (half ? k - 1 : k + 1) * a; \
                        memcpy(x + p * (W), &acc, sizeof acc); \
                    } \
                } \
            } \
        }
    #else
    #define RC_FORCE(W) \
        static void rc_force_##W(uint64_t *RC_RESTRICT x, const uint64_t *const *src, ptrdiff_t nsrc, \
                                 const uint8_t *lit, ptrdiff_t cw, uint64_t cbit, ptrdiff_t ncols, ptrdiff_t a) { \
            rc_force_row(x, src, nsrc, lit, cw, cbit, ncols, a, W); \
        }
    #endif
    RC_FORCE(1) RC_FORCE(2) RC_FORCE(4) RC_FORCE(8) RC_FORCE(16)
    /* Any width up to 16, at a run-time width (the last block of a run). */
    static void rc_force_any(uint64_t *RC_RESTRICT x, const uint64_t *const *src, ptrdiff_t nsrc,
                             const uint8_t *lit, ptrdiff_t cw, uint64_t cbit, ptrdiff_t ncols, ptrdiff_t a,
                             ptrdiff_t width) {
        switch (width) {
        case 1: rc_force_1(x, src, nsrc, lit, cw, cbit, ncols, a); break;
        case 2: rc_force_2(x, src, nsrc, lit, cw, cbit, ncols, a); break;
        case 4: rc_force_4(x, src, nsrc, lit, cw, cbit, ncols, a); break;
        case 8: rc_force_8(x, src, nsrc, lit, cw, cbit, ncols, a); break;
        case 16: rc_force_16(x, src, nsrc, lit, cw, cbit, ncols, a); break;
        default: rc_force_row(x, src, nsrc, lit, cw, cbit, ncols, a, width);
        }
    }
    /* Cell p of a light row's sum into out (width words). */
    static void rc_cell_sum(uint64_t *RC_RESTRICT out, const uint64_t *const *src, ptrdiff_t nsrc,
                            const uint8_t *lit, ptrdiff_t cw, uint64_t cbit, ptrdiff_t p, ptrdiff_t width) {
        uint64_t acc[16];
        for (ptrdiff_t w = 0; w < width; w++) acc[w] = 0;
        rc_add_cell(acc, src, nsrc, lit, cw, cbit, p, width);
        for (ptrdiff_t w = 0; w < width; w++) out[w] = acc[w];
    }
    """
    const char* LIGHTSOUT_SIMD_LEVEL
    void force_row "rc_force_any"(uint64_t* x, const uint64_t* const* src, Py_ssize_t nsrc, const uint8_t* lit,
                                  Py_ssize_t cw, uint64_t cbit, Py_ssize_t ncols, Py_ssize_t a,
                                  Py_ssize_t width) noexcept nogil
    void cell_sum "rc_cell_sum"(uint64_t* out, const uint64_t* const* src, Py_ssize_t nsrc, const uint8_t* lit,
                                Py_ssize_t cw, uint64_t cbit, Py_ssize_t p, Py_ssize_t width) noexcept nogil

SIMD_LEVEL = LIGHTSOUT_SIMD_LEVEL.decode()

cdef enum:
    # cell words between two looks at the cancel flag: about a millisecond of xors
    WORK_PER_POLL = 1 << 17
    # the most entries outside the forcing row (a 16 x 16 stencil less one row)
    MAX_OTHER_ENTRIES = 256
    # the most words a cell holds in one run (the sums are kept in registers)
    MAX_WIDTH = 16

MAX_ENTRIES = MAX_OTHER_ENTRIES
MAX_BLOCK_WORDS = MAX_WIDTH


def forcing_invertible(Py_ssize_t ncols, Py_ssize_t a):
    """Whether the forcing operator x -> x(j - a) + x(j + a) is invertible on an open row of ncols
    cells (a = 0: the identity, always): every residue class mod a has an even number of cells.

    Example:
        >>> forcing_invertible(10, 1), forcing_invertible(9, 1), forcing_invertible(8, 2)
        (True, False, True)
    """
    cdef Py_ssize_t r
    if a < 0 or ncols < 1:
        return False
    if a == 0:
        return True
    for r in range(min(a, ncols)):
        if ((ncols - r + a - 1) // a) % 2:
            return False
    return True


cdef struct Run:
    int64_t nrows, ncols, up, pair, width, pad, ring, stride
    int64_t nother
    const int64_t* dr
    const int64_t* dc
    const uint8_t* lights          # nrows * ncols, or NULL: no constant
    int64_t const_word             # the word of a cell the constant goes to (-1: none)
    uint64_t const_bit
    const uint64_t* init           # up * ncols cells: the free rows
    uint64_t* equations            # (up * ncols) rows of eq_words words, or NULL
    int64_t eq_words, eq_start
    uint8_t* presses               # (nvec, nrows * ncols), or NULL
    int64_t nvec
    uint64_t* store                # the ring, ring * stride words
    uint64_t* scratch              # one cell, width words


cdef inline uint64_t* row_at(Run* r, int64_t row) noexcept nogil:
    """Cell 0 of press row `row` in the ring (the padding before it reads 0)."""
    return r.store + (row % r.ring) * r.stride + r.pad * r.width


cdef inline void put_presses(Run* r, int64_t row) noexcept nogil:
    """Bit v of every cell of press row `row` (word 0) into presses[v]."""
    cdef uint64_t* x = row_at(r, row)
    cdef int64_t j, v, cells = r.nrows * r.ncols
    cdef uint8_t* out
    for v in range(r.nvec):
        out = r.presses + v * cells + row * r.ncols
        for j in range(r.ncols):
            out[j] = (x[j * r.width] >> v) & 1


cdef int64_t run_rows(Run* r, Poll* poll, int* status) noexcept nogil:
    """The chase over every light row; the number of equation words that are not 0 when no
    equations are kept (the numeric run's check), else 0."""
    cdef int64_t i, j, w, e, src, f, eq, nonzero = 0, cell_words = r.ncols * r.width
    cdef const uint64_t* sources[MAX_OTHER_ENTRIES]
    cdef Py_ssize_t nsrc
    cdef uint64_t* c = r.scratch
    cdef const uint8_t* lit
    for i in range(r.up):
        memcpy(row_at(r, i), r.init + i * cell_words, <size_t>(cell_words * 8))
        if r.presses != NULL:
            put_presses(r, i)
    for i in range(r.nrows):
        status[0] = poll_work(poll, cell_words * (r.nother + 1))
        if status[0] != STOP_NONE:
            return 0
        nsrc = 0
        for e in range(r.nother):
            src = i - r.dr[e]
            if 0 <= src < r.nrows:
                sources[nsrc] = row_at(r, src) - r.dc[e] * r.width
                nsrc += 1
        lit = r.lights + i * r.ncols if r.const_word >= 0 else NULL
        f = i + r.up
        if f < r.nrows:
            force_row(row_at(r, f), sources, nsrc, lit, r.const_word, r.const_bit, r.ncols, r.pair, r.width)
            if r.presses != NULL:
                put_presses(r, f)
            continue
        eq = (i - (r.nrows - r.up)) * r.ncols
        for j in range(r.ncols):
            if r.equations != NULL:
                cell_sum(r.equations + (eq + j) * r.eq_words + r.eq_start, sources, nsrc, lit, r.const_word,
                         r.const_bit, j, r.width)
            else:
                cell_sum(c, sources, nsrc, lit, r.const_word, r.const_bit, j, r.width)
                for w in range(r.width):
                    nonzero += c[w] != 0
    return nonzero


def chase(Py_ssize_t nrows, Py_ssize_t ncols, dr, dc, Py_ssize_t up, Py_ssize_t pair, lights,
          Py_ssize_t const_word, uint64_t const_bit, init, equations, Py_ssize_t eq_start, presses,
          cancel=None):
    """One run of the row chase over a block of `width` words a cell.

    Args:
        nrows, ncols: the board (nrows > up).
        dr, dc: int64 arrays, the entries outside the forcing row (min dr < every dr).
        up: -(the forcing row's dr), the free rows.
        pair: the forcing row: 0 the identity, a > 0 the entries dc = -a and +a (invertible on
            ncols cells: see forcing_invertible).
        lights: uint8 (nrows * ncols,) or None; with const_word >= 0 a lit cell xors const_bit
            into word const_word of its light row's sum.
        init: uint64 (up * ncols, width), the free rows' cells.
        equations: None, or uint64 (up * ncols, eq_words): columns eq_start .. eq_start + width
            receive light rows nrows - up .. nrows - 1.
        presses: None, or uint8 (nvec, nrows * ncols), nvec <= 64: bit v of each cell's word 0.
        cancel: the cancel flag (lightsout/_kernels/cancel.pxd).

    Returns:
        None when cancelled; else the number of nonzero equation words when `equations` is None,
        0 otherwise.
    """
    cdef const int64_t[::1] dr_v = raw_array(dr, "dr", np.int64, None, 1, False)
    cdef const int64_t[::1] dc_v = raw_array(dc, "dc", np.int64, (dr_v.shape[0],), 1, False)
    cdef const uint64_t[:, ::1] init_v = raw_array(init, "init", np.uint64, None, 2, False)
    cdef const uint8_t[::1] lights_v
    cdef uint64_t[:, ::1] eq_v
    cdef uint8_t[:, ::1] press_v
    cdef Run r
    cdef Poll poll
    cdef int status = STOP_NONE
    cdef int64_t reach, e, dr_min, dr_max, nonzero
    if nrows < 1 or ncols < 1 or up < 0 or nrows <= up or pair < 0 or dr_v.shape[0] > MAX_OTHER_ENTRIES:
        raise ValueError("the row chase takes nrows > up >= 0, ncols >= 1, pair >= 0 and at most "
                         f"{MAX_OTHER_ENTRIES} entries")
    if not forcing_invertible(ncols, pair):
        raise ValueError(f"the forcing row (pair {pair}) is singular on {ncols} columns")
    r.width = init_v.shape[1]
    if init_v.shape[0] != up * ncols or not 1 <= r.width <= MAX_WIDTH:
        raise ValueError(f"init must be ({up * ncols}, width 1..{MAX_WIDTH}), got {tuple(init.shape)}")
    r.nrows, r.ncols, r.up, r.pair, r.nother = nrows, ncols, up, pair, dr_v.shape[0]
    reach, dr_min, dr_max = pair, -up, -up
    for e in range(r.nother):
        if dr_v[e] <= -up:
            raise ValueError("every entry outside the forcing row must lie below it (dr > -up)")
        reach = max(reach, abs(dc_v[e]))
        dr_max = max(dr_max, dr_v[e])
    r.pad, r.ring = reach, dr_max - dr_min + 1
    r.stride = (ncols + 2 * reach) * r.width
    r.dr = &dr_v[0] if r.nother else NULL
    r.dc = &dc_v[0] if r.nother else NULL
    r.init = &init_v[0, 0] if up else NULL
    r.lights, r.const_word, r.const_bit = NULL, -1, const_bit
    if const_word >= 0:
        if const_word >= r.width or lights is None:
            raise ValueError("const_word must be a word of the block, with the lights given")
        lights_v = raw_array(lights, "lights", np.uint8, (nrows * ncols,), 1, False)
        r.lights, r.const_word = &lights_v[0], const_word
    r.equations, r.eq_words, r.eq_start = NULL, 0, eq_start
    if equations is not None:
        eq_v = raw_array(equations, "equations", np.uint64, None, 2, True)
        if eq_v.shape[0] != up * ncols or eq_start < 0 or eq_start + r.width > eq_v.shape[1]:
            raise ValueError(f"equations must be ({up * ncols}, >= {eq_start + r.width}) words")
        r.equations, r.eq_words = &eq_v[0, 0] if up else NULL, eq_v.shape[1]
        if not up:
            r.equations = NULL
    r.presses, r.nvec = NULL, 0
    if presses is not None:
        press_v = raw_array(presses, "presses", np.uint8, None, 2, True)
        if press_v.shape[1] != nrows * ncols or press_v.shape[0] > 64:
            raise ValueError(f"presses must be (<= 64, {nrows * ncols})")
        if press_v.shape[0]:
            r.presses, r.nvec = &press_v[0, 0], press_v.shape[0]
    poll = make_poll(cancel, WORK_PER_POLL)
    r.store = <uint64_t*>calloc(r.ring * r.stride + 1, 8)
    r.scratch = <uint64_t*>calloc(r.width + 1, 8)
    if r.store == NULL or r.scratch == NULL:
        free(r.store)
        free(r.scratch)
        raise MemoryError("the row chase's ring of rows")
    try:
        with nogil:
            nonzero = run_rows(&r, &poll, &status)
    finally:
        free(r.store)
        free(r.scratch)
    raise_if_interrupted(status)
    if status != STOP_NONE:
        return None
    return nonzero
