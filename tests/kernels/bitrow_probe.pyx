# Test-only probe: runs every inline primitive of lightsout/_kernels/bitrow.pxd and every
# word kernel of polyword.pxd on rows that sit between guard words, so
# tests/test_bitrow_probe.py can check both the result (against a model on
# Python ints) and that nothing was written outside the rows.
# Not part of the package: the test compiles it against the installed .pxd files, once
# per SIMD level the CPU runs, with the flags of the package's builds.
#
# Every buffer argument is a 1-D uint64 array of GUARD + nwords + GUARD words;
# the primitive sees the row that starts GUARD words in.

from libc.stdint cimport uint8_t, uint64_t

from lightsout._kernels.bitrow cimport (
    LIT_ALL, LIT_BOARD, LIT_NONE, apply_T, chase_step, clz64, copy_row, ctz64, down_word,
    get_bit, highest_set_bit, set_bit, t_word, tail_mask, up_word, words_for_bits, xor_into,
    zero_row,
)

from lightsout._kernels.polyword cimport (
    chebyshev_u_into, divide_inplace, lo_apply_matrix, lo_mul_row_xor, quotient_by_inverse,
    quotient_inverse, quotient_window, s_split_inplace, sub_multiple_shifted, taylor_shift_inplace, xor_shifted,
)

#: Words of guard on each side of a probed row.
GUARD = 4

LIT_MODES = {"board": LIT_BOARD, "all": LIT_ALL, "none": LIT_NONE}


cdef uint64_t* _row(uint64_t[::1] buf, Py_ssize_t nwords) except NULL:
    if buf.shape[0] != nwords + 2 * GUARD:
        raise ValueError(f"probe buffer must have {nwords + 2 * GUARD} words, got {buf.shape[0]}")
    return &buf[GUARD]


def scalars(uint64_t x, uint64_t below, uint64_t above, Py_ssize_t nbits):
    """The word-level primitives on one set of operands, as a dict."""
    return {
        "ctz64": ctz64(x) if x else -1,
        "clz64": clz64(x) if x else -1,
        "up_word": up_word(x, below),
        "down_word": down_word(x, above),
        "t_word": t_word(below, x, above),
        "words_for_bits": words_for_bits(nbits),
        "tail_mask": tail_mask(nbits),
    }


def probe_xor_into(uint64_t[::1] dst, uint64_t[::1] src, Py_ssize_t nwords):
    xor_into(_row(dst, nwords), _row(src, nwords), nwords)


def probe_copy_row(uint64_t[::1] dst, uint64_t[::1] src, Py_ssize_t nwords):
    copy_row(_row(dst, nwords), _row(src, nwords), nwords)


def probe_zero_row(uint64_t[::1] dst, Py_ssize_t nwords):
    zero_row(_row(dst, nwords), nwords)


def probe_get_bit(uint64_t[::1] src, Py_ssize_t nwords, Py_ssize_t i):
    return bool(get_bit(_row(src, nwords), i))


def probe_set_bit(uint64_t[::1] dst, Py_ssize_t nwords, Py_ssize_t i):
    set_bit(_row(dst, nwords), i)


def probe_highest_set_bit(uint64_t[::1] src, Py_ssize_t nwords):
    return highest_set_bit(_row(src, nwords), nwords)


def probe_apply_T(uint64_t[::1] dst, uint64_t[::1] src, Py_ssize_t nbits):
    cdef Py_ssize_t nwords = words_for_bits(nbits)
    apply_T(_row(dst, nwords), _row(src, nwords), nwords, nbits)


def probe_chase_step(uint64_t[::1] acc, uint64_t[::1] cur, uint64_t[::1] lit, Py_ssize_t lo,
                     Py_ssize_t hi, Py_ssize_t nbits, str mode):
    """acc ^= T cur ^ lit on words [lo, hi), lit by mode ("board", "all", "none")."""
    cdef Py_ssize_t nwords = words_for_bits(nbits)
    chase_step(_row(acc, nwords), _row(cur, nwords), _row(lit, nwords), lo, hi, nwords,
               tail_mask(nbits), LIT_MODES[mode])


# ---------------------------------------------------------------------------
# GF(2)[t] word kernels (polyword.pxd)

def probe_xor_shifted(uint64_t[::1] dst, Py_ssize_t ndst, uint64_t[::1] src, Py_ssize_t nsrc,
                      Py_ssize_t shift):
    xor_shifted(_row(dst, ndst), ndst, _row(src, nsrc), nsrc, shift)


def probe_mul_row_xor(uint64_t[::1] dst, uint64_t[::1] src, Py_ssize_t n, uint64_t m):
    """dst (n + 1 words) ^= src (n words) * m."""
    lo_mul_row_xor(_row(dst, n + 1), _row(src, n), n, m)


def probe_apply_matrix(uint64_t[::1] oa, uint64_t[::1] ob, uint64_t[::1] a, uint64_t[::1] b,
                       Py_ssize_t n, uint64_t m00, uint64_t m01, uint64_t m10, uint64_t m11):
    """oa, ob (n + 1 words) = m (a, b)."""
    lo_apply_matrix(_row(oa, n + 1), _row(ob, n + 1), _row(a, n), _row(b, n), n, m00, m01, m10, m11)


def probe_sub_multiple_shifted(uint64_t[::1] dst, Py_ssize_t ndst, uint64_t[::1] src,
                               Py_ssize_t nsrc, uint64_t qw, Py_ssize_t off, uint64_t[::1] tmp):
    sub_multiple_shifted(_row(dst, ndst), ndst, _row(src, nsrc), nsrc, qw, off, _row(tmp, nsrc + 1))


def probe_quotient_window(uint64_t aw, uint64_t bw, int nbits):
    """The top nbits bits of (aw t^63) div bw, by the bit loop."""
    return quotient_window(aw, bw, nbits)


def probe_quotient_by_inverse(uint64_t aw, uint64_t bw, int nbits):
    """The same bits by one product with bw's inverse (Barrett)."""
    return quotient_by_inverse(aw, quotient_inverse(bw), nbits)


def probe_divide(uint64_t[::1] r, Py_ssize_t nr, uint64_t[::1] b, Py_ssize_t nb,
                 uint64_t[::1] q, Py_ssize_t nq, uint64_t[::1] tmp):
    """r <- r mod b, q ^= r div b (q of nq words, or no quotient when nq == 0); returns deg r."""
    cdef uint64_t* qp = _row(q, nq) if nq > 0 else NULL
    return divide_inplace(_row(r, nr), nr, _row(b, nb), nb, qp, nq, _row(tmp, nb + 1))


def probe_taylor_shift(uint64_t[::1] a, Py_ssize_t n):
    taylor_shift_inplace(_row(a, n), n, NULL)


def probe_s_split(uint64_t[::1] a, Py_ssize_t n):
    """a's n words rewritten in powers of s = t^2 + t (bits 2i, 2i + 1: s^i, t s^i)."""
    s_split_inplace(_row(a, n), n, NULL)


def probe_chebyshev_u(uint64_t[::1] out, Py_ssize_t k):
    """out (words_for_bits(k) words) |= U_k(t)."""
    chebyshev_u_into(_row(out, words_for_bits(k)), k, NULL)


