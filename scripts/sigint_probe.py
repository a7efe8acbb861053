"""Send SIGINT to `lightsout first-row N` at given moments; print how long each took to exit.

    python scripts/sigint_probe.py 100000000 3 15 40 80     # SIGINT 3 s, 15 s, ... after the start

Every phase should stop within 0.5 s with exit 130 and one line.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

size, moments = sys.argv[1], [float(x) for x in sys.argv[2:]]
folder = tempfile.mkdtemp()
for moment in moments:
    out = os.path.join(folder, "row.npy")
    child = subprocess.Popen([sys.executable, "-m", "lightsout", "first-row", size, "-o", out, "--quiet"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tempfile.gettempdir())
    time.sleep(moment)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        _, err = child.communicate(timeout=120)
        print(f"SIGINT at {moment:5.1f} s: exit {child.returncode} after {time.monotonic() - sent:.3f} s  "
              f"{err.decode().strip()[:60]}", flush=True)
    except subprocess.TimeoutExpired:
        child.kill()
        print(f"SIGINT at {moment:5.1f} s: no exit within 120 s", flush=True)
