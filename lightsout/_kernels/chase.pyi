"""Type stub for the compiled grid kernels (lightsout._kernels.chase and its SIMD builds)."""
from typing import Callable, Optional

import numpy as np
import numpy.typing as npt

Progress = Optional[Callable[[str, int, int], None]]

def chase(
    board: Optional[npt.NDArray[np.uint64]],
    nrows: int,
    ncols: int,
    first_row: npt.NDArray[np.uint64],
    *,
    all_lit: bool = True,
    presses: bool = False,
    first_column: bool = False,
    progress: Progress = None,
) -> tuple[npt.NDArray[np.uint64], Optional[npt.NDArray[np.uint64]], Optional[npt.NDArray[np.bool_]]]: ...
def ab_block_count(ncols: int) -> int: ...
def ab_reduce(
    board: Optional[npt.NDArray[np.uint64]],
    nrows: int,
    ncols: int,
    out: npt.NDArray[np.uint64],
    block_start: int = 0,
    block_stop: int = -1,
    *,
    cancel: Optional[npt.NDArray[np.uint8]] = None,
) -> bool: ...

#: PyCapsule "lightsout._kernels._capi": this build's lightsout_kernels_api (lightsout/capi.h).
_capi: object
