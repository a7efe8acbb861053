"""The kernels' one cancellation primitive (lightsout/_kernels/cancel.pxd), kernel by kernel.

Every long kernel loop polls through cancel.pxd: the caller's cancel flag (byte 0 of a
C-contiguous uint8 array) where the kernel takes one, and Ctrl-C on the main thread.
The workloads below take seconds at any SIMD level; a kernel that polls stops at the
first look after the signal, so the call raises instead of finishing.  No figure of
time is asserted: raising before the end is the property.
"""
from __future__ import annotations

import threading

import numpy as np
import pytest

from lightsout._base.errors import InvalidTypeError
from lightsout._kernels import load
from conftest import stops_at_ctrl_c


def line_neighbours(cells: int) -> np.ndarray:
    """The neighbour table of a path of ``cells`` cells: one slice of an N-D chase."""
    nbr = np.full((cells, 2), -1, np.int32)
    nbr[1:, 0] = np.arange(cells - 1)
    nbr[:-1, 1] = np.arange(1, cells)
    return nbr


def _ab_reduce(level: str):
    n = 20_000
    out = np.zeros((n, (n + 64) // 64), dtype=np.uint64)
    return lambda: load("chase", level).ab_reduce(None, n, n, out)


def _chase_bits(level: str):
    nbr = line_neighbours(8000)
    return lambda: load("gridchase", level).chase_bits(nbr, True, 8000, False, 8000)


def _chase_bytes(level: str):
    nbr = line_neighbours(3000)
    return lambda: load("gridchase", level).chase_bytes(nbr, True, 3000, False, 3000, 3)


def _echelon(level: str):
    work = np.random.default_rng(1).integers(0, 3, (4000, 4000), dtype=np.uint8)
    return lambda: load("modelim", level).echelon_inplace(work, 3)


def _rref(level: str):
    n = 20_000
    m = np.random.default_rng(2).integers(0, 2**63, (n, (n + 63) // 64), dtype=np.uint64)
    m[:, -1] &= np.uint64((1 << (n % 64)) - 1)
    return lambda: load("gf2elim", level).rref_inplace(m, n)


def _row_chase(level: str):
    nrows, ncols, width = 20_000, 8000, 8
    init = np.ones((2 * ncols, width), dtype=np.uint64)
    dr, dc = np.array([-1, -1, 0, 1, 1, 2, 2], np.int64), np.array([-2, 2, 0, -2, 2, -1, 1], np.int64)
    return lambda: load("rowchase", level).chase(nrows, ncols, dr, dc, 2, 1, None, -1, 0, init, None, 0, None)


def _square_identity(level: str):
    n = 1 << 27
    row = np.zeros(n // 64, dtype=np.uint64)
    return lambda: load("gf2ext", level).square_residues(row, n, np.array([3, 5], dtype=np.uint64))


# The polynomial route's conversions at 2^30 bits (128 MiB rows): each is dozens of passes over its row.
CONVERSION_BITS = 1 << 30


def _chebyshev_sum(level: str):
    return lambda: load("polybasis", level).chebyshev_u_sum(CONVERSION_BITS)


def _w_combination(level: str):
    row = np.ones(CONVERSION_BITS // 64, dtype=np.uint64)
    return lambda: load("polybasis", level).w_combination(row, CONVERSION_BITS)


def _phi_image(level: str):
    return lambda: load("polybasis", level).phi_image(np.array([0b10], np.uint64), CONVERSION_BITS)


def _dickson(level: str):
    row = np.ones(CONVERSION_BITS // 64, dtype=np.uint64)
    return lambda: load("polybasis", level).monomial_to_dickson(row)


def _taylor_shift(level: str):
    row = np.ones(CONVERSION_BITS // 64, dtype=np.uint64)
    return lambda: load("gf2poly", level).poly_taylor_shift(row)


def _split_s(level: str):
    row = np.ones(CONVERSION_BITS // 64, dtype=np.uint64)
    return lambda: load("gf2poly", level).poly_split_s(row)


def _join_s(level: str):
    row = np.ones(CONVERSION_BITS // 128, dtype=np.uint64)
    return lambda: load("gf2poly", level).poly_join_s(row, row)


def _chebyshev_u(level: str):
    return lambda: load("gf2poly", level).chebyshev_u(CONVERSION_BITS)


LONG_KERNELS = {"chase.ab_reduce": _ab_reduce, "gridchase.chase_bits": _chase_bits,
                "gridchase.chase_bytes": _chase_bytes, "modelim.echelon_inplace": _echelon,
                "gf2elim.rref_inplace": _rref, "rowchase.chase": _row_chase,
                "gf2ext.square_residues": _square_identity, "polybasis.chebyshev_u_sum": _chebyshev_sum,
                "polybasis.w_combination": _w_combination, "polybasis.phi_image": _phi_image,
                "polybasis.monomial_to_dickson": _dickson, "gf2poly.poly_taylor_shift": _taylor_shift,
                "gf2poly.chebyshev_u": _chebyshev_u, "gf2poly.poly_split_s": _split_s,
                "gf2poly.poly_join_s": _join_s}


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signal handlers run on the main thread")
@pytest.mark.parametrize("kernel", sorted(LONG_KERNELS))
def test_ctrl_c_stops_a_long_kernel_inside_the_call(kernel, simd_level):
    stops_at_ctrl_c(LONG_KERNELS[kernel](simd_level), kernel)


def test_a_set_flag_stops_the_nd_chase(simd_level):
    """gridchase takes the caller's flag as chase.ab_reduce does: set before the call, or during it."""
    gc = load("gridchase", simd_level)
    nbr = line_neighbours(8000)
    assert gc.chase_bits(nbr, True, 8000, False, 8000, cancel=np.ones(1, np.uint8)) is False
    flag = np.zeros(3, np.uint8)      # any C-contiguous uint8 array: byte 0 is polled
    result = []
    worker = threading.Thread(target=lambda: result.append(
        gc.chase_bytes(line_neighbours(3000), True, 3000, False, 3000, 3, cancel=flag)))
    worker.start()
    flag[0] = 1
    worker.join()
    assert result == [False]


def test_a_clear_flag_changes_nothing(simd_level):
    gc = load("gridchase", simd_level)
    nbr = line_neighbours(70)
    plain = np.zeros((70, 2), np.uint64)
    flagged = np.zeros((70, 2), np.uint64)
    assert gc.chase_bits(nbr, True, 5, False, 70, lights=plain) is True
    assert gc.chase_bits(nbr, True, 5, False, 70, lights=flagged, cancel=np.zeros(1, np.uint8)) is True
    np.testing.assert_array_equal(plain, flagged)


@pytest.mark.parametrize("bad", [np.ones((1, 1), np.uint8), np.zeros(0, np.uint8), np.ones(4, np.uint8)[::2],
                                 np.ones(1, bool), [1], 1])
def test_every_kernel_refuses_a_bad_flag_the_same_way(bad):
    message = "cancel must be None or a C-contiguous 1-D numpy uint8 array"
    with pytest.raises(InvalidTypeError, match=message):
        load("chase").ab_reduce(None, 5, 5, np.zeros((5, 1), np.uint64), cancel=bad)
    with pytest.raises(InvalidTypeError, match=message):
        load("gridchase").chase_bits(line_neighbours(5), True, 5, False, 5, cancel=bad)
