# Elimination over Z/q for a prime power q = p^e <= 255, on rows of uint8 residues.
#
# A matrix is nrows rows of ncols bytes (C-contiguous, numpy owns the buffer),
# every entry a residue in [0, q).  The Python layer (lightsout/_core/modring.py)
# splits a composite modulus N into its prime-power factors by the Chinese
# remainder theorem, so the elimination only ever works over a local ring, where
# every element is u * p^v with u a unit and the ideals form a chain.
#
# Algorithm (Howell form over Z/p^e; over a field, p = q, it is Gauss-Jordan):
#   Rows are "pivot rows" (found so far, in pivot order) or "active" rows, which
#   are zero in every column before the current one.  For each column j (the
#   leftmost column where some active row is nonzero, found by scanning the rows
#   a word at a time, never column by column):
#   1. the active row whose entry at j has the lowest p-valuation v becomes the
#      pivot row; it is multiplied by a unit so that its entry is exactly p^v;
#   2. every other active row loses (entry / p^v) times it (exact: their
#      valuations are >= v), so it is zero at j; every earlier pivot row loses
#      floor(entry / p^v) times it, so its entry at j lies in [0, p^v);
#   3. if v > 0, the row p^(e-v) * pivot row, zero at j, joins the active rows
#      (Howell's saturation step: it is what makes every element of the span that
#      vanishes in columns < j' a combination of the pivot rows past j').
#   The result is the Howell form: pivots p^v (divisors of q) in increasing
#   columns, entries above a pivot reduced into [0, pivot), the Howell property.
#   With reduce_above=False step 2 leaves the earlier pivot rows alone: an
#   echelon form that still has the Howell property (step 3 gives it), which is
#   enough for ranks and for solving; back_substitute_inplace then finishes
#   Gauss-Jordan over GF(p) on just the columns a caller reads.
#
# The other entry points serve the Chinese remainder theorem and the canonical
# solution in lightsout/_core/modring.py: reduction of vectors by a Howell form,
# reduction above the pivots, residues, x + t y and t x mod any N <= 255.
#
# Row updates: a step subtracts t * src from many rows.  The multiples t * src
# are computed once per step (lazily, or all q - 1 of them by repeated addition
# when the step has many targets), so the update of a row is a plain
# x = x - y (mod q): a subtraction and a conditional add of q on uint8 lanes, which
# GCC vectorises (SSE2, AVX2 or AVX-512 as built).  A product t * x mod N is
# computed on uint16 lanes with a Barrett reduction (s mod N = s - floor(s * M /
# 2^16) * N, M = floor(2^16 / N), then one conditional subtraction), never with a
# division by the run-time modulus.
#
# Short, wide matrices (a few rows, up to millions of columns) are processed one
# stripe of columns at a time, so the stripe stays in L2: the steps found so far
# are logged and replayed on each new stripe before its own columns are
# searched for pivots; a square matrix is processed as one stripe.
#
# Ctrl-C: elimination run from Python's main thread takes the GIL between steps
# once about SIGNAL_WORK bytes have been updated (a few milliseconds) and checks
# for signals, so KeyboardInterrupt arrives within a step's time.
#
# This file is compiled once per SIMD level (see setup.py).  def wrappers
# validate with the GIL held and run the cdef cores inside `with nogil`.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from lightsout._kernels.arrays cimport raw_array
from lightsout._kernels.cancel cimport (
    STOP_INTERRUPTED, STOP_NONE, Poll, make_poll, poll_work, raise_if_interrupted,
)

import numpy as np

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError

cdef extern from *:
    """
    #ifndef LIGHTSOUT_SIMD_LEVEL
    #define LIGHTSOUT_SIMD_LEVEL "generic"
    #endif
    """
    const char* LIGHTSOUT_SIMD_LEVEL

cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    #include <string.h>
    #if defined(_MSC_VER)
    #define ME_RESTRICT __restrict
    #else
    #define ME_RESTRICT __restrict__
    #endif

    /* x = x - y (mod N) over n residues in [0, N). */
    static inline void me_sub_into(uint8_t *ME_RESTRICT x, const uint8_t *ME_RESTRICT y,
                                   ptrdiff_t n, uint8_t N) {
        for (ptrdiff_t k = 0; k < n; k++) {
            uint8_t a = x[k], b = y[k];
            uint8_t d = (uint8_t)(a - b);
            x[k] = a >= b ? d : (uint8_t)(d + N);
        }
    }

    /* dst = a + b (mod N) over n residues in [0, N). */
    static inline void me_add_to(uint8_t *ME_RESTRICT dst, const uint8_t *ME_RESTRICT a,
                                 const uint8_t *ME_RESTRICT b, ptrdiff_t n, uint8_t N) {
        for (ptrdiff_t k = 0; k < n; k++) {
            uint8_t x = a[k], y = b[k];
            uint8_t c = (uint8_t)(N - y);
            dst[k] = x >= c ? (uint8_t)(x - c) : (uint8_t)(x + y);
        }
    }

    /* s mod N for any s < 2^16: M = floor(2^16 / N) makes the estimated quotient
       floor(s * M / 2^16) either the quotient or one less, so one conditional
       subtraction finishes.  On uint16 lanes this is a high multiply, a low
       multiply and a subtraction. */
    static inline uint16_t me_mod16(uint16_t s, uint16_t N, uint16_t M) {
        uint16_t q = (uint16_t)(((uint32_t)s * M) >> 16);
        uint16_t r = (uint16_t)(s - (uint16_t)(q * N));
        return r >= N ? (uint16_t)(r - N) : r;
    }

    /* dst = t * src (mod N). */
    static inline void me_mul_to(uint8_t *ME_RESTRICT dst, const uint8_t *ME_RESTRICT src, uint8_t t,
                                 ptrdiff_t n, uint16_t N, uint16_t M) {
        for (ptrdiff_t k = 0; k < n; k++)
            dst[k] = (uint8_t)me_mod16((uint16_t)((uint16_t)t * src[k]), N, M);
    }

    /* x = t * x (mod N). */
    static inline void me_scale(uint8_t *ME_RESTRICT x, uint8_t t, ptrdiff_t n, uint16_t N, uint16_t M) {
        for (ptrdiff_t k = 0; k < n; k++)
            x[k] = (uint8_t)me_mod16((uint16_t)((uint16_t)t * x[k]), N, M);
    }

    /* x = x + t * y (mod N): at most 254 + 254 * 254 < 2^16 before the reduction. */
    static inline void me_axpy(uint8_t *ME_RESTRICT x, const uint8_t *ME_RESTRICT y, uint8_t t,
                               ptrdiff_t n, uint16_t N, uint16_t M) {
        for (ptrdiff_t k = 0; k < n; k++)
            x[k] = (uint8_t)me_mod16((uint16_t)(x[k] + (uint16_t)t * y[k]), N, M);
    }

    /* dst = src mod N for any bytes. */
    static inline void me_remainder(uint8_t *ME_RESTRICT dst, const uint8_t *ME_RESTRICT src,
                                    ptrdiff_t n, uint16_t N, uint16_t M) {
        for (ptrdiff_t k = 0; k < n; k++)
            dst[k] = (uint8_t)me_mod16(src[k], N, M);
    }

    /* The largest of n bytes (0 for n = 0). */
    static inline uint8_t me_max(const uint8_t *ME_RESTRICT x, ptrdiff_t n) {
        uint8_t m = 0;
        for (ptrdiff_t k = 0; k < n; k++)
            m = x[k] > m ? x[k] : m;
        return m;
    }

    /* The first k in [lo, hi) with row[k] != 0, or hi: 32 bytes, then 8, at a time. */
    static inline ptrdiff_t me_first_nonzero(const uint8_t *row, ptrdiff_t lo, ptrdiff_t hi) {
        ptrdiff_t k = lo;
        for (; k + 32 <= hi; k += 32) {
            uint64_t a, b, c, d;
            memcpy(&a, row + k, 8);
            memcpy(&b, row + k + 8, 8);
            memcpy(&c, row + k + 16, 8);
            memcpy(&d, row + k + 24, 8);
            if (a | b | c | d)
                break;
        }
        for (; k + 8 <= hi; k += 8) {
            uint64_t w;
            memcpy(&w, row + k, 8);
            if (w)
                break;
        }
        for (; k < hi; k++)
            if (row[k])
                return k;
        return hi;
    }
    """
    void sub_into "me_sub_into"(uint8_t* x, const uint8_t* y, Py_ssize_t n, uint8_t N) noexcept nogil
    void add_to "me_add_to"(uint8_t* dst, const uint8_t* a, const uint8_t* b, Py_ssize_t n,
                            uint8_t N) noexcept nogil
    void mul_to "me_mul_to"(uint8_t* dst, const uint8_t* src, uint8_t t, Py_ssize_t n,
                            uint16_t N, uint16_t M) noexcept nogil
    void scale "me_scale"(uint8_t* x, uint8_t t, Py_ssize_t n, uint16_t N, uint16_t M) noexcept nogil
    void axpy "me_axpy"(uint8_t* x, const uint8_t* y, uint8_t t, Py_ssize_t n,
                        uint16_t N, uint16_t M) noexcept nogil
    void remainder_to "me_remainder"(uint8_t* dst, const uint8_t* src, Py_ssize_t n,
                                     uint16_t N, uint16_t M) noexcept nogil
    uint8_t max_byte "me_max"(const uint8_t* x, Py_ssize_t n) noexcept nogil
    Py_ssize_t first_nonzero "me_first_nonzero"(const uint8_t* row, Py_ssize_t lo,
                                                Py_ssize_t hi) noexcept nogil


cdef enum:
    # Bytes of row updates between two signal checks: a few milliseconds.
    SIGNAL_WORK = 1 << 24
    # Stripes: matrices with fewer rows than this and more columns than
    # STRIPE_MIN_COLS are processed STRIPE_BYTES of rows at a time.
    STRIPE_MAX_ROWS = 512
    STRIPE_MIN_COLS = 4096
    STRIPE_BYTES = 1 << 19
    # Passes over whole arrays (remainder, axpy) check signals between blocks of this many bytes.
    PASS_BLOCK = 1 << 22

# Status codes besides a count (>= 0).
cdef enum:
    ME_NOMEM = -1
    ME_INTERRUPTED = STOP_INTERRUPTED   # a signal handler raised (cancel.pxd)
    ME_BUDGET = -4          # the saturation rows would exceed the caller's memory budget


ctypedef struct Target:
    int32_t dst           # row that loses t * src
    int32_t t


ctypedef struct Step:
    int32_t src           # the pivot row
    int32_t unit          # src is first multiplied by this unit (1: unchanged)
    int32_t new_row       # row set to new_factor * src (saturation), if new_factor != 0
    int32_t new_factor
    Py_ssize_t first      # its targets are targets[first : first + count]
    Py_ssize_t count


ctypedef struct Ctx:
    uint8_t** rows        # row pointers: rows[0:nwork] in the caller's array, the rest malloc'ed
    Py_ssize_t nrows      # rows in use
    Py_ssize_t cap        # capacity of rows, firstnz, active
    Py_ssize_t nwork
    Py_ssize_t ncols
    Py_ssize_t npiv       # pivots are searched in columns [0, npiv)
    int q, p, e
    uint16_t M            # Barrett constant floor(2^16 / q)
    uint8_t val[256]      # p-valuation of each residue (e for 0)
    uint8_t inv[256]      # inverse of the residue's unit part x / p^val(x), mod q
    int ppow[9]           # p^0 .. p^e
    Py_ssize_t width      # stripe width
    uint8_t* mult         # q * width bytes: multiples t * src of the current step
    uint8_t have[256]     # which multiples are computed
    Py_ssize_t* firstnz   # first nonzero column of each active row within the stripe
    int32_t* active
    Py_ssize_t nactive
    int32_t* piv_row
    Py_ssize_t* piv_col
    Py_ssize_t npivots
    Py_ssize_t cap_piv
    Step* steps
    Py_ssize_t nsteps
    Py_ssize_t cap_steps
    Target* targets
    Py_ssize_t ntargets
    Py_ssize_t cap_targets
    bint logging          # keep every step for replay on later stripes
    Poll poll             # counts the bytes updated; looks for Ctrl-C (cancel.pxd)
    Py_ssize_t budget     # bytes the saturation rows may take (-1: no limit)


# ---------------------------------------------------------------------------
# Small helpers (no GIL).

cdef inline uint16_t barrett(int modulus) noexcept nogil:
    return <uint16_t>(65536 // modulus)


cdef int inverse_mod(int a, int m) noexcept nogil:
    """The inverse of a unit a modulo m (extended Euclid)."""
    cdef int r0 = m, r1 = a % m, s0 = 0, s1 = 1, qq, tmp
    while r1 != 0:
        qq = r0 // r1
        tmp = r0 - qq * r1
        r0 = r1
        r1 = tmp
        tmp = s0 - qq * s1
        s0 = s1
        s1 = tmp
    return ((s0 % m) + m) % m


cdef void ring_tables(Ctx* c) noexcept nogil:
    """Valuations, unit-part inverses and powers of p for Z/p^e."""
    cdef int x, v, u
    c.ppow[0] = 1
    for v in range(1, c.e + 1):
        c.ppow[v] = c.ppow[v - 1] * c.p
    c.val[0] = <uint8_t>c.e
    c.inv[0] = 0
    for x in range(1, c.q):
        v = 0
        u = x
        while u % c.p == 0:
            u //= c.p
            v += 1
        c.val[x] = <uint8_t>v
        c.inv[x] = <uint8_t>inverse_mod(u, c.q)


cdef int grow(Py_ssize_t* capacity, Py_ssize_t needed, void** a, size_t a_item, void** b, size_t b_item,
              void** c, size_t c_item) noexcept nogil:
    """Room for `needed` items in up to three parallel buffers (b, c: NULL when unused) that
    share one capacity, doubled from 16 as often as needed; 0, or ME_NOMEM (the capacity
    then unchanged)."""
    cdef Py_ssize_t new_cap
    cdef void** buffers[3]
    cdef size_t items[3]
    cdef void* fresh
    cdef int i
    if needed <= capacity[0]:
        return 0
    new_cap = capacity[0] * 2 if capacity[0] > 0 else 16
    while new_cap < needed:
        new_cap *= 2
    buffers[0], buffers[1], buffers[2] = a, b, c
    items[0], items[1], items[2] = a_item, b_item, c_item
    for i in range(3):
        if buffers[i] != NULL:
            fresh = realloc(buffers[i][0], <size_t>new_cap * items[i])
            if fresh == NULL:
                return ME_NOMEM
            buffers[i][0] = fresh
    capacity[0] = new_cap
    return 0


cdef int grow_rows(Ctx* c, Py_ssize_t needed) noexcept nogil:
    """Room for `needed` rows in rows, firstnz and active."""
    return grow(&c.cap, needed, <void**>&c.rows, sizeof(uint8_t*), <void**>&c.firstnz, sizeof(Py_ssize_t),
                <void**>&c.active, sizeof(int32_t))


cdef void free_ctx(Ctx* c) noexcept nogil:
    cdef Py_ssize_t i
    if c.rows != NULL:
        for i in range(c.nwork, c.nrows):
            free(c.rows[i])
    free(c.rows)
    free(c.firstnz)
    free(c.active)
    free(c.piv_row)
    free(c.piv_col)
    free(c.steps)
    free(c.targets)
    free(c.mult)
    memset(c, 0, sizeof(Ctx))     # nothing left to free: a second call is harmless


# ---------------------------------------------------------------------------
# The elimination (no GIL, no Python objects).

cdef void apply_step(Ctx* c, Step* s, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Apply one step to columns [lo, hi): scale src, subtract multiples of it
    from the targets, set the saturation row.  src is zero before lo."""
    cdef Py_ssize_t n = hi - lo, k
    cdef uint8_t* src = c.rows[s.src] + lo
    cdef uint8_t* m
    cdef Target* tg = c.targets + s.first
    cdef int t, q = c.q
    cdef uint8_t qq = <uint8_t>q
    if n <= 0:
        return
    if s.unit != 1:
        scale(src, <uint8_t>s.unit, n, <uint16_t>q, c.M)
    if s.count >= q - 1 and q > 3:
        # Many targets: every multiple, by repeated addition (cheaper than a product).
        add_to(c.mult + 2 * c.width, src, src, n, qq)
        for t in range(3, q):
            add_to(c.mult + t * c.width, c.mult + (t - 1) * c.width, src, n, qq)
        memset(c.have, 1, 256)
    else:
        memset(c.have, 0, 256)
    for k in range(s.count):
        t = tg[k].t
        if t == 1:
            sub_into(c.rows[tg[k].dst] + lo, src, n, qq)
            continue
        m = c.mult + t * c.width
        if not c.have[t]:
            mul_to(m, src, <uint8_t>t, n, <uint16_t>q, c.M)
            c.have[t] = 1
        sub_into(c.rows[tg[k].dst] + lo, m, n, qq)
    if s.new_factor != 0:
        mul_to(c.rows[s.new_row] + lo, src, <uint8_t>s.new_factor, n, <uint16_t>q, c.M)
    c.poll.work += n * (s.count + 2)


cdef int add_target(Ctx* c, int32_t dst, int t) noexcept nogil:
    if grow(&c.cap_targets, c.ntargets + 1, <void**>&c.targets, sizeof(Target), NULL, 0, NULL, 0) != 0:
        return ME_NOMEM
    c.targets[c.ntargets].dst = dst
    c.targets[c.ntargets].t = t
    c.ntargets += 1
    return 0


cdef int pivot_step(Ctx* c, Py_ssize_t j, Py_ssize_t best, Py_ssize_t hi, bint reduce_above) noexcept nogil:
    """Make active[best] (nonzero at column j, lowest valuation there) a pivot row.
    Updates columns [j, hi) now; later stripes get the step by replay."""
    cdef int32_t src = c.active[best], r
    cdef Py_ssize_t a, k, jmax = hi if hi < c.npiv else c.npiv
    cdef int x = c.rows[src][j], v = c.val[x], d, y
    cdef Step* s
    d = c.ppow[v]
    c.nactive -= 1
    c.active[best] = c.active[c.nactive]
    if not c.logging:
        c.ntargets = 0
        c.nsteps = 0
    if grow(&c.cap_steps, c.nsteps + 1, <void**>&c.steps, sizeof(Step), NULL, 0, NULL, 0) != 0:
        return ME_NOMEM
    s = c.steps + c.nsteps
    s.src = src
    s.unit = c.inv[x]
    s.first = c.ntargets
    s.new_row = -1
    s.new_factor = 0
    if reduce_above:
        for k in range(c.npivots):
            y = c.rows[c.piv_row[k]][j]
            if y >= d:
                if add_target(c, c.piv_row[k], y // d) != 0:
                    return ME_NOMEM
    for a in range(c.nactive):
        r = c.active[a]
        if c.firstnz[r] == j:
            if add_target(c, r, c.rows[r][j] // d) != 0:
                return ME_NOMEM
    s.count = c.ntargets - s.first
    if v > 0:
        # Saturation: p^(e-v) times the pivot row is zero at j; it joins the active rows.
        if c.budget >= 0:
            if c.budget < c.ncols:
                return ME_BUDGET
            c.budget -= c.ncols
        if grow_rows(c, c.nrows + 1) != 0:
            return ME_NOMEM
        c.rows[c.nrows] = <uint8_t*>calloc(<size_t>c.ncols, 1)
        if c.rows[c.nrows] == NULL:
            return ME_NOMEM
        s.new_row = <int32_t>c.nrows
        s.new_factor = c.ppow[c.e - v]
        c.nrows += 1
    c.nsteps += 1
    apply_step(c, s, j, hi)
    if grow(&c.cap_piv, c.npivots + 1, <void**>&c.piv_row, sizeof(int32_t), <void**>&c.piv_col,
            sizeof(Py_ssize_t), NULL, 0) != 0:
        return ME_NOMEM
    c.piv_row[c.npivots] = src
    c.piv_col[c.npivots] = j
    c.npivots += 1
    # The targets are now zero at j; find their next nonzero column in the stripe.
    for a in range(c.nactive):
        r = c.active[a]
        if c.firstnz[r] == j:
            c.firstnz[r] = first_nonzero(c.rows[r], j + 1, jmax)
    if s.new_factor != 0:
        r = s.new_row
        c.active[c.nactive] = r
        c.nactive += 1
        c.firstnz[r] = first_nonzero(c.rows[r], j + 1, jmax)
    return 0


cdef Py_ssize_t echelon_run(Ctx* c, bint reduce_above) noexcept nogil:
    """Howell form (or, without reduce_above, an echelon form) of c.rows; returns
    the number of pivots, ME_NOMEM or ME_INTERRUPTED."""
    cdef Py_ssize_t c0, c1, jmax, j, a, best, f, si, logged
    cdef int bestval, vv, status
    cdef int32_t r
    c1 = 0
    while c1 < c.ncols:
        c0 = c1
        c1 = c0 + c.width if c0 + c.width < c.ncols else c.ncols
        # Replay the steps found on earlier stripes.
        logged = c.nsteps if c.logging else 0
        for si in range(logged):
            apply_step(c, c.steps + si, c0, c1)
            if poll_work(&c.poll, 0) != STOP_NONE:
                return ME_INTERRUPTED
        if c.nactive == 0 or c0 >= c.npiv:
            continue
        jmax = c1 if c1 < c.npiv else c.npiv
        for a in range(c.nactive):
            r = c.active[a]
            c.firstnz[r] = first_nonzero(c.rows[r], c0, jmax)
        while c.nactive > 0:
            # The leftmost nonzero column among the active rows; lowest valuation there.
            j = jmax
            best = -1
            bestval = 255
            for a in range(c.nactive):
                r = c.active[a]
                f = c.firstnz[r]
                if f < j:
                    j = f
                    best = a
                    bestval = c.val[c.rows[r][f]]
                elif f == j and f < jmax:
                    vv = c.val[c.rows[r][f]]
                    if vv < bestval:
                        best = a
                        bestval = vv
            if best < 0:
                break
            status = pivot_step(c, j, best, c1, reduce_above)
            if status != 0:
                return status
            if poll_work(&c.poll, 0) != STOP_NONE:
                return ME_INTERRUPTED
    return c.npivots


cdef Py_ssize_t final_rows(Ctx* c, int32_t* order) noexcept nogil:
    """The rows of the result in order: pivot rows, then active rows that are
    not zero (possible only when pivots were searched in fewer columns)."""
    cdef Py_ssize_t k, a, n = 0
    cdef int32_t r
    for k in range(c.npivots):
        order[n] = c.piv_row[k]
        n += 1
    if c.npiv < c.ncols:
        for a in range(c.nactive):
            r = c.active[a]
            if first_nonzero(c.rows[r], 0, c.ncols) < c.ncols:
                order[n] = r
                n += 1
    return n


cdef int arrange_in_place(Ctx* c, const int32_t* order, Py_ssize_t nout) noexcept nogil:
    """Move the rows listed in order into rows 0..nout-1 of the caller's array
    (nout <= nwork): a permutation of the caller's rows by cycles, then the
    malloc'ed rows copied over rows no longer needed."""
    cdef Py_ssize_t nwork = c.nwork, k, i, src, pos, ncols = c.ncols
    cdef Py_ssize_t* perm = <Py_ssize_t*>malloc(<size_t>(nwork + 1) * sizeof(Py_ssize_t))
    cdef uint8_t* used = <uint8_t*>calloc(<size_t>(nwork + 1), 1)
    cdef uint8_t* tmp = <uint8_t*>malloc(<size_t>ncols + 1)
    cdef uint8_t* base = c.rows[0] if nwork > 0 else NULL
    if nwork <= 0:
        free(perm)
        free(used)
        free(tmp)
        return 0
    if perm == NULL or used == NULL or tmp == NULL:
        free(perm)
        free(used)
        free(tmp)
        return ME_NOMEM
    # perm[k]: the caller's row that position k receives.
    for k in range(nwork):
        perm[k] = -1
    for k in range(nout):
        if order[k] < nwork:
            perm[k] = order[k]
            used[order[k]] = 1
    i = 0
    for k in range(nwork):
        if perm[k] < 0:
            while used[i]:
                i += 1
            perm[k] = i
            used[i] = 1
    memset(used, 0, <size_t>nwork)     # now: position done
    for k in range(nwork):
        if used[k] or perm[k] == k:
            used[k] = 1
            continue
        memcpy(tmp, base + k * ncols, <size_t>ncols)
        pos = k
        while True:
            used[pos] = 1
            src = perm[pos]
            if src == k:
                memcpy(base + pos * ncols, tmp, <size_t>ncols)
                break
            memcpy(base + pos * ncols, base + src * ncols, <size_t>ncols)
            pos = src
    for k in range(nout):
        if order[k] >= nwork:
            memcpy(base + k * ncols, c.rows[order[k]], <size_t>ncols)
    free(perm)
    free(used)
    free(tmp)
    return 0


# ---------------------------------------------------------------------------
# Vector reduction by a Howell form (any modulus N <= 255).

cdef Py_ssize_t reduce_core(uint8_t* vec, Py_ssize_t ncols, const uint8_t* howell, Py_ssize_t nrows,
                            const int64_t* cols, int N, uint16_t M, Poll* poll) noexcept nogil:
    """For each Howell row in order, subtract the multiple of it that brings the
    vector's entry at the row's pivot column into [0, pivot)."""
    cdef Py_ssize_t i, j
    cdef int x, d, t
    cdef const uint8_t* row
    for i in range(nrows):
        j = cols[i]
        row = howell + i * ncols
        d = row[j]
        x = vec[j]
        t = x // d
        if t:
            axpy(vec + j, row + j, <uint8_t>(N - t), ncols - j, <uint16_t>N, M)
            if poll_work(poll, ncols - j) != STOP_NONE:
                return ME_INTERRUPTED
    return 0


# ---------------------------------------------------------------------------
# Argument checks (GIL held).

cdef object _pivot_columns(object pivot_cols, object rows, bint unit_pivots):
    """pivot_cols as a C-contiguous int64 array of increasing columns, one per row of `rows`, each
    at a nonzero entry of its row (an entry 1 with unit_pivots); else raise."""
    cols = np.ascontiguousarray(pivot_cols, dtype=np.int64)
    cdef Py_ssize_t r = rows.shape[0], n = rows.shape[1]
    if cols.shape != (r,):
        raise InvalidBoardError(f"pivot_cols must have shape ({r},), got {cols.shape}")
    if r and (cols.min() < 0 or cols.max() >= n or np.any(np.diff(cols) <= 0)):
        raise InvalidBoardError(f"pivot_cols must be increasing column indices in 0..{n - 1}")
    pivots = rows[np.arange(r), cols] if r else None
    if r and unit_pivots and np.any(pivots != 1):
        raise InvalidBoardError("every pivot of the echelon form must be 1")
    if r and not unit_pivots and np.any(pivots == 0):
        raise InvalidBoardError("every Howell row must be nonzero at its pivot column")
    return cols


cdef int _modulus(object modulus) except -1:
    if isinstance(modulus, (bool, np.bool_)) or not isinstance(modulus, (int, np.integer)):
        raise InvalidTypeError(f"modulus must be an int, got {type(modulus).__name__}")
    if not 2 <= modulus <= 255:
        raise InvalidBoardError(f"modulus must be in 2..255, got {modulus}")
    return int(modulus)


cdef tuple _prime_power(int q):
    """(p, e) with q = p^e, or raise."""
    cdef int p = 2, e = 0, rest = q
    while rest % p:
        p += 1
    while rest % p == 0:
        rest //= p
        e += 1
    if rest != 1:
        raise InvalidBoardError(f"modulus must be a prime power here, got {q}")
    return p, e


cdef int _check_residues(object array, int modulus, str name) except -1:
    cdef const uint8_t[::1] flat
    cdef uint8_t top
    if array.size == 0:
        return 0
    flat = array.reshape(-1)
    with nogil:
        top = max_byte(&flat[0], flat.shape[0])
    if top >= modulus:
        raise InvalidBoardError(f"{name} has an entry {top} >= modulus {modulus}")
    return 0


cdef int _nomem(str what) except -1:
    raise BoardTooLargeError(f"no memory for {what}")


#: The SIMD level this build was compiled for ("generic", "avx2" or "avx512").
SIMD_LEVEL = (<bytes>LIGHTSOUT_SIMD_LEVEL).decode("ascii")


# ---------------------------------------------------------------------------
# Python entry points.

def echelon_inplace(work, modulus, npivot_cols=-1, *, reduce_above=True, stripe_cols=0, max_extra_bytes=-1):
    """Howell form over Z/q (q = p^e a prime power) of the rows of ``work``, computed in place.

    Args:
        work: C-contiguous writable ``(nrows, ncols)`` uint8 array of residues in
            ``[0, q)``; its content is used as scratch.
        modulus: the prime power q, 2 <= q <= 255.
        npivot_cols: pivots are searched only in the first ``npivot_cols``
            columns (default: all); row operations act on all columns, so an
            augmented ``[A | b]`` is eliminated with ``npivot_cols = ncols - 1``.
        reduce_above: reduce the entries above each pivot into ``[0, pivot)``
            (default).  Without it the result is only an echelon form, which is
            enough for a rank and about half the work.
        stripe_cols: process this many columns at a time (0: chosen from the
            shape).  Any value gives the same result; tests use small ones.
        max_extra_bytes: memory the saturation rows (prime powers only) and a
            result larger than ``work`` may take, in bytes (-1: no limit).  Their
            number depends on the data, so it cannot be checked beforehand.

    Returns:
        ``(rows, pivot_cols)``: ``rows[:r]``, ``r = len(pivot_cols)``, are the
        pivot rows in increasing pivot column, pivot entry ``p^v`` (a divisor of
        q); with ``npivot_cols < ncols`` they are followed by the remaining
        nonzero rows, which are zero in the first ``npivot_cols`` columns.
        ``rows`` is a view of ``work``'s first rows when they fit, else a new
        array (saturation rows can outnumber the input rows).

    Raises:
        InvalidTypeError, InvalidBoardError: bad arrays or arguments, or an
            entry >= q.
        BoardTooLargeError: 2^30 rows or more (row numbers are 32-bit), more
            than ``max_extra_bytes`` of saturation rows or result, or no memory
            for the scratch.
        KeyboardInterrupt: Ctrl-C (run from the main thread); ``work`` is then
            unspecified.

    Example:
        >>> import numpy as np
        >>> work = np.array([[2, 1], [0, 2]], dtype=np.uint8)   # over Z/4
        >>> rows, cols = echelon_inplace(work, 4)
        >>> rows.tolist(), cols.tolist()
        ([[2, 1], [0, 2]], [0, 1])
        >>> rows, cols = echelon_inplace(np.array([[1, 2, 0], [2, 1, 1]], dtype=np.uint8), 3)
        >>> rows.tolist(), cols.tolist()
        ([[1, 2, 0], [0, 0, 1]], [0, 2])
    """
    raw_array(work, "work", np.uint8, None, 2, True)
    cdef int q = _modulus(modulus)
    p_obj, e_obj = _prime_power(q)
    if isinstance(npivot_cols, (bool, np.bool_)) or not isinstance(npivot_cols, (int, np.integer)):
        raise InvalidTypeError(f"npivot_cols must be an int, got {type(npivot_cols).__name__}")
    if isinstance(stripe_cols, (bool, np.bool_)) or not isinstance(stripe_cols, (int, np.integer)):
        raise InvalidTypeError(f"stripe_cols must be an int, got {type(stripe_cols).__name__}")
    if stripe_cols < 0:
        raise InvalidBoardError(f"stripe_cols must be >= 0, got {stripe_cols}")
    if isinstance(max_extra_bytes, (bool, np.bool_)) or not isinstance(max_extra_bytes, (int, np.integer)):
        raise InvalidTypeError(f"max_extra_bytes must be an int, got {type(max_extra_bytes).__name__}")
    cdef Py_ssize_t nrows = work.shape[0], ncols = work.shape[1]
    if not (npivot_cols == -1 or 0 <= npivot_cols <= ncols):
        raise InvalidBoardError(f"npivot_cols must be -1 or in 0..ncols={ncols}, got {npivot_cols}")
    if nrows >= (1 << 30):
        raise BoardTooLargeError(f"echelon_inplace takes fewer than 2^30 rows, got {nrows}")
    _check_residues(work, q, "work")
    cdef Py_ssize_t npiv = ncols if npivot_cols == -1 else npivot_cols
    if nrows == 0 or ncols == 0:
        return work[:0], np.zeros(0, dtype=np.int64)
    cdef bint above = bool(reduce_above)
    cdef Py_ssize_t width, i, status, nout = 0
    if stripe_cols:
        width = min(int(stripe_cols), ncols)
    elif nrows < STRIPE_MAX_ROWS and ncols > STRIPE_MIN_COLS:
        width = max(STRIPE_MIN_COLS, (STRIPE_BYTES // nrows + 63) // 64 * 64)
        width = min(width, ncols)
    else:
        width = ncols
    cdef uint8_t[:, ::1] view = work
    cdef uint8_t[:, ::1] out_view
    cdef int32_t* order = NULL
    cdef Ctx ctx
    memset(&ctx, 0, sizeof(Ctx))
    ctx.nwork = nrows
    ctx.ncols = ncols
    ctx.npiv = npiv
    ctx.q = q
    ctx.p = p_obj
    ctx.e = e_obj
    ctx.M = barrett(q)
    ctx.width = width
    ctx.logging = width < ncols
    ctx.budget = max_extra_bytes if max_extra_bytes >= 0 else -1
    ctx.poll = make_poll(None, SIGNAL_WORK)
    try:
        with nogil:
            ring_tables(&ctx)
            status = grow_rows(&ctx, nrows + 1)
            if status == 0:
                ctx.mult = <uint8_t*>malloc(<size_t>(q * width + 64))
                if ctx.mult == NULL:
                    status = ME_NOMEM
            if status == 0:
                for i in range(nrows):
                    ctx.rows[i] = &view[i, 0]
                    ctx.active[i] = <int32_t>i
                ctx.nrows = nrows
                ctx.nactive = nrows
                status = echelon_run(&ctx, above)
            if status >= 0:
                order = <int32_t*>malloc(<size_t>(ctx.nrows + 1) * sizeof(int32_t))
                if order == NULL:
                    status = ME_NOMEM
                else:
                    nout = final_rows(&ctx, order)
                    if nout <= nrows:
                        status = arrange_in_place(&ctx, order, nout)
        raise_if_interrupted(status)
        if status == ME_NOMEM:
            _nomem(f"the elimination of a {nrows} x {ncols} matrix")
        if status == ME_BUDGET or (nout > nrows and 0 <= max_extra_bytes < nout * ncols):
            raise BoardTooLargeError(
                f"the Howell form of a {nrows} x {ncols} matrix mod {q} needs more than "
                f"max_extra_bytes={max_extra_bytes} bytes of saturation rows")
        cols = np.empty(ctx.npivots, dtype=np.int64)
        for i in range(ctx.npivots):
            cols[i] = ctx.piv_col[i]
        if nout <= nrows:
            out = work[:nout]
        else:
            try:
                out = np.empty((nout, ncols), dtype=np.uint8)
            except MemoryError:
                _nomem(f"a {nout} x {ncols} Howell form")
            out_view = out
            with nogil:
                for i in range(nout):
                    memcpy(&out_view[i, 0], ctx.rows[order[i]], <size_t>ncols)
                    if order[i] >= nrows:       # a saturation row: free it now, not at the end
                        free(ctx.rows[order[i]])
                        ctx.rows[order[i]] = NULL
        return out, cols
    finally:
        free(order)
        free_ctx(&ctx)


def reduce_rows_inplace(vectors, howell, pivot_cols, modulus):
    """Reduce each row of ``vectors`` by a Howell form over Z/N, in place.

    For each Howell row in order, the vector loses the multiple of it that brings
    its entry at the row's pivot column into ``[0, pivot)``.  With a Howell
    form this gives the lexicographically smallest element of the coset
    ``vector + span(howell)`` (see lightsout/_core/modring.py).

    Args:
        vectors: C-contiguous writable ``(k, n)`` uint8 residues mod N.
        howell: C-contiguous ``(r, n)`` uint8 rows, row i zero before column
            ``pivot_cols[i]`` and nonzero there (a divisor of N).
        pivot_cols: ``(r,)`` int64 pivot columns, increasing.
        modulus: N, 2 <= N <= 255.

    Raises:
        InvalidTypeError, InvalidBoardError: bad arrays or arguments.
        KeyboardInterrupt: Ctrl-C (from the main thread).

    Example:
        >>> import numpy as np
        >>> v = np.array([[3, 5]], dtype=np.uint8)
        >>> reduce_rows_inplace(v, np.array([[2, 1]], dtype=np.uint8), np.array([0]), 6)
        >>> v.tolist()
        [[1, 4]]
    """
    raw_array(vectors, "vectors", np.uint8, None, 2, True)
    raw_array(howell, "howell", np.uint8, None, 2, False)
    cdef int N = _modulus(modulus)
    cdef Py_ssize_t k = vectors.shape[0], n = vectors.shape[1], r = howell.shape[0], i
    if howell.shape[1] != n:
        raise InvalidBoardError(f"howell has {howell.shape[1]} columns, vectors {n}")
    cols = _pivot_columns(pivot_cols, howell, False)
    _check_residues(vectors, N, "vectors")
    if k == 0 or r == 0 or n == 0:
        return None
    cdef uint8_t[:, ::1] vec_view = vectors
    cdef const uint8_t[:, ::1] h_view = howell
    cdef const int64_t[::1] col_view = cols
    cdef Poll poll = make_poll(None, SIGNAL_WORK)
    cdef Py_ssize_t status = 0
    cdef uint16_t M = barrett(N)
    with nogil:
        for i in range(k):
            status = reduce_core(&vec_view[i, 0], n, &h_view[0, 0], r, &col_view[0], N, M, &poll)
            if status != 0:
                break
    raise_if_interrupted(status)
    return None


def reduce_above_inplace(howell, pivot_cols, modulus):
    """Reduce the entries above every pivot of an echelon form over Z/N into ``[0, pivot)``, in place.

    Row i is reduced by rows i+1.. (last rows first, so each row is reduced by
    rows that are already final).  Applied to rows that have the Howell
    property, this completes the Howell form.

    Args:
        howell: C-contiguous writable ``(r, n)`` uint8 rows, as for
            :func:`reduce_rows_inplace`.
        pivot_cols: ``(r,)`` int64 pivot columns, increasing.
        modulus: N, 2 <= N <= 255.

    Example:
        >>> import numpy as np
        >>> h = np.array([[1, 5, 4], [0, 2, 1]], dtype=np.uint8)
        >>> reduce_above_inplace(h, np.array([0, 1]), 6)
        >>> h.tolist()
        [[1, 1, 2], [0, 2, 1]]
    """
    raw_array(howell, "howell", np.uint8, None, 2, True)
    cdef int N = _modulus(modulus)
    cdef Py_ssize_t r = howell.shape[0], n = howell.shape[1], i
    _check_residues(howell, N, "howell")
    cols = _pivot_columns(pivot_cols, howell, False)
    if r < 2:
        return None
    cdef uint8_t[:, ::1] h_view = howell
    cdef const int64_t[::1] col_view = cols
    cdef Poll poll = make_poll(None, SIGNAL_WORK)
    cdef Py_ssize_t status = 0
    cdef uint16_t M = barrett(N)
    with nogil:
        for i in range(r - 2, -1, -1):
            status = reduce_core(&h_view[i, 0], n, &h_view[i + 1, 0], r - 1 - i, &col_view[i + 1], N, M,
                                 &poll)
            if status != 0:
                break
    raise_if_interrupted(status)
    return None


def back_substitute_inplace(echelon, pivot_cols, values, modulus):
    """Finish Gauss-Jordan over GF(p) on a few columns: back substitution of an echelon form.

    ``echelon[:r]`` is an echelon form over GF(p) with every pivot equal to 1
    (as :func:`echelon_inplace` leaves it with ``reduce_above=False``), and
    ``values`` holds some of its non-pivot columns (for example the free
    columns and a right-hand side).  On return ``values`` holds those columns
    of the reduced row echelon form.  Row i loses ``echelon[i, pivot_cols[k]]``
    times the finished row k for every k > i: the entries of row i at other
    pivot columns never change during Gauss-Jordan, so they are read from the
    echelon form as it is.  Costs r^2 / 2 row operations on rows of
    ``values.shape[1]`` entries, instead of the r^2 n / 2 of reducing whole rows.

    Args:
        echelon: C-contiguous ``(r, n)`` uint8 echelon form, pivots 1.
        pivot_cols: ``(r,)`` int64 increasing pivot columns.
        values: C-contiguous writable ``(r, s)`` uint8 residues mod p.
        modulus: the prime p.

    Example:
        >>> import numpy as np
        >>> echelon = np.array([[1, 2, 1, 0], [0, 0, 1, 2]], dtype=np.uint8)   # mod 3
        >>> values = np.ascontiguousarray(echelon[:, [1, 3]])
        >>> back_substitute_inplace(echelon, np.array([0, 2]), values, 3)
        >>> values.tolist()
        [[2, 1], [0, 2]]
    """
    raw_array(echelon, "echelon", np.uint8, None, 2, False)
    raw_array(values, "values", np.uint8, None, 2, True)
    cdef int p = _modulus(modulus)
    p_obj, e_obj = _prime_power(p)
    if e_obj != 1:
        raise InvalidBoardError(f"modulus must be a prime here, got {p}")
    cdef Py_ssize_t r = echelon.shape[0], n = echelon.shape[1], s = values.shape[1], i, k
    if values.shape[0] != r:
        raise InvalidBoardError(f"values must have one row per pivot ({r}), got shape {values.shape}")
    cols = _pivot_columns(pivot_cols, echelon, True)
    _check_residues(values, p, "values")
    if r < 2 or s == 0:
        return None
    cdef const uint8_t[:, ::1] e_view = echelon
    cdef uint8_t[:, ::1] v_view = values
    cdef const int64_t[::1] c_view = cols
    cdef Poll poll = make_poll(None, SIGNAL_WORK)
    cdef int t, status = 0
    cdef uint16_t M = barrett(p)
    cdef const uint8_t* row
    with nogil:
        for i in range(r - 2, -1, -1):
            row = &e_view[i, 0]
            for k in range(i + 1, r):
                t = row[c_view[k]]
                if t:
                    axpy(&v_view[i, 0], &v_view[k, 0], <uint8_t>(p - t), s, <uint16_t>p, M)
            status = poll_work(&poll, (r - i) * (s + 8))
            if status != STOP_NONE:
                break
    raise_if_interrupted(status)
    return None


def leading_columns(rows):
    """The column of each row's first nonzero entry (``ncols`` for a zero row).

    Args:
        rows: C-contiguous ``(r, ncols)`` uint8 array.

    Returns:
        ``(r,)`` int64 array.

    Example:
        >>> import numpy as np
        >>> leading_columns(np.array([[0, 3, 1], [0, 0, 0]], dtype=np.uint8)).tolist()
        [1, 3]
    """
    raw_array(rows, "rows", np.uint8, None, 2, False)
    cdef Py_ssize_t r = rows.shape[0], n = rows.shape[1], i
    out = np.full(r, n, dtype=np.int64)
    if r == 0 or n == 0:
        return out
    cdef const uint8_t[:, ::1] view = rows
    cdef int64_t[::1] out_view = out
    with nogil:
        for i in range(r):
            out_view[i] = first_nonzero(&view[i, 0], 0, n)
    return out


cdef int _pass_kernel(int kind, uint8_t* dst, const uint8_t* src, Py_ssize_t n, int t, int N,
                      Poll* poll) noexcept nogil:
    """One pass over n bytes in blocks, polling (a poll every PASS_BLOCK) between blocks.
    kind 0: dst = src mod N; 1: dst = dst + t * src mod N; 2: dst = t * dst mod N."""
    cdef Py_ssize_t lo = 0, m
    cdef uint16_t M = barrett(N)
    while lo < n:
        m = n - lo if n - lo < PASS_BLOCK else PASS_BLOCK
        if kind == 0:
            remainder_to(dst + lo, src + lo, m, <uint16_t>N, M)
        elif kind == 1:
            axpy(dst + lo, src + lo, <uint8_t>t, m, <uint16_t>N, M)
        else:
            scale(dst + lo, <uint8_t>t, m, <uint16_t>N, M)
        lo += m
        if lo < n and poll_work(poll, m) != STOP_NONE:
            return ME_INTERRUPTED
    return 0


cdef int _written_and_read(object dst, str dst_name, object src, str src_name) except -1:
    """The arrays of a pass: uint8, C-contiguous, one shape, dst writable, not overlapping src."""
    raw_array(dst, dst_name, np.uint8, None, -1, True)
    raw_array(src, src_name, np.uint8, dst.shape, -1, False)
    if np.shares_memory(dst, src):
        raise InvalidBoardError(f"{dst_name} and {src_name} must not overlap")
    return 0


cdef int _run_pass(int kind, object dst, object src, int t, int N) except -1:
    """_pass_kernel's pass `kind` over the flattened arrays (checked), polling for Ctrl-C."""
    if dst.size == 0:
        return 0
    cdef uint8_t[::1] d = dst.reshape(-1)
    cdef const uint8_t[::1] s = src.reshape(-1)
    cdef Poll poll = make_poll(None, PASS_BLOCK)
    cdef int status
    with nogil:
        status = _pass_kernel(kind, &d[0], &s[0], d.shape[0], t, N, &poll)
    raise_if_interrupted(status)
    return 0


cdef int _factor(object t, int N) except -1:
    if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)):
        raise InvalidTypeError(f"t must be an int, got {type(t).__name__}")
    if not 0 <= t < N:
        raise InvalidBoardError(f"t must be in 0..{N - 1}, got {t}")
    return int(t)


def remainder(src, modulus, out):
    """``out = src mod modulus`` for any uint8 entries (a vectorised pass, no division).

    Args:
        src, out: C-contiguous uint8 arrays of the same shape, out writable,
            not overlapping src.
        modulus: 2 <= N <= 255.

    Example:
        >>> import numpy as np
        >>> a = np.array([[0, 7, 255]], dtype=np.uint8)
        >>> out = np.empty_like(a)
        >>> remainder(a, 6, out)
        >>> out.tolist()
        [[0, 1, 3]]
    """
    _written_and_read(out, "out", src, "src")
    _run_pass(0, out, src, 0, _modulus(modulus))
    return None


def axpy_inplace(x, y, t, modulus):
    """``x = (x + t * y) mod N`` elementwise, in place (residues in ``[0, N)``).

    Args:
        x, y: C-contiguous uint8 arrays of the same shape, x writable, both
            distinct arrays of residues mod N.
        t: an int in ``0..N-1``.
        modulus: 2 <= N <= 255.

    Example:
        >>> import numpy as np
        >>> x = np.array([1, 2, 3], dtype=np.uint8)
        >>> axpy_inplace(x, np.array([4, 4, 0], dtype=np.uint8), 2, 5)
        >>> x.tolist()
        [4, 0, 3]
    """
    _written_and_read(x, "x", y, "y")
    cdef int N = _modulus(modulus)
    _run_pass(1, x, y, _factor(t, N), N)
    return None


def scale_inplace(x, t, modulus):
    """``x = t * x mod N`` elementwise, in place (residues in ``[0, N)``).

    Example:
        >>> import numpy as np
        >>> x = np.array([1, 2, 3], dtype=np.uint8)
        >>> scale_inplace(x, 4, 6)
        >>> x.tolist()
        [4, 2, 0]
    """
    raw_array(x, "x", np.uint8, None, -1, True)
    cdef int N = _modulus(modulus)
    _run_pass(2, x, x, _factor(t, N), N)
    return None
