"""Command line: ``lightsout first-row N [M]``, ``lightsout nullity N [M]``, ``lightsout solve FILE``."""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

import numpy as np

from lightsout import _errors
from lightsout.board import format_board, parse_board
from lightsout.solve import METHODS, UnsolvableError, first_row, nullity, solve


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
    p.add_argument("--method", choices=METHODS, default="auto")

    p = sub.add_parser("nullity", help="dimension of the quiet-pattern space of the N x M board")
    p.add_argument("n", type=_positive_int, help="rows")
    p.add_argument("m", type=_positive_int, nargs="?", help="columns (default: N)")
    p.add_argument("--method", choices=METHODS, default="auto")

    p = sub.add_parser("solve", help="solve a board read from a text file ('-' for standard input)")
    p.add_argument("file", help="one row per line: 1 # * x o lit, 0 . - _ dark")
    p.add_argument("--method", choices=METHODS, default="auto")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 unsolvable, 2 bad input).

    Example:
        >>> main(["first-row", "3"])
        101
        0
    """
    args = build_parser().parse_args(argv)
    try:
        if args.command == "first-row":
            row = first_row(args.n, args.m, method=args.method)
            sys.stdout.write("".join("1" if bit else "0" for bit in row) + "\n")
        elif args.command == "nullity":
            print(nullity(args.n, args.m, method=args.method))
        else:
            text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
            solution = solve(parse_board(text), method=args.method)
            print(format_board(solution.presses))
            print(f"# {int(np.count_nonzero(solution.presses))} presses; nullity {solution.nullity}, "
                  f"{solution.count} solutions", file=sys.stderr)
    except UnsolvableError as exc:
        print(f"lightsout: {exc}", file=sys.stderr)
        return 1
    except (_errors.LightsOutError, OSError) as exc:
        print(f"lightsout: {exc}", file=sys.stderr)
        return 2
    return 0
