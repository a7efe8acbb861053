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
try:  # the compiled modules; without them every import below would fail obscurely
    from lightsout._kernels import cpu as _cpu  # noqa: F401
except ImportError as _exc:  # pragma: no cover - exercised in a subprocess by the tests
    from lightsout._import_help import import_failure_message as _import_failure_message

    raise ImportError(_import_failure_message(__file__, _exc)) from None

from lightsout._version import DISTRIBUTION as _DISTRIBUTION  # the mark of this distribution's package

try:  # another distribution's lightsout/board.py (python-lightsout installs one) fails here: say so in one line
    from lightsout._base.errors import (
        BoardTooLargeError, InternalError, InvalidBoardError, InvalidTypeError, LightsOutError, MinimumNotProvenError,
        MissingExtraError, SettingError, UnsolvableError,
    )
    from lightsout._core.stencil import Stencil
    from lightsout._include import get_include
    from lightsout._io.boardfile import read_board, write_board
    from lightsout._io.boardmarks import MarkedBoard
    from lightsout._search.symmetry import board_symmetries
    from lightsout._solve import (
        METHODS, Solution, first_row, first_row_packed, is_solvable, nullity, nullity_table, solve, verify_first_row,
    )
    from lightsout.board import all_lit, chase, format_board, parse_board, press
    from lightsout.fewest import (bracketed_fewest_presses, distance_distribution, fewest_presses, fewest_presses_table,
                                  proven_fewest_presses)
    from lightsout import gf2, packed
    from lightsout.graph import solve_graph
    from lightsout.many import ManySolutions, solve_many
    from lightsout import picture
    from lightsout import limits
    from lightsout import boards
except ImportError as _exc:
    from lightsout._import_help import board_clash_message as _board_clash_message

    _clash = _board_clash_message()
    if _clash is None:
        raise
    raise ImportError(_clash) from None

from lightsout._version import __version__

__all__ = [
    "first_row", "first_row_packed", "verify_first_row", "nullity", "nullity_table", "solve", "is_solvable", "solve_graph", "Solution",
    "fewest_presses", "fewest_presses_table", "proven_fewest_presses", "bracketed_fewest_presses",
    "distance_distribution", "MinimumNotProvenError",
    "solve_many", "ManySolutions", "board_symmetries",
    "press", "chase", "all_lit", "parse_board", "format_board", "Stencil", "MarkedBoard",
    "UnsolvableError", "LightsOutError", "InvalidBoardError", "InvalidTypeError", "BoardTooLargeError",
    "SettingError", "InternalError",
    "METHODS", "gf2", "packed", "get_include", "__version__",
    "read_board", "write_board", "picture", "MissingExtraError", "limits",
    "boards",
]

#: Subpackages imported on first use (``lightsout.play`` starts no server but loads http.server).
# Public functions and classes report the package as their home, as numpy's and galois's do:
# ``lightsout.Solution``, not ``lightsout._solve.Solution``, in reprs, docs and pickles.
for _name in __all__:
    _public = globals()[_name]
    if (callable(_public) or isinstance(_public, type)) and getattr(_public, "__module__", "").startswith("lightsout."):
        _public.__module__ = "lightsout"
del _name, _public

_LAZY_SUBMODULES = ("play", "cli")


def __getattr__(name: str) -> object:
    """``lightsout.play`` and ``lightsout.cli`` work without importing them first.

    Example:
        >>> import lightsout
        >>> callable(lightsout.play.run_server)
        True
    """
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"lightsout.{name}")
    raise AttributeError(f"module 'lightsout' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))
