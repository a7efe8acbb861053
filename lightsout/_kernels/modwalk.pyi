"""Type stub for the compiled k-state fewest-presses walk (lightsout._kernels.modwalk and its SIMD builds)."""
from typing import Optional

import numpy as np
import numpy.typing as npt

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL: str
#: Cell updates between two looks at the cancel flag and Ctrl-C.
POLL_CELLS: int
#: Coordinates of one walk at most.
MAX_WALK_COORDINATES: int

def walk(
    start: npt.NDArray[np.uint8],
    gens: npt.NDArray[np.uint8],
    orders: npt.NDArray[np.int64],
    k: int,
    *,
    counts: Optional[npt.NDArray[np.uint32]] = None,
    cancel: Optional[npt.NDArray[np.uint8]] = None,
) -> tuple[bool, int, npt.NDArray[np.uint8], int]: ...
