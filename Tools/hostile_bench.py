#!/usr/bin/env python3
"""What hostile input costs termmap (make bench-hostile): for each case the wall time, the peak memory
(wait4's ru_maxrss of termmap and what it waited for), and in the viewer how long `q` takes to end it
while the input is being dealt with. Cases: a jagged ring of a million and of ten million points (the
teeth grow along it: Douglas–Peucker's worst case), a 20,000-character paste into `/`, a GeoPackage
view of ten million rows read through ogr2ogr, /dev/zero named as a file, --follow /dev/zero, and a
single-line GeoJSON of 1 GB. Each run is capped (120 s, 3 GB): a cap reached is printed as such.

    python3 Tools/hostile_bench.py BINARY [BINARY…] [--only NAME] [--work DIR]

Generated inputs are kept in the work folder (default /tmp/termmap-hostile-bench) between runs.
"""
import argparse
import fcntl
import math
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "e2e"))
import geopackage  # noqa: E402 (the tests' GeoPackage of recursive views)

CAP_SECONDS = 120
CAP_BYTES = 3 << 30


def jagged_ring(path, n):
    """A ring round an ellipse whose teeth grow along it (each Douglas–Peucker split takes one point off)."""
    if os.path.exists(path):
        return path
    with open(path, "w") as f:
        f.write('{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"jagged"},'
                '"geometry":{"type":"Polygon","coordinates":[[')
        for i in range(n + 1):
            k = i % n
            a = 2 * math.pi * k / n
            r = 5 * (1 + 0.5 * (1 if k % 2 else -1) * k / n)
            f.write(("," if i else "") + "[%.7f,%.7f]" % (24.9 + r * math.cos(a), 60.0 + r * 0.5 * math.sin(a)))
        f.write("]]}}]}")
    return path


def single_line(path, size):
    """A FeatureCollection of point features on one line, `size` bytes or so."""
    if os.path.exists(path):
        return path
    with open(path, "w") as f:
        f.write('{"type":"FeatureCollection","features":[')
        written, i = 0, 0
        while written < size:
            s = ('' if i == 0 else ',') + '{"type":"Feature","properties":{"i":%d},"geometry":{"type":"LineString","coordinates":[[%.6f,%.6f],[%.6f,%.6f]]}}' % (
                i, (i % 3600) / 10 - 180, (i % 1700) / 10 - 85, (i % 3600) / 10 - 179.9, (i % 1700) / 10 - 84.9)
            f.write(s)
            written += len(s)
            i += 1
        f.write("]}")
    return path


def geopackage_view(path, rows):
    """A GeoPackage whose one layer is a recursive SQL view of `rows` points (98 KB: GDAL makes them all)."""
    if os.path.exists(path):
        return path
    db = geopackage.start(path)
    geopackage.add_view(db, "v", rows, register=True)
    db.commit()
    db.close()
    return path


def capped(argv, stdin=None):
    """Runs argv to its end or a cap: (seconds, peak MB, how it ended)."""
    t = time.time()
    p = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    ended = None
    while ended is None:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            ended = "exit %d" % os.waitstatus_to_exitcode(status)
            peak = usage.ru_maxrss / 1024
            break
        try:
            rss = int(next(l for l in open(f"/proc/{p.pid}/status") if l.startswith("VmRSS:")).split()[1]) * 1024
        except (OSError, StopIteration):
            rss = 0
        if time.time() - t > CAP_SECONDS or rss > CAP_BYTES:
            cap = f"stopped at {CAP_SECONDS} s" if time.time() - t > CAP_SECONDS else f"stopped at {CAP_BYTES >> 30} GB"
            p.kill()
            _, status, usage = os.wait4(p.pid, 0)
            ended = cap
            peak = usage.ru_maxrss / 1024
            break
        time.sleep(0.05)
    said = p.stderr.read().decode("utf-8", "replace").strip().split("\n")[-1][:120]
    return time.time() - t, peak, ended + (f" ({said})" if said else "")


def viewer(argv, keys, settle=2.0):
    """The viewer on a pseudo-terminal (answering the terminal's questions): `keys` typed after
    `settle` seconds, then `q`; how long after `q` it ended, its peak memory, the CPU it used."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", LANG="C.UTF-8")
        os.execv(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))

    def pump(seconds):
        end = time.time() + seconds
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.02)
            if r:
                try:
                    d = os.read(fd, 1 << 16)
                except OSError:
                    return False
                if not d:
                    return False
                for _ in range(d.count(b"\x1b[c")):
                    os.write(fd, b"\x1b[?62c")
        return True

    pump(settle)
    for k in keys:
        os.write(fd, k.encode())
    pump(0.05)
    t = time.time()
    os.write(fd, b"q")
    quit_after = None
    peak = 0.0
    while time.time() - t < CAP_SECONDS:
        pump(0.01)
        got, status, usage = os.wait4(pid, os.WNOHANG)
        if got:
            quit_after = time.time() - t
            peak = usage.ru_maxrss / 1024
            break
    if quit_after is None:
        os.kill(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
        peak = usage.ru_maxrss / 1024
    os.close(fd)
    cpu = usage.ru_utime + usage.ru_stime
    return quit_after, peak, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--only")
    ap.add_argument("--work", default="/tmp/termmap-hostile-bench")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    w = lambda name: os.path.join(a.work, name)
    cases = [
        ("ring 1M, render", lambda b: capped([b, "render", "--size", "200x60", jagged_ring(w("ring1m.geojson"), 1_000_000)])),
        ("ring 1M, viewer: q after +", lambda b: viewer([b, "--no-animation", w("ring1m.geojson")], "+", settle=3)),
        ("ring 10M, render", lambda b: capped([b, "render", "--size", "200x60", jagged_ring(w("ring10m.geojson"), 10_000_000)])),
        ("ring 10M, viewer: q after +", lambda b: viewer([b, "--no-animation", w("ring10m.geojson")], "+", settle=5)),
        ("paste of 20,000 characters into /, kiosk: q after Esc", lambda b: viewer([b, "--kiosk", "--no-animation"], "/" + "Helsinki " * 2222 + "xx\x1b")),
        ("GeoPackage view of 10M rows, render", lambda b: capped([b, "render", "--size", "80x24", geopackage_view(w("view10m.gpkg"), 10_000_000)])),
        ("render /dev/zero", lambda b: capped([b, "render", "/dev/zero"])),
        ("viewer --follow /dev/zero: q", lambda b: viewer([b, "--no-animation", "--follow", "/dev/zero"], "", settle=3)),
        ("single-line GeoJSON of 1 GB, render", lambda b: capped([b, "render", "--size", "200x60", single_line(w("line1g.geojson"), 1 << 30)])),
    ]
    print(time.strftime("%Y-%m-%d"), os.uname().machine, f"{os.cpu_count()} cores")
    for name, run in cases:
        if a.only and a.only not in name:
            continue
        for b in a.binaries:
            r = run(os.path.abspath(b))
            if name.startswith(("ring 1M, viewer", "ring 10M, viewer", "paste", "viewer")):
                quit_after, peak, cpu = r
                q = f"q ended it in {quit_after * 1000:.0f} ms" if quit_after is not None else f"q did not end it in {CAP_SECONDS} s"
                print(f"{name} [{b}]: {q}; peak {peak:.0f} MB; {cpu:.1f} s of CPU in all", flush=True)
            else:
                seconds, peak, ended = r
                print(f"{name} [{b}]: {seconds:.2f} s, peak {peak:.0f} MB, {ended}", flush=True)


if __name__ == "__main__":
    main()
