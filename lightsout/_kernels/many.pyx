# Kernels of lightsout._core.manyboards: one GF(2) matrix applied to many bit rows by byte tables.
#
# For an operator with `nout` output bits and `ncells` input bits, table k (one per
# input byte: cells 8k..8k+7) has 256 entries of `out_words` uint64 words: entry v is
# the XOR of the operator's columns 8k + i for the bits i of v.  One board then costs
# one table lookup per 8 cells:  out = T_0[byte_0] ^ T_1[byte_1] ^ ...
# The output words hold the solution bits [0, nsol) and, after them, the parity checks
# [nsol, nout) (quiet patterns dotted with the board); a board is solvable when its
# check bits are all zero, so the solvable test costs nothing extra.
#
# Boards come packed (uint64 rows, least-significant bit first, the package layout) or
# as 0/1 bytes (bool/uint8 rows), which are packed on the fly 8 cells per multiply;
# results go out packed, or as 0/1 bytes through a 256-entry byte-spreading table.
#
# coset_min_many: for boards whose solutions are already reduced (no press on a pivot
# cell of the quiet basis, see lightsout/_search/minweight.py), the fewest-press solution is the
# first minimum of popcount(x ^ span[c]) over the 2^d span elements in order.
#
# Compiled once per SIMD level (setup.py); def wrappers validate with the GIL held and
# run the C loops inside `with nogil`.

from libc.stdint cimport int64_t, uint8_t, uint64_t

from lightsout._kernels.bitrow cimport words_for_bits

import numpy as np

from lightsout._base.errors import InvalidBoardError, InvalidTypeError

cdef extern from *:
    """
    #ifndef LIGHTSOUT_SIMD_LEVEL
    #define LIGHTSOUT_SIMD_LEVEL "generic"
    #endif
    #include <stdint.h>
    #include <stddef.h>
    #include <string.h>
    #if defined(_MSC_VER)
    #define MK_RESTRICT __restrict
    #else
    #define MK_RESTRICT __restrict__
    #endif

    static inline int mk_popcount64(uint64_t x) {
    #if defined(__GNUC__) || defined(__clang__)
        return __builtin_popcountll(x);
    #else
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    #endif
    }

    /* The byte whose bit i is the low bit of byte i of the 8 bytes at p (0/1 values). */
    static inline unsigned mk_pack8(const uint8_t *p) {
        uint64_t x;
        memcpy(&x, p, 8);
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        unsigned v = 0;
        for (int i = 0; i < 8; i++) v |= (unsigned)(p[i] & 1) << i;
        return v;
    #else
        return (unsigned)(((x & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56);
    #endif
    }

    /* The byte of input bits starting at cell 8k of an unpacked row of n cells. */
    static inline unsigned mk_byte_at(const uint8_t *row, ptrdiff_t k, ptrdiff_t n) {
        if (8 * k + 8 <= n) return mk_pack8(row + 8 * k);
        unsigned v = 0;
        for (ptrdiff_t i = 8 * k; i < n; i++) v |= (unsigned)(row[i] & 1) << (i - 8 * k);
        return v;
    }

    /* The byte of input bits starting at cell 8k of a packed row. */
    static inline unsigned mk_byte_packed(const uint64_t *row, ptrdiff_t k) {
        return (unsigned)(row[k >> 3] >> (8 * (k & 7))) & 0xFF;
    }

    /* out[0..w) = XOR of the table entries picked by the row's input bytes. */
    #define MK_APPLY(NAME, ROWTYPE, BYTE)                                              \
    static void NAME(const ROWTYPE *in, ptrdiff_t nboards, ptrdiff_t in_stride,        \
                     ptrdiff_t ncells, const uint64_t *MK_RESTRICT tables, ptrdiff_t nbytes, \
                     ptrdiff_t w, uint64_t *MK_RESTRICT out) {                          \
        if (w == 1) {                                                                  \
            for (ptrdiff_t b = 0; b < nboards; b++) {                                  \
                const ROWTYPE *row = in + b * in_stride;                               \
                uint64_t acc = 0;                                                      \
                for (ptrdiff_t k = 0; k < nbytes; k++)                                 \
                    acc ^= tables[(k << 8) + BYTE];                                    \
                out[b] = acc;                                                          \
            }                                                                          \
        } else if (w == 2) {                                                           \
            for (ptrdiff_t b = 0; b < nboards; b++) {                                  \
                const ROWTYPE *row = in + b * in_stride;                               \
                uint64_t a0 = 0, a1 = 0;                                               \
                for (ptrdiff_t k = 0; k < nbytes; k++) {                               \
                    const uint64_t *e = tables + 2 * ((k << 8) + BYTE);                \
                    a0 ^= e[0];                                                        \
                    a1 ^= e[1];                                                        \
                }                                                                      \
                out[2 * b] = a0;                                                       \
                out[2 * b + 1] = a1;                                                   \
            }                                                                          \
        } else {                                                                       \
            for (ptrdiff_t b = 0; b < nboards; b++) {                                  \
                const ROWTYPE *row = in + b * in_stride;                               \
                uint64_t *o = out + b * w;                                             \
                memset(o, 0, (size_t)w * sizeof(uint64_t));                            \
                for (ptrdiff_t k = 0; k < nbytes; k++) {                               \
                    const uint64_t *e = tables + w * ((k << 8) + BYTE);                \
                    for (ptrdiff_t j = 0; j < w; j++) o[j] ^= e[j];                    \
                }                                                                      \
            }                                                                          \
        }                                                                              \
    }
    MK_APPLY(mk_apply_packed, uint64_t, mk_byte_packed(row, k))
    MK_APPLY(mk_apply_bytes, uint8_t, mk_byte_at(row, k, ncells))

    /* Spread the low `nbits` bits of packed rows into 0/1 bytes; ok[b] = 1 when the
       check bits [nbits, nout) of row b are all zero (ok may be NULL). */
    static void mk_unpack(const uint64_t *MK_RESTRICT words, ptrdiff_t nboards, ptrdiff_t w,
                          ptrdiff_t nbits, ptrdiff_t nout, const uint64_t *MK_RESTRICT spread,
                          uint8_t *MK_RESTRICT out, uint8_t *MK_RESTRICT ok) {
        ptrdiff_t full = nbits / 8;
        for (ptrdiff_t b = 0; b < nboards; b++) {
            const uint64_t *row = words + b * w;
            uint8_t *o = out + b * nbits;
            for (ptrdiff_t k = 0; k < full; k++) {
                uint64_t v = spread[(row[k >> 3] >> (8 * (k & 7))) & 0xFF];
                memcpy(o + 8 * k, &v, 8);
            }
            for (ptrdiff_t i = 8 * full; i < nbits; i++)
                o[i] = (uint8_t)((row[i >> 6] >> (i & 63)) & 1);
            if (ok != NULL) {
                uint64_t bad = 0;
                for (ptrdiff_t j = nbits >> 6; j < w; j++) {
                    uint64_t word = row[j];
                    ptrdiff_t lo = j * 64;
                    if (lo < nbits) word &= ~((((uint64_t)1) << (nbits - lo)) - 1);
                    bad |= word;
                }
                ok[b] = bad == 0;
            }
        }
    }

    /* ok[b] = 1 when the check bits [nbits, nout) of packed row b are zero; clear them. */
    static void mk_split_checks(uint64_t *MK_RESTRICT words, ptrdiff_t nboards, ptrdiff_t w,
                                ptrdiff_t nbits, uint8_t *MK_RESTRICT ok) {
        for (ptrdiff_t b = 0; b < nboards; b++) {
            uint64_t *row = words + b * w;
            uint64_t bad = 0;
            for (ptrdiff_t j = nbits >> 6; j < w; j++) {
                ptrdiff_t lo = j * 64;
                uint64_t keep = lo + 64 <= nbits ? ~(uint64_t)0
                              : (lo >= nbits ? 0 : ((((uint64_t)1) << (nbits - lo)) - 1));
                bad |= row[j] & ~keep;
                row[j] &= keep;
            }
            ok[b] = bad == 0;
        }
    }

    /* For each packed row x (w words), the first c minimising popcount(x ^ span[c]);
       writes x ^ span[c] over x and the weight into weights[b]. */
    static void mk_coset_min(uint64_t *MK_RESTRICT x, ptrdiff_t nboards, ptrdiff_t w,
                             const uint64_t *MK_RESTRICT span, ptrdiff_t nspan, int64_t *weights) {
        for (ptrdiff_t b = 0; b < nboards; b++) {
            uint64_t *row = x + b * w;
            ptrdiff_t best = 0;
            int64_t best_w = -1;
            for (ptrdiff_t c = 0; c < nspan; c++) {
                const uint64_t *s = span + c * w;
                int64_t weight = 0;
                for (ptrdiff_t j = 0; j < w; j++) weight += mk_popcount64(row[j] ^ s[j]);
                if (best_w < 0 || weight < best_w) { best_w = weight; best = c; }
            }
            for (ptrdiff_t j = 0; j < w; j++) row[j] ^= span[best * w + j];
            weights[b] = best_w;
        }
    }
    """
    const char* LIGHTSOUT_SIMD_LEVEL
    void mk_apply_packed(const uint64_t* boards, Py_ssize_t nboards, Py_ssize_t in_stride, Py_ssize_t ncells,
                         const uint64_t* tables, Py_ssize_t nbytes, Py_ssize_t w, uint64_t* out) noexcept nogil
    void mk_apply_bytes(const uint8_t* boards, Py_ssize_t nboards, Py_ssize_t in_stride, Py_ssize_t ncells,
                        const uint64_t* tables, Py_ssize_t nbytes, Py_ssize_t w, uint64_t* out) noexcept nogil
    void mk_unpack(const uint64_t* words, Py_ssize_t nboards, Py_ssize_t w, Py_ssize_t nbits, Py_ssize_t nout,
                   const uint64_t* spread, uint8_t* out, uint8_t* ok) noexcept nogil
    void mk_split_checks(uint64_t* words, Py_ssize_t nboards, Py_ssize_t w, Py_ssize_t nbits,
                         uint8_t* ok) noexcept nogil
    void mk_coset_min(uint64_t* x, Py_ssize_t nboards, Py_ssize_t w, const uint64_t* span, Py_ssize_t nspan,
                      int64_t* weights) noexcept nogil

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL = (<bytes>LIGHTSOUT_SIMD_LEVEL).decode("ascii")

# SPREAD[v]: the 8 bytes whose byte i is bit i of v (little-endian words).
_SPREAD = np.zeros(256, dtype=np.uint64)
for _v in range(256):
    _SPREAD[_v] = sum(((_v >> _i) & 1) << (8 * _i) for _i in range(8))


cdef _check_tables(tables, ncells, nout):
    if not isinstance(tables, np.ndarray) or tables.dtype != np.uint64 or not tables.flags.c_contiguous:
        raise InvalidTypeError("tables must be a C-contiguous numpy uint64 array")
    shape = ((ncells + 7) // 8, 256, words_for_bits(nout))
    if tables.shape != shape:
        raise InvalidBoardError(f"tables must have shape {shape} for {ncells} cells and {nout} output bits, "
                                f"got {tables.shape}")


def apply_tables(boards, ncells, tables, nout, nsol=-1, *, unpack=False):
    """Apply byte tables to many boards: see the module comment.

    Args:
        boards: ``(N, ncells)`` bool/uint8 0/1 rows, or ``(N, words(ncells))`` uint64
            packed rows (tail bits zero).  Rows must be C-contiguous.
        ncells: input bits per board.
        tables: ``(ceil(ncells / 8), 256, words(nout))`` uint64.
        nout: output bits per board; ``nsol`` (default nout) of them are the result,
            the rest parity checks.
        unpack: return the result bits as ``(N, nsol)`` uint8 0/1 rows instead of
            ``(N, words(nsol))`` packed uint64 rows.

    Returns:
        ``(result, ok)``: ok is an ``(N,)`` uint8 array (1 = every check bit zero), or
        None when there are no check bits.

    Example:
        >>> import numpy as np
        >>> t = np.zeros((1, 256, 1), dtype=np.uint64)
        >>> t[0, :, 0] = [v ^ (v >> 1) for v in range(256)]     # out_i = in_i + in_(i+1)
        >>> res, ok = apply_tables(np.array([[1, 1, 0]], dtype=np.uint8), 3, t, 3, unpack=True)
        >>> res.tolist(), ok
        ([[0, 1, 0]], None)
    """
    if isinstance(ncells, bool) or not isinstance(ncells, (int, np.integer)) or ncells < 0:
        raise InvalidTypeError("ncells must be an int >= 0")
    if isinstance(nout, bool) or not isinstance(nout, (int, np.integer)) or nout < 0:
        raise InvalidTypeError("nout must be an int >= 0")
    ncells = int(ncells)
    nout = int(nout)
    nsol = nout if nsol is None or nsol < 0 else int(nsol)
    if nsol > nout:
        raise InvalidBoardError(f"nsol ({nsol}) must be at most nout ({nout})")
    _check_tables(tables, ncells, nout)
    if not isinstance(boards, np.ndarray) or boards.ndim != 2 or not boards.flags.c_contiguous:
        raise InvalidTypeError("boards must be a C-contiguous 2-D numpy array")
    cdef bint packed_in = boards.dtype == np.uint64
    if packed_in:
        if boards.shape[1] != words_for_bits(ncells):
            raise InvalidBoardError(f"packed boards need {words_for_bits(ncells)} words per row, got {boards.shape[1]}")
    elif boards.dtype == np.bool_ or boards.dtype == np.uint8:
        if boards.shape[1] != ncells:
            raise InvalidBoardError(f"boards need {ncells} cells per row, got {boards.shape[1]}")
        boards = boards.view(np.uint8)
    else:
        raise InvalidTypeError(f"boards must be bool, uint8 or packed uint64, got dtype {boards.dtype}")
    cdef Py_ssize_t n = boards.shape[0]
    cdef Py_ssize_t w = words_for_bits(nout)
    cdef Py_ssize_t nbytes = (ncells + 7) // 8
    cdef Py_ssize_t ncell = ncells
    cdef Py_ssize_t nsol_c = nsol
    cdef Py_ssize_t nout_c = nout
    words = np.empty((n, w), dtype=np.uint64)
    cdef uint64_t[:, ::1] wv = words
    cdef const uint64_t[:, :, ::1] tv = tables
    cdef const uint64_t[:, ::1] pin
    cdef const uint8_t[:, ::1] bin_
    cdef const uint64_t* tp = &tv[0, 0, 0] if tables.size else NULL
    cdef uint64_t* op = &wv[0, 0] if words.size else NULL
    cdef Py_ssize_t stride = boards.shape[1]
    if n == 0 or w == 0:
        words[:] = 0
    elif packed_in:
        pin = boards
        with nogil:
            mk_apply_packed(&pin[0, 0] if stride else NULL, n, stride, ncell, tp, nbytes, w, op)
    else:
        bin_ = boards
        with nogil:
            mk_apply_bytes(&bin_[0, 0] if stride else NULL, n, stride, ncell, tp, nbytes, w, op)
    has_checks = nout > nsol
    ok = np.ones(n, dtype=np.uint8) if has_checks else None
    cdef uint8_t[::1] okv
    cdef uint8_t* okp = NULL
    if has_checks and n:
        okv = ok
        okp = &okv[0]
    cdef uint8_t[:, ::1] uv
    cdef const uint64_t[::1] sv = _SPREAD
    if unpack:
        result = np.empty((n, nsol), dtype=np.uint8)
        if n and w:
            uv = result if nsol else np.empty((n, 1), dtype=np.uint8)
            with nogil:
                mk_unpack(op, n, w, nsol_c, nout_c, &sv[0], &uv[0, 0], okp)
        return result, ok
    if has_checks and n:
        with nogil:
            mk_split_checks(op, n, w, nsol_c, okp)
    need = words_for_bits(nsol)
    if need != w:
        words = np.ascontiguousarray(words[:, :need])
    return words, ok


def coset_min_many(solutions, span):
    """Per packed row x, the first span element c minimising popcount(x ^ span[c]); in place.

    Args:
        solutions: ``(N, w)`` uint64 packed rows, replaced by ``x ^ span[c]``.
        span: ``(K, w)`` uint64, K >= 1 (span[0] is normally 0).

    Returns:
        ``(N,)`` int64 weights of the chosen rows.

    Example:
        >>> import numpy as np
        >>> x = np.array([[0b1011]], dtype=np.uint64)
        >>> coset_min_many(x, np.array([[0], [0b1010]], dtype=np.uint64)).tolist(), x.tolist()
        ([1], [[1]])
    """
    for name, arr in (("solutions", solutions), ("span", span)):
        if (not isinstance(arr, np.ndarray) or arr.dtype != np.uint64 or arr.ndim != 2
                or not arr.flags.c_contiguous):
            raise InvalidTypeError(f"{name} must be a C-contiguous 2-D numpy uint64 array")
    if span.shape[0] < 1 or span.shape[1] != solutions.shape[1]:
        raise InvalidBoardError(f"span must have at least one row of {solutions.shape[1]} words, got {span.shape}")
    if not solutions.flags.writeable:
        raise InvalidBoardError("solutions is read-only, but coset_min_many writes to it in place")
    cdef Py_ssize_t n = solutions.shape[0], w = solutions.shape[1], k = span.shape[0]
    weights = np.zeros(n, dtype=np.int64)
    if n == 0 or w == 0:
        return weights
    cdef uint64_t[:, ::1] xv = solutions
    cdef const uint64_t[:, ::1] sv = span
    cdef int64_t[::1] wv = weights
    with nogil:
        mk_coset_min(&xv[0, 0], n, w, &sv[0, 0], k, &wv[0])
    return weights
