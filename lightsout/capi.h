/* lightsout C API: function tables that other compiled code calls without the GIL.
 *
 * Each compiled kernel module of lightsout (one build per SIMD level) exports
 * a PyCapsule named "_capi" holding a pointer to one of the static tables below,
 * filled with that build's functions.  lightsout._kernels picks the widest
 * build the CPU runs, so a client that fetches the table through the dispatcher
 * (see lightsout/capi.pxd) gets AVX-512 code where the CPU has it, without
 * being compiled for it.
 *
 * Packed layout: a row of nbits bits is words_for_bits(nbits) = (nbits + 63) / 64
 * little-endian uint64 words; bit j is bit j % 64 of word j / 64; bits past the
 * last column are zero on entry and on exit.  Matrices are rows of `stride`
 * words, stride >= words_for_bits(ncols).
 *
 * Return codes: >= 0 success (a rank for rref), LIGHTSOUT_ENOMEM (-1) out of
 * memory, LIGHTSOUT_EINVAL (-2) arguments that cannot describe a matrix.
 *
 * Threads: every function runs without the GIL and touches only the buffers it
 * is given (and scratch it allocates and frees), so a client may call it from
 * any thread, also on different buffers at once.  Nothing here checks for
 * signals: a client that wants Ctrl-C to stop long work splits it or checks
 * between calls.
 *
 * Versions: abi_version grows when fields are appended to a table; existing
 * fields never change.  A client compiled against version V accepts a table
 * whose abi_version >= V (the import functions at the end check this).
 *
 * Fetching a table: a C extension that includes Python.h before this header
 * calls lightsout_import_gf2elim_api() or lightsout_import_kernels_api() (at the
 * end of this file) once, holding the GIL, for instance in its module's init;
 * Cython code cimports lightsout/capi.pxd, whose import functions call them.
 * examples/embed_c/ (plain C) and examples/embed/ (Cython) are complete
 * extensions.
 */
#ifndef LIGHTSOUT_CAPI_H
#define LIGHTSOUT_CAPI_H

#include <stdint.h>
#include <stddef.h>

#define LIGHTSOUT_CAPI_VERSION 1

#define LIGHTSOUT_ENOMEM (-1)
#define LIGHTSOUT_EINVAL (-2)

/* The names of the capsules that hold the tables (the first kept from before the kernels moved into
 * lightsout._kernels); the import functions below know them, so a client need not. */
#define LIGHTSOUT_GF2ELIM_CAPSULE "lightsout._gf2elim._capi"
#define LIGHTSOUT_KERNELS_CAPSULE "lightsout._kernels._capi"

/* Table exported by lightsout._kernels.gf2elim (capsule LIGHTSOUT_GF2ELIM_CAPSULE). */
typedef struct lightsout_gf2elim_api {
    int abi_version;          /* LIGHTSOUT_CAPI_VERSION */
    const char *simd_level;   /* "generic", "avx2" or "avx512" */
    /* Reduced row echelon form in place of an nrows x ncols packed matrix with
       rows of `stride` words; pivots are searched in the first npivot_cols
       columns only (npivot_cols < 0: all ncols), so an augmented [A | b] is
       eliminated with npivot_cols = ncols - 1.  pivots[0..rank) receive the
       pivot columns, increasing (the array has room for min(nrows, npivot_cols)
       entries); pivot row i is row i on return.  Words of a row past
       words_for_bits(ncols) are neither read nor written.  Returns the rank,
       LIGHTSOUT_ENOMEM or LIGHTSOUT_EINVAL (stride < words_for_bits(ncols),
       a negative size, npivot_cols > ncols, or a NULL pointer). */
    ptrdiff_t (*rref)(uint64_t *matrix, ptrdiff_t nrows, ptrdiff_t stride, ptrdiff_t ncols,
                      ptrdiff_t npivot_cols, int64_t *pivots);
} lightsout_gf2elim_api;

/* Table exported by lightsout._kernels.chase (capsule LIGHTSOUT_KERNELS_CAPSULE). */
typedef struct lightsout_kernels_api {
    int abi_version;          /* LIGHTSOUT_CAPI_VERSION */
    const char *simd_level;   /* "generic", "avx2" or "avx512" */
    /* Chase the lights of an nrows x ncols board (rows of words_for_bits(ncols)
       words; board == NULL means every light on) down from the presses
       first_row.  residue (words_for_bits(ncols) words) receives the lights left
       below the last row: zero iff the board ends dark.  presses, when not
       NULL, receives the nrows x words_for_bits(ncols) press matrix.
       Returns 0 or -1. */
    int (*chase)(const uint64_t *board, ptrdiff_t nrows, ptrdiff_t ncols, const uint64_t *first_row,
                 uint64_t *residue, uint64_t *presses);
} lightsout_kernels_api;

#ifdef Py_PYTHON_H
/* The table of lightsout._kernels.<module> (module "gf2elim" or "chase") in the build the
 * dispatcher picks: the widest SIMD level this CPU runs, or the one LIGHTSOUT_SIMD forces.
 * Call with the GIL held.  Returns the table, which stays valid while the process runs
 * (the kernel module stays imported), or NULL with a Python exception set: ImportError when
 * lightsout is missing, exports no such table, or is older than this header; ValueError
 * (lightsout.SettingError) when LIGHTSOUT_SIMD names a level this CPU lacks. */
static inline const void *lightsout_import_table(const char *module, const char *capsule_name)
{
    PyObject *kernels, *capsule;
    const int *version;

    kernels = PyImport_ImportModule("lightsout._kernels");
    if (kernels == NULL)
        return NULL;
    capsule = PyObject_CallMethod(kernels, "c_api", "s", module);
    Py_DECREF(kernels);
    if (capsule == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ImportError,
                         "lightsout._kernels.%s of this installation exports no C API (_capi)", module);
        }
        return NULL;
    }
    version = (const int *)PyCapsule_GetPointer(capsule, capsule_name);
    Py_DECREF(capsule); /* the table is static data of the kernel module, which sys.modules keeps */
    if (version == NULL)
        return NULL;
    if (version[0] < LIGHTSOUT_CAPI_VERSION) {
        PyErr_Format(PyExc_ImportError,
                     "lightsout._kernels.%s C API version %d is older than version %d this extension was "
                     "compiled against; upgrade lightsout", module, version[0], LIGHTSOUT_CAPI_VERSION);
        return NULL;
    }
    return (const void *)version;
}

/* The elimination table (lightsout._kernels.gf2elim), or NULL with an exception set. */
static inline const lightsout_gf2elim_api *lightsout_import_gf2elim_api(void)
{
    return (const lightsout_gf2elim_api *)lightsout_import_table("gf2elim", LIGHTSOUT_GF2ELIM_CAPSULE);
}

/* The chase table (lightsout._kernels.chase), or NULL with an exception set. */
static inline const lightsout_kernels_api *lightsout_import_kernels_api(void)
{
    return (const lightsout_kernels_api *)lightsout_import_table("chase", LIGHTSOUT_KERNELS_CAPSULE);
}
#endif /* Py_PYTHON_H */

#endif
