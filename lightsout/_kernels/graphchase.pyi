"""Type stub for the compiled graph-chasing kernels (lightsout._kernels.graphchase and its SIMD builds)."""
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]
U64 = npt.NDArray[np.uint64]

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL: str

def forcing_plan(indptr: I64, indices: I32, self_toggle: bool) -> tuple[I32, I32, I32, int]: ...
def forcing_system_gf2(indptr: I64, indices: I32, self_toggle: bool, steps_var: I32, steps_eq: I32,
                       final_eqs: I32, peak: int, lit: U8) -> U64: ...
def forcing_system_mod(indptr: I64, indices: I32, self_toggle: bool, steps_var: I32, steps_eq: I32,
                       final_eqs: I32, peak: int, lit: U8, modulus: int) -> U8: ...
def forcing_expand_gf2(indptr: I64, indices: I32, self_toggle: bool, steps_var: I32, steps_eq: I32,
                       lit: U8, zrows: U64) -> U64: ...
def forcing_expand_mod(indptr: I64, indices: I32, self_toggle: bool, steps_var: I32, steps_eq: I32,
                       lit: U8, zvals: U8, modulus: int) -> U8: ...
def effect_matrix_gf2(indptr: I64, indices: I32, self_toggle: bool, lit: U8) -> U64: ...
def dict_neighbour_numbers(neighbours: list[dict[Any, Any]], position: Optional[dict[Any, int]], total: int) -> I32: ...
