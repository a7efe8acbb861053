"""Type stub for the compiled N-D chase kernels (lightsout._kernels.gridchase and its SIMD builds)."""
from typing import Optional

import numpy as np
import numpy.typing as npt

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL: str

def block_count(ncols: int, bits: bool) -> int: ...
def chase_bits(
    nbr: npt.NDArray[np.int32],
    self_toggle: bool,
    nslices: int,
    wrap: bool,
    ncols: int,
    board: Optional[npt.NDArray[np.uint8]] = None,
    *,
    lit: int = 1,
    const_col: int = -1,
    start: Optional[npt.NDArray[np.uint64]] = None,
    presses: Optional[npt.NDArray[np.uint64]] = None,
    lights: Optional[npt.NDArray[np.uint64]] = None,
    block_start: int = 0,
    block_stop: int = -1,
    cancel: Optional[npt.NDArray[np.uint8]] = None,
) -> bool: ...
def chase_bytes(
    nbr: npt.NDArray[np.int32],
    self_toggle: bool,
    nslices: int,
    wrap: bool,
    ncols: int,
    modulus: int,
    board: Optional[npt.NDArray[np.uint8]] = None,
    *,
    lit: int = 1,
    const_col: int = -1,
    start: Optional[npt.NDArray[np.uint8]] = None,
    presses: Optional[npt.NDArray[np.uint8]] = None,
    lights: Optional[npt.NDArray[np.uint8]] = None,
    block_start: int = 0,
    block_stop: int = -1,
    cancel: Optional[npt.NDArray[np.uint8]] = None,
) -> bool: ...
def rows_to_columns(
    rows: npt.NDArray[np.uint64] | npt.NDArray[np.uint8],
    ncols: int,
    slice_offsets: npt.NDArray[np.int64],
    axis_stride: int,
    out: npt.NDArray[np.uint8],
) -> None: ...
def circulant_bits(values: npt.NDArray[np.uint8], out: npt.NDArray[np.uint64], row0: int, col0: int) -> None: ...
