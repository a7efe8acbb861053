"""A :class:`~lightsout._solution.result.Solution` made from what a route found, or the proof the board has none.

A route hands back a :class:`~lightsout._core.coset.Coset` (by first rows from the
polynomial and dense routes, by whole press vectors from the N-D and graph routes);
:func:`solution_from_coset` turns it into a Solution (the canonical solution, replayed
before it is returned) or into the :class:`~lightsout.UnsolvableError` that proves the
board unsolvable.  ``lightsout/_solve.py`` and ``lightsout/graph.py`` hold the entry points
that pick a route and call it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Optional, Union

import numpy as np

from lightsout._base.errors import InternalError, UnsolvableError, left_kernel_error
from lightsout._base.packing import pack_row, pack_rows, unpack_rows
from lightsout._core.canonical import (
    canonical_coset, canonical_first_row, general_unsolvable, grid_unsolvable, unsolvable_from_proof,
)
from lightsout._core.coset import Coset
from lightsout._core.graphrules import GraphRules
from lightsout._core.rules import Rules
from lightsout import _kernels as kernels
from lightsout._routes.registry import BoardRules
from lightsout._solution.result import MAX_PATTERN_CELLS, PackedBoard, Solution

__all__ = ["EAGER_PATTERN_BYTES", "solution_from_coset"]

#: Quiet patterns (cells x nullity, bytes) that solve() builds with the solution; larger sets are
#: built on request by :meth:`Solution.quiet_patterns`.
EAGER_PATTERN_BYTES = 1 << 24


def solution_from_coset(found: Coset, rules: BoardRules, lights: np.ndarray, words: Optional[np.ndarray] = None, *,
                        nodes: Optional[list[Any]] = None) -> Solution:
    """The :class:`Solution` of a board from its route's coset, replayed; or the board's UnsolvableError.

    Args:
        found: the route's coset, in either layout.
        rules: the board's rules (a grid's Rules or a graph's GraphRules).
        lights: the checked board of ``rules.shape`` (one value a vertex for a graph).
        words: the same board packed, when the caller has it (a large two-state grid is then
            kept packed).
        nodes: a networkx graph's nodes in vertex order.

    Raises:
        UnsolvableError: the board is unsolvable; carries the quiet pattern that proves it.

    Example:
        >>> from lightsout._routes.registry import ROUTES
        >>> rules, lights = Rules.check((3, 3)), np.ones((3, 3), dtype=bool)
        >>> [int(solution_from_coset(ROUTES[name].solve(rules, lights), rules, lights).presses.sum())
        ...  for name in ROUTES]
        [5, 5, 5, 5, 5, 5, 5]
    """
    if found.layout == "first_rows":
        assert isinstance(rules, Rules)
        return _solution_by_first_rows(found, rules, lights, words)
    return _solution_by_vectors(found, rules, lights, nodes)


def _solution_by_vectors(found: Coset, rules: BoardRules, lights: np.ndarray,
                         nodes: Optional[list[Any]] = None) -> Solution:
    """A Solution from whole press vectors: the canonical one, and the quiet generators the coset holds
    or, when it makes them on demand, while they are small."""
    states, cells, graph = rules.states, lights.size, isinstance(rules, GraphRules)
    if not found.solvable or found.particular is None:
        if isinstance(rules, Rules) and not rules.is_classic and found.proof is not None:
            raise _left_kernel_unsolvable(found, rules, lights)
        if isinstance(rules, GraphRules) and (rules.directed or rules.masked) and found.proof is not None:
            weighted = int(np.dot(found.proof.astype(np.int64), lights.astype(np.int64).ravel())) % states
            if not weighted or found.proof[~rules.required_lights()].any():
                raise InternalError(f"the {found.method} route's proof does not prove the graph unsolvable")
            raise left_kernel_error(f"this graph ({rules.describe()})", found.nullity, states,
                                    np.asarray(found.proof, dtype=np.uint8), weighted, quiet=False)
        if found.proof is None:
            raise general_unsolvable(found, lights, states=states, graph=graph)
        raise unsolvable_from_proof(found.proof, lights, found.nullity, states, graph=graph)
    if not found.canonical:
        if found.kernel_batches is not None:
            found = replace(found, kernel=found.kernel_rows(cells), kernel_batches=None)
        found = canonical_coset(found, lights.ravel(), states)
    assert found.particular is not None
    words: Optional[np.ndarray] = None
    generators: Optional[np.ndarray] = None
    if found.packed:  # a basis kept packed; unpacked as well only while it is small
        words = found.kernel
        if len(words) * cells <= EAGER_PATTERN_BYTES:
            generators = unpack_rows(words, cells).view(np.uint8)
    elif found.kernel_batches is not None:  # made on demand: with the solution only while small
        if found.nullity * cells <= EAGER_PATTERN_BYTES:
            generators = found.kernel_rows(cells)
    else:
        generators = found.kernel
    first_rows = None
    if generators is not None:
        first_rows = generators.reshape((-1,) + lights.shape)[:, 0].copy()
    elif words is not None:
        first_rows = unpack_rows(words, cells // lights.shape[0]).view(np.uint8).reshape((-1,) + lights.shape[1:])
    presses = np.asarray(found.particular, dtype=np.uint8).reshape(lights.shape)
    solution = Solution(lights.copy(), presses.astype(bool) if states == 2 else presses, found.nullity, found.method,
                        first_rows, nodes=nodes, quiet_count=found.count, quiet_generators=generators,
                        quiet_words=words, rules=rules)
    if not solution.verify():
        raise InternalError(f"the {found.method} route's answer does not clear the board")
    return solution


def _left_kernel_unsolvable(found: Coset, rules: Rules, lights: np.ndarray) -> UnsolvableError:
    """The UnsolvableError of a board under a stencil or masks: its proof is weights on the required lights."""
    proof = np.asarray(found.proof, dtype=np.uint8).reshape(rules.shape)
    weighted = int((proof.astype(np.int64) * lights.astype(np.int64)).sum()) % rules.states
    if not weighted or proof[~rules.required_lights()].any():
        raise InternalError(f"the {found.method} route's proof does not prove the board unsolvable")
    quiet = rules.press_stencil.is_symmetric and all(mask is None for mask in rules.masks())
    return left_kernel_error(f"this board ({rules.describe()})", found.nullity, rules.states,
                             proof, weighted, quiet=quiet)


def _solution_by_first_rows(found: Coset, rules: Rules, lights: np.ndarray,
                            words: Optional[np.ndarray]) -> Solution:
    """A Solution of an open 2-D grid from first rows: the canonical first row, chased down the board."""
    nrows, ncols = rules.shape
    if words is None:
        words = pack_rows(lights)
        snapshot: Union[np.ndarray, PackedBoard] = lights.copy()
    else:
        snapshot = PackedBoard(words, ncols)
    if not found.solvable:
        raise grid_unsolvable(found, words, lights, MAX_PATTERN_CELLS)
    assert found.first_row is not None
    quiet_first_rows = found.quiet_first_rows()
    first = found.first_row if found.canonical else canonical_first_row(found.first_row, quiet_first_rows)
    residue, presses, _ = kernels.chase.chase(words, nrows, ncols, pack_row(first), presses=True)
    if residue.any() or presses is None:
        raise InternalError(f"the {found.method} route's answer does not clear the board")
    return Solution(snapshot, unpack_rows(presses, ncols), found.nullity, found.method, quiet_first_rows,
                    rules=rules)
