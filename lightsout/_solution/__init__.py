"""The result of a solve, on the public floor: the type, and its making from a route's coset.

- ``result``: :class:`Solution`, the result type (its rules one frozen value), and what it
  builds on request (quiet patterns, the fewest presses, counts up to symmetry, pictures).
- ``fromcoset``: a Solution from what a route found (canonical, replayed), or the
  UnsolvableError that proves the board has none.

Example:
    >>> import numpy as np
    >>> from lightsout._core.rules import Rules
    >>> from lightsout._routes.registry import ROUTES
    >>> rules, lights = Rules.check((3, 3)), np.ones((3, 3), dtype=bool)
    >>> solution = solution_from_coset(ROUTES["dense"].solve(rules, lights), rules, lights)
    >>> isinstance(solution, Solution), solution.rules == rules, solution.verify()
    (True, True, True)
"""
from lightsout._solution.fromcoset import EAGER_PATTERN_BYTES, solution_from_coset
from lightsout._solution.result import MAX_PATTERN_CELLS, PackedBoard, Solution

__all__ = ["EAGER_PATTERN_BYTES", "MAX_PATTERN_CELLS", "PackedBoard", "Solution", "solution_from_coset"]
