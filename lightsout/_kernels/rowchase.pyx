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
    /* One sweep along a residue class of the row: for t = 0 .. count-1 (from the far end when
       backward) the cell sum c = (every source's cell t) ^ (the lights' constant at lit[t * step])
       goes to out[t], added to the sums before it when running (a path of the pair's forcing row),
       alone otherwise (the identity).  A cell is W words; the sources are rows already placed at
       the class and shift of their entry. */
    #if defined(__GNUC__)
    /* A cell of W words as one vector value, so the running sum stays in registers. */
    #define RC_SWEEP(W) \
        typedef uint64_t rc_vec##W __attribute__((vector_size((W) * 8))); \
        static void rc_sweep_##W(uint64_t *RC_RESTRICT out, const uint64_t *const *src, ptrdiff_t nsrc, \
                                 const uint8_t *lit, ptrdiff_t step, ptrdiff_t cw, uint64_t cbit, \
                                 ptrdiff_t count, int backward, int running) { \
            rc_vec##W acc, v, constant; \
            ptrdiff_t t, k, s; \
            acc ^= acc; \
            constant ^= constant; \
            if (cw >= 0) constant[cw] = cbit; \
            for (t = 0; t < count; t++) { \
                k = backward ? count - 1 - t : t; \
                if (!running) acc ^= acc; \
                for (s = 0; s < nsrc; s++) { memcpy(&v, src[s] + k * (W), sizeof v); acc ^= v; } \
                if (cw >= 0) acc ^= constant & ((uint64_t)0 - (uint64_t)lit[k * step]); \
                memcpy(out + k * (W), &acc, sizeof acc); \
            } \
        }
    #else
    #define RC_SWEEP(W) \
        static void rc_sweep_##W(uint64_t *RC_RESTRICT out, const uint64_t *const *src, ptrdiff_t nsrc, \
                                 const uint8_t *lit, ptrdiff_t step, ptrdiff_t cw, uint64_t cbit, \
                                 ptrdiff_t count, int backward, int running) { \
            rc_sweep_any(out, src, nsrc, lit, step, cw, cbit, count, backward, running, W); \
        }
    #endif
    static void rc_sweep_any(uint64_t *RC_RESTRICT out, const uint64_t *const *src, ptrdiff_t nsrc,
                             const uint8_t *lit, ptrdiff_t step, ptrdiff_t cw, uint64_t cbit, ptrdiff_t count,
                             int backward, int running, ptrdiff_t width) {
        uint64_t acc[16];
        ptrdiff_t t, k, s, w;
        for (w = 0; w < width; w++) acc[w] = 0;
        for (t = 0; t < count; t++) {
            k = backward ? count - 1 - t : t;
            if (!running) for (w = 0; w < width; w++) acc[w] = 0;
            for (s = 0; s < nsrc; s++) {
                const uint64_t *RC_RESTRICT q = src[s] + k * width;
                for (w = 0; w < width; w++) acc[w] ^= q[w];
            }
            if (cw >= 0) acc[cw] ^= cbit & ((uint64_t)0 - (uint64_t)lit[k * step]);
            for (w = 0; w < width; w++) out[k * width + w] = acc[w];
        }
    }
    RC_SWEEP(1) RC_SWEEP(2) RC_SWEEP(4) RC_SWEEP(8)
    static void rc_sweep(uint64_t *RC_RESTRICT out, const uint64_t *const *src, ptrdiff_t nsrc, const uint8_t *lit,
                         ptrdiff_t step, ptrdiff_t cw, uint64_t cbit, ptrdiff_t count, int backward, int running,
                         ptrdiff_t width) {
        switch (width) {
        case 1: rc_sweep_1(out, src, nsrc, lit, step, cw, cbit, count, backward, running); break;
        case 2: rc_sweep_2(out, src, nsrc, lit, step, cw, cbit, count, backward, running); break;
        case 4: rc_sweep_4(out, src, nsrc, lit, step, cw, cbit, count, backward, running); break;
        case 8: rc_sweep_8(out, src, nsrc, lit, step, cw, cbit, count, backward, running); break;
        default: rc_sweep_any(out, src, nsrc, lit, step, cw, cbit, count, backward, running, width);
        }
    }
    """
    const char* LIGHTSOUT_SIMD_LEVEL
    void sweep "rc_sweep"(uint64_t* out, const uint64_t* const* src, Py_ssize_t nsrc, const uint8_t* lit,
                          Py_ssize_t step, Py_ssize_t cw, uint64_t cbit, Py_ssize_t count, int backward, int running,
                          Py_ssize_t width) noexcept nogil

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
    int64_t nrows, ncols, up, pair, width, nother
    # a stored row: `classes` blocks, one per residue class of the columns mod 2a (one block for the
    # identity), each `pad` zero cells, the class's cells in order (`cap` places), `pad` zero cells;
    # so a sweep along a class reads and writes runs of consecutive cells, and a shifted source is a
    # pointer into the padding or the class next to it
    int64_t classes, cap, pad, block, ring, stride
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


cdef inline int64_t floor_div(int64_t a, int64_t b) noexcept nogil:
    cdef int64_t q = a // b
    return q - 1 if (a % b != 0 and (a < 0) != (b < 0)) else q


cdef inline uint64_t* cell_at(Run* r, int64_t row, int64_t p) noexcept nogil:
    """Column p (any int within the padding) of press row `row` in the ring."""
    cdef int64_t q = floor_div(p, r.classes)
    return r.store + (row % r.ring) * r.stride + ((p - q * r.classes) * r.block + r.pad + q) * r.width


cdef inline void put_presses(Run* r, int64_t row) noexcept nogil:
    """Bit v of every cell of press row `row` (word 0) into presses[v]."""
    cdef int64_t j, v, cells = r.nrows * r.ncols
    cdef uint8_t* out
    for v in range(r.nvec):
        out = r.presses + v * cells + row * r.ncols
        for j in range(r.ncols):
            out[j] = (cell_at(r, row, j)[0] >> v) & 1


cdef inline void run_sweep(Run* r, int64_t i, int64_t f, int64_t first, int64_t written, int64_t count,
                           bint backward, bint running) noexcept nogil:
    """Light row i's sums at columns first, first + classes, ... (count of them) into press row f at
    columns written, written + classes, ..."""
    cdef const uint64_t* sources[MAX_OTHER_ENTRIES]
    cdef Py_ssize_t nsrc = 0
    cdef int64_t e, src
    for e in range(r.nother):
        src = i - r.dr[e]
        if 0 <= src < r.nrows:
            sources[nsrc] = cell_at(r, src, first - r.dc[e])
            nsrc += 1
    sweep(cell_at(r, f, written), sources, nsrc, r.lights + i * r.ncols + first if r.const_word >= 0 else NULL,
          r.classes, r.const_word, r.const_bit, count, backward, running, r.width)


cdef int64_t run_rows(Run* r, Poll* poll, int* status) noexcept nogil:
    """The chase over every light row; the number of equation words that are not 0 when no
    equations are kept (the numeric run's check), else 0."""
    cdef int64_t i, j, w, e, src, f, eq, length, half, nonzero = 0, cell_words = r.ncols * r.width
    cdef int64_t a = r.pair
    cdef uint64_t* c = r.scratch
    cdef const uint64_t* cell
    for i in range(r.up):
        for j in range(r.ncols):
            memcpy(cell_at(r, i, j), r.init + (i * r.ncols + j) * r.width, <size_t>(r.width * 8))
        if r.presses != NULL:
            put_presses(r, i)
    for i in range(r.nrows):
        status[0] = poll_work(poll, cell_words * (r.nother + 1))
        if status[0] != STOP_NONE:
            return 0
        f = i + r.up
        if f < r.nrows:
            if a == 0:
                run_sweep(r, i, f, 0, 0, r.ncols, False, False)
            for j in range(a):         # the path of column class j mod a: odd places from the left, even from the right
                length = (r.ncols - j + a - 1) // a
                half = length // 2
                if half:
                    run_sweep(r, i, f, j, j + a, half, False, True)
                    run_sweep(r, i, f, j + a, j, half, True, True)
            if r.presses != NULL:
                put_presses(r, f)
            continue
        eq = (i - (r.nrows - r.up)) * r.ncols
        for j in range(r.ncols):
            memset(c, 0, <size_t>(r.width * 8))
            for e in range(r.nother):
                src = i - r.dr[e]
                if 0 <= src < r.nrows:
                    cell = cell_at(r, src, j - r.dc[e])
                    for w in range(r.width):
                        c[w] ^= cell[w]
            if r.const_word >= 0 and r.lights[i * r.ncols + j]:
                c[r.const_word] ^= r.const_bit
            if r.equations != NULL:
                memcpy(r.equations + (eq + j) * r.eq_words + r.eq_start, c, <size_t>(r.width * 8))
            else:
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
    r.classes = 2 * pair if pair else 1
    r.cap = (ncols + r.classes - 1) // r.classes
    r.pad = (reach + r.classes - 1) // r.classes + 1
    r.block = r.cap + 2 * r.pad
    r.ring = dr_max - dr_min + 1
    r.stride = r.classes * r.block * r.width
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
