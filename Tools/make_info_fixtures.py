#!/usr/bin/env python3
"""What is here, as implementations independent of termmap's read it: for the demo city, 20 seeded
places on named streets and in buildings of the Helsinki extract (the bundled data is imported from
it) with the OpenStreetMap way pyosmium (libosmium) reads there, its name and tags; for the vector
tile fixture, 12 seeded features of its zoom-14 tiles as mapbox-vector-tile decodes them (layer, id,
properties) with a point on each, and 16 places on its unnamed lines with the name its names layer
keeps along them (shapely's distances). Writes Tests/ViewerTests/Fixtures/info.json, and a tile whose
features have ids (Tests/MapDataTests/Fixtures/tiles/ids.mvt) with the ids its protobuf reads.

A street's place is the middle of one of its segments; a building's is shapely's representative
point of its outline (a point inside it); a tile line's is the middle of a segment, a tile polygon's
the representative point of its outer ring, in tile units, turned into degrees by the tile's square
in Web Mercator (mercantile's tile bounds).

    python3 -m pip install --target .pyref osmium==4.3.2 mapbox-vector-tile shapely mercantile
    PYTHONPATH=.pyref python3 Tools/make_info_fixtures.py
"""
import gzip
import json
import math
import os
import random
import sqlite3

import mapbox_vector_tile
from mapbox_vector_tile.Mapbox import vector_tile_pb2
import mercantile
import osmium
from shapely.geometry import LineString, Point, Polygon

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PBF = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "osm", "Helsinki.osm.pbf")
MBTILES = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "tiles", "helsinki-omt.mbtiles")
OUT = os.path.join(ROOT, "Tests", "ViewerTests", "Fixtures", "info.json")
IDS_TILE = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "tiles", "ids.mvt")
STREETS = {"primary", "secondary", "tertiary", "residential", "unclassified", "living_street"}
# The tags the import keeps (its main key's, then `ref`), as docs/viewer.md's what-is-here paragraph says.
# The import's main keys: a feature keeps each it has (a cathedral's amenity, tourism and building).
MAIN_KEYS = ["amenity", "shop", "tourism", "highway", "railway", "waterway", "building", "leisure", "natural", "landuse"]


class Ways(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.streets = []
        self.buildings = []

    def way(self, w):
        tags = {t.k: t.v for t in w.tags}
        try:
            points = [(n.lon, n.lat) for n in w.nodes]
        except osmium.InvalidLocationError:
            return
        if tags.get("highway") in STREETS and tags.get("name") and len(points) >= 2:
            self.streets.append((w.id, tags, points))
        elif "building" in tags and len(points) >= 4 and w.nodes[0].ref == w.nodes[-1].ref:
            self.buildings.append((w.id, tags, points))


def kept(tags):
    out = {}
    for k in MAIN_KEYS:
        if k in tags:
            out[k] = tags[k]
    if "ref" in tags:
        out["ref"] = tags["ref"]
    return out


def osm_cases(rnd):
    h = Ways()
    h.apply_file(PBF, locations=True)
    cases = []
    for kind, pool in (("street", h.streets), ("building", h.buildings)):
        chosen = rnd.sample(sorted(pool), 10)
        for way_id, tags, points in chosen:
            if kind == "street":
                i = rnd.randrange(len(points) - 1)
                (x0, y0), (x1, y1) = points[i], points[i + 1]
                lon, lat = (x0 + x1) / 2, (y0 + y1) / 2
            else:
                p = Polygon(points).representative_point()
                lon, lat = p.x, p.y
            cases.append({"kind": kind, "lat": lat, "lon": lon, "id": f"way {way_id}",
                          "name": tags.get("name"), "properties": kept(tags)})
    return cases


def tile_cases(rnd):
    db = sqlite3.connect(MBTILES)
    rows = db.execute("select tile_column, tile_row, tile_data from tiles where zoom_level = 14 "
                      "order by tile_column, tile_row").fetchall()
    pool = []
    for column, row, data in rows:
        y = (1 << 14) - 1 - row  # MBTiles rows count from the south (TMS)
        raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        layers = mapbox_vector_tile.decode(raw, default_options={"y_coord_down": True})
        # mapbox-vector-tile says 0 for a feature without an id; its protobuf tells them apart.
        tile = vector_tile_pb2.tile()
        tile.ParseFromString(raw)
        ids = {l.name: [str(f.id) if f.HasField("id") else None for f in l.features] for l in tile.layers}
        for name in ("transportation", "building"):
            layer = layers.get(name)
            if not layer:
                continue
            extent = layer["extent"]
            for i, f in enumerate(layer["features"]):
                f = dict(f, id=ids[name][i])
                g = f["geometry"]
                if name == "transportation" and g["type"] == "LineString" and f["properties"].get("class") in (
                        "primary", "secondary", "tertiary", "minor", "service"):
                    pool.append((column, y, name, extent, f))
                elif name == "building" and g["type"] == "Polygon":
                    pool.append((column, y, name, extent, f))
    cases = []
    rnd.shuffle(pool)
    for column, y, name, extent, f in pool:
        if len(cases) == 12:
            break
        g = f["geometry"]
        if g["type"] == "LineString":
            c = g["coordinates"]
            i = rnd.randrange(len(c) - 1)
            px, py = (c[i][0] + c[i + 1][0]) / 2, (c[i][1] + c[i + 1][1]) / 2
        else:
            p = Polygon(g["coordinates"][0]).representative_point()
            px, py = p.x, p.y
        # Well inside the tile: its neighbours' buffers are not this feature's.
        if not (256 <= px <= extent - 256 and 256 <= py <= extent - 256):
            continue
        b = mercantile.xy_bounds(column, y, 14)
        mx = b.left + (b.right - b.left) * px / extent
        my = b.top - (b.top - b.bottom) * py / extent
        lon, lat = mercantile.lnglat(mx, my)
        cases.append({"tile": [14, column, y], "layer": name, "lat": lat, "lon": lon,
                      "id": f["id"],
                      "properties": {k: v if isinstance(v, str) else repr_value(v) for k, v in f["properties"].items()}})
    return cases


def tile_name_cases(rnd):
    """Places on unnamed `transportation` lines of the tile fixture's zoom-14 tiles (a segment's middle,
    well inside the tile) with the name OpenMapTiles keeps for them in `transportation_name`: that of the
    line of the same class nearest the place (shapely's distance), when it is within 6 m and no other
    name of that class is within 30 m; none when no named line of the class is within 30 m. Places in
    between are left out (which name is meant is not clear there)."""
    db = sqlite3.connect(MBTILES)
    rows = db.execute("select tile_column, tile_row, tile_data from tiles where zoom_level = 14 "
                      "order by tile_column, tile_row").fetchall()
    named, unnamed = [], []
    for column, row, data in rows:
        y = (1 << 14) - 1 - row
        raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        layers = mapbox_vector_tile.decode(raw, default_options={"y_coord_down": True})
        lines, names = layers.get("transportation"), layers.get("transportation_name")
        if not lines or not names:
            continue
        extent = lines["extent"]
        b = mercantile.xy_bounds(column, y, 14)
        lat_mid = mercantile.lnglat((b.left + b.right) / 2, (b.top + b.bottom) / 2).lat
        # Ground metres a tile unit: the tile's Mercator width over its extent, times cos φ.
        unit_m = (b.right - b.left) / extent * math.cos(math.radians(lat_mid))
        # OpenMapTiles names a feature in `name`, or (tilemaker's configuration) in `name:latin`.
        def name_of(p):
            return p.get("name") or p.get("name:latin")
        name_lines = [(f["properties"].get("class"), name_of(f["properties"]), LineString(f["geometry"]["coordinates"]))
                      for f in names["features"] if f["geometry"]["type"] == "LineString" and name_of(f["properties"])]
        for f in lines["features"]:
            g, cls = f["geometry"], f["properties"].get("class")
            if g["type"] != "LineString" or cls not in ("primary", "secondary", "tertiary", "minor") \
                    or name_of(f["properties"]):
                continue
            c = g["coordinates"]
            i = rnd.randrange(len(c) - 1)
            px, py = (c[i][0] + c[i + 1][0]) / 2, (c[i][1] + c[i + 1][1]) / 2
            if not (256 <= px <= extent - 256 and 256 <= py <= extent - 256):
                continue
            near = sorted((line.distance(Point(px, py)) * unit_m, name) for k, name, line in name_lines if k == cls)
            near = [(d, n) for d, n in near if d <= 30]
            mx = b.left + (b.right - b.left) * px / extent
            my = b.top - (b.top - b.bottom) * py / extent
            lon, lat = mercantile.lnglat(mx, my)
            case = {"lat": lat, "lon": lon, "class": cls}
            if not near:
                unnamed.append(dict(case, name=None))
            elif near[0][0] <= 6 and all(n == near[0][1] for _, n in near):
                named.append(dict(case, name=near[0][1], meters=round(near[0][0], 2)))
    rnd.shuffle(named)
    rnd.shuffle(unnamed)
    return named[:12] + unnamed[:4]


def ids_tile():
    """A tile whose features have ids (the fixture's tilemaker tiles have none), mapbox-vector-tile's
    encoding: what the decoder must read back."""
    features = [
        {"geometry": "POINT (100 200)", "properties": {"name": "a"}, "id": 1},
        {"geometry": "LINESTRING (0 0, 4096 4096)", "properties": {"class": "primary"}, "id": 4242},
        {"geometry": "POINT (300 300)", "properties": {"kind": "big"}, "id": 1 << 40},
        {"geometry": "POINT (5 5)", "properties": {"kind": "none"}},
    ]
    data = mapbox_vector_tile.encode([{"name": "things", "features": features}])
    with open(IDS_TILE, "wb") as f:
        f.write(data)
    t = vector_tile_pb2.tile()
    t.ParseFromString(data)
    return [str(f.id) if f.HasField("id") else None for f in t.layers[0].features]


def repr_value(v):
    """A property as termmap writes it: booleans as words, integers plainly, others as Swift's Double."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return repr(float(v))


def main():
    rnd = random.Random(2026)
    out = {"osm": osm_cases(rnd), "tiles": tile_cases(rnd), "idsTile": ids_tile(), "tileNames": tile_name_cases(rnd),
           "made_with": "pyosmium 4.3.2, mapbox-vector-tile, shapely, mercantile"}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{OUT}: {len(out['osm'])} OSM places, {len(out['tiles'])} tile features, "
          f"{len(out['tileNames'])} unnamed tile lines")


if __name__ == "__main__":
    main()
