"""Type stub for the compiled GF(2) elimination kernels (lightsout._kernels.gf2elim and its SIMD builds)."""
from typing import Literal, Optional

import numpy as np
import numpy.typing as npt

#: PyCapsule "lightsout._gf2elim._capi" holding this build's lightsout_gf2elim_api table (capi.h).
_capi: object
#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL: str

def rref_inplace(
    matrix: npt.NDArray[np.uint64],
    ncols: int,
    npivot_cols: int = -1,
    *,
    method: Literal["auto", "m4r", "naive"] = "auto",
) -> tuple[int, npt.NDArray[np.int64]]: ...
def solve_inplace(aug: npt.NDArray[np.uint64], nvars: int) -> tuple[bool, npt.NDArray[np.uint64]]: ...
def null_space(
    rref: npt.NDArray[np.uint64], ncols: int, pivots: npt.ArrayLike
) -> npt.NDArray[np.uint64]: ...
def pack_zero_one(values: npt.NDArray[np.generic]) -> Optional[npt.NDArray[np.uint64]]: ...
