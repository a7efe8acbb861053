"""The search's cost model: how long a fewest-press search (two or k states) takes, before it starts.

The limits of the search (lightsout/_search/minweight.py), the jobs' split for an executor
(lightsout/_search/jobs.py) and the play page's refusal (lightsout/play/api.py) all ask it.
"""
from __future__ import annotations

import math

__all__ = ["SECONDS_PER_ELEMENT", "SECONDS_PER_SCATTER", "SECONDS_PER_SOLUTION_CELL", "SECONDS_PER_SOLUTION",
           "search_seconds", "mod_search_seconds"]


# Measured on the development machine (AMD EPYC, AVX-512 build, CPU time of one core): the
# search's transform costs about 0.07 ns per coset element, and each (entry, task) scatter
# 1.5 ns, where a task is 2^19 elements (2^14 vectors of 32 lanes).  The all-lit 67 x 67 board
# (nullity 32, 3872 forms) took 0.47 s of CPU with the kernel before L1 blocks and 2^13-vector
# tasks; bench/fewest_rate.py --whole ran the present one 1.3x as fast beside it (7.0e9 against
# 5.4e9 elements a core-second on the loaded machine).
SECONDS_PER_ELEMENT = 0.07e-9
SECONDS_PER_SCATTER = 1.5e-9
# The k-state search walks every solution (lightsout/_search/modsearch.py), a pass over the cells a
# step: 3^12 solutions of 1024 cells take 19 ms (AVX-512), 21 ms (AVX2), 38 ms (portable build) on
# one core, 0.035-0.07 ns a solution and cell, and some 5-10 ns a solution beside; the figures
# below are the portable build's, a little pessimistic.
SECONDS_PER_SOLUTION_CELL = 0.15e-9
SECONDS_PER_SOLUTION = 12e-9


def search_seconds(nullity: int, entries: int) -> float:
    """Rough single-core seconds of the search over 2^nullity solutions with ``entries`` forms.

    From the speed of the development machine's AVX-512 build (see the constants in this
    module); other machines and builds differ by small factors.

    Example:
        >>> 0.1 < search_seconds(32, 4000) < 5 < search_seconds(36, 4000)
        True
    """
    m = max(6, min(14, int(math.ceil(math.log2(entries + 1))) + 2))   # as cosetform.task_layout's
    tasks = 2.0 ** max(0, nullity - 5 - m)
    return float(2.0 ** nullity * SECONDS_PER_ELEMENT + tasks * entries * SECONDS_PER_SCATTER)


def mod_search_seconds(count: int, cells: int) -> float:
    """Rough single-core seconds of the k-state search, which walks all ``count`` solutions of ``cells`` cells.

    Example:
        >>> round(mod_search_seconds(10**9, 40), 1)
        18.0
    """
    return float(count * (cells * SECONDS_PER_SOLUTION_CELL + SECONDS_PER_SOLUTION))
