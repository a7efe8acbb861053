"""Shared fixtures: the SIMD builds this machine can run, seeded generators, the build tools."""
from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path
from typing import Callable, Optional

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

def missing_build_tools() -> Optional[str]:
    """Why a Cython extension cannot be built here (the tests that compile one skip), or None."""
    for module in ("Cython", "setuptools"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install Cython setuptools to run this test)"
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None:
        return f"no C compiler ({compiler.split()[0]!r} not found)"
    return None


#: Row widths that straddle word boundaries; every kernel test runs at these.
AWKWARD_BITS = (1, 2, 63, 64, 65, 127, 128, 129, 255, 257, 1000)


def _level_params() -> list:
    """Every SIMD level the CPU supports and the build has, widest first; the narrower ones are thorough tests.

    The quick suite (the README's ``pytest``) runs each kernel test at the widest level, the
    one the library picks; ``pytest -m thorough`` (CI runs it next) at every other level too.
    """
    levels = available_levels()
    return [level if i == 0 else pytest.param(level, marks=pytest.mark.thorough) for i, level in enumerate(levels)]


@pytest.fixture(params=_level_params())
def simd_level(request) -> str:
    """Each SIMD level the CPU supports and the build has (avx512, avx2, generic)."""
    return request.param


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261121)


def interrupt_after_start(script: str, cwd: Path) -> tuple[int, str, str]:
    """Run ``python -c script`` in cwd, send SIGINT once it prints "started"; (exit status, out, err).

    The child gets the default SIGINT disposition (a shell may have started us ignoring it) and
    runs outside the checkout, so it imports the installed package (or PYTHONPATH's).
    """
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=cwd,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout is not None
    first = proc.stdout.readline().strip()
    if first != "started":
        out, err = proc.communicate(timeout=120)
        raise AssertionError(f"the child did not start: {first + out!r} {err!r}")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


# Sends SIGINT to a process every 5 ms from `delay` seconds on, until the process is gone or this is killed.
_PESTER = """
import os, signal, sys, time
pid, delay = int(sys.argv[1]), float(sys.argv[2])
time.sleep(delay)
while True:
    try:
        os.kill(pid, signal.SIGINT)
    except ProcessLookupError:
        break
    time.sleep(0.005)
"""


def stops_at_ctrl_c(work: Callable[[], object], what: str, delay: float = 0.05) -> None:
    """Call ``work()`` with Ctrl-C (SIGINT) sent after ``delay`` seconds and again every 5 ms: it must raise
    KeyboardInterrupt before its end, else the test fails saying ``what`` ran to its end.  Main thread only
    (signal handlers run there).

    A kernel that never looks for signals runs Python's handler once when it returns (pending signals
    are one flag) and could raise there all the same; so the handler raises only at its fifth run, which
    only a loop that keeps looking (or Python code between chunks) reaches.  The signals come from
    another process: a thread of this one would need the GIL, which a busy main thread can starve."""
    runs = 0
    done = False

    def handler(signum, frame):
        nonlocal runs
        runs += 1
        if runs == 5 and not done:
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    sender = subprocess.Popen([sys.executable, "-I", "-S", "-c", _PESTER, str(os.getpid()), str(delay)])
    raised = False
    try:
        work()
    except KeyboardInterrupt:
        raised = True
    finally:
        done = True
        sender.kill()
        sender.wait()
        time.sleep(0.02)         # a signal still pending reaches this handler (which ignores it), not the previous one
        signal.signal(signal.SIGINT, previous)
    assert raised, f"{what} ran to its end instead of stopping at Ctrl-C"
