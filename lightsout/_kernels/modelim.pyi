"""Type stub for the compiled Z/q elimination kernels (lightsout._kernels.modelim and its SIMD builds)."""
import numpy as np
import numpy.typing as npt

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL: str

def echelon_inplace(
    work: npt.NDArray[np.uint8],
    modulus: int,
    npivot_cols: int = -1,
    *,
    reduce_above: bool = True,
    stripe_cols: int = 0,
    max_extra_bytes: int = -1,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]: ...
def reduce_rows_inplace(
    vectors: npt.NDArray[np.uint8], howell: npt.NDArray[np.uint8], pivot_cols: npt.ArrayLike, modulus: int
) -> None: ...
def reduce_above_inplace(howell: npt.NDArray[np.uint8], pivot_cols: npt.ArrayLike, modulus: int) -> None: ...
def back_substitute_inplace(
    echelon: npt.NDArray[np.uint8], pivot_cols: npt.ArrayLike, values: npt.NDArray[np.uint8], modulus: int
) -> None: ...
def leading_columns(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]: ...
def remainder(src: npt.NDArray[np.uint8], modulus: int, out: npt.NDArray[np.uint8]) -> None: ...
def axpy_inplace(x: npt.NDArray[np.uint8], y: npt.NDArray[np.uint8], t: int, modulus: int) -> None: ...
def scale_inplace(x: npt.NDArray[np.uint8], t: int, modulus: int) -> None: ...
