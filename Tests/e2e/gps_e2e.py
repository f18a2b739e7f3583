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
        # gpsd listens on loopback only (no -G); `timeout` ends it should the test never stop it.
        self.proc = subprocess.Popen(["timeout", "-s", "KILL", "120", "gpsfake", "-q", "-1", "-P", str(port), "-c",
                                      str(cycle), log],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(1.5)

    def stop(self):
        """gpsfake and its gpsd (one process group) asked to end, then killed if they linger."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.proc.wait(timeout=3)
                return
            except subprocess.TimeoutExpired:
                continue


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


def record_file(log, gpx):
    """The viewer reads the NMEA `log` to its end, recording it to `gpx`, and quits."""
    s = Session(tmux, BINARY, "--gps %s --gps-record %s" % (log, gpx), cols=100, rows=30)
    try:
        s.wait_for(lambda t: "REC" in t, 10)
        time.sleep(1)
        s.keys("q")
        assert s.exit_status() == 0
    finally:
        s.close()


@check("recording: --gps-record of the drive from an NMEA file: gpxpy reads the GPX, its points are the log's fixes (lat/lon within 1e-7 deg, height, time); kill -9 while recording from gpsd leaves a GPX gpxpy and termmap read; the same file again goes on in a new segment")
def _():
    import gpxpy
    rec = os.path.join(WORK, "drive.gpx")
    record_file(DRIVE, rec)
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
    record_file(WALK, killed)
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


# Time (issue 49, its second part): tracks with a time at each vertex played on one clock.

def gpx(path, name, fixes, times):
    pts = "".join('<trkpt lat="%.9f" lon="%.9f"><time>%s</time></trkpt>' % (f["lat"], f["lon"], iso(t))
                  for f, t in zip(fixes, times))
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">'
                "<trk><name>%s</name><trkseg>%s</trkseg></trk></gpx>" % (name, pts))


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(int(t))) + (".%03dZ" % round((t % 1) * 1000))


T0 = 1714558500.0  # 2024-05-01T10:15:00Z


def reference(fixes, times, t):
    """Python's position at t: the geodesic between the vertices around t, at the share of their time."""
    from geographiclib.geodesic import Geodesic
    if t < times[0]:
        return None
    for i in range(1, len(times)):
        if t < times[i]:
            a, b = fixes[i - 1], fixes[i]
            g = Geodesic.WGS84.Inverse(a["lat"], a["lon"], b["lat"], b["lon"])
            d = Geodesic.WGS84.Direct(a["lat"], a["lon"], g["azi1"], g["s12"] * (t - times[i - 1]) / (times[i] - times[i - 1]))
            return d["lat2"], d["lon2"]
    return fixes[-1]["lat"], fixes[-1]["lon"]


def metres(a, b):
    from geographiclib.geodesic import Geodesic
    return Geodesic.WGS84.Inverse(a[0], a[1], b[0], b[1])["s12"]


@check("time: two tracks on one clock (GPX, uneven times): each marker at 20 seeded instants equals Python's geodesic interpolation by time within a cell (zoom 16); the drawn marker is in its cell; --at before a track's start: no marker; i on the track says its nearest point's time and speed")
def _():
    import random
    rnd = random.Random(49)
    drive_times, t = [], T0
    for _ in LOGS["drive"]:
        drive_times.append(t)
        t += rnd.choice([0.5, 1, 1, 2, 5, 9])
    walk_times = [T0 + 30 + 1.5 * i for i in range(len(LOGS["walk"]))]
    gpx(os.path.join(WORK, "drive.gpx"), "drive", LOGS["drive"], drive_times)
    gpx(os.path.join(WORK, "walk.gpx"), "walk", LOGS["walk"], walk_times)
    files = [os.path.join(WORK, "drive.gpx"), os.path.join(WORK, "walk.gpx")]
    worst, cell = 0.0, 0.0
    for _ in range(20):
        at = T0 + rnd.uniform(0, max(drive_times[-1], walk_times[-1]) - T0)
        d = json.loads(run("render", *files, "--at", iso(at), "--zoom", "16", "--json").stdout)
        cell = d["metersPerDot"] * 4
        for f, fixes, times in zip(d["files"], (LOGS["drive"], LOGS["walk"]), (drive_times, walk_times)):
            want = reference(fixes, times, round(at * 1000) / 1000)
            if want is None:
                assert f.get("marker") is None, (f, at)
                continue
            got = (f["marker"]["lat"], f["marker"]["lon"])
            worst = max(worst, metres(got, want))
    assert worst < cell, (worst, cell)
    # The marker as drawn: the drive alone, the view centred on its marker.
    at = T0 + 100
    m = json.loads(run("render", files[0], "--at", iso(at), "--json").stdout)["files"][0]["marker"]
    shown = run("render", files[0], "--at", iso(at), "--center", "%r,%r" % (m["lat"], m["lon"]), "--zoom", "16",
                "--size", "80x24", "--color", "never").stdout.split("\n")
    assert shown[11][40] == "●", shown[10:13]
    # i on the track: its point nearest the crosshair, that point's time and speed (Python's geodesic).
    from geographiclib.geodesic import Geodesic
    f, k = LOGS["drive"], 14
    info = json.loads(run("render", files[0], "--center", "%r,%r" % (f[k]["lat"], f[k]["lon"]), "--zoom", "17",
                          "--keys", "i", "--json").stdout)["info"]["tracks"]
    metres_ = sum(Geodesic.WGS84.Inverse(f[a]["lat"], f[a]["lon"], f[b]["lat"], f[b]["lon"])["s12"]
                  for a, b in ((k - 1, k), (k, k + 1)))
    speed = round(metres_ / (drive_times[k + 1] - drive_times[k - 1]) * 3.6)
    assert info == ["track drive: %s · %d km/h" % (iso(drive_times[k]).replace(".000Z", "Z"), speed)], (info, speed)
    return "worst %.3f m (a cell is %.2f m); the marker drawn at its cell; i: %s" % (worst, cell, info[0])


@check("time: t aligns tracks by their starts (a walk an hour later plays beside the drive); <time-forward> steps the clock a fiftieth of the span; GPX without times: T says so and --at ends in one line")
def _():
    late = os.path.join(WORK, "late.gpx")
    gpx(late, "late walk", LOGS["walk"], [T0 + 3600 + i for i in range(len(LOGS["walk"]))])
    drive = os.path.join(WORK, "drive.gpx")
    at = iso(T0 + 40)
    d = json.loads(run("render", drive, late, "--at", at, "--keys", "t", "--json").stdout)
    assert d["time"]["alignStarts"] is True, d["time"]
    got = (d["files"][1]["marker"]["lat"], d["files"][1]["marker"]["lon"])
    want = reference(LOGS["walk"], [T0 + 3600 + i for i in range(len(LOGS["walk"]))], T0 + 3600 + 40)
    assert metres(got, want) < 0.5, (got, want)
    d = json.loads(run("render", drive, late, "--at", iso(T0), "--keys", "<time-forward>", "--json").stdout)
    span = d["time"]["span"]
    from datetime import datetime
    now = datetime.fromisoformat(d["time"]["now"].replace("Z", "+00:00")).timestamp()
    assert abs(now - (T0 + (3600 + len(LOGS["walk"]) - 1) / 50)) < 0.001, d["time"]
    untimed = os.path.join(WORK, "untimed.gpx")
    with open(untimed, "w") as f:
        f.write('<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>'
                '<trkpt lat="60.1" lon="24.9"/><trkpt lat="60.2" lon="24.95"/></trkseg></trk></gpx>')
    r = run("render", untimed, "--at", at)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "no times in untimed.gpx" in r.stderr, r.stderr
    s = Session(tmux, BINARY, untimed, cols=100, rows=30)
    try:
        s.keys("T")
        said = s.screen()
        assert "no times in untimed.gpx" in said, said
    finally:
        s.close()
    return "aligned walk within 0.5 m; span %s; %s" % (span, r.stderr.strip())


@check("time from every format: a KML gx:Track, a GeoJSON LineString with coordinateProperties.times (given backwards: sorted, said once), GeoJSON points with a time property, a CSV with a time column, live lines on standard input: each plays, its marker equal to Python's")
def _():
    fixes, times = LOGS["walk"][:30], [T0 + 2 * i for i in range(30)]
    kml = os.path.join(WORK, "track.kml")
    with open(kml, "w") as f:
        f.write('<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>'
                "<Placemark><name>kml walk</name><gx:Track>" + "".join("<when>%s</when>" % iso(t) for t in times)
                + "".join("<gx:coord>%.9f %.9f 0</gx:coord>" % (p["lon"], p["lat"]) for p in fixes)
                + "</gx:Track></Placemark></Document></kml>")
    line = os.path.join(WORK, "backwards.geojson")
    order = list(range(30))
    order[10], order[11] = 11, 10
    with open(line, "w") as f:
        json.dump({"type": "Feature", "properties": {"name": "line walk", "coordinateProperties": {
            "times": [iso(times[i]) for i in order]}}, "geometry": {"type": "LineString", "coordinates": [
                [fixes[i]["lon"], fixes[i]["lat"]] for i in order]}}, f)
    points = os.path.join(WORK, "points.geojson")
    with open(points, "w") as f:
        json.dump({"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"time": iso(t)}, "geometry": {"type": "Point", "coordinates": [
                p["lon"], p["lat"]]}} for p, t in zip(fixes, times)]}, f)
    csv = os.path.join(WORK, "fixes.csv")
    with open(csv, "w") as f:
        f.write("lat,lon,time\n" + "".join("%.9f,%.9f,%s\n" % (p["lat"], p["lon"], iso(t)) for p, t in zip(fixes, times)))
    at = T0 + 21.3
    want = reference(fixes, times, at)
    # Live lines (termmap - reads them as they come): one point a line, each with its time.
    lines = "".join(json.dumps({"type": "Feature", "properties": {"time": iso(t)}, "geometry": {
        "type": "Point", "coordinates": [p["lon"], p["lat"]]}}) + "\n" for p, t in zip(fixes, times))
    env = dict(os.environ, XDG_DATA_HOME=EMPTY, XDG_CONFIG_HOME=EMPTY)
    r = subprocess.run([BINARY, "render", "-", "--at", iso(at), "--json"], input=lines, capture_output=True,
                       text=True, timeout=60, env=env)
    m = json.loads(r.stdout)["files"][0].get("marker")
    assert r.returncode == 0 and m is not None and metres((m["lat"], m["lon"]), want) < 0.5, (r.stderr, m)
    out = ["live lines"]
    for path in (kml, line, points, csv):
        r = run("render", path, "--at", iso(at), "--json")
        assert r.returncode == 0, r.stderr
        m = json.loads(r.stdout)["files"][0].get("marker")
        assert m is not None and metres((m["lat"], m["lon"]), want) < 0.5, (path, m, want)
        out.append(os.path.basename(path))
        if path == line:
            assert r.stderr.count("times going backwards; sorted") == 1, r.stderr
    return "%s: markers within 0.5 m of Python's; the backwards line said once" % ", ".join(out)


@check("time in the viewer: T opens the bar, ] ] plays at 60x, Space plays (the clock moves about 60 s a second), Space pauses; F follows the marker, 2 the second track's, Esc closes the bar")
def _():
    s = Session(tmux, BINARY, "%s %s" % (os.path.join(WORK, "drive.gpx"), os.path.join(WORK, "walk.gpx")),
                cols=110, rows=30)
    try:
        s.keys("T")
        assert "2 tracks play" in s.screen(), s.screen()
        s.keys("]", "]", "F", " ")
        time.sleep(2)
        s.keys(" ")
        bar = next(ln for ln in s.lines() if "tracks" in ln and ("‖" in ln or "▶" in ln))
        clock = re.search(r"(\d\d):(\d\d):(\d\d)", bar)
        seconds = int(clock.group(2)) * 60 + int(clock.group(3)) - 15 * 60
        assert 60 <= seconds <= 200 and "60×" in bar and "‖" in bar, bar
        assert "●" in s.screen(), s.screen()
        s.keys("2")
        assert "following walk" in s.screen(), s.screen()
        s.keys("Escape")
        assert not any("tracks" in ln and "60×" in ln for ln in s.lines()), s.screen()
        s.keys("q")
        assert s.exit_status() == 0
        return "after ~2 s at 60x: %s" % bar.strip()[:60]
    finally:
        s.close()


if __name__ == "__main__":
    try:
        check.report("gps e2e")
    finally:
        subprocess.run(["rm", "-rf", WORK])
