# GF(2)[t] polynomial arithmetic: products, division, gcds, the Python-facing kernels.
# The polynomial route's conversions between polynomials and rows (phi(F) = F(T) e_1 and its
# inverse, docs/algebra.md sections 2, 4 and 9) are polybasis.pyx; light chasing is chase.pyx.
#
# One module, one file per job, included below in this order:
#   polytuning.pxi    the tuning state: thresholds of the fast paths, the FFT's wide loops
#   polyproducts.pxi  products: schoolbook leaves, Karatsuba, Toom-3, the additive FFT
#   polydivision.pxi  Newton division
#   polygcd.pxi       Euclid 64 coefficients at a time, the half-gcd, their driver
# and this file: the argument checks and the def functions the library calls.
#
# A polynomial is a 1-D C-contiguous uint64 array: bit i (bit i & 63 of word
# i >> 6, least-significant bit first, as in bitrow.pxd) is the coefficient of
# t^i.  Arrays may carry zero words past the degree; every kernel keeps the bits
# past an operand's degree zero.  Results handed back to Python are trimmed to
# words_for_bits(deg + 1) words, at least one (the zero polynomial is [0]).
#
# Where the time goes and why the kernels look the way they do:
#   * Products use carry-less multiplication of whole words.  Builds with
#     -mpclmul (the avx2/avx512 variants) use PCLMULQDQ; the portable build
#     multiplies by four-bit windows from a 16-entry table.  Above
#     KARATSUBA_WORDS words, Karatsuba's three half-size products; above
#     _toom_words, Toom-3; above _fft_words, the additive FFT of gf2fft.h
#     (O(n log n) products in GF(2^64)), which also serves the 2x2 matrix
#     products of the half-gcd with one transform per operand (fmul_matrix).
#   * Division and Euclid work 64 coefficients at a time: the leading
#     coefficients of a quotient depend only on the leading coefficients of
#     the operands (no carries over GF(2)), so a whole word of quotient bits
#     or a whole 2x2 matrix of Euclid steps is found from the top 64 bits and
#     then applied to the full operands with one pass of carry-less products.
#   * Above tuned sizes (set_thresholds), the subquadratic paths of the section
#     "Subquadratic division and gcd": Toom-3 products above Karatsuba, Newton
#     division (poly_divmod, poly_mod) and the half-gcd (poly_gcd,
#     poly_gcd_cofactor, poly_xgcd); below them, the word-at-a-time loops above.
#   * The long loops run in chunks of about CHUNK_WORD_OPS word operations with
#     the GIL released; between chunks the def wrappers call PyErr_CheckSignals()
#     (Ctrl-C) and the progress callback.
#
# The word loops (products, division, Taylor shift, the Euclid window steps) are
# inline kernels in polyword.pxd.  The module is compiled once per SIMD
# level (see setup.py).  def wrappers validate with the GIL held (through
# lightsout._base.validate) and run the cdef cores inside `with nogil`.

from cpython.exc cimport PyErr_CheckSignals, PyErr_Occurred
from cpython.ref cimport PyObject, Py_XDECREF
from cpython.pyport cimport PY_SSIZE_T_MAX
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free

from lightsout._kernels.bitrow cimport (
    apply_T, copy_row, highest_set_bit, tail_mask, words_for_bits, xor_into, zero_row,
)
from lightsout._kernels.cancel cimport STOP_NONE, Poll, look, look_callback, make_poll, raise_if_interrupted
from lightsout._kernels.polyword cimport (
    LO_HAVE_PCLMUL, Mat2, ShiftJob, apply_mat2, bits64_at, chebyshev_u_into, copy_row_looking, divide_inplace,
    in_pieces_looking, lead, KARATSUBA_WORDS, lehmer_matrix, quotient_window, s_join_inplace, s_split_inplace,
    shift_down_piece, shift_up_piece,
    sub_multiple_shifted, taylor_shift_inplace, xor_shifted,
)
from lightsout._kernels.polyconvert cimport bit_reverse64

import os

import numpy as np

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError, InvalidTypeError
from lightsout._base.threadlimit import current_thread_limit
from lightsout._base.validate import board_size, packed_vector, thread_count

include "polytuning.pxi"
include "polyproducts.pxi"
include "polydivision.pxi"
include "polygcd.pxi"


# ---------------------------------------------------------------------------
# Argument checks and result arrays (GIL held)

cdef object _copy_trimmed(const uint64_t* src, Py_ssize_t n):
    cdef Py_ssize_t nw = max(1, words_for_bits(highest_set_bit(src, n) + 1))
    out = np.zeros(nw, dtype=np.uint64)
    cdef uint64_t[::1] view = out
    cdef Poll poll = make_poll(None, 1 << 20)
    raise_if_interrupted(copy_row_looking(&view[0], src, min(nw, n), &poll))
    return out


cdef object _copy_trimmed_arr(object a):
    cdef const uint64_t[::1] v = a
    return _copy_trimmed(&v[0], v.shape[0])


cdef object _poly_arg(object a, str name):
    """Check a polynomial argument: a packed 1-D uint64 row of any length (empty = zero, returned
    as one zero word, so that every kernel has a first word to point at).

    A polynomial has no tail bits (every word holds coefficients), so a 1-D
    C-contiguous uint64 array is exactly what lightsout._base.validate.packed_vector
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


cdef int _threads_of(object threads) except -1:
    """A threads= argument as the threads this call's large products run on: None means the limit of
    an entry point's thread_limit block (lightsout._base.threadlimit), else every CPU this process may
    use (as lightsout._core.runner.default_threads, which this floor cannot import); at most
    FFT_MAX_THREADS (64), the most a product is split over."""
    n = thread_count(threads)
    if n is None:
        n = current_thread_limit()
    if n is None:
        try:
            n = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            n = os.cpu_count() or 1
    return max(1, min(n, 64))


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
    cdef const uint64_t[::1] av = a
    cdef const uint64_t[::1] bv = b
    out = np.empty(av.shape[0], dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    cdef Poll poll = make_poll(None, 1 << 20)    # rows of gigabytes at 10^10 bits: Ctrl-C between pieces
    cdef SumJob job = SumJob(out=&ov[0], longer=&av[0], shorter=&bv[0], nshorter=bv.shape[0])
    cdef int status
    with nogil:
        status = in_pieces_looking(_sum_piece, &job, av.shape[0], &poll)
    raise_if_interrupted(status)
    return _copy_trimmed_arr(out)


cdef struct SumJob:
    uint64_t* out
    const uint64_t* longer
    const uint64_t* shorter
    Py_ssize_t nshorter


cdef void _sum_piece(void* job, Py_ssize_t first, Py_ssize_t stop) noexcept nogil:
    """out = longer + shorter on words [first, stop): one pass, each word read once."""
    cdef SumJob* j = <SumJob*>job
    copy_row(j.out + first, j.longer + first, stop - first)
    if first < j.nshorter:
        xor_into(j.out + first, j.shorter + first, min(stop, j.nshorter) - first)


def poly_shift(a, Py_ssize_t k):
    """a * t^k for k >= 0; for k < 0 the quotient of a by t^(-k) (low terms dropped).

    Raises BoardTooLargeError when a t^k has 2^63 bits or more, or no memory is left for it.

    Example:
        >>> poly_shift(np.array([0b101], dtype=np.uint64), 2).tolist(), poly_shift(np.array([0b101], dtype=np.uint64), -2).tolist()
        ([20], [1])
    """
    a = _poly_arg(a, "a")
    cdef const uint64_t[::1] av = a
    cdef Py_ssize_t d = _deg(av), nd
    if d < 0:
        return np.zeros(1, dtype=np.uint64)
    if k > PY_SSIZE_T_MAX - 64 - d:
        raise BoardTooLargeError(f"poly_shift: a of degree {d} times t^{k} has more than 2^63 bits")
    if d + k < 0:
        return np.zeros(1, dtype=np.uint64)
    nd = d + k
    try:
        out = np.zeros(words_for_bits(nd + 1), dtype=np.uint64)
    except MemoryError:
        raise BoardTooLargeError(f"poly_shift: no memory for a product of degree {nd} "
                                 f"({words_for_bits(nd + 1) * 8 / 2**30:.3g} GiB)") from None
    cdef uint64_t[::1] ov = out
    cdef Poll poll = make_poll(None, 1 << 20)
    cdef ShiftJob job = ShiftJob(out=&ov[0], nout=ov.shape[0], a=&av[0], na=av.shape[0], places=k if k >= 0 else -k)
    cdef int status
    with nogil:
        if k >= 0:
            status = in_pieces_looking(shift_up_piece, &job, words_for_bits(d + 1), &poll)
        else:
            status = in_pieces_looking(shift_down_piece, &job, job.nout, &poll)
    raise_if_interrupted(status)
    ov[job.nout - 1] &= tail_mask(nd + 1)
    return out


def poly_mul(a, b, threads=None):
    """a * b, carry-less, trimmed: Karatsuba above KARATSUBA_WORDS words, Toom-3 from toom_words,
    the additive FFT over GF(2^64) (gf2fft.h) from fft_words words in the smaller operand,
    spread over ``threads`` threads (None: every CPU this process may use) from thread_words
    words.  The bits are the same at every thread count.

    Raises:
        InvalidTypeError, InvalidBoardError: ``threads`` not None or a positive int.

    Example:
        >>> poly_mul(np.array([0b11], dtype=np.uint64), np.array([0b11], dtype=np.uint64)).tolist()
        [5]
        >>> poly_mul(np.array([0b11], dtype=np.uint64), np.array([0b11], dtype=np.uint64), threads=2).tolist()
        [5]
    """
    cdef const uint64_t[::1] av = _poly_arg(a, "a")
    cdef const uint64_t[::1] bv = _poly_arg(b, "b")
    cdef int nthreads = _threads_of(threads)
    cdef Py_ssize_t na = words_for_bits(_deg(av) + 1), nb = words_for_bits(_deg(bv) + 1)
    out = np.zeros(max(1, na + nb), dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    cdef int status, old
    cdef Poll poll = make_poll(None, 1 << 20)
    with nogil:
        old = fft_set_threads(nthreads)
        status = fmul(&ov[0], &av[0], na, &bv[0], nb, &poll)
        fft_set_threads(old)
    _raise_status(status, "poly_mul")
    cdef Py_ssize_t n = ov.shape[0]
    if ov[n - 1] != 0:
        return out  # already trimmed: no second array and copy (an eighth of a 2^20-word product)
    if n >= 2 and ov[n - 2] != 0:
        return out[:n - 1]  # one zero word on top, as the degrees allow: a view, no copy
    return _copy_trimmed_arr(out)


cdef tuple _divide(object a, object b, str name, bint quotient, object threads):
    """(q, r) of poly_divmod, or (None, r) for poly_mod, which builds no quotient."""
    cdef const uint64_t[::1] av = _poly_arg(a, "a")
    cdef const uint64_t[::1] bv = _poly_arg(b, "b")
    cdef int nthreads = _threads_of(threads), old
    cdef Py_ssize_t da = _deg(av), db = _deg(bv)
    if db < 0:
        raise ZeroDivisionError(f"{name}: division by the zero polynomial")
    cdef Py_ssize_t nr = max(1, words_for_bits(da + 1)), nb = words_for_bits(db + 1)
    cdef Py_ssize_t nq = max(1, words_for_bits(da - db + 1)) if quotient else 0
    cdef Py_ssize_t newton_words = _newton_words
    cdef int st
    r = np.zeros(nr, dtype=np.uint64)
    cdef uint64_t[::1] rv = r, qv
    cdef uint64_t* q_ptr = NULL
    q = None
    if quotient:
        q = np.zeros(nq, dtype=np.uint64)
        qv = q
        q_ptr = &qv[0]
    cdef Poll poll = make_poll(None, 1 << 20)
    with nogil:
        st = copy_row_looking(&rv[0], &av[0], words_for_bits(da + 1), &poll)
    raise_if_interrupted(st)
    with nogil:
        old = fft_set_threads(nthreads)
        st = divmod_any(&rv[0], nr, &bv[0], nb, q_ptr, nq, newton_words, &poll)
        fft_set_threads(old)
    _raise_status(st, name)
    return (_copy_trimmed_arr(q) if quotient else None), _copy_trimmed_arr(r)


def poly_divmod(a, b, threads=None):
    """(q, r) with a = q*b + r and deg r < deg b.  Raises ZeroDivisionError for b = 0.
    Its large products run on ``threads`` threads (as in poly_mul).

    Example:
        >>> q, r = poly_divmod(np.array([0b1011], dtype=np.uint64), np.array([0b11], dtype=np.uint64))
        >>> q.tolist(), r.tolist()
        ([6], [1])
    """
    return _divide(a, b, "poly_divmod", True, threads)


def poly_mod(a, b, threads=None):
    """a mod b (see poly_divmod), without building the quotient.

    Example:
        >>> poly_mod(np.array([0b1011], dtype=np.uint64), np.array([0b11], dtype=np.uint64)).tolist()
        [1]
    """
    return _divide(a, b, "poly_mod", False, threads)[1]


cdef object _gcd_on_threads(object a, object b, bint track, object progress, object threads):
    """_gcd_cofactor (polygcd.pxi) with the large products of its half-gcd on ``threads`` threads."""
    cdef int nthreads = _threads_of(threads)
    a = _poly_arg(a, "a")
    b = _poly_arg(b, "b")
    cdef int old = fft_set_threads(nthreads)
    # One partner thread for the half-gcd's many pairs of independent products (fftcrew.h), when
    # some pair can occur: the entries of a step's matrices have about a quarter of its words.
    cdef bint pairs = nthreads > 1 and max(len(a), len(b)) >= 4 * _pair_words
    cdef fft_partner* partner = fft_partner_start() if pairs else NULL
    cdef fft_partner* outer = fft_partner_use(partner)
    try:
        return _gcd_cofactor(a, b, track, progress)
    finally:
        fft_partner_use(outer)
        fft_partner_stop(partner)
        fft_set_threads(old)


def poly_gcd(a, b, progress=None, threads=None):
    """gcd(a, b) (monic, as every nonzero polynomial over GF(2) is); gcd(0, 0) = 0.
    The half-gcd's large products run on ``threads`` threads (as in poly_mul).

    Example:
        >>> poly_gcd(np.array([0b110], dtype=np.uint64), np.array([0b1010], dtype=np.uint64)).tolist()
        [6]
    """
    g, _ = _gcd_on_threads(a, b, False, progress, threads)
    return g


def poly_gcd_cofactor(a, b, progress=None, threads=None):
    """(g, s) with g = gcd(a, b) and s*a = g (mod b): the half of the extended gcd
    that inverts a modulo b / g.  s is Euclid's cofactor (not reduced).  The large
    products run on ``threads`` threads (as in poly_mul).

    Example:
        >>> g, s = poly_gcd_cofactor(np.array([0b10], dtype=np.uint64), np.array([0b111], dtype=np.uint64))
        >>> g.tolist(), s.tolist()
        ([1], [3])
    """
    return _gcd_on_threads(a, b, True, progress, threads)


def poly_xgcd(a, b, threads=None):
    """(g, s, t) with s*a + t*b = g = gcd(a, b); the large products on ``threads`` threads.

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
    g, s = _gcd_on_threads(a, b, True, None, threads)
    s = poly_mod(s, poly_divmod(b, g, threads)[0], threads)
    # t = (g - s a) / b, exact.
    t, rem = poly_divmod(poly_add(g, poly_mul(s, a, threads)), b, threads)
    assert _deg(rem) < 0, "poly_xgcd: cofactor identity failed"
    return g, s, t


def poly_taylor_shift(a):
    """a(t + 1), in O(n log n) word operations.

    Example:
        >>> poly_taylor_shift(np.array([0b100], dtype=np.uint64)).tolist()  # t^2 -> t^2 + 1
        [5]
    """
    a = _poly_arg(a, "a")
    cdef const uint64_t[::1] av = a
    cdef Py_ssize_t n = max(1, words_for_bits(highest_set_bit(&av[0], av.shape[0]) + 1))
    out = np.empty(n, dtype=np.uint64)     # a(t + 1) has the degree of a: no trimming after
    cdef uint64_t[::1] ov = out
    cdef Poll poll = make_poll(None, 1 << 20)    # Ctrl-C looked for about every millisecond
    cdef int status
    with nogil:
        status = copy_row_looking(&ov[0], &av[0], n, &poll)
        if status == STOP_NONE:
            status = taylor_shift_inplace(&ov[0], n, &poll)
    raise_if_interrupted(status)
    return out


cdef inline uint64_t _spread32(uint64_t x) noexcept nogil:
    """Bit j of x (j < 32) at bit 2 j."""
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFULL
    x = (x | (x << 8)) & 0x00FF00FF00FF00FFULL
    x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FULL
    x = (x | (x << 2)) & 0x3333333333333333ULL
    return (x | (x << 1)) & 0x5555555555555555ULL


cdef inline uint64_t _even_bits(uint64_t x) noexcept nogil:
    """Bits 0, 2, 4, ..., 62 of x at bits 0 .. 31 (the inverse of _spread32)."""
    x &= 0x5555555555555555ULL
    x = (x | (x >> 1)) & 0x3333333333333333ULL
    x = (x | (x >> 2)) & 0x0F0F0F0F0F0F0F0FULL
    x = (x | (x >> 4)) & 0x00FF00FF00FF00FFULL
    x = (x | (x >> 8)) & 0x0000FFFF0000FFFFULL
    return (x | (x >> 16)) & 0x00000000FFFFFFFFULL


def poly_split_s(a):
    """(A, B) with a(t) = A(s) + t B(s), s = t^2 + t, in O(n log n) word operations.

    Every polynomial splits so, once: 1 and t are a basis of GF(2)[t] over GF(2)[s].  As
    a(t + 1) = A(s) + (t + 1) B(s), gcd(a(t), a(t + 1)) = gcd(A, B)(t^2 + t): a gcd of
    half the degree (docs/algebra.md section 9).

    Example:
        >>> [p.tolist() for p in poly_split_s(np.array([0b1000], dtype=np.uint64))]  # t^3 = ts + s + t
        [[2], [3]]
    """
    a = _poly_arg(a, "a")
    cdef const uint64_t[::1] av = a
    cdef Py_ssize_t n = av.shape[0]
    work = np.empty(n, dtype=np.uint64)
    cdef uint64_t[::1] wv = work
    even = np.zeros(max(1, (n + 1) // 2), dtype=np.uint64)
    odd = np.zeros(max(1, (n + 1) // 2), dtype=np.uint64)
    cdef uint64_t[::1] ev = even
    cdef uint64_t[::1] ov = odd
    cdef Poll poll = make_poll(None, 1 << 20)    # Ctrl-C looked for about every millisecond
    cdef SplitJob job = SplitJob(split=&wv[0], even=&ev[0], odd=&ov[0])
    cdef int status
    with nogil:     # every loop in pieces with a look between: at 10^10 bits each is a pass over gigabytes
        status = copy_row_looking(&wv[0], &av[0], n, &poll)
        if status == STOP_NONE:
            status = s_split_inplace(&wv[0], n, &poll)
        if status == STOP_NONE:
            status = in_pieces_looking(_gather_piece, &job, n, &poll)
    raise_if_interrupted(status)
    return _copy_trimmed_arr(even), _copy_trimmed_arr(odd)


cdef struct SplitJob:
    const uint64_t* split     # the row after s_split_inplace: A's coefficients at even bits, B's at odd
    uint64_t* even
    uint64_t* odd


cdef void _gather_piece(void* job, Py_ssize_t first, Py_ssize_t stop) noexcept nogil:
    """The even and odd bits of split's words [first, stop) packed into even and odd."""
    cdef SplitJob* j = <SplitJob*>job
    cdef Py_ssize_t i
    for i in range(first, stop):
        j.even[i >> 1] |= _even_bits(j.split[i]) << (32 * (i & 1))
        j.odd[i >> 1] |= _even_bits(j.split[i] >> 1) << (32 * (i & 1))


def poly_join_s(even, odd):
    """a(t) = even(s) + t odd(s), s = t^2 + t: poly_split_s undone, in O(n log n) word operations.

    Example:
        >>> poly_join_s(np.array([2], dtype=np.uint64), np.array([3], dtype=np.uint64)).tolist()  # s + t (s + 1)
        [8]
    """
    cdef const uint64_t[::1] ev = _poly_arg(even, "even")
    cdef const uint64_t[::1] dv = _poly_arg(odd, "odd")
    cdef Py_ssize_t n = 2 * max(ev.shape[0], dv.shape[0])
    out = np.zeros(n, dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    cdef Poll poll = make_poll(None, 1 << 20)    # Ctrl-C looked for about every millisecond
    cdef JoinJob job = JoinJob(even=&ev[0], neven=ev.shape[0], odd=&dv[0], nodd=dv.shape[0], out=&ov[0])
    cdef int status
    with nogil:     # the interleaving in pieces with a look between, as the join
        status = in_pieces_looking(_interleave_piece, &job, n, &poll)
        if status == STOP_NONE:
            status = s_join_inplace(&ov[0], n, &poll)
    raise_if_interrupted(status)
    return _copy_trimmed_arr(out)


cdef struct JoinJob:
    const uint64_t* even
    Py_ssize_t neven
    const uint64_t* odd
    Py_ssize_t nodd
    uint64_t* out


cdef void _interleave_piece(void* job, Py_ssize_t first, Py_ssize_t stop) noexcept nogil:
    """out's words [first, stop): even's coefficients at the even bits, odd's at the odd bits."""
    cdef JoinJob* j = <JoinJob*>job
    cdef Py_ssize_t i
    for i in range(first, stop):
        if (i >> 1) < j.neven:
            j.out[i] = _spread32((j.even[i >> 1] >> (32 * (i & 1))) & 0xFFFFFFFFULL)
        if (i >> 1) < j.nodd:
            j.out[i] |= _spread32((j.odd[i >> 1] >> (32 * (i & 1))) & 0xFFFFFFFFULL) << 1


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
    cdef Poll poll = make_poll(None, 1 << 20)
    cdef int status
    with nogil:
        status = chebyshev_u_into(&ov[0], k, &poll)
    raise_if_interrupted(status)
    return out


def poly_square(a):
    """a(t)^2 = a(t^2) over GF(2) (squaring is linear: each bit moves to twice its place).

    Example:
        >>> poly_square(np.array([0b11], dtype=np.uint64)).tolist()  # (1 + t)^2 = 1 + t^2
        [5]
    """
    a = _poly_arg(a, "a")
    cdef const uint64_t[::1] av = a
    cdef Py_ssize_t d = _deg(av)
    out = np.zeros(max(1, words_for_bits(2 * d + 1)), dtype=np.uint64)  # no byte-a-bit copies
    cdef uint64_t[::1] ov = out
    cdef Poll poll = make_poll(None, 1 << 20)
    cdef SquareJob job = SquareJob(a=&av[0], out=&ov[0], nout=ov.shape[0])
    cdef int status
    with nogil:     # in pieces with a look between: at 10^10 bits a pass over gigabytes
        status = in_pieces_looking(_square_piece, &job, words_for_bits(d + 1), &poll)
    raise_if_interrupted(status)
    return out


cdef struct SquareJob:
    const uint64_t* a
    uint64_t* out
    Py_ssize_t nout


cdef void _square_piece(void* job, Py_ssize_t first, Py_ssize_t stop) noexcept nogil:
    """a's words [first, stop) spread to out's words [2 first, 2 stop): each bit at twice its place."""
    cdef SquareJob* j = <SquareJob*>job
    cdef Py_ssize_t i
    cdef uint64_t w
    for i in range(first, stop):
        w = j.a[i]
        j.out[2 * i] = _spread32(w & 0xFFFFFFFFULL)
        if 2 * i + 1 < j.nout:
            j.out[2 * i + 1] = _spread32(w >> 32)


# ---------------------------------------------------------------------------
# The polynomial route's conversions live in polybasis.pyx; its build of this SIMD level is
# re-exported here, so that kernels.gf2poly.<name> keeps working for the callers that use it.

import importlib as _importlib

_polybasis = _importlib.import_module(__name__.replace("gf2poly", "polybasis"))
dickson_to_monomial = _polybasis.dickson_to_monomial
monomial_to_dickson = _polybasis.monomial_to_dickson
w_combination = _polybasis.w_combination
phi_image = _polybasis.phi_image
chebyshev_u_sum = _polybasis.chebyshev_u_sum
apply_T_row = _polybasis.apply_T_row
