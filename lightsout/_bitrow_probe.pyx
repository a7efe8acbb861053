# Test-only probe: runs every inline primitive of _bitrow.pxd on rows that sit
# between guard words, so tests/test_bitrow_probe.py can check both the result
# (against a numpy model) and that nothing was written outside the row.
# Compiled once per SIMD level like the kernels (setup.py TEST_MODULES).
#
# Every buffer argument is a 1-D uint64 array of GUARD + nwords + GUARD words;
# the primitive sees the row that starts GUARD words in.

from libc.stdint cimport uint8_t, uint64_t

from lightsout._bitrow cimport (
    LIT_ALL, LIT_BOARD, LIT_NONE, apply_T, chase_step, clz64, copy_row, ctz64, down_word,
    get_bit, highest_set_bit, set_bit, t_word, tail_mask, up_word, words_for_bits, xor_into,
    zero_row,
)

import numpy as np

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
