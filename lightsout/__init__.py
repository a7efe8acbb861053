"""lightsout: solve Lights Out boards of any size on bit-packed GF(2) kernels.

Pressing a cell toggles it and its orthogonal neighbours; a board is solved by
the set of cells to press (each at most once, in any order) that turns every
light off.

Example:
    >>> import lightsout
    >>> lightsout.first_row(3).astype(int).tolist()
    [1, 0, 1]
    >>> lightsout.nullity(5)
    2
"""
from lightsout import gf2
from lightsout._errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError, LightsOutError
from lightsout.board import all_lit, chase, format_board, parse_board, press
from lightsout.solve import (
    METHODS, Solution, UnsolvableError, first_row, is_solvable, nullity, nullity_table, solve,
)

__version__ = "0.1.0"

__all__ = [
    "first_row", "nullity", "nullity_table", "solve", "is_solvable", "Solution",
    "press", "chase", "all_lit", "parse_board", "format_board",
    "UnsolvableError", "LightsOutError", "InvalidBoardError", "InvalidTypeError", "BoardTooLargeError",
    "METHODS", "gf2", "__version__",
]
