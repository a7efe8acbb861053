"""The exact coset search's rate: coset elements per core-second, plain and symmetric.

Usage:
    python bench/fewest_rate.py 65 119                  # all-lit n x n boards (d = 42, 46)
    python bench/fewest_rate.py 119 --tasks 512 --repeat 3
    python bench/fewest_rate.py 61x67 --whole           # an n x m board, whole searches (one thread)

For each board: its nullity d, the entries of its reduced coset (distinct cell forms), the
task layout (lane bits, array bits m, task bits), then the rate of

* ``plain``: the Walsh-Hadamard kernel over ``--tasks`` consecutive tasks from the middle of the
  coset (lightsout/_search/tasksearch.py's ``search_tasks`` call), against the bound a first
  pass over the first tasks found, as in a running search;
* ``sym``: the symmetric search (lightsout/_search/orbitcut.py) over the same range of tasks: only the
  least task of each orbit is run, so its rate counts the coset elements the range covers;
* ``whole`` (with ``--whole``): a whole ``coset_min_weight`` on one thread, 2^d elements.

Rates are elements per second of the measuring thread's CPU time (``time.thread_time``), so a
loaded machine slows them less than the wall clock would; the best of ``--repeat`` runs is shown.
Compare two versions in one run by alternating ``PYTHONPATH`` (the old checkout and the new one).
"""
from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

#: Tasks run (untimed) before measuring, to find a bound close to the minimum as a search would.
WARM_TASKS = 64


def board(case: str) -> Any:
    """The solution of the all-lit board ``n`` or ``nxm``.

    Example:
        >>> board("5").nullity, board("4x5").nullity
        (2, 0)
    """
    # imported here: the gate's reference side imports every bench module with an older package
    import lightsout

    rows, _, cols = case.partition("x")
    shape = (int(rows), int(cols or rows))
    return lightsout.solve(np.ones(shape, bool))


def problems(case: str) -> tuple[Any, Any, Any]:
    """(plain problem, symmetric problem or None, the coset) of the board's fewest-presses search."""
    from lightsout._search.cosetform import search_problem, task_layout

    coset, shape = board_coset(case)
    plain = search_problem(coset)
    lanes, m, _ = task_layout(plain, 0)
    return plain, symmetric_problem(coset, shape, lanes + m, lanes), coset


def board_coset(case: str) -> tuple[Any, tuple[int, int]]:
    """(the reduced coset of the board's solutions, the board's shape)."""
    from lightsout._search.cosetform import reduce_coset

    solution = board(case)
    particular = np.asarray(solution.presses, np.uint8).ravel()
    basis = solution.quiet_patterns().reshape(solution.nullity, particular.size).astype(np.uint8)
    return reduce_coset(particular, basis), solution.presses.shape


def symmetric_problem(coset: Any, shape: tuple[int, int], low_bits: int, lane_bits: int) -> Any:
    """The symmetric search's problem (tasks of ``low_bits`` coordinates, the top ``lane_bits`` of
    them lanes; 0: the group's basis), or None when the board's symmetries cut nothing."""
    from lightsout._search.cosetform import histogram
    from lightsout._search.orbitcut import prepare_cut
    from lightsout._search.symmetry import board_symmetries

    images = [np.asarray(image) for image in board_symmetries(shape)]
    cut = prepare_cut(images, coset.rows, coset.pivots, coset.reduced, low_bits, lane_bits=lane_bits)
    return None if cut is None or cut.order <= 1 else histogram(cut.rows, coset.reduced, cut.orbits)


def kernel_rate(problem: Any, tasks: int, repeat: int) -> tuple[float, int]:
    """(elements per core-second, tasks run) of ``tasks`` tasks from the middle of the coset."""
    from lightsout import _kernels as kernels
    from lightsout._search.cosetform import task_layout
    from lightsout._search.orbitcut import representatives

    lanes, m, task_bits = task_layout(problem, 0)
    total = 1 << task_bits
    walsh = kernels.walsh
    args = (problem.forms, problem.values, problem.nullity, m, lanes)
    found, bound, _ = walsh.search_tasks(*args, 0, min(total, WARM_TASKS), problem.bound, problem.wide)
    start = total // 2
    stop = min(total, start + tasks)
    chosen = None if problem.orbits is None else representatives(problem.orbits, start, stop)
    best = float("inf")
    for _ in range(repeat):
        began = time.thread_time()
        if chosen is None:
            walsh.search_tasks(*args, start, stop, bound, problem.wide)
        else:
            walsh.search_task_list(*args, chosen, bound, problem.wide)
        best = min(best, time.thread_time() - began)
    ran = stop - start if chosen is None else int(chosen.size)
    return (stop - start) * 2.0 ** (lanes + m) / max(best, 1e-9), ran


def whole_rate(case: str) -> float:
    """Elements per core-second of a whole plain search on one thread."""
    from lightsout._search.minweight import coset_min_weight

    solution = board(case)
    particular = np.asarray(solution.presses, np.uint8).ravel()
    basis = solution.quiet_patterns().reshape(solution.nullity, particular.size).astype(np.uint8)
    began = time.thread_time()
    coset_min_weight(particular, basis, threads=1, prune=False)
    return 2.0 ** solution.nullity / max(time.thread_time() - began, 1e-9)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="+", help="n (the n x n board) or nxm")
    parser.add_argument("--tasks", type=int, default=256, help="tasks per measured run (default 256)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, the best kept (default 3)")
    parser.add_argument("--whole", action="store_true", help="also a whole search on one thread")
    parser.add_argument("--no-sym", action="store_true", help="skip the symmetric search")
    args = parser.parse_args(argv)
    from lightsout import _kernels as kernels
    from lightsout._search.cosetform import task_layout

    print(f"# walsh kernel: {kernels.walsh.SIMD_LEVEL}, {kernels.walsh.VEC_BYTES}-byte vectors")
    print(f"{'board':>8} {'d':>3} {'entries':>8} {'wide':>5} {'layout':>9} {'path':>6} {'tasks':>6} {'elements/s':>11}")
    for case in args.boards:
        plain, symmetric, _ = problems(case)
        layout = task_layout(plain, 0)
        head = f"{case:>8} {plain.nullity:>3} {plain.forms.size:>8} {str(plain.wide):>5} {'%d/%d/%d' % layout:>9}"
        rate, ran = kernel_rate(plain, args.tasks, args.repeat)
        print(f"{head} {'plain':>6} {ran:>6} {rate:>11.4g}", flush=True)
        if symmetric is not None and not args.no_sym:
            rate, ran = kernel_rate(symmetric, args.tasks, args.repeat)
            print(f"{head} {'sym':>6} {ran:>6} {rate:>11.4g}", flush=True)
        if args.whole:
            print(f"{head} {'whole':>6} {'all':>6} {whole_rate(case):>11.4g}", flush=True)


if __name__ == "__main__":
    main()
