/* A C extension module, in plain C, that calls lightsout's packed GF(2) kernels through its C API.
 *
 * It owns every buffer (plain malloc, no numpy), fills a matrix from its own random generator,
 * and eliminates it without the GIL through the table lightsout's dispatcher picked for this
 * CPU; it also chases an all-lit board.  The one thing it needs from lightsout is the header
 * lightsout/capi.h: lightsout_import_gf2elim_api() and lightsout_import_kernels_api() fetch
 * the tables (include Python.h first, so that the header defines them).
 *
 * Python functions: rank(nrows, ncols, seed=1) -> (rank, simd_level);
 * random_matrix(nrows, ncols, seed=1) -> the matrix rank() eliminates, as lists of 0/1;
 * chase_all_lit(nrows, ncols, first_row) -> (residue as a 0/1 list, simd_level);
 * main() prints what examples/embed_c/README.md shows.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>

#include "lightsout/capi.h"

/* Next output of the splitmix64 generator. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z;
    *state += UINT64_C(0x9E3779B97F4A7C15);
    z = *state;
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Random packed rows (bit j of a row is bit j % 64 of word j / 64), tail bits zero.  The last
 * quarter of the rows are sums of the two rows above them, so the rank is below the number of rows. */
static void fill_matrix(uint64_t *words, Py_ssize_t nrows, Py_ssize_t ncols, uint64_t seed)
{
    Py_ssize_t stride = (ncols + 63) / 64, i, k;
    uint64_t state = seed;
    uint64_t tail = ncols % 64 == 0 ? ~UINT64_C(0) : (UINT64_C(1) << (ncols % 64)) - 1;
    for (i = 0; i < nrows; i++) {
        for (k = 0; k < stride; k++) {
            if (i >= 2 && 4 * i >= 3 * nrows)
                words[i * stride + k] = words[(i - 1) * stride + k] ^ words[(i - 2) * stride + k];
            else
                words[i * stride + k] = splitmix64(&state);
        }
        if (stride)
            words[i * stride + stride - 1] &= tail;
    }
}

static int check_sizes(Py_ssize_t nrows, Py_ssize_t ncols)
{
    if (nrows < 1 || ncols < 1 || nrows > (1 << 16) || ncols > (1 << 16)) {
        PyErr_SetString(PyExc_ValueError, "nrows and ncols must be 1 .. 65536");
        return -1;
    }
    return 0;
}

/* A list of ncols 0/1 ints from a packed row. */
static PyObject *row_list(const uint64_t *row, Py_ssize_t ncols)
{
    Py_ssize_t j;
    PyObject *out = PyList_New(ncols);
    if (out == NULL)
        return NULL;
    for (j = 0; j < ncols; j++)
        PyList_SET_ITEM(out, j, PyLong_FromLong((long)((row[j / 64] >> (j % 64)) & 1)));
    return out;
}

static PyObject *random_matrix(PyObject *self, PyObject *args)
{
    Py_ssize_t nrows, ncols, stride, i;
    unsigned long long seed = 1;
    uint64_t *words;
    PyObject *out;
    (void)self;
    if (!PyArg_ParseTuple(args, "nn|K", &nrows, &ncols, &seed) || check_sizes(nrows, ncols) < 0)
        return NULL;
    stride = (ncols + 63) / 64;
    words = (uint64_t *)calloc((size_t)(nrows * stride), sizeof(uint64_t));
    if (words == NULL)
        return PyErr_NoMemory();
    fill_matrix(words, nrows, ncols, seed);
    out = PyList_New(nrows);
    for (i = 0; out != NULL && i < nrows; i++) {
        PyObject *row = row_list(words + i * stride, ncols);
        if (row == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, row);
    }
    free(words);
    return out;
}

static PyObject *rank(PyObject *self, PyObject *args)
{
    Py_ssize_t nrows, ncols, stride, result;
    unsigned long long seed = 1;
    uint64_t *words;
    int64_t *pivots;
    const lightsout_gf2elim_api *api;
    (void)self;
    if (!PyArg_ParseTuple(args, "nn|K", &nrows, &ncols, &seed) || check_sizes(nrows, ncols) < 0)
        return NULL;
    api = lightsout_import_gf2elim_api(); /* NULL with the exception set */
    if (api == NULL)
        return NULL;
    stride = (ncols + 63) / 64;
    words = (uint64_t *)calloc((size_t)(nrows * stride), sizeof(uint64_t));
    pivots = (int64_t *)malloc((size_t)(nrows < ncols ? nrows : ncols) * sizeof(int64_t));
    if (words == NULL || pivots == NULL) {
        free(words);
        free(pivots);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    fill_matrix(words, nrows, ncols, seed);
    result = api->rref(words, nrows, stride, ncols, -1, pivots);
    Py_END_ALLOW_THREADS
    free(words);
    free(pivots);
    if (result == LIGHTSOUT_ENOMEM)
        return PyErr_NoMemory();
    if (result < 0)
        return PyErr_Format(PyExc_ValueError, "lightsout's elimination refused the arguments (code %zd)", result);
    return Py_BuildValue("ns", result, api->simd_level);
}

static PyObject *chase_all_lit(PyObject *self, PyObject *args)
{
    Py_ssize_t nrows, ncols, nwords, j;
    PyObject *first_arg, *sequence, *residue_list;
    uint64_t *first, *residue;
    int status;
    const lightsout_kernels_api *api;
    (void)self;
    if (!PyArg_ParseTuple(args, "nnO", &nrows, &ncols, &first_arg) || check_sizes(nrows, ncols) < 0)
        return NULL;
    api = lightsout_import_kernels_api();
    if (api == NULL)
        return NULL;
    sequence = PySequence_Fast(first_arg, "first_row must be a sequence of 0/1");
    if (sequence == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(sequence) != ncols) {
        Py_DECREF(sequence);
        return PyErr_Format(PyExc_ValueError, "first_row must have %zd entries", ncols);
    }
    nwords = (ncols + 63) / 64;
    first = (uint64_t *)calloc((size_t)nwords, sizeof(uint64_t));
    residue = (uint64_t *)calloc((size_t)nwords, sizeof(uint64_t));
    if (first == NULL || residue == NULL) {
        Py_DECREF(sequence);
        free(first);
        free(residue);
        return PyErr_NoMemory();
    }
    for (j = 0; j < ncols; j++) {
        int truth = PyObject_IsTrue(PySequence_Fast_GET_ITEM(sequence, j));
        if (truth < 0) {
            Py_DECREF(sequence);
            free(first);
            free(residue);
            return NULL;
        }
        if (truth)
            first[j / 64] |= UINT64_C(1) << (j % 64);
    }
    Py_DECREF(sequence);
    Py_BEGIN_ALLOW_THREADS
    status = api->chase(NULL, nrows, ncols, first, residue, NULL); /* board NULL: every light on */
    Py_END_ALLOW_THREADS
    residue_list = status == 0 ? row_list(residue, ncols) : NULL;
    free(first);
    free(residue);
    if (status != 0)
        return PyErr_Format(PyExc_MemoryError, "lightsout's chase failed (code %d)", status);
    if (residue_list == NULL)
        return NULL;
    return Py_BuildValue("Ns", residue_list, api->simd_level);
}

/* Call one of this module's functions with an argument tuple built here (and released). */
static PyObject *call(PyObject *(*function)(PyObject *, PyObject *), PyObject *self, PyObject *args)
{
    PyObject *result;
    if (args == NULL)
        return NULL;
    result = function(self, args);
    Py_DECREF(args);
    return result;
}

/* print(text) with Python's print, so that it goes where sys.stdout goes; steals text. */
static int print_text(PyObject *text)
{
    PyObject *printed;
    if (text == NULL)
        return -1;
    printed = PyObject_CallFunctionObjArgs(PyDict_GetItemString(PyEval_GetBuiltins(), "print"), text, NULL);
    Py_DECREF(text);
    if (printed == NULL)
        return -1;
    Py_DECREF(printed);
    return 0;
}

static PyObject *run_main(PyObject *self, PyObject *unused)
{
    PyObject *ranked, *chased, *residue;
    Py_ssize_t value, j;
    const char *level;
    char bits[6] = {0};
    int solves = 1, status;
    (void)unused;
    ranked = call(rank, self, Py_BuildValue("(nn)", (Py_ssize_t)200, (Py_ssize_t)300));
    if (ranked == NULL)
        return NULL;
    if (!PyArg_ParseTuple(ranked, "ns", &value, &level)) {
        Py_DECREF(ranked);
        return NULL;
    }
    status = print_text(PyUnicode_FromFormat("rank of the 200 x 300 matrix: %zd (lightsout SIMD level: %s)",
                                             value, level));
    Py_DECREF(ranked);
    if (status < 0)
        return NULL;
    chased = call(chase_all_lit, self, Py_BuildValue("(nn[iiiii])", (Py_ssize_t)5, (Py_ssize_t)5, 1, 1, 0, 0, 0));
    if (chased == NULL)
        return NULL;
    if (!PyArg_ParseTuple(chased, "Os", &residue, &level)) {
        Py_DECREF(chased);
        return NULL;
    }
    for (j = 0; j < 5; j++) {
        int bit = PyObject_IsTrue(PyList_GET_ITEM(residue, j));
        bits[j] = bit ? '1' : '0';
        solves = solves && !bit;
    }
    status = print_text(PyUnicode_FromFormat(
        "chase of the all-lit 5 x 5 board from first row 11000: residue %s, so 11000 %s (lightsout SIMD level: %s)",
        bits, solves ? "solves it" : "does not solve it", level));
    Py_DECREF(chased);
    if (status < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"rank", rank, METH_VARARGS,
     "rank(nrows, ncols, seed=1) -> (rank over GF(2) of random_matrix(nrows, ncols, seed), SIMD level)"},
    {"random_matrix", random_matrix, METH_VARARGS,
     "random_matrix(nrows, ncols, seed=1) -> the matrix rank() eliminates, as lists of 0/1"},
    {"chase_all_lit", chase_all_lit, METH_VARARGS,
     "chase_all_lit(nrows, ncols, first_row) -> (the lights left below the last row, SIMD level)"},
    {"main", run_main, METH_NOARGS, "main() prints the rank of a 200 x 300 matrix and a chase"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "lightsout_embed_c",
    "A plain C extension that calls lightsout's packed GF(2) kernels through lightsout/capi.h.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_lightsout_embed_c(void)
{
    return PyModule_Create(&module);
}
