# Generalised light chasing on an undirected graph (docs/algebra.md section 1,
# carried from grid rows to vertices; Wang, Xu & Zhou, arXiv:2208.09731).
#
# Vertex v's equation reads  sum_{u in N[v]} x_u + b_v = 0 (mod k), where N[v]
# is v's neighbours, plus v itself unless the sigma rule (self_toggle=False)
# holds.  Every coefficient is 1, a unit mod any k, so an equation with a
# single undetermined press variable determines it.  The adjacency is
# symmetric, so the equations that contain x_u are exactly those of N[u].
#
# 1. forcing_plan (integers only, O(n + m)): repeatedly use an unused
#    equation with exactly one undetermined variable to determine it; when
#    none is left, take an unused equation with the fewest (>= 2) undetermined
#    variables and make all but one of them free unknowns (the forcing set Z).
#    Variables in no equation at all (isolated vertices of the sigma game) are
#    free too.  Every determined variable used one equation, so exactly |Z|
#    equations stay unused: the final equations.  Buckets of unused equations
#    by undetermined count are doubly linked lists (O(1) moves; the newest
#    first, which keeps the front compact: a grid is chased row by row).
#    The plan also records the largest number of vertex expressions alive at
#    once (see 2), so the caller can refuse before allocating.
# 2. forcing_system_*: replay the plan with every variable written as an
#    affine function of Z (a row of |Z| coefficients and a constant; packed
#    bits for k = 2, bytes mod k otherwise).  An equation is complete once all
#    its variables are determined; a final equation then becomes one row of
#    the |Z| x |Z| system.  A vertex's expression is dropped (its slot reused)
#    once every equation that contains it is complete, so memory follows the
#    chasing front (about two grid rows), not n.
# 3. The caller solves that system (packed elimination or lightsout._core.modring).
# 4. forcing_expand_*: replay the plan once more with numbers instead of
#    expressions, for several Z vectors at once (the particular solution with
#    the board's constants, the kernel generators without), giving full press
#    vectors over every vertex.
#
# Graph arrays: indptr int64 (n + 1), indices int32 (neighbours of v are
# indices[indptr[v]:indptr[v + 1]]: no v itself, no repeats, symmetric).  The
# callers (lightsout._routes.forcing) check them.  Loops run without the GIL and,
# when called from the main thread, check for signals every SIGNAL_WORK units
# of work (a few milliseconds), so Ctrl-C stops them promptly.
#
# Compiled once per SIMD level (lightsout/_kernels/registry.py): the row loops below are
# plain C loops on restrict pointers that GCC vectorises.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy, memset

from lightsout._kernels.cancel cimport STOP_NONE, Poll, make_poll, poll_work, raise_if_interrupted

import numpy as np

from lightsout._base.errors import InvalidBoardError

cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    #if defined(_MSC_VER)
    #define GC_RESTRICT __restrict
    #else
    #define GC_RESTRICT __restrict__
    #endif
    static void gc_xor_into(uint64_t *GC_RESTRICT dst, const uint64_t *GC_RESTRICT src, ptrdiff_t n) {
        for (ptrdiff_t i = 0; i < n; i++) dst[i] ^= src[i];
    }
    /* dst = (dst + src) mod k, entries in 0..k-1 (k <= 255). */
    static void gc_add_mod(uint8_t *GC_RESTRICT dst, const uint8_t *GC_RESTRICT src, ptrdiff_t n, unsigned k) {
        for (ptrdiff_t i = 0; i < n; i++) {
            unsigned t = (unsigned)dst[i] + (unsigned)src[i];
            dst[i] = (uint8_t)(t >= k ? t - k : t);
        }
    }
    /* dst = -dst mod k. */
    static void gc_neg_mod(uint8_t *GC_RESTRICT dst, ptrdiff_t n, unsigned k) {
        for (ptrdiff_t i = 0; i < n; i++) dst[i] = (uint8_t)(dst[i] ? k - dst[i] : 0);
    }
    """
    void xor_into "gc_xor_into"(uint64_t* dst, const uint64_t* src, Py_ssize_t n) noexcept nogil
    void add_mod "gc_add_mod"(uint8_t* dst, const uint8_t* src, Py_ssize_t n, unsigned k) noexcept nogil
    void neg_mod "gc_neg_mod"(uint8_t* dst, Py_ssize_t n, unsigned k) noexcept nogil

cdef extern from *:
    """
    #ifndef LIGHTSOUT_SIMD_LEVEL
    #define LIGHTSOUT_SIMD_LEVEL "generic"
    #endif
    """
    const char* LIGHTSOUT_SIMD_LEVEL

SIMD_LEVEL = LIGHTSOUT_SIMD_LEVEL.decode()

cdef enum:
    # Units of work (row words or bytes touched, or adjacency entries) between signal checks.
    SIGNAL_WORK = 1 << 22


# One set of loops serves both kinds of system.  An Incidence holds the two lists:
# equation e's variables and variable u's equations.  On an undirected graph both are the
# neighbour list (the adjacency is symmetric), and under the plus rule each vertex is in its
# own equation: `self_loop` adds it at the end of every list without storing it.  The
# one-way rules of section 5 store both lists and set no self loop.

cdef struct Incidence:
    Py_ssize_t neq, nvar
    const int64_t* eq_ptr      # equation e's stored variables: eq_var[eq_ptr[e]:eq_ptr[e + 1]]
    const int32_t* eq_var
    const int64_t* var_ptr     # variable u's stored equations: var_eq[var_ptr[u]:var_ptr[u + 1]]
    const int32_t* var_eq
    Py_ssize_t self_loop       # 1: equation v also holds variable v (the plus rule on a graph)


cdef inline Py_ssize_t eq_size(const Incidence* a, Py_ssize_t e) noexcept nogil:
    """The number of variables in equation e."""
    return a.eq_ptr[e + 1] - a.eq_ptr[e] + a.self_loop


cdef inline int32_t eq_item(const Incidence* a, Py_ssize_t e, Py_ssize_t i) noexcept nogil:
    """The i-th variable of equation e (the stored ones in order, then e itself with a self loop)."""
    cdef int64_t at = a.eq_ptr[e] + i
    if at < a.eq_ptr[e + 1]:
        return a.eq_var[at]
    return <int32_t>e


cdef inline Py_ssize_t var_size(const Incidence* a, Py_ssize_t u) noexcept nogil:
    """The number of equations holding variable u."""
    return a.var_ptr[u + 1] - a.var_ptr[u] + a.self_loop


cdef inline int32_t var_item(const Incidence* a, Py_ssize_t u, Py_ssize_t i) noexcept nogil:
    """The i-th equation holding variable u."""
    cdef int64_t at = a.var_ptr[u] + i
    if at < a.var_ptr[u + 1]:
        return a.var_eq[at]
    return <int32_t>u


cdef Incidence make_graph(const int64_t[::1] indptr, const int32_t[::1] indices, bint self_toggle) except *:
    """The incidence of an undirected graph's equations: N[v] both ways."""
    cdef Incidence a
    a.neq = a.nvar = indptr.shape[0] - 1
    if a.neq < 0:
        raise InvalidBoardError("indptr must have at least one entry")
    a.eq_ptr = a.var_ptr = &indptr[0]
    a.eq_var = a.var_eq = &indices[0] if indices.shape[0] else NULL
    a.self_loop = 1 if self_toggle else 0
    return a


# ---------------------------------------------------------------------------
# 1. The plan.

cdef struct PlanState:
    int32_t* cnt        # undetermined variables per equation
    uint8_t* used       # equation used to determine a variable
    uint8_t* det        # variable determined (or free)
    int32_t* ref        # equations containing the variable not yet complete
    int32_t* nxt        # bucket links of unused equations with cnt >= 1
    int32_t* prv
    int32_t* head       # head[c]: first unused equation with cnt == c, or -1
    int32_t* steps_var
    int32_t* steps_eq
    int32_t* final_eqs
    Py_ssize_t nsteps, nfinal, nfree, live, peak, lo


cdef inline void bucket_push(PlanState* s, int32_t e, int32_t c) noexcept nogil:
    s.nxt[e] = s.head[c]
    s.prv[e] = -1
    if s.head[c] >= 0:
        s.prv[s.head[c]] = e
    s.head[c] = e
    if c >= 2 and c < s.lo:
        s.lo = c


cdef inline void bucket_remove(PlanState* s, int32_t e, int32_t c) noexcept nogil:
    if s.prv[e] >= 0:
        s.nxt[s.prv[e]] = s.nxt[e]
    else:
        s.head[c] = s.nxt[e]
    if s.nxt[e] >= 0:
        s.prv[s.nxt[e]] = s.prv[e]


cdef void plan_determine(const Incidence* a, PlanState* s, int32_t u, int32_t eq) noexcept nogil:
    """Record that x_u is known (from equation eq, or free when eq < 0) and update the counts."""
    cdef Py_ssize_t i, j, size_u = var_size(a, u)
    cdef int32_t f, v
    s.steps_var[s.nsteps] = u
    s.steps_eq[s.nsteps] = eq
    s.nsteps += 1
    s.det[u] = 1
    if size_u > 0:
        s.ref[u] = <int32_t>size_u
        s.live += 1
        if s.live > s.peak:
            s.peak = s.live
    for i in range(size_u):
        f = var_item(a, u, i)
        if not s.used[f]:
            bucket_remove(s, f, s.cnt[f])
        s.cnt[f] -= 1
        if s.cnt[f] == 0:
            if not s.used[f]:
                s.final_eqs[s.nfinal] = f
                s.nfinal += 1
            for j in range(eq_size(a, f)):
                v = eq_item(a, f, j)
                s.ref[v] -= 1
                if s.ref[v] == 0:
                    s.live -= 1
        elif not s.used[f]:
            bucket_push(s, f, s.cnt[f])


cdef int plan_run(const Incidence* a, PlanState* s, Py_ssize_t maxc, Poll* p) noexcept nogil:
    cdef Py_ssize_t i, size_e, c, freed, scan = 0
    cdef int32_t e, w = -1
    cdef int status
    for e in range(a.neq):
        size_e = eq_size(a, e)
        s.cnt[e] = <int32_t>size_e
        if size_e == 0:
            s.final_eqs[s.nfinal] = e      # an empty equation: 0 = b_e
            s.nfinal += 1
        else:
            bucket_push(s, e, <int32_t>size_e)
    while s.nsteps < a.nvar:
        status = poll_work(p, 16)
        if status != STOP_NONE:
            return status
        e = s.head[1]
        if e >= 0:
            bucket_remove(s, e, 1)
            s.used[e] = 1
            for i in range(eq_size(a, e)):
                w = eq_item(a, e, i)
                if not s.det[w]:
                    break
            plan_determine(a, s, w, e)
            continue
        while s.lo <= maxc and s.head[s.lo] < 0:
            s.lo += 1
        if s.lo > maxc:
            # Every remaining variable is in no unfinished equation, so in none at all: free.
            while scan < a.nvar:
                if not s.det[scan]:
                    plan_determine(a, s, <int32_t>scan, -1)
                    s.nfree += 1
                scan += 1
            break
        c = s.lo
        e = s.head[c]
        freed = 0
        for i in range(eq_size(a, e)):
            if freed == c - 1:
                break
            w = eq_item(a, e, i)
            if not s.det[w]:
                plan_determine(a, s, w, -1)
                s.nfree += 1
                freed += 1
    return 0


cdef tuple _plan(const Incidence* a):
    """forcing_plan and sparse_plan: ``(steps_var, steps_eq, final_eqs, peak)``."""
    cdef Py_ssize_t e, maxc = 0, neq = max(a.neq, 1), nvar = max(a.nvar, 1)
    for e in range(a.neq):
        maxc = max(maxc, eq_size(a, e))
    cnt = np.zeros(neq, dtype=np.int32)
    used = np.zeros(neq, dtype=np.uint8)
    det = np.zeros(nvar, dtype=np.uint8)
    ref = np.zeros(nvar, dtype=np.int32)
    links = np.full((2, neq), -1, dtype=np.int32)
    head = np.full(maxc + 2, -1, dtype=np.int32)
    steps = np.zeros((2, nvar), dtype=np.int32)
    final = np.zeros(neq, dtype=np.int32)
    cdef int32_t[::1] cnt_v = cnt, ref_v = ref, head_v = head, final_v = final
    cdef uint8_t[::1] used_v = used, det_v = det
    cdef int32_t[:, ::1] links_v = links, steps_v = steps
    cdef PlanState s
    cdef Poll p = make_poll(None, SIGNAL_WORK)
    cdef int status
    s.cnt = &cnt_v[0]
    s.used = &used_v[0]
    s.det = &det_v[0]
    s.ref = &ref_v[0]
    s.nxt = &links_v[0, 0]
    s.prv = &links_v[1, 0]
    s.head = &head_v[0]
    s.steps_var = &steps_v[0, 0]
    s.steps_eq = &steps_v[1, 0]
    s.final_eqs = &final_v[0]
    s.nsteps = s.nfinal = s.nfree = s.live = s.peak = 0
    s.lo = maxc + 1
    with nogil:
        status = plan_run(a, &s, maxc, &p)
    raise_if_interrupted(status)
    if s.nsteps != a.nvar or s.nfinal - s.nfree != a.neq - a.nvar:  # cannot happen: each forced press uses one equation
        raise AssertionError(f"forcing plan: {s.nsteps} steps, {s.nfinal} final equations, {s.nfree} free")
    return steps[0, :a.nvar].copy(), steps[1, :a.nvar].copy(), final[:s.nfinal].copy(), int(s.peak)


def forcing_plan(const int64_t[::1] indptr not None, const int32_t[::1] indices not None, bint self_toggle):
    """Greedy forcing order of the graph's press variables (section 1 of the header).

    Args:
        indptr, indices: the graph in CSR form (int64, int32), symmetric, no
            self-loops, no repeated neighbours.
        self_toggle: the plus rule (True) or the sigma rule (False).

    Returns:
        ``(steps_var, steps_eq, final_eqs, peak)``: step i determines variable
        ``steps_var[i]`` from equation ``steps_eq[i]``, or makes it the next
        free unknown when ``steps_eq[i] == -1``; ``final_eqs`` (one per free
        unknown) are the equations left unused, in the order they became
        complete; ``peak`` is the most vertex expressions alive at once during
        the replay.

    Example:
        >>> import numpy as np
        >>> indptr = np.array([0, 1, 3, 4], dtype=np.int64)      # the path 0 - 1 - 2
        >>> indices = np.array([1, 0, 2, 1], dtype=np.int32)
        >>> sv, se, final, peak = forcing_plan(indptr, indices, True)
        >>> len(final), sorted(sv.tolist())
        (1, [0, 1, 2])
    """
    cdef Incidence a = make_graph(indptr, indices, self_toggle)
    return _plan(&a)


# ---------------------------------------------------------------------------
# 2. The reduced system.

cdef struct Replay:
    int32_t* cnt        # undetermined variables per equation
    int32_t* ref        # incomplete equations containing the variable
    int32_t* slot_of    # expression slot of each live variable
    int32_t* free_slots # stack of unused slots
    int32_t* row_of_eq  # system row of a final equation, else -1
    Py_ssize_t nfree_slots


cdef inline int32_t take_slot(Replay* r) noexcept nogil:
    r.nfree_slots -= 1
    return r.free_slots[r.nfree_slots]


cdef inline void release_vars(const Incidence* a, Replay* r, int32_t f) noexcept nogil:
    """Equation f is complete: its variables lose one reference; free the slots that reach 0."""
    cdef Py_ssize_t j
    cdef int32_t v
    for j in range(eq_size(a, f)):
        v = eq_item(a, f, j)
        r.ref[v] -= 1
        if r.ref[v] == 0:
            r.free_slots[r.nfree_slots] = r.slot_of[v]
            r.nfree_slots += 1

# Rows are generic over the ring (gridchase.pyx does the same): GF(2) rows are packed bits
# in uint64 words, Z/k rows one byte a value; the four operations below are all that differ.

ctypedef fused elem_t:
    uint64_t
    uint8_t


cdef inline void add_row(elem_t* dst, const elem_t* src, Py_ssize_t n, unsigned k) noexcept nogil:
    """dst += src over n elements (a XOR of words over GF(2))."""
    if elem_t is uint64_t:
        xor_into(dst, src, n)
    else:
        add_mod(dst, src, n, k)


cdef inline void negate(elem_t* x, Py_ssize_t n, unsigned k) noexcept nogil:
    """x = -x (nothing to do over GF(2))."""
    if elem_t is uint8_t:
        neg_mod(x, n, k)


cdef inline void add_at(elem_t* x, Py_ssize_t col, unsigned value, unsigned k) noexcept nogil:
    """Entry col of the row += value (over GF(2): bit col, by value's bit 0)."""
    if elem_t is uint64_t:
        if value & 1:
            x[col >> 6] ^= (<uint64_t>1) << (col & 63)
    else:
        x[col] = <uint8_t>((x[col] + value) % k)


cdef inline Py_ssize_t row_elements(elem_t* kind, Py_ssize_t ncols) noexcept nogil:
    """Elements of a row of ncols entries (`kind` only selects the ring: pass NULL)."""
    if elem_t is uint64_t:
        return (ncols + 63) // 64
    else:
        return ncols



cdef int replay_system(const Incidence* a, Replay* r, const int32_t* steps_var, const int32_t* steps_eq,
                       const uint8_t* lit, elem_t* slots, elem_t* system, Py_ssize_t nz,
                       unsigned k, Poll* p) noexcept nogil:
    """Fill the system [C | d] (constant in column nz): the presses solve the board iff C z + d = 0."""
    cdef Py_ssize_t s, i, j, zj = 0, size_u, stride = row_elements(<elem_t*>NULL, nz + 1)
    cdef int32_t u, e, f, v, slot, row
    cdef elem_t* x
    cdef elem_t* out
    cdef int status
    for s in range(a.nvar):
        u = steps_var[s]
        e = steps_eq[s]
        size_u = var_size(a, u)
        if size_u > 0:
            slot = take_slot(r)
            r.slot_of[u] = slot
            r.ref[u] = <int32_t>size_u
            x = slots + slot * stride
            memset(x, 0, stride * sizeof(elem_t))
            if e < 0:
                add_at(x, zj, 1, k)
            else:
                # x_u = -(b_e + sum of the other variables of equation e)
                add_at(x, nz, lit[e], k)
                for i in range(eq_size(a, e)):
                    v = eq_item(a, e, i)
                    if v != u:
                        add_row(x, slots + r.slot_of[v] * stride, stride, k)
                negate(x, stride, k)
                status = poll_work(p, eq_size(a, e) * stride)
                if status != STOP_NONE:
                    return status
        if e < 0:
            zj += 1
        for i in range(size_u):
            f = var_item(a, u, i)
            r.cnt[f] -= 1
            if r.cnt[f] == 0:
                row = r.row_of_eq[f]
                if row >= 0:
                    out = system + row * stride
                    add_at(out, nz, lit[f], k)
                    for j in range(eq_size(a, f)):
                        add_row(out, slots + r.slot_of[eq_item(a, f, j)] * stride, stride, k)
                    status = poll_work(p, eq_size(a, f) * stride)
                    if status != STOP_NONE:
                        return status
                release_vars(a, r, f)
    return 0


cdef object _system(elem_t* kind, const Incidence* a, const int32_t[::1] steps_var, const int32_t[::1] steps_eq,
                    const int32_t[::1] final_eqs, Py_ssize_t peak, const uint8_t[::1] lit, int modulus):
    """The forcing_system_* and sparse_system_* kernels (elem_t uint64_t over GF(2), uint8_t mod k): `kind`
    is NULL and only selects the ring."""
    _check_plan(a, steps_var, steps_eq, lit)
    cdef Py_ssize_t nz = int(np.count_nonzero(np.asarray(steps_eq) < 0)), e
    cdef Py_ssize_t nrows = final_eqs.shape[0], stride = row_elements(<elem_t*>NULL, nz + 1)
    dtype = np.uint64 if elem_t is uint64_t else np.uint8
    system = np.zeros((nrows, stride), dtype=dtype)
    if nrows == 0:
        return system
    cnt = np.empty(a.neq, dtype=np.int32)
    cdef int32_t[::1] cnt_v = cnt
    for e in range(a.neq):
        cnt_v[e] = <int32_t>eq_size(a, e)
    row_of_eq = np.full(a.neq, -1, dtype=np.int32)
    row_of_eq[np.asarray(final_eqs)] = np.arange(nrows, dtype=np.int32)
    free_slots = np.arange(max(peak, 1) - 1, -1, -1, dtype=np.int32)
    ref = np.zeros(max(a.nvar, 1), dtype=np.int32)
    slot_of = np.zeros(max(a.nvar, 1), dtype=np.int32)
    slots = np.empty((max(peak, 1), stride), dtype=dtype)
    cdef int32_t[::1] ref_v = ref, slot_v = slot_of, free_v = free_slots, row_v = row_of_eq
    cdef elem_t[:, ::1] slots_v = slots
    cdef elem_t[:, ::1] sys_v = system
    cdef Replay r
    r.cnt, r.ref, r.slot_of, r.free_slots, r.row_of_eq = &cnt_v[0], &ref_v[0], &slot_v[0], &free_v[0], &row_v[0]
    r.nfree_slots = free_slots.shape[0]
    cdef Poll p = make_poll(None, SIGNAL_WORK)
    cdef int status = 0
    cdef const int32_t* sv = &steps_var[0] if a.nvar else NULL
    cdef const int32_t* se = &steps_eq[0] if a.nvar else NULL
    with nogil:
        for e in range(a.neq):     # the empty equations (isolated vertices of the sigma game) are complete at once
            if eq_size(a, e) == 0 and r.row_of_eq[e] >= 0:
                add_at(&sys_v[0, 0] + r.row_of_eq[e] * stride, nz, lit[e], <unsigned>modulus)
        status = replay_system(a, &r, sv, se, &lit[0], &slots_v[0, 0], &sys_v[0, 0], nz, <unsigned>modulus, &p)
    raise_if_interrupted(status)
    return system


def forcing_system_gf2(const int64_t[::1] indptr not None, const int32_t[::1] indices not None,
                       bint self_toggle, const int32_t[::1] steps_var not None,
                       const int32_t[::1] steps_eq not None, const int32_t[::1] final_eqs not None,
                       Py_ssize_t peak, const uint8_t[::1] lit not None):
    """The packed |Z| x (|Z| + 1) system over GF(2) of a plan (section 2 of the header).

    Args:
        indptr, indices, self_toggle: the graph, as for :func:`forcing_plan`.
        steps_var, steps_eq, final_eqs, peak: the plan from :func:`forcing_plan`.
        lit: (n,) uint8 lights (only bit 0 is read).

    Returns:
        ``(nz, words_for_bits(nz + 1))`` uint64 rows ``[C | d]``: the presses
        solve the board iff ``C z = d``, z the free unknowns in plan order
        (bit ``nz`` of each row is d).

    Example:
        >>> import numpy as np
        >>> indptr = np.array([0, 1, 3, 4], dtype=np.int64)      # the path 0 - 1 - 2
        >>> indices = np.array([1, 0, 2, 1], dtype=np.int32)
        >>> plan = forcing_plan(indptr, indices, True)
        >>> forcing_system_gf2(indptr, indices, True, *plan, np.ones(3, np.uint8)).shape
        (1, 1)
    """
    cdef Incidence a = make_graph(indptr, indices, self_toggle)
    return _system(<uint64_t*>NULL, &a, steps_var, steps_eq, final_eqs, peak, lit, 2)


def forcing_system_mod(const int64_t[::1] indptr not None, const int32_t[::1] indices not None,
                       bint self_toggle, const int32_t[::1] steps_var not None,
                       const int32_t[::1] steps_eq not None, const int32_t[::1] final_eqs not None,
                       Py_ssize_t peak, const uint8_t[::1] lit not None, int modulus):
    """The |Z| x (|Z| + 1) system mod k of a plan, as bytes (section 2 of the header).

    Args:
        as for :func:`forcing_system_gf2`; lit holds values 0..modulus-1;
        modulus: k, 2..255.

    Returns:
        ``(nz, nz + 1)`` uint8 rows ``[C | d]``, values 0..k-1: the presses
        solve the board iff ``C z + d = 0 (mod k)``.

    Example:
        >>> import numpy as np
        >>> indptr = np.array([0, 1, 3, 4], dtype=np.int64)      # the path 0 - 1 - 2
        >>> indices = np.array([1, 0, 2, 1], dtype=np.int32)
        >>> plan = forcing_plan(indptr, indices, True)
        >>> forcing_system_mod(indptr, indices, True, *plan, np.ones(3, np.uint8), 3).shape
        (1, 2)
    """
    _check_modulus(modulus)
    cdef Incidence a = make_graph(indptr, indices, self_toggle)
    return _system(<uint8_t*>NULL, &a, steps_var, steps_eq, final_eqs, peak, lit, modulus)


cdef _check_modulus(int modulus):
    if not 2 <= modulus <= 255:
        raise InvalidBoardError(f"modulus must be in 2..255, got {modulus}")


cdef _check_plan(const Incidence* a, const int32_t[::1] steps_var, const int32_t[::1] steps_eq,
                 const uint8_t[::1] lit):
    if steps_var.shape[0] != a.nvar or steps_eq.shape[0] != a.nvar or lit.shape[0] != a.neq:
        raise InvalidBoardError(f"the plan needs one step per variable ({a.nvar}) and the lights one entry per "
                                f"equation ({a.neq}); got {steps_var.shape[0]}, {steps_eq.shape[0]}, {lit.shape[0]}")


# ---------------------------------------------------------------------------
# 4. Expansion to every vertex.

cdef int replay_values(const Incidence* a, const int32_t* steps_var, const int32_t* steps_eq, const uint8_t* lit,
                       const elem_t* zvals, elem_t* vals, Py_ssize_t stride, unsigned k, Poll* p) noexcept nogil:
    """Every variable's row of values (vector j in entry j) from the free unknowns' rows `zvals`."""
    cdef Py_ssize_t s, i, zj = 0
    cdef int32_t u, e, v
    cdef elem_t* x
    cdef int status
    for s in range(a.nvar):
        u = steps_var[s]
        e = steps_eq[s]
        x = vals + u * stride
        if e < 0:
            memcpy(x, zvals + zj * stride, stride * sizeof(elem_t))
            zj += 1
            continue
        add_at(x, 0, lit[e], k)                # vector 0, the particular solution, carries the lights
        for i in range(eq_size(a, e)):
            v = eq_item(a, e, i)
            if v != u:
                add_row(x, vals + v * stride, stride, k)
        negate(x, stride, k)
        status = poll_work(p, eq_size(a, e) * stride)
        if status != STOP_NONE:
            return status
    return 0


cdef object _expand(const Incidence* a, const int32_t[::1] steps_var, const int32_t[::1] steps_eq,
                    const uint8_t[::1] lit, const elem_t[:, ::1] zvals, str zname, int modulus):
    """The forcing_expand_* and sparse_expand_* kernels (elem_t uint64_t over GF(2), uint8_t mod k)."""
    _check_plan(a, steps_var, steps_eq, lit)
    cdef Py_ssize_t stride = zvals.shape[1], nfree = int(np.count_nonzero(np.asarray(steps_eq) < 0))
    if zvals.shape[0] != nfree:
        raise InvalidBoardError(f"{zname} must have one row per free unknown ({nfree}), got {zvals.shape[0]}")
    vals = np.zeros((a.nvar, stride), dtype=np.uint64 if elem_t is uint64_t else np.uint8)
    if a.nvar == 0 or stride == 0:
        return vals
    cdef elem_t[:, ::1] vals_v = vals
    cdef const elem_t* zptr = &zvals[0, 0] if nfree else NULL
    cdef const uint8_t* lptr = &lit[0] if a.neq else NULL
    cdef Poll p = make_poll(None, SIGNAL_WORK)
    cdef int status
    with nogil:
        status = replay_values(a, &steps_var[0], &steps_eq[0], lptr, zptr, &vals_v[0, 0], stride,
                               <unsigned>modulus, &p)
    raise_if_interrupted(status)
    return vals

def forcing_expand_gf2(const int64_t[::1] indptr not None, const int32_t[::1] indices not None,
                       bint self_toggle, const int32_t[::1] steps_var not None,
                       const int32_t[::1] steps_eq not None, const uint8_t[::1] lit not None,
                       const uint64_t[:, ::1] zrows not None):
    """Every vertex's presses from values of the free unknowns, for several vectors at once.

    Args:
        indptr, indices, self_toggle, steps_var, steps_eq: as for
            :func:`forcing_system_gf2`.
        lit: (n,) uint8 lights; they enter vector 0 only (bit 0), the
            particular solution; the other vectors solve the dark board.
        zrows: ``(nz, nwords)`` uint64: bit j of row i is free unknown i in vector j.

    Returns:
        ``(n, nwords)`` uint64: bit j of row v is vertex v's press in vector j.

    Example:
        >>> import numpy as np
        >>> indptr = np.array([0, 1, 3, 4], dtype=np.int64)      # the path 0 - 1 - 2
        >>> indices = np.array([1, 0, 2, 1], dtype=np.int32)
        >>> sv, se, final, peak = forcing_plan(indptr, indices, True)
        >>> z = np.zeros((len(final), 1), dtype=np.uint64)
        >>> forcing_expand_gf2(indptr, indices, True, sv, se, np.ones(3, np.uint8), z).shape
        (3, 1)
    """
    cdef Incidence a = make_graph(indptr, indices, self_toggle)
    return _expand(&a, steps_var, steps_eq, lit, zrows, "zrows", 2)


def forcing_expand_mod(const int64_t[::1] indptr not None, const int32_t[::1] indices not None,
                       bint self_toggle, const int32_t[::1] steps_var not None,
                       const int32_t[::1] steps_eq not None, const uint8_t[::1] lit not None,
                       const uint8_t[:, ::1] zvals not None, int modulus):
    """As :func:`forcing_expand_gf2` mod k, on bytes.

    Args:
        zvals: ``(nz, nvec)`` uint8, values 0..k-1: column j is vector j (vector
            0 carries the lights).
        modulus: k, 2..255.

    Returns:
        ``(n, nvec)`` uint8: row v holds vertex v's press count in each vector.

    Example:
        >>> import numpy as np
        >>> indptr = np.array([0, 1, 3, 4], dtype=np.int64)      # the path 0 - 1 - 2
        >>> indices = np.array([1, 0, 2, 1], dtype=np.int32)
        >>> sv, se, final, peak = forcing_plan(indptr, indices, True)
        >>> z = np.zeros((len(final), 2), dtype=np.uint8)
        >>> forcing_expand_mod(indptr, indices, True, sv, se, np.ones(3, np.uint8), z, 3).shape
        (3, 2)
    """
    _check_modulus(modulus)
    cdef Incidence a = make_graph(indptr, indices, self_toggle)
    return _expand(&a, steps_var, steps_eq, lit, zvals, "zvals", modulus)


# ---------------------------------------------------------------------------
# The full system, for plain elimination.

def effect_matrix_gf2(const int64_t[::1] indptr not None, const int32_t[::1] indices not None,
                      bint self_toggle, const uint8_t[::1] lit not None):
    """The packed n x (n + 1) augmented system ``[A | b]`` over GF(2) (A the press-effect matrix).

    Example:
        >>> import numpy as np
        >>> indptr = np.array([0, 1, 3, 4], dtype=np.int64)      # the path 0 - 1 - 2
        >>> indices = np.array([1, 0, 2, 1], dtype=np.int32)
        >>> effect_matrix_gf2(indptr, indices, True, np.ones(3, np.uint8)).ravel().tolist()
        [11, 15, 14]
    """
    cdef Incidence g = make_graph(indptr, indices, self_toggle)
    cdef Py_ssize_t n = g.neq, nwords = (n + 1 + 63) // 64, v, i
    cdef int32_t u
    if lit.shape[0] != n:
        raise InvalidBoardError(f"lit must have one entry per vertex ({n}), got {lit.shape[0]}")
    aug = np.zeros((n, nwords), dtype=np.uint64)
    if n == 0:
        return aug
    cdef uint64_t[:, ::1] a = aug
    with nogil:
        for v in range(n):
            for i in range(eq_size(&g, v)):
                u = eq_item(&g, v, i)
                a[v, u >> 6] |= (<uint64_t>1) << (u & 63)
            if lit[v] & 1:
                a[v, n >> 6] |= (<uint64_t>1) << (n & 63)
    return aug


# ---------------------------------------------------------------------------
# networkx adjacency dicts to neighbour numbers (lightsout.graph).

from cpython.dict cimport PyDict_Next
from cpython.object cimport PyObject

cdef extern from "Python.h":
    PyObject* PyDict_GetItemWithError(object d, object key) except? NULL
    long PyLong_AsLong(object o) except? -1


def dict_neighbour_numbers(list neighbours not None, dict position, Py_ssize_t total):
    """The neighbour numbers of adjacency dicts, in iteration order: CSR ``indices``.

    Args:
        neighbours: one dict per vertex, in vertex order, keyed by its
            neighbours (a networkx graph's ``G._adj`` values).
        position: node -> vertex number, or None when the nodes are the ints 0..n-1.
        total: the sum of the dicts' lengths.

    Returns:
        ``(total,)`` int32 vertex numbers.

    Raises:
        TypeError: an item of ``neighbours`` is not a dict.
        KeyError: a neighbour that is not a node (not in ``position``).
        InvalidBoardError: the dicts hold more or fewer than ``total`` keys.

    Example:
        >>> dict_neighbour_numbers([{"b": {}}, {"a": {}}], {"a": 0, "b": 1}, 2).tolist()
        [1, 0]
    """
    out = np.empty(total, dtype=np.int32)
    cdef int32_t[::1] numbers = out
    cdef Py_ssize_t k = 0, at
    cdef PyObject* key
    cdef PyObject* value
    cdef PyObject* found
    cdef object nbrs
    for nbrs in neighbours:
        if type(nbrs) is not dict:
            raise TypeError(f"expected a dict of neighbours, got {type(nbrs).__name__}")
        at = 0
        while PyDict_Next(nbrs, &at, &key, &value):
            if k >= total:
                raise InvalidBoardError(f"the adjacency dicts hold more than {total} neighbours")
            if position is None:
                numbers[k] = <int32_t>PyLong_AsLong(<object>key)
            else:
                found = PyDict_GetItemWithError(position, <object>key)
                if found == NULL:
                    raise KeyError(<object>key)
                numbers[k] = <int32_t>PyLong_AsLong(<object>found)
            k += 1
    if k != total:
        raise InvalidBoardError(f"the adjacency dicts hold {k} neighbours, expected {total}")
    return out

# ---------------------------------------------------------------------------
# 5. Forcing on a system that need not be symmetric: one-way rules and masks.
#
# The equations are the required lights, the variables the pressable vertices, both
# numbered from 0 (the caller, lightsout._routes.forcing, compacts them).  Equation e
# reads  sum_{u in var_of(e)} x_u + b_e = 0 (mod k): its variables are the presses that
# reach light e (its predecessors, and e itself under the plus rule, when pressable);
# the equations holding x_u are the lights u reaches (eqs_of(u)).  Every weight is 1, a
# unit mod any k, so the loops of sections 1, 2 and 4 run unchanged on an Incidence that
# stores the two lists: the plan forces a variable from an unused equation that has one
# undetermined variable left; the numbers of free unknowns and of final equations now
# differ (the reduced system is nfinal x nfree).  lift_proof_sparse walks the plan
# backwards to carry a left-kernel vector of the reduced system to every equation.

cdef Incidence make_sparse(const int64_t[::1] eq_ptr, const int32_t[::1] eq_var, const int64_t[::1] var_ptr,
                           const int32_t[::1] var_eq) except *:
    """The incidence of a system given by both lists (no self loop)."""
    cdef Incidence a
    a.neq = eq_ptr.shape[0] - 1
    a.nvar = var_ptr.shape[0] - 1
    if a.neq < 0 or a.nvar < 0:
        raise InvalidBoardError("eq_ptr and var_ptr must have at least one entry")
    if eq_var.shape[0] != eq_ptr[a.neq] or var_eq.shape[0] != var_ptr[a.nvar] or eq_var.shape[0] != var_eq.shape[0]:
        raise InvalidBoardError(f"the two incidence lists disagree: {eq_var.shape[0]} and {var_eq.shape[0]} "
                                f"entries, offsets ending at {eq_ptr[a.neq]} and {var_ptr[a.nvar]}")
    a.eq_ptr = &eq_ptr[0]
    a.eq_var = &eq_var[0] if eq_var.shape[0] else NULL
    a.var_ptr = &var_ptr[0]
    a.var_eq = &var_eq[0] if var_eq.shape[0] else NULL
    a.self_loop = 0
    return a


def sparse_plan(const int64_t[::1] eq_ptr not None, const int32_t[::1] eq_var not None,
                const int64_t[::1] var_ptr not None, const int32_t[::1] var_eq not None):
    """Greedy forcing order of a system of unit weights given by both incidence lists (section 5).

    Args:
        eq_ptr, eq_var: each equation's variables in CSR form (int64 offsets, int32 numbers).
        var_ptr, var_eq: each variable's equations, the same incidences the other way.

    Returns:
        ``(steps_var, steps_eq, final_eqs, peak)`` as :func:`forcing_plan` (one step per
        variable); ``final_eqs`` are the unused equations, in any number.

    Example:
        >>> import numpy as np
        >>> # the one-way path 0 -> 1 -> 2 under the plus rule: light v is reached by presses v-1 and v
        >>> eq_ptr, eq_var = np.array([0, 1, 3, 5]), np.array([0, 0, 1, 1, 2], dtype=np.int32)
        >>> var_ptr, var_eq = np.array([0, 2, 4, 5]), np.array([0, 1, 1, 2, 2], dtype=np.int32)
        >>> sv, se, final, peak = sparse_plan(eq_ptr, eq_var, var_ptr, var_eq)
        >>> sv.tolist(), se.tolist(), final.tolist()
        ([0, 1, 2], [0, 1, 2], [])
    """
    cdef Incidence a = make_sparse(eq_ptr, eq_var, var_ptr, var_eq)
    return _plan(&a)


def sparse_system_gf2(const int64_t[::1] eq_ptr not None, const int32_t[::1] eq_var not None,
                      const int64_t[::1] var_ptr not None, const int32_t[::1] var_eq not None,
                      const int32_t[::1] steps_var not None, const int32_t[::1] steps_eq not None,
                      const int32_t[::1] final_eqs not None, Py_ssize_t peak, const uint8_t[::1] lit not None):
    """The packed nfinal x (nfree + 1) system ``[C | d]`` over GF(2) of a :func:`sparse_plan` (section 5).

    ``lit``: one light per equation (bit 0 read).  The presses solve the board iff ``C z = d``.

    Example:
        >>> import numpy as np
        >>> eq_ptr, eq_var = np.array([0, 1, 2]), np.array([0, 0], dtype=np.int32)   # x0 = b0 and x0 = b1
        >>> var_ptr, var_eq = np.array([0, 2]), np.array([0, 1], dtype=np.int32)
        >>> plan = sparse_plan(eq_ptr, eq_var, var_ptr, var_eq)
        >>> sparse_system_gf2(eq_ptr, eq_var, var_ptr, var_eq, *plan, np.array([1, 0], np.uint8)).tolist()
        [[1]]
        >>> sparse_system_gf2(eq_ptr, eq_var, var_ptr, var_eq, *plan, np.array([1, 1], np.uint8)).tolist()
        [[0]]
    """
    cdef Incidence a = make_sparse(eq_ptr, eq_var, var_ptr, var_eq)
    return _system(<uint64_t*>NULL, &a, steps_var, steps_eq, final_eqs, peak, lit, 2)


def sparse_system_mod(const int64_t[::1] eq_ptr not None, const int32_t[::1] eq_var not None,
                      const int64_t[::1] var_ptr not None, const int32_t[::1] var_eq not None,
                      const int32_t[::1] steps_var not None, const int32_t[::1] steps_eq not None,
                      const int32_t[::1] final_eqs not None, Py_ssize_t peak, const uint8_t[::1] lit not None,
                      int modulus):
    """As :func:`sparse_system_gf2` mod k: ``(nfinal, nfree + 1)`` uint8 rows, ``C z + d = 0 (mod k)``.

    Example:
        >>> import numpy as np
        >>> eq_ptr, eq_var = np.array([0, 1, 2]), np.array([0, 0], dtype=np.int32)
        >>> var_ptr, var_eq = np.array([0, 2]), np.array([0, 1], dtype=np.int32)
        >>> plan = sparse_plan(eq_ptr, eq_var, var_ptr, var_eq)
        >>> sparse_system_mod(eq_ptr, eq_var, var_ptr, var_eq, *plan, np.array([2, 2], np.uint8), 3).tolist()
        [[0]]
    """
    _check_modulus(modulus)
    cdef Incidence a = make_sparse(eq_ptr, eq_var, var_ptr, var_eq)
    return _system(<uint8_t*>NULL, &a, steps_var, steps_eq, final_eqs, peak, lit, modulus)


def sparse_expand_gf2(const int64_t[::1] eq_ptr not None, const int32_t[::1] eq_var not None,
                      const int64_t[::1] var_ptr not None, const int32_t[::1] var_eq not None,
                      const int32_t[::1] steps_var not None, const int32_t[::1] steps_eq not None,
                      const uint8_t[::1] lit not None, const uint64_t[:, ::1] zrows not None):
    """Every variable's presses from the free unknowns' values, as :func:`forcing_expand_gf2` (section 5).

    Returns ``(nvar, nwords)`` uint64: bit j of row u is variable u's press in vector j (vector 0
    carries the lights, one per equation).

    Example:
        >>> import numpy as np
        >>> eq_ptr, eq_var = np.array([0, 1, 3, 5]), np.array([0, 0, 1, 1, 2], dtype=np.int32)
        >>> var_ptr, var_eq = np.array([0, 2, 4, 5]), np.array([0, 1, 1, 2, 2], dtype=np.int32)
        >>> sv, se, final, peak = sparse_plan(eq_ptr, eq_var, var_ptr, var_eq)
        >>> z = np.zeros((0, 1), dtype=np.uint64)
        >>> sparse_expand_gf2(eq_ptr, eq_var, var_ptr, var_eq, sv, se, np.ones(3, np.uint8), z).ravel().tolist()
        [1, 0, 1]
    """
    cdef Incidence a = make_sparse(eq_ptr, eq_var, var_ptr, var_eq)
    return _expand(&a, steps_var, steps_eq, lit, zrows, "zrows", 2)


def sparse_expand_mod(const int64_t[::1] eq_ptr not None, const int32_t[::1] eq_var not None,
                      const int64_t[::1] var_ptr not None, const int32_t[::1] var_eq not None,
                      const int32_t[::1] steps_var not None, const int32_t[::1] steps_eq not None,
                      const uint8_t[::1] lit not None, const uint8_t[:, ::1] zvals not None, int modulus):
    """As :func:`sparse_expand_gf2` mod k, on bytes: ``(nvar, nvec)`` uint8.

    Example:
        >>> import numpy as np
        >>> eq_ptr, eq_var = np.array([0, 1, 3, 5]), np.array([0, 0, 1, 1, 2], dtype=np.int32)
        >>> var_ptr, var_eq = np.array([0, 2, 4, 5]), np.array([0, 1, 1, 2, 2], dtype=np.int32)
        >>> sv, se, final, peak = sparse_plan(eq_ptr, eq_var, var_ptr, var_eq)
        >>> z = np.zeros((0, 1), dtype=np.uint8)
        >>> sparse_expand_mod(eq_ptr, eq_var, var_ptr, var_eq, sv, se, np.ones(3, np.uint8), z, 3).ravel().tolist()
        [2, 0, 2]
    """
    _check_modulus(modulus)
    cdef Incidence a = make_sparse(eq_ptr, eq_var, var_ptr, var_eq)
    return _expand(&a, steps_var, steps_eq, lit, zvals, "zvals", modulus)


def lift_proof_sparse(const int64_t[::1] var_ptr not None, const int32_t[::1] var_eq not None,
                      const int32_t[::1] steps_var not None, const int32_t[::1] steps_eq not None,
                      uint8_t[::1] y not None, int modulus):
    """Carry a left-kernel vector of the reduced system to every equation, in place (section 5).

    On entry ``y`` holds the weights of the final equations (0 elsewhere); the plan is
    walked backwards and each forcing equation e of variable u gets the weight that makes
    column u of ``y^T A`` vanish: ``y[e] = -(sum of y over u's other equations)``.  Every
    other equation of u is final or forced a later variable, so its weight is known.

    Example:
        >>> import numpy as np
        >>> var_ptr, var_eq = np.array([0, 2]), np.array([0, 1], dtype=np.int32)   # x0 = b0 and x0 = b1
        >>> y = np.array([0, 1], np.uint8)                                      # the final equation, 1
        >>> lift_proof_sparse(var_ptr, var_eq, np.array([0], np.int32), np.array([0], np.int32), y, 3)
        >>> y.tolist()
        [2, 1]
    """
    _check_modulus(modulus)
    cdef Py_ssize_t nvar = var_ptr.shape[0] - 1, s, i
    cdef int32_t u, e, f
    cdef unsigned k = <unsigned>modulus, total
    if steps_var.shape[0] != nvar or steps_eq.shape[0] != nvar:
        raise InvalidBoardError(f"the plan needs one step per variable ({nvar})")
    with nogil:
        for s in range(nvar - 1, -1, -1):
            e = steps_eq[s]
            if e < 0:
                continue
            u = steps_var[s]
            total = 0
            for i in range(var_ptr[u], var_ptr[u + 1]):
                f = var_eq[i]
                if f != e:
                    total += y[f]
            total %= k
            y[e] = <uint8_t>((k - total) % k)
