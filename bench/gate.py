"""Benchmark regression gate: compare a pytest-benchmark JSON run with the committed baseline.

Usage:
    for i in 1 2; do
        python -m pytest bench -m "not slow" --benchmark-only --benchmark-json=bench-run$i.json
    done
    python bench/gate.py bench-run1.json bench-run2.json       # check (exit 1 on a regression)
    python bench/gate.py run1.json ... run5.json --update      # refresh bench/baseline.json

What is compared (the measurements behind each choice are in bench/GATE.md):

* Each benchmark's figure is the **minimum active time** of its rounds, as recorded by
  the ``gate`` fixture (bench/conftest.py): wall time minus the time the thread waited
  for a CPU, so a neighbour taking the core does not count; the minimum over a few
  hundred rounds drops the rounds that lost their caches to a neighbour.  Benchmarks
  written with the plain ``benchmark`` fixture fall back to pytest-benchmark's minimum
  wall time and are marked "(wall)".
* A check takes one or more runs, each a separate pytest process, and keeps each
  benchmark's best figure among them: now and then the machine has a slow phase of a
  few seconds (the calibration around the benchmark slows down just as much), and a
  second process rarely meets one on the same benchmark.  CI gives it two runs.
* The baseline keeps the **median** of the runs given to ``--update`` (a typical run,
  not the slowest one: a slow baseline hides real regressions).
* A benchmark **fails** when its figure is more than ``--factor`` (default 1.3) times
  its baseline.  On the loaded 2-core development machine unchanged code stayed
  within 1.03x (best of two processes), a 1.6x slowdown of ``first_row`` read 1.44x
  or more, and a 1.5x slowdown of every public entry point 1.35x or more.
* Calibration: a fixed numpy workload is timed before and after every benchmark in the
  same process.  Its run-wide median is compared with the baseline's; when the ratio
  is beyond ``--machine-band`` (default 1.3x either way) the run is on a different
  or throttled machine, and every figure is divided by that ratio before the
  comparison.  Within the band the figures are compared as measured, because on one
  machine the calibration moves by up to 20% from process to process for reasons
  (cache placement) that the benchmarks do not share, so dividing by it adds noise.
* A benchmark with no baseline is reported as "new" and never fails; one in the
  baseline but not in the run (a SIMD level this CPU lacks, a deselected test) is
  reported as "skip".  Refresh the baseline on purpose (a deliberate trade-off, a new
  benchmark) and commit it with the reason.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

BASELINE = Path(__file__).with_name("baseline.json")
FORMAT = 2


def summarise(run: dict[str, Any]) -> tuple[dict[str, float], dict[str, str], float | None]:
    """(figures in seconds, how each was measured, run-wide calibration seconds or None)."""
    figures: dict[str, float] = {}
    kinds: dict[str, str] = {}
    calibrations = []
    for bench in run["benchmarks"]:
        gate = bench.get("extra_info", {}).get("gate")
        if gate and gate.get("calls"):
            figures[bench["name"]] = min(gate["calls"])
            kinds[bench["name"]] = "active"
            cal = list(gate.get("before", [])) + list(gate.get("after", []))
            if cal:
                calibrations.append(min(cal))
        else:
            figures[bench["name"]] = float(bench["stats"]["min"])
            kinds[bench["name"]] = "wall"
    return figures, kinds, (statistics.median(calibrations) if calibrations else None)


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds < 1 else f"{seconds:.3f} s"


def compare(figures: dict[str, float], kinds: dict[str, str], baseline: dict[str, float],
            factor: float, scale: float = 1.0) -> list[str]:
    """Lines of the report; those starting with 'FAIL' are regressions."""
    lines = []
    for name in sorted(figures):
        seconds = figures[name] / scale
        mark = " (wall)" if kinds[name] == "wall" else ""
        if name not in baseline:
            lines.append(f"new   {name}: {fmt(seconds)}{mark} (no baseline yet)")
            continue
        change = seconds / baseline[name]
        verdict = "FAIL " if change > factor else "ok   "
        note = "  (faster: refresh the baseline?)" if change < 1 / factor else ""
        lines.append(f"{verdict}{name}: {fmt(seconds)}{mark} vs baseline {fmt(baseline[name])} "
                     f"({change:.2f}x){note}")
    for name in sorted(set(baseline) - set(figures)):
        lines.append(f"skip  {name}: not in this run (a SIMD level this CPU lacks, or deselected)")
    return lines


def best_of(runs: list[tuple[dict[str, float], dict[str, str], float | None]]
            ) -> tuple[dict[str, float], dict[str, str], float | None]:
    """Each benchmark's lowest figure over the runs (separate processes); the median calibration."""
    figures: dict[str, float] = {}
    kinds: dict[str, str] = {}
    for run_figures, run_kinds, _ in runs:
        for name, seconds in run_figures.items():
            if name not in figures or seconds < figures[name]:
                figures[name] = seconds
            kinds[name] = run_kinds[name]
    calibrations = [cal for _, _, cal in runs if cal is not None]
    return figures, kinds, (statistics.median(calibrations) if calibrations else None)


def update(runs: list[tuple[dict[str, float], dict[str, str], float | None]]) -> dict[str, Any]:
    names = sorted(set().union(*(figures for figures, _, _ in runs)))
    calibrations = [cal for _, _, cal in runs if cal is not None]
    return {
        "format": FORMAT,
        "statistic": f"median over {len(runs)} runs of each benchmark's minimum active seconds",
        "calibration": statistics.median(calibrations) if calibrations else None,
        "benchmarks": {name: statistics.median(figures[name] for figures, _, _ in runs if name in figures)
                       for name in names},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="+",
                        help="pytest-benchmark JSON files: the runs to check (best of them), or with --update "
                             "the runs whose median becomes the baseline")
    parser.add_argument("--factor", type=float, default=1.3, help="allowed slowdown (default 1.3)")
    parser.add_argument("--machine-band", type=float, default=1.3,
                        help="calibration ratio beyond which figures are rescaled (default 1.3)")
    parser.add_argument("--baseline", type=Path, default=BASELINE, help="baseline file (default: %(default)s)")
    parser.add_argument("--update", action="store_true", help="write the median of these runs as the baseline")
    args = parser.parse_args(argv)
    runs = [summarise(json.loads(path.read_text())) for path in args.runs]
    if args.update:
        data = update(runs)
        args.baseline.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        print(f"gate: wrote {len(data['benchmarks'])} figures (median of {len(runs)} runs) to {args.baseline}")
        return 0
    figures, kinds, calibration = best_of(runs)
    stored = json.loads(args.baseline.read_text())
    if stored.get("format") != FORMAT:
        print(f"gate: {args.baseline} is in an older format; refresh it with --update (see the docstring)")
        return 1
    scale = 1.0
    if calibration is not None and stored.get("calibration"):
        ratio = calibration / stored["calibration"]
        if ratio > args.machine_band or ratio < 1 / args.machine_band:
            scale = ratio
            print(f"gate: calibration {ratio:.2f}x of the baseline's: another machine; figures divided by it")
        else:
            print(f"gate: calibration {ratio:.2f}x of the baseline's: same machine; figures compared as measured")
    lines = compare(figures, kinds, stored["benchmarks"], args.factor, scale)
    print("\n".join(lines))
    failed = [line for line in lines if line.startswith("FAIL")]
    new = [line for line in lines if line.startswith("new")]
    print(f"gate: {len(failed)} regression(s) beyond {args.factor}x among {len(figures)} benchmarks"
          + (f" ({len(new)} new, no baseline)" if new else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
