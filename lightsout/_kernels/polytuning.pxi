# The tuning state of gf2poly.pyx (included there): where the fast paths start, whether the
# FFT's wide loops run, and how often a long loop checks in with Python.  Every kernel reads
# these module settings once at the start of a call; tests move them to drive small inputs
# through the subquadratic paths.

# Word operations between two check-ins with Python (about a millisecond).
cdef Py_ssize_t CHUNK_WORD_OPS = 1 << 22


def have_pclmul():
    """True when this build multiplies with PCLMULQDQ (the avx2/avx512 builds).

    Example:
        >>> have_pclmul() in (True, False)
        True
    """
    return bool(LO_HAVE_PCLMUL)


# Tuned thresholds (set_thresholds() overrides them, e.g. to drive small inputs
# through the recursion in tests).  Measured on the avx512 build, 2026-11-22.
cdef Py_ssize_t _newton_words = 256  # divmod: Newton when quotient and divisor both have >= this many words
cdef Py_ssize_t _hgcd_words = 16     # half-gcd: Lehmer leaves below this many words
cdef Py_ssize_t _gcd_words = 160     # gcd / cofactor: half-gcd when the larger operand has >= this many words
cdef Py_ssize_t _toom_words = 128    # products: Toom-3 above Karatsuba from this many words per operand
cdef Py_ssize_t _fft_words = 1024    # products: the additive FFT from this many words in the smaller operand (2026-11-25)
# FFT products: on threads (threads=) from this many words in the smaller operand.  On the shared
# 2-core EPYC (2026-11-27, loaded) the busiest of 2 threads spent 1.4x less CPU than one thread at
# 2^14 words, 1.9x at 2^16, but none less at 2^13 (the start and the waits at barriers cost as much).
cdef Py_ssize_t _thread_words = 16384
# Below _thread_words: the independent products of a half-gcd step (the two rows of a 2x2 matrix
# product, the remainders' lift beside the matrices' product) run on two threads at once from this
# many words in the smaller operand, when the call has two threads or more (measured on the
# 2-core EPYC, 2026-11-28: nullity(10**8) 5.0 s -> 3.9 s with 64-128 words, 4.1 s with 256; later
# that day, with the persistent partner thread, 3.4-3.5 s with 32 words against 3.6-3.8 s with 128,
# and nullity(10**9) 42.3 s against 44.5 s; 16 words no better).
cdef Py_ssize_t _pair_words = 32
cdef Py_ssize_t POLL_BITS = 1 << 18  # half-gcd nodes this large check in with Python
# Cofactor runs: once the cofactor has TAIL_RATIO times the remainder's words, the rest of Euclid runs
# with short cofactors of its own, applied to the long ones in one product (polygcd.pxi, euclid_tail).
cdef Py_ssize_t TAIL_RATIO = 2


def set_thresholds(newton_words=None, hgcd_words=None, gcd_words=None, toom_words=None, fft_words=None,
                   thread_words=None, pair_words=None):
    """Override the fast-path thresholds (in 64-bit words); returns the previous values.

    newton_words: poly_divmod / poly_mod use Newton division when the quotient
    and the divisor both have at least this many words (else schoolbook).
    hgcd_words: half-gcd recursion nodes below this many words run Lehmer's
    steps.  gcd_words: poly_gcd, poly_gcd_cofactor and poly_xgcd use the
    half-gcd when the larger operand has at least this many words (else
    Lehmer's Euclid).  toom_words: products (poly_mul and those inside the
    fast paths) use Toom-3 above Karatsuba when both operands have at least
    this many words (at least 12 whatever the setting).  fft_words: products
    use the additive FFT (gf2fft.h) when the smaller operand has at least this
    many words, the half-gcd's 2x2 matrix products (which transform each
    operand once for two products) from a quarter of it.  thread_words:
    those FFT products spread over the threads of the call (its threads=
    argument) when the smaller operand has at least this many words (below
    it, starting threads costs more than they save).
    pair_words: below thread_words, the half-gcd's independent products (the
    two rows of a 2x2 matrix product; the lift of the remainders beside the
    product of the matrices) run on two threads at once, each product on one,
    when the smaller operand has at least this many words and the call has
    two threads or more.  A huge value turns a fast path off.  The values are
    module settings (read once at the start of each call); tests use them to
    drive small inputs through the recursion and to call the slow paths.

    Raises:
        InvalidTypeError: a threshold that is not an int (bools refused).
        InvalidBoardError: a threshold outside 1..PY_SSIZE_T_MAX (2**63 - 1);
            nothing is set then.

    Example:
        >>> old = set_thresholds(gcd_words=2, hgcd_words=1)
        >>> poly_gcd(np.array([0b110], dtype=np.uint64), np.array([0b1010], dtype=np.uint64)).tolist()
        [6]
        >>> _ = set_thresholds(**old)
    """
    global _newton_words, _hgcd_words, _gcd_words, _toom_words, _fft_words, _thread_words, _pair_words
    old = thresholds()
    newton_words = _threshold("newton_words", newton_words)
    hgcd_words = _threshold("hgcd_words", hgcd_words)
    gcd_words = _threshold("gcd_words", gcd_words)
    toom_words = _threshold("toom_words", toom_words)
    fft_words = _threshold("fft_words", fft_words)
    thread_words = _threshold("thread_words", thread_words)
    pair_words = _threshold("pair_words", pair_words)
    # every argument is checked before any is set: a refused call changes nothing
    if newton_words is not None:
        _newton_words = newton_words
    if hgcd_words is not None:
        _hgcd_words = hgcd_words
    if gcd_words is not None:
        _gcd_words = gcd_words
    if toom_words is not None:
        _toom_words = toom_words
    if fft_words is not None:
        _fft_words = fft_words
    if thread_words is not None:
        _thread_words = thread_words
    if pair_words is not None:
        _pair_words = pair_words
    return old


cdef object _threshold(str name, object value):
    """A threshold argument as a Python int in 1..PY_SSIZE_T_MAX, None left as it is (or raise)."""
    if value is None:
        return None
    value = _int_setting("set_thresholds", name, value, "an int (words)")
    if not 1 <= value <= PY_SSIZE_T_MAX:
        raise InvalidBoardError(f"set_thresholds: {name} must be in 1..{PY_SSIZE_T_MAX} words (2**63 - 1 "
                                f"on 64-bit builds; a value past every operand turns that path off), "
                                f"got {value}")
    return value


cdef object _int_setting(str where, str name, object value, str accepted):
    """value as a Python int, or InvalidTypeError saying that `where` takes `accepted` for `name`
    (bools refused: True is not a size)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidTypeError(f"{where}: {name} must be {accepted}, got {type(value).__name__}")
    return int(value)


cdef bint _bool_setting(str where, str name, object value) except -1:
    """value as a C truth value, or InvalidTypeError saying that `where` takes a bool for `name`."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidTypeError(f"{where}: {name} must be a bool, got {type(value).__name__}")
    return bool(value)


def thresholds():
    """The fast-path thresholds in words, as a dict (see set_thresholds).

    Example:
        >>> sorted(thresholds())
        ['fft_words', 'gcd_words', 'hgcd_words', 'newton_words', 'pair_words', 'thread_words', 'toom_words']
    """
    return {"newton_words": _newton_words, "hgcd_words": _hgcd_words, "gcd_words": _gcd_words,
            "toom_words": _toom_words, "fft_words": _fft_words, "thread_words": _thread_words,
            "pair_words": _pair_words}


def set_fft_wide(enable):
    """Run the FFT's field products eight or four at a time (VPCLMULQDQ) or one at a time.

    The wide loops are on by default wherever the CPU has VPCLMULQDQ (and never
    in the portable build); turning them off is for tests and measurements.
    Returns the previous setting.

    Raises:
        InvalidTypeError: enable is not a bool.

    Example:
        >>> old = set_fft_wide(False)
        >>> set_fft_wide(old)
        False
    """
    return bool(fft_set_wide(1 if _bool_setting("set_fft_wide", "enable", enable) else 0))


def set_fft_pass_slice(words):
    """Run the transform's passes over memory in slices of ``words`` words (a power of two, at
    least 64; 2^21 by default), with a Ctrl-C check between slices.  For tests, which make the
    slices small so that transforms of a few thousand words take every sliced path.  Returns
    the previous value.

    Raises:
        InvalidTypeError: words is not an int (bools refused).
        InvalidBoardError: words is not a power of two from 64 to 2^40.

    Example:
        >>> old = set_fft_pass_slice(64)
        >>> set_fft_pass_slice(old)
        64
    """
    words = _int_setting("set_fft_pass_slice", "words", words, "an int")
    if words < 64 or words > 1 << 40 or words & (words - 1):
        raise InvalidBoardError(f"set_fft_pass_slice needs a power of two from 64 to 2^40 words, got {words}")
    return int(fft_set_pass_slice(<size_t>words))


def fft_wide_supported():
    """Whether this build and CPU can run the FFT's wide (VPCLMULQDQ) loops.

    Example:
        >>> fft_wide_supported() in (True, False)
        True
    """
    return bool(fft_wide_available)


def fft_scratch_limit(nbytes=None):
    """The most bytes of FFT transforms kept between products (see gf2fft.h's arena); sets it when given.

    From the third product of one size in a row (a loop of equal products, not the
    polynomial route, whose sizes change), a product whose transforms are 128 KiB or
    more gives them back to a scratch arena instead of freeing them, so the next
    product of that size skips faulting and zeroing fresh pages (at 2^22-2^23 words
    15-20 % of a product).  At most this many bytes are held (default 2**29, the two
    transforms of a 2^23-word product), only while the machine's free memory is at
    least four times that, and a product of another size first frees them.  0 keeps
    nothing (and frees what is held).
    Returns the previous limit.

    Raises:
        InvalidTypeError: nbytes not None or an int (bools refused).
        InvalidBoardError: nbytes negative.

    Example:
        >>> old = fft_scratch_limit(0)
        >>> fft_scratch_limit(old)
        0
    """
    if nbytes is None:
        return int(fft_arena_get_limit())
    nbytes = _int_setting("fft_scratch_limit", "nbytes", nbytes, "an int or None")
    if nbytes < 0:
        raise InvalidBoardError(f"fft_scratch_limit: nbytes must be >= 0 (0: keep nothing), got {nbytes}")
    return int(fft_arena_set_limit(<size_t>min(nbytes, <object>PY_SSIZE_T_MAX)))


def fft_scratch_keep(keep):
    """Whether this thread's products give their transforms to the scratch arena (see
    :func:`fft_scratch_limit`); returns the previous setting.  Per thread: the polynomial route
    turns it off while it runs, so that no kept transform raises its peak memory.

    Example:
        >>> old = fft_scratch_keep(False)
        >>> fft_scratch_keep(old)
        False
    """
    return bool(fft_arena_set_keep(1 if _bool_setting("fft_scratch_keep", "keep", keep) else 0))


def fft_transform_limit(nbytes=None):
    """The most bytes the transforms of one product may hold on this thread (0: no limit, the
    default); sets it when given and returns the previous limit.

    A product whose transforms would pass the limit is cut: a long operand into pieces,
    then one Karatsuba step at a time, whose three products have half the transforms (the
    same bits in about 1.45x the time).  A 2x2 matrix product that would pass it runs its
    terms one product at a time.  The polynomial route sets it from the board's side
    (lightsout._routes.poly.TRANSFORM_LIMIT_POLYS), so that the largest products of a side
    just past a power of two do not double its peak memory.

    Raises:
        InvalidTypeError: nbytes not None or an int (bools refused).
        InvalidBoardError: nbytes negative.

    Example:
        >>> old = fft_transform_limit(1 << 16)       # transforms of at most 64 KiB a product
        >>> a = np.arange(1, 5001, dtype=np.uint64)
        >>> limited = poly_mul(a, a)                  # 2 x 256 KiB unlimited: cut three times
        >>> fft_transform_limit(old)
        65536
        >>> bool((limited == poly_mul(a, a)).all())
        True
    """
    global lo_fft_transform_limit
    if nbytes is None:
        return int(lo_fft_transform_limit)
    nbytes = _int_setting("fft_transform_limit", "nbytes", nbytes, "an int or None")
    if nbytes < 0:
        raise InvalidBoardError(f"fft_transform_limit: nbytes must be >= 0 (0: no limit), got {nbytes}")
    old = int(lo_fft_transform_limit)
    lo_fft_transform_limit = <size_t>min(nbytes, <object>PY_SSIZE_T_MAX)
    return old


def fft_scratch_release():
    """Free the FFT transforms kept for the next product; returns how many bytes were freed.

    Example:
        >>> fft_scratch_release() >= 0
        True
    """
    return int(fft_arena_release())
