# lightsout's Cython contract: cimport this to call the packed GF(2) kernels
# from another extension, without the GIL, on buffers that extension owns.
#
#     from lightsout cimport capi
#     cdef const capi.lightsout_gf2elim_api* api = capi.import_gf2elim_api()
#     with nogil:
#         rank = api.rref(words, nrows, stride, ncols, -1, pivots)
#
# Build the client with lightsout.get_include() on both Cython's include_path
# (so this file resolves) and the C compiler's include_dirs (so
# "lightsout/capi.h" does).  The tables are fetched at run time through
# lightsout._kernels, so the client gets the widest SIMD build of the kernels
# this CPU runs (AVX-512 where present; LIGHTSOUT_SIMD forces a level), although
# the client itself is compiled for no particular CPU.  See lightsout/capi.h for
# the packed layout, return codes and threading rules, and examples/embed/.

from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int64_t, uint64_t


cdef extern from "lightsout/capi.h" nogil:
    enum:
        LIGHTSOUT_CAPI_VERSION
        LIGHTSOUT_ENOMEM
        LIGHTSOUT_EINVAL

    ctypedef struct lightsout_gf2elim_api:
        int abi_version
        const char* simd_level
        ptrdiff_t (*rref)(uint64_t* matrix, ptrdiff_t nrows, ptrdiff_t stride, ptrdiff_t ncols,
                          ptrdiff_t npivot_cols, int64_t* pivots) noexcept nogil

    ctypedef struct lightsout_kernels_api:
        int abi_version
        const char* simd_level
        int (*chase)(const uint64_t* board, ptrdiff_t nrows, ptrdiff_t ncols, const uint64_t* first_row,
                     uint64_t* residue, uint64_t* presses) noexcept nogil


cdef extern from "lightsout/capi.h":
    # the header's own import functions (one copy of the capsule names and the version check)
    const lightsout_gf2elim_api* lightsout_import_gf2elim_api() except NULL
    const lightsout_kernels_api* lightsout_import_kernels_api() except NULL


cdef inline const lightsout_gf2elim_api* import_gf2elim_api() except NULL:
    """The elimination table of the widest lightsout._kernels.gf2elim build this CPU runs.

    Raises ImportError when the installed lightsout is older than this
    contract, ValueError when LIGHTSOUT_SIMD names a level the CPU lacks.
    """
    return lightsout_import_gf2elim_api()


cdef inline const lightsout_kernels_api* import_kernels_api() except NULL:
    """The chase table of the widest lightsout._kernels.chase build this CPU runs (as import_gf2elim_api)."""
    return lightsout_import_kernels_api()
