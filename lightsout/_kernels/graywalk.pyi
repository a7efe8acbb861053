"""Type stub for the compiled Gray-code walk of the fewest presses (lightsout._kernels.graywalk and its SIMD builds)."""
from typing import Optional

import numpy as np
import numpy.typing as npt

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL: str
#: Whether the task bound's pass runs on AVX512-VPOPCNTDQ (the avx512 build, on a CPU that has it).
VECTOR_POPCOUNT: bool
#: Coordinates of one walk at most (forms are 64-bit words).
MAX_WALK_COORDINATES: int
#: Low coordinates of a task at most.
MAX_LOW_BITS: int
#: Words of the bitset passed over between two looks at the cancel flag and Ctrl-C.
POLL_WORDS: int

def walk(
    start: npt.NDArray[np.uint64],
    masks: npt.NDArray[np.uint64],
    starting: npt.NDArray[np.int64],
    units: npt.NDArray[np.int64],
    m: int,
    first: int,
    stop: int,
    best_ones: int,
    best_index: int,
    *,
    cancel: Optional[npt.NDArray[np.uint8]] = None,
) -> tuple[bool, int, int, int, int]: ...
