"""The one packer (lightsout._base.packing.pack_rows/unpack_rows) and the one 0/1 check
(lightsout._base.validate.zero_one), against numpy's own bit packing and plain comparisons."""
from __future__ import annotations

import numpy as np
import pytest

import lightsout
from lightsout._base.errors import InvalidBoardError
from lightsout._base.packing import pack_row, pack_rows, unpack_row, unpack_rows, words_for_bits
from lightsout._base.validate import zero_one
from lightsout._core.bitmatrix import pack_zero_one

WIDTHS = [0, 1, 63, 64, 65, 127, 128, 129, 255, 257, 1000]
DTYPES = [bool, np.uint8, np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64, ">i8", "<u4"]


def reference_words(bits: np.ndarray) -> np.ndarray:
    """Rows of 0/1 as little-endian 64-bit words, one bit at a time in Python."""
    nrows, nbits = bits.shape
    out = np.zeros((nrows, words_for_bits(nbits)), dtype=np.uint64)
    for i in range(nrows):
        for j in np.flatnonzero(bits[i]):
            out[i, j // 64] |= np.uint64(1) << np.uint64(j % 64)
    return out


@pytest.mark.parametrize("nbits", WIDTHS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_pack_rows_at_awkward_widths_and_every_dtype(nbits, dtype):
    rng = np.random.default_rng(nbits)
    bits = rng.integers(0, 2, (5, nbits)).astype(bool)
    expected = reference_words(bits)
    values = bits.astype(dtype)
    for layout in (values, np.asfortranarray(values), np.repeat(values, 2, axis=1)[:, ::2]):
        words = pack_rows(layout)
        assert words.dtype == np.uint64 and words.flags.c_contiguous and np.array_equal(words, expected)
    assert np.array_equal(unpack_rows(expected, nbits), bits)
    assert unpack_rows(expected, nbits).dtype == bool
    if nbits:
        assert np.array_equal(pack_row(values[0]), expected[0])
        assert np.array_equal(unpack_row(expected[0], nbits), bits[0])


def test_pack_rows_of_no_rows_and_nonzero_values():
    assert pack_rows(np.zeros((0, 70), dtype=bool)).shape == (0, 2)
    assert unpack_rows(np.zeros((0, 2), dtype=np.uint64), 70).shape == (0, 70)
    assert unpack_rows(np.zeros((3, 0), dtype=np.uint64), 0).shape == (3, 0)
    assert pack_rows([[2, 0, -1]]).tolist() == [[5]]  # nonzero is 1, as numpy's packbits reads it


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_zero_one_check_of_every_dtype(dtype):
    good = np.array([[0, 1, 1], [1, 0, 0]]).astype(dtype)
    for layout in (good, good.T, good[:, ::2]):
        checked = zero_one(layout, "a")
        assert checked.dtype == bool and np.array_equal(checked, np.asarray(layout).astype(bool))
    if np.dtype(dtype).kind == "b":
        return
    bad_values = [2]
    if np.dtype(dtype).kind in "if":
        bad_values.append(-1)
    if np.dtype(dtype).kind == "f":
        bad_values += [0.5, np.nan, np.inf]
    for bad in bad_values:
        values = np.array([[0, 1, 0], [1, 1, 0]]).astype(dtype)
        values[1, 2] = bad
        for layout in (values, values.T, values[:, 1:]):
            with pytest.raises(InvalidBoardError, match="must contain only 0 and 1"):
                zero_one(layout, "a")
            with pytest.raises(InvalidBoardError, match="must contain only 0 and 1"):
                pack_zero_one(np.atleast_2d(layout), "a")


def test_a_board_is_told_about_states_and_a_matrix_is_not():
    with pytest.raises(InvalidBoardError, match=r"found 2; lights with more states need states=K"):
        lightsout.solve([[0, 1, 2]])
    with pytest.raises(InvalidBoardError, match=r"a must contain only 0 and 1 \(or False/True\), found 2$"):
        lightsout.gf2.rank([[0, 1, 2]])
    with pytest.raises(InvalidBoardError, match=r"b must contain only 0 and 1 \(or False/True\), found 3$"):
        lightsout.gf2.solve([[1, 0], [0, 1]], [3, 0])


def test_bools_made_of_other_bytes_are_refused_by_the_one_pass_packer():
    raw = np.array([[0, 1, 2]], dtype=np.uint8).view(np.bool_)
    with pytest.raises(InvalidBoardError, match="found 2"):
        pack_zero_one(raw, "a")
