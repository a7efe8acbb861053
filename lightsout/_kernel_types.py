"""Static types of the compiled kernel modules, for :func:`lightsout._dispatch.kernel_module`.

A module cannot be named as a type, so each compiled module's public surface
is written here as a Protocol mirroring its ``.pyi`` stub; a module object
satisfies a Protocol whose members it has (PEP 544).  The assignments under
``TYPE_CHECKING`` at the end make mypy check each stub against its Protocol,
so the two cannot drift apart silently.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Optional, Protocol

import numpy as np
import numpy.typing as npt

from lightsout._types import Progress

U64 = npt.NDArray[np.uint64]
U8 = npt.NDArray[np.uint8]


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
    def poly_half_gcd(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                                   np.ndarray, np.ndarray]: ...
    def set_thresholds(self, newton_words: Optional[int] = None, hgcd_words: Optional[int] = None,
                       gcd_words: Optional[int] = None, toom_words: Optional[int] = None) -> dict[str, int]: ...
    def thresholds(self) -> dict[str, int]: ...
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


class ModElimModule(Protocol):
    """``lightsout._modelim``: elimination and Howell forms over Z/q on uint8 residues."""

    def echelon_inplace(self, work: U8, modulus: int, npivot_cols: int = -1, *, reduce_above: bool = True,
                        stripe_cols: int = 0, max_extra_bytes: int = -1) -> tuple[U8, npt.NDArray[np.int64]]: ...
    def reduce_rows_inplace(self, vectors: U8, howell: U8, pivot_cols: npt.ArrayLike, modulus: int) -> None: ...
    def reduce_above_inplace(self, howell: U8, pivot_cols: npt.ArrayLike, modulus: int) -> None: ...
    def back_substitute_inplace(self, echelon: U8, pivot_cols: npt.ArrayLike, values: U8, modulus: int) -> None: ...
    def leading_columns(self, rows: U8) -> npt.NDArray[np.int64]: ...
    def remainder(self, src: U8, modulus: int, out: U8) -> None: ...
    def axpy_inplace(self, x: U8, y: U8, t: int, modulus: int) -> None: ...
    def scale_inplace(self, x: U8, t: int, modulus: int) -> None: ...


class GridChaseModule(Protocol):
    """``lightsout._gridchase``: light chasing on boards of any number of axes, in matrix form."""

    def block_count(self, ncols: int, bits: bool) -> int: ...
    def chase_bits(self, nbr: npt.NDArray[np.int32], self_toggle: bool, nslices: int, wrap: bool, ncols: int,
                   board: Optional[npt.NDArray[np.uint8]] = None, *, lit: int = 1, const_col: int = -1,
                   start: Optional[U64] = None, presses: Optional[U64] = None, lights: Optional[U64] = None,
                   block_start: int = 0, block_stop: int = -1,
                   cancel: Optional[npt.NDArray[np.uint8]] = None) -> bool: ...
    def chase_bytes(self, nbr: npt.NDArray[np.int32], self_toggle: bool, nslices: int, wrap: bool, ncols: int,
                    modulus: int, board: Optional[npt.NDArray[np.uint8]] = None, *, lit: int = 1,
                    const_col: int = -1, start: Optional[npt.NDArray[np.uint8]] = None,
                    presses: Optional[npt.NDArray[np.uint8]] = None,
                    lights: Optional[npt.NDArray[np.uint8]] = None, block_start: int = 0,
                    block_stop: int = -1, cancel: Optional[npt.NDArray[np.uint8]] = None) -> bool: ...
    def rows_to_columns(self, rows: U64 | npt.NDArray[np.uint8], ncols: int, slice_offsets: npt.NDArray[np.int64],
                        axis_stride: int, out: npt.NDArray[np.uint8]) -> None: ...
    def circulant_bits(self, values: npt.NDArray[np.uint8], out: U64, row0: int, col0: int) -> None: ...


class GraphChaseModule(Protocol):
    """``lightsout._graphchase``: generalised light chasing on graphs (forcing plans, systems, expansion)."""

    def forcing_plan(self, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32],
                     self_toggle: bool) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32],
                                                 npt.NDArray[np.int32], int]: ...
    def forcing_system_gf2(self, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32],
                           self_toggle: bool, steps_var: npt.NDArray[np.int32], steps_eq: npt.NDArray[np.int32],
                           final_eqs: npt.NDArray[np.int32], peak: int, lit: npt.NDArray[np.uint8]) -> U64: ...
    def forcing_system_mod(self, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32],
                           self_toggle: bool, steps_var: npt.NDArray[np.int32], steps_eq: npt.NDArray[np.int32],
                           final_eqs: npt.NDArray[np.int32], peak: int, lit: npt.NDArray[np.uint8],
                           modulus: int) -> npt.NDArray[np.uint8]: ...
    def forcing_expand_gf2(self, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32],
                           self_toggle: bool, steps_var: npt.NDArray[np.int32], steps_eq: npt.NDArray[np.int32],
                           lit: npt.NDArray[np.uint8], zrows: U64) -> U64: ...
    def forcing_expand_mod(self, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32],
                           self_toggle: bool, steps_var: npt.NDArray[np.int32], steps_eq: npt.NDArray[np.int32],
                           lit: npt.NDArray[np.uint8], zvals: npt.NDArray[np.uint8],
                           modulus: int) -> npt.NDArray[np.uint8]: ...
    def effect_matrix_gf2(self, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32],
                          self_toggle: bool, lit: npt.NDArray[np.uint8]) -> U64: ...
    def dict_neighbour_numbers(self, neighbours: list[dict[Any, Any]], position: Optional[dict[Any, int]],
                               total: int) -> npt.NDArray[np.int32]: ...


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
    from lightsout import _gf2elim, _gf2poly, _graphchase, _gridchase, _kernels, _manykernels, _modelim, _walsh

    _kernels_conforms: KernelsModule = _kernels
    _gf2poly_conforms: Gf2PolyModule = _gf2poly
    _gf2elim_conforms: Gf2ElimModule = _gf2elim
    _modelim_conforms: ModElimModule = _modelim
    _gridchase_conforms: GridChaseModule = _gridchase
    _graphchase_conforms: GraphChaseModule = _graphchase
    _walsh_conforms: WalshModule = _walsh
    _manykernels_conforms: ManyKernelsModule = _manykernels
