"""Lights Out on a graph as a linear system: generalised light chasing, or plain elimination.

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

One-way rules and masks (:func:`solve_masked`): a directed graph's press matrix is not
symmetric, and unpressable vertices or free lights cut columns and rows out of it, so the
equations holding a press are no longer its own neighbours'.  :func:`press_system` writes
both incidence lists (each required light's presses, each pressable vertex's lights) and
the same forcing runs on them (graphchase.pyx section 5): a light with one press left
undetermined forces it, the reduced system is (unused lights) x (free unknowns), and an
unsolvable board's proof, a left-kernel vector of the reduced system, is carried to every
light by walking the plan backwards.  A random directed graph of 100,000 vertices and
300,000 edges leaves about 12,000 free unknowns.

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

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError
from lightsout._base.packing import pack_rows, transpose_bits, unpack_rows, words_for_bits
from lightsout._base.validate import method_name
from lightsout._core.bitmatrix import check_elimination
from lightsout._core.coset import Coset
from lightsout._core.gf2system import GF2System, solve_gf2
from lightsout._core.modring import ModSystem, left_kernel_witness, solve_mod
from lightsout._core.sparsesystem import solve_entries, system_bytes
from lightsout import _kernels as kernels

__all__ = ["BYTES_PER_VERTEX", "MAX_GRAPH_BYTES", "MODES", "ForcingPlan", "PressSystem", "SparsePlan", "forcing_plan",
           "press_system", "refuse_graph", "solve_graph_linear", "solve_masked", "sparse_plan"]

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
# One-way rules and masks: the system of the required lights and the pressable vertices.

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class PressSystem:
    """The presses and lights of a graph under masks, as both incidence lists (CSR).

    Equation e is the required light ``lights[e]``, variable u the pressable vertex
    ``presses[u]``; equation e's variables (the presses reaching that light) are
    ``eq_var[eq_ptr[e]:eq_ptr[e + 1]]``, variable u's equations (the lights it changes)
    ``var_eq[var_ptr[u]:var_ptr[u + 1]]``.  Every weight is 1.

    Example:
        >>> import numpy as np
        >>> indptr, indices = np.array([0, 1, 1], dtype=np.int64), np.array([1], dtype=np.int32)   # 0 -> 1
        >>> system = press_system(2, indptr, indices, True)
        >>> system.eq_ptr.tolist(), system.eq_var.tolist(), system.var_eq.tolist()
        ([0, 1, 3], [0, 0, 1], [1, 0, 1])
    """

    n: int
    presses: I64
    lights: I64
    eq_ptr: I64
    eq_var: I32
    var_ptr: I64
    var_eq: I32

    @property
    def arrays(self) -> tuple[I64, I32, I64, I32]:
        """``(eq_ptr, eq_var, var_ptr, var_eq)``, as the kernels take them."""
        return self.eq_ptr, self.eq_var, self.var_ptr, self.var_eq


def press_system(n: int, indptr: I64, indices: I32, self_toggle: bool,
                 pressable: Optional[npt.NDArray[np.bool_]] = None,
                 required: Optional[npt.NDArray[np.bool_]] = None) -> PressSystem:
    """The :class:`PressSystem` of a graph whose press at u changes ``indices[indptr[u]:indptr[u + 1]]``
    (and u under ``self_toggle``), its presses limited to ``pressable`` and its equations to the
    ``required`` lights (None: every vertex).

    Example:
        >>> import numpy as np
        >>> indptr, indices = np.array([0, 1, 3, 4], dtype=np.int64), np.array([1, 0, 2, 1], dtype=np.int32)
        >>> s = press_system(3, indptr, indices, False, pressable=np.array([True, False, True]))
        >>> s.presses.tolist(), s.lights.tolist(), s.eq_ptr.tolist()      # only vertex 1's light is reached
        ([0, 2], [0, 1, 2], [0, 0, 2, 2])
    """
    owners = np.repeat(np.arange(n, dtype=np.int32), np.diff(indptr))
    targets = np.asarray(indices, dtype=np.int32)
    if self_toggle:
        owners = np.concatenate([owners, np.arange(n, dtype=np.int32)])
        targets = np.concatenate([targets, np.arange(n, dtype=np.int32)])
    press_mask = np.ones(n, dtype=bool) if pressable is None else np.asarray(pressable, dtype=bool)
    light_mask = np.ones(n, dtype=bool) if required is None else np.asarray(required, dtype=bool)
    keep = press_mask[owners] & light_mask[targets]
    if not keep.all():
        owners, targets = owners[keep], targets[keep]
    var_of = np.cumsum(press_mask, dtype=np.int32) - 1
    eq_of = np.cumsum(light_mask, dtype=np.int32) - 1
    var, eq = var_of[owners], eq_of[targets]
    nvar, neq = int(press_mask.sum()), int(light_mask.sum())
    by_var = np.argsort(var, kind="stable")
    by_eq = np.argsort(eq, kind="stable")
    var_ptr = np.zeros(nvar + 1, dtype=np.int64)
    np.cumsum(np.bincount(var, minlength=nvar), out=var_ptr[1:])
    eq_ptr = np.zeros(neq + 1, dtype=np.int64)
    np.cumsum(np.bincount(eq, minlength=neq), out=eq_ptr[1:])
    return PressSystem(n, np.flatnonzero(press_mask).astype(np.int64), np.flatnonzero(light_mask).astype(np.int64),
                       eq_ptr, np.ascontiguousarray(var[by_eq]), var_ptr, np.ascontiguousarray(eq[by_var]))


@dataclass(frozen=True)
class SparsePlan:
    """A forcing order of a :class:`PressSystem` (``lightsout._kernels.graphchase.sparse_plan``)."""

    steps_var: I32
    steps_eq: I32
    final_eqs: I32
    peak: int

    @property
    def nfree(self) -> int:
        """The free unknowns: the columns of the reduced system."""
        return int(np.count_nonzero(self.steps_eq < 0))

    @property
    def nfinal(self) -> int:
        """The equations no press was forced from: the rows of the reduced system."""
        return int(self.final_eqs.shape[0])

    def system_bytes(self, states: int) -> int:
        """Memory of the reduced system (with the proof's room for two states) and the live expressions."""
        nz, rows = self.nfree, self.nfinal
        if states == 2:
            return (self.peak + rows) * 8 * words_for_bits(nz + 1) + rows * 8 * words_for_bits(nz + 1 + rows)
        return (self.peak + 2 * rows) * (nz + 1)


def sparse_plan(system: PressSystem) -> SparsePlan:
    """The greedy forcing plan of a :class:`PressSystem`.

    Example:
        >>> import numpy as np
        >>> indptr, indices = np.array([0, 1, 2, 2], dtype=np.int64), np.array([1, 2], dtype=np.int32)
        >>> sparse_plan(press_system(3, indptr, indices, True)).nfree      # 0 -> 1 -> 2: chased from light 0
        0
    """
    steps_var, steps_eq, final_eqs, peak = kernels.graphchase.sparse_plan(*system.arrays)
    return SparsePlan(steps_var, steps_eq, final_eqs, int(peak))


def solve_masked(n: int, indptr: I64, indices: I32, lit: npt.ArrayLike, *, self_toggle: bool, states: int,
                 pressable: Optional[npt.NDArray[np.bool_]] = None, required: Optional[npt.NDArray[np.bool_]] = None,
                 method: str = "auto", kernel: bool = True) -> Coset:
    """A graph's coset under a one-way rule or masks: forcing on the required lights and pressable vertices.

    A press at u changes u (``self_toggle``) and ``indices[indptr[u]:indptr[u + 1]]`` (its
    successors; for an undirected graph its neighbours).  Only the ``pressable`` vertices
    are pressed and only the ``required`` lights must end dark (None: all).  "forcing"
    plans on :class:`PressSystem` and solves the reduced system; "elimination" writes the
    whole system out (``lightsout/_core/sparsesystem.py``); "auto" forces when the reduced
    system is at most ``AUTO_FORCING_FRACTION`` of the unknowns or elimination would not fit.
    The proof of an unsolvable board (``Coset.proof``, over the vertices, 0 off the required
    lights) is a left-kernel vector: weights whose sum no allowed press changes and the
    lights' is not 0; forcing lifts it from the reduced system by walking the plan backwards.

    Example:
        >>> import numpy as np
        >>> indptr, indices = np.array([0, 1, 1], dtype=np.int64), np.array([1], dtype=np.int32)   # 0 -> 1
        >>> found = solve_masked(2, indptr, indices, [1, 0], self_toggle=True, states=2, method="forcing")
        >>> found.solvable, found.particular.tolist()
        (True, [1, 1])
        >>> found = solve_masked(2, indptr, indices, [1, 0], self_toggle=True, states=2,
        ...                      pressable=np.array([True, False]))
        >>> found.solvable, found.proof.tolist()                 # pressing 0 changes both lights
        (False, [1, 1])
    """
    method = method_name(method, MODES)
    lights = np.ascontiguousarray(lit, dtype=np.uint8)
    if lights.shape != (n,) or indptr.shape != (n + 1,):
        raise InvalidBoardError(f"lit must have shape ({n},) and indptr ({n + 1},); "
                                f"got {lights.shape} and {indptr.shape}")
    system = press_system(n, indptr, indices, self_toggle, pressable, required)
    neq, nvar = len(system.lights), len(system.presses)
    if method != "elimination":
        plan = sparse_plan(system)
        small = max(plan.nfree, plan.nfinal) <= AUTO_FORCING_FRACTION * max(nvar, 1)
        fits = plan.system_bytes(states) <= MAX_GRAPH_BYTES
        if method == "forcing" or fits and (small or system_bytes(neq, nvar, states) > MAX_GRAPH_BYTES):
            return _force_sparse(system, plan, lights, states, kernel)
    _refuse(system_bytes(neq, nvar, states), f"eliminating the {neq} x {nvar} system of a {n}-vertex graph")
    rows = np.repeat(np.arange(neq, dtype=np.int64), np.diff(system.eq_ptr))
    found = solve_entries(neq, nvar, [(rows, system.eq_var, 1)], lights[system.lights], states, kernel=kernel)
    proof = None
    if found.proof is not None:
        proof = np.zeros(n, dtype=np.uint8)
        proof[system.lights] = found.proof
    return _scattered(system, found.solution, found.kernel, found.count, found.nullity, "elimination", proof)


def _scattered(system: PressSystem, solution: Optional[U8], kernel: U8, count: int, nullity: int, method: str,
               proof: Optional[U8]) -> Coset:
    """A coset over every vertex from one over the pressable ones."""
    n = system.n
    particular = None
    if solution is not None:
        particular = np.zeros(n, dtype=np.uint8)
        particular[system.presses] = solution
    by_vertex = np.zeros((n, len(kernel)), dtype=np.uint8)
    by_vertex[system.presses] = kernel.T        # whole rows, one a vertex
    basis = np.ascontiguousarray(by_vertex.T)
    return Coset(solvable=particular is not None, particular=particular, kernel=basis, count=int(count),
                 nullity=int(nullity), method=method, proof=proof)


def _force_sparse(system: PressSystem, plan: SparsePlan, lights: U8, states: int, kernel: bool) -> Coset:
    nz, rows, n = plan.nfree, plan.nfinal, system.n
    graphchase = kernels.graphchase
    _refuse(plan.system_bytes(states), f"the reduced {rows} x {nz} system of a {n}-vertex graph")
    eq_lights = np.ascontiguousarray(lights[system.lights])
    solved: Union[GF2System, ModSystem]
    reduced: np.ndarray
    if states == 2:
        reduced = graphchase.sparse_system_gf2(*system.arrays, plan.steps_var, plan.steps_eq, plan.final_eqs,
                                               plan.peak, eq_lights)
        solved = solve_gf2(reduced.copy() if kernel else reduced, nz)
        if kernel and not solved.solvable:  # the combination reading 0 = 1, eliminated again only now
            solved = solve_gf2(reduced, nz, proof=True)
        if kernel:
            _refuse(solved.nullity * (8 * words_for_bits(nz) + nz), f"the null space of a {nz}-unknown system")
    else:
        reduced = graphchase.sparse_system_mod(*system.arrays, plan.steps_var, plan.steps_eq, plan.final_eqs,
                                               plan.peak, eq_lights, states)
        solved = _solve_reduced_mod(reduced, nz, states)
    proof = None
    if kernel and not solved.solvable:
        proof = _lift_proof(system, plan, reduced, solved, eq_lights, states)
    zkernel = np.asarray(solved.kernel, dtype=np.uint8) if kernel else np.zeros((0, nz), dtype=np.uint8)
    zkernel = zkernel.reshape(len(zkernel), nz)
    zvals = np.empty((nz, 1 + zkernel.shape[0]), dtype=np.uint8)
    zvals[:, 0] = solved.solution if solved.solution is not None else 0
    zvals[:, 1:] = zkernel.T
    nvec = zvals.shape[1]
    nvar = len(system.presses)
    _refuse((nvar + 2 * n) * 8 * words_for_bits(nvec) if states == 2 else (nvar + 3 * n) * nvec,
            f"{nvec - 1} quiet patterns of a {n}-vertex graph")
    if states == 2:
        vals = graphchase.sparse_expand_gf2(*system.arrays, plan.steps_var, plan.steps_eq, eq_lights,
                                            pack_rows(zvals))
        full = np.zeros((n, vals.shape[1]), dtype=np.uint64)
        full[system.presses] = vals             # whole rows, one a vertex: 0 where not pressable
        del vals
        vectors = transpose_bits(full, nvec)
        del full
        particular = unpack_rows(vectors[:1], n)[0].view(np.uint8) if solved.solvable else None
        return Coset(solvable=solved.solvable, particular=particular, kernel=vectors[1:], count=int(solved.count),
                     nullity=int(solved.nullity), method="forcing", packed=True, proof=proof)
    presses = graphchase.sparse_expand_mod(*system.arrays, plan.steps_var, plan.steps_eq, eq_lights, zvals, states)
    by_vertex = np.zeros((n, nvec), dtype=np.uint8)
    by_vertex[system.presses] = presses
    by_vector = np.ascontiguousarray(by_vertex.T)
    return Coset(solvable=solved.solvable, particular=by_vector[0].copy() if solved.solvable else None,
                 kernel=by_vector[1:], count=int(solved.count), nullity=int(solved.nullity), method="forcing",
                 proof=proof)


def _solve_reduced_mod(system: U8, nvars: int, states: int) -> ModSystem:
    """Solve ``[C | d]``, ``C z + d = 0 (mod k)``, C of any number of rows."""
    if nvars == 0 or system.shape[0] == 0:
        consistent = not system[:, nvars].any() if system.shape[0] else True
        return ModSystem(np.zeros(nvars, np.uint8) if consistent else None, np.eye(nvars, dtype=np.uint8),
                         states ** nvars, nvars)
    coeffs = np.ascontiguousarray(system[:, :nvars])
    rhs = ((states - system[:, nvars].astype(np.int64)) % states).astype(np.uint8)
    return solve_mod(coeffs, rhs, states)


def _lift_proof(system: PressSystem, plan: SparsePlan, reduced: np.ndarray, solved: Union[GF2System, ModSystem],
                eq_lights: U8, states: int) -> U8:
    """The left-kernel vector over the vertices that proves the board unsolvable, checked."""
    nz = plan.nfree
    eta: Optional[U8]
    if isinstance(solved, GF2System):
        eta = solved.proof
    else:
        eta = left_kernel_witness(reduced, nz, states)
    if eta is None:
        raise InternalError("forcing found the graph unsolvable but no proof")
    y = np.zeros(len(system.lights), dtype=np.uint8)
    y[plan.final_eqs] = eta
    kernels.graphchase.lift_proof_sparse(system.var_ptr, system.var_eq, plan.steps_var, plan.steps_eq, y, states)
    columns = np.add.reduceat(np.append(y[system.var_eq].astype(np.int64), 0), system.var_ptr[:-1]) \
        if len(system.var_eq) else np.zeros(len(system.presses), np.int64)
    columns[np.diff(system.var_ptr) == 0] = 0
    if (columns % states).any() or int(y.astype(np.int64) @ eq_lights.astype(np.int64)) % states == 0:
        raise InternalError("the forcing route's proof of an unsolvable graph does not check out")
    proof = np.zeros(system.n, dtype=np.uint8)
    proof[system.lights] = y
    return proof
