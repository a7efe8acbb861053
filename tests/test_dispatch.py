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
def test_every_build_gives_the_same_answers(level):
    code = ("import lightsout, numpy as np; "
            "print(lightsout.first_row(300).astype(int).sum(), lightsout.first_row(150, method='dense').sum(), "
            "lightsout.nullity_table(64).sum(), lightsout._dispatch.selected_level())")
    env = {"LIGHTSOUT_SIMD": level, "PATH": ""}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    reference = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               env={"LIGHTSOUT_SIMD": "generic"}, check=True).stdout
    assert out.split()[:3] == reference.split()[:3]
    assert out.split()[3] == level
