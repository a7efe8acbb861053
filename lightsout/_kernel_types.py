"""Static types of the compiled kernel modules, for :func:`lightsout._dispatch.kernel_module`.

A module cannot be named as a type, so each compiled module's public surface
is written here as a Protocol mirroring its ``.pyi`` stub; a module object
satisfies a Protocol whose members it has (PEP 544).  The assignments under
``TYPE_CHECKING`` at the end make mypy check each stub against its Protocol,
so the two cannot drift apart silently.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Optional, Protocol

import numpy as np
import numpy.typing as npt

from lightsout._types import Progress

U64 = npt.NDArray[np.uint64]


class KernelsModule(Protocol):
    """``lightsout._kernels``: the chase and the A/B iteration."""

    def chase(self, board: Optional[U64], nrows: int, ncols: int, first_row: U64, *,
              all_lit: bool = True, presses: bool = False, first_column: bool = False,
              progress: Progress = None) -> tuple[U64, Optional[U64], Optional[npt.NDArray[np.bool_]]]: ...

    def ab_block_count(self, ncols: int) -> int: ...

    def ab_reduce(self, board: Optional[U64], nrows: int, ncols: int, out: U64, block_start: int = 0,
                  block_stop: int = -1, *, cancel: Optional[npt.NDArray[np.uint8]] = None) -> bool: ...


class Gf2PolyModule(Protocol):
    """``lightsout._gf2poly``: GF(2)[t] polynomial arithmetic."""

    def have_pclmul(self) -> bool: ...
    def poly_degree(self, a: np.ndarray) -> int: ...
    def poly_add(self, a: np.ndarray, b: np.ndarray) -> np.ndarray: ...
    def poly_shift(self, a: np.ndarray, k: int) -> np.ndarray: ...
    def poly_mul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray: ...
    def poly_divmod(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...
    def poly_mod(self, a: np.ndarray, b: np.ndarray) -> np.ndarray: ...
    def poly_gcd(self, a: np.ndarray, b: np.ndarray, progress: Progress = None) -> np.ndarray: ...
    def poly_gcd_cofactor(self, a: np.ndarray, b: np.ndarray,
                          progress: Progress = None) -> tuple[np.ndarray, np.ndarray]: ...
    def poly_xgcd(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
    def poly_taylor_shift(self, a: np.ndarray) -> np.ndarray: ...
    def chebyshev_u(self, k: int) -> np.ndarray: ...
    def w_combination(self, c: np.ndarray, ncols: int, progress: Progress = None) -> np.ndarray: ...
    def phi_image(self, f: np.ndarray, ncols: int, progress: Progress = None) -> np.ndarray: ...
    def apply_T_row(self, v: np.ndarray, ncols: int) -> np.ndarray: ...


class Gf2ElimModule(Protocol):
    """``lightsout._gf2elim``: packed Gauss-Jordan elimination."""

    def rref_inplace(self, matrix: U64, ncols: int, npivot_cols: int = -1, *,
                     method: Literal["auto", "m4r", "naive"] = "auto") -> tuple[int, npt.NDArray[np.int64]]: ...
    def solve_inplace(self, aug: U64, nvars: int) -> tuple[bool, U64]: ...
    def null_space(self, rref: U64, ncols: int, pivots: npt.ArrayLike) -> U64: ...
    def pack_zero_one(self, values: npt.NDArray[np.generic]) -> Optional[U64]: ...


class WalshModule(Protocol):
    """``lightsout._walsh``: the fewest-presses kernels (coset weights by Walsh-Hadamard transforms)."""

    SIMD_LEVEL: str
    VEC_BYTES: int
    LANE_BITS16: int
    LANE_BITS32: int
    RADIX_BITS: int
    MAX_SUM16: int
    MAX_ARRAY_BITS: int

    def search_tasks(self, forms: U64, values: npt.NDArray[np.int32], nullity: int, array_bits: int,
                     lane_bits: int, task_start: int, task_stop: int, bound: int,
                     wide: bool) -> tuple[bool, int, int]: ...
    def coset_leader_counts(self, inner: npt.NDArray[np.int16], delta: npt.NDArray[np.int16],
                            base: npt.NDArray[np.int16], modulus: int, nvalid: int, start: int, stop: int,
                            ncounts: int) -> npt.NDArray[np.int64]: ...


class ManyKernelsModule(Protocol):
    """``lightsout._manykernels``: one GF(2) operator applied to many boards by byte tables."""

    SIMD_LEVEL: str

    def apply_tables(self, boards: npt.NDArray[np.generic], ncells: int, tables: U64, nout: int, nsol: int = -1, *,
                     unpack: bool = False) -> tuple[np.ndarray, Optional[npt.NDArray[np.uint8]]]: ...
    def coset_min_many(self, solutions: U64, span: U64) -> npt.NDArray[np.int64]: ...


if TYPE_CHECKING:  # mypy checks every stub against its Protocol here
    from lightsout import _gf2elim, _gf2poly, _kernels, _manykernels, _walsh

    _kernels_conforms: KernelsModule = _kernels
    _gf2poly_conforms: Gf2PolyModule = _gf2poly
    _gf2elim_conforms: Gf2ElimModule = _gf2elim
    _walsh_conforms: WalshModule = _walsh
    _manykernels_conforms: ManyKernelsModule = _manykernels
