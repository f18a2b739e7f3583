#!/usr/bin/env python3
"""Road width references for termmap: points in the middle of straight stretches of the Helsinki
extract's primary roads, read with pyosmium, each with its bearing and its `width` and `lanes` tags (null where the
extract has none: docs/data.md says how wide a road is then), chosen where no other car road comes
within 25 m, so that a band drawn there is the road's own.

Writes Tests/MapDataTests/Fixtures/osm/roads.json.

    python3 -m pip install osmium==4.3.2 shapely==2.0.6
    python3 Tools/make_road_fixtures.py
"""
import json
import math
import os
import random
import sys

import osmium
from shapely.geometry import LineString, Point
from shapely.strtree import STRtree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from osm_lines import located_runs  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PBF = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "osm", "Helsinki.osm.pbf")
CAR = {"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street",
       "road", "service", "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link"}
LAT0 = 60.17


def local(lon, lat):
    """Metres east and north of 24.94°E, 60.17°N (equirectangular: fine over a few km)."""
    k = 6371008.8 * math.pi / 180
    return ((lon - 24.94) * k * math.cos(math.radians(LAT0)), (lat - LAT0) * k)


def main():
    roads = []  # (way id, class, width tag, lanes tag, [(lon, lat)])
    for w in osmium.FileProcessor(PBF, osmium.osm.WAY | osmium.osm.NODE).with_locations():
        if not w.is_way() or w.tags.get("highway") not in CAR:
            continue
        for run in located_runs(w):
            roads.append((w.id, w.tags["highway"], w.tags.get("width"), w.tags.get("lanes"), run))
    lines = [LineString([local(*p) for p in r[4]]) for r in roads]
    tree = STRtree(lines)
    candidates = []
    for i, (wid, cls, width, lanes, pts) in enumerate(roads):
        if cls != "primary":
            continue
        for a, b in zip(pts, pts[1:]):
            (ax, ay), (bx, by) = local(*a), local(*b)
            if math.hypot(bx - ax, by - ay) < 50:
                continue
            mid = Point((ax + bx) / 2, (ay + by) / 2)
            near = [j for j in tree.query(mid.buffer(25)) if j != i and lines[j].distance(mid) < 25]
            if near:
                continue
            bearing = math.degrees(math.atan2(bx - ax, by - ay)) % 360
            candidates.append({"way": wid, "class": cls, "width": width, "lanes": lanes, "lat": round((a[1] + b[1]) / 2, 7),
                               "lon": round((a[0] + b[0]) / 2, 7), "bearing": round(bearing, 2)})
    random.seed(27)
    picks = random.sample(candidates, min(3, len(candidates)))
    with open(os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "osm", "roads.json"), "w") as f:
        json.dump({"generator": "pyosmium 4.3.2, shapely", "roads": picks}, f, indent=1, sort_keys=True)
    print(len(candidates), "candidates;", picks)


if __name__ == "__main__":
    main()
