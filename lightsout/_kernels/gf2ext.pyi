"""Type stub for the GF(2^64) kernels of the first-row check (lightsout._kernels.gf2ext and its SIMD builds)."""
from typing import Optional

import numpy as np
import numpy.typing as npt

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL: str
#: Whether this build multiplies with PCLMULQDQ (else with byte tables).
CLMUL: bool

def square_identity_sums(
    vectors: npt.NDArray[np.uint64],
    n: int,
    points: npt.NDArray[np.uint64],
    cancel: Optional[npt.NDArray[np.uint8]] = None,
) -> Optional[npt.NDArray[np.uint64]]: ...
def square_residues(
    row: npt.NDArray[np.uint64],
    n: int,
    points: npt.NDArray[np.uint64],
    cancel: Optional[npt.NDArray[np.uint8]] = None,
) -> Optional[npt.NDArray[np.uint64]]: ...
def field_mul(a: int, b: int) -> int: ...
def field_inv(a: int) -> int: ...
