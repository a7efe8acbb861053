"""Runtime choice of the SIMD build."""
from __future__ import annotations

import subprocess
import sys

import pytest

from lightsout import _dispatch


def test_generic_is_always_available():
    assert _dispatch.available_levels()[-1] == "generic"
    assert _dispatch.selected_level() in _dispatch.available_levels()


def test_forced_level_and_bad_values(monkeypatch):
    monkeypatch.setenv("LIGHTSOUT_SIMD", "generic")
    assert _dispatch.kernel_module("_kernels").__name__ == "lightsout._kernels"
    monkeypatch.setenv("LIGHTSOUT_SIMD", "sse9")
    with pytest.raises(ValueError, match="expected one of"):
        _dispatch.selected_level()


@pytest.mark.parametrize("level", _dispatch.available_levels())
def test_every_build_gives_the_same_answers(level, tmp_path):
    code = ("import lightsout, numpy as np; "
            "print(lightsout.first_row(300).astype(int).sum(), lightsout.first_row(150, method='dense').sum(), "
            "lightsout.nullity_table(64).sum(), lightsout._dispatch.selected_level())")
    # Run outside the checkout, so the installed package is imported, not the source tree.
    run = dict(capture_output=True, text=True, cwd=tmp_path, check=True)
    out = subprocess.run([sys.executable, "-c", code], env={"LIGHTSOUT_SIMD": level}, **run).stdout
    reference = subprocess.run([sys.executable, "-c", code], env={"LIGHTSOUT_SIMD": "generic"}, **run).stdout
    assert out.split()[:3] == reference.split()[:3]
    assert out.split()[3] == level
