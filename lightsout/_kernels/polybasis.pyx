# The polynomial route's conversions between rows and polynomials (docs/algebra.md
# sections 2, 4 and 9): phi(F) = F(T) e_1 and its inverse, the Dickson basis change they go
# through, the sum of Chebyshev polynomials, and T on a row.  The arithmetic of GF(2)[t]
# (products, division, gcds) is gf2poly.pyx; these need none of it, only the word kernels of
# polyconvert.pxd (the basis change) and polyword.pxd (the Taylor shift).
#
# A polynomial is a 1-D C-contiguous uint64 array, bit i the coefficient of t^i (as in
# gf2poly.pyx); a row of ncols bits is packed as in bitrow.pxd.  Results are trimmed to
# words_for_bits(deg + 1) words, at least one.  Compiled once per SIMD level (see setup.py);
# gf2poly re-exports every function here under its old name.

from libc.stdint cimport uint64_t

from lightsout._kernels.bitrow cimport apply_T, highest_set_bit, tail_mask, words_for_bits
from lightsout._kernels.cancel cimport STOP_NONE, Poll, make_poll, poll_work, raise_if_interrupted
from lightsout._kernels.polyconvert cimport basis_to_monomial_inplace, fill_fold_tables, monomial_to_basis_inplace
from lightsout._kernels.polyword cimport copy_row_looking, taylor_shift_inplace

import numpy as np

from lightsout._base.errors import InvalidBoardError
from lightsout._base.validate import board_size, packed_vector


cdef object _polynomial(object a, str name):
    """A polynomial argument: a packed 1-D uint64 row of any length (empty: the zero polynomial)."""
    cdef Py_ssize_t nwords = a.shape[0] if isinstance(a, np.ndarray) and a.ndim == 1 else 1
    if nwords == 0:
        return np.zeros(1, dtype=np.uint64)
    return packed_vector(a, name, nbits=64 * nwords)


cdef object _trimmed(object words):
    """The words of a polynomial up to its degree (at least one), as a new array."""
    cdef const uint64_t[::1] view = words
    return _first_words(view, max(1, words_for_bits(highest_set_bit(&view[0], view.shape[0]) + 1)))


cdef object _first_words(const uint64_t[::1] view, Py_ssize_t n):
    """A new array of the first n words of `view`, copied in pieces with a look for Ctrl-C between."""
    out = np.empty(n, dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    cdef Poll poll = make_poll(None, POLL_WORDS)
    cdef int status
    with nogil:
        status = copy_row_looking(&ov[0], &view[0], n, &poll)
    raise_if_interrupted(status)
    return out


cdef enum:
    PIECE_WORDS = 1 << 16   # words between two looks at a Poll in the loops below


# ---------------------------------------------------------------------------
# Near-linear conversions (docs/algebra.md section 9): with t + 1 = x + 1/x,
# W_j(t) = D_j(t + 1) / (t + 1), so sum_j c_j W_j is a Taylor shift away from a
# sum of Dickson polynomials, and polyconvert.pxd changes that basis in
# O(n log n) word operations.

cdef uint64_t _FOLD_DOWN[2048]
cdef uint64_t _FOLD_UP[2048]
fill_fold_tables(_FOLD_DOWN, 1)
fill_fold_tables(_FOLD_UP, 0)


# Word operations between two looks for Ctrl-C: a millisecond or so (each conversion is a
# few dozen passes over its row, 0.1-0.3 s at 10^8 bits).
cdef Py_ssize_t POLL_WORDS = 1 << 20


cdef Py_ssize_t _power_of_two_words(Py_ssize_t nbits):
    """The fewest words, a power of two, that hold nbits bits (at least one)."""
    cdef Py_ssize_t n = 1
    while 64 * n < nbits:
        n *= 2
    return n


cdef int _shift_up_one(uint64_t* a, Py_ssize_t n, Poll* poll) noexcept nogil:
    """a <- a * t within n words (the top bit must be zero), looking at `poll` between pieces."""
    cdef Py_ssize_t i, low, top = n - 1
    cdef int status
    while top > 0:          # words top .. low + 1 of each piece, from the top down
        low = max(<Py_ssize_t>0, top - <Py_ssize_t>PIECE_WORDS)
        for i in range(top, low, -1):
            a[i] = (a[i] << 1) | (a[i - 1] >> 63)
        status = poll_work(poll, top - low)
        if status != STOP_NONE:
            return status
        top = low
    a[0] <<= 1
    return STOP_NONE


cdef int _shift_down_one(uint64_t* a, Py_ssize_t n, Poll* poll) noexcept nogil:
    """a <- a / t within n words (bit 0 is dropped), looking at `poll` between pieces."""
    cdef Py_ssize_t i, first = 0, stop
    cdef int status
    while first < n - 1:
        stop = min(n - 1, first + <Py_ssize_t>PIECE_WORDS)
        for i in range(first, stop):
            a[i] = (a[i] >> 1) | (a[i + 1] << 63)
        status = poll_work(poll, stop - first)
        if status != STOP_NONE:
            return status
        first = stop
    a[n - 1] >>= 1
    return STOP_NONE


cdef object _change_basis(object a, bint to_monomial):
    """The Dickson basis change of a polynomial array, padded to a power of two words, trimmed."""
    cdef Py_ssize_t n = _power_of_two_words(64 * a.shape[0])
    out = np.zeros(n, dtype=np.uint64)
    cdef const uint64_t[::1] av = a
    cdef uint64_t[::1] ov = out
    cdef Poll poll = make_poll(None, POLL_WORDS)
    cdef int status
    with nogil:
        status = copy_row_looking(&ov[0], &av[0], av.shape[0], &poll)
    raise_if_interrupted(status)
    with nogil:
        if to_monomial:
            status = basis_to_monomial_inplace(&ov[0], n, _FOLD_DOWN, &poll)
        else:
            status = monomial_to_basis_inplace(&ov[0], n, _FOLD_UP, &poll)
    raise_if_interrupted(status)
    return _trimmed(out)


def dickson_to_monomial(a):
    """Monomial coefficients of sum_j a_j B_j(s), with B_0 = 1 and B_j = x^j + x^-j for s = x + 1/x.

    O(n log n) word operations for n words (docs/algebra.md section 9).

    Example:
        >>> dickson_to_monomial(np.array([0b1000], dtype=np.uint64)).tolist()  # x^3 + x^-3 = s^3 + s
        [10]
    """
    return _change_basis(_polynomial(a, "a"), True)


def monomial_to_dickson(a):
    """The inverse of :func:`dickson_to_monomial`: the coefficients a_j with sum_j a_j B_j(s) = a(s).

    Example:
        >>> monomial_to_dickson(np.array([0b1010], dtype=np.uint64)).tolist()  # s^3 + s = B_3
        [8]
    """
    return _change_basis(_polynomial(a, "a"), False)


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
    cdef Poll poll = make_poll(None, POLL_WORDS)
    cdef int status
    with nogil:
        status = copy_row_looking(&wv[0], &cv[0], nc, &poll)
        if status == STOP_NONE:
            status = _shift_up_one(&wv[0], n, &poll)               # a_j = c_j at bit j, j = 1..ncols
        if status == STOP_NONE:
            status = basis_to_monomial_inplace(&wv[0], n, _FOLD_DOWN, &poll)  # P(s) = s * sum_j c_j U_j(s)
        if status == STOP_NONE:
            status = _shift_down_one(&wv[0], n, &poll)         # P(0) = 0: divide by s
        if status == STOP_NONE:
            status = taylor_shift_inplace(&wv[0], n, &poll)   # s = t + 1
    raise_if_interrupted(status)
    if progress is not None:
        progress("convert", ncols, ncols)
    return _trimmed(work)


def phi_image(f, Py_ssize_t ncols, progress=None):
    """phi(F) = F(T) e_1 as a packed row of ncols bits, for deg F < ncols.

    The inverse of :func:`w_combination`: the coefficients of F in the basis
    W_1 .. W_ncols, in O(ncols log ncols / 64) word operations (section 9).

    Example:
        >>> phi_image(np.array([0b10], dtype=np.uint64), 3).tolist()  # T e_1 = e_1 + e_2
        [3]
    """
    board_size(ncols, "ncols")
    f = _polynomial(f, "f")
    cdef const uint64_t[::1] fv = f
    cdef Py_ssize_t d = highest_set_bit(&fv[0], fv.shape[0])
    if d >= ncols:
        raise InvalidBoardError(f"phi_image needs deg F < ncols = {ncols}, got degree {d}")
    cdef Py_ssize_t n = _power_of_two_words(ncols + 2), nc = words_for_bits(ncols)
    work = np.zeros(n, dtype=np.uint64)
    cdef uint64_t[::1] wv = work
    cdef Poll poll = make_poll(None, POLL_WORDS)
    cdef int status
    with nogil:
        status = copy_row_looking(&wv[0], &fv[0], words_for_bits(d + 1), &poll)
        if status == STOP_NONE:
            status = taylor_shift_inplace(&wv[0], n, &poll)   # Q(s) = F(s + 1)
        if status == STOP_NONE:
            status = _shift_up_one(&wv[0], n, &poll)           # s Q(s) = sum_j f_j D_j(s)
        if status == STOP_NONE:
            status = monomial_to_basis_inplace(&wv[0], n, _FOLD_UP, &poll)
        if status == STOP_NONE:
            status = _shift_down_one(&wv[0], n, &poll)         # bit j - 1 = f_j
    raise_if_interrupted(status)
    if progress is not None:
        progress("horner", ncols, ncols)
    out = _first_words(wv, nc)
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
    cdef Py_ssize_t n = _power_of_two_words(k + 2), full = (k + 1) // 64, i
    work = np.zeros(n, dtype=np.uint64)
    cdef uint64_t[::1] wv = work
    cdef Poll poll = make_poll(None, POLL_WORDS)
    cdef int status = STOP_NONE
    with nogil:
        # bits 1..k set, a word at a time (Ctrl-C looked for: at 10^10 these are 1.25 GB)
        for i in range(full):
            wv[i] = 0xFFFFFFFFFFFFFFFFULL
            if (i & 0xFFFF) == 0xFFFF:
                status = poll_work(&poll, 1 << 16)
                if status != STOP_NONE:
                    break
        if k > 0 and status == STOP_NONE:
            if (k + 1) % 64:
                wv[full] = (<uint64_t>1 << ((k + 1) % 64)) - 1
            wv[0] &= 0xFFFFFFFFFFFFFFFEULL
        if status == STOP_NONE:
            status = basis_to_monomial_inplace(&wv[0], n, _FOLD_DOWN, &poll)
        if status == STOP_NONE:
            status = _shift_down_one(&wv[0], n, &poll)
    raise_if_interrupted(status)
    return _trimmed(work)


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
