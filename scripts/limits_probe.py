"""Run the reproducers of issue 16 against an installed lightsout: each in a child process under a
1.5 GiB address-space cap and a 20 s timeout; print the time and what came back.

    python scripts/limits_probe.py                       # the lightsout that `import` finds
    PYTHONPATH=bench-ab/ref-<hash> python scripts/limits_probe.py   # the gate's reference build

Every case should refuse with a LightsOutError subclass within a second, or answer.
"""
import subprocess
import sys
import tempfile
import textwrap
import time

CASES = [
    "lightsout.solve(np.zeros((10, 10), np.uint8), states=6, torus=True, minimal=True, time_limit=1)",
    "lightsout.fewest_presses(10, states=6, torus=True)",
    "lightsout.solve(np.ones((20, 20)), states=255, self_toggle=False, torus=True, minimal=True)",
    "lightsout.solve_graph([], [0]*24, nvertices=24, self_toggle=False, states=4, minimal=True)",
    "lightsout.solve_many(np.ones((1, 200, 200), np.uint8))",
    "lightsout.solve_many(np.ones((1, 400, 400), np.uint8))",
    "lightsout.solve_many(np.ones((1, 10**5), np.uint8))",
    "lightsout.solve_graph([(0, 1)], nvertices=2**31 - 1)",
    "lightsout.solve_graph([(0, 1)], nvertices=10**8)",
    "lightsout.fewest_presses(10**6)",
    "lightsout.fewest_presses(30000)",
    "lightsout.nullity_table(10**6, 10**6)",
    "lightsout.parse_board('1 ' + '9' * 5000, states=11)",
    "lightsout.nullity((1,) * 1000)",
    "lightsout.solve(np.ones((1,) * 64))",
    "lightsout.solve(np.ones((3, 3)), minimal='no')",
    "lightsout.solve(np.ones((3, 3)), minimal=1)",
    "lightsout.gf2.rank(np.ones((64, 13), np.uint8))",
    "lightsout.first_row(100000, method='dense')",
]

for code in CASES:
    program = textwrap.dedent(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))
        import numpy as np, lightsout
        try:
            print('ANSWER', repr({code})[:60])
        except lightsout.LightsOutError as e:
            print(type(e).__name__, '|', str(e)[:110])
    """)
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=20,
                              cwd=tempfile.gettempdir())
        lines = (done.stdout.strip() or done.stderr.strip()).splitlines()
        out = lines[-1] if lines else f"exit {done.returncode}"
    except subprocess.TimeoutExpired:
        out = "TIMEOUT"
    print(f"{time.monotonic() - started:5.2f}s  {code[:70]:70s} -> {out[:150]}", flush=True)
