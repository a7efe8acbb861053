"""Two or more builds of the Walsh kernel side by side in one process: the exact search's rate.

Usage:
    python bench/walsh_ab.py OLD.so NEW.so                     # n = 65 and 119, 30 rounds
    python bench/walsh_ab.py OLD.so:-1:group NEW.so --boards 65 --rounds 40
    python bench/walsh_ab.py OLD.so:-2:group NEW.so --boards 119   # its m two lower there
    python bench/walsh_ab.py OLD.so:-1:group NEW.so NEW.so OLD.so:-1:group --boards 65 --whole

Each argument is a compiled kernel module (``lightsout/_kernels/walsh_<level>*.so`` of some
build, copied aside), optionally with ``:DELTA`` (that build's array bits m minus this
checkout's, for a build with another task size; it may differ from board to board, so give such
builds one board at a time) and ``:group`` (that build took the symmetric
search's low basis as the group gives it, ``prepare_cut(lane_bits=0)``).  The modules are
loaded under the name of this checkout's kernel for the CPU, so they must be built for the
same SIMD level and Python.

For each board the problems are made once by this checkout (lightsout/_search), as
bench/fewest_rate.py makes them; then every round runs each build on 128 tasks (at its m)
from the middle of the coset, plain and symmetric, in turn, and keeps each build's fastest
round: machines whose speed wanders from minute to minute still compare builds fairly.
Rates are coset elements per second of the measuring thread's CPU time; each build's
minimum over its tasks is printed beside them (builds with the same layout must agree).

With ``--whole``, each build in turn instead runs the whole symmetric search of each board on
one thread, every task least in its orbit (at n = 65 about a minute): 2^d over its CPU time,
the truest rate of the symmetric search, whose tasks crowd the low end of the coset.  Give a
build twice (ABBA) to see the machine's drift.
"""
from __future__ import annotations

import argparse
import importlib.util
import time
from typing import Any, NamedTuple

import numpy as np

import fewest_rate

#: Tasks of a build at this checkout's m (half as many for each bit more).
TASKS = 128


class Build(NamedTuple):
    """A kernel module and how its build laid out the search."""
    module: Any
    delta: int
    group_basis: bool


def parse_build(spec: str) -> tuple[str, int, bool]:
    """(path, m delta, group basis) of ``PATH[:DELTA[:group]]``.

    Example:
        >>> parse_build("old.so:-1:group"), parse_build("new.so")
        (('old.so', -1, True), ('new.so', 0, False))
    """
    path, _, rest = spec.partition(":")
    delta, _, basis = rest.partition(":")
    if basis not in ("", "group"):
        raise SystemExit(f"walsh_ab.py: {spec!r}: the third field may only be 'group'")
    return path, int(delta or 0), basis == "group"


def load(path: str) -> Any:
    """The kernel module at ``path``, loaded under this checkout's kernel's module name."""
    from lightsout import _kernels as kernels

    spec = importlib.util.spec_from_file_location(kernels.walsh.__name__, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"walsh_ab.py: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def problems(case: str, builds: list[Build]) -> tuple[Any, dict[tuple[int, bool], Any], tuple[int, int, int]]:
    """(plain problem, symmetric problem for each (delta, basis), this checkout's layout)."""
    from lightsout._search.cosetform import search_problem, task_layout

    coset, shape = fewest_rate.board_coset(case)
    plain = search_problem(coset)
    layout = task_layout(plain, 0)
    lanes, m, _ = layout
    nullity = plain.nullity
    symmetric = {}
    for build in builds:
        key = (build.delta, build.group_basis)
        if not 0 <= m + build.delta <= nullity - lanes:
            raise SystemExit(f"walsh_ab.py: m {m} + {build.delta} does not fit board {case} (nullity "
                             f"{nullity}, {lanes} lane bits)")
        if key not in symmetric:
            symmetric[key] = fewest_rate.symmetric_problem(coset, shape, lanes + m + build.delta,
                                                           0 if build.group_basis else lanes)
    return plain, symmetric, layout


def compare(case: str, builds: list[Build], rounds: int) -> None:
    """Print each build's rate, its ratio to the first build's, and its minimum, plain and symmetric."""
    from lightsout._search.orbitcut import representatives

    plain, symmetric, (lanes, m, task_bits) = problems(case, builds)
    for label in ("plain", "sym"):
        chosen = [plain if label == "plain" else symmetric[(b.delta, b.group_basis)] for b in builds]
        if any(problem is None for problem in chosen):
            continue
        warm = min(64, 1 << task_bits)
        bound = min(int(b.module.search_tasks(p.forms, p.values, p.nullity, m, lanes, 0, warm, p.bound, p.wide)[1])
                    for b, p in zip(builds, chosen))
        fastest = [float("inf")] * len(builds)
        spans = [0.0] * len(builds)
        minima = [0] * len(builds)
        for _ in range(rounds):
            for i, (build, problem) in enumerate(zip(builds, chosen)):
                bits = m + build.delta
                total = 1 << (task_bits - build.delta)
                count = TASKS >> build.delta if build.delta >= 0 else TASKS << -build.delta
                start = total // 2                       # the middle of the coset
                count = min(count, total - start)
                spans[i] = count * 2.0 ** (lanes + bits)
                args = (problem.forms, problem.values, problem.nullity, bits, lanes)
                tasks = None if label == "plain" else representatives(problem.orbits, start, start + count)
                began = time.thread_time()
                if tasks is None:
                    out = build.module.search_tasks(*args, start, start + count, bound, problem.wide)
                else:
                    out = build.module.search_task_list(*args, tasks, bound, problem.wide)
                fastest[i] = min(fastest[i], time.thread_time() - began)
                minima[i] = int(out[1])
        rates = [span / max(t, 1e-9) for span, t in zip(spans, fastest)]
        cells = "  ".join(f"{r:.3e} ({r / rates[0]:.2f}x, min {s})" for r, s in zip(rates, minima))
        print(f"{case:>6} {label:>6}  m={m}  {cells}", flush=True)


def whole(case: str, specs: list[str], builds: list[Build]) -> None:
    """Print each build's whole symmetric search of the board: CPU seconds, minimum, rate."""
    from lightsout._search.orbitcut import representatives

    _, symmetric, (lanes, m, task_bits) = problems(case, builds)
    tasks = {}
    for build in builds:
        key = (build.delta, build.group_basis)
        if key not in tasks and symmetric[key] is not None:
            total = 1 << (task_bits - build.delta)
            tasks[key] = np.concatenate([representatives(symmetric[key].orbits, start, min(start + (1 << 20), total))
                                         for start in range(0, total, 1 << 20)])
    for spec, build in zip(specs, builds):
        problem = symmetric[(build.delta, build.group_basis)]
        if problem is None:
            print(f"{case:>6} has no symmetric search")
            return
        args = (problem.forms, problem.values, problem.nullity, m + build.delta, lanes)
        warm = min(64, 1 << (task_bits - build.delta))
        bound = int(build.module.search_tasks(*args, 0, warm, problem.bound, problem.wide)[1])
        began = time.thread_time()
        out = build.module.search_task_list(*args, tasks[(build.delta, build.group_basis)], bound, problem.wide)
        seconds = time.thread_time() - began
        print(f"{case:>6} whole  {spec}: {seconds:.1f} s, min {int(out[1])}, {2.0 ** problem.nullity / seconds:.3e}",
              flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="+", help="PATH[:DELTA[:group]] of each build's kernel module")
    parser.add_argument("--boards", nargs="+", default=["65", "119"], help="n or nxm (default 65 119)")
    parser.add_argument("--rounds", type=int, default=30, help="rounds, the fastest kept (default 30)")
    parser.add_argument("--whole", action="store_true", help="each build's whole symmetric search instead")
    args = parser.parse_args(argv)
    builds = [Build(load(path), delta, group) for path, delta, group in map(parse_build, args.builds)]
    print("# elements a core-second" + ("" if args.whole else " (ratio to the first build, minimum over the tasks)"))
    for case in args.boards:
        if args.whole:
            whole(case, args.builds, builds)
        else:
            compare(case, builds, args.rounds)


if __name__ == "__main__":
    main()
