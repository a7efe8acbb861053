"""Command line: ``lightsout first-row N [M]``, ``lightsout nullity N [M]``, ``lightsout solve FILE``.

Exit status: 0 success, 1 the board is unsolvable, 2 bad input or usage (or a
setting this machine cannot honour, or standard output closed), 130
interrupted (Ctrl-C), 141 standard output closed by the reader (a broken pipe,
as ``| head`` does: nothing is printed, the shell convention of 128 + SIGPIPE).
Every failure is one line on standard error, starting ``lightsout:``.

Results go to standard output; the summary of ``solve`` goes to standard error
as a comment line (``! ...``), so either stream can be fed back to ``solve``.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

import numpy as np

from lightsout import _errors
from lightsout.board import COMMENT, format_board, parse_board
from lightsout.solve import METHODS, UnsolvableError, first_row, nullity, solve

EXIT_OK, EXIT_UNSOLVABLE, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 0, 1, 2, 130, 141


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``lightsout`` command.

    Example:
        >>> build_parser().parse_args(["first-row", "5"]).n
        5
    """
    parser = argparse.ArgumentParser(prog="lightsout", description="Solve Lights Out boards over GF(2).")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("first-row", help="first row of presses that clears the all-lit N x M board")
    p.add_argument("n", type=_positive_int, help="rows")
    p.add_argument("m", type=_positive_int, nargs="?", help="columns (default: N)")
    _add_rules(p)

    p = sub.add_parser("nullity", help="dimension of the quiet-pattern space of the N x M board")
    p.add_argument("n", type=_positive_int, help="rows")
    p.add_argument("m", type=_positive_int, nargs="?", help="columns (default: N)")
    _add_rules(p)

    p = sub.add_parser("solve", help="solve a board read from a text file ('-' for standard input)")
    p.add_argument("file", help=f"UTF-8 text, one row per line: 1 # * x o lit, 0 . - _ dark, digits 0..K-1 "
                                f"with --states K, {COMMENT} comment")
    _add_rules(p)
    return parser


def _add_rules(p: argparse.ArgumentParser) -> None:
    """The board-rule options every command takes."""
    p.add_argument("--torus", action="store_true", help="both axes wrap around")
    p.add_argument("--sigma", action="store_true", help="the sigma game: a press skips its own cell")
    p.add_argument("--states", type=_states, default=2, metavar="K",
                   help="lights with K states, 2..255 (a press adds 1 mod K); default 2")
    p.add_argument("--method", choices=METHODS, default="auto")


def _states(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer from 2 to 255, got {text!r}") from None
    if not 2 <= value <= 255:
        raise argparse.ArgumentTypeError(f"expected an integer from 2 to 255, got {value}")
    return value


def _read_board_text(name: str) -> str:
    """The text of board file ``name`` ('-': standard input), decoded as UTF-8 (a BOM allowed)."""
    if name == "-":
        if sys.stdin is None:
            raise OSError("standard input is closed")
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        name = "standard input"
    else:
        with open(name, "rb") as handle:
            data = handle.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _errors.InvalidBoardError(
            f"{name} is not UTF-8 text (byte {data[exc.start]:#04x} at offset {exc.start}); "
            "a board file is plain text, one row per line") from None


def _run(args: argparse.Namespace) -> int:
    out = sys.stdout
    if out is None:
        raise OSError("standard output is closed")
    rules = dict(torus=args.torus, self_toggle=not args.sigma, states=args.states, method=args.method)
    if args.command == "first-row":
        row = first_row(args.n, args.m, **rules)
        out.write(("".join(str(int(v)) for v in row) if args.states <= 10 else " ".join(str(int(v)) for v in row))
                  + "\n")
    elif args.command == "nullity":
        out.write(f"{nullity(args.n, args.m, **rules)}\n")
    else:
        solution = solve(parse_board(_read_board_text(args.file), states=args.states), **rules)
        out.write(format_board(solution.presses, states=args.states) + "\n")
        if sys.stderr is not None:
            print(f"{COMMENT} {int(solution.presses.sum(dtype=np.int64))} presses; nullity {solution.nullity}, "
                  f"{solution.count} solutions", file=sys.stderr)
    out.flush()  # a closed pipe shows here, inside the handler, not at exit
    return EXIT_OK


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


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status (see the module docstring).

    Example:
        >>> main(["first-row", "3"])
        101
        0
    """
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
    except UnsolvableError as exc:
        _fail(str(exc))
        return EXIT_UNSOLVABLE
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        _fail("interrupted")
        return EXIT_INTERRUPTED
    except (_errors.LightsOutError, OSError) as exc:
        _fail(str(exc) if not isinstance(exc, OSError) or not exc.filename else
              f"{exc.filename}: {exc.strerror or exc}")
        return EXIT_USAGE
