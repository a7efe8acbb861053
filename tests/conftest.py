"""Shared fixtures: the SIMD builds this machine can run, and seeded generators."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))  # make tests/oracle.py importable

from lightsout._dispatch import available_levels  # noqa: E402

#: Row widths that straddle word boundaries; every kernel test runs at these.
AWKWARD_BITS = (1, 2, 63, 64, 65, 127, 128, 129, 255, 257, 1000)


@pytest.fixture(params=available_levels())
def simd_level(request) -> str:
    """Each SIMD level the CPU supports and the build has (avx512, avx2, generic)."""
    return request.param


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261121)
