"""Benchmark machinery shared by bench/bench_*.py: the ``gate`` fixture and a slowdown injector.

The ``gate`` fixture times one public entry point the way the regression gate
(bench/gate.py) needs it::

    def test_first_row_poly_10000(gate):
        gate(lightsout.first_row, 10_000, method="poly")

In this process: two warm-up calls pick the number of rounds, then the rounds run
(each after the optional untimed ``setup``, which returns ``(args, kwargs)``).
Everything is timed in *active* seconds:
wall-clock time minus the time this thread spent runnable but waiting for a CPU
(``run_delay`` in ``/proc/thread-self/schedstat``).  Being preempted by another
process on a busy machine therefore costs nothing, while sleeping, blocking or
doing more work still counts.  Where schedstat is missing the figures are plain
wall time.  glibc is asked to keep freed memory in the process (``mallopt``;
``LIGHTSOUT_BENCH_MALLOC=os`` turns that off), so repeated calls reuse mapped
pages instead of paying page faults whose cost depends on the neighbours.

The rounds add up to about ``LIGHTSOUT_BENCH_BUDGET`` seconds (default 2.0),
between 15 and 1000 rounds.  The raw figures (every round, page faults, load
average, the side) go to ``extra_info["gate"]`` in the pytest-benchmark
JSON; bench/gate.py turns them into one figure per benchmark.  Why each choice:
bench/GATE.md.

Entry points are always called through the public namespace at run time
(``lightsout.first_row``, ``lightsout.gf2.rank``), and the dense route with
``threads=1``: a benchmark that needs the second core measures the neighbours
on a shared machine, not the code.

bench/ab.py runs this folder once per side, with ``LIGHTSOUT_BENCH_SIDE`` set to
``reference`` or ``candidate`` (a plain run is ``candidate``).

Injecting a slowdown (for showing that the gate works; never set in CI)::

    LIGHTSOUT_BENCH_SLOWDOWN='first_row=1.6' pytest bench ...      # one entry point
    LIGHTSOUT_BENCH_SLOWDOWN='*=1.5' pytest bench ...              # every public entry point
    LIGHTSOUT_BENCH_SLOWDOWN='gf2.rank=1.6,solve=1.6' ...          # several
    LIGHTSOUT_BENCH_SLOWDOWN_MODE=sleep                            # sleep instead of spinning

This wraps the named attributes of ``lightsout`` and ``lightsout.gf2`` from
outside the package: each call is timed on the thread's CPU clock and followed by
(factor - 1) times that much busy work (or, with ``sleep``, that much wall time
asleep), so the call costs ``factor`` times as much whatever the machine is doing.  The
reference side of an A/B run is never slowed: the injection stands for a change in
the candidate's code.
"""
from __future__ import annotations

import ctypes
import functools
import math
import os
import resource
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # bench/compiled.py for the benchmark modules

import lightsout

_SCHEDSTAT = "/proc/thread-self/schedstat"
SIDE = os.environ.get("LIGHTSOUT_BENCH_SIDE", "candidate")


def _keep_freed_memory() -> bool:
    """Ask glibc to serve every allocation from the heap and never give freed memory back,
    so that after the warm-up an entry point's arrays reuse pages that are already mapped.
    Otherwise each call's large arrays are fresh mmaps whose page faults (and, with
    transparent huge pages, compaction stalls) cost whatever the neighbours left behind."""
    if os.environ.get("LIGHTSOUT_BENCH_MALLOC", "keep") != "keep":
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    m_trim_threshold, m_mmap_max = -1, -4
    return bool(libc.mallopt(m_mmap_max, 0)) and bool(libc.mallopt(m_trim_threshold, 2**31 - 1))


KEPT_MEMORY = _keep_freed_memory()


def _run_delay_reader() -> Callable[[], float]:
    """A function returning the calling thread's total wait for a CPU in seconds (0 where unknown).

    Each thread keeps its own descriptor of /proc/thread-self/schedstat, read with pread:
    a few microseconds a read, without the open and close."""
    descriptors: dict[int, int] = {}

    def run_delay() -> float:
        thread = threading.get_ident()
        fd = descriptors.get(thread)
        if fd is None:
            fd = descriptors[thread] = os.open(_SCHEDSTAT, os.O_RDONLY)
        return int(os.pread(fd, 128, 0).split()[1]) * 1e-9

    try:
        run_delay()
    except (OSError, IndexError, ValueError):
        return lambda: 0.0
    return run_delay


run_delay = _run_delay_reader()


def active_clock() -> float:
    """Seconds of wall time minus the time this thread has spent waiting for a CPU.

    The wait counter is read on both sides of the clock and the pair retried until
    both reads agree, so a preemption between the two reads cannot be half counted.
    """
    while True:
        before = run_delay()
        now = time.perf_counter()
        if run_delay() == before:
            return now - before


# --- the gate fixture --------------------------------------------------------------------

BUDGET = float(os.environ.get("LIGHTSOUT_BENCH_BUDGET", "2.0"))
MIN_ROUNDS, MAX_ROUNDS = 15, 1000


class Gate:
    """Callable that benchmarks one entry point (see the module docstring)."""

    def __init__(self, benchmark: Any) -> None:
        self.benchmark = benchmark

    def __call__(self, fn: Callable[..., Any], *args: Any,
                 setup: Optional[Callable[[], tuple[tuple, dict]]] = None,
                 rounds: Optional[int] = None, **kwargs: Any) -> Any:
        calls: list[float] = []
        faults: list[int] = []

        def timed(*a: Any, **k: Any) -> Any:
            flt = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
            start = active_clock()
            result = fn(*a, **k)
            calls.append(active_clock() - start)
            faults.append(resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - flt)
            return result

        # warm-up: two calls (caches, lazy imports); the faster picks the number of rounds
        warm = math.inf
        for _ in range(2):
            a, k = setup() if setup is not None else (args, kwargs)
            start = active_clock()
            fn(*a, **k)
            warm = min(warm, max(active_clock() - start, 1e-6))
        if rounds is None:
            rounds = min(MAX_ROUNDS, max(MIN_ROUNDS, math.ceil(BUDGET / warm)))
        if setup is not None:
            result = self.benchmark.pedantic(timed, setup=setup, rounds=rounds, iterations=1, warmup_rounds=0)
        else:
            result = self.benchmark.pedantic(timed, args=args, kwargs=kwargs, rounds=rounds,
                                             iterations=1, warmup_rounds=0)
        self.benchmark.extra_info["gate"] = {
            "calls": calls, "faults": faults, "loadavg": os.getloadavg()[0], "side": SIDE,
        }
        return result


@pytest.fixture
def gate(benchmark: Any) -> Gate:
    """Benchmark a public entry point for the regression gate: ``gate(fn, *args, setup=None, **kwargs)``."""
    return Gate(benchmark)


# --- slowdown injection (demonstration only) ---------------------------------------------

def _slowed(fn: Callable[..., Any], factor: float, mode: str) -> Callable[..., Any]:
    """``fn`` made ``factor`` times as slow: after each call, (factor - 1) times the call's own
    time of busy work on this thread's CPU clock ("spin"), or of sleep ("sleep")."""
    if mode == "sleep":
        @functools.wraps(fn)
        def sleeper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            result = fn(*args, **kwargs)
            time.sleep((factor - 1.0) * (time.perf_counter() - start))
            return result

        return sleeper

    @functools.wraps(fn)
    def spinner(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        result = fn(*args, **kwargs)
        now = time.thread_time()
        until = now + (factor - 1.0) * (now - start)
        while time.thread_time() < until:
            pass
        return result

    return spinner


def _inject_slowdown(spec: str, mode: str) -> list[str]:
    """Wrap public entry points named in ``spec`` ('name=factor,...', '*' for all); returns the names."""
    namespaces = {"": lightsout, "gf2.": lightsout.gf2}
    public = {prefix + name: (module, name)
              for prefix, module in namespaces.items() for name in getattr(module, "__all__", [])
              if callable(getattr(module, name)) and not isinstance(getattr(module, name), type)}
    wrapped = []
    for item in filter(None, (part.strip() for part in spec.split(","))):
        names, _, factor_text = item.partition("=")
        factor = float(factor_text or "1.6")
        targets = sorted(public) if names == "*" else [names]
        for target in targets:
            if target not in public:
                raise pytest.UsageError(f"LIGHTSOUT_BENCH_SLOWDOWN: {target!r} is not a public entry point "
                                        f"(one of: {', '.join(sorted(public))})")
            module, name = public[target]
            setattr(module, name, _slowed(getattr(module, name), factor, mode))
            wrapped.append(f"{target} x{factor:g}")
    return wrapped


_INJECTED = _inject_slowdown(os.environ.get("LIGHTSOUT_BENCH_SLOWDOWN", "") if SIDE == "candidate" else "",
                             os.environ.get("LIGHTSOUT_BENCH_SLOWDOWN_MODE", "spin"))


def pytest_report_header(config: Any) -> str:
    timing = "active time (wall minus CPU wait)" if os.path.exists(_SCHEDSTAT) else "wall time"
    where = os.path.dirname(lightsout.__file__)
    header = f"lightsout gate: {SIDE} side, lightsout from {where}; {timing}, budget {BUDGET:g} s per benchmark"
    if _INJECTED:
        header += "\nlightsout gate: INJECTED SLOWDOWN " + ", ".join(_INJECTED)
    return header
