# The windowed symbolic chase for any press stencil, on a grid of any number of axes
# (docs/algebra.md section 1, carried from the plus rule to any stencil and any masks).
#
# A stencil is a list of entries e, each an offset delta_e (one int a axis) and a weight
# w_e (nonzero mod k): pressing cell p adds w_e (mod k) to cell p + delta_e, past an
# open edge dropped, around a wrapping axis wrapped.  Lights v are "required" (they must
# end dark) or not; presses p are "pressable" or not.  The callers
# (lightsout/_routes/stencilchase.py) check every array and refuse a wrapping axis shorter
# than the stencil along it, so two entries never reach the same cell from one press.
#
# 1. plan (integers only, O(cells x entries)): cells in C order; for each required light
#    v, last(v) is the latest pressable cell whose press reaches v.  When that press's
#    weight is invertible mod k and no earlier light claimed it, v claims it: the press
#    is then forced by v (its value follows from the earlier presses).  Every pressable
#    cell no light claims is a free unknown; every required light that claims nothing
#    gives one equation of the reduced system.  code[v] records it all in one int32:
#    the entry of last(v) << 2, bit 1 "some press reaches v around a wrap", bit 0 "v
#    forces last(v)"; -1 for a required light no press reaches, -2 for a light that
#    is not required.  A press that reaches a light with bit 1 is "persistent": the
#    caller numbers those presses (pslot) and their values are kept for the whole run.
# 2. chase (one pass in C order): each pressable press's value is a row over the
#    unknowns (symbolic: |Z| coefficients and the lights' constant; numeric: one value
#    for each of several vectors of unknowns).  A forced press's row is read off its
#    light's equation; a light whose last press is the current one and forces nothing
#    gives a row of the reduced system (symbolic) or must read 0 (numeric, counted).
#    A row is read only by the lights its press reaches, all of them done within the
#    stencil's span of flat offsets, so the rows live in a ring of span + 1 rows; the
#    persistent presses' rows are kept aside (a torus's first rows meet its last ones).
# 3. lift_proof (reverse walk): a left-kernel vector of the reduced system, given on
#    the equation lights, extended to the forcing lights so that every pressable
#    column of A is met by 0: y[v] = -(sum of y[u] A[u, p] over the other lights u that
#    p reaches) / A[v, p], where v forces p; going backwards, those u are known.
# 4. apply: A x or y^T A on whole boards, a check of the answers above.
#
# Rows are packed GF(2) words for k = 2 (unknown j in bit j) and bytes mod k otherwise.
# Loops run without the GIL and poll the cancel token (lightsout/_kernels/cancel.pxd).
# Compiled once per SIMD level (lightsout/_kernels/registry.py): the row loops are plain
# C loops on restrict pointers that GCC vectorises.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free

from lightsout._kernels.arrays cimport raw_array
from lightsout._kernels.bitrow cimport ctz64
from lightsout._kernels.cancel cimport STOP_NONE, STOP_CANCELLED, Poll, make_poll, poll_work, raise_if_interrupted

import numpy as np

cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    #include <string.h>
    #if defined(_MSC_VER)
    #define SC_RESTRICT __restrict
    #else
    #define SC_RESTRICT __restrict__
    #endif
    #ifndef LIGHTSOUT_SIMD_LEVEL
    #define LIGHTSOUT_SIMD_LEVEL "generic"
    #endif
    static void sc_xor_into(uint64_t *SC_RESTRICT dst, const uint64_t *SC_RESTRICT src, ptrdiff_t n) {
        for (ptrdiff_t i = 0; i < n; i++) dst[i] ^= src[i];
    }
    /* dst = the XOR of a task's source rows (entries (storage row << 8) | weight), in one pass over
       dst for every four sources: no accumulator read and written once a source. */
    #define SC_ROW(i) ((const uint64_t *)store + (src[i] >> 8) * row_words)
    static void sc_xor4(uint64_t *SC_RESTRICT dst, const uint64_t *SC_RESTRICT a, const uint64_t *SC_RESTRICT b,
                        const uint64_t *SC_RESTRICT c, const uint64_t *SC_RESTRICT d, ptrdiff_t n, int assign) {
        if (assign) { for (ptrdiff_t i = 0; i < n; i++) dst[i] = a[i] ^ b[i] ^ c[i] ^ d[i]; }
        else { for (ptrdiff_t i = 0; i < n; i++) dst[i] ^= a[i] ^ b[i] ^ c[i] ^ d[i]; }
    }
    static void sc_xor3(uint64_t *SC_RESTRICT dst, const uint64_t *SC_RESTRICT a, const uint64_t *SC_RESTRICT b,
                        const uint64_t *SC_RESTRICT c, ptrdiff_t n, int assign) {
        if (assign) { for (ptrdiff_t i = 0; i < n; i++) dst[i] = a[i] ^ b[i] ^ c[i]; }
        else { for (ptrdiff_t i = 0; i < n; i++) dst[i] ^= a[i] ^ b[i] ^ c[i]; }
    }
    static void sc_xor2(uint64_t *SC_RESTRICT dst, const uint64_t *SC_RESTRICT a, const uint64_t *SC_RESTRICT b,
                        ptrdiff_t n, int assign) {
        if (assign) { for (ptrdiff_t i = 0; i < n; i++) dst[i] = a[i] ^ b[i]; }
        else { for (ptrdiff_t i = 0; i < n; i++) dst[i] ^= a[i] ^ b[i]; }
    }
    static void sc_xor_rows(uint64_t *SC_RESTRICT dst, const uint8_t *store, ptrdiff_t row_words,
                            const int64_t *src, ptrdiff_t nsrc, ptrdiff_t n) {
        ptrdiff_t i = 0;
        int assign = 1;
        for (; i + 4 <= nsrc; i += 4, assign = 0) sc_xor4(dst, SC_ROW(i), SC_ROW(i + 1), SC_ROW(i + 2), SC_ROW(i + 3), n, assign);
        switch (nsrc - i) {
        case 3: sc_xor3(dst, SC_ROW(i), SC_ROW(i + 1), SC_ROW(i + 2), n, assign); break;
        case 2: sc_xor2(dst, SC_ROW(i), SC_ROW(i + 1), n, assign); break;
        case 1:
            if (assign) { memcpy(dst, SC_ROW(i), (size_t)n * 8); } else { sc_xor_into(dst, SC_ROW(i), n); }
            break;
        default:
            if (assign) memset(dst, 0, (size_t)n * 8);
        }
    }
    #undef SC_ROW
    /* dst += w * src (32-bit sums of byte products). */
    static void sc_mac(uint32_t *SC_RESTRICT dst, const uint8_t *SC_RESTRICT src, uint32_t w, ptrdiff_t n) {
        for (ptrdiff_t i = 0; i < n; i++) dst[i] += w * (uint32_t)src[i];
    }
    """
    const char* LIGHTSOUT_SIMD_LEVEL
    void xor_into "sc_xor_into"(uint64_t* dst, const uint64_t* src, Py_ssize_t n) noexcept nogil
    void xor_rows "sc_xor_rows"(uint64_t* dst, const uint8_t* store, Py_ssize_t row_words, const int64_t* src,
                                Py_ssize_t nsrc, Py_ssize_t n) noexcept nogil
    void mac "sc_mac"(uint32_t* dst, const uint8_t* src, uint32_t w, Py_ssize_t n) noexcept nogil

SIMD_LEVEL = LIGHTSOUT_SIMD_LEVEL.decode()

cdef enum:
    MAX_AXES = 64
    # work units (row words or bytes) between two looks at the cancel flag: about a millisecond
    WORK_PER_POLL = 1 << 20
    # byte products summed in 32 bits before a reduction mod k (254 * 254 * 65000 < 2**32)
    TERMS_PER_REDUCE = 65000
    # most entries of the table of residues mod k (4 MiB)
    RESIDUE_TABLE_ENTRIES = 1 << 22

#: The most axes a board may have here.
MAX_STENCIL_AXES = MAX_AXES


cdef struct Geo:
    Py_ssize_t ndim
    Py_ssize_t nnz
    int64_t cells
    int64_t shape[MAX_AXES]
    int64_t stride[MAX_AXES]
    int64_t reach[MAX_AXES]     # the largest |delta| along each axis
    uint8_t wraps[MAX_AXES]
    const int64_t* delta        # (nnz, ndim)
    const int64_t* flat         # (nnz,) the flat offset of each entry
    const uint8_t* weight       # (nnz,)


cdef inline void coords_of(const Geo* g, int64_t p, int64_t* x) noexcept nogil:
    cdef Py_ssize_t a
    for a in range(g.ndim - 1, -1, -1):
        x[a] = p % g.shape[a]
        p = p // g.shape[a]


cdef inline void coords_at(const Geo* g, int64_t p, int64_t* x, int64_t* at) noexcept nogil:
    """x = the coordinates of cell p, given that they were those of cell at[0] (-1: none): moved along
    the last axis, or one cell on with a carry, without a division; then at[0] = p."""
    cdef Py_ssize_t a = g.ndim - 1
    cdef int64_t d = p - at[0]
    at[0] = p
    if d == p + 1:  # nothing known
        coords_of(g, p, x)
    elif 0 <= x[a] + d < g.shape[a]:  # on the same line
        x[a] += d
    elif d == 1:
        x[a] = 0
        while a > 0:
            a -= 1
            x[a] += 1
            if x[a] < g.shape[a]:
                break
            x[a] = 0
    elif d == -1:
        x[a] = g.shape[a] - 1
        while a > 0:
            a -= 1
            x[a] -= 1
            if x[a] >= 0:
                break
            x[a] = g.shape[a] - 1
    else:
        coords_of(g, p, x)


cdef inline bint inside(const Geo* g, const int64_t* x, int64_t times) noexcept nogil:
    """Whether every move of up to `times` entries from x stays on the board without a wrap."""
    cdef Py_ssize_t a
    for a in range(g.ndim):
        if x[a] < times * g.reach[a] or x[a] >= g.shape[a] - times * g.reach[a]:
            return 0
    return 1


cdef inline int64_t moved(const Geo* g, const int64_t* x, Py_ssize_t e, int64_t sign, int64_t* out,
                          int* wrapped) noexcept nogil:
    """The cell x + sign * delta_e (-1 past an open edge), its coordinates in `out` (if not NULL);
    sets *wrapped when it went around a wrapping axis."""
    cdef Py_ssize_t a
    cdef int64_t t = 0, c
    for a in range(g.ndim):
        c = x[a] + sign * g.delta[e * g.ndim + a]
        if c < 0:
            if not g.wraps[a]:
                return -1
            c += g.shape[a]
            wrapped[0] = 1
        elif c >= g.shape[a]:
            if not g.wraps[a]:
                return -1
            c -= g.shape[a]
            wrapped[0] = 1
        if out != NULL:
            out[a] = c
        t += c * g.stride[a]
    return t


cdef inline int64_t step(const Geo* g, int64_t p, const int64_t* x, Py_ssize_t e, int64_t sign, bint deep,
                         int* wrapped) noexcept nogil:
    """The cell p + sign * delta_e (-1 past an open edge): its flat offset away from the edges (`deep`),
    else through p's coordinates x (:func:`moved`, which sets *wrapped when it goes around)."""
    if deep:
        return p + sign * g.flat[e]
    return moved(g, x, e, sign, NULL, wrapped)


cdef inline unsigned gcd(unsigned a, unsigned b) noexcept nogil:
    cdef unsigned t
    while b:
        t = a % b
        a = b
        b = t
    return a


cdef inline unsigned inverse(unsigned w, unsigned k) noexcept nogil:
    """w^-1 mod k (w a unit mod k)."""
    cdef unsigned i
    for i in range(1, k):
        if (w * i) % k == 1:
            return i
    return 0


cdef object make_geo(Geo* g, object shape, object wraps, object delta, object weight):
    """Fill `g` from the checked arrays (the caller keeps them alive); returns nothing useful."""
    cdef const int64_t[::1] s = raw_array(shape, "shape", np.int64, None, 1, False)
    cdef const uint8_t[::1] w = raw_array(wraps, "wraps", np.uint8, (s.shape[0],), 1, False)
    cdef const int64_t[:, ::1] d = raw_array(delta, "delta", np.int64, None, 2, False)
    cdef const uint8_t[::1] wt = raw_array(weight, "weight", np.uint8, (d.shape[0],), 1, False)
    cdef Py_ssize_t a, e
    if s.shape[0] < 1 or s.shape[0] > MAX_AXES or d.shape[1] != s.shape[0] or d.shape[0] < 1:
        from lightsout._base.errors import InvalidBoardError
        raise InvalidBoardError(f"a stencil chase takes 1..{MAX_AXES} axes and at least one entry "
                                f"with an offset on each, got shape {tuple(s)} and offsets {tuple(delta.shape)}")
    g.ndim = s.shape[0]
    g.nnz = d.shape[0]
    g.cells = 1
    for a in range(g.ndim - 1, -1, -1):
        g.shape[a] = s[a]
        g.wraps[a] = w[a]
        g.stride[a] = g.cells
        g.cells *= s[a]
        g.reach[a] = 0
        for e in range(g.nnz):
            g.reach[a] = max(g.reach[a], abs(d[e, a]))
    g.delta = &d[0, 0]
    g.weight = &wt[0]
    return None


def flat_offsets(shape, delta):
    """The flat (C order) offset of each entry of a stencil on a board of this shape.

    Example:
        >>> import numpy as np
        >>> flat_offsets(np.array([4, 5]), np.array([[-1, 0], [0, 1], [1, -1]])).tolist()
        [-5, 1, 4]
    """
    sizes = [int(n) for n in shape]
    strides = np.array([int(np.prod(sizes[a + 1:], dtype=np.int64)) for a in range(len(sizes))], dtype=np.int64)
    return np.ascontiguousarray(np.asarray(delta, dtype=np.int64) @ strides)


# ---------------------------------------------------------------------------
# 1. The plan.

cdef int run_plan(const Geo* g, const uint8_t* pressable, const uint8_t* required, unsigned k,
                  int32_t* code, uint8_t* claimed, uint8_t* persist, int64_t* counts, Poll* poll) noexcept nogil:
    cdef int64_t v, q, best
    cdef Py_ssize_t e, beste
    cdef int wrapped, anywrap
    cdef int32_t c
    cdef int64_t x[MAX_AXES]
    cdef int64_t at = -1
    cdef int status
    cdef bint deep
    for v in range(g.cells):
        if not required[v]:
            code[v] = -2
            continue
        coords_at(g, v, x, &at)
        deep = inside(g, x, 1)
        best = -1
        beste = -1
        anywrap = 0
        for e in range(g.nnz):
            wrapped = 0
            q = step(g, v, x, e, -1, deep, &wrapped)
            if q < 0 or not pressable[q]:
                continue
            anywrap |= wrapped
            if q > best:
                best = q
                beste = e
        if best < 0:
            code[v] = -1
            counts[1] += 1
            continue
        c = <int32_t>(beste << 2)
        if anywrap:
            c |= 2
            for e in range(g.nnz):
                wrapped = 0
                q = moved(g, x, e, -1, NULL, &wrapped)
                if q >= 0 and pressable[q]:
                    persist[q] = 1
        if gcd(g.weight[beste], k) == 1 and not claimed[best]:
            claimed[best] = 1
            c |= 1
            counts[0] += 1
        code[v] = c
        status = poll_work(poll, g.nnz)
        if status != STOP_NONE:
            return status
    return STOP_NONE


def plan(shape, wraps, delta, weight, pressable, required, int states, cancel=None):
    """The chase's plan: (code int32 (cells,), persist uint8 (cells,), forced lights, unreached lights,
    claimed uint8 (cells,): 1 at every press a light forces).

    See the header, section 1.  Arrays: shape int64 (ndim,), wraps uint8 (ndim,), delta
    int64 (nnz, ndim), weight uint8 (nnz,) nonzero mod states, pressable and required
    uint8 (cells,) 0/1.
    """
    cdef Geo g
    make_geo(&g, shape, wraps, delta, weight)
    flat_arr = flat_offsets(shape, delta)
    cdef const int64_t[::1] flat = flat_arr
    g.flat = &flat[0]
    cdef const uint8_t[::1] pr = raw_array(pressable, "pressable", np.uint8, (g.cells,), 1, False)
    cdef const uint8_t[::1] rq = raw_array(required, "required", np.uint8, (g.cells,), 1, False)
    code_arr = np.empty(g.cells, dtype=np.int32)
    claimed_arr = np.zeros(g.cells, dtype=np.uint8)
    persist_arr = np.zeros(g.cells, dtype=np.uint8)
    cdef int32_t[::1] code = code_arr
    cdef uint8_t[::1] claimed = claimed_arr
    cdef uint8_t[::1] persist = persist_arr
    cdef int64_t counts[2]
    counts[0] = 0
    counts[1] = 0
    cdef Poll poll = make_poll(cancel, WORK_PER_POLL)
    cdef int status
    cdef unsigned k = states
    with nogil:
        status = run_plan(&g, &pr[0], &rq[0], k, &code[0], &claimed[0], &persist[0], counts, &poll)
    raise_if_interrupted(status)
    if status != STOP_NONE:
        return None
    return code_arr, persist_arr, int(counts[0]), int(counts[1]), claimed_arr


# ---------------------------------------------------------------------------
# 2. The chase.

cdef struct Chase:
    # the board
    const uint8_t* lights
    const uint8_t* pressable
    const int32_t* code
    const int32_t* pslot
    int64_t ring_rows
    # rows
    bint modk
    unsigned k
    Py_ssize_t width            # words (GF(2)) or values (mod k) a row
    Py_ssize_t block            # words or values of one block of columns
    Py_ssize_t light_col        # the column the lights enter (-1: none)
    bint numeric                # rows are values of several vectors (else expressions)
    const uint8_t* free_rows    # numeric: (nfree, width) the unknowns' values
    uint8_t* store              # (nblocks, ring_rows + nkept, block) elements
    int64_t store_rows
    Py_ssize_t column_start     # the store holds columns column_start..column_stop of the rows,
    Py_ssize_t column_stop      # block by block
    uint64_t* acc64             # (block,) scratch
    uint32_t* acc32             # (block,) scratch
    const uint8_t* residue      # mod k: residue[a] = a % k for every sum a task can make, or NULL
    const uint8_t* negate_times # mod k: negate_times[w * k + a] = -a * w % k
    # the program of one band
    int64_t* program
    int64_t program_len
    int64_t program_size
    # outputs
    uint8_t* equations          # symbolic: (neq, width) elements
    int64_t* equation_light
    int64_t neq
    int64_t max_eq
    uint8_t* presses            # numeric: GF(2) (nvec, press_words) bits; mod k (width, cells) values
    int64_t press_words
    int64_t nonzero             # numeric: equations that did not read 0
    int64_t nfree
    int64_t max_free


cdef enum:
    # a task of the program: a header of HEADER entries, then its sources
    #   [kind, p or equation, ring row, kept row or -1, light, inverse or unknown, active, nsrc, src...]
    # a source: (its storage row << 8) | its weight; storage rows: the ring, then the kept rows.
    # "active": the columns in use when the task was planned (symbolic rows: the lights' column
    # 0 and the unknowns met so far; unknowns are met in C order, so later columns are still 0)
    TASK_FREE = 0
    TASK_FORCE = 1
    TASK_EQUATION = 2
    HEADER = 8
    # int64 entries of one band's program (2 MiB): the band is replayed once per block of columns
    PROGRAM_ENTRIES = 1 << 18


cpdef int64_t program_entries(Py_ssize_t nnz):
    """The int64 entries of a band's program for a stencil of nnz entries (a band holds at least one press)."""
    return PROGRAM_ENTRIES + (nnz + HEADER) * (nnz + 1)


cdef inline int64_t source_row(const Chase* r, int64_t q, int32_t c, int64_t p, int64_t ring_p) noexcept nogil:
    """Where the row of press q is read by a light whose code is c: its kept row, or its ring row, found
    from the ring row ring_p of the press p being planned (q is at most the span before p: no division)."""
    cdef int64_t row
    if c & 2:
        return r.ring_rows + r.pslot[q]
    row = ring_p - (p - q)
    return row + r.ring_rows if row < 0 else row


cdef inline Py_ssize_t add_sources(const Geo* g, Chase* r, int64_t u, bint deep, int64_t skip,
                                   int64_t p, int64_t ring_p, int64_t* out) noexcept nogil:
    """Write the sources of light u (every pressable press q != skip reaching it, with its weight); their count."""
    cdef int32_t c = r.code[u]
    cdef int64_t x[MAX_AXES]
    cdef int64_t q
    cdef Py_ssize_t f, n = 0
    cdef int wrapped
    if not deep:
        coords_of(g, u, x)
    for f in range(g.nnz):
        wrapped = 0
        q = step(g, u, x, f, -1, deep, &wrapped)
        if q < 0:
            continue
        if q == skip or not r.pressable[q]:
            continue
        out[n] = (source_row(r, q, c, p, ring_p) << 8) | g.weight[f]
        n += 1
    return n


cdef inline int64_t active_columns(const Chase* r) noexcept nogil:
    """The row elements in use: all of a numeric row; the lights' column and the unknowns met so far."""
    if r.numeric:
        return r.width
    if r.modk:
        return r.nfree + 1
    return (r.nfree + 64) >> 6


cdef int64_t plan_band(const Geo* g, Chase* r, int64_t p, int* status) noexcept nogil:
    """Write the program of the presses from p on until the band is full; the next press to plan."""
    cdef int64_t v, claimant
    cdef Py_ssize_t e, claim_e, nlast, i
    cdef int64_t last_lights[64]
    cdef int64_t* last = last_lights
    cdef int64_t x[MAX_AXES]
    cdef int64_t* t
    cdef bint deep
    cdef int wrapped
    cdef int32_t c
    cdef int64_t at = -1
    cdef int64_t ring_at = p, ring_p = p % r.ring_rows
    cdef int64_t room = r.program_size - (g.nnz + HEADER) * (g.nnz + 1)   # one press's tasks at most
    status[0] = 0
    r.program_len = 0
    if g.nnz > 64:
        last = <int64_t*>malloc(g.nnz * sizeof(int64_t))
        if last == NULL:
            status[0] = -2
            return p
    while p < g.cells and r.program_len <= room:
        if not r.pressable[p]:
            p += 1
            continue
        coords_at(g, p, x, &at)
        deep = inside(g, x, 2)
        claimant = -1
        claim_e = -1
        nlast = 0
        for e in range(g.nnz):  # the lights p reaches whose last press is p
            wrapped = 0
            v = step(g, p, x, e, 1, deep, &wrapped)
            if v < 0:
                continue
            c = r.code[v]
            if c < 0 or (c >> 2) != e:
                continue
            if c & 1:
                claimant = v
                claim_e = e
            else:
                last[nlast] = v
                nlast += 1
        t = r.program + r.program_len
        t[1] = p
        ring_p += p - ring_at        # p % ring_rows, stepped
        ring_at = p
        if ring_p >= r.ring_rows:
            ring_p = ring_p - r.ring_rows if ring_p < 2 * r.ring_rows else ring_p % r.ring_rows
        t[2] = ring_p
        t[3] = r.ring_rows + r.pslot[p] if r.pslot != NULL and r.pslot[p] >= 0 else -1
        if claimant >= 0:  # forced: x_p = -(b[v] + the other presses reaching v) / w
            t[0] = TASK_FORCE
            t[4] = r.lights[claimant]
            t[5] = inverse(g.weight[claim_e], r.k)
            t[7] = add_sources(g, r, claimant, deep, p, p, ring_p, t + HEADER)
        else:  # a free unknown
            if r.nfree >= r.max_free:
                status[0] = -2
                break
            t[0] = TASK_FREE
            t[4] = 0
            t[5] = r.nfree
            r.nfree += 1
            t[7] = 0
        t[6] = active_columns(r)
        r.program_len += HEADER + t[7]
        for i in range(nlast):  # the lights done at p: equations of the reduced system
            t = r.program + r.program_len
            if not r.numeric:
                if r.neq >= r.max_eq:
                    status[0] = -2
                    break
                if r.column_start == 0:
                    r.equation_light[r.neq] = last[i]
            t[0] = TASK_EQUATION
            t[1] = r.neq
            r.neq += 1
            t[2] = -1
            t[3] = -1
            t[4] = r.lights[last[i]]
            t[5] = 0
            t[6] = active_columns(r)
            t[7] = add_sources(g, r, last[i], deep, -1, p, ring_p, t + HEADER)
            r.program_len += HEADER + t[7]
        if status[0]:
            break
        p += 1
    if last != last_lights:
        free(last)
    return p


cdef void replay_block(const Geo* g, Chase* r, Py_ssize_t b) noexcept nogil:
    """Run the band's program on columns [column_start + b * block, ...) of every row."""
    cdef Py_ssize_t lo = r.column_start + b * r.block
    cdef Py_ssize_t n = min(r.block, r.column_stop - lo)
    cdef Py_ssize_t esize = 1 if r.modk else 8
    cdef uint8_t* store = r.store + b * r.store_rows * r.block * esize
    cdef Py_ssize_t rowb = r.block * esize
    cdef int64_t pos = 0, kind, nsrc, j, col, p
    cdef Py_ssize_t i, vec, m
    cdef int64_t* t
    cdef uint8_t* dst
    cdef unsigned inv, val
    cdef int64_t terms
    cdef uint64_t word
    cdef uint64_t* acc = NULL
    cdef bint any
    cdef const uint8_t* table
    while pos < r.program_len:
        t = r.program + pos
        kind = t[0]
        nsrc = t[7]
        pos += HEADER + nsrc
        m = min(n, max(0, t[6] - lo))     # the columns of this block in use; the others are 0
        if kind != TASK_FREE:  # the accumulator: the light, then every source
            if r.modk:
                memset(r.acc32, 0, n * sizeof(uint32_t))
                col = r.light_col - lo
                if 0 <= col < n:
                    r.acc32[col] = <uint32_t>t[4]
                terms = 0
                for i in range(nsrc):
                    mac(r.acc32, store + (t[HEADER + i] >> 8) * rowb, <uint32_t>(t[HEADER + i] & 255), m)
                    terms += 1
                    if terms == TERMS_PER_REDUCE:
                        terms = 0
                        for j in range(m):
                            r.acc32[j] %= r.k
            else:  # straight into the press's ring row or the equation's row (no copy)
                if kind == TASK_FORCE:
                    acc = <uint64_t*>(store + t[2] * rowb)
                elif not r.numeric:
                    acc = <uint64_t*>(r.equations + (t[1] * r.width + lo) * 8)
                else:
                    acc = r.acc64
                xor_rows(acc, store, r.block, t + HEADER, nsrc, m)
                if m < n:
                    memset(acc + m, 0, (n - m) * sizeof(uint64_t))
                col = r.light_col - 64 * lo
                if 0 <= col < 64 * n and t[4]:
                    acc[col >> 6] ^= (<uint64_t>1) << (col & 63)
        if kind == TASK_EQUATION:
            any = 0
            if r.modk:
                dst = r.equations + t[1] * r.width + lo if not r.numeric else NULL
                for i in range(n):
                    val = r.residue[r.acc32[i]] if r.residue != NULL else r.acc32[i] % r.k
                    any |= val != 0
                    if dst != NULL:
                        dst[i] = <uint8_t>val
            elif r.numeric:
                for i in range(n):
                    any |= acc[i] != 0
            if r.numeric and any:
                r.nonzero += 1
            continue
        # a press: its row into the ring (and its kept row)
        dst = store + t[2] * rowb
        p = t[1]
        if kind == TASK_FORCE:
            if r.modk:
                inv = <unsigned>t[5]
                if r.residue != NULL:  # tables: no division in the loop
                    table = r.negate_times + inv * r.k
                    for i in range(n):
                        dst[i] = table[r.residue[r.acc32[i]]]
                else:
                    for i in range(n):
                        val = r.acc32[i] % r.k
                        dst[i] = <uint8_t>(((r.k - val) % r.k) * inv % r.k)
        else:
            j = t[5]
            if r.numeric:
                memcpy(dst, r.free_rows + (j * r.width + lo) * esize, n * esize)
            else:
                memset(dst, 0, n * esize)
                j += 1  # symbolic: unknown j in column j + 1
                if r.modk:
                    if lo <= j < lo + n:
                        dst[j - lo] = 1
                elif 64 * lo <= j < 64 * (lo + n):
                    (<uint64_t*>dst)[(j >> 6) - lo] = (<uint64_t>1) << (j & 63)
        if t[3] >= 0:
            memcpy(store + t[3] * rowb, dst, n * esize)
        if r.numeric:
            if r.modk:
                for i in range(n):
                    r.presses[(lo + i) * g.cells + p] = dst[i]
            else:
                word = (<uint64_t*>dst)[0]
                while word:
                    vec = ctz64(word)
                    word &= word - 1
                    (<uint64_t*>r.presses)[vec * r.press_words + (p >> 6)] |= (<uint64_t>1) << (p & 63)


cdef int run_chase(const Geo* g, Chase* r, Py_ssize_t first, Py_ssize_t stop, Poll* poll) noexcept nogil:
    cdef int64_t p = 0
    cdef Py_ssize_t b
    cdef int status = STOP_NONE
    while p < g.cells:
        p = plan_band(g, r, p, &status)
        if status:
            return status
        for b in range(first, stop):
            replay_block(g, r, b)
            status = poll_work(poll, r.program_len * r.block + 1)
            if status != STOP_NONE:
                return status
    return STOP_NONE


def chase(shape, wraps, delta, weight, pressable, code, pslot, lights, int states, int ring_rows,
          int nkept, int width, int light_col, free_rows, equations, equation_light, presses,
          Py_ssize_t block=0, Py_ssize_t column_start=0, Py_ssize_t column_stop=-1, cancel=None):
    """One pass of the chase (header, section 2); returns (equations written, unknowns met, equations not 0).

    Symbolic (``free_rows`` None): press rows are expressions over the unknowns, ``width``
    words (k = 2) or values (k > 2) a row, unknown j in column j + 1 (the lights in column
    ``light_col``, which must be 0: the columns past the unknowns met so far are never read,
    being 0); every equation is written
    to ``equations`` (rows of the reduced system, uint64 or uint8) and its light to
    ``equation_light``.  Numeric (``free_rows`` given, one row an unknown): press rows are
    values, written to ``presses`` (k = 2: packed bits (nvec, words of cells), nvec =
    64 * width <= 64; k > 2: uint8 (width, cells)), and the equations are only checked.
    ``lights`` enter column ``light_col`` (-1: none).  The rows are worked ``block`` words
    or values at a time (0: all), a band of presses at a time, so that the window of rows
    stays in the cache; this call works the columns ``column_start`` to ``column_stop`` (-1: the
    last) alone, so that threads can share them (the one from column 0 writes ``equation_light``).
    A cancelled run returns None.
    """
    cdef Geo g
    make_geo(&g, shape, wraps, delta, weight)
    flat_arr = flat_offsets(shape, delta)
    cdef const int64_t[::1] flat = flat_arr
    g.flat = &flat[0]
    cdef Chase r
    cdef bint modk = states != 2
    cdef Py_ssize_t esize = 1 if modk else 8
    cdef const uint8_t[::1] pr = raw_array(pressable, "pressable", np.uint8, (g.cells,), 1, False)
    cdef const int32_t[::1] cd = raw_array(code, "code", np.int32, (g.cells,), 1, False)
    cdef const int32_t[::1] ps = raw_array(pslot, "pslot", np.int32, None, 1, False)
    cdef const uint8_t[::1] lt = raw_array(lights, "lights", np.uint8, (g.cells,), 1, False)
    if ps.shape[0] not in (0, g.cells):
        from lightsout._base.errors import InvalidBoardError
        raise InvalidBoardError(f"pslot must have shape (0,) or ({g.cells},), got {pslot.shape}")
    if g.nnz >= (1 << 20) or ring_rows < 1:
        from lightsout._base.errors import InvalidBoardError
        raise InvalidBoardError(f"a stencil chase takes fewer than 2**20 entries and a ring of >= 1 row")
    r.modk = modk
    r.k = states
    r.width = width
    r.block = width if block <= 0 or block > width else block
    r.light_col = light_col
    if free_rows is None and light_col != 0:
        from lightsout._base.errors import InvalidBoardError
        raise InvalidBoardError(f"a symbolic chase keeps the lights in column 0, got light_col={light_col}")
    r.numeric = free_rows is not None
    r.pressable = &pr[0]
    r.code = &cd[0]
    r.pslot = &ps[0] if ps.shape[0] else NULL
    r.lights = &lt[0]
    r.nfree = 0
    r.neq = 0
    r.nonzero = 0
    r.ring_rows = ring_rows
    cdef const uint8_t[:, ::1] fr
    cdef uint8_t[:, ::1] eq8
    cdef uint64_t[:, ::1] eq64
    cdef int64_t[::1] eql
    cdef uint8_t[:, ::1] out8
    cdef uint64_t[:, ::1] out64
    r.free_rows = NULL
    r.equations = NULL
    r.equation_light = NULL
    r.presses = NULL
    r.max_free = 1 << 62
    r.max_eq = 0
    r.press_words = 0
    if r.numeric:
        fr = raw_array(free_rows.view(np.uint8), "free_rows", np.uint8, None, 2, False)
        if fr.shape[0] and fr.shape[1] != width * esize:
            from lightsout._base.errors import InvalidBoardError
            raise InvalidBoardError(f"free_rows must have rows of {width * esize} bytes, got {fr.shape[1]}")
        r.max_free = fr.shape[0]
        if fr.shape[0]:
            r.free_rows = &fr[0, 0]
        if modk:
            out8 = raw_array(presses, "presses", np.uint8, (width, g.cells), 2, True)
            r.presses = &out8[0, 0]
        else:
            if width != 1:
                from lightsout._base.errors import InvalidBoardError
                raise InvalidBoardError(f"a numeric GF(2) chase takes one word of vectors, got {width}")
            out64 = raw_array(presses, "presses", np.uint64, None, 2, True)
            if out64.shape[1] != (g.cells + 63) >> 6 or out64.shape[0] < 1 or out64.shape[0] > 64:
                from lightsout._base.errors import InvalidBoardError
                raise InvalidBoardError(f"presses must be (1..64, {(g.cells + 63) >> 6}) words, got {presses.shape}")
            r.presses = <uint8_t*>&out64[0, 0]
            r.press_words = out64.shape[1]
    else:
        eql = raw_array(equation_light, "equation_light", np.int64, None, 1, True)
        if modk:
            eq8 = raw_array(equations, "equations", np.uint8, (eql.shape[0], width), 2, True)
            r.equations = &eq8[0, 0] if eql.shape[0] else NULL
        else:
            eq64 = raw_array(equations, "equations", np.uint64, (eql.shape[0], width), 2, True)
            r.equations = <uint8_t*>&eq64[0, 0] if eql.shape[0] else NULL
        r.equation_light = &eql[0] if eql.shape[0] else NULL
        r.max_eq = eql.shape[0]
    if column_stop < 0 or column_stop > r.width:
        column_stop = r.width
    if not 0 <= column_start <= column_stop:
        from lightsout._base.errors import InvalidBoardError
        raise InvalidBoardError(f"columns {column_start}..{column_stop} are not a range of the {r.width} columns")
    r.column_start = column_start
    r.column_stop = column_stop
    nblocks = (column_stop - column_start + r.block - 1) // r.block
    r.store_rows = ring_rows + nkept
    store_arr = np.zeros(max(1, nblocks) * r.store_rows * r.block * esize, dtype=np.uint8)
    r.program_size = program_entries(g.nnz)
    program_arr = np.zeros(r.program_size, dtype=np.int64)
    acc64_arr = np.zeros(r.block, dtype=np.uint64)
    acc32_arr = np.zeros(r.block, dtype=np.uint32)
    cdef uint8_t[::1] store_v = store_arr
    cdef int64_t[::1] program_v = program_arr
    cdef uint64_t[::1] acc64_v = acc64_arr
    cdef uint32_t[::1] acc32_v = acc32_arr
    r.store = &store_v[0]
    r.program = &program_v[0]
    r.acc64 = &acc64_v[0]
    r.acc32 = &acc32_v[0]
    # mod k, the sums a task makes are below `most` (terms reduced every TERMS_PER_REDUCE): read
    # their residues from a table when it is small, instead of dividing in the row loops
    cdef int64_t most = min(g.nnz + 1, TERMS_PER_REDUCE + 1) * (states - 1) * (states - 1) + states
    r.residue = NULL
    r.negate_times = NULL
    cdef const uint8_t[::1] residue_v
    cdef const uint8_t[::1] negate_v
    if modk and most <= RESIDUE_TABLE_ENTRIES:
        residue_arr = (np.arange(most, dtype=np.int64) % states).astype(np.uint8)
        ks = np.arange(states, dtype=np.int64)
        negate_arr = np.ascontiguousarray(((-ks[None, :] * ks[:, None]) % states).astype(np.uint8).ravel())
        residue_v = residue_arr
        negate_v = negate_arr
        r.residue = &residue_v[0]
        r.negate_times = &negate_v[0]
    cdef Poll poll = make_poll(cancel, WORK_PER_POLL)
    cdef int status
    with nogil:
        status = run_chase(&g, &r, 0, nblocks, &poll)
    raise_if_interrupted(status)
    if status == -2:
        from lightsout._base.errors import InternalError
        raise InternalError("the stencil chase met more unknowns or equations than its plan counted, "
                            "or a stencil too large for its program")
    if status != STOP_NONE:
        return None
    return int(r.neq), int(r.nfree), int(r.nonzero)


# ---------------------------------------------------------------------------
# 2b. One solution, chased with numbers straight on the board: the plan's forcing read
#     per press, every press's value kept (the answer is a whole board anyway), no program.

cdef inline uint64_t press_sum(const Geo* g, const uint8_t* pressable, const uint8_t* x, int64_t u, bint deep,
                               int64_t skip) noexcept nogil:
    """The sum of w_f x[q] over the pressable presses q != skip reaching light u (unreduced)."""
    cdef int64_t xc[MAX_AXES]
    cdef int64_t q
    cdef Py_ssize_t f
    cdef int wrapped
    cdef uint64_t s = 0
    if not deep:
        coords_of(g, u, xc)
    for f in range(g.nnz):
        wrapped = 0
        q = step(g, u, xc, f, -1, deep, &wrapped)
        if q < 0:
            continue
        if q != skip and pressable[q]:
            s += <uint64_t>x[q] * g.weight[f]
    return s


cdef int run_solution(const Geo* g, const uint8_t* pressable, const int32_t* code, const uint8_t* lights,
                      unsigned k, const uint8_t* z, int64_t nz, uint8_t* x, int64_t* counts,
                      Poll* poll) noexcept nogil:
    cdef int64_t p, v, claimant, nfree = 0, nonzero = 0
    cdef Py_ssize_t e, claim_e
    cdef int64_t xc[MAX_AXES]
    cdef uint8_t inverse_of[256]
    cdef int64_t at = -1
    cdef int wrapped, status
    cdef bint deep
    cdef int32_t c
    cdef uint64_t s
    for e in range(k):
        inverse_of[e] = <uint8_t>inverse(<unsigned>e, k)
    for p in range(g.cells):
        if not pressable[p]:
            continue
        coords_at(g, p, xc, &at)
        deep = inside(g, xc, 2)   # a light p reaches and every press reaching it, at flat offsets
        claimant = -1
        claim_e = -1
        for e in range(g.nnz):  # the light that p's press is forced by
            wrapped = 0
            v = step(g, p, xc, e, 1, deep, &wrapped)
            if v < 0:
                continue
            c = code[v]
            if c >= 0 and (c >> 2) == e and (c & 1):
                claimant = v
                claim_e = e
                break
        if claimant >= 0:  # x_p = -(b[v] + the other presses reaching v) / w, all of them before p
            s = (lights[claimant] + press_sum(g, pressable, x, claimant, deep, p)) % k
            x[p] = <uint8_t>(((k - s) % k) * inverse_of[g.weight[claim_e]] % k)
        else:
            if nfree >= nz:
                return -2
            x[p] = z[nfree]
            nfree += 1
        for e in range(g.nnz):  # the lights done at p that force nothing: their equations must read 0
            wrapped = 0
            v = step(g, p, xc, e, 1, deep, &wrapped)
            if v < 0:
                continue
            c = code[v]
            if c >= 0 and (c >> 2) == e and not (c & 1):
                if (lights[v] + press_sum(g, pressable, x, v, deep, -1)) % k:
                    nonzero += 1
        status = poll_work(poll, 2 * g.nnz)
        if status != STOP_NONE:
            return status
    counts[0] = nfree
    counts[1] = nonzero
    return STOP_NONE


def solution(shape, wraps, delta, weight, pressable, code, lights, int states, zvalues, cancel=None):
    """The presses (uint8 (cells,)) of one assignment of the unknowns (``zvalues``, uint8, one value an
    unknown in the order met), with the number of equations that did not read 0: the numeric chase
    of one vector (header, section 2) on the whole board instead of a window.  A cancelled run returns None.
    """
    cdef Geo g
    make_geo(&g, shape, wraps, delta, weight)
    flat_arr = flat_offsets(shape, delta)
    cdef const int64_t[::1] flat = flat_arr
    g.flat = &flat[0]
    cdef const uint8_t[::1] pr = raw_array(pressable, "pressable", np.uint8, (g.cells,), 1, False)
    cdef const int32_t[::1] cd = raw_array(code, "code", np.int32, (g.cells,), 1, False)
    cdef const uint8_t[::1] lt = raw_array(lights, "lights", np.uint8, (g.cells,), 1, False)
    cdef const uint8_t[::1] zv = raw_array(zvalues, "zvalues", np.uint8, None, 1, False)
    if states < 2 or states > 255:
        from lightsout._base.errors import InvalidBoardError
        raise InvalidBoardError(f"states must be in 2..255, got {states}")
    out_arr = np.zeros(g.cells, dtype=np.uint8)
    cdef uint8_t[::1] out = out_arr
    cdef int64_t counts[2]
    counts[0] = 0
    counts[1] = 0
    cdef Poll poll = make_poll(cancel, WORK_PER_POLL)
    cdef int status
    cdef unsigned k = states
    cdef int64_t nz = zv.shape[0]
    with nogil:
        status = run_solution(&g, &pr[0], &cd[0], &lt[0], k, &zv[0] if nz else NULL, nz, &out[0], counts, &poll)
    raise_if_interrupted(status)
    if status == -2 or (status == STOP_NONE and counts[0] != nz):
        from lightsout._base.errors import InternalError
        raise InternalError(f"the stencil chase's numeric pass met a different number of unknowns than the "
                            f"{nz} given")
    if status != STOP_NONE:
        return None
    return out_arr, int(counts[1])


# ---------------------------------------------------------------------------
# 3. The proof, lifted; 4. A x and y^T A.

cdef int run_lift(const Geo* g, const uint8_t* pressable, const uint8_t* required, const int32_t* code,
                  uint8_t* y, unsigned k, Poll* poll) noexcept nogil:
    cdef int64_t p, v, u, claimant
    cdef Py_ssize_t e, claim_e
    cdef int64_t x[MAX_AXES]
    cdef int64_t reached[64]
    cdef int64_t* target = reached
    cdef int64_t at = -1
    cdef int wrapped, status
    cdef bint deep
    cdef uint64_t s
    cdef int32_t c
    if g.nnz > 64:
        target = <int64_t*>malloc(g.nnz * sizeof(int64_t))
        if target == NULL:
            return -2
    for p in range(g.cells - 1, -1, -1):
        if not pressable[p]:
            continue
        coords_at(g, p, x, &at)
        deep = inside(g, x, 1)    # away from the edges every entry lands at its flat offset
        claimant = -1
        claim_e = -1
        for e in range(g.nnz):  # the cells p reaches (-1 past an open edge), and the light that claims p
            wrapped = 0
            v = step(g, p, x, e, 1, deep, &wrapped)
            target[e] = v
            if v < 0:
                continue
            c = code[v]
            if c >= 0 and (c >> 2) == e and (c & 1):
                claimant = v
                claim_e = e
        if claimant < 0:
            continue
        s = 0
        for e in range(g.nnz):
            u = target[e]
            if u < 0 or u == claimant or not required[u]:
                continue
            s += <uint64_t>y[u] * g.weight[e]
        s %= k
        y[claimant] = <uint8_t>(((k - s) % k) * inverse(g.weight[claim_e], k) % k)
        status = poll_work(poll, g.nnz)
        if status != STOP_NONE:
            break
    else:
        status = STOP_NONE
    if target != reached:
        free(target)
    return status


def lift_proof(shape, wraps, delta, weight, pressable, required, code, y, int states, cancel=None):
    """Extend y (uint8 (cells,), given on the equation lights, 0 elsewhere) to the forcing lights, in place
    (header, section 3).  Returns False when cancelled."""
    cdef Geo g
    make_geo(&g, shape, wraps, delta, weight)
    cdef const uint8_t[::1] pr = raw_array(pressable, "pressable", np.uint8, (g.cells,), 1, False)
    cdef const uint8_t[::1] rq = raw_array(required, "required", np.uint8, (g.cells,), 1, False)
    cdef const int32_t[::1] cd = raw_array(code, "code", np.int32, (g.cells,), 1, False)
    cdef uint8_t[::1] yv = raw_array(y, "y", np.uint8, (g.cells,), 1, True)
    flat_arr = flat_offsets(shape, delta)
    cdef const int64_t[::1] flat = flat_arr
    g.flat = &flat[0]
    cdef Poll poll = make_poll(cancel, WORK_PER_POLL)
    cdef int status
    cdef unsigned k = states
    with nogil:
        status = run_lift(&g, &pr[0], &rq[0], &cd[0], &yv[0], k, &poll)
    raise_if_interrupted(status)
    if status == -2:
        raise MemoryError("the stencil chase's proof could not allocate its list of reached cells")
    return status == STOP_NONE


cdef void run_apply(const Geo* g, const uint8_t* pressable, const uint8_t* values, uint32_t* out, bint transpose,
                    unsigned k, bint reduce_late) noexcept nogil:
    """out = A x or y^T A; with reduce_late the sums of A x are left unreduced (the caller knows they fit)."""
    cdef int64_t p, v
    cdef Py_ssize_t e
    cdef int64_t x[MAX_AXES]
    cdef int wrapped
    cdef bint deep
    cdef uint64_t s
    cdef uint32_t a
    cdef int64_t at = -1
    for p in range(g.cells):
        if not pressable[p] or (not transpose and values[p] == 0):
            continue
        coords_at(g, p, x, &at)
        deep = inside(g, x, 1)    # away from the edges every entry lands at its flat offset
        s = 0
        a = values[p]
        for e in range(g.nnz):
            wrapped = 0
            v = step(g, p, x, e, 1, deep, &wrapped)
            if v < 0:
                continue
            if transpose:
                s += <uint64_t>values[v] * g.weight[e]
            elif reduce_late:
                out[v] += a * g.weight[e]
            else:
                out[v] = (out[v] + a * g.weight[e]) % k
        if transpose:
            out[p] = <uint32_t>(s % k)


def apply(shape, wraps, delta, weight, pressable, values, int states, bint transpose):
    """A x (mod k) over every cell from the presses x (``transpose``: y^T A, one value a press, 0 where not
    pressable), as uint8 (cells,); presses at cells that are not pressable are ignored."""
    cdef Geo g
    make_geo(&g, shape, wraps, delta, weight)
    flat_arr = flat_offsets(shape, delta)
    cdef const int64_t[::1] flat = flat_arr
    g.flat = &flat[0]
    cdef const uint8_t[::1] pr = raw_array(pressable, "pressable", np.uint8, (g.cells,), 1, False)
    cdef const uint8_t[::1] vals = raw_array(values, "values", np.uint8, (g.cells,), 1, False)
    out_arr = np.zeros(g.cells, dtype=np.uint32)
    result_arr = np.empty(g.cells, dtype=np.uint8)
    cdef uint32_t[::1] out = out_arr
    cdef uint8_t[::1] result = result_arr
    cdef unsigned k = states
    # a cell's unreduced sum of A x is at most nnz (k - 1)^2 (one term an entry of the stencil)
    cdef bint reduce_late = <int64_t>g.nnz * (states - 1) * (states - 1) < <int64_t>4294967295
    cdef int64_t i
    with nogil:
        run_apply(&g, &pr[0], &vals[0], &out[0], transpose, k, reduce_late)
        for i in range(g.cells):
            result[i] = <uint8_t>(out[i] % k)
    return result_arr
