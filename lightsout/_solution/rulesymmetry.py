"""Solutions counted up to symmetry on a board with a press stencil or masks.

A permutation g of the cells (``image[i]``: where cell i goes) is a symmetry of such a board
when it keeps the system the board poses: every mask (holes, unpressable cells, free lights),
the required lights' values, and the press matrix restricted to required lights x pressable
cells (``A[g(v), g(p)] == A[v, p]``).  Then x -> x o g maps solutions to solutions, and
Burnside's lemma counts the orbits as the mean number of solutions each element fixes: the
solutions constant on g's cycles, found by solving the system with one unknown a cycle
(``lightsout/_core/modring.py``, any k).  A one-way stencil keeps fewer of the box's
symmetries than the plus rule: the default group is the box's symmetries that keep it.

Example:
    >>> import lightsout, numpy as np
    >>> s = lightsout.solve(np.ones((4, 4), dtype=int), stencil="x")
    >>> s.count, s.count_up_to_symmetry()
    (16, 4)
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InvalidBoardError
from lightsout._core.modring import solve_mod
from lightsout._core.rules import Rules
from lightsout._routes.general import press_entries, refuse_general
from lightsout._search.symmetry import (
    Permutation, close_group, cycle_labels, grid_symmetries, group_elements, orbit_count, permutation_of,
)

__all__ = ["count_orbits_general", "fixed_solution_count", "keeps_board"]


def _entries(rules: Rules) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The nonzero entries of the restricted press matrix as (light cell, pressed cell, weight mod k), summed."""
    required, pressable, parts = press_entries(rules)
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    lights = np.concatenate([required[rows] for rows, _, _ in parts])
    presses = np.concatenate([pressable[cols] for _, cols, _ in parts])
    weights = np.concatenate([np.full(len(rows), weight, dtype=np.int64) for rows, _, weight in parts])
    keys = lights * rules.cells + presses
    unique, where = np.unique(keys, return_inverse=True)
    total = np.bincount(where, weights=weights).astype(np.int64) % rules.states
    keep = total != 0
    return unique[keep] // rules.cells, unique[keep] % rules.cells, total[keep]


def keeps_board(rules: Rules, lights: np.ndarray, image: Permutation) -> bool:
    """Whether ``image`` keeps the required lights, the pressable cells and the restricted press matrix.

    Example:
        >>> rules = Rules.check((1, 3), stencil=[[0, 1, 1]])       # one-way: a press changes its cell and the next
        >>> keeps_board(rules, np.zeros(3, np.uint8), np.array([2, 1, 0]))     # the mirror reverses the rule
        False
    """
    # the masks as the system sees them: a free light or an unpressable cell inside a hole changes nothing
    # (and a free, unpressable cell is a hole in all but its picture)
    for cells in (rules.required_lights(), rules.pressable_cells()):
        flat = cells.ravel()
        if not np.array_equal(flat[image], flat):
            return False
    required = rules.required_lights().ravel()
    values = np.where(required, np.asarray(lights).ravel() % rules.states, 0)
    if not np.array_equal(values[image], values):
        return False
    rows, cols, weights = _entries(rules)
    order = np.lexsort((cols, rows))
    moved_rows, moved_cols = image[rows], image[cols]
    moved = np.lexsort((moved_cols, moved_rows))
    return bool(np.array_equal(rows[order], moved_rows[moved]) and np.array_equal(cols[order], moved_cols[moved])
                and np.array_equal(weights[order], weights[moved]))


def fixed_solution_count(rules: Rules, lights: np.ndarray, image: Permutation) -> int:
    """The number of solutions x of the board with ``x[image[i]] == x[i]`` (one unknown a cycle of pressable cells).

    Example:
        >>> rules = Rules.check((1, 2), stencil=[[1, 1, 1]])        # a press changes both cells
        >>> fixed_solution_count(rules, np.zeros(2, np.uint8), np.array([1, 0]))    # 00 and 11, both symmetric
        2
    """
    required, pressable, parts = press_entries(rules)
    labels = cycle_labels(image)
    cycles, unknown = np.unique(labels[pressable], return_inverse=True)
    matrix = np.zeros((required.size, cycles.size), dtype=np.int64)
    for rows, cols, weight in parts:
        np.add.at(matrix, (rows, unknown[cols]), weight)
    board = np.asarray(lights).ravel()[required].astype(np.int64) % rules.states
    if required.size == 0 or cycles.size == 0:
        return int(rules.states ** cycles.size) if not board.any() else 0
    system = solve_mod((matrix % rules.states).astype(np.uint8), (-board) % rules.states, rules.states)
    return system.count if system.solvable else 0


def count_orbits_general(rules: Rules, lights: np.ndarray, count: int, group: Optional[Any]) -> int:
    """Solutions up to the group: ``group`` None for the box's symmetries that keep the board, else generators.

    Raises:
        InvalidBoardError: a generator that is not a permutation of the cells, or not a symmetry
            of this board (its rule, masks and lights).

    Example:
        >>> rules = Rules.check((3,), stencil=[0, 1, 1])
        >>> count_orbits_general(rules, np.zeros(3), 1, [np.array([2, 1, 0])])
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: group element 0 is not a symmetry of this board: ...
    """
    refuse_general(rules)
    cells = rules.cells
    flat = np.asarray(lights).ravel()
    if group is None:
        if count == 1:
            return 1
        # every reversal and every exchange of equal-length axes is a candidate, wrapping or not: a
        # stencil may not see an axis's wrap (a press that reaches no neighbour along it), and the
        # press matrix, not the torus flags, decides what the board keeps
        open_axes = (False,) * len(rules.shape)
        elements = [g for g in grid_symmetries(rules.shape, open_axes) if keeps_board(rules, flat, g)]
    else:
        given = group_elements(group, rules.shape)
        generators = [permutation_of(value, cells, None, i) for i, value in enumerate(given)]
        for i, generator in enumerate(generators):
            if not keeps_board(rules, flat, generator):
                raise InvalidBoardError(f"group element {i} is not a symmetry of this board: it does not keep its "
                                        "press rule, masks and required lights (A[g(v), g(p)] must equal A[v, p])")
        elements = close_group(generators, cells)
    identity = np.arange(cells, dtype=np.int64)
    fixed = [count if np.array_equal(g, identity) else fixed_solution_count(rules, flat, g) for g in elements]
    return orbit_count(fixed)
