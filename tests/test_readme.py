"""The examples in README.md run and print what the README shows."""
from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_examples():
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    failures, attempted = doctest.testfile(str(README), module_relative=False, optionflags=flags)
    assert attempted > 5 and failures == 0
