#!/usr/bin/env python3
"""Raster tilesets for the imagery tests (issue 47), made by GDAL's own gdal2tiles from a picture:

  checker   a synthetic image (Pillow): a colour checkerboard of 8 × 8 squares, each square a known
            gradient (red by column, green by row), a labelled grid (black lines, each square's letter
            and number), over lon 20..30, lat 55..65; zooms 0-6.
  stripes   horizontal stripes one tile pixel tall at zoom 4 (red, blue alternating): what tells a
            half-block's upper half from its lower; zooms 0-4.
  earth     xplanet-images' earth.jpg (NASA Visible Earth, free of licensing fees, NASA credited;
            Debian), the whole world; zooms 0-3.

Each becomes DIR/NAME.mbtiles (MBTiles 1.3: TMS rows, format png) and DIR/NAME.pmtiles (PMTiles v3,
tile type PNG, written with the `pmtiles` package), from the same gdal2tiles `--xyz` tiles, which stay in
DIR/NAME/{z}/{x}/{y}.png for the tests to read with Pillow.

    python3 Tools/make_imagery.py DIR [checker|stripes|earth ...]
    (needs Pillow, gdal-bin's gdal2tiles.py and gdal_translate, and `pmtiles` on PYTHONPATH)
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw

EARTH = "/usr/share/xplanet/images/earth.jpg"


def checker(path):
    """The checkerboard: 1024 × 1024, squares of 128 pixels in 8 colours with gradients and labels."""
    size, n = 1024, 8
    img = Image.new("RGB", (size, size))
    px = img.load()
    base = [(200, 40, 40), (40, 160, 60), (40, 70, 200), (230, 210, 40), (160, 60, 190), (40, 190, 200),
            (240, 140, 30), (120, 120, 120)]
    step = size // n
    for y in range(size):
        for x in range(size):
            sx, sy = x // step, y // step
            r, g, b = base[(sx + sy * 3) % len(base)]
            fx, fy = (x % step) / step, (y % step) / step
            px[x, y] = (min(255, int(r * (0.6 + 0.4 * fx))), min(255, int(g * (0.6 + 0.4 * fy))), b)
    draw = ImageDraw.Draw(img)
    for k in range(n + 1):
        draw.line([(k * step, 0), (k * step, size)], fill=(0, 0, 0), width=3)
        draw.line([(0, k * step), (size, k * step)], fill=(0, 0, 0), width=3)
    for sy in range(n):
        for sx in range(n):
            draw.text((sx * step + 8, sy * step + 8), "%s%d" % ("ABCDEFGH"[sx], sy + 1), fill=(255, 255, 255))
    img.save(path)
    return (20, 65, 30, 55)


def stripes(path):
    """Stripes one zoom-4 pixel tall over zoom 4's tile (8,4), placed in Web Mercator metres (EPSG:3857)
    so that gdal2tiles keeps each stripe one pixel row."""
    w, h = 256, 256
    img = Image.new("RGB", (w, h))
    px = img.load()
    for y in range(h):
        for x in range(w):
            px[x, y] = (220, 30, 30) if y % 2 == 0 else (30, 40, 220)
    img.save(path)
    half = 20037508.342789244  # the half-width of the Web Mercator world, in metres
    return (0, half * (1 - 2 * 4 / 16), half * 22.5 / 180, half * (1 - 2 * 5 / 16))


def tiles(source, ullr, zooms, out, name, epsg="EPSG:4326"):
    tif = os.path.join(out, name + ".tif")
    west, north, east, south = ullr
    subprocess.run(["gdal_translate", "-q", "-of", "GTiff", "-a_srs", epsg, "-a_ullr", str(west), str(north),
                    str(east), str(south), source, tif], check=True)
    folder = os.path.join(out, name)
    subprocess.run(["gdal2tiles.py", "-q", "--xyz", "-z", zooms, "-w", "none", "-r", "average", tif, folder],
                   check=True)
    os.remove(tif)
    found = []
    for z in sorted(os.listdir(folder), key=lambda s: int(s) if s.isdigit() else -1):
        if not z.isdigit():
            continue
        for x in os.listdir(os.path.join(folder, z)):
            for f in os.listdir(os.path.join(folder, z, x)):
                if f.endswith(".png"):
                    found.append((int(z), int(x), int(f[:-4])))
    return folder, sorted(found)


def credit(name):
    return "NASA Visible Earth (xplanet-images)" if name == "earth" else "test imagery (public domain)"


def write_mbtiles(path, folder, found, name, bounds):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
    db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
    zs = [z for z, _, _ in found]
    meta = {"name": name, "format": "png", "minzoom": str(min(zs)), "maxzoom": str(max(zs)),
            "bounds": ",".join(str(v) for v in bounds), "attribution": credit(name)}
    db.executemany("INSERT INTO metadata VALUES (?, ?)", meta.items())
    for z, x, y in found:
        with open(os.path.join(folder, str(z), str(x), "%d.png" % y), "rb") as f:
            db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, (1 << z) - 1 - y, f.read()))
    db.commit()
    db.close()


def write_pmtiles(path, folder, found, name, bounds):
    from pmtiles.tile import zxy_to_tileid, TileType, Compression
    from pmtiles.writer import Writer
    with open(path, "wb") as out:
        w = Writer(out)
        for z, x, y in sorted(found, key=lambda t: zxy_to_tileid(*t)):
            with open(os.path.join(folder, str(z), str(x), "%d.png" % y), "rb") as f:
                w.write_tile(zxy_to_tileid(z, x, y), f.read())
        zs = [z for z, _, _ in found]
        west, south, east, north = bounds
        w.finalize({
            "tile_type": TileType.PNG, "tile_compression": Compression.NONE,
            "min_zoom": min(zs), "max_zoom": max(zs),
            "min_lon_e7": int(west * 1e7), "min_lat_e7": int(south * 1e7),
            "max_lon_e7": int(east * 1e7), "max_lat_e7": int(north * 1e7),
            "center_zoom": min(zs), "center_lon_e7": int((west + east) / 2 * 1e7),
            "center_lat_e7": int((south + north) / 2 * 1e7),
        }, {"name": name, "attribution": credit(name)})


def make(out, name):
    with tempfile.TemporaryDirectory() as tmp:
        if name == "earth":
            source, ullr, zooms = EARTH, (-180, 90, 180, -90), "0-3"
        else:
            source = os.path.join(tmp, name + ".png")
            ullr = checker(source) if name == "checker" else stripes(source)
            zooms = "0-6" if name == "checker" else "0-4"
        epsg = "EPSG:3857" if name == "stripes" else "EPSG:4326"
        folder, found = tiles(source, ullr, zooms, out, name, epsg)
    west, north, east, south = ullr if name != "stripes" else (0, 66.51326044311186, 22.5, 55.77657301866769)
    bounds = (west, max(south, -85.0511), east, min(north, 85.0511))
    write_mbtiles(os.path.join(out, name + ".mbtiles"), folder, found, name, bounds)
    write_pmtiles(os.path.join(out, name + ".pmtiles"), folder, found, name, bounds)
    return {"name": name, "tiles": len(found), "bounds": bounds}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = sys.argv[2:] or ["checker", "stripes"]
    print(json.dumps([make(out, n) for n in names]))


if __name__ == "__main__":
    main()
