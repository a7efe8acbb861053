"""Shared fixtures: the SIMD builds this machine can run, and seeded generators."""
from __future__ import annotations

import signal
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))  # make tests/oracle.py importable

from lightsout._kernels import available_levels  # noqa: E402

# A shell that starts a job in the background without job control (`cmd &` in a script, nohup)
# makes it ignore SIGINT, and every process it execs inherits that: Python then installs no
# KeyboardInterrupt handler, and the tests that send SIGINT to a child (Ctrl-C in every long
# loop) would wait in vain.  A handler, unlike "ignore", is reset to the default by exec, so
# with this one every child starts as it would from a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

#: Row widths that straddle word boundaries; every kernel test runs at these.
AWKWARD_BITS = (1, 2, 63, 64, 65, 127, 128, 129, 255, 257, 1000)


@pytest.fixture(params=available_levels())
def simd_level(request) -> str:
    """Each SIMD level the CPU supports and the build has (avx512, avx2, generic)."""
    return request.param


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261121)
