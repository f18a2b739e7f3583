#!/usr/bin/env python3
"""Points of interest of the Helsinki extract for termmap's tests, read with pyosmium: named nodes and
closed ways tagged as OpenMapTiles' `poi` layer would take them (amenity restaurant, cafe, bar…; any
shop; tourism hotel, museum…; railway stations), with their position (a way's: the mean of its ring's
nodes) and name.

Writes Tests/MapDataTests/Fixtures/osm/pois.json.

    python3 -m pip install osmium==4.3.2
    python3 Tools/make_poi_fixtures.py
"""
import json
import os

import osmium

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PBF = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "osm", "Helsinki.osm.pbf")
AMENITY = {"restaurant", "fast_food", "food_court", "ice_cream", "cafe", "bar", "pub", "biergarten", "theatre",
           "cinema", "arts_centre", "library", "pharmacy", "bank", "post_office", "hospital", "clinic", "townhall",
           "police", "place_of_worship", "toilets"}
TOURISM = {"hotel", "hostel", "guest_house", "motel", "apartment", "museum", "gallery", "attraction", "viewpoint",
           "zoo", "theme_park"}


def is_poi(t):
    if t.get("amenity") in AMENITY:
        return True
    if "shop" in t and t["shop"] not in ("no", "vacant"):
        return True
    if t.get("tourism") in TOURISM:
        return True
    return t.get("railway") in ("station", "halt") or (t.get("public_transport") == "station" and "railway" in t)


def main():
    pois = []
    for o in osmium.FileProcessor(PBF).with_locations():
        t = dict(o.tags)
        if not t.get("name") or not is_poi(t):
            continue
        if o.is_node():
            pois.append({"lat": o.location.lat, "lon": o.location.lon, "name": t["name"], "osm": f"node {o.id}"})
        elif o.is_way() and len(o.nodes) >= 4 and o.nodes[0].ref == o.nodes[-1].ref:
            nodes = list(o.nodes)[:-1]
            pts = [(n.lat, n.lon) for n in nodes if n.location.valid()]
            if len(pts) == len(o.nodes) - 1:
                pois.append({"lat": sum(p[0] for p in pts) / len(pts), "lon": sum(p[1] for p in pts) / len(pts),
                             "name": t["name"], "osm": f"way {o.id}"})
    with open(os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "osm", "pois.json"), "w") as f:
        json.dump({"generator": "pyosmium 4.3.2", "pois": pois}, f, indent=0, sort_keys=True, ensure_ascii=False)
    print(len(pois), "named points of interest")


if __name__ == "__main__":
    main()
