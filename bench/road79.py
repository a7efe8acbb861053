"""The road to n = 79: the fewest-press search's measured rate on this machine, and what n = 79 and the d = 48
cluster run cost at it.

Usage:
    python bench/road79.py                 # about a minute: 10 s of kernel time a board, one core
    python bench/road79.py --seconds 30    # a longer measurement

For each board (the all-lit 119 x 119 square, nullity 46; the 119 x 159 rectangle, nullity 48, the
only all-lit board up to 200 x 200 of that nullity; the 79 x 79 square, nullity 64) it builds the
search exactly as ``lightsout.fewest_presses`` / ``solve(minimal=True, executor=...)`` does: the
reduced coset, its histogram of forms, the symmetric cut by the box's symmetries (the square's 8,
the rectangle's 4: lightsout/_search/symmetry.py ``box_symmetries``, cut by a Sylow 2-subgroup in
lightsout/_search/orbitcut.py) and the jobs' split (lightsout/_search/jobs.py ``default_split``).
Then, on one core of this machine:

1. the kernel rate: tasks of the plain search weighed for ``--seconds`` at random places,
   coset elements per core-second (CPU seconds of the measuring thread, so that other
   work on a shared machine slows the measurement, not the figure);
2. the cut's real reduction: the share of tasks that are the least of their orbit (the only
   ones the cut weighs), counted at 64 random windows of 4096 tasks, and the cut's kernel
   (``search_task_list``) timed on some of them;
3. the cost: 2^d elements x that share / the rate, in core-hours, and the wall time on the
   workers of a LocalCluster of this machine (``--workers``, default: the usable cores).

The d = 48 job is ``python bench/cluster_fewest.py 119 159 --checkpoint d48.json`` (a LocalCluster;
kill it and run it again: it resumes).  Nothing here is a test: rates change with the machine's
load (two shared cores when these figures were taken).
"""
from __future__ import annotations

import argparse
import os
import time
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:   # the package is imported inside the functions: the gate's reference side is an older one
    from lightsout._search.cosetform import SearchProblem

BOARDS = ((119, 119), (119, 159), (79, 79))


class Road(NamedTuple):
    shape: tuple[int, int]
    nullity: int
    forms: int
    split: int
    layout: tuple[int, int, int]
    order: int                 # the cut's group order (1: no cut)
    share: float               # tasks the cut weighs, of all tasks
    elements_per_second: float  # plain kernel, one core
    cut_task_seconds: float    # the cut kernel's seconds per task weighed (one core)
    core_hours: float


def problems(shape: tuple[int, int]) -> tuple[SearchProblem, SearchProblem, int]:
    """The plain problem, the cut problem and the jobs' split, as the search builds them."""
    import lightsout
    from lightsout._search.cosetform import histogram, reduce_coset, search_problem, task_layout
    from lightsout._search.jobs import default_split
    from lightsout._search.orbitcut import prepare_cut
    from lightsout._search.symmetry import box_symmetries

    s = lightsout.solve(np.ones(shape, dtype=np.uint8))
    cells = s.board.size
    particular = s.presses.reshape(cells).astype(np.uint8)
    basis = s.quiet_patterns().reshape(-1, cells).astype(np.uint8)
    coset = reduce_coset(particular, basis)
    plain = search_problem(coset)
    lanes, m, _ = task_layout(plain, 0)
    cut = prepare_cut(box_symmetries(shape, (False, False), np.ones(cells, dtype=np.uint8)),
                      coset.rows, coset.pivots, coset.reduced, lanes + m, lane_bits=lanes)
    problem = plain if cut is None or cut.order == 1 else histogram(cut.rows, coset.reduced, cut.orbits)
    return plain, problem, default_split(problem, 1 if cut is None else cut.order)


def timed_tasks(problem: SearchProblem, layout: tuple[int, int, int], starts: np.ndarray,
                seconds: float) -> tuple[int, float]:
    """Tasks covered and CPU seconds spent, running from each start in turn for about ``seconds`` in all."""
    from lightsout._core.runner import Pace
    from lightsout._search.tasksearch import run_task_range

    covered, spent = 0, 0.0
    share = seconds / len(starts)
    for start in starts:
        stop_at = time.perf_counter() + share
        count = [0]

        def report(_found: bool, _total: int, _index: int, tasks: int, _ties: object) -> None:
            count[0] += tasks

        began = time.thread_time()
        run_task_range(problem, layout, int(start), 1 << layout[2], lambda: time.perf_counter() >= stop_at, report,
                       Pace())
        spent += time.thread_time() - began
        covered += count[0]
    return covered, spent


def measure(shape: tuple[int, int], seconds: float, rng: np.random.Generator) -> Road:
    from lightsout import _kernels as kernels
    from lightsout._search.cosetform import task_layout
    from lightsout._search.orbitcut import representatives

    plain, problem, split = problems(shape)
    plain_layout = task_layout(plain, split)
    starts = rng.integers(0, (1 << plain_layout[2]) - 4096, size=8, dtype=np.uint64)
    covered, spent = timed_tasks(plain, plain_layout, starts, seconds / 2)
    rate = covered * (1 << (plain_layout[0] + plain_layout[1])) / spent
    layout = lanes, m, task_bits = task_layout(problem, split)
    order, share, cut_seconds = 1, 1.0, spent / covered
    if problem.orbits is not None:
        order = int(problem.orbits.offsets.size) + 1
        windows = rng.integers(0, (1 << task_bits) - 4096, size=64, dtype=np.uint64)
        weighed = sum(representatives(problem.orbits, int(w), int(w) + 4096).size for w in windows)
        share = weighed / (64 * 4096)
        # the cut's own kernel on windows that hold representatives: seconds per task it weighs
        busy = [int(w) for w in windows if representatives(problem.orbits, int(w), int(w) + 4096).size][:8]
        if busy:
            chosen_total, spent_cut = 0, 0.0
            for w in busy:
                chosen = representatives(problem.orbits, w, w + 4096)
                began = time.thread_time()
                kernels.walsh.search_task_list(problem.forms, problem.values, problem.nullity, m, lanes, chosen,
                                               problem.bound, problem.wide)
                spent_cut += time.thread_time() - began
                chosen_total += chosen.size
                if spent_cut > seconds / 2:
                    break
            cut_seconds = spent_cut / chosen_total
    core_hours = (1 << task_bits) * share * cut_seconds / 3600
    return Road(shape, plain.nullity, len(plain.forms), split, layout, order, share, rate, cut_seconds, core_hours)


def main() -> None:
    import lightsout
    from lightsout import _kernels as kernels

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="kernel seconds a board (half plain, half cut)")
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)), help="cores of the cluster")
    parser.add_argument("--seed", type=int, default=79)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    wall, cpu = time.perf_counter(), time.process_time()
    print(f"lightsout {lightsout.__version__}, kernel build {kernels.selected_level()}, one core; "
          f"{args.seconds:g} s a board")
    roads = {}
    for shape in BOARDS:
        road = roads[shape] = measure(shape, args.seconds, rng)
        print(f"{shape[0]} x {shape[1]}: nullity {road.nullity}, {road.forms} forms, split {road.split} "
              f"({1 << road.split} jobs), layout {road.layout}: {road.elements_per_second:.3g} elements "
              f"a core-second (plain); cut of order {road.order} weighs {road.share:.4f} of the tasks "
              f"(1/{1 / road.share:.2f}) at {road.cut_task_seconds * 1e6:.1f} us a task: "
              f"{road.core_hours:.4g} core-hours", flush=True)
    d48, n79 = roads[(119, 159)], roads[(79, 79)]
    print(f"(this process had {(time.process_time() - cpu) / (time.perf_counter() - wall):.0%} of a core while it "
          f"measured; the load average was {os.getloadavg()[0]:.1f})")
    print(f"n = 79 (nullity 64): {n79.core_hours:,.0f} core-hours = {n79.core_hours / 24 / 365.25:.2f} core-years "
          f"at this machine's rate; {n79.core_hours / 1000:,.1f} hours on 1000 such cores")
    print(f"d = 48 (119 x 159): {d48.core_hours:.2f} core-hours, about {d48.core_hours / args.workers:.2f} hours "
          f"on a LocalCluster of {args.workers} workers: python bench/cluster_fewest.py 119 159 "
          f"--checkpoint d48.json")


if __name__ == "__main__":
    main()
