#!/usr/bin/env python3
"""End-to-end tests of a newcomer's first ten minutes in the real binary (tmux for the viewer, `render`
for the rest): the views explain themselves, the messages help.

    python3 Tests/e2e/newcomer_e2e.py .build/debug/termmap

Prints one line per check and a closing 'N passed, N failed' line.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import harness
from harness import Checks, Tmux

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
tmux = Tmux("termmap-newcomer-e2e")
check = Checks(tmux)
NO_STREET_DATA = "no street data here: termmap --tiles openfreemap, or termmap data get"


def Session(args="", cols=120, rows=40):
    return harness.Session(tmux, BINARY, args, cols, rows)


def message(s):
    return s.lines()[-1]


@check("Paris at zoom 16 says how to get street data at once; the next key's own message replaces it")
def _():
    s = Session("--center 48.8584,2.2945 --zoom 16 --no-animation")
    s.wait_for(lambda t: NO_STREET_DATA in t)
    s.keys("l")
    s.wait_for(lambda t: "pan to" in t.splitlines()[-1])
    assert NO_STREET_DATA not in s.screen()
    s.close()


@check("panning east out of the demo city says `no street data beyond here` within 9 screens, over the pans' own message")
def _():
    s = Session("--center 60.1699,24.9384 --zoom 16 --no-animation")
    seen = []
    for screens in range(1, 10):
        s.keys("L")
        line = s.wait_for(lambda t: "pan to" in t.splitlines()[-1] or "street data" in t.splitlines()[-1])
        seen.append(line.splitlines()[-1].strip())
        if "no street data beyond here" in seen[-1]:
            break
    s.close()
    assert "no street data beyond here" in seen[-1], seen
    return f"after {screens} screens"


@check("a misspelt option, command or help topic gets the nearest: --colour, --centre, rendr, help mann")
def _():
    said = []
    for args, nearest, status in [(["--colour", "never"], "'--color'", 2), (["--centre", "1,2"], "'--center'", 2),
                                  (["rendr"], "'render'", 1), (["help", "mann"], "'man'", 2)]:
        r = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=30)
        assert r.returncode == status and f"(did you mean {nearest}?)" in r.stderr, (args, r.returncode, r.stderr)
        assert len(r.stderr.splitlines()) == 1, r.stderr
        said.append(r.stderr.strip())
    return said[0]


@check("g Helsinki goes where /Helsinki goes (a place's name, as --center takes it)")
def _():
    s = Session("--no-animation")
    s.keys("g")
    s.literal("Helsinki")
    s.keys("Enter")
    by_name = s.wait_for(lambda t: "Helsinki, FI" in t)
    status = by_name.splitlines()[-2]
    s.close()
    t = Session("--no-animation")
    t.keys("/")
    t.literal("Helsinki")
    t.keys("Enter")
    searched = t.wait_for(lambda t: "Helsinki, FI" in t).splitlines()[-2]
    t.close()
    assert status.split("│")[:2] == searched.split("│")[:2], (status, searched)
    return status.split("│")[0].strip()


@check("a zoom's message gives the widths the status line gives (the world at zoom 0, and zoom 3 → 4.32)")
def _():
    said = []
    for args in (["--zoom", "0", "--keys", "-"], ["--zoom", "3", "--keys", "+"], ["--zoom", "1", "--keys", "+"]):
        before = subprocess.run([BINARY, "render", "--size", "100x30", args[0], args[1]], capture_output=True,
                                text=True, timeout=30).stdout.splitlines()
        after = subprocess.run([BINARY, "render", "--size", "100x30", *args], capture_output=True, text=True,
                               timeout=30).stdout.splitlines()
        width = lambda status: status.split("│")[2].split("×")[0].strip()
        m = re.search(r": (\S+ k?m) → (\S+ k?m) wide", after[-1])
        assert m, after[-1]
        assert (m.group(1), m.group(2)) == (width(before[-2]), width(after[-2])), (after[-1], before[-2], after[-2])
        said.append(after[-1].split("  ")[0])
    return said[0]


@check("panning north at zoom 3 stops with the world's edge at the screen's top: no blank band above the Arctic")
def _():
    s = Session("--center 70,0 --zoom 3 --no-animation", cols=100, rows=30)
    for _ in range(4):
        s.keys("K")
    screen = s.wait_for(lambda t: "zoom 3.00" in t and "pan to" in t)
    lines = screen.splitlines()
    s.close()
    blank = [i for i, line in enumerate(lines[:27]) if not line.strip()]
    assert not blank, f"blank rows {blank}: {lines[:3]}"
    return lines[-2].split("│")[0].strip()


# xterm's palette (its defaults for the 16; 256colres.pl's cube and greys for the rest).
XTERM16 = ["000000", "cd0000", "00cd00", "cdcd00", "0000ee", "cd00cd", "00cdcd", "e5e5e5",
           "7f7f7f", "ff0000", "00ff00", "ffff00", "5c5cff", "ff00ff", "00ffff", "ffffff"]


def rgb(index):
    if index < 16:
        h = XTERM16[index]
        return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))
    if index < 232:
        levels = [0, 95, 135, 175, 215, 255]
        i = index - 16
        return levels[i // 36], levels[(i // 6) % 6], levels[i % 6]
    g = 8 + 10 * (index - 232)
    return g, g, g


def contrast(a, b):
    """WCAG 2's contrast ratio of two palette colours (relative luminance, sRGB)."""
    def luminance(index):
        def linear(c):
            c /= 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b_ = (linear(c) for c in rgb(index))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@check("the status and message lines have their own background: contrast >= 4.5 (WCAG 2) in both themes, 256 and 16 colours, with a message, a prompt and an error")
def _():
    worst = (99, "")
    for theme in ("dark", "light"):
        for colors in ("256", "16"):
            for keys in ("", "g", "gzzzz<Enter>", "/Hel"):
                args = [BINARY, "render", "--size", "80x24", "--color", colors, "--theme", theme, "--zoom", "3"]
                out = subprocess.run(args + (["--keys", keys] if keys else []), capture_output=True, text=True,
                                     timeout=30).stdout.splitlines()
                for row in out[-2:]:
                    for ch, fg, bg in harness.sgr_cells(row):
                        assert bg is not None, (theme, colors, keys, row)
                        if ch.strip():
                            assert fg is not None, (theme, colors, keys, ch)
                            ratio = contrast(fg, bg)
                            assert ratio >= 4.5, (theme, colors, keys, ch, fg, bg, ratio)
                            worst = min(worst, (ratio, f"{theme} {colors} {keys or 'message'}"))
    return f"lowest {worst[0]:.2f} ({worst[1]})"


def render(*args):
    return subprocess.run([BINARY, "render", *args], capture_output=True, text=True, timeout=30).stdout.splitlines()


def box_text(lines):
    """The text inside a panel's borders, a row each (without the title row and the bottom border)."""
    return [line.split("│")[1].strip() for line in lines if line.count("│") >= 2]


@check("80x24: the help wraps at word boundaries, each description whole, and no scrap of the map beside the box")
def _():
    keys = subprocess.run([BINARY, "help", "keys"], capture_output=True, text=True, timeout=30).stdout
    # Every description but the pans' (the help groups them: `pan left, down, up, right a quarter view`).
    wanted = [row.split(" | ")[-1].rstrip(" |") for row in keys.splitlines()[2:] if row.startswith("| `")]
    wanted = [w for w in wanted if not w.startswith("pan ")] + ["pan left, down, up, right a quarter view"]
    pages, text = 0, []
    while True:
        screen = render("--size", "80x24", "--keys", "?" + " " * pages)
        pages += 1
        box = [line for line in screen[:22] if line.lstrip().startswith(("│", "┌", "└"))]
        assert all(line[0] == " " and line[79] == " " for line in box), box[:2]
        top = screen.index(box[0])
        around = ([screen[top - 1]] if top > 0 else []) + ([screen[top + len(box)]] if top + len(box) < 22 else [])
        assert not any(line.strip() for line in around), f"the map shows above or below: {around}"
        text += box_text(box)
        if "end ·" in " ".join(text) or pages > 5:
            break
    # A description's words come in order across its wrapped lines: none is cut in the middle.
    joined = " ".join(" ".join(line.split()) for line in text)
    missing = [w for w in wanted if " ".join(w.split()) not in joined]
    assert not missing, missing
    return f"{len(wanted)} keys on {pages} pages"


@check("80x24: i wraps a long property at word boundaries inside its panel")
def _():
    words = "a very long description that goes on well past the width of the what is here panel at eighty columns"
    geojson = ('{"type":"Feature","properties":{"name":"Long","note":"' + words +
               '"},"geometry":{"type":"Point","coordinates":[24.944,60.17]}}')
    with tempfile.NamedTemporaryFile("w", suffix=".geojson", delete=False) as f:
        f.write(geojson)
    screen = render("--size", "80x24", "--center", "60.17,24.944", "--zoom", "16", "--keys", "i", f.name)
    os.unlink(f.name)
    lines = box_text(screen[:22])
    joined = " ".join(" ".join(line.split()) for line in lines)
    assert "note=" + words in joined, lines
    return f"{sum(1 for line in lines if line and words.split()[-1] in line or 'note=' in line)} lines"


@check("search: /Esplanadi with Helsinki on screen goes to Helsinki's, the list saying how far each is; /Tuomiokirkko finds the cathedral")
def _():
    s = Session("--center 60.1679,24.9486 --zoom 15 --no-animation")
    s.keys("/")
    s.literal("Esplanadi")
    listed = s.wait_for(lambda t: "Esplanada, BR" in t)
    first = next(line for line in listed.splitlines() if line.startswith("> "))
    assert re.search(r"· \d+ m ", first), first
    s.keys("Enter")
    went = s.wait_for(lambda t: "zoom" in t.splitlines()[-2] and "/" not in t.splitlines()[-1][:2])
    status = went.splitlines()[-2]
    assert status.startswith("60.16") and "24.9" in status, status
    s.keys("/")
    s.literal("Tuomiokirkko")
    s.wait_for(lambda t: "Helsingin tuomiokirkko" in t)
    s.keys("Enter")
    # The cathedral is at 60.1704°N 24.9522°E.
    at = s.wait_for(lambda t: t.splitlines()[-2].startswith("60.170")).splitlines()[-2]
    s.close()
    assert " 24.95" in at, at
    return f"{first.split('  ')[0]}; the cathedral at {at.split('│')[0].strip()}"


@check("the README's street-level demo lands inside the bundled city's data at 200x60")
def _():
    readme = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")).read()
    line = next(l for l in readme.splitlines() if l.startswith("termmap --center") and "demo city" in l)
    args = line.split("#")[0].split()[1:]
    state = json.loads(subprocess.run([BINARY, "render", "--size", "200x60", "--json", *args], capture_output=True,
                                      text=True, timeout=30).stdout)
    listed = subprocess.run([BINARY, "data", "list"], capture_output=True, text=True, timeout=30).stdout
    row = next(l for l in listed.splitlines() if l.startswith("helsinki "))
    south, west, north, east = map(float, re.search(r"([-\d.]+), ([-\d.]+) → ([-\d.]+), ([-\d.]+)", row).groups())
    b = state["bounds"]
    assert south <= b["south"] and b["north"] <= north and west <= b["west"] and b["east"] <= east, (b, row)
    return f"view {b['west']:.4f}–{b['east']:.4f}°E within the data's {west}–{east}°E"


@check("labels from the data: name, else Name, NAME, title, label; a live point's name as well as its label")
def _():
    keys = ["name", "Name", "NAME", "title", "label"]
    features = [{"type": "Feature", "properties": {k: f"Spot{k.upper()}"},
                 "geometry": {"type": "Point", "coordinates": [10 * i, 0]}} for i, k in enumerate(keys)]
    # `name` wins over the others on one feature.
    features.append({"type": "Feature", "properties": {"label": "Loser", "title": "Loser", "name": "Winner"},
                     "geometry": {"type": "Point", "coordinates": [-30, 20]}})
    with tempfile.NamedTemporaryFile("w", suffix=".geojson", delete=False) as f:
        json.dump({"type": "FeatureCollection", "features": features}, f)
    screen = "\n".join(render("--size", "120x30", "--center", "5,10", "--zoom", "2", f.name))
    os.unlink(f.name)
    missing = [k for k in keys if f"Spot{k.upper()}" not in screen]
    assert not missing and "Winner" in screen and "Loser" not in screen, (missing, screen)
    live = subprocess.run([BINARY, "render", "--size", "100x30", "--center", "0,0", "--zoom", "3", "-"],
                          input='{"id":1,"lat":0,"lon":1,"name":"Bus7"}\n{"id":2,"lat":1,"lon":-1,"label":"Tram3"}\n',
                          capture_output=True, text=True, timeout=30).stdout
    assert "Bus7" in live and "Tram3" in live, live
    return "5 keys and a live point's name shown"


@check("the layer list counts features in words: `177 countries (polygons)`, `3 features (2 points, 1 line)`")
def _():
    d = tempfile.mkdtemp()
    countries = os.path.join(d, "ne_110m_admin_0_countries.json")
    square = [[[0, 0], [1, 0], [1, 1], [0, 0]]]
    with open(countries, "w") as f:
        json.dump({"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": square}}] * 3}, f)
    mixed = os.path.join(d, "trip.geojson")
    with open(mixed, "w") as f:
        json.dump({"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
            {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 1]}},
            {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}]}, f)
    screen = "\n".join(render("--size", "110x30", "--keys", "o", countries, mixed))
    subprocess.run(["rm", "-rf", d])
    assert "3 countries (polygons)" in screen and "3 features (2 points, 1 line)" in screen, screen
    return "3 countries (polygons); 3 features (2 points, 1 line)"


@check("a file neither termmap nor ogr2ogr reads says so and what its first bytes look like (not GDAL's driver list, not 'out of memory')")
def _():
    d = tempfile.mkdtemp()
    said = []
    for name, data, looks in [("photo.xyz", b"\x89PNG\r\n\x1a\n" + bytes(range(56)), "a PNG image"),
                              ("noise.bin", bytes([0x57, 0xa0, 0x09, 0x50, 0xc1, 0x87, 0x84, 0x52]) * 8,
                               "binary data: 57 a0 09 50 c1 87 84 52")]:
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        r = subprocess.run([BINARY, "render", "--size", "60x10", path], capture_output=True, text=True, timeout=60)
        want = f"{path}: not a format termmap or GDAL reads (its first bytes look like {looks})"
        assert r.returncode == 1 and r.stderr.strip() == f"termmap: {want}", (r.returncode, r.stderr)
        said.append(r.stderr.strip())
    subprocess.run(["rm", "-rf", d])
    return said[-1].split(": ", 2)[-1]


@check("render - counts a stream's bad lines (skipped, one stderr line), exit 0")
def _():
    r = subprocess.run([BINARY, "render", "--size", "60x10", "--json", "-"], capture_output=True, text=True, timeout=30,
                       input='{"id":1,"lat":0,"lon":1}\nnot json\n{"lat":"x"}\n{"id":2,"lat":1,"lon":2}\n')
    skipped = json.loads(r.stdout)["files"][0]["skipped"]
    assert r.returncode == 0 and skipped["count"] == 2 and skipped["reason"].startswith("<stdin>:2:1:"), (r.returncode, skipped)
    assert r.stderr.count("\n") == 1 and "2 features left out (the first: <stdin>:2:1:" in r.stderr, r.stderr
    return r.stderr.strip()


@check("i lists each main tag a way has: the cathedral is amenity=place_of_worship, tourism=attraction and building=cathedral")
def _():
    state = json.loads(subprocess.run([BINARY, "render", "--size", "100x30", "--center", "60.1704,24.9522", "--zoom", "17",
                                       "--keys", "i", "--json"], capture_output=True, text=True, timeout=30).stdout)
    cathedral = next(f for f in state["info"]["features"] if f["id"] == "way 419479428")
    tags = {k: v for k, v in cathedral["properties"].items() if k in ("amenity", "tourism", "building")}
    assert tags == {"amenity": "place_of_worship", "tourism": "attraction", "building": "cathedral"}, cathedral
    return ", ".join(f"{k}={v}" for k, v in tags.items())


def user_cells_kept(*args):
    """The map cells the --pick buffer gives to a user's file, and how many of them the screen (no colour)
    shows as the file's dots or marker rather than a letter of a name over them."""
    screen = render("--color", "never", *args)
    pick = render("--pick", *args)
    letters = {line[0] for line in pick if line[1:].startswith("\tfile")}
    total = kept = 0
    lost = []
    for r, (shown, picked) in enumerate(zip(screen[:-2], pick)):
        for c, (ch, p) in enumerate(zip(shown, picked)):
            if p in letters:
                total += 1
                if ch.isalnum() or ch in "°′″'.,()-":
                    lost.append((r, c, ch))
                else:
                    kept += 1
    return total, kept, lost


def zigzag_track(folder):
    """A run zigzagging across central Washington (over its name and the grid's labels), as GPX, GeoJSON and
    a CSV with a WKT column."""
    points = [(-77.0564 + i * 0.001, 38.8951 + (0.004 if i % 2 else -0.004)) for i in range(41)]
    files = [os.path.join(folder, n) for n in ("run.gpx", "run.geojson", "run.csv")]
    with open(files[0], "w") as f:
        f.write('<?xml version="1.0"?><gpx version="1.1" creator="e2e" xmlns="http://www.topografix.com/GPX/1/1">'
                "<trk><name>Zigzag run</name><trkseg>"
                + "".join(f'<trkpt lat="{y}" lon="{x}"/>' for x, y in points) + "</trkseg></trk></gpx>\n")
    with open(files[1], "w") as f:
        json.dump({"type": "Feature", "properties": {"name": "Zigzag run"},
                   "geometry": {"type": "LineString", "coordinates": points}}, f)
    with open(files[2], "w") as f:
        f.write('name,WKT\nZigzag run,"LINESTRING (' + ", ".join(f"{x} {y}" for x, y in points) + ')"\n')
    return files


@check("a thin track keeps every cell under the map's names at zoom 14.5 (GPX, GeoJSON, WKT CSV; 80x24, 200x60): names give way")
def _():
    d = tempfile.mkdtemp()
    said = []
    for path in zigzag_track(d):
        for size in ("80x24", "200x60"):
            total, kept, lost = user_cells_kept("--size", size, "--zoom", "14.5", path)
            assert total > 100 and not lost, (os.path.basename(path), size, total, lost[:5])
            said.append(f"{kept}/{total}")
    subprocess.run(["rm", "-rf", d])
    return "cells kept: " + ", ".join(said)


@check("--zoom without --center keeps the file's centre; the track's name stands beside the track, not on it")
def _():
    d = tempfile.mkdtemp()
    gpx = zigzag_track(d)[0]
    state = json.loads("\n".join(render("--size", "200x60", "--zoom", "14.5", "--json", gpx)))
    screen = render("--color", "never", "--size", "200x60", "--zoom", "14.5", gpx)
    subprocess.run(["rm", "-rf", d])
    assert abs(state["center"]["lat"] - 38.8951) < 0.01 and abs(state["center"]["lon"] + 77.0364) < 0.01, state["center"]
    row = next(r for r, line in enumerate(screen) if "Zigzag run" in line)
    col = screen[row].index("Zigzag run")
    # Beside the track: a dot of it within a cell of the name's ends or above or below them.
    near = [screen[r][c] for r in (row - 1, row, row + 1) for c in range(col - 2, col + len("Zigzag run") + 2)
            if 0 <= r < len(screen) - 2 and 0 <= c < len(screen[r])]
    assert any("\u2800" < ch <= "\u28ff" for ch in near), screen[row - 1:row + 2]
    return f"centre {state['center']['lat']:.4f},{state['center']['lon']:.4f}; name at row {row}"


@check("a user's small areas are never under the map's names (a KML of 600 squares over the eastern US at zoom 4.5)")
def _():
    d = tempfile.mkdtemp()
    path = os.path.join(d, "squares.kml")
    marks = []
    for lon in range(-95, -65):
        for lat in range(28, 48):
            x, y, s = lon + 0.3, lat + 0.3, 0.02
            ring = " ".join(f"{a},{b},0" for a, b in [(x, y), (x + s, y), (x + s, y + s), (x, y + s), (x, y)])
            marks.append("<Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>"
                         f"{ring}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>")
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>'
                + "".join(marks) + "</Document></kml>")
    total, kept, lost = user_cells_kept("--size", "120x40", "--zoom", "4.5", "--center", "38,-80", path)
    subprocess.run(["rm", "-rf", d])
    assert total >= 100 and not lost, (total, lost[:5])
    return f"{kept} of {total} cells show the file"


@check("a GPX route's named points are points with labels (render --json counts them; their names are on screen)")
def _():
    d = tempfile.mkdtemp()
    path = os.path.join(d, "route.gpx")
    stops = [("Pula", 44.8683, 13.8481), ("Rovinj", 45.0812, 13.6387), ("Poreč", 45.2271, 13.5948)]
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?><gpx version="1.0" creator="e2e"><rte><name>Istria</name>'
                + "".join(f'<rtept lat="{la}" lon="{lo}"><name>{n}</name></rtept><rtept lat="{la + 0.05}" lon="{lo + 0.05}"/>'
                          for n, la, lo in stops) + "</rte></gpx>\n")
    state = json.loads("\n".join(render("--size", "120x40", "--json", path)))
    screen = "\n".join(render("--size", "120x40", path))
    subprocess.run(["rm", "-rf", d])
    counts = state["files"][0]["features"]
    assert counts == {"LineString": 1, "Point": 3}, counts
    missing = [n for n, _, _ in stops if n not in screen]
    assert not missing, (missing, screen)
    return f"{counts}; {', '.join(n for n, _, _ in stops)} on screen"


@check("several failing files are all listed (render: a line each; the viewer opens on the rest, says `3 files failed` and o lists each); a missing file is one of them")
def _():
    d = tempfile.mkdtemp()
    bad, good = os.path.join(d, "bad.geojson"), os.path.join(d, "good.geojson")
    with open(bad, "w") as f:
        f.write("garbage{")
    with open(good, "w") as f:
        json.dump({"type": "Feature", "properties": {"name": "Kept"}, "geometry": {"type": "Point", "coordinates": [24.94, 60.17]}}, f)
    missing, folder = os.path.join(d, "missing.geojson"), d
    r = subprocess.run([BINARY, "render", "--size", "60x10", missing, folder, bad, good], capture_output=True, text=True,
                       timeout=30)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 1 and len(lines) == 3, (r.returncode, lines)
    assert "missing.geojson: cannot read (no such file)" in lines[0] and "a folder, not a file" in lines[1] \
        and "bad.geojson:1:1:" in lines[2], lines
    s = Session(f"{missing} {folder} {bad} {good} --no-animation", 120, 30)
    said = s.wait_for(lambda t: "3 files failed: o lists each" in t).splitlines()[-1]
    s.keys("o")
    panel = s.wait_for(lambda t: "good.geojson: geojson" in t)
    s.close()
    subprocess.run(["rm", "-rf", d])
    rows = [line for line in panel.splitlines() if "[x]" in line and ": failed: " in line]
    assert "3 files failed: o lists each" in said and len(rows) == 3, (said, rows)
    return "3 stderr lines, exit 1; the viewer: '3 files failed: o lists each', 3 'failed:' rows and the good file"


@check("a Windows-1252 (Latin-1) CSV, GPX or KML with no encoding declared is read and says so; a Latin-1 GeoJSON suggests iconv")
def _():
    d = tempfile.mkdtemp()
    csv_path, gj = os.path.join(d, "cafes.csv"), os.path.join(d, "cafes.geojson")
    with open(csv_path, "wb") as f:
        f.write("name,lat,lon\nCaf\u00e9 M\u00e4kel\u00e4 \u20ac,60.17,24.94\n".encode("cp1252"))
    with open(gj, "wb") as f:
        f.write('{"type":"Feature","properties":{"name":"Caf\u00e9"},"geometry":{"type":"Point","coordinates":[1,2]}}'.encode("latin-1"))
    r = subprocess.run([BINARY, "render", "--size", "80x20", "--center", "60.17,24.94", "--zoom", "12", csv_path],
                       capture_output=True, text=True, timeout=30)
    g = subprocess.run([BINARY, "render", "--size", "60x10", gj], capture_output=True, text=True, timeout=30)
    # GPX and KML with no encoding declared, in Latin-1: read the same way.
    xml = []
    for name, text in [("cafes.gpx", '<?xml version="1.0"?><gpx version="1.1" creator="e2e"><wpt lat="60.17" lon="24.94">'
                                     '<name>Caf\u00e9 M\u00e4kel\u00e4</name></wpt></gpx>'),
                       ("cafes.kml", '<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>'
                                     'Caf\u00e9 M\u00e4kel\u00e4</name><Point><coordinates>24.94,60.17</coordinates>'
                                     '</Point></Placemark></kml>')]:
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(text.encode("latin-1"))
        x = subprocess.run([BINARY, "render", "--size", "80x20", "--center", "60.17,24.94", "--zoom", "12", path],
                           capture_output=True, text=True, timeout=30)
        assert x.returncode == 0 and "Café Mäkelä" in x.stdout and "read as Windows-1252" in x.stderr, (name, x.stderr)
        xml.append(name)
    subprocess.run(["rm", "-rf", d])
    assert r.returncode == 0 and "Café Mäkelä €" in r.stdout, r.stdout
    assert r.stderr.strip().endswith("cafes.csv: read as Windows-1252 (it is not UTF-8)"), r.stderr
    assert g.returncode == 1 and "iconv -f latin1 -t utf-8" in g.stderr, g.stderr
    return f"{r.stderr.strip().split('/')[-1]}; {g.stderr.strip().split(': ', 2)[-1]}"


@check("i on an OpenMapTiles street names it: the name transportation_name keeps along it (as shapely finds it, info.json)")
def _():
    here = os.path.dirname(os.path.abspath(__file__))
    tiles = os.path.join(here, "..", "MapDataTests", "Fixtures", "tiles", "helsinki-omt.pmtiles")
    with open(os.path.join(here, "..", "ViewerTests", "Fixtures", "info.json")) as f:
        cases = [c for c in json.load(f)["tileNames"] if c["name"]][:4]
    empty = tempfile.mkdtemp()
    said = []
    for c in cases:
        out = subprocess.run([BINARY, "render", "--no-config", "--data", empty, "--tiles", tiles,
                              "--center", f"{c['lat']},{c['lon']}", "--zoom", "16", "--size", "100x30", "--keys", "i",
                              "--json"], capture_output=True, text=True, timeout=30).stdout
        roads = [(f["class"], f["name"]) for f in json.loads(out)["info"]["features"] if f["class"].endswith("road")]
        assert roads and roads[0][1] == c["name"], (c, roads)
        said.append(f"{roads[0][0]} {roads[0][1]}")
    subprocess.run(["rm", "-rf", empty])
    return "; ".join(said)

@check("offline is a state: tiles = an unreachable server in the config (config --check accepts it) opens the viewer with the rest of the map, status `offline: nothing cached here`; render exits 0 with one stderr line")
def _():
    d = tempfile.mkdtemp()
    config = os.path.join(d, "config")
    with open(config, "w") as f:
        f.write('tiles = "http://127.0.0.1:9/tiles.json"\n')  # port 9 (discard): nothing answers there
    checked = subprocess.run([BINARY, "config", "--check", "--config", config], capture_output=True, text=True, timeout=30)
    r = subprocess.run([BINARY, "render", "--config", config, "--size", "100x30", "--center", "48.8584,2.2945", "--zoom", "15",
                        "--json"], capture_output=True, text=True, timeout=60, env=dict(os.environ, XDG_CACHE_HOME=d))
    sources = {x["name"]: x["status"] for x in json.loads(r.stdout)["sources"]}
    s = Session(f"--config {config} --center 48.8584,2.2945 --zoom 15 --no-animation", 120, 30)
    status = s.wait_for(lambda t: "offline: nothing cached here" in t, 10).splitlines()[-2]
    s.close()
    subprocess.run(["rm", "-rf", d])
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert r.returncode == 0 and r.stderr.count("\n") == 1 and "offline (" in r.stderr, (r.returncode, r.stderr)
    assert "offline" in sources.values() and sources.get("Natural Earth") == "ok", sources
    assert "offline: nothing cached here" in status, status
    return f"render exit 0, {r.stderr.strip().split(': ', 1)[1][:70]}…; viewer status: …{status.strip()[-45:]}"


@check("a start near a pole keeps the world's edge at the screen's: --center 89,0 --zoom 3 shows 85.05°N on the top row, not a blank band")
def _():
    said = []
    for center in ("89,0", "-89.5,120"):
        state = json.loads("\n".join(render("--size", "80x24", "--center", center, "--zoom", "3", "--json")))
        edge = state["bounds"]["north"] if not center.startswith("-") else -state["bounds"]["south"]
        assert abs(edge - 85.0511) < 0.01, (center, state["bounds"])
        said.append(f"{center} → {state['center']['lat']:.2f}")
    return "; ".join(said)


if __name__ == "__main__":
    check.report("newcomer e2e")
