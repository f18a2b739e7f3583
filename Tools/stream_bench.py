#!/usr/bin/env python3
"""The live stream's figures (make bench-userdata): `producer | termmap -` in a pseudo-terminal of its
own, fed 10,000 lines a second for 10 s (moving markers of 100 ids, all outside the view), while a probe
marker inside the view is added and deleted 4 times a second: the time from writing the probe's line
to the first bytes of its marker on the terminal (median, p99), in the first and the last second, and
the process's resident memory at the start and the end.

    python3 Tools/stream_bench.py .build/release/termmap
"""
import fcntl
import json
import os
import select
import subprocess
import sys
import termios
import threading
import time

BINARY = os.path.abspath(sys.argv[1])
MARKER = "●".encode()


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, b"\x1e\x00\x64\x00\x00\x00\x00\x00")  # 30 rows, 100 columns
    read_end, write_end = os.pipe()

    def controlling():
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
    proc = subprocess.Popen([BINARY, "--center", "0,0", "--zoom", "3", "--no-animation", "-"], stdin=read_end, stdout=slave,
                            stderr=slave, preexec_fn=controlling, env=env, close_fds=True, pass_fds=())
    os.close(read_end)
    out = os.fdopen(write_end, "w", buffering=1)
    seen = []  # (time, chunk)
    lock = threading.Lock()
    stop = threading.Event()

    def reader():
        while not stop.is_set():
            r, _, _ = select.select([master], [], [], 0.05)
            if not r:
                continue
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            now = time.perf_counter()
            if b"\x1b[c" in data:
                os.write(master, b"\x1b[?62;22c")  # a terminal's device-attributes answer
            with lock:
                seen.append((now, data))
    threading.Thread(target=reader, daemon=True).start()
    time.sleep(1.5)
    start_rss = rss_mb(proc.pid)
    latencies = []
    t_start = time.perf_counter()

    def load(lines):
        """Lines until 10,000 a second since the start have been written."""
        target = int((time.perf_counter() - t_start) * 10_000)
        batch = []
        while lines < target:
            i = lines % 100
            batch.append(json.dumps({"id": i, "lat": 60 + (lines % 1000) * 1e-4, "lon": 100 + i * 0.01}))
            lines += 1
        if batch:
            out.write("\n".join(batch) + "\n")
            out.flush()
        return lines
    next_probe = t_start
    lines = 0
    probe_on = False
    while time.perf_counter() - t_start < 10:
        now = time.perf_counter()
        if now >= next_probe:
            with lock:
                seen.clear()
            if probe_on:
                out.write(json.dumps({"id": "probe", "delete": True}) + "\n")
                out.flush()
                probe_on = False
                next_probe = now + 0.125
                continue
            out.write(json.dumps({"id": "probe", "lat": (lines % 7) - 3, "lon": (lines % 11) - 5}) + "\n")
            out.flush()
            written = time.perf_counter()
            probe_on = True
            deadline = written + 1.0
            while time.perf_counter() < deadline:
                with lock:
                    hit = next((t for t, d in seen if MARKER in d), None)
                if hit:
                    latencies.append((written - t_start, (hit - written) * 1000))
                    break
                # The load goes on while the probe is awaited.
                lines = load(lines)
                time.sleep(0.001)
            next_probe = time.perf_counter() + 0.125
            continue
        lines = load(lines)
        time.sleep(0.001)
    elapsed = time.perf_counter() - t_start
    end_rss = rss_mb(proc.pid)
    os.write(master, b"q")
    out.close()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
    stop.set()

    def stats(xs):
        xs = sorted(xs)
        return (xs[len(xs) // 2], xs[min(len(xs) - 1, int(len(xs) * 0.99))]) if xs else (float("nan"), float("nan"))
    first = [l for t, l in latencies if t < 1]
    last = [l for t, l in latencies if t >= elapsed - 1]
    alls = [l for _, l in latencies]
    print(f"stream: {lines:,} lines in {elapsed:.1f} s ({lines / elapsed:,.0f} a second), {len(alls)} probes")
    print(f"line → screen: median {stats(alls)[0]:.1f} ms, p99 {stats(alls)[1]:.1f} ms; first second median "
          f"{stats(first)[0]:.1f} ms, last second median {stats(last)[0]:.1f} ms")
    print(f"resident memory: {start_rss:.1f} MB at the start, {end_rss:.1f} MB after {elapsed:.0f} s")


if __name__ == "__main__":
    main()
