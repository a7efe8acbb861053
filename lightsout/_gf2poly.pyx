# GF(2)[t] polynomial arithmetic, and the polynomial route's conversions
# between polynomials and packed rows (phi(F) = F(T) e_1 and its inverse,
# docs/algebra.md sections 2 and 4).  Light chasing lives in _kernels.pyx.
#
# A polynomial is a 1-D C-contiguous uint64 array: bit i (bit i & 63 of word
# i >> 6, least-significant bit first, as in _bitrow.pxd) is the coefficient of
# t^i.  Arrays may carry zero words past the degree; every kernel keeps the bits
# past an operand's degree zero.  Results handed back to Python are trimmed to
# words_for_bits(deg + 1) words, at least one (the zero polynomial is [0]).
#
# Where the time goes and why the kernels look the way they do:
#   * Products use carry-less multiplication of whole words.  Builds with
#     -mpclmul (the avx2/avx512 variants) use PCLMULQDQ; the portable build
#     multiplies by four-bit windows from a 16-entry table.  Above
#     KARATSUBA_WORDS words, Karatsuba's three half-size products.
#   * Division and Euclid work 64 coefficients at a time: the leading
#     coefficients of a quotient depend only on the leading coefficients of
#     the operands (no carries over GF(2)), so a whole word of quotient bits
#     or a whole 2x2 matrix of Euclid steps is found from the top 64 bits and
#     then applied to the full operands with one pass of carry-less products.
#   * The conversions (W recurrence, Horner) run in chunks of about
#     CHUNK_WORD_OPS word operations with the GIL released; between chunks the
#     def wrappers call PyErr_CheckSignals() (Ctrl-C) and the progress callback.
#
# The word loops (products, division, Taylor shift, the conversions, the
# Euclid window steps) are inline kernels in _polyword.pxd; this file is the
# Python-facing arithmetic and Euclid's driver.  It is compiled once per SIMD
# level (see setup.py).  def wrappers validate with the GIL held (through
# lightsout._validate) and run the cdef cores inside `with nogil`.

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free

from lightsout._bitrow cimport apply_T, copy_row, highest_set_bit, tail_mask, words_for_bits
from lightsout._polyword cimport (
    LO_HAVE_PCLMUL, Mat2, apply_mat2, bits64_at, chebyshev_u_into, divide_inplace, horner_steps,
    lehmer_matrix, mul_words, quotient_window, sub_multiple_shifted, taylor_shift_inplace,
    w_steps, xor_shifted,
)
from lightsout._polyconvert cimport basis_to_monomial_inplace, fill_fold_tables, monomial_to_basis_inplace

import numpy as np

from lightsout._errors import InvalidBoardError
from lightsout._validate import board_size, packed_vector

# Word operations between two check-ins with Python (about a millisecond).
cdef Py_ssize_t CHUNK_WORD_OPS = 1 << 22


def have_pclmul():
    """True when this build multiplies with PCLMULQDQ (the avx2/avx512 builds).

    Example:
        >>> have_pclmul() in (True, False)
        True
    """
    return bool(LO_HAVE_PCLMUL)


# ---------------------------------------------------------------------------
# Euclid, 64 coefficients at a time

cdef class _Euclid:
    """Euclid's algorithm on (a, b), optionally tracking the cofactor of a.

    Invariants: A = SA*a (mod b) and B = SB*a (mod b) when tracking; gcd(A, B) =
    gcd(a, b); spare buffers T1..T4 are all zero between windows; every buffer is
    zero past its polynomial's degree.  Each window either
      * (Lehmer step) runs the bit-at-a-time Euclid steps on the top 64
        coefficients of A and B while their leading terms are still exact,
        recording them as a 2x2 matrix of <= 64-bit polynomials, then applies
        the matrix to the full A, B (and SA, SB) with carry-less products, or
      * (division step) when deg B < deg A - 63, clears 64 leading coefficients
        of A with one quotient word, as in divide_inplace.
    """
    cdef uint64_t* mem
    cdef uint64_t* A
    cdef uint64_t* B
    cdef uint64_t* SA
    cdef uint64_t* SB
    cdef uint64_t* T1
    cdef uint64_t* T2
    cdef uint64_t* T3
    cdef uint64_t* T4
    cdef Py_ssize_t cap, scap, da, db, dsa, dsb
    cdef readonly Py_ssize_t total
    cdef bint track

    def __cinit__(self, const uint64_t[::1] a, const uint64_t[::1] b, bint track):
        cdef Py_ssize_t na = highest_set_bit(&a[0], a.shape[0])
        cdef Py_ssize_t nb = highest_set_bit(&b[0], b.shape[0])
        self.cap = words_for_bits(max(na, nb) + 1) + 2
        self.scap = self.cap + 2
        self.mem = <uint64_t*>calloc(4 * self.cap + 4 * self.scap, sizeof(uint64_t))
        if self.mem == NULL:
            raise MemoryError("out of memory allocating Euclid buffers")
        self.A = self.mem
        self.B = self.A + self.cap
        self.T1 = self.B + self.cap
        self.T2 = self.T1 + self.cap
        self.SA = self.T2 + self.cap
        self.SB = self.SA + self.scap
        self.T3 = self.SB + self.scap
        self.T4 = self.T3 + self.scap
        copy_row(self.A, &a[0], words_for_bits(na + 1))
        copy_row(self.B, &b[0], words_for_bits(nb + 1))
        self.da = na
        self.db = nb
        self.track = track
        self.SA[0] = 1
        self.dsa = 0
        self.dsb = -1
        self.total = max(na, 0) + max(nb, 0)

    def __dealloc__(self):
        free(self.mem)

    cdef Py_ssize_t remaining(self) noexcept nogil:
        return max(self.da, 0) + max(self.db, 0)

    cdef void swap(self) noexcept nogil:
        self.A, self.B = self.B, self.A
        self.SA, self.SB = self.SB, self.SA
        self.da, self.db = self.db, self.da
        self.dsa, self.dsb = self.dsb, self.dsa

    cdef bint run(self, Py_ssize_t max_windows) noexcept nogil:
        """Advance by at most max_windows windows; True once B == 0 (gcd in A)."""
        cdef Py_ssize_t i
        for i in range(max_windows):
            if self.da < self.db:
                self.swap()
            if self.db < 0:
                return True
            if self.da - self.db > 63:
                self.divide_window()
            else:
                self.lehmer_window()
        if self.da < self.db:
            self.swap()
        return self.db < 0

    cdef void divide_window(self) noexcept nogil:
        """deg B < deg A - 63: clear A's 64 leading coefficients with one quotient word."""
        cdef Py_ssize_t na = words_for_bits(self.da + 1), nb = words_for_bits(self.db + 1)
        cdef Py_ssize_t off = self.da - self.db - 63
        cdef uint64_t qw = quotient_window(bits64_at(self.A, na, self.da - 63),
                                           bits64_at(self.B, nb, self.db - 63), 64)
        sub_multiple_shifted(self.A, na, self.B, nb, qw, off, self.T1)
        self.da = highest_set_bit(self.A, na)
        if self.track and self.dsb >= 0:
            sub_multiple_shifted(self.SA, self.scap, self.SB, words_for_bits(self.dsb + 1), qw, off,
                                 self.T3)
            self.dsa = highest_set_bit(self.SA, self.scap)

    cdef void lehmer_window(self) noexcept nogil:
        """Up to 64 Euclid steps from the top words of A and B, applied as one matrix."""
        cdef Py_ssize_t na = words_for_bits(self.da + 1), ns
        cdef Mat2 m = lehmer_matrix(bits64_at(self.A, na, self.da - 63),
                                    bits64_at(self.B, na, self.da - 63))
        apply_mat2(m, &self.A, &self.B, &self.T1, &self.T2, na)
        self.da = highest_set_bit(self.A, na + 1)
        self.db = highest_set_bit(self.B, na + 1)
        if self.track:
            ns = words_for_bits(max(self.dsa, self.dsb) + 1)
            apply_mat2(m, &self.SA, &self.SB, &self.T3, &self.T4, ns)
            self.dsa = highest_set_bit(self.SA, ns + 1)
            self.dsb = highest_set_bit(self.SB, ns + 1)

    def finish(self, progress=None):
        """Run to the end, checking in with Python between chunks; returns (g, s)."""
        cdef bint done = False
        cdef Py_ssize_t windows = max(1, CHUNK_WORD_OPS // (8 * (self.cap + 1)))
        while not done:
            with nogil:
                done = self.run(windows)
            PyErr_CheckSignals()
            if progress is not None:
                progress("gcd", self.total - self.remaining(), self.total)
        g = _copy_trimmed(self.A, self.cap)
        s = _copy_trimmed(self.SA, self.scap) if self.track else None
        return g, s


# ---------------------------------------------------------------------------
# Argument checks and result arrays (GIL held)

cdef object _copy_trimmed(const uint64_t* src, Py_ssize_t n):
    cdef Py_ssize_t nw = max(1, words_for_bits(highest_set_bit(src, n) + 1))
    out = np.zeros(nw, dtype=np.uint64)
    cdef uint64_t[::1] view = out
    copy_row(&view[0], src, min(nw, n))
    return out


cdef object _copy_trimmed_arr(object a):
    cdef const uint64_t[::1] v = a
    return _copy_trimmed(&v[0], v.shape[0])


cdef object _poly_arg(object a, str name):
    """Check a polynomial argument: a packed 1-D uint64 row of any length (empty = zero).

    A polynomial has no tail bits (every word holds coefficients), so a 1-D
    C-contiguous uint64 array is exactly what lightsout._validate.packed_vector
    accepts for nbits = 64 * len(a); anything else goes to it for the error.
    The shortcut keeps the tiny calls of nullity_table at their old cost.
    """
    if not (isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype == np.uint64
            and a.flags.c_contiguous):
        packed_vector(a, name, nbits=64 * (a.shape[0] if isinstance(a, np.ndarray) and a.ndim == 1 else 1))
    if a.shape[0] == 0:
        return np.zeros(1, dtype=np.uint64)
    return a


cdef Py_ssize_t _deg(const uint64_t[::1] a) noexcept:
    return highest_set_bit(&a[0], a.shape[0])


# ---------------------------------------------------------------------------
# Polynomial arithmetic (public kernels)

def poly_degree(a):
    """Degree of a packed polynomial; -1 for the zero polynomial.

    Example:
        >>> poly_degree(np.array([0b1011], dtype=np.uint64))
        3
    """
    return _deg(_poly_arg(a, "a"))


def poly_add(a, b):
    """a + b (coefficient-wise XOR), trimmed.

    Example:
        >>> poly_add(np.array([0b110], dtype=np.uint64), np.array([0b011], dtype=np.uint64)).tolist()
        [5]
    """
    a = _poly_arg(a, "a")
    b = _poly_arg(b, "b")
    if a.shape[0] < b.shape[0]:
        a, b = b, a
    out = a.copy()
    out[: b.shape[0]] ^= b
    return _copy_trimmed_arr(out)


def poly_shift(a, Py_ssize_t k):
    """a * t^k for k >= 0; for k < 0 the quotient of a by t^(-k) (low terms dropped).

    Example:
        >>> poly_shift(np.array([0b101], dtype=np.uint64), 2).tolist(), poly_shift(np.array([0b101], dtype=np.uint64), -2).tolist()
        ([20], [1])
    """
    a = _poly_arg(a, "a")
    cdef const uint64_t[::1] av = a
    cdef Py_ssize_t d = _deg(av), nd
    if d < 0 or d + k < 0:
        return np.zeros(1, dtype=np.uint64)
    nd = d + k
    out = np.zeros(words_for_bits(nd + 1), dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    cdef Py_ssize_t i, n = ov.shape[0]
    if k >= 0:
        xor_shifted(&ov[0], n, &av[0], words_for_bits(d + 1), k)
    else:
        for i in range(n):
            ov[i] = bits64_at(&av[0], av.shape[0], 64 * i - k)
        ov[n - 1] &= tail_mask(nd + 1)
    return out


def poly_mul(a, b):
    """a * b, carry-less (Karatsuba above KARATSUBA_WORDS words), trimmed.

    Example:
        >>> poly_mul(np.array([0b11], dtype=np.uint64), np.array([0b11], dtype=np.uint64)).tolist()
        [5]
    """
    cdef const uint64_t[::1] av = _poly_arg(a, "a")
    cdef const uint64_t[::1] bv = _poly_arg(b, "b")
    cdef Py_ssize_t na = words_for_bits(_deg(av) + 1), nb = words_for_bits(_deg(bv) + 1)
    out = np.zeros(max(1, na + nb), dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    cdef int status
    with nogil:
        status = mul_words(&ov[0], &av[0], na, &bv[0], nb)
    if status < 0:
        raise MemoryError("out of memory in poly_mul")
    return _copy_trimmed_arr(out)


def poly_divmod(a, b):
    """(q, r) with a = q*b + r and deg r < deg b.  Raises ZeroDivisionError for b = 0.

    Example:
        >>> q, r = poly_divmod(np.array([0b1011], dtype=np.uint64), np.array([0b11], dtype=np.uint64))
        >>> q.tolist(), r.tolist()
        ([6], [1])
    """
    cdef const uint64_t[::1] av = _poly_arg(a, "a")
    cdef const uint64_t[::1] bv = _poly_arg(b, "b")
    cdef Py_ssize_t da = _deg(av), db = _deg(bv)
    if db < 0:
        raise ZeroDivisionError("poly_divmod: division by the zero polynomial")
    cdef Py_ssize_t nr = max(1, words_for_bits(da + 1)), nb = words_for_bits(db + 1)
    cdef Py_ssize_t nq = max(1, words_for_bits(da - db + 1))
    r = np.zeros(nr, dtype=np.uint64)
    q = np.zeros(nq, dtype=np.uint64)
    tmp = np.zeros(nb + 1, dtype=np.uint64)
    cdef uint64_t[::1] rv = r, qv = q, tv = tmp
    copy_row(&rv[0], &av[0], words_for_bits(da + 1))
    with nogil:
        divide_inplace(&rv[0], nr, &bv[0], nb, &qv[0], nq, &tv[0])
    return _copy_trimmed_arr(q), _copy_trimmed_arr(r)


def poly_mod(a, b):
    """a mod b (see poly_divmod), without building the quotient.

    Example:
        >>> poly_mod(np.array([0b1011], dtype=np.uint64), np.array([0b11], dtype=np.uint64)).tolist()
        [1]
    """
    cdef const uint64_t[::1] av = _poly_arg(a, "a")
    cdef const uint64_t[::1] bv = _poly_arg(b, "b")
    cdef Py_ssize_t da = _deg(av), db = _deg(bv)
    if db < 0:
        raise ZeroDivisionError("poly_mod: division by the zero polynomial")
    cdef Py_ssize_t nr = max(1, words_for_bits(da + 1)), nb = words_for_bits(db + 1)
    r = np.zeros(nr, dtype=np.uint64)
    tmp = np.zeros(nb + 1, dtype=np.uint64)
    cdef uint64_t[::1] rv = r, tv = tmp
    copy_row(&rv[0], &av[0], words_for_bits(da + 1))
    with nogil:
        divide_inplace(&rv[0], nr, &bv[0], nb, NULL, 0, &tv[0])
    return _copy_trimmed_arr(r)


def poly_gcd(a, b, progress=None):
    """gcd(a, b) (monic, as every nonzero polynomial over GF(2) is); gcd(0, 0) = 0.

    Example:
        >>> poly_gcd(np.array([0b110], dtype=np.uint64), np.array([0b1010], dtype=np.uint64)).tolist()
        [6]
    """
    g, _ = _Euclid(_poly_arg(a, "a"), _poly_arg(b, "b"), False).finish(progress)
    return g


def poly_gcd_cofactor(a, b, progress=None):
    """(g, s) with g = gcd(a, b) and s*a = g (mod b): the half of the extended gcd
    that inverts a modulo b / g.  s is Euclid's cofactor (not reduced).

    Example:
        >>> g, s = poly_gcd_cofactor(np.array([0b10], dtype=np.uint64), np.array([0b111], dtype=np.uint64))
        >>> g.tolist(), s.tolist()
        ([1], [3])
    """
    return _Euclid(_poly_arg(a, "a"), _poly_arg(b, "b"), True).finish(progress)


def poly_xgcd(a, b):
    """(g, s, t) with s*a + t*b = g = gcd(a, b).

    Canonical cofactors: when b/g has degree >= 1, deg s < deg(b/g) (which makes
    s and t unique, and deg t < deg(a/g)); when b/g is constant, s = 0 unless
    b = 0 (then s = 1, t = 0).  gcd(0, 0) returns (0, 0, 0).

    Example:
        >>> g, s, t = poly_xgcd(np.array([0b10], dtype=np.uint64), np.array([0b111], dtype=np.uint64))
        >>> g.tolist(), s.tolist(), t.tolist()
        ([1], [3], [1])
    """
    a = _poly_arg(a, "a")
    b = _poly_arg(b, "b")
    zero = np.zeros(1, dtype=np.uint64)
    one = np.ones(1, dtype=np.uint64)
    if _deg(b) < 0:
        if _deg(a) < 0:
            return zero, zero.copy(), zero.copy()
        return _copy_trimmed_arr(a), one, zero
    g, s = _Euclid(a, b, True).finish()
    s = poly_mod(s, poly_divmod(b, g)[0])
    # t = (g - s a) / b, exact.
    t, rem = poly_divmod(poly_add(g, poly_mul(s, a)), b)
    assert _deg(rem) < 0, "poly_xgcd: cofactor identity failed"
    return g, s, t


def poly_taylor_shift(a):
    """a(t + 1), in O(n log n) word operations.

    Example:
        >>> poly_taylor_shift(np.array([0b100], dtype=np.uint64)).tolist()  # t^2 -> t^2 + 1
        [5]
    """
    out = _poly_arg(a, "a").copy()
    cdef uint64_t[::1] ov = out
    with nogil:
        taylor_shift_inplace(&ov[0], ov.shape[0])
    return _copy_trimmed_arr(out)


def chebyshev_u(Py_ssize_t k):
    """U_k(t) over GF(2): U_0 = 0, U_1 = 1, U_{k+1} = t U_k + U_{k-1}; O(k) bit operations.

    Example:
        >>> [chebyshev_u(k).tolist() for k in range(5)]
        [[0], [1], [2], [5], [8]]
    """
    if k < 0:
        raise InvalidBoardError(f"chebyshev_u: k must be >= 0, got {k}")
    out = np.zeros(max(1, words_for_bits(k)), dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    with nogil:
        chebyshev_u_into(&ov[0], k)
    return out


# ---------------------------------------------------------------------------
# The recurrence loops, O(C^2/64): coordinates <-> polynomials (the checks on the fast ones)

def w_combination_recurrence(c, Py_ssize_t ncols, progress=None):
    """phi^{-1}(c) by running the W recurrence: O(ncols^2 / 64); the check on :func:`w_combination`.

    phi^{-1}(c) = sum_{j=1..ncols} c_j W_j(t), W_j = U_j(t+1) (docs/algebra.md section 2).

    c is a packed row of ncols bits (bit j-1 = c_j).  Because phi(W_j) = e_j, the
    result is the polynomial F (deg < ncols) with F(T) e_1 = c.

    Example:
        >>> w_combination_recurrence(np.array([0b100], dtype=np.uint64), 3).tolist()  # W_3 = (t+1)^2 + 1 = t^2
        [4]
    """
    board_size(ncols, "ncols")
    c = packed_vector(c, "c", nbits=ncols)
    cdef const uint64_t[::1] cv = c
    cdef Py_ssize_t stride = words_for_bits(ncols + 1), j = 1, j_end
    acc = np.zeros(stride, dtype=np.uint64)
    wbuf = np.zeros((2, stride), dtype=np.uint64)
    wbuf[1, 0] = 1  # W_1 = 1 (row 1), W_0 = 0 (row 0)
    cdef uint64_t[::1] accv = acc
    cdef uint64_t[:, ::1] wv = wbuf
    while j <= ncols:
        # Steps cost up to `stride` words each: chunk by the largest, so check-ins
        # come at least every CHUNK_WORD_OPS word operations.
        j_end = min(ncols + 1, j + max(1, CHUNK_WORD_OPS // stride))
        with nogil:
            w_steps(&accv[0], &wv[0, 0], stride, &cv[0], j, j_end)
        j = j_end
        PyErr_CheckSignals()
        if progress is not None:
            progress("convert", j - 1, ncols)
    return _copy_trimmed_arr(acc)


def phi_image_horner(f, Py_ssize_t ncols, progress=None):
    """phi(F) = F(T) e_1 by Horner's rule: O(ncols^2 / 64); the check on :func:`phi_image`.

    Example:
        >>> phi_image_horner(np.array([0b10], dtype=np.uint64), 3).tolist()  # T e_1 = e_1 + e_2
        [3]
    """
    board_size(ncols, "ncols")
    f = _poly_arg(f, "f")
    cdef const uint64_t[::1] fv = f
    cdef Py_ssize_t d = _deg(fv), i, i_end
    if d >= ncols:
        raise InvalidBoardError(f"phi_image needs deg F < ncols = {ncols}, got degree {d}")
    cdef Py_ssize_t stride = words_for_bits(ncols)
    vbuf = np.zeros((2, stride), dtype=np.uint64)
    cdef uint64_t[:, ::1] vv = vbuf
    i = d
    while i >= 0:
        i_end = max(-1, i - max(1, CHUNK_WORD_OPS // stride))  # stride bounds each step's words
        with nogil:
            horner_steps(&vv[0, 0], stride, &fv[0], d, ncols, i, i_end)
        i = i_end
        PyErr_CheckSignals()
        if progress is not None:
            progress("horner", d - i, d + 1)
    return vbuf[0].copy()  # the last step is i = 0, row 0 (an all-zero row when F = 0)


def apply_T_row(v, Py_ssize_t ncols):
    """phi(t F) = T phi(F): multiplication by t in row coordinates, on a packed row of ncols bits.

    Example:
        >>> apply_T_row(np.array([0b001], dtype=np.uint64), 3).tolist()
        [3]
    """
    board_size(ncols, "ncols")
    cdef const uint64_t[::1] vv = packed_vector(v, "v", nbits=ncols)
    cdef Py_ssize_t nw = words_for_bits(ncols)
    out = np.zeros(nw, dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    apply_T(&ov[0], &vv[0], nw, ncols)
    return out


# ---------------------------------------------------------------------------
# Near-linear conversions (docs/algebra.md section 9): with t + 1 = x + 1/x,
# W_j(t) = D_j(t + 1) / (t + 1), so sum_j c_j W_j is a Taylor shift away from a
# sum of Dickson polynomials, and _polyconvert.pxd changes that basis in
# O(n log n) word operations.

cdef uint64_t _FOLD_DOWN[2048]
cdef uint64_t _FOLD_UP[2048]
fill_fold_tables(_FOLD_DOWN, 1)
fill_fold_tables(_FOLD_UP, 0)


cdef Py_ssize_t _power_of_two_words(Py_ssize_t nbits):
    """The fewest words, a power of two, that hold nbits bits (at least one)."""
    cdef Py_ssize_t n = 1
    while 64 * n < nbits:
        n *= 2
    return n


cdef void _shift_up_one(uint64_t* a, Py_ssize_t n) noexcept nogil:
    """a <- a * t within n words (the top bit must be zero)."""
    cdef Py_ssize_t i
    for i in range(n - 1, 0, -1):
        a[i] = (a[i] << 1) | (a[i - 1] >> 63)
    a[0] <<= 1


cdef void _shift_down_one(uint64_t* a, Py_ssize_t n) noexcept nogil:
    """a <- a / t within n words (bit 0 is dropped)."""
    cdef Py_ssize_t i
    for i in range(n - 1):
        a[i] = (a[i] >> 1) | (a[i + 1] << 63)
    a[n - 1] >>= 1


def dickson_to_monomial(a):
    """Monomial coefficients of sum_j a_j B_j(s), with B_0 = 1 and B_j = x^j + x^-j for s = x + 1/x.

    O(n log n) word operations for n words (docs/algebra.md section 9).

    Example:
        >>> dickson_to_monomial(np.array([0b1000], dtype=np.uint64)).tolist()  # x^3 + x^-3 = s^3 + s
        [10]
    """
    a = _poly_arg(a, "a")
    cdef Py_ssize_t n = _power_of_two_words(64 * a.shape[0])
    out = np.zeros(n, dtype=np.uint64)
    out[: a.shape[0]] = a
    cdef uint64_t[::1] ov = out
    with nogil:
        basis_to_monomial_inplace(&ov[0], n, _FOLD_DOWN)
    return _copy_trimmed_arr(out)


def monomial_to_dickson(a):
    """The inverse of :func:`dickson_to_monomial`: the coefficients a_j with sum_j a_j B_j(s) = a(s).

    Example:
        >>> monomial_to_dickson(np.array([0b1010], dtype=np.uint64)).tolist()  # s^3 + s = B_3
        [8]
    """
    a = _poly_arg(a, "a")
    cdef Py_ssize_t n = _power_of_two_words(64 * a.shape[0])
    out = np.zeros(n, dtype=np.uint64)
    out[: a.shape[0]] = a
    cdef uint64_t[::1] ov = out
    with nogil:
        monomial_to_basis_inplace(&ov[0], n, _FOLD_UP)
    return _copy_trimmed_arr(out)


def w_combination(c, Py_ssize_t ncols, progress=None):
    """phi^{-1}(c) = sum_{j=1..ncols} c_j W_j(t), W_j = U_j(t+1) (docs/algebra.md section 2).

    c is a packed row of ncols bits (bit j-1 = c_j).  Because phi(W_j) = e_j, the
    result is the polynomial F (deg < ncols) with F(T) e_1 = c.  O(ncols log ncols / 64)
    word operations: (t + 1) F(t) = sum_j c_j D_j(t + 1) (section 9).

    Example:
        >>> w_combination(np.array([0b100], dtype=np.uint64), 3).tolist()  # W_3 = U_3(t+1) = (t+1)^2 + 1 = t^2
        [4]
    """
    board_size(ncols, "ncols")
    c = packed_vector(c, "c", nbits=ncols)
    cdef const uint64_t[::1] cv = c
    cdef Py_ssize_t n = _power_of_two_words(ncols + 2), nc = words_for_bits(ncols)
    work = np.zeros(n, dtype=np.uint64)
    cdef uint64_t[::1] wv = work
    with nogil:
        copy_row(&wv[0], &cv[0], nc)
        _shift_up_one(&wv[0], n)               # a_j = c_j at bit j, j = 1..ncols
        basis_to_monomial_inplace(&wv[0], n, _FOLD_DOWN)  # P(s) = s * sum_j c_j U_j(s)
        _shift_down_one(&wv[0], n)             # P(0) = 0: divide by s
        taylor_shift_inplace(&wv[0], n)        # s = t + 1
    if progress is not None:
        progress("convert", ncols, ncols)
    return _copy_trimmed_arr(work)


def phi_image(f, Py_ssize_t ncols, progress=None):
    """phi(F) = F(T) e_1 as a packed row of ncols bits, for deg F < ncols.

    The inverse of :func:`w_combination`: the coefficients of F in the basis
    W_1 .. W_ncols, in O(ncols log ncols / 64) word operations (section 9).

    Example:
        >>> phi_image(np.array([0b10], dtype=np.uint64), 3).tolist()  # T e_1 = e_1 + e_2
        [3]
    """
    board_size(ncols, "ncols")
    f = _poly_arg(f, "f")
    cdef const uint64_t[::1] fv = f
    cdef Py_ssize_t d = _deg(fv)
    if d >= ncols:
        raise InvalidBoardError(f"phi_image needs deg F < ncols = {ncols}, got degree {d}")
    cdef Py_ssize_t n = _power_of_two_words(ncols + 2), nc = words_for_bits(ncols)
    work = np.zeros(n, dtype=np.uint64)
    cdef uint64_t[::1] wv = work
    with nogil:
        copy_row(&wv[0], &fv[0], words_for_bits(d + 1))
        taylor_shift_inplace(&wv[0], n)        # Q(s) = F(s + 1)
        _shift_up_one(&wv[0], n)               # s Q(s) = sum_j f_j D_j(s)
        monomial_to_basis_inplace(&wv[0], n, _FOLD_UP)
        _shift_down_one(&wv[0], n)             # bit j - 1 = f_j
    if progress is not None:
        progress("horner", ncols, ncols)
    out = work[:nc].copy()
    out[nc - 1] &= tail_mask(ncols)
    return out


def chebyshev_u_sum(Py_ssize_t k):
    """U_1(t) + U_2(t) + ... + U_k(t) over GF(2), in O(k log k / 64) word operations.

    t * U_j(t) = D_j(t), so t times the sum is the Dickson sum with every
    coefficient 1..k set (section 9).

    Example:
        >>> chebyshev_u_sum(3).tolist()  # 1 + t + (t^2 + 1)
        [6]
    """
    if k < 0:
        raise InvalidBoardError(f"chebyshev_u_sum: k must be >= 0, got {k}")
    cdef Py_ssize_t n = _power_of_two_words(k + 2)
    work = np.zeros(n, dtype=np.uint64)
    if k > 0:
        bits = np.zeros(64 * n, dtype=np.uint8)
        bits[1 : k + 1] = 1
        work[:] = np.packbits(bits, bitorder="little").view("<u8")
    cdef uint64_t[::1] wv = work
    with nogil:
        basis_to_monomial_inplace(&wv[0], n, _FOLD_DOWN)
        _shift_down_one(&wv[0], n)
    return _copy_trimmed_arr(work)


def poly_square(a):
    """a(t)^2 = a(t^2) over GF(2) (squaring is linear: each bit moves to twice its place).

    Example:
        >>> poly_square(np.array([0b11], dtype=np.uint64)).tolist()  # (1 + t)^2 = 1 + t^2
        [5]
    """
    a = _poly_arg(a, "a")
    words = a.view(np.uint8)
    spread = np.zeros(2 * a.shape[0], dtype=np.uint64)
    bits = np.unpackbits(words, bitorder="little")
    out_bits = np.zeros(2 * bits.shape[0], dtype=np.uint8)
    out_bits[::2] = bits
    spread[:] = np.packbits(out_bits, bitorder="little").view("<u8")
    return _copy_trimmed_arr(spread)
