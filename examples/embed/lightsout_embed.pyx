# cython: language_level=3
"""A separate extension that calls lightsout's packed GF(2) kernels through its C API.

It owns every buffer (plain malloc, no numpy), fills a matrix from its own
random generator, and eliminates it without the GIL through the table that
lightsout's dispatcher picked for this CPU.  If the installed lightsout also
exports the chase kernel's table, it chases an all-lit board too.
"""
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc

from lightsout cimport capi


cdef uint64_t splitmix64(uint64_t* state) noexcept nogil:
    """Next output of the splitmix64 generator."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef void fill_matrix(uint64_t* words, ptrdiff_t nrows, ptrdiff_t ncols, uint64_t seed) noexcept nogil:
    """Random packed rows (bit j of a row = bit j % 64 of word j // 64), tail bits zero.

    The last quarter of the rows are sums of the two rows above them, so the
    rank is below the number of rows.
    """
    cdef ptrdiff_t stride = (ncols + 63) // 64, i, k
    cdef uint64_t state = seed
    cdef uint64_t tail = ~(<uint64_t>0) if ncols % 64 == 0 else ((<uint64_t>1) << (ncols % 64)) - 1
    for i in range(nrows):
        for k in range(stride):
            if i >= 2 and 4 * i >= 3 * nrows:
                words[i * stride + k] = words[(i - 1) * stride + k] ^ words[(i - 2) * stride + k]
            else:
                words[i * stride + k] = splitmix64(&state)
        if stride:
            words[i * stride + stride - 1] &= tail


def random_matrix(Py_ssize_t nrows, Py_ssize_t ncols, uint64_t seed=1):
    """The matrix that rank() eliminates, as a list of rows of 0/1 ints (for checking)."""
    cdef ptrdiff_t stride = (ncols + 63) // 64
    cdef uint64_t* words = <uint64_t*>calloc(max(nrows * stride, 1), sizeof(uint64_t))
    if words == NULL:
        raise MemoryError()
    try:
        fill_matrix(words, nrows, ncols, seed)
        return [[(words[i * stride + j // 64] >> (j % 64)) & 1 for j in range(ncols)] for i in range(nrows)]
    finally:
        free(words)


def rank(Py_ssize_t nrows, Py_ssize_t ncols, uint64_t seed=1):
    """Rank over GF(2) of random_matrix(nrows, ncols, seed), and the SIMD level that computed it."""
    cdef const capi.lightsout_gf2elim_api* api = capi.import_gf2elim_api()
    cdef ptrdiff_t stride = (ncols + 63) // 64, result
    cdef uint64_t* words = <uint64_t*>calloc(max(nrows * stride, 1), sizeof(uint64_t))
    cdef int64_t* pivots = <int64_t*>malloc(max(min(nrows, ncols), 1) * sizeof(int64_t))
    if words == NULL or pivots == NULL:
        free(words)
        free(pivots)
        raise MemoryError()
    with nogil:
        fill_matrix(words, nrows, ncols, seed)
        result = api.rref(words, nrows, stride, ncols, -1, pivots)
    free(words)
    free(pivots)
    if result == capi.LIGHTSOUT_ENOMEM:
        raise MemoryError("lightsout's elimination ran out of memory")
    if result < 0:
        raise ValueError(f"lightsout's elimination refused the arguments (code {result})")
    return result, api.simd_level.decode("ascii")


def chase_all_lit(Py_ssize_t nrows, Py_ssize_t ncols, first_row):
    """Chase the all-lit nrows x ncols board down from the presses first_row (0/1 list).

    Returns (residue, level): the lights left below the last row as a 0/1 list
    (all zero iff first_row solves the board) and the SIMD level, or None when
    the installed lightsout does not export the chase kernel's C API.
    """
    cdef const capi.lightsout_kernels_api* api
    try:
        api = capi.import_kernels_api()
    except ImportError:
        return None
    if len(first_row) != ncols:
        raise ValueError(f"first_row must have {ncols} entries")
    cdef ptrdiff_t nwords = (ncols + 63) // 64, j
    cdef int status
    cdef uint64_t* first = <uint64_t*>calloc(max(nwords, 1), sizeof(uint64_t))
    cdef uint64_t* residue = <uint64_t*>calloc(max(nwords, 1), sizeof(uint64_t))
    if first == NULL or residue == NULL:
        free(first)
        free(residue)
        raise MemoryError()
    for j in range(ncols):
        if first_row[j]:
            first[j // 64] |= (<uint64_t>1) << (j % 64)
    with nogil:
        status = api.chase(NULL, nrows, ncols, first, residue, NULL)
    bits = [(residue[j // 64] >> (j % 64)) & 1 for j in range(ncols)]
    free(first)
    free(residue)
    if status != 0:
        raise MemoryError(f"lightsout's chase failed (code {status})")
    return bits, api.simd_level.decode("ascii")


def main():
    """Print the rank of a 200 x 300 random matrix and the SIMD level lightsout picked."""
    r, level = rank(200, 300)
    print(f"rank of the 200 x 300 matrix: {r} (lightsout SIMD level: {level})")
    chased = chase_all_lit(5, 5, [1, 1, 0, 0, 0])
    if chased is None:
        print("chase: this lightsout exports no chase C API")
    else:
        residue, level = chased
        verdict = "solves it" if not any(residue) else "does not solve it"
        print(f"chase of the all-lit 5 x 5 board from first row 11000: residue "
              f"{''.join(map(str, residue))}, so 11000 {verdict} (lightsout SIMD level: {level})")
