# Inline word kernels of the near-linear basis change behind the polynomial
# route's conversions (docs/algebra.md section 9).
#
# Over GF(2), put s = x + 1/x and D_j(s) = x^j + x^-j (Dickson polynomials:
# D_0 = 0, D_1 = s, D_{2j} = D_j^2, so D_m = s^m when m is a power of two).
# A coefficient row a (bit j = a_j) stands for sum_j a_j B_j(s) with B_0 = 1
# and B_j = D_j for j >= 1.  Because D_{m+i} = s^m D_i + D_{m-i} for a power of
# two m and 0 < i < m, a block of 2m coefficients becomes
#     [low half, with a_{m+i} added at m - i]  +  s^m [high half]
# and both halves are again blocks of the same kind.  So the change from the B
# basis to monomials is, top level first, for every block of 2m coefficients:
#     a_{m-i} ^= a_{m+i}  for 0 < i < m                       ("fold")
# Each fold reads the high half and writes the low half, so it is its own
# inverse, and the inverse change runs the same folds bottom level first.
#
# Levels with 2m >= 128 work on whole words: the high half, bit-reversed and
# shifted up by one, is XORed into the low half.  The levels inside a word
# (2m = 4 .. 64) together are a fixed linear map of 64 bits, applied through
# eight byte tables that the caller fills once (fill_fold_tables).

from libc.stdint cimport uint64_t

from lightsout._kernels.cancel cimport STOP_NONE, Poll, poll_work


cdef extern from *:
    """
    /* The 64 bits of x in reverse order: bits within bytes by three swaps, then a byte swap. */
    static inline uint64_t lo_bit_reverse64(uint64_t x) {
        x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
        x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
        x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    #if defined(_MSC_VER)
        return _byteswap_uint64(x);
    #else
        return __builtin_bswap64(x);
    #endif
    }
    """
    # The 64 bits of x in reverse order (also gf2poly's Newton division's rev_d).
    uint64_t bit_reverse64 "lo_bit_reverse64"(uint64_t x) noexcept nogil


cdef inline uint64_t fold_word_levels(uint64_t w, int top_down) noexcept nogil:
    """The folds of the levels 2m = 64, 32, ..., 4 on one word, bit by bit (used to fill the tables).

    top_down: levels from 2m = 64 down (B basis -> monomials); else from 2m = 4 up.
    """
    cdef int level, m, start, i
    cdef uint64_t bit
    for level in range(5):
        m = (32 >> level) if top_down else (2 << level)
        start = 0
        while start < 64:
            for i in range(1, m):
                bit = (w >> (start + m + i)) & 1
                w ^= bit << (start + m - i)
            start += 2 * m
    return w


cdef inline void fill_fold_tables(uint64_t* tables, int top_down) noexcept nogil:
    """tables[8 * 256]: entry (k, v) is the in-word fold map of the byte v placed at byte k."""
    cdef int k, v
    for k in range(8):
        for v in range(256):
            tables[k * 256 + v] = fold_word_levels((<uint64_t>v) << (8 * k), top_down)


cdef inline uint64_t fold_word(const uint64_t* tables, uint64_t w) noexcept nogil:
    """The in-word fold map of w, by eight table lookups (the map is linear)."""
    cdef uint64_t out = 0
    cdef int k
    for k in range(8):
        out ^= tables[k * 256 + ((w >> (8 * k)) & 0xFF)]
    return out


cdef inline void fold_block_words(uint64_t* low, const uint64_t* high, Py_ssize_t h,
                                  Py_ssize_t first, Py_ssize_t stop) noexcept nogil:
    """Words first .. stop - 1 of one fold of a block of 2h words (m = 64 h): low bit m - i ^=
    high bit i, 0 < i < m.

    With rev the high half bit-reversed (rev bit k = high bit m - 1 - k), that is
    low ^= rev << 1 within h words; a range of words carries in the bit below it.
    """
    cdef Py_ssize_t q
    cdef uint64_t rev, prev = bit_reverse64(high[h - first]) if first > 0 else 0
    for q in range(first, stop):
        rev = bit_reverse64(high[h - 1 - q])
        low[q] ^= (rev << 1) | (prev >> 63)
        prev = rev


cdef enum:
    FOLD_POLL_WORDS = 1 << 16   # words between two looks at `poll` inside a level (a block may be 1 GB)


cdef inline int fold_level(uint64_t* a, Py_ssize_t n, Py_ssize_t h, Poll* poll) noexcept nogil:
    """One level of folds (blocks of 2h words) over n words, looking at `poll` (or NULL) about every
    FOLD_POLL_WORDS words; a nonzero stop status when it says stop."""
    cdef Py_ssize_t blk = 0, first, stop
    cdef int status
    while blk < n:
        first = 0
        while first < h:
            stop = min(h, first + <Py_ssize_t>FOLD_POLL_WORDS)
            fold_block_words(a + blk, a + blk + h, h, first, stop)
            if poll != NULL:
                status = poll_work(poll, 2 * (stop - first))
                if status != STOP_NONE:
                    return status
            first = stop
        blk += 2 * h
    return STOP_NONE


cdef inline int fold_words(uint64_t* a, Py_ssize_t n, const uint64_t* tables, Poll* poll) noexcept nogil:
    """The in-word fold map of each of n words, looking at `poll` (or NULL) between pieces."""
    cdef Py_ssize_t first = 0, piece, i
    cdef int status
    while first < n:
        piece = min(n - first, <Py_ssize_t>FOLD_POLL_WORDS)
        for i in range(first, first + piece):
            a[i] = fold_word(tables, a[i])
        if poll != NULL:
            status = poll_work(poll, piece)
            if status != STOP_NONE:
                return status
        first += piece
    return STOP_NONE


cdef inline int basis_to_monomial_inplace(uint64_t* a, Py_ssize_t n, const uint64_t* tables,
                                          Poll* poll) noexcept nogil:
    """sum_j a_j B_j(s) -> monomial coefficients in s, in place; n words, a power of two.

    tables: the top-down in-word tables (fill_fold_tables(tables, 1)).  A nonzero stop
    status when `poll` (or NULL) says stop (looked at every FOLD_POLL_WORDS words or so;
    the row is then half done).
    """
    cdef Py_ssize_t h = n // 2
    cdef int status
    while h >= 1:
        status = fold_level(a, n, h, poll)
        if status != STOP_NONE:
            return status
        h //= 2
    return fold_words(a, n, tables, poll)


cdef inline int monomial_to_basis_inplace(uint64_t* a, Py_ssize_t n, const uint64_t* tables,
                                          Poll* poll) noexcept nogil:
    """The inverse of basis_to_monomial_inplace; tables: fill_fold_tables(tables, 0); `poll` as there."""
    cdef Py_ssize_t h = 1
    cdef int status = fold_words(a, n, tables, poll)
    while h < n and status == STOP_NONE:
        status = fold_level(a, n, h, poll)
        h *= 2
    return status
