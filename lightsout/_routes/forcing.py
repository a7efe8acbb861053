"""Lights Out on an undirected graph as a linear system: generalised light chasing, or plain elimination.

Pressing vertex v adds 1 (mod k) to v (under the plus rule; the sigma rule,
``self_toggle=False``, skips v) and to each neighbour, so the presses x solve
the lights b when ``A x + b = 0 (mod k)``, A the symmetric press-effect matrix.

Method "forcing" (Wang, Xu & Zhou, arXiv:2208.09731; on a grid it is light
chasing, docs/algebra.md section 1): every coefficient of A is 0 or 1, so an
equation with one undetermined press variable determines it.  A greedy plan
(lightsout._kernels.graphchase.forcing_plan) picks a small set Z of free unknowns from
which repeated forcing determines every press; each press is then an affine
function of Z, the |Z| equations never used for forcing form a |Z| x |Z|
system, and its solutions (packed GF(2) elimination for k = 2,
lightsout._core.modring.solve_mod for k > 2) expand back to every vertex.  The map
from Z to the press vector is affine and injective, so solvability, the
number of solutions and the nullity are those of the small system, and the
expanded kernel generators generate every quiet pattern.  A grid chases row
by row (|Z| = the shorter side), a random graph of average degree 6 needs
|Z| of about 0.3 n.

Method "elimination": the whole n x n system, eliminated directly; the
fallback and the cross-check.  Method "auto" plans first (O(n + m)) and
eliminates directly only when the forcing set is not much smaller than n.

A grid board is a graph too: the registry (``lightsout/_routes/registry.py``) hands this
route a grid's neighbour lists (``GraphRules.of_grid``), so ``method="forcing"`` and
``"elimination"`` solve grids as well, a cross-check of the grid routes.

Memory is bounded by ``MAX_GRAPH_BYTES`` (2 GiB): the vertices alone (and a dense adjacency
matrix's scan) are refused by :func:`refuse_graph` before the graph is converted, and every
method refuses, before allocating, a system or an expansion that would exceed it
(BoardTooLargeError naming the limit).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Union

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError
from lightsout._base.packing import pack_rows, transpose_bits, unpack_rows, words_for_bits
from lightsout._base.validate import method_name
from lightsout._core.bitmatrix import check_elimination
from lightsout._core.coset import Coset
from lightsout._core.gf2system import GF2System, solve_gf2
from lightsout._core.modring import ModSystem, solve_mod
from lightsout._core.sparsesystem import solve_entries, system_bytes
from lightsout import _kernels as kernels

__all__ = ["BYTES_PER_VERTEX", "MAX_GRAPH_BYTES", "MODES", "ForcingPlan", "forcing_plan", "refuse_graph",
           "solve_directed", "solve_graph_linear"]

#: Most memory (bytes) one graph solve may allocate for its systems, expressions and answer: 2 GiB.
MAX_GRAPH_BYTES = 2 << 30
#: The ways :func:`solve_graph_linear` solves (``mode=``); the registry offers "forcing" and
#: "elimination" as methods, and "auto" as the graphs' choice for ``method="auto"``.
MODES = ("auto", "forcing", "elimination")
#: Bytes a solve needs per vertex whatever the edges (CSR offsets, their count, the lights, the
#: forcing plan's arrays, the answer): about 46 measured on graphs of 10**6 and 4 * 10**6 vertices
#: with one edge; 64 leaves room.
BYTES_PER_VERTEX = 64
#: "auto" eliminates the whole system directly when the forcing set has more than
#: this fraction of the vertices (then the reduced system is nearly as large, and
#: the plan and the expressions are pure overhead) and the full system fits.
AUTO_FORCING_FRACTION = 0.75

U8 = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class ForcingPlan:
    """A forcing order (see lightsout/_kernels/graphchase.pyx, section 1 of its header).

    Attributes:
        steps_var: (n,) int32, the variable each step determines.
        steps_eq: (n,) int32, the equation it uses, or -1 for a free unknown.
        final_eqs: (nfree,) int32, the equations left for the reduced system.
        peak: most vertex expressions alive at once while the system is built.
    """

    steps_var: npt.NDArray[np.int32]
    steps_eq: npt.NDArray[np.int32]
    final_eqs: npt.NDArray[np.int32]
    peak: int

    @property
    def nfree(self) -> int:
        """|Z|: the number of free unknowns (= rows and columns of the reduced system)."""
        return int(self.final_eqs.shape[0])


def forcing_plan(indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32], self_toggle: bool) -> ForcingPlan:
    """The greedy forcing plan of a graph in CSR form.

    Example:
        >>> import numpy as np
        >>> indptr = np.array([0, 1, 3, 4], dtype=np.int64)      # the path 0 - 1 - 2
        >>> indices = np.array([1, 0, 2, 1], dtype=np.int32)
        >>> forcing_plan(indptr, indices, True).nfree
        1
    """
    steps_var, steps_eq, final_eqs, peak = kernels.graphchase.forcing_plan(indptr, indices, bool(self_toggle))
    return ForcingPlan(steps_var, steps_eq, final_eqs, int(peak))


def refuse_graph(n: int, matrix_entries: int = 0) -> None:
    """Refuse, before the graph is converted, one whose vertices alone overrun ``MAX_GRAPH_BYTES``.

    ``matrix_entries``: a dense adjacency matrix's entries, scanned a byte each for its pattern.

    Example:
        >>> refuse_graph(10**6)
        >>> refuse_graph(10**8)
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: a graph of 100000000 vertices needs about 5.96 GiB ...
    """
    need = n * BYTES_PER_VERTEX + matrix_entries
    if need > MAX_GRAPH_BYTES:
        given, most = "", MAX_GRAPH_BYTES // BYTES_PER_VERTEX
        if matrix_entries:  # n * n + BYTES_PER_VERTEX * n <= MAX_GRAPH_BYTES
            given = (f" given as a dense {n} x {n} adjacency matrix (a byte an entry to find its edges; a "
                     "scipy.sparse matrix or an edge list needs none)")
            most = (math.isqrt(BYTES_PER_VERTEX**2 + 4 * MAX_GRAPH_BYTES) - BYTES_PER_VERTEX) // 2
        raise BoardTooLargeError(
            f"a graph of {n} vertices{given} needs about {need / 2**30:.3g} GiB to solve, over the limit of "
            f"{MAX_GRAPH_BYTES / 2**30:.0f} GiB (lightsout.limits.MAX_GRAPH_BYTES): at most {most} vertices"
            f"{' so given' if matrix_entries else ''}")


def _refuse(need: int, what: str) -> None:
    if need > MAX_GRAPH_BYTES:
        raise BoardTooLargeError(
            f"{what} needs about {need / 2**30:.3g} GiB (limit {MAX_GRAPH_BYTES / 2**30:.0f} GiB per graph solve, "
            f"lightsout.limits.MAX_GRAPH_BYTES)")


def solve_graph_linear(n: int, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32],
                       lit: npt.ArrayLike, *, self_toggle: bool, states: int,
                       method: str = "auto", kernel: bool = True) -> Coset:
    """All solutions of Lights Out on a graph, as a coset: one solution plus quiet-pattern generators.

    Args:
        n: number of vertices (>= 1).
        indptr: (n + 1,) int64 and indices: int32, the graph in CSR form: the
            neighbours of v are ``indices[indptr[v]:indptr[v + 1]]``, the
            adjacency symmetric, without self-loops or repeated neighbours
            (lightsout.graph produces this; it is not checked here).
        lit: (n,) lights, values 0..states-1, in vertex order.
        self_toggle: True for the plus rule (a press changes its own vertex),
            False for the sigma rule.
        states: k, 2..255.
        method: "auto", "forcing" or "elimination" (module docstring; ``MODES``).
        kernel: False when the caller needs no quiet pattern (is the board
            solvable?): the kernel generators are then neither expanded nor kept.

    Returns:
        A :class:`lightsout._core.coset.Coset` over the vertices (its
        ``method`` is "forcing" or "elimination"); for two states the quiet
        basis is packed (``packed=True``: one bit a vertex).

    Raises:
        BoardTooLargeError: the run would allocate more than MAX_GRAPH_BYTES
            (or, for elimination, exceed the packed elimination's work limit).
        InvalidBoardError: an unknown method, or lights of the wrong length.

    Example:
        >>> import numpy as np
        >>> indptr = np.array([0, 1, 3, 4], dtype=np.int64)      # the path 0 - 1 - 2
        >>> indices = np.array([1, 0, 2, 1], dtype=np.int32)
        >>> r = solve_graph_linear(3, indptr, indices, [1, 1, 1], self_toggle=True, states=2)
        >>> r.solvable, r.particular.tolist(), r.nullity, r.count
        (True, [0, 1, 0], 0, 1)
        >>> r = solve_graph_linear(3, indptr, indices, [1, 0, 0], self_toggle=False, states=2)
        >>> r.solvable, r.nullity, r.packed, r.kernel_rows(3).tolist()       # two states: kept packed
        (False, 1, True, [[1, 0, 1]])
    """
    method = method_name(method, MODES)
    lights = np.ascontiguousarray(lit, dtype=np.uint8)
    if lights.shape != (n,) or indptr.shape != (n + 1,):
        raise InvalidBoardError(f"lit must have shape ({n},) and indptr ({n + 1},); "
                                f"got {lights.shape} and {indptr.shape}")
    if method == "elimination":
        return _eliminate(n, indptr, indices, lights, self_toggle, states, kernel)
    plan = forcing_plan(indptr, indices, self_toggle)
    if method == "auto" and (plan.nfree > AUTO_FORCING_FRACTION * n or _system_bytes(plan, states) > MAX_GRAPH_BYTES) \
            and _elimination_fits(n, states):
        return _eliminate(n, indptr, indices, lights, self_toggle, states, kernel)
    return _force(n, indptr, indices, lights, self_toggle, states, plan, kernel)


def _system_bytes(plan: ForcingPlan, states: int) -> int:
    """Memory of the reduced system and the live vertex expressions of a plan."""
    nz = plan.nfree
    width = 8 * words_for_bits(nz + 1) if states == 2 else nz + 1
    return (plan.peak + nz) * width


# ---------------------------------------------------------------------------
# Forcing.

def _force(n: int, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32], lights: U8,
           self_toggle: bool, states: int, plan: ForcingPlan, kernel: bool) -> Coset:
    nz = plan.nfree
    graphchase = kernels.graphchase
    _refuse(_system_bytes(plan, states), f"the reduced {nz} x {nz} system of a {n}-vertex graph")
    solved: Union[GF2System, ModSystem]
    if states == 2:
        system = graphchase.forcing_system_gf2(indptr, indices, self_toggle, plan.steps_var, plan.steps_eq,
                                               plan.final_eqs, plan.peak, lights)
        solved = solve_gf2(system, nz)
        if kernel:
            _refuse(solved.nullity * (8 * words_for_bits(nz) + nz), f"the null space of a {nz}-unknown system")
    else:
        system8 = graphchase.forcing_system_mod(indptr, indices, self_toggle, plan.steps_var, plan.steps_eq,
                                                plan.final_eqs, plan.peak, lights, states)
        solved = _solve_mod(system8, nz, states)
    solvable, z0, count, nullity = solved.solvable, solved.solution, int(solved.count), int(solved.nullity)
    zkernel = np.asarray(solved.kernel, dtype=np.uint8) if kernel else np.zeros((0, nz), dtype=np.uint8)
    zkernel = zkernel.reshape(len(zkernel), nz)
    # Vector 0 carries the lights (the particular solution, from z0 = 0 when there is
    # none); vectors 1.. are the kernel generators, on the dark board.
    zvals = np.empty((nz, 1 + zkernel.shape[0]), dtype=np.uint8)
    zvals[:, 0] = z0 if z0 is not None else 0
    zvals[:, 1:] = zkernel.T
    nvec = zvals.shape[1]
    if states == 2:
        # the expansion's rows (one word group per vertex) and their transpose (one packed row
        # per vector), never a byte per vertex and vector
        _refuse(n * 8 * words_for_bits(nvec) + nvec * 8 * words_for_bits(n),
                f"{nvec - 1} quiet patterns of a {n}-vertex graph")
        zrows = pack_rows(zvals)
        vals = graphchase.forcing_expand_gf2(indptr, indices, self_toggle, plan.steps_var, plan.steps_eq, lights,
                                          zrows)
        vectors = transpose_bits(vals, nvec)
        del vals
        particular = unpack_rows(vectors[:1], n)[0].view(np.uint8) if solvable else None
        return Coset(solvable=solvable, particular=particular, kernel=vectors[1:], count=count,
                            nullity=nullity, method="forcing", packed=True)
    else:
        _refuse(n * 3 * nvec, f"{nvec - 1} quiet patterns of a {n}-vertex graph")
        presses = graphchase.forcing_expand_mod(indptr, indices, self_toggle, plan.steps_var, plan.steps_eq, lights,
                                             zvals, states)
    by_vector = np.ascontiguousarray(presses.T)
    return Coset(solvable=solvable, particular=by_vector[0].copy() if solvable else None,
                        kernel=by_vector[1:], count=count, nullity=nullity, method="forcing")


def _solve_mod(system: U8, nvars: int, states: int) -> ModSystem:
    """Solve ``[C | d]``, ``C z + d = 0 (mod k)``."""
    if nvars == 0:
        consistent = not system.any()
        return ModSystem(np.zeros(0, np.uint8) if consistent else None, np.zeros((0, 0), np.uint8), 1, 0)
    coeffs = np.ascontiguousarray(system[:, :nvars])
    rhs = ((states - system[:, nvars].astype(np.int64)) % states).astype(np.uint8)
    return solve_mod(coeffs, rhs, states)


# ---------------------------------------------------------------------------
# Plain elimination.

def _elimination_bytes(n: int, states: int) -> int:
    if states == 2:
        return n * 8 * words_for_bits(n + 1) + n * n
    return 2 * n * (n + 1)


def _elimination_fits(n: int, states: int) -> bool:
    try:
        _refuse(_elimination_bytes(n, states), "")
        if states == 2:
            check_elimination(n, n + 1)
    except BoardTooLargeError:
        return False
    return True


def _eliminate(n: int, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32], lights: U8,
               self_toggle: bool, states: int, kernel: bool) -> Coset:
    _refuse(_elimination_bytes(n, states), f"eliminating the full {n} x {n} system (method='elimination')")
    solved: Union[GF2System, ModSystem]
    if states == 2:
        check_elimination(n, n + 1, what="method='elimination'")
        solved = solve_gf2(kernels.graphchase.effect_matrix_gf2(indptr, indices, self_toggle, lights), n)
        basis = np.zeros((0, words_for_bits(n)), dtype=np.uint64)
        if kernel:
            _refuse(solved.nullity * 8 * words_for_bits(n), f"the null space of a {n}-unknown system")
            basis = solved.kernel_words
    else:
        matrix = np.zeros((n, n + 1), dtype=np.uint8)
        rows = np.repeat(np.arange(n), np.diff(indptr))
        matrix[rows, indices] = 1
        if self_toggle:
            matrix[np.arange(n), np.arange(n)] = 1
        matrix[:, n] = lights
        solved = _solve_mod(matrix, n, states)
        basis = np.asarray(solved.kernel, dtype=np.uint8)
        basis = basis.reshape(len(basis), n)
    solvable, x0, count, nullity = solved.solvable, solved.solution, int(solved.count), int(solved.nullity)
    return Coset(solvable=solvable, particular=x0 if solvable else None,
                        kernel=np.ascontiguousarray(basis), count=count, nullity=nullity, method="elimination",
                        packed=states == 2)


# ---------------------------------------------------------------------------
# Directed graphs (one-way rules).

def solve_directed(n: int, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32], lit: npt.ArrayLike, *,
                   self_toggle: bool, states: int, kernel: bool = True) -> Coset:
    """A directed graph's coset: a press at u changes u (``self_toggle``) and its successors
    ``indices[indptr[u]:indptr[u + 1]]``, the whole system eliminated.

    Forcing needs a symmetric adjacency (the equations holding a press are its neighbours'),
    so a directed graph is eliminated whole (``lightsout/_core/sparsesystem.py``), and its
    proof when unsolvable is the left kernel's: weights y on the vertices with ``y A == 0``
    and ``y . b != 0`` (the coset's ``proof``), since no quiet pattern proves anything
    without symmetry.

    Example:
        >>> import numpy as np
        >>> indptr, indices = np.array([0, 1, 1], dtype=np.int64), np.array([1], dtype=np.int32)   # 0 -> 1
        >>> found = solve_directed(2, indptr, indices, [0, 1], self_toggle=False, states=2)
        >>> found.solvable, found.particular.tolist()
        (True, [1, 0])
        >>> solve_directed(2, indptr, indices, [1, 0], self_toggle=False, states=2).proof.tolist()
        [1, 0]
    """
    lights = np.ascontiguousarray(lit, dtype=np.uint8)
    if lights.shape != (n,) or indptr.shape != (n + 1,):
        raise InvalidBoardError(f"lit must have shape ({n},) and indptr ({n + 1},); "
                                f"got {lights.shape} and {indptr.shape}")
    _refuse(system_bytes(n, n, states), f"eliminating the {n} x {n} system of a directed graph")
    pressers = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    entries = [(indices.astype(np.int64), pressers, 1)]
    if self_toggle:
        entries.append((np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64), 1))
    found = solve_entries(n, n, entries, lights, states, kernel=kernel)
    return Coset(solvable=found.solution is not None, particular=found.solution, kernel=found.kernel,
                 count=found.count, nullity=found.nullity, method="elimination", proof=found.proof)
