#!/usr/bin/env python3
"""End-to-end tests of directions (issue 46) through the real binary: `termmap route` (text, JSON,
GPX read back by gpxpy and by termmap itself), its bad inputs, an import
made by `data import-osm`, and the viewer's d, pan, d, Tab, D, Esc and reach in tmux.

    PYTHONPATH=.pytest python3 Tests/e2e/route_e2e.py .build/debug/termmap

Prints one line per check and a closing 'N passed, N failed' line.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import gpxpy  # the reference GPX reader (make test-deps puts it in .pytest)

import harness
from harness import Checks, Tmux

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
PBF = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "osm", "Helsinki.osm.pbf")
tmux = Tmux("termmap-route-e2e")
check = Checks(tmux)
WORK = tempfile.mkdtemp(prefix="termmap-route-")
STATION, MARKET = "60.1699,24.9384", "60.1675,24.9525"
EMPTY = os.path.join(WORK, "empty")
os.makedirs(EMPTY)


def run(*args, data=None):
    env = dict(os.environ, XDG_DATA_HOME=EMPTY, XDG_CONFIG_HOME=EMPTY)
    argv = [BINARY, *args] + (["--data", data] if data else [])
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)


@check("route FROM TO: the summary and the steps on the bundled demo city")
def _():
    r = run("route", STATION, MARKET)
    assert r.returncode == 0 and not r.stderr, (r.returncode, r.stderr)
    lines = r.stdout.strip().split("\n")
    assert re.match(r"on foot · [\d.]+ (m|km) · \d+ min", lines[0]), lines[0]
    assert any("turn right onto Mannerheimintie" in l for l in lines) and lines[-1].strip() == "arrive", lines
    car = run("route", STATION, MARKET, "--profile", "car").stdout.split("\n")[0]
    assert car.startswith("by car · "), car
    return lines[0]


@check("--json has the issue's fields; --gpx reads back in termmap and gpxpy")
def _():
    doc = json.loads(run("route", STATION, MARKET, "--json").stdout)
    assert set(doc) == {"profile", "meters", "seconds", "snapped", "steps", "geometry"}, set(doc)
    step = doc["steps"][0]
    assert set(step) == {"instruction", "name", "meters", "seconds", "bearing", "lat", "lon"}, step
    assert abs(sum(s["meters"] for s in doc["steps"]) - doc["meters"]) < 0.5
    gpx = run("route", STATION, MARKET, "--gpx").stdout
    path = os.path.join(WORK, "route.gpx")
    with open(path, "w") as f:
        f.write(gpx)
    state = json.loads(run("render", path, "--json").stdout)
    files = state["files"]
    assert files and not files[0]["error"] and files[0]["features"].get("LineString", 0) >= 1, files
    g = gpxpy.parse(gpx)
    assert len(g.routes) == 1 and len(g.routes[0].points) == len(doc["steps"]), "gpxpy's route"
    track = [(p.latitude, p.longitude) for p in g.tracks[0].segments[0].points]
    assert track == [tuple(c) for c in doc["geometry"]], "gpxpy's track is the route's line"
    return f"{len(doc['steps'])} steps, {len(doc['geometry'])} points; termmap and gpxpy read it"


@check("bad input: one line each, exit 1 or 2")
def _():
    cases = {
        "no import": (run("route", "48.8584,2.2945", "48.8606,2.3376", data=EMPTY), 1, "no route"),
        "from the sea": (run("route", "60.1000,24.9500", MARKET), 1, "is outside every import"),
        "same point": (run("route", MARKET, MARKET), 1, "the same point"),
        "no such profile": (run("route", STATION, MARKET, "--profile", "boat"), 2, "did you mean"),
        "no such place": (run("route", STATION, "Nowhereville"), 1, "no place is called that"),
        "one point": (run("route", STATION), 2, "expected FROM and TO"),
    }
    bad = []
    for name, (r, status, words) in cases.items():
        if r.returncode != status or r.stderr.count("\n") != 1 or words not in r.stderr or r.stdout:
            bad.append((name, r.returncode, r.stderr[:160]))
    assert not bad, bad
    return f"{len(cases)} cases"


@check("data import-osm keeps the network; route and --reach use the import")
def _():
    data = os.path.join(WORK, "data")
    os.makedirs(data)
    r = run("data", "import-osm", PBF, "--name", "city", data=data)
    assert r.returncode == 0 and "street network for routes:" in r.stdout, r.stdout
    listed = run("data", "list", data=data).stdout
    assert "no street network" not in listed, listed
    reach = run("route", STATION, "--reach", "10min", "--json", data=data)
    doc = json.loads(reach.stdout)
    assert doc["minutes"] == 10 and doc["meters"] > 1000 and doc["lines"], reach.stderr
    return re.search(r"street network for routes: [^\n]*", r.stdout).group(0)


def Session(args="", cols=100, rows=30):
    return harness.Session(tmux, BINARY, args, cols, rows,
                           env=f"TERM=xterm-256color LANG=C.UTF-8 XDG_DATA_HOME={EMPTY} XDG_CONFIG_HOME={EMPTY}")


@check("tmux: d, pan, d routes; Tab cycles the profile; D lists the steps; Esc closes then clears")
def _():
    s = Session(f"--center {STATION} --zoom 15")
    s.keys("d")
    s.wait_for(lambda t: "route from here" in t)
    s.keys("g")
    s.literal(MARKET)
    s.keys("Enter", "d", pause=1.0)
    screen = s.wait_for(lambda t: "on foot · " in t)
    summary = re.search(r"on foot · [^·]+ · \d+ min", screen)
    assert summary, screen
    s.keys("Tab")
    assert "by bike · " in s.wait_for(lambda t: "by bike · " in t)
    s.keys("Tab")
    assert "by car · " in s.wait_for(lambda t: "by car · " in t)
    s.keys("D")
    panel = s.wait_for(lambda t: "Enter centres" in t)
    assert "onto" in panel and "arrive" in panel, panel
    s.keys("Escape")
    assert "Enter centres" not in s.wait_for(lambda t: "Enter centres" not in t)
    s.keys("Escape")
    assert "route cleared" in s.wait_for(lambda t: "route cleared" in t)
    s.keys("q")
    assert s.exit_status() == 0
    return summary.group(0)


@check("tmux: D shows the reach in 15 min, r sets 10; the shade takes the cells off the streets")
def _():
    s = Session(f"--center {STATION} --zoom 16")
    s.keys("D")
    screen = s.wait_for(lambda t: "within 15 min" in t)
    assert "on foot within 15 min: " in screen, screen
    s.keys("r")
    s.literal("10")
    s.keys("Enter")
    screen = s.wait_for(lambda t: "within 10 min" in t)
    coloured = s.screen(colours=True)
    # The circle's shade (a navy background, 48;5;17 or 18) where streets are not reached.
    assert re.search(r"48;5;1[78]m", coloured), "no shaded cells"
    s.keys("q")
    assert s.exit_status() == 0
    return re.search(r"on foot within 10 min: [^·]+", screen).group(0)


if __name__ == "__main__":
    try:
        check.report("route e2e")
    finally:
        subprocess.run(["rm", "-rf", WORK])
