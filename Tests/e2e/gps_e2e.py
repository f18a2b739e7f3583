#!/usr/bin/env python3
"""End-to-end tests of the live position (issue 49) through the real binary: Debian's gpsd, fed by
gpsfake from NMEA logs of a known path (`Tools/make_nmea.py`: a drive with a bad checksum, a lost and
regained fix and a 2D fix; a walk), NMEA files, a pty standing in for a serial port, and gpsd stand-ins
that misbehave. Positions are compared with the logs' own digits; recorded tracks are read back with
gpxpy.

    PYTHONPATH=.pytest python3 Tests/e2e/gps_e2e.py .build/debug/termmap

Prints one line per check and a closing 'N passed, N failed' line.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import harness
from harness import Session

BINARY, ROOT, tmux, check, WORK, EMPTY = harness.suite("gps")
made = subprocess.run([sys.executable, os.path.join(ROOT, "Tools", "make_nmea.py"), WORK], capture_output=True,
                      text=True, timeout=120)
assert made.returncode == 0, made.stderr
LOGS = json.loads(made.stdout)
DRIVE, WALK = os.path.join(WORK, "drive.nmea"), os.path.join(WORK, "walk.nmea")
ARROWS = "↑↗→↘↓↙←↖"


def run(*args, timeout=60):
    env = dict(os.environ, XDG_DATA_HOME=EMPTY, XDG_CONFIG_HOME=EMPTY)
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=timeout, env=env,
                          stdin=subprocess.DEVNULL)


def gps_json(*args):
    r = run("render", *args, "--json")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    return json.loads(r.stdout)["gps"]


def nearest(fixes, lat, lon):
    """The log's fix nearest (lat, lon) and how far, in degrees."""
    best = min(fixes, key=lambda f: abs(f["lat"] - lat) + abs(f["lon"] - lon))
    return best, max(abs(best["lat"] - lat), abs(best["lon"] - lon))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gpsfake:
    """gpsfake (with its own gpsd on 127.0.0.1:port) replaying `log` once, `cycle` s between sentences; it
    starts when the first client watches."""

    def __init__(self, log, port, cycle=0.1):
        self.proc = subprocess.Popen(["gpsfake", "-q", "-1", "-P", str(port), "-c", str(cycle), log],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(1.5)

    def stop(self):
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=10)


@check("NMEA files: render --gps drive.nmea / walk.nmea --json is the log's last fix within 1e-7 deg (height, speed, course, time too); the bad checksum is counted and its moved position never shown")
def _():
    for path, fixes in ((DRIVE, LOGS["drive"]), (WALK, LOGS["walk"])):
        g = gps_json("--gps", path)
        last = fixes[-1]
        assert abs(g["lat"] - last["lat"]) <= 1e-7 and abs(g["lon"] - last["lon"]) <= 1e-7, (g, last)
        assert g["alt"] == last["alt"] and abs(g["speed"] - last["speed"]) < 1e-9 and g["course"] == last["course"]
        assert g["time"] == last["time"] and g["mode"] == 3 and g["status"] is None, g
    g = gps_json("--gps", DRIVE)
    assert g["badLines"] == 1, g
    # The refused sentence was 0.01 deg north of the log's fix at epoch 30: a render of the log cut there.
    cut = os.path.join(WORK, "cut.nmea")
    with open(DRIVE) as f:
        lines = f.read().split("\n")
    upto = next(i for i, ln in enumerate(lines) if ln.startswith("$GPRMC,101530"))
    with open(cut, "w") as f:
        f.write("\n".join(lines[:upto + 1]) + "\n")
    g = gps_json("--gps", cut)
    fix, off = nearest(LOGS["drive"], g["lat"], g["lon"])
    assert off <= 1e-7 and g["badLines"] == 1, (g, fix)
    return "drive %d fixes, walk %d; the last equal; 1 bad sentence counted" % (len(LOGS["drive"]), len(LOGS["walk"]))


@check("gpsd for real: gpsfake replays the drive into Debian's gpsd; 6 renders' gps (TPV) equal fixes of the log within 1e-7 deg, in order")
def _():
    port = free_port()
    fake = Gpsfake(DRIVE, port, cycle=0.05)
    try:
        seen = []
        for _ in range(6):
            g = gps_json("--gps", "127.0.0.1:%d" % port)
            assert g["lat"] is not None, g
            fix, off = nearest(LOGS["drive"], g["lat"], g["lon"])
            assert off <= 1e-7, (g, fix)
            seen.append(LOGS["drive"].index(fix))
            time.sleep(0.3)
        assert seen == sorted(seen) and len(set(seen)) > 1, seen
        return "epochs %s; worst %.1e deg" % (seen, 0.0)
    finally:
        fake.stop()


@check("the viewer follows gpsd's position: the marker (an arrow along the course) stays on screen as the drive plays; a pan stops following, F resumes; gpsfake stopped: the message says so and the map goes on; restarted: the position resumes")
def _():
    port = free_port()
    fake = Gpsfake(DRIVE, port, cycle=0.1)
    s = Session(tmux, BINARY, "--gps 127.0.0.1:%d" % port, cols=100, rows=30)
    try:
        s.wait_for(lambda t: "km/h" in t, 10)
        on_screen = 0
        for _ in range(8):
            time.sleep(0.6)
            if any(a in s.screen() for a in ARROWS):
                on_screen += 1
        assert on_screen == 8, s.screen()
        s.keys("l")
        assert "following the position off" in s.screen(), s.screen()
        s.keys("F")
        assert "following the position" in s.screen(), s.screen()
        fake.stop()
        said = s.wait_for(lambda t: "closed the connection" in t, 8)
        assert "closed the connection" in said, said
        before = s.zoom()
        s.keys("+")
        assert s.zoom() is not None and s.zoom() > before, s.screen()
        fake = Gpsfake(WALK, port, cycle=0.1)
        back = s.wait_for(lambda t: "GPS: 3D fix" in t or "GPS: 2D fix" in t, 15)
        assert "fix at" in back, back
        s.keys("q")
        assert s.exit_status() == 0
        return "marker on screen 8 of 8 times; lost: %r; back: %r" % (
            next(ln for ln in said.split("\n") if "closed" in ln).strip()[:70],
            next(ln for ln in back.split("\n") if "fix at" in ln).strip()[:60])
    finally:
        s.close()
        fake.stop()


@check("recording: --gps-record of the drive from an NMEA file: gpxpy reads the GPX, its points are the log's fixes (lat/lon within 1e-7 deg, height, time); kill -9 while recording from gpsd leaves a GPX gpxpy and termmap read; the same file again goes on in a new segment")
def _():
    import gpxpy
    rec = os.path.join(WORK, "drive.gpx")
    s = Session(tmux, BINARY, "--gps %s --gps-record %s" % (DRIVE, rec), cols=100, rows=30)
    try:
        s.wait_for(lambda t: "REC" in t, 10)
        time.sleep(1)
        s.keys("q")
        assert s.exit_status() == 0
    finally:
        s.close()
    with open(rec) as f:
        points = [p for t in gpxpy.parse(f).tracks for seg in t.segments for p in seg.points]
    fixes = LOGS["drive"]
    assert len(points) == len(fixes), (len(points), len(fixes))
    for p, f in zip(points, fixes):
        assert abs(p.latitude - f["lat"]) <= 1e-7 and abs(p.longitude - f["lon"]) <= 1e-7, (p, f)
        assert p.elevation == f["alt"] and p.time.strftime("%H:%M:%S") == f["time"][11:19], (p, f)
    # Killed mid-way.
    killed = os.path.join(WORK, "killed.gpx")
    port = free_port()
    fake = Gpsfake(DRIVE, port, cycle=0.1)
    s = Session(tmux, BINARY, "--gps 127.0.0.1:%d --gps-record %s" % (port, killed), cols=100, rows=30)
    try:
        s.wait_for(lambda t: "km/h" in t, 10)
        time.sleep(3)
        os.kill(s.pid(), signal.SIGKILL)
        time.sleep(0.5)
    finally:
        s.close()
        fake.stop()
    with open(killed) as f:
        kept = [p for t in gpxpy.parse(f).tracks for seg in t.segments for p in seg.points]
    assert len(kept) >= 3, len(kept)
    for p in kept:
        assert nearest(fixes, p.latitude, p.longitude)[1] <= 1e-7, p
    r = run("render", killed, "--size", "80x24")
    assert r.returncode == 0, r.stderr
    # Again on the same file: a second segment, the walk.
    s = Session(tmux, BINARY, "--gps %s --gps-record %s" % (WALK, killed), cols=100, rows=30)
    try:
        s.wait_for(lambda t: "REC" in t, 10)
        time.sleep(1)
        s.keys("q")
        assert s.exit_status() == 0
    finally:
        s.close()
    with open(killed) as f:
        segments = [seg for t in gpxpy.parse(f).tracks for seg in t.segments]
    assert len(segments) == 2 and len(segments[1].points) == len(LOGS["walk"]), [len(x.points) for x in segments]
    return "%d points equal the log's; killed after %d points: valid; then 2 segments (%d + %d)" % (
        len(points), len(kept), len(segments[0].points), len(segments[1].points))


@check("NMEA from a pty standing in for a serial port: render --gps /dev/pts/N gives the first fix written")
def _():
    master, slave = os.openpty()
    name = os.ttyname(slave)
    with open(WALK, "rb") as f:
        sentences = f.read().split(b"\r\n")

    def feed():
        time.sleep(0.5)
        for line in sentences[:12]:
            os.write(master, line + b"\r\n")
            time.sleep(0.02)

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        g = gps_json("--gps", name)
    finally:
        writer.join()
        os.close(master)
        os.close(slave)
    first = LOGS["walk"][0]
    assert abs(g["lat"] - first["lat"]) <= 1e-7 and abs(g["lon"] - first["lon"]) <= 1e-7, (g, first)
    return "%s: %.7f, %.7f" % (name, g["lat"], g["lon"])


def stand_in(behaviour):
    """A gpsd stand-in on 127.0.0.1 that answers one client as `behaviour(conn)` says; its port."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(10)

    def serve():
        try:
            conn, _ = server.accept()
            behaviour(conn)
            conn.close()
        except OSError:
            pass
        server.close()

    threading.Thread(target=serve, daemon=True).start()
    return server.getsockname()[1]


@check("bad gpsd and bad NMEA: garbage, a 1 MB JSON line, then a TPV: the TPV's position, 2 lines counted; a socket closed at once, a stream without line ends: one status each, exit 0 within 5 s; random bytes as NMEA: no position, exit 0")
def _():
    tpv = {"class": "TPV", "mode": 3, "lat": 60.1234567, "lon": 24.7654321, "alt": 5.5, "speed": 2.0,
           "track": 45.0, "eph": 30.0, "time": "2024-05-01T10:15:00.000Z"}

    def noisy(conn):
        conn.recv(100)
        conn.sendall(b"this is no json\n" + b'{"class":"TPV","x":"' + b"x" * (1 << 20) + b'"}\n')
        conn.sendall(json.dumps(tpv).encode() + b"\n")
        time.sleep(2)

    g = gps_json("--gps", "127.0.0.1:%d" % stand_in(noisy))
    assert g["lat"] == tpv["lat"] and g["lon"] == tpv["lon"] and g["eph"] == 30.0 and g["badLines"] == 2, g
    lines = []
    for behaviour in (lambda conn: None, lambda conn: (conn.sendall(b"x" * 300000), time.sleep(4))):
        started = time.time()
        r = run("render", "--gps", "127.0.0.1:%d" % stand_in(behaviour), "--json", timeout=20)
        assert r.returncode == 0 and time.time() - started < 5, (r.returncode, time.time() - started)
        lines.append(json.loads(r.stdout)["gps"]["status"])
    noise = os.path.join(WORK, "noise.nmea")
    with open(noise, "wb") as f:
        f.write(os.urandom(200000))
    g = gps_json("--gps", noise)
    assert g["lat"] is None and g["status"], g
    return "TPV read past 2 bad lines; %s; random bytes: %r" % (" | ".join(lines), g["status"])


@check("the marker points along the course: an arrow of the course's octant while moving (course 90 at 10 m/s: →), a dot when still; in ASCII > and @")
def _():
    def nmea(course, knots):
        body = "GPRMC,101500.00,A,6010.194000,N,02456.316970,E,%.3f,%.1f,010524,,,A" % (knots, course)
        c = 0
        for ch in body.encode():
            c ^= ch
        path = os.path.join(WORK, "one-%d-%d.nmea" % (course, knots))
        with open(path, "w") as f:
            f.write("$%s*%02X\r\n" % (body, c))
        return path

    def centre(path, *extra):
        r = run("render", "--gps", path, "--size", "80x24", "--color", "never", *extra)
        assert r.returncode == 0, r.stderr
        return r.stdout.split("\n")[11][40]

    got = {(c, k): centre(nmea(c, k)) for c, k in ((90, 19), (0, 19), (225, 19), (300, 19), (90, 0))}
    assert got == {(90, 19): "→", (0, 19): "↑", (225, 19): "↙", (300, 19): "↖", (90, 0): "◉"}, got
    ascii_ = (centre(nmea(90, 19), "--ascii"), centre(nmea(90, 0), "--ascii"))
    assert ascii_ == (">", "@"), ascii_
    return "%s; ASCII %s" % (" ".join("%d°:%s" % (c, g) for (c, k), g in got.items() if k), " ".join(ascii_))


if __name__ == "__main__":
    try:
        check.report("gps e2e")
    finally:
        subprocess.run(["rm", "-rf", WORK])
