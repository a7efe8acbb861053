"""Benchmark regression gate: the candidate's figures against a reference run on the same machine.

Usage (bench/ab.py does all of this, interleaved, in CI)::

    python bench/gate.py --reference ref-1.json ref-2.json --candidate cand-1.json cand-2.json

Each JSON file is one pytest-benchmark process (``pytest bench --benchmark-json=...``).
The reference runs are the reference commit (``bench/reference``) timed in the same CI
run, on the same CPU, interleaved with the candidate's runs; no figure is carried from
one machine to another, so a benchmark that gains from AVX-512 on one CPU and not on
another cannot raise a false alarm (bench/GATE.md).

* Each benchmark's figure is the **2nd percentile of the active times** of its rounds (the
  fastest when there are fewer than 50), as recorded by the ``gate`` fixture
  (bench/conftest.py): wall time minus the time the thread waited for a CPU.  Not the
  minimum: one round in a thousand that the clock under-counts (a 13-microsecond call
  among 17-microsecond ones, seen in CI on 28 Nov 2026) would otherwise set the figure.
  Benchmarks written with the plain ``benchmark`` fixture fall back to pytest-benchmark's
  minimum wall time and are marked "(wall)".
* Each side keeps each benchmark's best figure over its processes.
* A benchmark **fails** when the candidate's figure is more than ``--factor`` (default
  1.3) times the reference's.  One that only the candidate has is "new" (never fails);
  one that only the reference has is "gone".
* The gate refuses to pass vacuously: when fewer than half of the candidate's
  benchmarks have a reference figure, the reference run is broken and the gate fails.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

DEFAULT_FACTOR = 1.3
MIN_COVERED = 0.5


@dataclass(frozen=True)
class Figure:
    """One benchmark's figure in one process: seconds, and whether it is active or wall time."""
    seconds: float
    kind: str  # "active" or "wall"


def typical_fastest(calls: list[float]) -> float:
    """The 2nd percentile of a benchmark's round times: the fastest below 50 rounds.

    Example:
        >>> typical_fastest([17.0] * 999 + [12.6]), typical_fastest([3.0, 1.0, 2.0])
        (17.0, 1.0)
    """
    return sorted(calls)[len(calls) // 50]


def summarise(run: dict[str, Any]) -> dict[str, Figure]:
    """Each benchmark of one pytest-benchmark JSON run as its figure, keyed by benchmark name."""
    figures = {}
    for bench in run.get("benchmarks", []):
        gate = bench.get("extra_info", {}).get("gate")
        if gate and gate.get("calls"):
            figures[bench["name"]] = Figure(typical_fastest(gate["calls"]), "active")
        else:
            figures[bench["name"]] = Figure(float(bench["stats"]["min"]), "wall")
    return figures


def best_of(runs: Iterable[dict[str, Figure]]) -> dict[str, Figure]:
    """Each benchmark's lowest figure over several runs (separate processes)."""
    best: dict[str, Figure] = {}
    for run in runs:
        for name, figure in run.items():
            if name not in best or figure.seconds < best[name].seconds:
                best[name] = figure
    return best


def load(paths: Iterable[Path]) -> dict[str, Figure]:
    """The best figures over the JSON files that exist (a process that crashed leaves none)."""
    return best_of(summarise(json.loads(path.read_text())) for path in paths if path.exists())


@dataclass(frozen=True)
class Verdict:
    """The gate's finding for one benchmark."""
    name: str
    status: str  # "ok", "FAIL", "new" or "gone"
    candidate: float | None
    reference: float | None
    kind: str

    @property
    def ratio(self) -> float | None:
        if self.candidate is None or self.reference is None:
            return None
        return self.candidate / self.reference

    def line(self) -> str:
        mark = " (wall)" if self.kind == "wall" else ""
        if self.status == "new":
            return f"new   {self.name}: {fmt(self.candidate)}{mark} (not in the reference)"
        if self.status == "gone":
            return f"gone  {self.name}: reference {fmt(self.reference)}{mark} (not in the candidate)"
        return (f"{self.status:<5} {self.name}: {fmt(self.candidate)}{mark} vs reference "
                f"{fmt(self.reference)} ({self.ratio:.2f}x)")


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e3:.3f} ms" if seconds < 1 else f"{seconds:.3f} s"


def verdicts(candidate: dict[str, Figure], reference: dict[str, Figure],
             factor: float = DEFAULT_FACTOR) -> list[Verdict]:
    """One verdict per benchmark of either side, sorted by name.

    >>> cand = {"a": Figure(1.5, "active"), "b": Figure(1.0, "active"), "c": Figure(1.0, "wall")}
    >>> ref = {"a": Figure(1.0, "active"), "b": Figure(1.0, "active"), "d": Figure(2.0, "active")}
    >>> [(v.name, v.status) for v in verdicts(cand, ref)]
    [('a', 'FAIL'), ('b', 'ok'), ('c', 'new'), ('d', 'gone')]
    """
    found = []
    for name in sorted(set(candidate) | set(reference)):
        cand, ref = candidate.get(name), reference.get(name)
        if cand is None:
            assert ref is not None
            found.append(Verdict(name, "gone", None, ref.seconds, ref.kind))
        elif ref is None:
            found.append(Verdict(name, "new", cand.seconds, None, cand.kind))
        else:
            status = "FAIL" if cand.seconds > factor * ref.seconds else "ok"
            found.append(Verdict(name, status, cand.seconds, ref.seconds, cand.kind))
    return found


def report(found: list[Verdict], factor: float = DEFAULT_FACTOR) -> tuple[list[str], bool]:
    """(lines to print, passed) for a list of verdicts."""
    lines = [verdict.line() for verdict in found]
    failed = [v for v in found if v.status == "FAIL"]
    compared = [v for v in found if v.status in ("ok", "FAIL")]
    in_candidate = [v for v in found if v.candidate is not None]
    new = len(in_candidate) - len(compared)
    ratios = [v.ratio for v in compared if v.ratio is not None]
    summary = (f"gate: {len(failed)} regression(s) beyond {factor}x among {len(compared)} benchmarks "
               f"compared ({new} new)")
    if ratios:
        summary += f"; candidate/reference from {min(ratios):.2f}x to {max(ratios):.2f}x"
    lines.append(summary)
    covered = len(compared) >= MIN_COVERED * max(1, len(in_candidate))
    if not covered:
        lines.append(f"gate: only {len(compared)} of {len(in_candidate)} benchmarks have a reference figure: "
                     "the reference run is broken (see its log)")
    return lines, covered and not failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reference", type=Path, nargs="+", required=True,
                        help="pytest-benchmark JSON files of the reference commit (best of them)")
    parser.add_argument("--candidate", type=Path, nargs="+", required=True,
                        help="pytest-benchmark JSON files of the code under test (best of them)")
    parser.add_argument("--factor", type=float, default=DEFAULT_FACTOR,
                        help="allowed slowdown (default %(default)s)")
    args = parser.parse_args(argv)
    lines, passed = report(verdicts(load(args.candidate), load(args.reference), args.factor), args.factor)
    print("\n".join(lines))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
