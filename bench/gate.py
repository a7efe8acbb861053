"""Benchmark regression gate: compare a pytest-benchmark JSON run with the committed baseline.

Every benchmark's minimum time is divided by the calibration benchmark's minimum
from the same run (bench/bench_calibration.py), which cancels most of the
difference between machines and between a quiet and a busy one.  The gate fails
when a normalised figure is more than ``--factor`` (default 2) times its baseline.

Usage:
    python -m pytest bench -m "not slow" --benchmark-only --benchmark-json=bench-run.json
    python bench/gate.py bench-run.json                 # check (exit 1 on a regression)
    python bench/gate.py run1.json run2.json run3.json --update   # refresh bench/baseline.json

The baseline keeps, for every benchmark, the slowest normalised figure among
the runs given to --update: on a shared 2-core machine a single quick run can
be luckily fast, and a gate built on luck fails on noise.  Refresh it only on
purpose (a deliberate trade-off, a new benchmark) and commit it with the reason.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

BASELINE = Path(__file__).with_name("baseline.json")
CALIBRATION = "test_calibration_xor_4mib"


def normalised_times(run: dict) -> dict[str, float]:
    """{benchmark name: min seconds / calibration min seconds} for one pytest-benchmark JSON run."""
    mins = {b["name"]: float(b["stats"]["min"]) for b in run["benchmarks"]}
    if CALIBRATION not in mins:
        raise SystemExit(f"gate: the run has no {CALIBRATION} benchmark to normalise by")
    calibration = mins.pop(CALIBRATION)
    return {name: seconds / calibration for name, seconds in sorted(mins.items())}


def compare(current: dict[str, float], baseline: dict[str, float], factor: float) -> list[str]:
    """Lines of the report; those starting with 'FAIL' are regressions."""
    lines = []
    for name, ratio in current.items():
        if name not in baseline:
            lines.append(f"new   {name}: {ratio:.3f} (no baseline yet)")
            continue
        change = ratio / baseline[name]
        verdict = "FAIL " if change > factor else "ok   "
        lines.append(f"{verdict}{name}: {ratio:.3f} vs baseline {baseline[name]:.3f} ({change:.2f}x)")
    for name in sorted(set(baseline) - set(current)):
        lines.append(f"skip  {name}: not in this run (a SIMD level this CPU lacks, or deselected)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="+",
                        help="pytest-benchmark JSON file of this run (several with --update)")
    parser.add_argument("--factor", type=float, default=2.0, help="allowed slowdown (default 2)")
    parser.add_argument("--update", action="store_true", help="write this run as the new baseline")
    args = parser.parse_args(argv)
    runs = [normalised_times(json.loads(path.read_text())) for path in args.runs]
    if args.update:
        slowest = {name: max(run[name] for run in runs if name in run) for name in sorted(set().union(*runs))}
        BASELINE.write_text(json.dumps(slowest, indent=2, sort_keys=True) + "\n")
        print(f"gate: wrote {len(slowest)} normalised figures (slowest of {len(runs)} runs) to {BASELINE}")
        return 0
    if len(runs) != 1:
        parser.error("give exactly one run to check (several only with --update)")
    current = runs[0]
    baseline = json.loads(BASELINE.read_text())
    lines = compare(current, baseline, args.factor)
    print("\n".join(lines))
    failed = [line for line in lines if line.startswith("FAIL")]
    print(f"gate: {len(failed)} regression(s) beyond {args.factor}x among {len(current)} benchmarks")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
