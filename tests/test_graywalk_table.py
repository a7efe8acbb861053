"""The shipped table of fewest presses, checked by the second algorithm (slow: ``pytest -m slow``).

Every row of lightsout/fewest_presses.csv of nullity at most 36 -- values computed and
published by the Walsh-Hadamard search, read here from the file -- is searched again by the
pruned Gray-code walk (lightsout/_search/graywalk.py), which shares no inner loop with it;
the presses it finds are replayed by the tests' oracle.  The 184 rows took 11 minutes on the
2-core EPYC shared with four other jobs (load 3-9): n = 170 (nullity 36) 521 s, n = 199 (32)
72 s, the other rows of nullity 28-32 4-16 s each, the rest under 3 s (23 minutes, n = 170
1,195 s, before the bound's pass ran on AVX512-VPOPCNTDQ); CI does not run it (the ``slow``
marker).
"""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

import lightsout
import oracle
from lightsout._search.graywalk import graywalk_min_weight

TABLE = Path(__file__).resolve().parents[1] / "lightsout" / "fewest_presses.csv"
MAX_CHECKED_NULLITY = 36


def _shipped_rows() -> list[tuple[int, int, int]]:
    """(n, nullity, fewest) of every row of the shipped file of nullity at most 36, smallest nullity first."""
    with open(TABLE, newline="", encoding="utf-8") as handle:
        rows = [(int(row["n"]), int(row["nullity"]), int(row["fewest"])) for row in csv.DictReader(handle)]
    return sorted((row for row in rows if row[1] <= MAX_CHECKED_NULLITY), key=lambda row: (row[1], row[0]))


ROWS = _shipped_rows()


def test_the_rows_checked_are_those_of_the_file():
    assert len(ROWS) > 100 and max(nullity for _, nullity, _ in ROWS) == MAX_CHECKED_NULLITY
    assert {n for n, _, _ in ROWS} <= set(lightsout.proven_fewest_presses())


@pytest.mark.slow
@pytest.mark.parametrize("n, nullity, fewest", ROWS, ids=[f"n{n}-d{d}" for n, d, _ in ROWS])
def test_the_gray_code_walk_agrees_with_the_shipped_value(n, nullity, fewest):
    solution = lightsout.solve(np.ones((n, n), bool))
    assert solution.nullity == nullity
    basis = solution.quiet_patterns().reshape(nullity, n * n).astype(np.uint8)
    found = graywalk_min_weight(solution.presses.ravel().astype(np.uint8), basis)
    assert found.proven
    assert found.weight == fewest
    assert oracle.clears(np.ones((n, n), np.uint8), found.presses.reshape(n, n))
