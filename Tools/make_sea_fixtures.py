#!/usr/bin/env python3
"""Land and sea references for termmap's import: points known to be sea, water or land, from the
coastline and water areas by pyosmium and shapely (Tools/coast_sea.py), independent of termmap.

Writes into Tests/MapDataTests/Fixtures/osm/:
  * coast-island.osm.pbf, coast-bay.osm.pbf, coast-reentry.osm.pbf: three made-up coasts in a box
    (an island in the sea; a bay cut into the land; a coastline that leaves the box and comes back),
    written by libosmium with the box in the header. No licence restrictions;
  * coast-broken.osm.pbf: a coastline that ends 1 km inside its box (no sea can be made from it), and
    a street;
  * sea.json: for those and Helsinki.osm.pbf, the box and points on a grid over it, each `sea`
    (in the sea made from the coastline), `water` (in a water area: natural=water, waterway=riverbank,
    water=*, landuse=reservoir/basin) or `land`, keeping only points at least 30 m from every shore
    and from the box's sides (a cell at zoom 14 is under 10 m wide and 20 m tall at 60°N); for
    Helsinki also `buildings`: points inside building polygons (libosmium's areas), at least 3 m from
    their edges (a cell at zoom 17 is 0.6 m wide and 1.2 m tall there), with the building's OSM id.

    python3 -m pip install osmium==4.3.2 shapely==2.0.6
    python3 Tools/make_sea_fixtures.py
"""
import json
import math
import os
import sys

import osmium
from shapely.geometry import Point, Polygon, box as shapely_box
from shapely.ops import unary_union

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coast_sea  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "osm")
MARGIN_M = 30
GRID = 40

# The synthetic coasts: a 2 km × 1.1 km box near 50°N, 10°E; coastlines as (lon, lat) lists, each
# with the land on its left.
BOX = (10.0, 50.0, 10.03, 50.01)
COASTS = {
    # An island (anticlockwise) in the open sea.
    "coast-island": [[(10.01, 50.003), (10.02, 50.003), (10.02, 50.007), (10.01, 50.007), (10.01, 50.003)]],
    # The land in the west, a bay reaching into it; ends stop 20 m inside the box, as extracts leave them.
    "coast-bay": [[(10.015, 50.00015), (10.014, 50.004), (10.008, 50.006), (10.014, 50.007), (10.015, 50.00985)]],
    # A headland: the coast leaves the box through its east side and comes back (land in the south).
    "coast-reentry": [[(10.0003, 50.004), (10.01, 50.005), (10.025, 50.006), (10.04, 50.007), (10.04, 50.008),
                       (10.026, 50.009), (10.028, 50.0098)]],
    # A coastline from the box's west side that stops 1 km inside it (a broken coastline).
    "coast-broken": [[(10.0002, 50.005), (10.01, 50.005), (10.015, 50.005)]],
}


def write_coast(name, lines):
    """A PBF of coastline ways (node ids from 1, way ids from 100) with BOX in its header."""
    path = os.path.join(OUT, name + ".osm.pbf")
    if os.path.exists(path):
        os.remove(path)
    header = osmium.io.Header()
    header.add_box(osmium.osm.Box(osmium.osm.Location(BOX[0], BOX[1]), osmium.osm.Location(BOX[2], BOX[3])))
    writer = osmium.SimpleWriter(path, 0, header)
    node = 1
    ways = []
    for i, line in enumerate(lines):
        refs = []
        first = node
        for j, (lon, lat) in enumerate(line):
            if j == len(line) - 1 and line[0] == line[-1]:
                refs.append(first)
                continue
            writer.add_node(osmium.osm.mutable.Node(id=node, location=(lon, lat), version=1))
            refs.append(node)
            node += 1
        ways.append(osmium.osm.mutable.Way(id=100 + i, nodes=refs, tags={"natural": "coastline"}, version=1))
    if name == "coast-broken":
        # And a street, so that the file is street-level data that takes over the shore.
        for j, (lon, lat) in enumerate([(10.005, 50.008), (10.025, 50.008)]):
            writer.add_node(osmium.osm.mutable.Node(id=node + j, location=(lon, lat), version=1))
        ways.append(osmium.osm.mutable.Way(id=200, nodes=[node, node + 1], tags={"highway": "residential"}, version=1))
    for w in ways:
        writer.add_way(w)
    writer.close()
    return path


def water_areas(pbf):
    """The extract's water areas (shapely polygons), as libosmium's area assembler builds them."""
    polys = []
    for o in osmium.FileProcessor(pbf).with_locations().with_areas():
        if not o.is_area():
            continue
        t = o.tags
        if not (t.get("natural") == "water" or t.get("waterway") == "riverbank" or "water" in t
                or t.get("landuse") in ("reservoir", "basin")):
            continue
        try:
            for outer in o.outer_rings():
                p = Polygon([(n.lon, n.lat) for n in outer],
                            [[(n.lon, n.lat) for n in inner] for inner in o.inner_rings(outer)])
                if p.is_valid:
                    polys.append(p)
        except osmium.InvalidLocationError:
            continue
    return unary_union(polys) if polys else Polygon()


def building_points(pbf, per_building=1, margin_m=3.0):
    """A point inside each building polygon (its representative point), kept when at least `margin_m`
    from the building's edges."""
    out = []
    for o in osmium.FileProcessor(pbf).with_locations().with_areas():
        if not o.is_area() or o.tags.get("building", "no") == "no":
            continue
        try:
            for outer in o.outer_rings():
                p = Polygon([(n.lon, n.lat) for n in outer],
                            [[(n.lon, n.lat) for n in inner] for inner in o.inner_rings(outer)])
                if not p.is_valid:
                    continue
                q = p.representative_point()
                k = math.cos(math.radians(q.y))
                if metres(p.exterior.distance(q) * k, q.y) < margin_m:
                    continue
                if any(metres(Polygon(r).exterior.distance(q) * k, q.y) < margin_m for r in p.interiors):
                    continue
                out.append([round(q.y, 7), round(q.x, 7), ("way " if o.from_way() else "relation ") + str(o.orig_id())])
        except osmium.InvalidLocationError:
            continue
    return out


def metres(lon_lat_distance, lat):
    """A distance in degrees (taken on a meridian) in metres, for the margin."""
    return lon_lat_distance * 6371008.8 * math.pi / 180


def reference(pbf):
    bbox = coast_sea.header_box(pbf)
    sea = coast_sea.sea(coast_sea.coastline_runs(pbf), bbox)
    water = water_areas(pbf)
    frame = shapely_box(*bbox)
    shores = unary_union([sea.boundary, water.boundary, frame.exterior])
    west, south, east, north = bbox
    points = []
    for i in range(GRID):
        for j in range(GRID):
            lon = west + (i + 0.5) / GRID * (east - west)
            lat = south + (j + 0.5) / GRID * (north - south)
            p = Point(lon, lat)
            # Degrees to metres at most as long as a degree of longitude here: a lower bound.
            k = math.cos(math.radians(lat))
            if metres(shores.distance(p) * k, lat) < MARGIN_M:
                continue
            kind = "sea" if sea.contains(p) else "water" if water.contains(p) else "land"
            points.append([round(lat, 7), round(lon, 7), kind])
    return {"box": [west, south, east, north], "seaArea": sea.area, "points": points}


def main():
    files = {}
    for name, lines in COASTS.items():
        path = write_coast(name, lines)
        # A broken coastline has no sea to compare with: its box only.
        files[name + ".osm.pbf"] = {"box": list(coast_sea.header_box(path)), "points": []} if name == "coast-broken" else reference(path)
    files["Helsinki.osm.pbf"] = reference(os.path.join(OUT, "Helsinki.osm.pbf"))
    files["Helsinki.osm.pbf"]["buildings"] = building_points(os.path.join(OUT, "Helsinki.osm.pbf"))
    with open(os.path.join(OUT, "sea.json"), "w") as f:
        json.dump({"generator": "pyosmium 4.3.2, shapely " + __import__("shapely").__version__, "files": files}, f,
                  sort_keys=True, separators=(",", ":"))
    for name, r in files.items():
        kinds = {}
        for p in r["points"]:
            kinds[p[2]] = kinds.get(p[2], 0) + 1
        print(name, kinds, len(r.get("buildings", [])), "building points")


if __name__ == "__main__":
    main()
