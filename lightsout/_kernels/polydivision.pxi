# Division in GF(2)[t] of gf2poly.pyx (included there): Newton's iteration above
# _newton_words (a few products, O(M(n))); the word-at-a-time loop of polyword.pxd below.

# ---------------------------------------------------------------------------
# Subquadratic division and gcd (issue 9 part A): Newton division, half-gcd
#
# Newton division (docs/algebra.md section 4): with rev_k(p) = t^k p(1/t), the
# quotient of a (degree n) by b (degree m) is q = rev_{n-m}(rev_n(a) *
# rev_m(b)^-1 mod t^(n-m+1)); the inverse of rev_m(b) (constant term 1) comes
# from Newton's iteration g <- g (1 + h g), which doubles the number of
# correct words per step, and r = a - q b.  A few products, O(M(n)).
#
# Half-gcd: hgcd(a, b) with deg a = n >= deg b returns the 2x2 matrix M of the
# Euclid steps from (a, b) to the consecutive remainders (c, d) = M (a, b)
# with deg c >= ceil(n/2) > deg d, together with c and d.  The steps that a
# pair's top half decides are the first steps of the whole pair, so M comes
# from two recursive calls on top halves (of (a, b), then of the pair reached
# after one division), and c, d from t^m (c0, d0) + R (a mod t^m, b mod t^m)
# without a full-size product.  With Karatsuba products the total cost is a
# constant times one full-size product.  Below a threshold the leaves run
# Lehmer's word-at-a-time steps, stopped exactly at degree ceil(n/2).
# poly_gcd / poly_gcd_cofactor alternate hgcd and one division until the
# operands are small, then finish with Lehmer.
#
# Every buffer belongs to one call (no global mutable state besides the
# thresholds, read once per call); cores are nogil and return a status (0, -1
# out of memory, -2 interrupted, -3 internal error); nodes of at least
# POLL_BITS coefficients look at the caller's Poll (cancel.pxd: Ctrl-C on the
# main thread) and call the progress callback (ctx_poll).

# --- Newton division ------------------------------------------------------

cdef inline int rev_into(uint64_t* dst, Py_ssize_t ndst, const uint64_t* src, Py_ssize_t nsrc,
                         Py_ssize_t d, void* ps) noexcept nogil:
    """dst[0 : ndst] = rev_d(src): coefficient i of dst is coefficient d - i of src (0 for i > d).
    -2 when the caller's Poll `ps` says stop (looked at every 2^16 words: at 10^10 bits a reversal
    takes about a second), else 0."""
    cdef Py_ssize_t i
    for i in range(ndst):
        dst[i] = bit_reverse64(bits64_at(src, nsrc, d - 64 * i - 63)) if 64 * i <= d else 0
        if (i & 0xFFFF) == 0xFFFF and size_poll(ps, 1 << 16) < 0:
            return -2
    return 0


cdef inline uint64_t clmul_lo(uint64_t x, uint64_t y) noexcept nogil:
    cdef uint64_t r = 0
    cdef int i
    for i in range(64):
        if (y >> i) & 1:
            r ^= x << i
    return r


cdef int inv_series(uint64_t* g, Py_ssize_t K, const uint64_t* h, Py_ssize_t nh, void* ps) noexcept nogil:
    """g[0 : K] = h^-1 mod t^(64 K) for h[0] odd (h: nh words; g: K words, overwritten).

    Newton: if h g = 1 + t^(64p) e (mod t^(64P)), P <= 2p, then
    g + t^(64p) (g e mod t^(64(P-p))) is the inverse mod t^(64P).
    """
    cdef Py_ssize_t ladder[64]
    cdef Py_ssize_t nl = 0, p = K, P, i
    cdef uint64_t x
    cdef uint64_t* prod
    cdef uint64_t* corr
    cdef int st = 0
    while p > 1:
        ladder[nl] = p
        nl += 1
        p = (p + 1) >> 1
    if _row_op_looking(g, NULL, K, ROW_ZERO, ps) < 0:    # rows of gigabytes at 10^10: in pieces
        return -2
    x = 1
    for i in range(6):  # one word: precision 1, 2, 4, ..., 64 bits
        x ^= clmul_lo(x, 1 ^ clmul_lo(h[0], x))  # x (1 + e), h x = 1 + e
    g[0] = x
    if K == 1:
        return 0
    # The last step is the largest: h (K words) times g (ceil(K / 2)), and g times the K - p
    # words of the error; each buffer is as long as that product and no longer.
    prod = <uint64_t*>calloc(K + (K + 1) // 2 + 2, sizeof(uint64_t))
    corr = <uint64_t*>calloc(K + 2, sizeof(uint64_t))
    if prod == NULL or corr == NULL:
        free(prod)
        free(corr)
        return -1
    p = 1
    for i in range(nl - 1, -1, -1):
        P = ladder[i]
        st = _row_op_looking(prod, NULL, min(nh, P) + p, ROW_ZERO, ps)
        if st == 0:
            st = fmul(prod, h, min(nh, P), g, p, ps)
        if st == 0:
            st = _row_op_looking(corr, NULL, 2 * (P - p), ROW_ZERO, ps)
        if st == 0:
            st = fmul(corr, g, P - p, prod + p, P - p, ps)
        if st == 0:
            st = _row_op_looking(g + p, corr, P - p, ROW_COPY, ps)
        if st < 0:
            break
        p = P
    free(prod)
    free(corr)
    if st < 0:
        return st
    return 0 if p == K else -1


cdef int divmod_newton(uint64_t* r, Py_ssize_t nr, const uint64_t* b, Py_ssize_t db, uint64_t* q,
                       Py_ssize_t nq, void* ps, const uint64_t* given_inv=NULL,
                       Py_ssize_t given_words=0) noexcept nogil:
    """r <- r mod b and q ^= r div b (q may be NULL), by Newton's inverse of rev(b); 0, -1 (memory)
    or -2 (interrupted through ps: r and q are then partly updated).

    ``given_inv`` (``given_words`` words), when not NULL and at least as long as the quotient, is
    rev(b)^-1 mod t^(64 given_words) (poly_reversed_inverse), used instead of working it out: a
    caller reducing several dividends by one modulus pays for the inverse once.  Only its first
    quotient-sized words are read, and the bits are the same (the quotient is unique).

    Each buffer lives from the step that writes it to the step that last reads it, so no more
    than four quotient-sized ones (besides a product's transform scratch) are ever held: the
    inverse, the reversed dividend and the double-length product that gives the quotient.
    """
    cdef Py_ssize_t da = highest_set_bit(r, nr), k, K, Kw, nb = words_for_bits(db + 1)
    cdef uint64_t* rb = NULL
    cdef uint64_t* inv = NULL
    cdef int st
    if da < db:
        return 0
    k = da - db
    K = k + 1
    Kw = words_for_bits(K)
    if given_inv != NULL and given_words >= Kw:
        return _divmod_by_inverse(r, nr, b, nb, da, k, <uint64_t*>given_inv, False, q, nq, ps)
    # The inverse of rev(b) to K coefficients; rev(b) is dead once it is found.
    inv = <uint64_t*>calloc(Kw, sizeof(uint64_t))
    rb = <uint64_t*>calloc(Kw, sizeof(uint64_t))
    if inv == NULL or rb == NULL:
        free(inv)
        free(rb)
        return -1
    st = rev_into(rb, Kw, b, nb, db, ps)
    if st == 0:
        st = inv_series(inv, Kw, rb, Kw, ps)
    free(rb)
    if st < 0:
        free(inv)
        return st
    return _divmod_by_inverse(r, nr, b, nb, da, k, inv, True, q, nq, ps)


cdef int _divmod_by_inverse(uint64_t* r, Py_ssize_t nr, const uint64_t* b, Py_ssize_t nb, Py_ssize_t da,
                            Py_ssize_t k, uint64_t* inv, bint owns_inv, uint64_t* q, Py_ssize_t nq,
                            void* ps) noexcept nogil:
    """divmod_newton's quotient and remainder from inv = rev(b)^-1 mod t^(64 Kw) (k = deg r - deg b,
    Kw = words_for_bits(k + 1); inv is only read).  With owns_inv, inv is freed as soon as it is
    dead (after the quotient's product, before q b, as the one-call division always did)."""
    cdef int st
    fft_hold_begin()  # the two products' transforms: mapped once when their sizes agree (gf2fft.h)
    st = _divmod_by_inverse_held(r, nr, b, nb, da, k, inv, owns_inv, q, nq, ps)
    fft_hold_end()
    return st


cdef int _divmod_by_inverse_held(uint64_t* r, Py_ssize_t nr, const uint64_t* b, Py_ssize_t nb, Py_ssize_t da,
                                 Py_ssize_t k, uint64_t* inv, bint owns_inv, uint64_t* q, Py_ssize_t nq,
                                 void* ps) noexcept nogil:
    """_divmod_by_inverse's work, inside its hold."""
    cdef Py_ssize_t K = k + 1, Kw = words_for_bits(k + 1)
    cdef uint64_t* ra = NULL
    cdef uint64_t* qr = NULL
    cdef uint64_t* qq = NULL
    cdef uint64_t* prod = NULL
    cdef int st
    # rev(q) = rev(r) inv mod t^K.
    ra = <uint64_t*>calloc(Kw, sizeof(uint64_t))
    qr = <uint64_t*>calloc(2 * Kw, sizeof(uint64_t))
    if ra == NULL or qr == NULL:
        if owns_inv:
            free(inv)
        free(ra)
        free(qr)
        return -1
    st = rev_into(ra, Kw, r, nr, da, ps)
    ra[Kw - 1] &= tail_mask(K)
    if st == 0:
        st = fmul(qr, ra, Kw, inv, Kw, ps)
    free(ra)
    if owns_inv:
        free(inv)
    if st < 0:
        free(qr)
        return st
    qr[Kw - 1] &= tail_mask(K)
    qq = <uint64_t*>calloc(Kw, sizeof(uint64_t))
    if qq == NULL:
        free(qr)
        return -1
    st = rev_into(qq, Kw, qr, Kw, k, ps)
    free(qr)
    if st < 0:
        free(qq)
        return st
    # r - q b.
    prod = <uint64_t*>calloc(Kw + nb + 2, sizeof(uint64_t))
    if prod == NULL:
        free(qq)
        return -1
    st = fmul(prod, qq, Kw, b, nb, ps)
    if st == 0:
        st = _row_op_looking(r, prod, min(nr, Kw + nb), ROW_XOR, ps)
    if st == 0 and q != NULL:
        st = _row_op_looking(q, qq, min(nq, Kw), ROW_XOR, ps)
    free(prod)
    free(qq)
    return st


cdef int divmod_any(uint64_t* r, Py_ssize_t nr, const uint64_t* b, Py_ssize_t nb, uint64_t* q,
                    Py_ssize_t nq, Py_ssize_t newton_words, void* ps, const uint64_t* given_inv=NULL,
                    Py_ssize_t given_words=0) noexcept nogil:
    """r <- r mod b, q ^= r div b (q may be NULL; else room for the quotient): Newton or schoolbook
    (Newton with a given inverse of rev(b), if any and long enough: see divmod_newton)."""
    cdef Py_ssize_t db = highest_set_bit(b, nb), da = highest_set_bit(r, nr), bw, stop, chunk
    cdef uint64_t* tmp
    if da < db:
        return 0
    if db == 0:     # b = 1 (a gcd of 1, often): the quotient is r itself
        if q != NULL and _row_op_looking(q, r, min(nq, words_for_bits(da + 1)), ROW_XOR, ps) < 0:
            return -2
        return _row_op_looking(r, NULL, nr, ROW_ZERO, ps)
    bw = words_for_bits(db + 1)
    if words_for_bits(da - db + 1) >= newton_words and bw >= newton_words:
        return divmod_newton(r, nr, b, db, q, nq, ps, given_inv, given_words)
    tmp = <uint64_t*>calloc(bw + 1, sizeof(uint64_t))
    if tmp == NULL:
        return -1
    # Schoolbook, a chunk of quotient bits (about CHUNK_WORD_OPS word operations) at a time, with
    # a check for Ctrl-C between chunks: a long quotient by a short divisor takes seconds at 10^9.
    chunk = 64 * max(1, CHUNK_WORD_OPS // (bw + 64))
    stop = da
    while True:
        stop = max(stop - chunk, db)
        if divide_inplace(r, nr, b, bw, q, nq, tmp, stop) < db or stop == db:
            break
        if size_poll(ps, POLL_WORDS) < 0:
            free(tmp)
            return -2
    free(tmp)
    return 0


_MAX_INVERSE_BITS = 1 << 38


def poly_reversed_inverse(b, Py_ssize_t nbits, threads=None):
    """rev(b)^-1 mod t^(64 w), w = words_for_bits(nbits) >= 1, with rev(b) = t^deg(b) b(1/t): the
    inverse a Newton division by b works out first, for ``poly_mod_overwrite(a, b, inverse=...)``
    to reuse across dividends (its quotients up to ``64 w`` coefficients).  Returns w words,
    untrimmed.  Its products run on ``threads`` threads (as in poly_mul).

    Raises:
        InvalidBoardError: nbits < 1 or above 2^38, refused before allocating.
        ZeroDivisionError: b = 0.

    Example:
        >>> inv = poly_reversed_inverse(np.array([0b110], dtype=np.uint64), 64)   # rev(t^2 + t) = 1 + t
        >>> int(poly_mul(inv, np.array([0b11], dtype=np.uint64))[0])               # (1 + t) inv = 1 mod t^64
        1
    """
    cdef const uint64_t[::1] bv = _poly_arg(b, "b")
    cdef Py_ssize_t db = _deg(bv), nb, nw
    cdef int nthreads = _threads_of(threads), old, st
    if db < 0:
        raise ZeroDivisionError("poly_reversed_inverse: inverse of the zero polynomial's reverse")
    if nbits < 1 or nbits > _MAX_INVERSE_BITS:
        raise InvalidBoardError(f"poly_reversed_inverse: nbits must be from 1 to 2^38 (a 32 GiB inverse), "
                                f"got {nbits}")
    nb = words_for_bits(db + 1)
    nw = words_for_bits(nbits)
    out = np.zeros(nw, dtype=np.uint64)
    rb = np.zeros(nw, dtype=np.uint64)
    cdef uint64_t[::1] ov = out, rv = rb
    cdef Poll poll = make_poll(None, 1 << 20)
    with nogil:
        st = rev_into(&rv[0], nw, &bv[0], nb, db, &poll)
        if st == 0:
            old = fft_set_threads(nthreads)
            st = inv_series(&ov[0], nw, &rv[0], nw, &poll)
            fft_set_threads(old)
    del rb
    _raise_status(st, "poly_reversed_inverse")
    return out


def poly_mod_overwrite(a, b, inverse=None, threads=None):
    """a mod b worked out in a's own words, which are left holding the remainder (zero above it).

    For a dividend that is dead afterwards, such as a product about to be reduced: no copy of
    it is made, where poly_mod copies it first (at 10^9 coefficients a product of two
    remainders is 250 MB).  Returns the remainder trimmed, as poly_mod does (a new array).
    ``inverse``, poly_reversed_inverse(b, n) of this same b, spares a Newton division its inverse
    when the quotient has at most n coefficients (else it is worked out as without it); the
    remainder is unique, so the bits are the same.  ``threads``: as for :func:`poly_mod`.

    Raises:
        InvalidTypeError: a is not a writable 1-D C-contiguous uint64 array, or inverse not a
            1-D C-contiguous uint64 array.
        InvalidBoardError: inverse is not the inverse of rev(b) (its first word checked).
        ZeroDivisionError: b = 0.

    Example:
        >>> a = np.array([0b1011], dtype=np.uint64)
        >>> poly_mod_overwrite(a, np.array([0b11], dtype=np.uint64)).tolist(), a.tolist()
        ([1], [1])
    """
    if not (isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype == np.uint64 and a.flags.c_contiguous
            and a.flags.writeable and a.shape[0] > 0):
        raise InvalidTypeError("poly_mod_overwrite: a must be a writable, non-empty, C-contiguous 1-D uint64 "
                               f"array (it is overwritten), got {type(a).__name__} "
                               f"{getattr(a, 'dtype', '')} {getattr(a, 'shape', '')}; poly_mod copies any input")
    cdef uint64_t[::1] rv = a
    cdef const uint64_t[::1] bv = _poly_arg(b, "b")
    cdef Py_ssize_t db = _deg(bv), nb
    if db < 0:
        raise ZeroDivisionError("poly_mod_overwrite: division by the zero polynomial")
    nb = words_for_bits(db + 1)
    cdef Py_ssize_t newton_words = _newton_words, ninv = 0
    cdef const uint64_t[::1] iv
    cdef const uint64_t* inv_ptr = NULL
    cdef int st, old, nthreads = _threads_of(threads)
    if inverse is not None:
        if not (isinstance(inverse, np.ndarray) and inverse.ndim == 1 and inverse.dtype == np.uint64
                and inverse.flags.c_contiguous and inverse.shape[0] > 0):
            raise InvalidTypeError("poly_mod_overwrite: inverse must be poly_reversed_inverse(b, n), a non-empty "
                                   f"C-contiguous 1-D uint64 array, got {type(inverse).__name__} "
                                   f"{getattr(inverse, 'dtype', '')} {getattr(inverse, 'shape', '')}")
        iv = inverse
        if clmul_lo(bit_reverse64(bits64_at(&bv[0], nb, db - 63)), iv[0]) != 1:
            raise InvalidBoardError("poly_mod_overwrite: inverse is not rev(b)^-1 (its lowest word times rev(b)'s "
                                    "is not 1 mod t^64); pass poly_reversed_inverse(b, n) of this b")
        inv_ptr = &iv[0]
        ninv = iv.shape[0]
    cdef Poll poll = make_poll(None, 1 << 20)
    with nogil:
        old = fft_set_threads(nthreads)
        st = divmod_any(&rv[0], rv.shape[0], &bv[0], nb, NULL, 0, newton_words, &poll, inv_ptr, ninv)
        fft_set_threads(old)
    _raise_status(st, "poly_mod_overwrite")
    return _copy_trimmed(&rv[0], min(rv.shape[0], nb))
