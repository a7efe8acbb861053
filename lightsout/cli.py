"""Command line: ``lightsout first-row | solve | nullity | render | play`` (also ``python -m lightsout``).

Exit status: 0 success, 1 the board is unsolvable (the reason on standard
error), 2 bad input or usage (or a setting this machine cannot honour, a
missing optional extra, or standard output closed), 3 a first row that failed
``--verify`` (a bug: please report it), 130 interrupted (Ctrl-C), 143 and 129 stopped by SIGTERM and SIGHUP (128 + the signal; handled as Ctrl-C,
so a render in progress removes its partial file), 141 standard output closed
by the reader (a broken pipe, as ``| head`` does: nothing is printed, the shell
convention of 128 + SIGPIPE).  Every failure is one line on standard error,
starting ``lightsout:`` (argparse's refusals: its usage line, then its message);
under ``--json`` (or ``--format json``) it is also one JSON object on standard
output, ``{"error": message, "exit_status": status}``, and an unsolvable board
the record of ``solve --json`` with the proof (``proof``, the weights on the lights
that sum to a nonzero value; for today's symmetric rules also ``quiet_pattern``).

``first-row``, ``solve`` and ``nullity`` take a press rule (``--stencil NAME`` or
``--stencil-file PATH``; ``first-row`` prints the top r rows of a stencil that chases r rows
down, one line each), and ``solve`` reads the board masks that a board file marks (``~`` a hole, a
trailing ``/`` unpressable, a trailing ``'`` a free light).

Results go to standard output; summaries go to standard error as comment
lines (``! ...``, the board files' comment mark), so either stream can be fed
back to ``solve``.  Progress is shown on standard error for work that takes
more than a second, only when it is a terminal (tqdm bars with the ``progress``
extra, else a line of text); ``--quiet`` turns it and the summaries off.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import signal
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any, Iterator, NoReturn, Optional, Sequence, TextIO

import numpy as np

from lightsout._import_help import clash_message

_CLASH = clash_message()
if _CLASH is not None:  # another distribution's lightsout: the imports below would fail obscurely
    raise ImportError(_CLASH)

from lightsout._base import errors as _errors  # noqa: E402 (after the check)
from lightsout._base.validate import MAX_STATES, states_count, torus_axes
from lightsout._cli.progress import ProgressBar
from lightsout._core.stencil import STENCIL_NAMES, Stencil
from lightsout._io.boardfile import decode_text, read_board, write_board
from lightsout._io.boardmarks import MarkedBoard
from lightsout._io.boardtext import board_from_text, marked_board_from_text
from lightsout._solve import METHODS, UnsolvableError, first_row, first_row_packed, nullity, nullity_table, solve
from lightsout.board import COMMENT, all_lit, format_board

EXIT_OK, EXIT_UNSOLVABLE, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 0, 1, 2, 130, 141
#: first-row --verify: the row failed its check (a bug in lightsout).
EXIT_NOT_VERIFIED = 3

#: Largest board ``solve`` draws on a terminal when ``--format auto`` (rows; columns must fit the width).
TERMINAL_ROWS = 60

EPILOG = f"""\
examples:
  lightsout first-row 5                 # row 1's presses, all-lit 5 x 5 board
  lightsout first-row 2000 3000 --format hex   # 2000 x 3000, packed in hex
  lightsout solve board.txt             # a board file: text, .npy or .png
  lightsout solve board.txt --json      # the same for programs: JSON
  lightsout solve board.txt --minimal --svg solution.svg
  lightsout solve --all-lit 6 --torus rows     # all-lit 6 x 6, rows wrap
  lightsout solve board.txt --stencil x  # a press: cell and diagonals
  lightsout nullity 19                  # dimension of 19 x 19's quiet patterns
  lightsout nullity --table 30 --csv    # nullities of 1 x 1 .. 30 x 30
  lightsout render 1000 -o presses.png  # all-lit presses, a pixel a cell
  lightsout play --no-browser           # the game in a web browser

board files: text, one row per line ('1 # * x X o O' lit, '0 . - _' dark,
  digits 0..K-1 with --states K, '{COMMENT}' starts a comment, blank lines
  ignored; masks: '~' a hole, a light followed by '/' may not be pressed, by
  "'" need not end dark); .npy arrays; PNG pictures, a pixel a cell (dark
  pixel = off, light = lit; K states: grey levels 0..255 in K even steps).
  '-' reads text from standard input.

press rules: --stencil NAME ({", ".join(STENCIL_NAMES)})
  or --stencil-file PATH, a grid of weights in board text (digits, '.' for
  0) whose middle cell is the pressed one (so each side odd).

output: results on standard output (solve: the presses in the board text
  format, or a picture in block characters on a terminal; --json or
  --format list for programs); summaries as '{COMMENT} ...' comment lines,
  progress and errors on standard error. -o FILE writes the result to FILE
  instead (.npy and .png names: board files).

exit status: 0 done, 1 unsolvable (the reason on standard error), 2 bad
  usage or input, 3 first-row --verify failed, 130 interrupted (Ctrl-C),
  143 and 129 stopped by SIGTERM and SIGHUP, 141 standard output closed by
  its reader. With --json every failure is also a JSON object on standard
  output.
"""


class UsageError(_errors.LightsOutError):
    """A combination of options the command line does not accept (exit 2)."""


class ArgumentsRefused(Exception):
    """argparse refused the arguments: the message, and the parser whose usage goes with it."""

    def __init__(self, message: str, parser: argparse.ArgumentParser) -> None:
        super().__init__(message)
        self.parser = parser


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose refusals :func:`main` reports (as JSON under ``--json``) instead of exiting."""

    def error(self, message: str) -> "NoReturn":
        raise ArgumentsRefused(message, self)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number 0..65535, got {text!r}")
    return value


def _states(text: str) -> int:
    """``--states K``: checked by the library's own rule, reported in argparse's words."""
    try:
        return states_count(int(text))
    except (ValueError, _errors.LightsOutError):
        raise argparse.ArgumentTypeError(f"expected an integer from 2 to {MAX_STATES}, got {text!r}") from None


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help, with one-line descriptions wrapped to the terminal and epilogs printed as written.

    A text without a line break (a description) is filled to the width like
    argparse's default; one with line breaks (the epilogs' tables of formats
    and examples) is kept as written.  The commands' names count toward the
    column where the help starts, so ``first-row`` keeps its help on its line.
    """

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return super()._fill_text(text, width, indent)
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent,
                             break_on_hyphens=False)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)  # "all-lit" stays whole

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        names = [choice.metavar or choice.dest for choice in getattr(action, "_choices_actions", [])]
        if names and hasattr(self, "_action_max_length"):  # the commands are listed one indent deeper
            longest = max(len(str(name)) for name in names) + self._current_indent + self._indent_increment
            self._action_max_length = max(self._action_max_length, longest)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``lightsout`` command.

    Example:
        >>> build_parser().parse_args(["first-row", "5"]).n
        5
    """
    from lightsout import __version__

    quiet = Parser(add_help=False)
    quiet.add_argument("-q", "--quiet", action="store_true", help="no progress and no summary lines on standard error")
    rules = Parser(add_help=False)
    _add_rules(rules)
    stencil = Parser(add_help=False)
    _add_stencil(stencil)
    raw = HelpFormatter

    parser = Parser(
        prog="lightsout", formatter_class=raw, epilog=EPILOG,
        description="Solve Lights Out boards of any size over GF(2) (and Z/k): first rows of all-lit boards, "
                    "board files, nullities, pictures.")
    parser.add_argument("--version", action="version", version=f"lightsout {__version__}")
    sub = parser.add_subparsers(title="commands", dest="command", required=True, metavar="COMMAND",
                                help="'lightsout COMMAND --help' shows its options, formats and examples")

    p = sub.add_parser(
        "first-row", parents=[rules, stencil, quiet], formatter_class=raw,
        help="first row of presses that clears the all-lit N x M board",
        description="The presses of row 1 that, chased down, clear the all-lit N x M board (the canonical one "
                    "when there are several).  Under a stencil whose top row, r rows above the pressed cell, "
                    "is one weight invertible mod K, the top r rows: one line each.",
        epilog="formats:\n  bits  one digit a column, 1 = press (K > 10 states: numbers and spaces)\n"
               "  hex   the row packed as lightsout.packed does (column j is bit j % 8 of\n"
               "        byte j // 8), bytes in hex: np.unpackbits(np.frombuffer(\n"
               "        bytes.fromhex(s), np.uint8), bitorder='little')[:M] reads it back\n"
               "  npy   a numpy .npy array (bool; uint8 for K states); binary, so with -o FILE\n"
               "        or standard output redirected\n"
               "  json  one object: shape, states, torus, self_toggle, rows (r, the rows the\n"
               "        chase starts from), first_rows (a list of r rows)\n"
               "  (with r > 1 rows: bits and hex write a line a row, npy an r x M array)\n\n"
               "examples:\n  lightsout first-row 5\n  lightsout first-row 300 500 --format hex\n"
               "  lightsout first-row 2000 -o row.npy\n  lightsout first-row 6 --torus --states 3")
    p.add_argument("n", metavar="N", type=_positive_int, help="rows")
    p.add_argument("m", metavar="M", type=_positive_int, nargs="?", help="columns (default: N)")
    p.add_argument("--format", choices=("bits", "hex", "npy", "json"), default=None,
                   help="output format (default: bits, or npy for an -o name ending .npy)")
    p.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")
    p.add_argument("-o", "--output", metavar="FILE", help="write the row to FILE instead of standard output")
    p.add_argument("--verify", action="store_true",
                   help="check the row clears the board before writing it (lightsout.verify_first_row); "
                        "exit status 3 if not")

    p = sub.add_parser(
        "solve", parents=[rules, stencil, quiet], formatter_class=raw,
        help="solve a board file ('-': standard input) or the all-lit board of --all-lit N [M]",
        description="Find presses that turn every light of the board off (the canonical solution, or with "
                    "--minimal the fewest presses).",
        epilog="formats:\n"
               "  auto     picture on a terminal when the board fits, else text (the default)\n"
               "  text     the presses as board text (1 = press; K states: press counts), which\n"
               "           reads back as a board file\n"
               "  picture  block characters, presses marked (colour on a terminal)\n"
               "  json     one object: shape, states, torus, self_toggle, solvable, presses\n"
               "           (nested lists), press_count, nullity, count (a decimal string),\n"
               "           method; with --minimal also fewest and proven_minimal; an\n"
               "           unsolvable board gives solvable false, the reason and its proof:\n"
               "           proof (weights on the lights), quiet_pattern and quiet_first_row\n"
               "           (null for a one-way rule or masks) (exit 1); any other failure\n"
               "           gives {\"error\": message, \"exit_status\": 2} (or 130, ...)\n"
               "  list     the cells to press, one 'row column' a line (0-based; K states:\n"
               "           'row column count')\n\n"
               "examples:\n  lightsout solve board.txt\n  lightsout solve board.txt --json\n"
               "  lightsout solve --all-lit 6 --torus rows\n"
               "  lightsout solve board.txt --format list\n  lightsout solve board.txt --png solution.png\n"
               "  lightsout solve board.txt --minimal -o presses.txt\n"
               "  lightsout solve --all-lit 41 --minimal --time-limit 600 --checkpoint run.json")
    p.add_argument("board", metavar="BOARD", nargs="?",
                   help=f"board file: text ({COMMENT} comments), .npy or .png; '-' reads text from standard input")
    p.add_argument("--all-lit", type=_positive_int, nargs="+", metavar=("N", "M"),
                   help="instead of a file: the all-lit board of N rows and M columns (default M = N); "
                        "with --states K every light in state 1")
    p.add_argument("--minimal", action="store_true", help="the solution with the fewest presses, proven")
    p.add_argument("--time-limit", type=_positive_float, metavar="SECONDS",
                   help="with --minimal: stop searching after SECONDS, keep the best found")
    p.add_argument("--checkpoint", metavar="FILE",
                   help="with --minimal (two states): keep the search's state in FILE and resume from it "
                        "(run the same command again after a time limit, Ctrl-C or a crash)")
    p.add_argument("--format", choices=("auto", "text", "picture", "json", "list"), default="auto",
                   help="output format (see below)")
    p.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour in pictures: auto = when standard output is a terminal and NO_COLOR is unset")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the result to FILE instead (.npy or .png: the presses as a board file)")
    p.add_argument("--png", metavar="FILE", help="also draw the board and its presses as a PNG picture")
    p.add_argument("--svg", metavar="FILE", help="also draw the board and its presses as an SVG picture")

    p = sub.add_parser(
        "nullity", parents=[rules, stencil, quiet], formatter_class=raw,
        help="dimension of the quiet-pattern space of the N x M board, or a table",
        description="The nullity of the N x M board: it has 2**nullity solutions when solvable.",
        epilog="examples:\n  lightsout nullity 19\n  lightsout nullity 4 7 --torus\n"
               "  lightsout nullity --table 20\n  lightsout nullity --table 8 10 --csv")
    p.add_argument("n", metavar="N", type=_positive_int, help="rows (with --table: the largest N)")
    p.add_argument("m", metavar="M", type=_positive_int, nargs="?",
                   help="columns (default: N; with --table: a rectangular table of M columns)")
    p.add_argument("--table", action="store_true", help="every size 1 x 1 .. N x N (or N x M)")
    p.add_argument("--csv", action="store_true", help="comma-separated values with a header line")
    p.add_argument("-o", "--output", metavar="FILE", help="write the result to FILE instead of standard output")

    p = sub.add_parser(
        "render", parents=[quiet], formatter_class=raw,
        help="the press pattern of the all-lit N x M board as a PNG, a pixel a cell",
        description="Write the canonical press pattern of the all-lit N x M board as a one-bit PNG, one pixel "
                    "a cell: white = press, black = no press (it reads back as a board file of the presses). "
                    "Rows are chased and written band by band, so memory stays small for any N "
                    "(20000 x 20000 in well under 300 MB).",
        epilog="examples:\n  lightsout render 1000 -o presses.png\n  lightsout render 300 500 -o wide.png")
    p.add_argument("n", metavar="N", type=_positive_int, help="rows")
    p.add_argument("m", metavar="M", type=_positive_int, nargs="?", help="columns (default: N)")
    p.add_argument("-o", "--output", metavar="FILE.png", required=True, help="the PNG file to write")
    p.add_argument("--method", choices=METHODS, default="auto", metavar="METHOD",
                   help=f"route for the first row: {METHOD_HELP}")
    p.add_argument("--threads", type=_positive_int, metavar="T", help=THREADS_HELP)

    p = sub.add_parser(
        "play", formatter_class=raw, help="play Lights Out in a web browser",
        description="Serve the game on a local web page (lightsout.play) until Ctrl-C.",
        epilog="examples:\n  lightsout play\n  lightsout play --port 8080 --no-browser")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    return parser


#: ``--torus AXES`` words: every axis, none, or the rows' axis (0) or the columns' axis (1) alone.
TORUS_WORDS: dict[str, Any] = {"all": True, "none": False, "rows": "rows", "cols": "cols", "columns": "cols"}


def torus_axes_arg(text: str) -> Any:
    """``--torus AXES``: ``all``, ``none``, ``rows``, ``cols`` or one 0/1 per axis separated by commas.

    Example:
        >>> torus_axes_arg("1,0"), torus_axes_arg("rows"), torus_axes_arg("all")
        ((True, False), 'rows', True)
    """
    word = text.strip().lower()
    if word in TORUS_WORDS:
        return TORUS_WORDS[word]
    flags = [flag.strip() for flag in word.split(",")]
    if len(flags) >= 2 and all(flag in ("0", "1") for flag in flags):
        return tuple(flag == "1" for flag in flags)
    raise argparse.ArgumentTypeError(f"expected all, none, rows, cols, or one 0/1 per axis separated by commas "
                                     f"(1,0: the rows wrap), got {text!r}")


def _is_torus_axes(text: str) -> bool:
    try:
        torus_axes_arg(text)
    except argparse.ArgumentTypeError:
        return False
    return True


def bare_torus_flags(argv: Sequence[str]) -> list[str]:
    """``argv`` with a ``--torus`` not followed by AXES written ``--torus=all``.

    So a bare ``--torus`` (every axis wraps, as before AXES existed) never takes
    the next argument, a size or a board file, for its AXES.

    Example:
        >>> bare_torus_flags(["first-row", "--torus", "5"]), bare_torus_flags(["nullity", "4", "--torus", "1,0"])
        (['first-row', '--torus=all', '5'], ['nullity', '4', '--torus', '1,0'])
    """
    out = list(argv)
    for index, token in enumerate(out):
        if token == "--":
            break
        if token == "--torus" and (index + 1 == len(out) or not _is_torus_axes(out[index + 1])):
            out[index] = "--torus=all"
    return out


def wraps_of(torus: Any, ndim: int) -> Any:
    """The ``torus=`` of the library for a ``--torus`` value on a board of ``ndim`` axes.

    Example:
        >>> wraps_of("rows", 2), wraps_of("cols", 3), wraps_of(True, 2)
        ((True, False), (False, True, False), True)
    """
    if torus not in ("rows", "cols"):
        return torus
    axis = 0 if torus == "rows" else 1
    if axis >= ndim:
        raise UsageError(f"--torus cols names the columns' axis (1), and this board has {ndim} axis; "
                         "use --torus or --torus all")
    return tuple(a == axis for a in range(ndim))


#: ``--method``'s help: the routes, and that the answer does not depend on them.
METHOD_HELP = ("auto (the default: poly for open 2-D two-state boards, else nd), poly, dense, nd, the "
               "graph routes forcing and elimination, or general (the whole system eliminated); the answer is "
               "the same, the time differs")
#: ``--threads``'s help, the library's meaning of ``threads=``.
THREADS_HELP = "the most threads to work on (default: every usable CPU; 1: this thread alone)"


def _add_rules(p: argparse.ArgumentParser) -> None:
    """The board-rule options of first-row, solve and nullity."""
    p.add_argument("--torus", nargs="?", const=True, default=False, type=torus_axes_arg, metavar="AXES",
                   help="the board wraps around: every axis, or the AXES given: rows (the first and last rows "
                        "are neighbours), cols (the first and last columns), all, none, or one 0/1 per axis "
                        "(1,0 = rows)")
    p.add_argument("--sigma", action="store_true", help="the sigma game: a press skips its own cell")
    p.add_argument("--states", type=_states, default=2, metavar="K",
                   help="lights with K states, 2..255 (a press adds 1 mod K); default 2")
    p.add_argument("--method", choices=METHODS, default="auto", metavar="METHOD", help=f"route: {METHOD_HELP}")
    p.add_argument("--threads", type=_positive_int, metavar="T", help=THREADS_HELP)


def _add_stencil(p: argparse.ArgumentParser) -> None:
    """The press-rule options of first-row, solve and nullity."""
    p.add_argument("--stencil", choices=STENCIL_NAMES, metavar="NAME",
                   help=f"press rule: {', '.join(STENCIL_NAMES)} (default: plus, today's rule)")
    p.add_argument("--radius", type=int, metavar="R",
                   help="how far --stencil plus, sigma, x or moore reaches (default 1): --stencil plus --radius 2")
    p.add_argument("--stencil-file", metavar="PATH",
                   help="press rule from a file: a grid of weights in board text (digits, '.' for 0), "
                        "the pressed cell in the middle")


def _rules(args: argparse.Namespace, ndim: int = 2) -> dict[str, Any]:
    rules = dict(torus=wraps_of(args.torus, ndim), self_toggle=not args.sigma, states=args.states,
                 method=args.method, threads=args.threads)
    stencil = _stencil_arg(args, ndim)
    if stencil is not None:
        rules["stencil"] = stencil
    return rules


def _stencil_arg(args: argparse.Namespace, ndim: int = 2) -> Any:
    """``--stencil NAME`` (with ``--radius R``) or the weights of ``--stencil-file PATH`` (centre: the middle
    cell), or None."""
    name, path = getattr(args, "stencil", None), getattr(args, "stencil_file", None)
    radius = getattr(args, "radius", None)
    if name is not None and path is not None:
        raise UsageError("give --stencil NAME or --stencil-file PATH, not both")
    if radius is not None:
        if name not in ("plus", "sigma", "x", "moore", "3x3"):
            raise UsageError("--radius goes with --stencil plus, sigma, x, moore or 3x3")
        if radius != 1:
            return Stencil.named(name, radius=radius, ndim=ndim)
    if path is None:
        return name
    return read_stencil_file(path, args.states)


def read_stencil_file(path: str, states: int = 2) -> np.ndarray:
    """The weights of a stencil file: board text (digits 0..k-1, '.' for 0), each side odd.

    The pressed cell is the middle one, so a side of even length has no middle and is refused.

    Example:
        >>> import os, pathlib, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "x.txt")
        >>> _ = pathlib.Path(path).write_text("1.1\\n.1.\\n1.1\\n")
        >>> read_stencil_file(path).tolist()
        [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
        >>> _ = pathlib.Path(path).write_text("11\\n")
        >>> read_stencil_file(path)
        Traceback (most recent call last):
        ...
        lightsout.cli.UsageError: ...: the stencil is 1 x 2 cells; its pressed cell is the middle one, so each side ...
    """
    weights = board_from_text(decode_text(Path(path).read_bytes(), path), states, path,
                              states_hint=", digits 0..K-1 with --states K")
    if any(size % 2 == 0 for size in weights.shape):
        size = " x ".join(map(str, weights.shape))
        raise UsageError(f"{path}: the stencil is {size} cells; its pressed cell is the middle one, so each side "
                         "must have an odd number of cells (pad a side with a row or column of 0)")
    return weights.astype(np.uint8)


def _read_board_arg(name: str, states: int) -> MarkedBoard:
    """The board named on the command line, with the masks its text marks: a file, or '-' for standard input."""
    if name != "-":
        return read_board(name, states, masks=True)
    if sys.stdin is None:
        raise OSError("standard input is closed")
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
    return marked_board_from_text(decode_text(data, "standard input"), states, "standard input")


def _board_arg(args: argparse.Namespace) -> MarkedBoard:
    """The board of ``solve`` and its masks: the file named, or the all-lit board of ``--all-lit N [M]``."""
    if (args.board is None) == (args.all_lit is None):
        raise UsageError("solve takes a board file (or '-' for standard input) or --all-lit N [M]"
                         + (", not both" if args.board is not None else ""))
    if args.all_lit is None:
        return _read_board_arg(args.board, args.states)
    if len(args.all_lit) > 2:
        raise UsageError(f"--all-lit takes N or N M (rows and columns), got {len(args.all_lit)} sizes")
    lit = all_lit(*args.all_lit)
    return MarkedBoard(lit if args.states == 2 else lit.astype(np.uint8))


def _stdout() -> TextIO:
    if sys.stdout is None:
        raise OSError("standard output is closed")
    return sys.stdout


def _is_terminal(stream: Optional[TextIO]) -> bool:
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _summary(args: argparse.Namespace, text: str) -> None:
    """Queue a summary comment line for standard error, printed when the progress bar is gone."""
    args.summaries.append(f"{COMMENT} {text}")


def _emit(args: argparse.Namespace, text: str) -> None:
    """Result text to -o FILE or standard output."""
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        _stdout().write(text)


def _emit_npy(args: argparse.Namespace, array: np.ndarray) -> None:
    """A numpy array to -o FILE (the name as given) or to standard output when it is redirected."""
    if args.output:
        with open(args.output, "wb") as handle:
            np.save(handle, array, allow_pickle=False)
        return
    out = _stdout()
    if _is_terminal(out) or not hasattr(out, "buffer"):
        raise UsageError("npy output is binary: give -o FILE or redirect standard output to a file")
    out.flush()
    np.save(out.buffer, array, allow_pickle=False)
    out.buffer.flush()


def _cmd_first_row(args: argparse.Namespace, progress: Any) -> int:
    fmt = args.format or ("npy" if args.output and args.output.lower().endswith(".npy") else "bits")
    if fmt == "hex" and args.states != 2:
        raise UsageError("--format hex writes two-state rows; use bits or npy with --states")
    rules = _rules(args)
    # One two-state row as bits or hex: written from its packed words (never one byte a column).
    packed = fmt in ("bits", "hex") and args.states == 2 and "stencil" not in rules
    try:
        if packed:
            words = first_row_packed(args.n, args.m, progress=progress, verify=args.verify,
                                     **{key: value for key, value in rules.items() if key != "states"})
        else:
            row = first_row(args.n, args.m, progress=progress, verify=args.verify, **rules)
    except _errors.InternalError as exc:
        _fail(f"not verified: {exc}")
        return EXIT_NOT_VERIFIED
    if args.verify:
        _summary(args, f"verified: this row clears the all-lit {args.n} x {args.m or args.n} board")
    if packed:
        _emit_packed_row(args, words, args.m or args.n, fmt, progress)
        return EXIT_OK
    rows = row.reshape(-1, row.shape[-1])  # one row, or the top r rows of a stencil that chases r rows
    if fmt == "npy":
        _emit_npy(args, row)
    elif fmt == "json":
        _emit(args, json.dumps({"shape": [args.n, args.m or args.n], "states": args.states,
                                "torus": list(torus_axes(rules["torus"], 2)),
                                "self_toggle": not args.sigma, "rows": len(rows),
                                "first_rows": rows.astype(int).tolist()}) + "\n")
    elif fmt == "hex":
        _emit(args, "".join(np.packbits(one.astype(bool), bitorder="little").tobytes().hex() + "\n" for one in rows))
    elif args.states <= 10 and len(rows) == 1:
        _emit_digits(args, row, progress)
    elif args.states <= 10:
        _emit(args, "".join((one.astype(np.uint8) + ord("0")).tobytes().decode("ascii") + "\n" for one in rows))
    else:
        _emit(args, "".join(" ".join(str(int(v)) for v in one) + "\n" for one in rows))
    return EXIT_OK


#: Cells of a row turned into text at a time: a billion-cell row never exists as one string, and
#: one write of 2 MB waits for the disk at most a few tenths of a second (one of 16 MB waited 0.73 s
#: at 10^10 columns: Ctrl-C is handled between two writes).
DIGIT_CHUNK = 1 << 21


def _write_pieces(args: argparse.Namespace, pieces: Iterator[str]) -> None:
    """Text made in pieces, to -o FILE or standard output, a piece at a time."""
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.writelines(pieces)
    else:
        _stdout().writelines(pieces)


def _emit_digits(args: argparse.Namespace, row: np.ndarray, progress: Any) -> None:
    """A row of states below 10 as one line of digits, to -o FILE or standard output, in chunks."""
    def pieces() -> Iterator[str]:
        for start in range(0, len(row), DIGIT_CHUNK):
            if progress is not None:
                progress("write", start, len(row))
            yield (row[start:start + DIGIT_CHUNK].astype(np.uint8) + ord("0")).tobytes().decode("ascii")
        yield "\n"

    _write_pieces(args, pieces())


#: Words of a packed row turned into text at a time: 2^21 columns as bits (2 MB), 512 KB of hex
#: (short writes, as DIGIT_CHUNK).
WRITE_WORDS = 1 << 15


def _emit_packed_row(args: argparse.Namespace, words: np.ndarray, ncols: int, fmt: str, progress: Any) -> None:
    """A packed two-state row of ``ncols`` columns as one line of bits or hex, in chunks of WRITE_WORDS words.

    Each chunk is made from its words alone, so the row never exists one byte a column (at 10^9
    columns 1 GB) nor as one string; progress is reported as stage ``write`` and Ctrl-C stops the
    output between two chunks (tens of milliseconds each).
    """
    nbytes = (ncols + 7) // 8
    raw = words.astype("<u8", copy=False).view(np.uint8)[:nbytes]   # column j: bit j % 8 of byte j // 8
    step = 8 * WRITE_WORDS

    def pieces() -> Iterator[str]:
        for start in range(0, nbytes, step):
            if progress is not None:
                progress("write", 8 * start, ncols)
            chunk = raw[start:start + step]
            if fmt == "hex":
                yield chunk.tobytes().hex()
            else:
                digits = np.unpackbits(chunk, count=min(8 * len(chunk), ncols - 8 * start), bitorder="little")
                digits += ord("0")
                yield digits.tobytes().decode("ascii")
        if progress is not None:
            progress("write", ncols, ncols)
        yield "\n"

    _write_pieces(args, pieces())


def _cmd_nullity(args: argparse.Namespace, progress: Any) -> int:
    rules = _rules(args)
    if not args.table:
        value = nullity(args.n, args.m, **rules)
        m = args.m or args.n
        _emit(args, f"n,m,nullity\n{args.n},{m},{value}\n" if args.csv else f"{value}\n")
        return EXIT_OK
    wraps = rules["torus"]
    plain = (not any(wraps) if isinstance(wraps, tuple) else not wraps) and not args.sigma and args.states == 2 \
        and args.method in ("auto", "poly") and "stencil" not in rules
    if plain:
        table = nullity_table(args.n, args.m, progress=progress)
    else:
        table = np.array([[nullity(i, j, **rules) for j in range(1, args.m + 1)] if args.m else
                          nullity(i, i, **rules) for i in _counted(range(1, args.n + 1), progress)],
                         dtype=np.int64)
    sep = "," if args.csv else " "
    lines = []
    if args.m is None:
        width = len(str(args.n))
        lines.append("n,nullity" if args.csv else f"{COMMENT} n nullity")
        lines += [f"{i}{sep}{v}" if args.csv else f"{i:>{width}} {v}" for i, v in enumerate(table.tolist(), 1)]
    else:
        lines.append(("n\\m," if args.csv else f"{COMMENT} n\\m ") + sep.join(str(j) for j in range(1, args.m + 1)))
        lines += [f"{i}{sep}" + sep.join(str(v) for v in row) for i, row in enumerate(table.tolist(), 1)]
    _emit(args, "\n".join(lines) + "\n")
    return EXIT_OK


def _counted(values: range, progress: Any) -> Any:
    for index, value in enumerate(values):
        yield value
        if progress is not None:
            progress("nullity_table", index + 1, len(values))


def _cmd_solve(args: argparse.Namespace, progress: Any) -> int:
    from lightsout import picture

    if args.time_limit is not None and not args.minimal:
        raise UsageError("--time-limit bounds the --minimal search; give --minimal too")
    if args.checkpoint is not None and not args.minimal:
        raise UsageError("--checkpoint keeps the state of the --minimal search; give --minimal too")
    marked = _board_arg(args)
    board, masks = marked.lights, marked.masks()
    if (args.png or args.svg) and board.ndim > 2:
        raise UsageError(f"--png and --svg draw 1-D and 2-D boards; this board has shape {board.shape}")
    if args.png and board.size > picture.MAX_PNG_CELLS:
        raise UsageError(f"--png draws at most {picture.MAX_PNG_CELLS} cells; write the presses a pixel a cell "
                         "with -o presses.png")
    if args.svg and board.size > picture.MAX_SVG_CELLS:
        raise UsageError(f"--svg draws at most {picture.MAX_SVG_CELLS} cells; use --png or -o presses.png")
    fmt = args.format
    try:
        solution = solve(board, minimal=args.minimal, time_limit=args.time_limit, progress=progress,
                         checkpoint=args.checkpoint, **_rules(args, board.ndim), **masks)
    except UnsolvableError as exc:
        if fmt == "json":
            pattern, first = exc.quiet_pattern, exc.quiet_first_row
            _emit(args, json.dumps({"shape": list(board.shape), "states": args.states,
                                    "torus": None if exc.torus is None else list(exc.torus),
                                    "self_toggle": exc.self_toggle, "solvable": False,
                                    "reason": unsolvable_message(exc), "nullity": exc.nullity, "method": exc.method,
                                    "quiet_pattern": None if pattern is None else pattern.astype(int).tolist(),
                                    "quiet_first_row": None if first is None else np.asarray(first).astype(int).tolist(),
                                    "proof": None if exc.proof is None else exc.proof.astype(int).tolist(),
                                    }) + "\n")
        raise
    presses = solution.presses
    npress = int(presses.sum(dtype=np.int64))
    if args.png:
        picture.Picture(board, presses, states=args.states, **masks).save(args.png)
    if args.svg:
        picture.Picture(board, presses, states=args.states, caption=repr(solution), **masks).save(args.svg)
    binary = args.output and Path(args.output).suffix.lower() in (".npy", ".png")
    if binary:
        write_board(args.output, presses, args.states)
    elif fmt == "json":
        record: dict[str, Any] = {
            "shape": list(board.shape), "states": args.states, "torus": list(solution.torus),
            "self_toggle": solution.self_toggle, "solvable": True, "presses": presses.astype(int).tolist(),
            "press_count": npress, "nullity": solution.nullity, "count": str(solution.count),
            "method": solution.method}
        if args.minimal:
            record.update(fewest=npress, proven_minimal=solution.proven_minimal, lower_bound=solution.lower_bound)
        _emit(args, json.dumps(record) + "\n")
    elif fmt == "list":
        _emit(args, "".join(" ".join(str(i) for i in (cell if args.states == 2 else (*cell[0], cell[1]))) + "\n"
                            for cell in solution.press_list()))
    else:
        out = None if args.output else _stdout()
        if fmt == "auto":
            marks = 0 if not masks else 1 + sum(name in masks for name in ("unpressable", "free_lights"))
            fmt = "picture" if out is not None and _is_terminal(out) and _fits_terminal(board, marks) else "text"
        if fmt == "picture":
            if board.ndim > 2:
                raise UsageError(f"pictures are of 1-D and 2-D boards; this board has shape {board.shape}")
            color = args.color == "always" or (args.color == "auto" and out is not None and _is_terminal(out)
                                               and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb")
            _emit(args, picture.board_blocks(board, presses, states=args.states, color=color, **masks) + "\n")
        else:
            _emit(args, _press_text(presses, args.states) + "\n")
    if fmt != "json":
        how = ("; fewest, proven" if solution.proven_minimal else
               f"; fewest found before the time limit, not proven: the fewest is in [{solution.lower_bound}, {npress}]"
               if args.minimal else "")
        _summary(args, f"{_plural(npress, 'press', 'presses')}{how}; nullity {solution.nullity}, "
                       f"{_plural(solution.count, 'solution')}")
    return EXIT_OK


#: How the command line names the proof of an unsolvable board (Python names its attributes).
CLI_WORDS = ("a quiet pattern (presses that change no light; solve --json prints it as quiet_pattern)",
             "a quiet pattern (presses that change no light; solve --json prints its first row as quiet_first_row)")


def unsolvable_message(error: UnsolvableError) -> str:
    """Why a board is unsolvable, in the command line's words.

    Example:
        >>> from lightsout import solve
        >>> try:
        ...     solve([[1, 0, 0]], self_toggle=False)
        ... except UnsolvableError as error:
        ...     print(unsolvable_message(error))
        this board of shape (1, 3) cannot be turned dark: a quiet pattern (presses that change no light; solve --json prints it as quiet_pattern) covers 1 lit cell, an odd number, and every solvable board meets every quiet pattern an even number of times
    """
    reason = getattr(error, "reason", None)
    return str(error) if reason is None else str(reason.message(CLI_WORDS))


def _plural(count: int, one: str, many: str = "") -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _fits_terminal(board: np.ndarray, marks: int = 0) -> bool:
    """Whether the board and its presses fit the terminal drawn with ``marks`` mask characters after each cell."""
    if board.ndim > 2:
        return False
    rows, cols = (1, int(board.shape[0])) if board.ndim == 1 else (int(board.shape[0]), int(board.shape[1]))
    return rows <= TERMINAL_ROWS and 2 * (2 + marks) * cols + 8 <= shutil.get_terminal_size().columns


def _press_text(presses: np.ndarray, states: int) -> str:
    if presses.ndim <= 2:
        return format_board(presses.reshape(1, -1) if presses.ndim == 1 else presses, states=states)
    blocks = []
    for index in np.ndindex(*presses.shape[:-2]):
        label = ", ".join(str(i) for i in index)
        blocks.append(f"{COMMENT} presses[{label}, :, :]\n" + format_board(presses[index], states=states))
    return "\n".join(blocks)


def _cmd_render(args: argparse.Namespace, progress: Any) -> int:
    from lightsout.picture import render_presses

    if not args.output.lower().endswith(".png"):
        raise UsageError(f"render writes a PNG: give an output name ending .png, got {args.output!r}")
    count = render_presses(args.output, args.n, args.m, method=args.method, threads=args.threads, progress=progress)
    _summary(args, f"wrote {args.output}: {args.n} x {args.m or args.n} pixels, {count} presses (white)")
    return EXIT_OK


def _cmd_play(args: argparse.Namespace) -> int:
    try:
        play = importlib.import_module("lightsout.play")
    except ModuleNotFoundError as exc:
        if exc.name != "lightsout.play":
            raise
        _fail("the play command is not part of this installation (the lightsout.play package is missing)")
        return EXIT_USAGE
    play.run_server(host=args.host, port=args.port, open_browser=not args.no_browser)
    return EXIT_OK


def _run(args: argparse.Namespace) -> int:
    if args.command == "play":
        return _cmd_play(args)
    if sys.stdout is None:
        raise OSError("standard output is closed")
    args.summaries = []
    with ProgressBar(enabled=not args.quiet) as bar:
        command = {"first-row": _cmd_first_row, "nullity": _cmd_nullity, "solve": _cmd_solve,
                   "render": _cmd_render}[args.command]
        status = command(args, bar.callback)
    if sys.stdout is not None:
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, not at exit
    if args.summaries and not args.quiet and sys.stderr is not None:  # after the results, as a terminal shows
        print("\n".join(args.summaries), file=sys.stderr)
    return status


def _fail(message: str) -> None:
    if sys.stderr is not None:
        try:
            print(f"lightsout: {message}", file=sys.stderr)
        except OSError:
            pass


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):  # no real file descriptor (e.g. captured in tests)
        pass


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: unwinds as Ctrl-C does (kernels stop, partial files go), exit 128 + signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated(signum)


#: Signals that stop the command line as Ctrl-C does (where the platform has them).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status (see the module docstring).

    Example:
        >>> main(["first-row", "3"])
        101
        0
    """
    if threading.current_thread() is not threading.main_thread():
        return _main(argv)
    previous = {number: signal.signal(number, _raise_terminated) for number in STOP_SIGNALS}
    try:
        return _main(argv)
    finally:
        for number, handler in previous.items():  # None: a handler set outside Python
            signal.signal(number, signal.SIG_DFL if handler is None else handler)


def _interrupted(exc: KeyboardInterrupt, as_json: bool) -> int:
    if isinstance(exc, Terminated):
        return _failed(f"stopped by {signal.Signals(exc.signum).name}", 128 + exc.signum, as_json)
    return _failed("interrupted", EXIT_INTERRUPTED, as_json)


def _failed(message: str, status: int, as_json: bool) -> int:
    """Report a failure: one line on standard error, and under ``--json`` a JSON object on standard output."""
    _fail(message)
    if as_json:
        _json_failure(message, status)
    return status


def _json_failure(message: str, status: int) -> None:
    """``{"error": message, "exit_status": status}`` on standard output (``--json``'s failures)."""
    if sys.stdout is not None:
        try:
            sys.stdout.write(json.dumps({"error": message, "exit_status": status}) + "\n")
            sys.stdout.flush()
        except (OSError, ValueError):  # standard output closed too: the line on standard error says it
            pass


def asks_for_json(argv: Sequence[str]) -> bool:
    """Whether the arguments ask for JSON (``--json``, ``--format json``): then every failure is JSON too.

    Read from the arguments themselves, so that argparse's own refusals are JSON as well.

    Example:
        >>> asks_for_json(["solve", "b.txt", "--format", "json"]), asks_for_json(["solve", "b.txt"])
        (True, False)
    """
    words = list(argv)
    if "--" in words:
        words = words[:words.index("--")]
    return ("--json" in words or "--format=json" in words
            or any(a == "--format" and b == "json" for a, b in zip(words, words[1:])))


def _main(argv: Optional[Sequence[str]]) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    as_json = asks_for_json(words)
    try:
        args = build_parser().parse_args(bare_torus_flags(words))
    except KeyboardInterrupt as exc:
        return _interrupted(exc, as_json)
    except ArgumentsRefused as exc:  # argparse's usage line and message, as argparse prints them
        if sys.stderr is not None:
            exc.parser.print_usage(sys.stderr)
            print(f"{exc.parser.prog}: error: {exc}", file=sys.stderr)
        if as_json:
            _json_failure(f"{exc.parser.prog}: {exc}", EXIT_USAGE)
        return EXIT_USAGE
    try:
        return _run(args)
    except UnsolvableError as exc:  # under --json the record with the proof is out already
        _fail(unsolvable_message(exc))
        return EXIT_UNSOLVABLE
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt as exc:
        return _interrupted(exc, as_json)
    except (_errors.LightsOutError, OSError, ImportError) as exc:
        return _failed(str(exc) if not isinstance(exc, OSError) or not exc.filename else
                       f"{exc.filename}: {exc.strerror or exc}", EXIT_USAGE, as_json)
    except MemoryError as exc:  # a limit the checks before allocating did not foresee
        return _failed(f"out of memory{': ' + str(exc) if str(exc) else ''}; try a smaller size", EXIT_USAGE,
                       as_json)
