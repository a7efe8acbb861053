"""Type stub for the compiled many-boards kernels (lightsout._kernels.many and its SIMD builds)."""
from typing import Optional

import numpy as np
import numpy.typing as npt

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL: str

def apply_tables(
    boards: npt.NDArray[np.generic],
    ncells: int,
    tables: npt.NDArray[np.uint64],
    nout: int,
    nsol: int = -1,
    *,
    unpack: bool = False,
) -> tuple[np.ndarray, Optional[npt.NDArray[np.uint8]]]: ...
def coset_min_many(solutions: npt.NDArray[np.uint64], span: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]: ...
