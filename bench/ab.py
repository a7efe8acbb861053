"""A/B benchmark gate: time the reference commit and the candidate side by side, interleaved.

Usage (the last step of .ci/run)::

    .venv/bin/python bench/ab.py --candidate .venv

1. The reference is the commit named in ``bench/reference``.  When the package's code
   (``lightsout/``, ``setup.py``, ``pyproject.toml``) is the same there as in the work tree,
   both sides import the candidate's installed package.  Otherwise the reference is
   exported with ``git archive`` into ``<out>/ref-<hash>`` and its extensions built in
   place with the candidate virtualenv's Cython, setuptools and numpy
   (``setup.py build_ext --inplace``); the reference side runs with that folder on
   ``PYTHONPATH``.  Both sides share numpy, pytest and the benchmark code, and differ only
   in ``lightsout``.  The build is kept (a ``.built`` marker) and reused by later runs.
2. The candidate's ``bench/`` runs as separate pytest processes in the order reference,
   candidate, reference, candidate (``--runs`` pairs): a slow phase of the machine hits
   both sides alike, and no figure is carried from one CPU to another.
3. Benchmarks beyond the factor are timed again, ``--confirm`` more pairs of processes
   running only those, and the gate (bench/gate.py) judges each side's best figure.

Exit status: 0 pass, 1 regression (or a broken reference run), 2 the reference could not
be found or built.  A slowdown injected with ``LIGHTSOUT_BENCH_SLOWDOWN`` applies to the
candidate side only (bench/conftest.py).
"""
from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import gate  # noqa: E402  (bench/gate.py, beside this file)

REFERENCE_FILE = HERE / "reference"
PACKAGE_PATHS = ["lightsout", "setup.py", "pyproject.toml"]


class SetupError(RuntimeError):
    """The reference commit could not be found or built."""


def git(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=ROOT, text=True, capture_output=True, check=check)


def reference_commit() -> str:
    """The commit named by the ``commit <hash>`` line of bench/reference."""
    for line in REFERENCE_FILE.read_text().splitlines():
        key, _, value = line.partition(" ")
        if key == "commit" and value.strip():
            return value.strip()
    raise SetupError(f"{REFERENCE_FILE} has no 'commit <hash>' line")


def ensure_commit(commit: str) -> str:
    """The full hash of ``commit``, fetching more history where the clone is shallow."""
    def resolve() -> str | None:
        found = git("rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}", check=False)
        return found.stdout.strip() or None

    full = resolve()
    if full is None and git("rev-parse", "--is-shallow-repository", check=False).stdout.strip() == "true":
        print(f"ab: {commit} is not in this shallow clone; fetching the full history", flush=True)
        git("fetch", "--quiet", "--unshallow", check=False)
        full = resolve()
    if full is None:
        raise SetupError(f"the reference commit {commit} (bench/reference) is not in this repository")
    return full


def same_package_code(commit: str) -> bool:
    """Whether the work tree's package code equals the commit's."""
    return git("diff", "--quiet", commit, "--", *PACKAGE_PATHS, check=False).returncode == 0


def build_reference(commit: str, venv: Path, out: Path) -> Path:
    """Export the reference commit and build its extensions in place, with the candidate
    virtualenv's Cython, setuptools and numpy; returns the folder to put on PYTHONPATH."""
    source = out / f"ref-{commit[:12]}"
    marker = source / ".built"
    if marker.exists():
        print(f"ab: reusing the reference build in {source}", flush=True)
        return source
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True,
                             check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(source)
    started = time.monotonic()
    print(f"ab: building the reference {commit[:12]} in {source} (its package code differs from the "
          "work tree's)", flush=True)
    built = subprocess.run([str(venv / "bin" / "python"), "setup.py", "-q", "build_ext", "--inplace",
                            f"-j{os.cpu_count() or 1}"], cwd=source, text=True, capture_output=True)
    if built.returncode != 0:
        raise SetupError("building the reference failed:\n" + built.stdout[-3000:] + built.stderr[-3000:])
    marker.write_text(commit + "\n")
    print(f"ab: reference built in {time.monotonic() - started:.0f} s", flush=True)
    return source


def run_side(side: str, venv: Path, site: Path | None, out: Path, tag: str, nodes: list[str]) -> Path:
    """One pytest process of the benchmarks on one side; returns its JSON path."""
    result = out / f"bench-run-{side}-{tag}.json"
    result.unlink(missing_ok=True)
    env = dict(os.environ, LIGHTSOUT_BENCH_SIDE=side)
    env.pop("PYTHONPATH", None)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    targets = nodes or ["bench"]
    command = [str(venv / "bin" / "pytest"), *targets, "-m", "not slow", "--benchmark-only",
               f"--benchmark-json={result}", "-q", "-p", "no:cacheprovider",
               "--benchmark-columns=min,median,rounds"]
    started = time.monotonic()
    print(f"ab: {side} run {tag} ({len(nodes) or 'all'} benchmarks)", flush=True)
    status = subprocess.run(command, cwd=ROOT, env=env).returncode
    print(f"ab: {side} run {tag} ended with status {status} after {time.monotonic() - started:.0f} s", flush=True)
    return result


def node_ids(paths: list[Path], names: set[str]) -> list[str]:
    """pytest node ids ("fullname") of the named benchmarks, from JSON runs."""
    found = {}
    for path in paths:
        if path.exists():
            for bench in json.loads(path.read_text()).get("benchmarks", []):
                if bench["name"] in names:
                    found[bench["name"]] = bench["fullname"]
    return sorted(found.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--candidate", type=Path, default=ROOT / ".venv",
                        help="virtualenv with the candidate installed (default: .venv)")
    parser.add_argument("--reference", default=None,
                        help="reference commit (default: the one named in bench/reference)")
    parser.add_argument("--runs", type=int, default=2, help="pairs of full runs (default %(default)s)")
    parser.add_argument("--confirm", type=int, default=2,
                        help="pairs of runs that re-time the benchmarks beyond the factor (default %(default)s)")
    parser.add_argument("--factor", type=float, default=gate.DEFAULT_FACTOR,
                        help="allowed slowdown (default %(default)s)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench-ab",
                        help="folder for the runs and the reference build (default: bench-ab)")
    args = parser.parse_args(argv)
    venv = args.candidate.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    out = args.out.resolve()
    try:
        commit = ensure_commit(args.reference or reference_commit())
        if same_package_code(commit):
            print(f"ab: the package code equals the reference {commit[:12]}'s: both sides import the "
                  "candidate's build", flush=True)
            site = None
        else:
            site = build_reference(commit, venv, out)
    except (SetupError, subprocess.CalledProcessError, OSError) as error:
        print(f"ab: cannot set up the reference: {error}", file=sys.stderr)
        return 2

    reference_runs: list[Path] = []
    candidate_runs: list[Path] = []
    for index in range(1, args.runs + 1):
        reference_runs.append(run_side("reference", venv, site, out, f"{index}", []))
        candidate_runs.append(run_side("candidate", venv, None, out, f"{index}", []))
    found = gate.verdicts(gate.load(candidate_runs), gate.load(reference_runs), args.factor)
    suspects = {v.name for v in found if v.status == "FAIL"}
    for index in range(1, args.confirm + 1):
        if not suspects:
            break
        nodes = node_ids(candidate_runs, suspects)
        print(f"ab: confirming {len(nodes)} benchmark(s) beyond {args.factor}x: {' '.join(sorted(suspects))}",
              flush=True)
        reference_runs.append(run_side("reference", venv, site, out, f"confirm{index}", nodes))
        candidate_runs.append(run_side("candidate", venv, None, out, f"confirm{index}", nodes))
        found = gate.verdicts(gate.load(candidate_runs), gate.load(reference_runs), args.factor)
        suspects = {v.name for v in found if v.status == "FAIL"}
    lines, passed = gate.report(found, args.factor)
    print(f"ab: reference {commit[:12]} ({'same build' if site is None else 'built from git'}), "
          f"candidate {venv}; best of {len(reference_runs)} and {len(candidate_runs)} processes")
    print("\n".join(lines))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
