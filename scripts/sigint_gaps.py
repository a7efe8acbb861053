"""Where a long command does not look for Ctrl-C: the gaps between signal checks, with their place.

    python scripts/sigint_gaps.py first-row 1000000000 --verify -o row.txt --quiet
    GAP=0.3 python scripts/sigint_gaps.py nullity 10000000000

Runs the `lightsout` command line in this process while a helper thread sends SIGUSR1 to the
main thread every 20 ms.  Python runs the handler only when the main thread looks for signals
(between bytecodes, or inside a kernel's poll), so the time from sending to handling is how long
a Ctrl-C would wait there.  Every wait above GAP seconds (default 0.25) is printed to stderr with
the Python lines the handler ran under: the call that held the signal back.  scripts/sigint_probe.py
sends the real SIGINT; this finds the spots to mend.

With NATIVE=1 the helper thread also asks gdb (which must be installed) for the native stacks of
every thread once a ping has waited GAP seconds, while the wait is still going on: the C frames of a
kernel loop that does not look, which the Python lines cannot show.
"""
import os
import signal
import subprocess
import sys
import threading
import time
import traceback

from lightsout import cli

THRESHOLD = float(os.environ.get("GAP", "0.25"))
NATIVE = os.environ.get("NATIVE", "") not in ("", "0")
PERIOD = 0.02


def native_stacks() -> str:
    """Every thread's C stack of this process, by gdb attached for a moment."""
    command = ["gdb", "-p", str(os.getpid()), "-batch", "-nx", "-ex", "thread apply all bt 14"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return "\n".join(line for line in done.stdout.splitlines() if line.startswith(("#", "Thread")))


def main() -> None:
    began = time.monotonic()
    sent_at = [0.0]
    gaps = []

    def on_ping(signum, frame):
        wait = time.monotonic() - sent_at[0]
        if wait > THRESHOLD:
            place = "".join(traceback.format_stack(frame, limit=6)[-4:])
            gaps.append(wait)
            print(f"--- gap {wait:.3f} s, signal sent at {sent_at[0] - began:.2f} s\n{place}", file=sys.stderr,
                  flush=True)
        sent_at[0] = 0.0

    signal.signal(signal.SIGUSR1, on_ping)
    main_thread = threading.main_thread().ident
    finished = threading.Event()

    def ping() -> None:
        looked_at = 0.0     # the send time of the last ping whose wait gdb was asked about
        while not finished.is_set():
            pending = sent_at[0]    # read once: the handler may reset it to 0 meanwhile
            if pending == 0.0:
                sent_at[0] = time.monotonic()
                signal.pthread_kill(main_thread, signal.SIGUSR1)
            elif NATIVE and pending != looked_at and time.monotonic() - pending > THRESHOLD:
                looked_at = pending
                print(f"--- native stacks {time.monotonic() - looked_at:.3f} s into a wait\n{native_stacks()}",
                      file=sys.stderr, flush=True)
            time.sleep(PERIOD)

    threading.Thread(target=ping, daemon=True).start()
    try:
        cli.main(sys.argv[1:])
    except SystemExit:
        pass
    finished.set()
    print(f"done in {time.monotonic() - began:.1f} s; {len(gaps)} gaps over {THRESHOLD} s; "
          f"worst {max(gaps, default=0.0):.3f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
