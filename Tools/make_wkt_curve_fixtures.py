#!/usr/bin/env python3
"""What GDAL makes of WKT curves in a CSV column (CIRCULARSTRING, COMPOUNDCURVE, CURVEPOLYGON,
MULTICURVE, MULTISURFACE): ogr2ogr (Debian gdal-bin) converts a CSV of seeded arcs to GeoJSON, linearising
them with its defaults. Writes Tests/MapDataTests/Fixtures/wkt-curves.json: each case's WKT and GDAL's
lines (rings of [lon, lat]).

    python3 Tools/make_wkt_curve_fixtures.py
"""
import csv
import json
import math
import os
import random
import subprocess
import tempfile

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "MapDataTests", "Fixtures", "wkt-curves.json")


def main():
    rnd = random.Random(2026)
    cases = [
        "CIRCULARSTRING(0 0,1 1,2 0)",
        "CIRCULARSTRING(0 0,1 -1,2 0)",
        "CIRCULARSTRING(0 0,1 1,2 0,3 -1,4 0)",
        "COMPOUNDCURVE((0 0,1 0),CIRCULARSTRING(1 0,2 1,3 0),(3 0,3 -2))",
        "CURVEPOLYGON(CIRCULARSTRING(0 0,2 0,0 0))",
        "CURVEPOLYGON(COMPOUNDCURVE(CIRCULARSTRING(0 0,1 1,2 0),(2 0,0 0)),(0.5 0.1,1.5 0.1,1 0.5,0.5 0.1))",
        "MULTICURVE((0 0,1 1),CIRCULARSTRING(2 0,3 1,4 0))",
        "MULTISURFACE(CURVEPOLYGON(CIRCULARSTRING(10 10,12 10,10 10)),((0 0,1 0,1 1,0 0)))",
    ]
    for _ in range(12):
        # A seeded arc of any turn (5° to 355°), either way, round a centre in Helsinki's degrees.
        cx, cy, r = rnd.uniform(24.8, 25.1), rnd.uniform(60.1, 60.3), rnd.uniform(0.001, 0.2)
        a0, sweep = rnd.uniform(-math.pi, math.pi), math.radians(rnd.uniform(5, 355)) * rnd.choice([1, -1])
        pts = [(cx + r * math.cos(a0 + sweep * t), cy + r * math.sin(a0 + sweep * t)) for t in (0, rnd.uniform(0.2, 0.8), 1)]
        cases.append("CIRCULARSTRING(" + ",".join(f"{x:.9f} {y:.9f}" for x, y in pts) + ")")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "curves.csv")
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["id", "WKT"])
            for i, c in enumerate(cases):
                w.writerow([i, c])
        out = subprocess.run(["ogr2ogr", "-f", "GeoJSON", "/vsistdout/", path, "-oo", "GEOM_POSSIBLE_NAMES=WKT",
                              "-oo", "KEEP_GEOM_COLUMNS=NO", "-lco", "COORDINATE_PRECISION=15"],
                             capture_output=True, text=True, check=True).stdout
        version = subprocess.run(["ogr2ogr", "--version"], capture_output=True, text=True).stdout.strip()
    features = json.loads(out)["features"]
    lines = []
    for f in features:
        g = f["geometry"]
        t, c = g["type"], g["coordinates"]
        if t == "LineString":
            lines.append([c])
        elif t in ("MultiLineString", "Polygon"):
            lines.append(c)
        elif t == "MultiPolygon":
            lines.append([r for p in c for r in p])
        else:
            raise SystemExit(f"unexpected {t}")
    with open(OUT, "w") as f:
        json.dump({"gdal": version, "cases": [{"wkt": w, "lines": l} for w, l in zip(cases, lines)]}, f, indent=0)
    print(f"{len(cases)} cases written to {os.path.normpath(OUT)} ({version})")


if __name__ == "__main__":
    main()
