#!/usr/bin/env python3
"""Elevation fixtures for the terrain tests (issue 48), made with GDAL's own programs (Debian gdal-bin):
a synthetic DEM (a smooth hill: 100 m plus 900 m · exp(−r² / 2σ²), σ = 6 km, on a 100 m grid in Web
Mercator around 60.2° N, 24.9° E), cut into 256-pixel tiles at zooms 9–12 by `gdal_translate -projwin
-outsize -r bilinear`, encoded as Terrarium (a `.pmtiles`, metadata `encoding: terrarium`) and as
Mapbox terrain-RGB (an `.mbtiles`, `encoding: mapbox`); and the DEM's own heights at seeded points,
read back with `gdallocationinfo -valonly` at the four pixels around each and filtered bilinearly.

    python3 Tools/make_terrain.py OUT_DIR [POINTS]   # prints a JSON list of {lat, lon, height}

With `--shapes`, the contour fixtures instead: four DEMs of known form (a cone, a saddle, a plane of
known slope, a ridge running diagonally across many tile edges) on the same 100 m grid, each far out in
the Atlantic (where no map data draws over the contours), each cut into Terrarium tiles at zoom 12, and
each DEM's own contours every 100 m by `gdal_contour` (GeoJSON in Web Mercator metres):

    python3 Tools/make_terrain.py --shapes OUT_DIR   # prints {name: {lat, lon, tiles, contours}}
"""
import json
import math
import os
import random
import sqlite3
import subprocess
import sys
import tempfile

from PIL import Image

R = 6378137.0
CENTER = (60.2, 24.9)
CELL, SIZE, SIGMA = 100.0, 400, 6000.0  # metres a DEM pixel, pixels a side, the hill's spread
NODATA = -99999


def mercator(lat, lon):
    return R * math.radians(lon), R * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


def geographic(x, y):
    return math.degrees(2 * math.atan(math.exp(y / R)) - math.pi / 2), math.degrees(x / R)


def hill(dx, dy):
    return 100 + 900 * math.exp(-(dx ** 2 + dy ** 2) / (2 * SIGMA ** 2))


# The contour fixtures: each a height in metres of the offset (dx, dy) in Mercator metres from its centre.
SHAPES = {
    "cone": ((30.0, -40.0), lambda dx, dy: 1500 - 0.05 * math.hypot(dx, dy)),
    "saddle": ((30.0, -38.0), lambda dx, dy: 800 + 1.5e-6 * (dx * dx - dy * dy)),
    "plane": ((32.0, -40.0), lambda dx, dy: 500 + 0.03 * dx + 0.01 * dy),
    "ridge": ((32.0, -38.0), lambda dx, dy: 1250 - 0.06 * abs(dx - dy) / math.sqrt(2)),
}


def dem(path, center=CENTER, height=hill):
    """A DEM of `height` around `center` as an ASCII grid with its projection, then a GeoTIFF; its west
    and north edges."""
    cx, cy = mercator(*center)
    west, north = cx - SIZE * CELL / 2, cy + SIZE * CELL / 2
    rows = []
    for r in range(SIZE):
        y = north - (r + 0.5) * CELL
        rows.append(" ".join("%.3f" % height(west + (c + 0.5) * CELL - cx, y - cy) for c in range(SIZE)))
    asc = path + ".asc"
    with open(asc, "w") as f:
        f.write("ncols %d\nnrows %d\nxllcorner %r\nyllcorner %r\ncellsize %r\nNODATA_value %d\n"
                % (SIZE, SIZE, west, north - SIZE * CELL, CELL, NODATA) + "\n".join(rows) + "\n")
    subprocess.run(["gdal_translate", "-q", "-a_srs", "EPSG:3857", asc, path], check=True)
    os.remove(asc)
    return west, north


def tile_bounds(z, x, y):
    size = 2 * math.pi * R / (1 << z)
    return -math.pi * R + x * size, math.pi * R - y * size, -math.pi * R + (x + 1) * size, math.pi * R - (y + 1) * size


def heights(tif, z, x, y, tmp):
    """A tile's 256 × 256 heights (row by row; None for nodata) resampled bilinearly by GDAL."""
    ulx, uly, lrx, lry = tile_bounds(z, x, y)
    out = os.path.join(tmp, "tile.asc")
    subprocess.run(["gdal_translate", "-q", "-projwin", repr(ulx), repr(uly), repr(lrx), repr(lry), "-outsize", "256",
                    "256", "-r", "bilinear", "-of", "AAIGrid", "-ot", "Float32", tif, out], check=True,
                   capture_output=True)
    with open(out) as f:
        lines = f.read().split("\n")
    header = {ln.split()[0].lower(): ln.split()[1] for ln in lines[:6] if ln and ln.split()[0][0].isalpha()}
    body = [ln for ln in lines[len(header):] if ln.strip()]
    nodata = float(header.get("nodata_value", NODATA))
    return [[None if float(v) == nodata else float(v) for v in ln.split()] for ln in body]


def terrarium(h):
    v = h + 32768
    return int(v // 256), int(v) % 256, int((v - math.floor(v)) * 256)


def mapbox(h):
    v = int(round((h + 10000) * 10))
    return v >> 16 & 255, v >> 8 & 255, v & 255


def png(grid, encode, path):
    img = Image.new("RGBA", (256, 256))
    img.putdata([(0, 0, 0, 0) if h is None else encode(h) + (255,) for row in grid for h in row])
    img.save(path)


def shapes(out):
    """The contour fixtures (see the module's text)."""
    os.makedirs(out, exist_ok=True)
    made = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (center, height) in SHAPES.items():
            tif = os.path.join(out, name + ".tif")
            west, north = dem(tif, center, height)
            east, south = west + SIZE * CELL, north - SIZE * CELL
            tiles, z = [], 12
            size = 2 * math.pi * R / (1 << z)
            for x in range(int((west + math.pi * R) // size), int((east + math.pi * R) // size) + 1):
                for y in range(int((math.pi * R - north) // size), int((math.pi * R - south) // size) + 1):
                    path = os.path.join(tmp, "%s-%d-%d.png" % (name, x, y))
                    png(heights(tif, z, x, y, tmp), terrarium, path)
                    with open(path, "rb") as f:
                        tiles.append(((z, x, y), f.read()))
            (s_lat, w_lon), (n_lat, e_lon) = geographic(west, south), geographic(east, north)
            pmtiles = os.path.join(out, name + ".pmtiles")
            write_pmtiles(pmtiles, tiles, (w_lon, s_lat, e_lon, n_lat), zooms=(12, 12), center=center, name=name)
            contours = os.path.join(out, name + "-contours.geojson")
            if os.path.exists(contours):
                os.remove(contours)
            subprocess.run(["gdal_contour", "-q", "-i", "100", "-a", "height", "-f", "GeoJSON", tif, contours],
                           check=True, capture_output=True)
            made[name] = {"lat": center[0], "lon": center[1], "tiles": pmtiles, "contours": contours}
    print(json.dumps(made))


def main():
    if sys.argv[1] == "--shapes":
        return shapes(sys.argv[2])
    out = sys.argv[1]
    points = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    os.makedirs(out, exist_ok=True)
    tif = os.path.join(out, "hill.tif")
    west, north = dem(tif)
    east, south = west + SIZE * CELL, north - SIZE * CELL
    made = {"terrarium": [], "mapbox": []}
    with tempfile.TemporaryDirectory() as tmp:
        for z in range(9, 13):
            n, size = 1 << z, 2 * math.pi * R / (1 << z)
            x0, x1 = int((west + math.pi * R) // size), int((east + math.pi * R) // size)
            y0, y1 = int((math.pi * R - north) // size), int((math.pi * R - south) // size)
            for x in range(x0, x1 + 1):
                for y in range(y0, y1 + 1):
                    grid = heights(tif, z, x, y, tmp)
                    for name, encode in (("terrarium", terrarium), ("mapbox", mapbox)):
                        path = os.path.join(tmp, "%s-%d-%d-%d.png" % (name, z, x, y))
                        png(grid, encode, path)
                        with open(path, "rb") as f:
                            made[name].append(((z, x, y), f.read()))
    (s_lat, w_lon), (n_lat, e_lon) = geographic(west, south), geographic(east, north)
    bounds = (w_lon, s_lat, e_lon, n_lat)
    write_pmtiles(os.path.join(out, "hill-terrarium.pmtiles"), made["terrarium"], bounds)
    write_mbtiles(os.path.join(out, "hill-mapbox.mbtiles"), made["mapbox"], bounds)
    # The DEM's heights at seeded points inside it, bilinear between the four pixel centres around each.
    rng = random.Random(48)
    chosen = []
    for _ in range(points):
        x = west + CELL + rng.random() * (SIZE - 2) * CELL
        y = north - CELL - rng.random() * (SIZE - 2) * CELL
        px, py = (x - west) / CELL - 0.5, (north - y) / CELL - 0.5
        chosen.append((x, y, px, py))
    queries = "".join("%d %d\n" % (int(px) + dx, int(py) + dy) for _, _, px, py in chosen for dy in (0, 1)
                      for dx in (0, 1))
    values = subprocess.run(["gdallocationinfo", "-valonly", tif], input=queries, capture_output=True, text=True,
                            check=True).stdout.split()
    result = []
    for i, (x, y, px, py) in enumerate(chosen):
        a, b, c, d = (float(v) for v in values[4 * i:4 * i + 4])
        fx, fy = px - int(px), py - int(py)
        lat, lon = geographic(x, y)
        result.append({"lat": lat, "lon": lon,
                       "height": (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy})
    print(json.dumps(result))


def write_pmtiles(path, tiles, bounds, zooms=(9, 12), center=CENTER, name="hill"):
    from pmtiles.tile import zxy_to_tileid, TileType, Compression
    from pmtiles.writer import Writer
    west, south, east, north = bounds
    with open(path, "wb") as out:
        w = Writer(out)
        for (z, x, y), data in sorted(tiles, key=lambda t: zxy_to_tileid(*t[0])):
            w.write_tile(zxy_to_tileid(z, x, y), data)
        w.finalize({
            "tile_type": TileType.PNG, "tile_compression": Compression.NONE, "min_zoom": zooms[0], "max_zoom": zooms[1],
            "min_lon_e7": int(west * 1e7), "min_lat_e7": int(south * 1e7),
            "max_lon_e7": int(east * 1e7), "max_lat_e7": int(north * 1e7),
            "center_zoom": zooms[0], "center_lon_e7": int(center[1] * 1e7), "center_lat_e7": int(center[0] * 1e7),
        }, {"name": name, "encoding": "terrarium", "attribution": "termmap test " + name})


def write_mbtiles(path, tiles, bounds):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
    db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
    for k, v in {"name": "hill", "format": "png", "encoding": "mapbox", "minzoom": "9", "maxzoom": "12",
                 "bounds": ",".join(repr(b) for b in bounds)}.items():
        db.execute("INSERT INTO metadata VALUES (?, ?)", (k, v))
    for (z, x, y), data in tiles:
        db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, (1 << z) - 1 - y, data))
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
