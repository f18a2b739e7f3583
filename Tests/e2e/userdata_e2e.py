#!/usr/bin/env python3
"""End-to-end tests of the user's own files in the real binary: in tmux (a file opens fitted, the layer
list toggles a layer, a piped stream moves a marker and deletes it while keys still work, --follow
after a rotation), and through GDAL's real ogr2ogr (Debian gdal-bin) and stand-ins for its failures.

    python3 Tests/e2e/userdata_e2e.py .build/debug/termmap

Prints one line per check and a closing 'N passed, N failed' line.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

import harness
from harness import Checks, Tmux

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "ViewerTests", "Fixtures", "userdata")
tmux = Tmux("termmap-userdata")
check = Checks(tmux)
WORK = tempfile.mkdtemp(prefix="termmap-userdata-")
MARKER = "●"  # the first file's marker


def run(*args, env=None, timeout=90):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=timeout, env=env)


def state(*args):
    r = run("render", "--size", "100x30", "--json", *args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def write(name, lines):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write("".join(json.dumps(l) + "\n" for l in lines))
    return path


def session(command, cols=100, rows=30):
    """The viewer in tmux from a shell command line; its screen once it has drawn."""
    tmux.new_session(f"env TERM=xterm-256color LANG=C.UTF-8 sh -c '{command}'; sleep 600", cols, rows)
    s = harness.Session.__new__(harness.Session)
    s.tmux, s.status_file, s.pid_file = tmux, os.path.join(WORK, "status"), os.path.join(WORK, "pid")
    s.wait_for(lambda screen: "zoom" in screen, 10)
    return s


CITY = write("city.geojson", [{"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"name": "Station"}, "geometry": {"type": "Point", "coordinates": [24.9414, 60.1719]}},
    {"type": "Feature", "properties": {"name": "Market"}, "geometry": {"type": "Point", "coordinates": [24.9525, 60.1675]}},
    {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[24.9414, 60.1719], [24.9525, 60.1675]]}},
]}])


@check("a file opens fitted to its features, as render fits it, markers and names on screen")
def _():
    expected = state(CITY)
    s = session(f"{BINARY} {CITY}")
    screen = s.wait_for(lambda x: MARKER in x, 5)
    assert abs(s.zoom() - expected["zoom"]) < 0.006, (s.zoom(), expected["zoom"])
    assert screen.count(MARKER) == 2 and "Station" in screen and "Market" in screen, screen
    return f"zoom {s.zoom():.2f} (render: {expected['zoom']:.2f}), 2 markers, 2 names"


@check("a large file: the viewer opens at once, says how far it has read, then shows the layer fitted")
def _():
    big = os.path.join(WORK, "big.geojson")
    with open(big, "w") as f:
        f.write('{"type":"FeatureCollection","features":[')
        for i in range(120_000):
            f.write(("," if i else "") + json.dumps({"type": "Feature", "properties": {"i": i},
                    "geometry": {"type": "Point", "coordinates": [20 + (i % 400) * 0.01, 50 + (i // 400) * 0.01]}}))
        f.write("]}")
    size = os.path.getsize(big) >> 20
    t0 = time.time()
    s = session(f"{BINARY} {big}")
    opened = time.time() - t0
    reading = s.wait_for(lambda x: "reading big.geojson" in x or MARKER in x, 10)
    saw_progress = "reading big.geojson" in reading
    done = s.wait_for(lambda x: "big.geojson: 120000 features" in x, 60)
    assert "big.geojson: 120000 features" in done, done[-300:]
    assert (s.zoom() or 0) > 4, s.zoom()
    return (f"{size} MB: the map in {opened:.2f} s" + (", 'reading big.geojson N %' meanwhile" if saw_progress else "")
            + f", the layer fitted at zoom {s.zoom():.2f} after {time.time() - t0:.1f} s")


@check("the layer list (o) lists each file, 1 hides and shows the first")
def _():
    other = os.path.join(FIXTURES, "walk.gpx")
    s = session(f"{BINARY} {CITY} {other}")
    s.wait_for(lambda x: MARKER in x, 5)
    s.keys("o")
    listed = s.screen()
    assert "city.geojson: geojson · 3 features (2 points, 1 line)" in listed and "walk.gpx: gpx" in listed, listed
    s.keys("1")
    hidden = s.screen()
    assert "city.geojson hidden" in hidden and "[ ]" in hidden, ("hidden", hidden)
    s.keys("o")
    assert MARKER not in s.screen(), ("hidden and closed", s.screen())
    s.keys("o", "1", "o")
    # Fitted to both files the city's two points share a cell: one marker.
    assert MARKER in s.screen(), ("shown again", s.screen())
    return "listed with counts; hidden, then shown again"


@check("a piped stream moves a marker and deletes it while keys still work; its end is said")
def _():
    producer = os.path.join(WORK, "producer.py")
    with open(producer, "w") as f:
        f.write("""import json, sys, time
print(json.dumps({"id": 1, "lat": 60.17, "lon": 24.94, "label": "bus"}), flush=True)
time.sleep(1.5)
print("not a feature", flush=True)
for i in range(1, 11):
    print(json.dumps({"id": 1, "lat": 60.17, "lon": 24.94 + i * 0.0004, "label": "bus"}), flush=True)
    time.sleep(0.1)
time.sleep(2)
print(json.dumps({"id": 1, "delete": True}), flush=True)
time.sleep(1.5)
""")
    s = session(f"python3 {producer} | {BINARY} --zoom 16 --center 60.17,24.942 -")
    first = s.wait_for(lambda x: MARKER in x, 5)
    col0 = next(line.index(MARKER) for line in first.split("\n") if MARKER in line)
    s.keys("+")
    s.wait_for(lambda x: (s.zoom() or 0) > 16, 3)
    assert (s.zoom() or 0) > 16, ("zoom after +", s.zoom(), s.screen()[-300:])
    s.keys("-")
    moved = s.wait_for(lambda x: "1 bad line" in x and MARKER in x and
                       next(l.index(MARKER) for l in x.split("\n") if MARKER in l) > col0 + 3, 5)
    col1 = next(line.index(MARKER) for line in moved.split("\n") if MARKER in line)
    assert col1 > col0 + 3, ("moved", col0, col1, moved[-300:])
    gone = s.wait_for(lambda x: MARKER not in x, 5)
    assert MARKER not in gone, ("deleted", gone[-300:])
    ended = s.wait_for(lambda x: "stream ended" in x, 5)
    assert "standard input: stream ended, 0 features, 1 bad line" in ended, ("ended", ended[-300:])
    s.keys("q")
    return f"marker from column {col0} to {col1}, the bad line counted, deleted, 'ended' said; + and - answered meanwhile"


@check("--follow reads appended lines, and the file again after a rotation")
def _():
    path = write("live.jsonl", [{"id": "a", "lat": 60.17, "lon": 24.94}])
    s = session(f"{BINARY} --zoom 16 --center 60.17,24.942 --follow {path}")
    first = s.wait_for(lambda x: MARKER in x, 5)
    assert MARKER in first, ("first", first[-300:])
    with open(path, "a") as f:
        f.write(json.dumps({"id": "b", "lat": 60.1702, "lon": 24.944}) + "\n")
    two = s.wait_for(lambda x: x.count(MARKER) == 2, 5)
    assert two.count(MARKER) == 2, ("two", two[-300:])
    os.rename(path, path + ".1")
    with open(path, "w") as f:
        f.write(json.dumps({"id": "a", "lat": 60.1701, "lon": 24.9425}) + "\n")
    after = s.wait_for(lambda x: x.count(MARKER) == 2 and x != two, 5)
    assert after.count(MARKER) == 2 and after != two, ("after", after[-300:])
    s.keys("q")
    return "2 markers after an append; after the rotation 'a' moved to the new file's place"


@check("cat F | termmap render - draws what termmap render F draws")
def _():
    for name in ("shapes.geojson", "shapes.ndjson", "points.csv", "places.kml"):
        path = os.path.join(FIXTURES, name)
        direct = run("render", "--size", "100x30", path)
        with open(path, "rb") as f:
            piped = subprocess.run([BINARY, "render", "--size", "100x30", "-"], stdin=f, capture_output=True, text=True)
        assert direct.returncode == 0 and piped.returncode == 0, (direct.stderr, piped.stderr)
        assert direct.stdout.split("\n")[:28] == piped.stdout.split("\n")[:28], name
    return "4 files: the same map rows"


@check("a Shapefile and a GeoPackage through the real ogr2ogr, and a KMZ read as its KML: the features of the files they were made from")
def _():
    assert shutil.which("ogr2ogr"), "ogr2ogr is not installed (Debian gdal-bin)"
    csv = os.path.join(FIXTURES, "points.csv")
    out = []
    for driver, name in (("GPKG", "points.gpkg"), ("ESRI Shapefile", "points.shp")):
        target = os.path.join(WORK, name)
        subprocess.run(["ogr2ogr", "-f", driver, target, csv, "-oo", "X_POSSIBLE_NAMES=LON", "-oo", "Y_POSSIBLE_NAMES=Latitude",
                        "-oo", "KEEP_GEOM_COLUMNS=NO"], check=True, capture_output=True)
        got = state(target)["files"][0]
        want = state(csv)["files"][0]
        assert got["format"] == "ogr" and got["features"] == want["features"], (got, want)
        assert all(abs(a - b) < 1e-6 for a, b in zip(got["bounds"], want["bounds"])), (got["bounds"], want["bounds"])
        out.append(f"{name}: {got['features']['Point']} points")
    # A KMZ (a zipped KML, deflated): termmap reads its doc.kml itself (names kept; through ogr2ogr they
    # were lost), the features of the KML, as many as GDAL finds with a geometry.
    kml = os.path.join(FIXTURES, "places.kml")
    kmz = os.path.join(WORK, "places.kmz")
    with zipfile.ZipFile(kmz, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.write(kml, "doc.kml")
    got, want = state(kmz)["files"][0], state(kml)["files"][0]
    assert got["format"] == "kml" and got["features"] == want["features"] and got["skipped"]["count"] == want["skipped"]["count"], (got, want)
    assert all(abs(a - b) < 1e-6 for a, b in zip(got["bounds"], want["bounds"])), (got["bounds"], want["bounds"])
    gdal = subprocess.run(["ogr2ogr", "-f", "GeoJSONSeq", "/vsistdout/", kmz], check=True, capture_output=True, text=True).stdout
    # Per type, as the state counts them: a feature once for each type among its pieces.
    by_type = {}
    for line in gdal.splitlines():
        geometry = json.loads(line.strip("\x1e"))["geometry"] if line.strip() else None
        if geometry:
            members = geometry.get("geometries", [geometry])
            for kind in {g["type"].removeprefix("Multi") for g in members}:
                by_type[kind] = by_type.get(kind, 0) + 1
    assert got["features"] == by_type, (got["features"], by_type)
    out.append(f"places.kmz: {got['features']} as places.kml and as GDAL finds")
    return "; ".join(out)


@check("a file that shrinks while it is read (another program truncating it): one line, exit 1, the terminal restored")
def _():
    path = os.path.join(WORK, "shrink.csv")

    def write_big():
        with open(path, "w") as f:
            f.write("id,lat,lon\n")
            for i in range(400_000):
                f.write(f"{i},{(i % 1600) * 0.1 - 80:.4f},{(i // 1600) * 0.7 - 175:.4f}\n")
    write_big()
    render = subprocess.Popen([BINARY, "render", "--size", "80x24", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(0.05)
    os.truncate(path, 1000)
    _, err = render.communicate(timeout=60)
    said = err.strip().splitlines()
    # A reader faster than the truncation reads the whole file: then nothing is wrong.
    shrank = render.returncode == 1
    assert (shrank and said == [f"termmap: {path}: the file changed (it shrank) while it was read"]) or render.returncode == 0, (render.returncode, err)
    write_big()
    s = session(f"{BINARY} {path}; echo exit=$?")
    s.wait_for(lambda x: "reading shrink.csv" in x or "exit=" in x, 20)
    os.truncate(path, 1000)
    screen = s.wait_for(lambda x: "exit=" in x, 20)
    alternate = tmux("display", "-p", "-t", "m", "#{alternate_on} #{mouse_any_flag}").strip()
    assert "the file changed (it shrank) while it was read" in screen and "exit=1" in screen, screen
    assert alternate == "0 0", alternate
    return ("render: one line, exit 1" if shrank else "render read it whole before the truncation") + "; viewer: one line, exit 1, alternate screen and mouse off"


@check("ogr2ogr missing, failing, or silent for 30 s: one line each, exit 1")
def _():
    shp = os.path.join(WORK, "points.shp")
    stub = os.path.join(WORK, "bin")
    os.makedirs(stub, exist_ok=True)
    env = dict(os.environ, PATH="/nonexistent")
    missing = run("render", shp, env=env)
    assert missing.returncode == 1 and "gdal-bin" in missing.stderr and missing.stderr.count("\n") == 1, missing.stderr
    with open(os.path.join(stub, "ogr2ogr"), "w") as f:
        f.write("#!/bin/sh\necho 'ERROR 1: Unable to open datasource' >&2\necho 'ERROR 4: the last line' >&2\nexit 1\n")
    os.chmod(os.path.join(stub, "ogr2ogr"), 0o755)
    env = dict(os.environ, PATH=stub + ":/usr/bin:/bin")
    failing = run("render", shp, env=env)
    assert failing.returncode == 1 and "ERROR 4: the last line" in failing.stderr and failing.stderr.count("\n") == 1, failing.stderr
    with open(os.path.join(stub, "ogr2ogr"), "w") as f:
        f.write("#!/bin/sh\necho 'opening' >&2\nexec sleep 100\n")
    t = time.time()
    silent = run("render", shp, env=env)
    took = time.time() - t
    assert silent.returncode == 1 and "nothing for 30 s" in silent.stderr and 29 < took < 45, (silent.stderr, took)
    return f"{missing.stderr.strip()} | {failing.stderr.strip()} | {silent.stderr.strip()} ({took:.1f} s)"


check.report("user data e2e")
