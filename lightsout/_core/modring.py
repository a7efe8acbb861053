"""Linear algebra over Z/N, 2 <= N <= 255, on uint8 residues: solving, kernels and Howell forms.

This is what the k-state lights need (a press adds 1 mod k): solve ``A u = b``
(mod N), describe every solution as one solution plus the kernel, count the
kernel exactly, and pick the lexicographically smallest solution.  Arrays are
uint8 with entries in ``0..N-1``; the compiled kernels are
``lightsout._kernels.modelim`` (the widest SIMD build this CPU runs).

Algorithm
---------
* Z/N splits by the Chinese remainder theorem into the rings Z/p^e for the
  prime powers p^e of N.  Each is solved on its own and the answers combined:
  particular solutions by CRT, kernels by lifting each factor's Howell rows
  (section "Howell form" below).
* Prime p (a field): Gauss-Jordan elimination of ``[A | b]`` with A's columns
  in reverse order.  A solution sets the free unknowns to 0; the kernel vector
  of a free column f is 1 at f, 0 at the other free columns and nonzero only at
  pivot columns after f (because the columns were reversed), so the kernel
  basis comes out already in reduced row echelon form, which over a field is
  the Howell form.
* Prime power q = p^e: echelon form of ``[A^T | I_n]`` with Howell's
  saturation rows (lightsout._kernels.modelim: elimination over the local ring Z/q,
  pivots of lowest p-valuation), which has the Howell property.  Its row span
  is ``{(A u, u)}``.  The rows whose pivot lies in the identity part generate
  the kernel (reduced above their pivots, they are its Howell form); reducing
  ``(b, 0)`` by the other rows leaves ``(0, -u)`` with ``A u = b`` exactly when
  b is in the image of A (the Howell property, as in the argument below).
* The fewest generators of the kernel (its nullity) is the largest, over the
  primes p | N, of ``n - rank(A mod p)`` (Smith normal form: over Z/p^e each
  diagonal entry that is not a unit gives one cyclic kernel factor), so the
  ranks mod p are computed too, by plain elimination.

Howell form
-----------
Rows sorted by pivot (first nonzero) column, each pivot a divisor d of N,
every entry above a pivot in ``[0, d)``, and the Howell property: every
element of the span that is zero in columns ``< j`` is a combination of the
rows whose pivot is at column ``>= j``.  It is unique for a given span
(Howell 1986; Storjohann & Mulders 1998), so it is a canonical name for the
kernel.  For composite N the factors' Howell forms H_i combine column by
column: at a pivot column j of any factor the combined pivot is the product
of the factors' pivots at j (q_i where a factor has none) and the combined row
is the CRT lift of the factors' rows there, each scaled by a unit so that the
pivot entry comes out as that product; the entries above the pivots are then
reduced over Z/N.

Why reduction gives the lexicographic minimum
---------------------------------------------
``reduce_lexmin`` visits the Howell rows in pivot order and subtracts from the
vector the multiple of each row that brings the vector's entry at that row's
pivot column j into ``[0, d)``.  A row with pivot after j is zero at j, so the
result r has ``r[j] in [0, d)`` at every pivot column.  Let w be any element of
the coset ``v + span``, w != r, and j the first index where they differ.  Then
``s = r - w`` is in the span and zero before j, so by the Howell property it is
a combination of the rows with pivot >= j.  If no row has its pivot at j, all
of those are zero at j and ``s[j] = 0``, impossible.  Otherwise ``s[j]`` is a
multiple of that row's pivot d mod N, and d divides N, so ``w[j] = r[j] - s[j]``
is congruent to ``r[j]`` mod d; as ``0 <= r[j] < d`` is the least residue of its
class mod d and ``w[j] != r[j]``, ``w[j] > r[j]``.  So r is smaller than every
other element of the coset.

Example:
    >>> import numpy as np
    >>> a = np.array([[1, 1, 0], [0, 1, 1]], dtype=np.uint8)
    >>> system = solve_mod(a, np.array([2, 3], dtype=np.uint8), 6)
    >>> system.solution.tolist(), system.kernel.tolist(), system.count, system.nullity
    ([0, 2, 1], [[1, 5, 1]], 6, 1)
    >>> reduce_lexmin(np.array([5, 3, 0], dtype=np.uint8), system.kernel, 6).tolist()
    [0, 2, 1]

References:
    J. A. Howell, "Spans in the module (Z_m)^s", Linear and Multilinear
    Algebra 19 (1986).  A. Storjohann and T. Mulders, "Fast algorithms for
    linear algebra modulo N", ESA 1998.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._base.validate import states_count
from lightsout import _kernels as kernels

__all__ = ["MAX_WORK_BYTES", "ModSystem", "howell_form", "left_kernel_witness", "nullity_mod", "prime_power_factors",
           "rank_mod_prime", "reduce_lexmin", "solve_mod", "span_size"]

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]

#: Largest work area (bytes of scratch arrays) one call allocates; larger inputs
#: raise BoardTooLargeError before anything is allocated.
MAX_WORK_BYTES = 2 ** 31


@dataclass(frozen=True)
class ModSystem:
    """The solutions of ``matrix @ u == rhs (mod N)`` (the twin of :class:`lightsout._core.gf2system.GF2System`).

    Attributes:
        solution: one solution, ``(n,)`` uint8 in ``0..N-1``, or None if there is none.
        kernel: ``(r, n)`` uint8, the Howell form of ``{u : matrix @ u == 0 (mod N)}``
            (canonical: equal kernels give equal arrays).
        count: the exact number of kernel elements (the number of solutions
            when there is one).
        nullity: the fewest generators of the kernel: the largest, over primes
            p | N, of ``n - rank(matrix mod p)``.
    """

    solution: Optional[U8]
    kernel: U8
    count: int
    nullity: int

    @property
    def solvable(self) -> bool:
        """Whether the system has a solution (as :attr:`lightsout._core.gf2system.GF2System.solvable`)."""
        return self.solution is not None


# ---------------------------------------------------------------------------
# Helpers.

@lru_cache(maxsize=None)
def prime_power_factors(modulus: int) -> tuple[tuple[int, int, int], ...]:
    """The factorisation of N as ``(p, e, p**e)`` triples, increasing p.

    Example:
        >>> prime_power_factors(12)
        ((2, 2, 4), (3, 1, 3))
    """
    factors = []
    rest, p = modulus, 2
    while rest > 1:
        if rest % p == 0:
            e = 0
            while rest % p == 0:
                rest //= p
                e += 1
            factors.append((p, e, p ** e))
        p += 1
    return tuple(factors)


def _work_limit(nbytes: int, what: str) -> None:
    """Refuse a work area above MAX_WORK_BYTES, before allocating it."""
    if nbytes > MAX_WORK_BYTES:
        raise BoardTooLargeError(
            f"{what} needs {nbytes / 2**30:.1f} GiB of work area, more than the "
            f"{MAX_WORK_BYTES / 2**30:.0f} GiB limit (lightsout.limits.MAX_MOD_WORK_BYTES)")


def _shaped(array: npt.ArrayLike, name: str, ndim: int) -> np.ndarray:
    """``array`` as a numpy array with ndim axes and integer entries (no copy of an ndarray)."""
    arr = np.asarray(array)
    if arr.ndim != ndim:
        raise InvalidBoardError(f"{name} must have {ndim} axes, got shape {arr.shape}")
    if arr.dtype.kind not in "biu" and arr.size:
        raise InvalidTypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    return arr


def _residues(arr: np.ndarray, modulus: int) -> U8:
    """A C-contiguous uint8 array: uint8 input as it is (a view when possible), other
    integer input reduced mod N.  Call after _work_limit: this may copy."""
    if arr.dtype == np.uint8:
        return np.ascontiguousarray(arr)
    return np.ascontiguousarray(np.mod(arr.astype(np.int64), modulus).astype(np.uint8))


def _reduced(array: U8, modulus: int) -> U8:
    """A new array: ``array mod modulus``."""
    out = np.empty_like(array)
    if array.size:
        kernels.modelim.remainder(array, modulus, out)
    return out


def _kernel_count(kernel: U8, cols: I64, modulus: int) -> int:
    count = 1
    for i, j in enumerate(cols.tolist()):
        count *= modulus // math.gcd(int(kernel[i, j]), modulus)
    return count


def _pivot_columns(rows: U8) -> I64:
    return np.asarray(kernels.modelim.leading_columns(rows), dtype=np.int64)


# ---------------------------------------------------------------------------
# One prime-power factor.

def _rank_prime(matrix: U8, p: int) -> int:
    """Rank over GF(p) of residues mod p (an echelon form, no back substitution)."""
    m, n = matrix.shape
    if m == 0 or n == 0:
        return 0
    _work_limit(m * n, f"the rank of a {m} x {n} matrix")
    work = np.array(matrix, dtype=np.uint8, order="C", copy=True)
    _, cols = kernels.modelim.echelon_inplace(work, p, reduce_above=False)
    return len(cols)


def _solve_prime(matrix: U8, rhs: U8, p: int) -> tuple[Optional[U8], U8, I64, int]:
    """Over GF(p): (solution or None, kernel in RREF, its pivot columns, rank).

    Forward elimination of ``[A reversed | b]``, then back substitution of only
    the free columns and b (lightsout._kernels.modelim.back_substitute_inplace): the
    reduced row echelon form restricted to the columns that the solution and
    the kernel basis are read from.
    """
    m, n = matrix.shape
    _work_limit(m * (n + 1), f"solving a {m} x {n} system mod {p}")
    work = np.empty((m, n + 1), dtype=np.uint8)
    work[:, :n] = matrix[:, ::-1]
    work[:, n] = rhs
    modelim = kernels.modelim
    rows, cols = modelim.echelon_inplace(work, p, n, reduce_above=False)
    rank = len(cols)
    consistent = rows.shape[0] == rank                  # no row 0 = nonzero left over
    free = np.setdiff1d(np.arange(n, dtype=np.int64), cols)
    k = len(free)
    _work_limit(k * n + 2 * rank * (k + 1), f"the {k}-dimensional kernel of a {m} x {n} matrix mod {p}")
    reduced = np.ascontiguousarray(rows[:rank][:, np.append(free, n)])
    modelim.back_substitute_inplace(rows[:rank], cols, reduced, p)
    solution: Optional[U8] = None
    if consistent:
        reversed_solution = np.zeros(n, dtype=np.uint8)
        reversed_solution[cols] = reduced[:, k]
        solution = np.ascontiguousarray(reversed_solution[::-1])
    basis = np.zeros((k, n), dtype=np.uint8)
    basis[np.arange(k), free] = 1
    if rank and k:
        basis[:, cols] = ((p - reduced[:, :k].astype(np.int16)) % p).T.astype(np.uint8)
    kernel = np.ascontiguousarray(basis[::-1, ::-1])
    kernel_cols = (n - 1 - free[::-1]).astype(np.int64)
    return solution, kernel, kernel_cols, rank


def _solve_prime_power(matrix: U8, rhs: U8, p: int, e: int) -> tuple[Optional[U8], U8, I64, int]:
    """Over Z/p^e: (solution or None, kernel Howell form, its pivot columns, rank mod p)."""
    q = p ** e
    m, n = matrix.shape
    _work_limit(n * (m + n) + (m + n), f"solving a {m} x {n} system mod {q}")
    work = np.zeros((n, m + n), dtype=np.uint8)
    work[:, :m] = matrix.T
    work[np.arange(n), m + np.arange(n)] = 1
    modelim = kernels.modelim
    # An echelon form with the saturation rows has the Howell property already; only
    # the kernel rows need their entries above the pivots reduced, and they are few.
    rows, cols = modelim.echelon_inplace(work, q, reduce_above=False,
                                         max_extra_bytes=max(0, MAX_WORK_BYTES - work.nbytes - matrix.nbytes))
    image = int(np.searchsorted(cols, m))            # rows with pivot in A^T's part come first
    residue = np.zeros((1, m + n), dtype=np.uint8)
    residue[0, :m] = rhs
    modelim.reduce_rows_inplace(residue, rows[:image], cols[:image], q)
    solution: Optional[U8] = None
    if not residue[0, :m].any():
        solution = ((q - residue[0, m:].astype(np.int16)) % q).astype(np.uint8)
    kernel = np.array(rows[image:, m:], dtype=np.uint8, order="C", copy=True)
    kernel_cols = (cols[image:] - m).astype(np.int64)
    modelim.reduce_above_inplace(kernel, kernel_cols, q)
    del work, rows
    return solution, kernel, kernel_cols, _rank_prime(_reduced(matrix, p), p)


# ---------------------------------------------------------------------------
# Chinese remainder theorem.

def _idempotents(modulus: int) -> list[int]:
    """E_i = 1 mod q_i and 0 mod the other prime powers of N."""
    out = []
    for _, _, q in prime_power_factors(modulus):
        rest = modulus // q
        out.append(rest * pow(rest, -1, q) % modulus)
    return out


def _crt_vector(parts: list[U8], modulus: int) -> U8:
    total = np.zeros(parts[0].shape, dtype=np.int64)
    for e_i, part in zip(_idempotents(modulus), parts):
        total += e_i * part.astype(np.int64)
    return (total % modulus).astype(np.uint8)


def _permute_rows(buf: U8, order: list[int]) -> None:
    """In place: row k becomes the row that was at order[k] (order a permutation of range(len(order)))."""
    done = [False] * len(order)
    for start in range(len(order)):
        if done[start] or order[start] == start:
            continue
        held = buf[start].copy()
        k = start
        while True:
            done[k] = True
            source = order[k]
            if source == start:
                buf[k] = held
                break
            buf[k] = buf[source]
            k = source


def _crt_merge(buf: U8, cols_a: I64, mod_a: int, rows_b: U8, cols_b: I64, mod_b: int) -> tuple[U8, I64]:
    """Howell rows over Z/(ab) from Howell forms over Z/a (the first len(cols_a) rows of buf)
    and Z/b (rows_b), a and b coprime; the entries above the pivots are left unreduced.

    At a column j where either has a pivot, the merged pivot is d_a d_b (a or b standing
    for a missing pivot) and the merged row is E_a d_b h_a + E_b d_a h_b mod ab, E_a and E_b
    the CRT idempotents: it is d_b h_a mod a and d_a h_b mod b, d_b a unit mod a and d_a a
    unit mod b, so the rows span the CRT product of the two spans and keep the Howell
    property.  The rows are built in buf's rows (it is reallocated only if there are more
    pivot columns than it has rows), then sorted by pivot column.
    """
    mod = mod_a * mod_b
    ncols = buf.shape[1]
    a_list, b_list = cols_a.tolist(), cols_b.tolist()
    where_a = dict(zip(a_list, range(len(a_list))))
    where_b = dict(zip(b_list, range(len(b_list))))
    joint = sorted(set(a_list) | set(b_list))
    if len(joint) > buf.shape[0]:
        _work_limit(len(joint) * ncols, f"a {len(joint)} x {ncols} Howell form mod {mod}")
        bigger = np.empty((len(joint), ncols), dtype=np.uint8)
        bigger[:len(a_list)] = buf[:len(a_list)]
        buf = bigger
    e_a = mod_b * pow(mod_b, -1, mod_a) % mod
    e_b = mod_a * pow(mod_a, -1, mod_b) % mod
    modelim = kernels.modelim
    slots: list[int] = []
    spare = len(a_list)
    for j in joint:
        if j in where_a:
            slot = where_a[j]
            d_a = int(buf[slot, j])
        else:
            slot, spare, d_a = spare, spare + 1, mod_a
            buf[slot] = 0
        d_b = int(rows_b[where_b[j], j]) if j in where_b else mod_b
        if j in where_a:
            modelim.scale_inplace(buf[slot], e_a * d_b % mod, mod)
        if j in where_b:
            modelim.axpy_inplace(buf[slot], rows_b[where_b[j]], e_b * d_a % mod, mod)
        slots.append(slot)
    _permute_rows(buf, slots)
    return buf[:len(joint)], np.asarray(joint, dtype=np.int64)


def _crt_howell(parts: list[tuple[U8, I64]], modulus: int) -> U8:
    """The Howell form over Z/N from those (rows, pivot columns) of its prime-power factors,
    merged one factor at a time into the first part's array (which is overwritten)."""
    factors = prime_power_factors(modulus)
    buf, cols = parts[0]
    mod = factors[0][2]
    for (rows_b, cols_b), (_, _, q) in zip(parts[1:], factors[1:]):
        buf, cols = _crt_merge(buf, cols, mod, rows_b, cols_b, q)
        mod *= q
    out = np.ascontiguousarray(buf[:len(cols)])
    if len(cols):
        kernels.modelim.reduce_above_inplace(out, cols, modulus)
    return out


# ---------------------------------------------------------------------------
# Public functions.

def solve_mod(matrix: npt.ArrayLike, rhs: npt.ArrayLike, modulus: int) -> ModSystem:
    """Solve ``matrix @ u == rhs (mod N)``: one solution, the kernel's Howell form, its size and nullity.

    Args:
        matrix: ``(m, n)`` uint8 residues mod N (other integer arrays are reduced mod N).
        rhs: ``(m,)`` residues mod N.
        modulus: N, 2 <= N <= 255.

    Returns:
        :class:`ModSystem`.

    Raises:
        InvalidBoardError, InvalidTypeError: bad shapes, dtype or modulus.
        BoardTooLargeError: the work area would exceed :data:`MAX_WORK_BYTES`.
        KeyboardInterrupt: Ctrl-C during the elimination.

    Example:
        >>> import numpy as np
        >>> a = np.array([[1, 2], [2, 4]], dtype=np.uint8)
        >>> s = solve_mod(a, np.array([1, 2], dtype=np.uint8), 5)
        >>> s.solution.tolist(), s.kernel.tolist(), s.count, s.nullity
        ([0, 3], [[1, 2]], 5, 1)
        >>> solve_mod(a, np.array([1, 1], dtype=np.uint8), 5).solution is None
        True
        >>> s = solve_mod(np.array([[2, 0], [0, 3]], dtype=np.uint8), np.array([0, 0], dtype=np.uint8), 6)
        >>> s.kernel.tolist(), s.count, s.nullity
        ([[3, 0], [0, 2]], 6, 1)
    """
    n_mod = states_count(modulus, "modulus")
    a_in, b_in = _shaped(matrix, "matrix", 2), _shaped(rhs, "rhs", 1)
    m, n = a_in.shape
    if b_in.shape != (m,):
        raise InvalidBoardError(f"rhs must have shape ({m},), got {b_in.shape}")
    factors = prime_power_factors(n_mod)
    # The input as uint8 residues, a copy mod each factor, and the factor's elimination array.
    copies = (0 if a_in.dtype == np.uint8 and a_in.flags.c_contiguous else 1) + (len(factors) > 1)
    _work_limit(copies * m * n + max(m * (n + 1) if e == 1 else n * (m + n) for _, e, _ in factors),
                f"solving a {m} x {n} system mod {n_mod}")
    a, b = _residues(a_in, n_mod), _residues(b_in, n_mod)
    solutions: list[Optional[U8]] = []
    kernel_parts: list[tuple[U8, I64]] = []
    count, nullity = 1, 0
    for p, e, q in factors:
        a_q = a if q == n_mod else _reduced(a, q)
        b_q = _reduced(b, q)
        if e == 1:
            solution, kernel, cols, rank = _solve_prime(a_q, b_q, p)
        else:
            solution, kernel, cols, rank = _solve_prime_power(a_q, b_q, p, e)
        solutions.append(solution)
        kernel_parts.append((kernel, cols))
        count *= _kernel_count(kernel, cols, q)
        nullity = max(nullity, n - rank)
    if len(factors) == 1:
        return ModSystem(solutions[0], kernel_parts[0][0], count, nullity)
    combined: Optional[U8] = None
    if all(s is not None for s in solutions):
        combined = _crt_vector([s for s in solutions if s is not None], n_mod)
    return ModSystem(combined, _crt_howell(kernel_parts, n_mod), count, nullity)


def rref_prime(rows: npt.ArrayLike, p: int) -> tuple[np.ndarray, list[int]]:
    """Reduced row echelon form over GF(p), p prime: the Howell form, whose pivots are then 1.

    Dependent rows vanish; the rows come out sorted by their pivot column.

    Returns:
        ``(basis, pivots)``: ``(r', n)`` int64 rows and the pivot column of each.

    Example:
        >>> basis, pivots = rref_prime(np.array([[1, 1, 0], [1, 0, 1], [0, 1, 1]]), 2)
        >>> basis.tolist(), pivots
        ([[1, 0, 1], [0, 1, 1]], [0, 1])
    """
    form = howell_form(rows, p).astype(np.int64)
    return form, [int(np.flatnonzero(row)[0]) for row in form]


def howell_form(rows: npt.ArrayLike, modulus: int) -> U8:
    """The Howell form of the row span of ``rows`` over Z/N (canonical: equal spans, equal forms).

    Rows come out sorted by pivot (first nonzero) column, each pivot a divisor
    of N, the entries above each pivot reduced into ``[0, pivot)``, zero rows
    dropped, and with the Howell property (see the module docstring).  Short,
    very wide inputs (a few hundred rows, millions of columns) are fine: the
    elimination works on stripes of columns that stay in cache.

    Args:
        rows: ``(r, n)`` uint8 residues mod N (other integer arrays are reduced mod N).
        modulus: N, 2 <= N <= 255.

    Returns:
        ``(r', n)`` uint8.

    Raises:
        InvalidBoardError, InvalidTypeError: bad shapes, dtype or modulus.
        BoardTooLargeError: the work area would exceed :data:`MAX_WORK_BYTES`.

    Example:
        >>> import numpy as np
        >>> howell_form(np.array([[2, 1]], dtype=np.uint8), 4).tolist()
        [[2, 1], [0, 2]]
        >>> howell_form(np.array([[4, 1, 3], [2, 2, 0]], dtype=np.uint8), 6).tolist()
        [[2, 2, 0], [0, 3, 3]]
    """
    n_mod = states_count(modulus, "modulus")
    rows_in = _shaped(rows, "rows", 2)
    r, n = rows_in.shape
    factors = prime_power_factors(n_mod)
    # One reduced copy per factor, each merged into the first and freed (_crt_merge);
    # saturation rows (prime-power factors) may use what is left of the limit.
    work_bytes = min(len(factors), 2) * r * n + (0 if rows_in.dtype == np.uint8 and rows_in.flags.c_contiguous
                                                 else r * n)
    _work_limit(work_bytes, f"the Howell form of a {r} x {n} matrix mod {n_mod}")
    r_in = _residues(rows_in, n_mod)
    modelim = kernels.modelim
    form: U8 = r_in[:0]
    form_cols: I64 = np.zeros(0, dtype=np.int64)
    mod = 1
    for index, (_, _, q) in enumerate(factors):
        work = _reduced(r_in, q)
        rows, cols = modelim.echelon_inplace(work, q, max_extra_bytes=MAX_WORK_BYTES - work_bytes)
        # The merge may build its rows in work's spare rows, so pass the whole array.
        buf = work if np.shares_memory(rows, work) else rows
        if index == 0:
            form, form_cols = buf, cols
        else:
            form, form_cols = _crt_merge(form, form_cols, mod, rows, cols, q)
        mod *= q
        del work, rows, buf
    out = form[:len(form_cols)]
    if len(factors) > 1 and len(form_cols):
        modelim.reduce_above_inplace(out, form_cols, n_mod)
    if out.shape[0] < form.shape[0] // 2:      # a few rows of a large scratch array
        out = out.copy()
    return out


def reduce_lexmin(vector: npt.ArrayLike, howell: npt.ArrayLike, modulus: int) -> U8:
    """The lexicographically smallest element of ``vector + span(howell)`` over Z/N.

    Index 0 is the most significant; entries compare as integers 0..N-1.
    ``howell`` must be a Howell form (as :func:`howell_form` and
    :func:`solve_mod` return); the module docstring proves the result minimal.

    Args:
        vector: ``(n,)`` residues mod N.
        howell: ``(r, n)`` Howell form over Z/N.
        modulus: N, 2 <= N <= 255.

    Returns:
        ``(n,)`` uint8, a new array.

    Example:
        >>> import numpy as np
        >>> h = howell_form(np.array([[2, 1]], dtype=np.uint8), 4)
        >>> reduce_lexmin(np.array([3, 3], dtype=np.uint8), h, 4).tolist()
        [1, 0]
    """
    n_mod = states_count(modulus, "modulus")
    v_in, h_in = _shaped(vector, "vector", 1), _shaped(howell, "howell", 2)
    n = v_in.shape[0]
    if h_in.shape[1] != n:
        raise InvalidBoardError(f"howell has {h_in.shape[1]} columns, vector {n}")
    _work_limit(2 * n + (0 if h_in.dtype == np.uint8 and h_in.flags.c_contiguous else h_in.size),
                f"reducing a vector of {n} entries")
    v, h = _residues(v_in, n_mod), _residues(h_in, n_mod)
    out = _reduced(v.reshape(1, n), n_mod)
    cols = _pivot_columns(h)
    nonzero = cols < n
    if not nonzero.all():
        h, cols = np.ascontiguousarray(h[nonzero]), cols[nonzero]
    if len(cols):
        kernels.modelim.reduce_rows_inplace(out, h, cols, n_mod)
    result: U8 = out[0]
    return result


def span_size(howell: npt.ArrayLike, modulus: int) -> int:
    """The number of elements of the span of a Howell form: the product of N / pivot over its rows.

    Example:
        >>> import numpy as np
        >>> span_size(np.array([[2, 1], [0, 2]], dtype=np.uint8), 4)
        4
    """
    n_mod = states_count(modulus, "modulus")
    h_in = _shaped(howell, "howell", 2)
    _work_limit(0 if h_in.dtype == np.uint8 and h_in.flags.c_contiguous else h_in.size,
                f"a {h_in.shape[0]} x {h_in.shape[1]} Howell form")
    h = _residues(h_in, n_mod)
    cols = _pivot_columns(h)
    keep = cols < h.shape[1]
    return _kernel_count(h[keep], cols[keep], n_mod)


def rank_mod_prime(matrix: npt.ArrayLike, p: int) -> int:
    """The rank of an integer matrix over GF(p), p a prime <= 251.

    Example:
        >>> import numpy as np
        >>> rank_mod_prime(np.array([[1, 2], [3, 1]]), 5), rank_mod_prime(np.array([[1, 2], [3, 1]]), 3)
        (1, 2)
    """
    prime = states_count(p, "p")
    if len(prime_power_factors(prime)) != 1 or prime_power_factors(prime)[0][1] != 1:
        raise InvalidBoardError(f"p must be a prime, got {prime}")
    a_in = _shaped(matrix, "matrix", 2)
    _work_limit(3 * a_in.shape[0] * a_in.shape[1], f"the rank of a {a_in.shape[0]} x {a_in.shape[1]} matrix")
    return _rank_prime(_reduced(_residues(a_in, prime), prime), prime)


def nullity_mod(matrix: npt.ArrayLike, modulus: int) -> int:
    """The fewest generators of ``{u : matrix @ u == 0 (mod N)}``: max over p | N of n - rank mod p.

    Only ranks are computed (echelon forms mod each prime), no kernel vectors.

    Example:
        >>> import numpy as np
        >>> nullity_mod(np.array([[2, 0], [0, 3]]), 6), nullity_mod(np.array([[2, 0], [0, 3]]), 7)
        (1, 0)
    """
    n_mod = states_count(modulus, "modulus")
    a_in = _shaped(matrix, "matrix", 2)
    _work_limit(3 * a_in.shape[0] * a_in.shape[1], f"the nullity of a {a_in.shape[0]} x {a_in.shape[1]} matrix")
    a = _residues(a_in, n_mod)
    n = int(a.shape[1])
    return max(n - _rank_prime(_reduced(a, p), p) for p, _, _ in prime_power_factors(n_mod))


def left_kernel_witness(equations: U8, nz: int, k: int) -> Optional[U8]:
    """Why ``[C | d]`` (``equations``: C in its first ``nz`` columns, d in column ``nz``) has no
    solution: a vector eta over the equations with ``eta C = 0`` and ``eta . d != 0 (mod k)``, or None.

    The proof of an unsolvable board in the chase routes: the reduced system's witness, lifted
    to the lights by each route.

    Example:
        >>> left_kernel_witness(np.array([[1, 0], [1, 1]], dtype=np.uint8), 1, 2).tolist()  # x = 0 and x = 1
        [1, 1]
    """
    neq = equations.shape[0]
    coeffs = np.ascontiguousarray(equations[:, :nz].T) if nz else np.zeros((1, neq), np.uint8)
    left = solve_mod(coeffs, np.zeros(coeffs.shape[0], np.uint8), k).kernel
    d = equations[:, nz].astype(np.int64)
    for eta in left:
        if int(eta.astype(np.int64) @ d) % k:
            out: U8 = eta.astype(np.uint8)
            return out
    return None
