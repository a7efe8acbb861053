"""The result of a solve, on the public floor: the type, and its making from a route's coset.

- ``result``: :class:`Solution`, the result type (its rules one frozen value), and what it
  builds on request (quiet patterns, the fewest presses, counts up to symmetry, pictures).
- ``fromcoset``: a Solution from what a route found (canonical, replayed), or the
  UnsolvableError that proves the board has none.
"""
from lightsout._solution.fromcoset import EAGER_PATTERN_BYTES, solution_from_coset
from lightsout._solution.result import MAX_PATTERN_CELLS, PackedBoard, Solution

__all__ = ["EAGER_PATTERN_BYTES", "MAX_PATTERN_CELLS", "PackedBoard", "Solution", "solution_from_coset"]
