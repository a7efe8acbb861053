"""Start `lightsout play`, open N connections that send their request a byte at a time, and time a
normal /api/solve after each round of bytes for 8 s; print the server's threads and RSS.

    python scripts/trickle_probe.py 3000 [PORT]

The server should keep a handful of threads and answer the normal requests within 100 ms.
"""
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

clients = int(sys.argv[1])
port = int(sys.argv[2]) if len(sys.argv) > 2 else 8931
resource.setrlimit(resource.RLIMIT_NOFILE, (max(clients + 256, 4096),) * 2)
server = subprocess.Popen([sys.executable, "-m", "lightsout", "play", "--port", str(port), "--no-browser"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tempfile.gettempdir())
time.sleep(2)


def threads() -> int:
    return len(os.listdir(f"/proc/{server.pid}/task"))


def rss_mb() -> int:
    with open(f"/proc/{server.pid}/status") as status:
        return int(status.read().split("VmRSS:")[1].split()[0]) // 1024


def solve_ms() -> float:
    started = time.perf_counter()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/solve", method="POST",
                                     data=json.dumps({"board": [[1] * 5] * 5}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        json.load(answer)
    return (time.perf_counter() - started) * 1000


try:
    quiet = [solve_ms() for _ in range(20)]
    print(f"quiet: threads {threads()}, RSS {rss_mb()} MB, median {statistics.median(quiet):.2f} ms, "
          f"max {max(quiet):.2f} ms")
    head = b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(clients)]
    timings, step, started = [], 0, time.monotonic()
    while time.monotonic() - started < 8:
        for sock in sockets:
            try:
                sock.send(head[step % len(head):step % len(head) + 1])
            except OSError:
                pass
        step += 1
        timings.append(solve_ms())
    print(f"{clients} trickling: threads {threads()}, RSS {rss_mb()} MB, {len(timings)} requests, "
          f"median {statistics.median(timings):.2f} ms, max {max(timings):.2f} ms")
finally:
    server.terminate()
    server.wait()
