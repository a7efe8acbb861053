"""Type stub for the compiled stencil chase (lightsout._kernels.stencilchase and its SIMD builds)."""
from typing import Optional

import numpy as np
import numpy.typing as npt

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]
U64 = npt.NDArray[np.uint64]

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL: str
#: The most axes a board may have here.
MAX_STENCIL_AXES: int

def flat_offsets(shape: I64, delta: I64) -> I64: ...
def plan(shape: I64, wraps: U8, delta: I64, weight: U8, pressable: U8, required: U8, states: int,
         cancel: Optional[U8] = None) -> Optional[tuple[I32, U8, int, int, U8]]: ...
def chase(shape: I64, wraps: U8, delta: I64, weight: U8, pressable: U8, code: I32, pslot: I32, lights: U8,
          states: int, ring_rows: int, nkept: int, width: int, light_col: int,
          free_rows: Optional[npt.NDArray[np.generic]], equations: Optional[npt.NDArray[np.generic]],
          equation_light: Optional[I64], presses: Optional[npt.NDArray[np.generic]],
          block: int = 0, column_start: int = 0, column_stop: int = -1, cancel: Optional[U8] = None) -> Optional[tuple[int, int, int]]: ...
def solution(shape: I64, wraps: U8, delta: I64, weight: U8, pressable: U8, code: I32, lights: U8, states: int,
             zvalues: U8, cancel: Optional[U8] = None) -> Optional[tuple[U8, int]]: ...
def program_entries(nnz: int) -> int: ...
def lift_proof(shape: I64, wraps: U8, delta: I64, weight: U8, pressable: U8, required: U8, code: I32, y: U8,
               states: int, cancel: Optional[U8] = None) -> bool: ...
def apply(shape: I64, wraps: U8, delta: I64, weight: U8, pressable: U8, values: U8, states: int,
          transpose: bool) -> U8: ...
