#!/usr/bin/env python3
"""End-to-end tests of terrain (issue 48, its first part: heights) through the real binary. A synthetic
DEM made with GDAL's own programs (`Tools/make_terrain.py`: a smooth hill, cut into Terrarium and
Mapbox terrain-RGB tiles by `gdal_translate -r bilinear`) gives the heights termmap reads at the
crosshair; the reference is the DEM itself, read with `gdallocationinfo -valonly` at the four pixels
around each of 200 seeded points and filtered bilinearly.

    PYTHONPATH=.pytest python3 Tests/e2e/terrain_e2e.py .build/debug/termmap

Prints one line per check and a closing 'N passed, N failed' line.
"""
import json
import math
import os
import sqlite3
import subprocess
import sys

import harness

BINARY, ROOT, tmux, check, WORK, EMPTY = harness.suite("terrain")
made = subprocess.run([sys.executable, os.path.join(ROOT, "Tools", "make_terrain.py"), WORK, "200"],
                      capture_output=True, text=True, timeout=300)
assert made.returncode == 0, made.stderr
POINTS = json.loads(made.stdout)
shaped = subprocess.run([sys.executable, os.path.join(ROOT, "Tools", "make_terrain.py"), "--shapes",
                         os.path.join(WORK, "shapes")], capture_output=True, text=True, timeout=300)
assert shaped.returncode == 0, shaped.stderr
SHAPES = json.loads(shaped.stdout)
TERRARIUM = os.path.join(WORK, "hill-terrarium.pmtiles")
MAPBOX = os.path.join(WORK, "hill-mapbox.mbtiles")


def mbtiles(path, metadata, rows):
    """An MBTiles of `rows` (zoom, column, TMS row, bytes) with `metadata` pairs."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
        db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
        db.executemany("INSERT INTO metadata VALUES (?, ?)", metadata)
        db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", rows)


def mapbox_rows(where=""):
    with sqlite3.connect(MAPBOX) as src:
        return list(src.execute("SELECT * FROM tiles " + where))


def run(*args):
    env = dict(os.environ, XDG_DATA_HOME=EMPTY, XDG_CONFIG_HOME=EMPTY)
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=60, env=env,
                          stdin=subprocess.DEVNULL)


def height(tiles, lat, lon, zoom=14):
    r = run("render", "--terrain", tiles, "--center", "%r,%r" % (lat, lon), "--zoom", str(zoom), "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout).get("terrain")


@check("heights at the crosshair: Terrarium (.pmtiles) and Mapbox terrain-RGB (.mbtiles) at 200 seeded points equal GDAL's bilinear height of the DEM within 0.5 m")
def _():
    worst = {}
    for tiles in (TERRARIUM, MAPBOX):
        for p in POINTS:
            t = height(tiles, p["lat"], p["lon"])
            assert t is not None and t["height"] is not None, (tiles, p, t)
            worst[tiles] = max(worst.get(tiles, 0.0), abs(t["height"] - p["height"]))
        assert worst[tiles] <= 0.5, (tiles, worst[tiles])
    return "%d points; worst %.4f m (Terrarium), %.4f m (terrain-RGB, 0.1 m steps)" % (
        len(POINTS), worst[TERRARIUM], worst[MAPBOX])


@check("WebP elevation tiles: the Terrarium tiles re-encoded as lossless WebP (Pillow) in a .pmtiles of tile type WebP give the same heights at 50 points")
def _():
    from PIL import Image
    import io
    from pmtiles.reader import Reader, MmapSource, all_tiles
    from pmtiles.tile import zxy_to_tileid, TileType, Compression
    from pmtiles.writer import Writer
    webp = os.path.join(WORK, "hill-webp.pmtiles")
    with open(TERRARIUM, "rb") as f:
        reader = Reader(MmapSource(f))
        header, metadata = reader.header(), reader.metadata()
        tiles = []
        for (z, x, y), data in all_tiles(reader.get_bytes):
            out = io.BytesIO()
            Image.open(io.BytesIO(data)).save(out, "WEBP", lossless=True)
            tiles.append((zxy_to_tileid(z, x, y), out.getvalue()))
    with open(webp, "wb") as f:
        w = Writer(f)
        for tid, data in sorted(tiles):
            w.write_tile(tid, data)
        header["tile_type"] = TileType.WEBP
        header["tile_compression"] = Compression.NONE
        w.finalize(header, metadata)
    worst = 0.0
    for p in POINTS[:50]:
        a, b = height(TERRARIUM, p["lat"], p["lon"]), height(webp, p["lat"], p["lon"])
        assert a["height"] is not None and a["height"] == b["height"], (a, b)
        worst = max(worst, abs(b["height"] - p["height"]))
    return "%d WebP tiles; 50 heights equal the PNG tiles' (worst %.4f m from the DEM)" % (len(tiles), worst)


@check("data get of elevation tiles keeps their encoding: the area's .pmtiles in the data folder is the terrain, with the same heights")
def _():
    data = os.path.join(WORK, "got-data")
    r = run("data", "get", "hillcopy", "--from", TERRARIUM, "--bbox", "24.85,60.18,24.95,60.22", "--zooms", "9-12",
            "--data", data)
    assert r.returncode == 0, r.stderr
    inside = [q for q in POINTS if 24.86 < q["lon"] < 24.94 and 60.19 < q["lat"] < 60.21][:5]
    assert inside
    for p in inside:
        got = json.loads(run("render", "--data", data, "--center", "%r,%r" % (p["lat"], p["lon"]), "--zoom", "14",
                             "--json").stdout)["terrain"]
        assert got["source"] == "hillcopy" and got["height"] == height(TERRARIUM, p["lat"], p["lon"])["height"], got
    return "%d heights equal the source's; %s" % (len(inside), (r.stdout + r.stderr).strip().split("\n")[-1])


@check("render --json carries terrain: {height, source} whenever a terrain source is given (height null off its tiles), and no terrain key without one")
def _():
    t = height(TERRARIUM, 0.0, 0.0)
    assert t == {"height": None, "source": "hill-terrarium"}, t
    r = run("render", "--center", "60.2,24.9", "--zoom", "12", "--json")
    assert "terrain" not in json.loads(r.stdout), r.stdout[:200]
    listed = [s for s in json.loads(run("render", "--terrain", TERRARIUM, "--center", "60.2,24.9", "--zoom", "12",
                                        "--json").stdout)["sources"] if s["kind"] == "terrain"]
    assert len(listed) == 1 and listed[0]["status"] == "ok", listed
    return "off the tiles: %s; sources: %s %s" % (t, listed[0]["name"], listed[0]["detail"])


@check("i shows the height under the crosshair and its source")
def _():
    top = max(POINTS, key=lambda p: p["height"])
    r = run("render", "--terrain", TERRARIUM, "--center", "%r,%r" % (top["lat"], top["lon"]), "--zoom", "14",
            "--keys", "i")
    line = [ln for ln in r.stdout.split("\n") if "height " in ln]
    assert line and ("height %d m (hill-terrarium)" % round(top["height"])) in line[0], (line, top)
    return line[0].split("│")[-2].strip()


@check("the status line shows the height beside the centre and the terrain's credit; data sources names a public terrain source")
def _():
    top = max(POINTS, key=lambda p: p["height"])
    r = run("render", "--terrain", TERRARIUM, "--center", "%r,%r" % (top["lat"], top["lon"]), "--zoom", "14",
            "--size", "120x30")
    status = r.stdout.rstrip("\n").split("\n")[-2]
    assert ("%d m │ zoom 14" % round(top["height"])) in status and "termmap test hill" in r.stdout, status
    sources = run("data", "sources").stdout
    assert any(line.split()[:2] == ["terrarium", "terrain"] for line in sources.split("\n") if line.strip()), sources
    return status.split("│")[0].strip()


@check("bad terrain sources: vector tiles, imagery without an encoding, a missing file: one line each, exit 1; imagery that says it is terrain: its impossible heights said once, the map drawn")
def _():
    lines = []
    vector = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "tiles", "helsinki-omt.pmtiles")
    imagery = os.path.join(WORK, "imagery.mbtiles")
    mbtiles(imagery, [("format", "png"), ("minzoom", "9"), ("maxzoom", "12")], mapbox_rows())
    for source in ([vector] if os.path.exists(vector) else []) + [imagery, os.path.join(WORK, "none.pmtiles")]:
        r = run("render", "--terrain", source, "--center", "60.2,24.9", "--zoom", "12")
        assert r.returncode == 1 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, (source, r.stderr)
        lines.append(r.stderr.strip())
    # terrain-RGB tiles read as Terrarium: 1,000 m hills become heights past 12,000 m.
    wrong = os.path.join(WORK, "wrong.mbtiles")
    mbtiles(wrong, [("format", "png"), ("encoding", "terrarium"), ("minzoom", "9"), ("maxzoom", "12")], mapbox_rows())
    r = run("render", "--terrain", wrong, "--center", "60.2,24.9", "--zoom", "12")
    assert r.returncode == 0 and r.stderr.count("no place on Earth") == 1 and r.stdout.count("\n") >= 20, r.stderr
    lines.append(r.stderr.strip())
    return " | ".join(lines)


R = 6378137.0


def pick(tiles, lat, lon, zoom, size="200x60", *more):
    """The cells `render --pick` names contour, as a set of (col, row); and the map's rows."""
    r = run("render", "--terrain", tiles, "--center", "%r,%r" % (lat, lon), "--zoom", str(zoom), "--size", size,
            "--pick", *more)
    assert r.returncode == 0, r.stderr
    grid, legend = r.stdout.split("\n\n", 1)
    letters = [ln.split("\t") for ln in legend.strip().split("\n")]
    contour = [l for l, name in letters if name == "contour"]
    rows = grid.split("\n")
    cells = {(c, y) for y, row in enumerate(rows) for c, ch in enumerate(row) if contour and ch == contour[0]}
    return cells, len(rows)


def gdal_cells(path, lat, lon, zoom, cols, rows):
    """The cells of a 200-column view that `gdal_contour`'s lines (Web Mercator metres) pass through,
    walked a quarter dot at a time, with each cell's line height."""
    world = 256.0 * 2 ** zoom  # dots across the world
    cx = (math.radians(lon) + math.pi) / (2 * math.pi)
    cy = (math.pi - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))) / (2 * math.pi)

    def dots(x, y):
        u, v = (x + math.pi * R) / (2 * math.pi * R), (math.pi * R - y) / (2 * math.pi * R)
        return (u - cx) * world + cols, (v - cy) * world + rows * 2

    cells = {}
    with open(path) as f:
        for feature in json.load(f)["features"]:
            g = feature["geometry"]
            parts = g["coordinates"] if g["type"] == "MultiLineString" else [g["coordinates"]]
            for part in parts:
                pts = [dots(*p[:2]) for p in part]
                for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
                    steps = max(1, int(math.hypot(x1 - x0, y1 - y0) * 4))
                    for k in range(steps + 1):
                        x, y = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
                        c, r = int(math.floor(x / 2)), int(math.floor(y / 4))
                        if 0 <= c < cols and 0 <= r < rows:
                            cells[(c, r)] = feature["properties"]["height"]
    return cells


def near(cell, cells):
    return any((cell[0] + dx, cell[1] + dy) in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1))


@check("contours of a cone, a saddle, a plane and a diagonal ridge at zoom 12 lie within one cell of gdal_contour's lines every 100 m: recall and precision >= 0.9")
def _():
    out = []
    for name, shape in SHAPES.items():
        ours, rows = pick(shape["tiles"], shape["lat"], shape["lon"], 12)
        theirs = gdal_cells(shape["contours"], shape["lat"], shape["lon"], 12, 200, rows)
        assert theirs and ours, (name, len(theirs), len(ours))
        recall = sum(near(c, ours) for c in theirs) / len(theirs)
        precision = sum(near(c, theirs) for c in ours) / len(ours)
        assert recall >= 0.9 and precision >= 0.9, (name, recall, precision)
        out.append("%s recall %.3f precision %.3f (%d/%d cells)" % (name, recall, precision, len(theirs), len(ours)))
    return "; ".join(out)


@check("no seam: where the ridge's contours cross the edges of zoom-12 tiles (every 256 dots), every cell of gdal_contour's lines has a contour within one cell")
def _():
    shape = SHAPES["ridge"]
    zoom = 12
    ours, rows = pick(shape["tiles"], shape["lat"], shape["lon"], zoom)
    theirs = gdal_cells(shape["contours"], shape["lat"], shape["lon"], zoom, 200, rows)
    # The tile edges in the view's dots: multiples of 256 dots from the world's corner.
    world = 256.0 * 2 ** zoom
    cx = (math.radians(shape["lon"]) + math.pi) / (2 * math.pi)
    cy = (math.pi - math.log(math.tan(math.pi / 4 + math.radians(shape["lat"]) / 2))) / (2 * math.pi)
    left, top = cx * world - 200, cy * world - rows * 2
    xs = [(k * 256 - left) / 2 for k in range(int(left // 256) + 1, int((left + 400) // 256) + 1)]
    ys = [(k * 256 - top) / 4 for k in range(int(top // 256) + 1, int((top + rows * 4) // 256) + 1)]
    at_edges = [c for c in theirs if any(abs(c[0] + 0.5 - x) <= 2 for x in xs) or any(abs(c[1] + 0.5 - y) <= 2 for y in ys)]
    assert xs and ys and len(at_edges) >= 20, (xs, ys, len(at_edges))
    missed = [c for c in at_edges if not near(c, ours)]
    assert not missed, missed[:10]
    return "%d tile edges in view; %d line cells beside them, every one drawn" % (len(xs) + len(ys), len(at_edges))


def background_levels(text):
    """Each cell's 256-colour background (None: the terminal's), row by row, from `render --color 256`."""
    sys.path.insert(0, os.path.join(ROOT, "Tools"))
    from frame_svg import cells
    return [[c[2] for c in row] for row in cells(text)]


@check("hillshade (on by default, H toggles it): land cells' tints correlate >= 0.9 with gdaldem hillshade (Horn, 315 deg, 45 deg) of the DEM at their centres; water stays water")
def _():
    lat, lon, zoom = 60.2, 24.9, 12
    view = ("--terrain", TERRARIUM, "--center", "%r,%r" % (lat, lon), "--zoom", str(zoom), "--size", "200x60")
    shaded = run("render", *view, "--color", "256")
    flat = run("render", *view, "--color", "256", "--keys", "H")
    picked = run("render", *view, "--pick")
    assert shaded.returncode == flat.returncode == picked.returncode == 0, shaded.stderr + flat.stderr
    grid, legend = picked.stdout.split("\n\n", 1)
    letters = dict(reversed(ln.split("\t")) for ln in legend.strip().split("\n"))
    land = letters["land"]
    rows = grid.split("\n")
    ours, plain = background_levels(shaded.stdout), background_levels(flat.stdout)
    # gdaldem on the DEM, its slopes in ground metres (-s: ground metres a Mercator metre, cos(latitude)).
    tif = os.path.join(WORK, "hill.tif")
    shade_tif = os.path.join(WORK, "hill-shade.tif")
    subprocess.run(["gdaldem", "hillshade", "-q", "-az", "315", "-alt", "45", "-s", repr(math.cos(math.radians(lat))),
                    tif, shade_tif], check=True)
    info = json.loads(subprocess.run(["gdalinfo", "-json", tif], capture_output=True, text=True, check=True).stdout)
    west, cell, _, north, _, cell_y = info["geoTransform"]
    world = 256.0 * 2 ** zoom
    cx = (math.radians(lon) + math.pi) / (2 * math.pi)
    cy = (math.pi - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))) / (2 * math.pi)
    chosen = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != land or ours[r][c] is None or not 232 <= ours[r][c] <= 241:
                continue
            u, v = cx + (c * 2 + 1 - 200) / world, cy + (r * 4 + 2 - len(rows) * 2) / world
            x, y = u * 2 * math.pi * R - math.pi * R, math.pi * R - v * 2 * math.pi * R
            px, py = (x - west) / cell, (y - north) / cell_y
            if 1 <= px < info["size"][0] - 1 and 1 <= py < info["size"][1] - 1:
                chosen.append((r, c, int(px), int(py)))
    values = subprocess.run(["gdallocationinfo", "-valonly", shade_tif], input="".join(
        "%d %d\n" % (px, py) for _, _, px, py in chosen), capture_output=True, text=True, check=True).stdout.split()
    a = [ours[r][c] - 232 for r, c, _, _ in chosen]
    b = [float(v) for v in values]
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    corr = cov / math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))
    assert n >= 2000 and corr >= 0.9, (n, corr)
    # H: every land cell back to the one tint; the sea's cells are the same both ways.
    assert {plain[r][c] for r, c, _, _ in chosen} == {235}, {plain[r][c] for r, c, _, _ in chosen}
    sea = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == letters.get("water")]
    assert all(ours[r][c] == plain[r][c] for r, c in sea), "water shaded"
    return "%d land cells: correlation %.3f with gdaldem; %d tints used; H: all 235; %d water cells unchanged" % (
        n, corr, len(set(a)), len(sea))


def dem_heights(points):
    """The hill DEM's bilinear heights at (lat, lon) points, read with gdallocationinfo (four pixels each)."""
    tif = os.path.join(WORK, "hill.tif")
    info = json.loads(subprocess.run(["gdalinfo", "-json", tif], capture_output=True, text=True, check=True).stdout)
    west, cell, _, north, _, cell_y = info["geoTransform"]
    where = []
    for lat, lon in points:
        x, y = R * math.radians(lon), R * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
        where.append(((x - west) / cell - 0.5, (y - north) / cell_y - 0.5))
    out = subprocess.run(["gdallocationinfo", "-valonly", tif], input="".join(
        "%d %d\n" % (int(px) + dx, int(py) + dy) for px, py in where for dy in (0, 1) for dx in (0, 1)),
        capture_output=True, text=True, check=True).stdout.split()
    heights = []
    for i, (px, py) in enumerate(where):
        a, b, c, d = (float(v) for v in out[4 * i:4 * i + 4])
        fx, fy = px - int(px), py - int(py)
        heights.append((a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy)
    return heights


def geodesic_samples(line):
    """Every 10 m along each geodesic leg of `line` ((lat, lon) pairs) from its start, and its end, by
    GeographicLib: [(metres along, (lat, lon))], and the length."""
    from geographiclib.geodesic import Geodesic
    samples, along, nxt = [(0.0, tuple(line[0]))], 0.0, 10.0
    for a, b in zip(line, line[1:]):
        leg = Geodesic.WGS84.Inverse(a[0], a[1], b[0], b[1])
        if leg["s12"] <= 0:
            continue
        while nxt < along + leg["s12"]:
            p = Geodesic.WGS84.Direct(a[0], a[1], leg["azi1"], nxt - along)
            samples.append((nxt, (p["lat2"], p["lon2"])))
            nxt += 10
        along += leg["s12"]
    samples.append((along, tuple(line[-1])))
    return samples, along


@check("a route's elevation profile (d ... d on the demo city's streets): its samples and the DEM's heights along the route's line as GeographicLib and Python compute them")
def _():
    r = run("render", "--terrain", TERRARIUM, "--center", "60.17,24.94", "--zoom", "15", "--size", "100x30", "--keys",
            "dllld", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    profile, line = d["profile"], d["route"]["geometry"]
    assert profile["of"] == "the route", profile["of"]
    samples, along = geodesic_samples(line)
    assert len(profile["meters"]) == len(samples), (len(profile["meters"]), len(samples))
    theirs = dem_heights([s[1] for s in samples])
    worst = max(abs(a - b) for a, b in zip(profile["heights"], theirs))
    assert worst <= 0.5 and abs(profile["meters"][-1] - along) < 0.05, (worst, profile["meters"][-1], along)
    sys.path.insert(0, os.path.join(ROOT, "Tools"))
    from make_profile_fixtures import figures
    expected = figures([m for m, _ in samples], theirs)
    assert abs(profile["ascent"] - expected["ascent"]) <= 0.5 and abs(profile["descent"] - expected["descent"]) <= 0.5
    return "%d samples over %.1f m; heights worst %.3f m; ascent %.1f m, descent %.1f m (Python %.1f, %.1f)" % (
        len(samples), along, worst, profile["ascent"], profile["descent"], expected["ascent"], expected["descent"])


@check("a track's elevation profile (o, p, 1): samples every 10 m along its geodesic legs (GeographicLib), heights from the DEM within 0.5 m, ascent and descent (2 m dead band) as Python computes them within 1 %; the panel shows them")
def _():
    track = [(60.17 + 0.006 * k, 24.80 + 0.021 * k + 0.004 * (k % 3)) for k in range(10)]
    gpx = os.path.join(WORK, "walk.gpx")
    with open(gpx, "w") as f:
        f.write('<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">'
                "<trk><name>walk</name><trkseg>" + "".join('<trkpt lat="%r" lon="%r"/>' % p for p in track)
                + "</trkseg></trk></gpx>")
    view = ("--terrain", TERRARIUM, "--center", "60.2,24.9", "--zoom", "12", "--size", "120x40", gpx)
    r = run("render", *view, "--keys", "op1", "--json")
    assert r.returncode == 0, r.stderr
    profile = json.loads(r.stdout)["profile"]
    samples, along = geodesic_samples(track)
    assert len(profile["meters"]) == len(samples), (len(profile["meters"]), len(samples))
    off = max(abs(m - s[0]) for m, s in zip(profile["meters"], samples))
    assert off < 0.05, off  # a file's points are kept to 1/2^30 of the world (3.7 cm)
    theirs = dem_heights([s[1] for s in samples])
    worst = max(abs(a - b) for a, b in zip(profile["heights"], theirs))
    assert worst <= 0.5, worst
    sys.path.insert(0, os.path.join(ROOT, "Tools"))
    from make_profile_fixtures import figures
    expected = figures([m for m, _ in samples], theirs)
    up, down = expected["ascent"], expected["descent"]
    assert abs(profile["minimum"] - expected["minimum"]) <= 0.5 and abs(profile["maximum"] - expected["maximum"]) <= 0.5
    assert abs(profile["steepestPercent"] - expected["steepestPercent"]) <= 0.5, (profile["steepestPercent"], expected)
    assert abs(profile["ascent"] - up) <= 0.01 * up and abs(profile["descent"] - down) <= 0.01 * down, (
        profile["ascent"], up, profile["descent"], down)
    screen = run("render", *view, "--keys", "op1").stdout
    assert "profile of walk.gpx" in screen and "↑ %d m" % round(profile["ascent"]) in screen, screen[-1500:]
    return "%d samples over %.0f m; heights worst %.3f m; ascent %.1f m (Python %.1f), descent %.1f m (%.1f)" % (
        len(samples), along, worst, profile["ascent"], up, profile["descent"], down)


@check("data import-dem: a GeoTIFF warped by gdalwarp into Terrarium tiles in the data folder, drawn as the terrain; heights at 50 seeded points within 1 m of the DEM's; a nodata hole stays without heights; a file GDAL cannot read and a DEM of nodata only: one line each, exit 1")
def _():
    data = os.path.join(WORK, "dem-data")
    r = run("data", "import-dem", os.path.join(WORK, "hill.tif"), "--data", data)
    assert r.returncode == 0 and os.path.exists(os.path.join(data, "hill.pmtiles")), r.stdout + r.stderr
    worst = 0.0
    for p in POINTS[:50]:
        t = json.loads(run("render", "--data", data, "--center", "%r,%r" % (p["lat"], p["lon"]), "--zoom", "13",
                           "--json").stdout)["terrain"]
        assert t["source"] == "hill" and t["height"] is not None, t
        worst = max(worst, abs(t["height"] - p["height"]))
    assert worst <= 1.0, worst
    # A hole of nodata in the middle of the DEM: no height there after the import, heights beside it.
    holed = os.path.join(WORK, "holed.tif")
    subprocess.run(["gdal_calc.py", "--quiet", "-A", os.path.join(WORK, "hill.tif"), "--outfile", holed,
                    "--NoDataValue=-99999", "--calc", "where(abs(A - 1000) < 60, -99999, A)"], check=True,
                   capture_output=True)
    holed_data = os.path.join(WORK, "holed-data")
    r = run("data", "import-dem", holed, "--data", holed_data)
    assert r.returncode == 0, r.stderr
    top = max(POINTS, key=lambda p: p["height"])
    inside = json.loads(run("render", "--data", holed_data, "--center", "60.2,24.9", "--zoom", "13",
                            "--json").stdout)["terrain"]
    low = min(POINTS, key=lambda p: p["height"])
    outside = json.loads(run("render", "--data", holed_data, "--center", "%r,%r" % (low["lat"], low["lon"]), "--zoom",
                             "13", "--json").stdout)["terrain"]
    assert inside["height"] is None and outside["height"] is not None, (inside, outside, top)
    lines = []
    junk = os.path.join(WORK, "junk.tif")
    with open(junk, "wb") as f:
        f.write(b"II*\0" + bytes(range(256)) * 8)
    empty = os.path.join(WORK, "empty.tif")
    subprocess.run(["gdal_calc.py", "--quiet", "-A", os.path.join(WORK, "hill.tif"), "--outfile", empty,
                    "--NoDataValue=-99999", "--calc", "A * 0 - 99999"], check=True, capture_output=True)
    for bad in (junk, empty, os.path.join(WORK, "none.tif")):
        r = run("data", "import-dem", bad, "--data", os.path.join(WORK, "bad-data"))
        assert r.returncode == 1 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, (bad, r.stderr)
        lines.append(r.stderr.strip())
    return "%s; heights worst %.3f m; hole: %s, beside it %.0f m; %s" % (
        r.stdout.strip() or "imported", worst, inside["height"], outside["height"], " | ".join(lines))


@check("--terrain given twice stacks them: the first wins where it has a height, the second fills its nodata hole (equal to the second alone), both orders; a coarse layer (zooms 9-10 only) under it gives its own heights at zoom 14 within 0.5 m")
def _():
    holed = os.path.join(WORK, "holed-data", "holed.pmtiles")
    assert os.path.exists(holed), "the import-dem check makes it"
    def at(lat, lon, *tiles, zoom=13):
        args = [a for t in tiles for a in ("--terrain", t)]
        r = run("render", *args, "--center", "%r,%r" % (lat, lon), "--zoom", str(zoom), "--json")
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)["terrain"]
    top, low = (60.2, 24.9), min(POINTS, key=lambda p: p["height"])
    hole = at(*top, holed, MAPBOX)
    filler = at(*top, MAPBOX)
    assert at(*top, holed)["height"] is None and hole["height"] is not None, hole
    assert abs(hole["height"] - filler["height"]) <= 0.01, (hole, filler)
    assert hole["source"] == "holed + hill-mapbox", hole
    beside, alone = at(low["lat"], low["lon"], holed, MAPBOX), at(low["lat"], low["lon"], holed)
    assert abs(beside["height"] - alone["height"]) <= 0.01, (beside, alone)
    worst = 0.0
    for p in POINTS[:20]:
        under = at(p["lat"], p["lon"], MAPBOX, holed)
        worst = max(worst, abs(under["height"] - at(p["lat"], p["lon"], MAPBOX)["height"]))
    assert worst <= 0.01, worst
    coarse = os.path.join(WORK, "coarse.mbtiles")
    mbtiles(coarse, [("name", "coarse"), ("format", "png"), ("encoding", "mapbox"), ("minzoom", "9"),
                     ("maxzoom", "10")], mapbox_rows("WHERE zoom_level <= 10"))
    stacked = at(*top, holed, coarse, zoom=14)
    own = at(*top, coarse, zoom=14)
    assert stacked["height"] is not None and abs(stacked["height"] - own["height"]) <= 0.5, (stacked, own)
    return "in the hole %.3f m (the second alone %.3f m), beside it %.3f m (the first alone %.3f m); reversed: 20 heights within %.4f m; coarse under fine at zoom 14: %.3f m (alone %.3f m)" % (
        hole["height"], filler["height"], beside["height"], alone["height"], worst, stacked["height"], own["height"])


@check("bad tiles: a tile of the wrong size (left out, said once) and a tile of nodata only (no height, no contours) beside good ones: exit 0, the map and the other tiles' contours drawn")
def _():
    from PIL import Image
    import io
    bad = os.path.join(WORK, "bad-tiles.mbtiles")
    rows = mapbox_rows("WHERE zoom_level = 12 ORDER BY tile_column, tile_row")

    def png(img):
        out = io.BytesIO()
        img.save(out, "PNG")
        return out.getvalue()
    odd = png(Image.new("RGBA", (100, 60), (1, 134, 160, 255)))
    empty = png(Image.new("RGBA", (256, 256), (0, 0, 0, 0)))
    replaced = {rows[len(rows) // 2][1:3]: odd, rows[len(rows) // 2 + 1][1:3]: empty}
    mbtiles(bad, [("format", "png"), ("encoding", "mapbox"), ("minzoom", "9"), ("maxzoom", "12")],
            [(z, x, y, replaced.get((x, y), data)) for z, x, y, data in rows])
    out = []
    for (x, y), what in zip(replaced, ("wrong size", "nodata")):
        ty = (1 << 12) - 1 - y
        lon = (x + 0.5) / 4096 * 360 - 180
        lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * (ty + 0.5) / 4096))))
        r = run("render", "--terrain", bad, "--center", "%r,%r" % (lat, lon), "--zoom", "12", "--size", "120x40",
                "--json")
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        d = json.loads(r.stdout)
        assert d["terrain"]["height"] is None, (what, d["terrain"])
        picked, _ = pick(bad, lat, lon, 12, "200x60")
        assert picked, (what, "no contours around it")
        said = r.stderr.strip()
        # Said once a run (the nodata tile's view shows its misfit neighbour too).
        assert said.count("pixels, not 256×256; skipped") == 1 and said.count("\n") == 0, (what, said)
        out.append("%s: height null, %d contour cells around it%s" % (what, len(picked), "; said: " + said if said else ""))
    return " | ".join(out)


@check("peaks and passes from an import (natural=peak/saddle with ele) are labelled ▲ NAME 1021 m (× at a pass; ^ in ASCII) from zoom 11, not below")
def _():
    osm = os.path.join(WORK, "peaks.osm")
    nodes = [(1, 31.0, -39.0, {"natural": "peak", "name": "Testberg", "ele": "1021"}),
             (2, 31.01, -38.97, {"natural": "saddle", "name": "Testpass", "ele": "850.4"}),
             (3, 30.99, -39.03, {"natural": "peak", "ele": "2034 m"})]
    with open(osm, "w") as f:
        f.write('<?xml version="1.0"?><osm version="0.6" generator="test">')
        for i, lat, lon, tags in nodes:
            f.write('<node id="%d" version="1" lat="%r" lon="%r">' % (i, lat, lon)
                    + "".join('<tag k="%s" v="%s"/>' % kv for kv in tags.items()) + "</node>")
        f.write("</osm>")
    pbf = os.path.join(WORK, "peaks.osm.pbf")
    subprocess.run(["osmium", "cat", "-O", osm, "-o", pbf], check=True, capture_output=True)
    data = os.path.join(WORK, "peak-data")
    r = run("data", "import-osm", pbf, "--data", data)
    assert r.returncode == 0, r.stderr
    view = ("--data", data, "--center", "31,-39", "--size", "100x30")
    at12 = run("render", *view, "--zoom", "12").stdout
    at10 = run("render", *view, "--zoom", "10").stdout
    ascii_ = run("render", *view, "--zoom", "12", "--ascii").stdout
    assert "Testberg 1021 m" in at12 and "▲" in at12 and "Testpass 850 m" in at12 and "×" in at12, at12
    assert "2034 m" in at12, at12
    assert "1021 m" not in at10 and "▲" not in at10, at10
    assert "Testberg 1021 m" in ascii_ and "^" in ascii_, ascii_
    line = [ln for ln in at12.split("\n") if "Testberg" in ln][0].strip()
    return "zoom 12: %r; zoom 10: none" % line


if __name__ == "__main__":
    try:
        check.report("terrain e2e")
    finally:
        subprocess.run(["rm", "-rf", WORK])
