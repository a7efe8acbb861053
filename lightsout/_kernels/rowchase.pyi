"""Type stub for the compiled row chase (lightsout._kernels.rowchase and its SIMD builds)."""
from typing import Optional

import numpy as np
import numpy.typing as npt

I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]
U64 = npt.NDArray[np.uint64]

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL: str
#: The most stencil entries outside the forcing row.
MAX_ENTRIES: int

def forcing_invertible(ncols: int, a: int) -> bool: ...
def chase(nrows: int, ncols: int, dr: I64, dc: I64, up: int, pair: int, lights: Optional[U8], const_word: int,
          const_bit: int, init: U64, equations: Optional[U64], eq_start: int, presses: Optional[U8],
          cancel: Optional[U8] = None) -> Optional[int]: ...
#: The most words a cell holds in one run.
MAX_BLOCK_WORDS: int
