#!/usr/bin/env python3
"""MBTiles fixtures for cases other projects' files found, written with Python's sqlite3 (and Pillow for
the images), not by termmap. Each is named after what it reproduces:

  raster-png-no-format.mbtiles, raster-jpg-no-format.mbtiles, raster-webp-no-format.mbtiles
      node-mbtiles' test/fixtures/plain_1.mbtiles (and geography-class): raster tiles and a metadata
      table without a `format` row. termmap must tell the images by their first bytes and refuse them.
  maxzoom-past-tiles.mbtiles
      planetiler's test tilesets: metadata says maxzoom 14, the tiles stop at 13. Made from the z0–13
      tiles of helsinki-omt.mbtiles (© OpenStreetMap contributors, ODbL 1.0). termmap must overzoom z13.

Run from the project's root:  python3 Tools/make_tile_edge_fixtures.py
"""
import io
import os
import sqlite3

from PIL import Image

TILES = os.path.join("Tests", "MapDataTests", "Fixtures", "tiles")
SCHEMA = """
CREATE TABLE metadata (name text, value text);
CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
CREATE UNIQUE INDEX tile_index on tiles (zoom_level, tile_column, tile_row);
"""


def new_db(name):
    path = os.path.join(TILES, name)
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 1024")
    db.executescript(SCHEMA)
    return db, path


def image(fmt):
    out = io.BytesIO()
    Image.new("RGB", (4, 4), (40, 90, 160)).save(out, format=fmt)
    return out.getvalue()


def raster(kind, fmt):
    db, path = new_db(f"raster-{kind}-no-format.mbtiles")
    # plain_1's metadata rows: no `format`.
    db.executemany("INSERT INTO metadata VALUES (?, ?)", [
        ("name", "plain_1"), ("type", "baselayer"), ("version", "1.0.0"),
        ("description", "raster tiles without a format row"), ("bounds", "-180,-85,180,85")])
    data = image(fmt)
    for z in range(2):
        for x in range(1 << z):
            for y in range(1 << z):
                db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, y, data))
    db.commit()
    db.execute("VACUUM")
    db.close()
    print("wrote", path)


def maxzoom_past_tiles():
    source = sqlite3.connect(os.path.join(TILES, "helsinki-omt.mbtiles"))
    db, path = new_db("maxzoom-past-tiles.mbtiles")
    meta = source.execute("SELECT name, value FROM metadata").fetchall()
    db.executemany("INSERT INTO metadata VALUES (?, ?)", meta)
    db.execute("UPDATE metadata SET value = '14' WHERE name = 'maxzoom'")
    db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)",
                   source.execute("SELECT * FROM tiles WHERE zoom_level <= 13").fetchall())
    db.commit()
    db.execute("VACUUM")
    db.close()
    print("wrote", path)


def main():
    raster("png", "PNG")
    raster("jpg", "JPEG")
    raster("webp", "WEBP")
    maxzoom_past_tiles()


if __name__ == "__main__":
    main()
