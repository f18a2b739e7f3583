#!/usr/bin/env python3
"""Write the user-data fixtures and what an independent reader says of them.

The files are generated here (GeoJSON in its three framings, CSV/TSV with RFC 4180 quoting, WKT,
bad input). The expectations come from Python's json and csv modules (counts, properties, bounds) and
from mercantile's Web Mercator (the cells a feature's points and segments fall in, for views at several
zooms and across the antimeridian), gpxpy for GPX and ElementTree for KML, never from termmap's Swift code. The real files of
../shared/overlay-samples are described too (counts by json/csv, cells by mercantile); the tests read
those files from there when it exists.

    python3 -m pip install --target .pyref mercantile gpxpy
    PYTHONPATH=.pyref python3 Tools/make_user_data_fixtures.py
"""
import csv
import io
import json
import math
import os
import random

import xml.etree.ElementTree as ET

import gpxpy
import gpxpy.gpx
import mercantile

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "Tests", "ViewerTests", "Fixtures", "userdata")
SAMPLES = os.path.normpath(os.path.join(ROOT, "..", "shared", "overlay-samples"))
R = 6378137.0
HALF = math.pi * R


def unit(lon, lat):
    """mercantile's EPSG:3857 metres, as the unit square (x right from -180, y down from the north limit)."""
    limit = math.degrees(math.atan(math.sinh(math.pi)))  # the Mercator limit: the poles clamp to it
    mx, my = mercantile.xy(lon, max(-limit, min(limit, lat)))
    return (mx + HALF) / (2 * HALF), (HALF - my) / (2 * HALF)


def dump(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def prop_text(v):
    """How a property reads back: a string as it is, null as none, anything else as compact JSON."""
    if v is None:
        return None
    if isinstance(v, str):
        return v
    return dump(v)


# MARK: the views and their cells

def cells(geoms, view):
    """The cells (col, row) of a view that the geometries' points and segments (straight in Mercator)
    pass through: view = (lat, lon, zoom, cols, rows)."""
    lat, lon, zoom, cols, rows = view
    cx, cy = unit(lon, lat)
    ws = 256 * 2 ** zoom
    w, h = cols * 2, rows * 4
    out = set()

    def put(x, y):
        for k in (-1, 0, 1):
            dx = (x + k - cx) * ws + w / 2
            dy = (y - cy) * ws + h / 2
            if 0 <= dx < w and 0 <= dy < h:
                out.add((int(dx // 2), int(dy // 4)))

    for kind, parts in geoms:
        for part in parts:
            pts = [unit(*p[:2]) for p in part]
            if kind == "point":
                put(*pts[0])
                continue
            for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
                length = max(abs(x1 - x0), abs(y1 - y0)) * ws
                n = max(1, int(length * 4))
                for i in range(n + 1):
                    t = i / n
                    put(x0 + t * (x1 - x0), y0 + t * (y1 - y0))
    return sorted(out)


def geojson_geoms(g):
    """(kind, [list of positions]) pieces of a GeoJSON geometry, as json reads it."""
    if g is None:
        return []
    t, c = g["type"], g.get("coordinates")
    if t == "Point":
        return [("point", [[c]])]
    if t == "MultiPoint":
        return [("point", [[p]]) for p in c]
    if t == "LineString":
        return [("line", [c])]
    if t == "MultiLineString":
        return [("line", [l]) for l in c]
    if t == "Polygon":
        return [("line", c)]
    if t == "MultiPolygon":
        return [("line", p) for p in c]
    if t == "GeometryCollection":
        return [x for m in g["geometries"] for x in geojson_geoms(m)]
    return []


def types_of(g):
    if g is None:
        return set()
    t = g["type"]
    if t == "GeometryCollection":
        return set().union(*[types_of(m) for m in g["geometries"]]) if g["geometries"] else set()
    return {t.replace("Multi", "")}


def position_kept(p):
    """GDAL's and geojson-vt's rule: a longitude past ±180 (up to ±540) is drawn where it points; a
    latitude past ±90 (or a longitude past ±540, or no number) leaves the position out."""
    return all(isinstance(v, (int, float)) and math.isfinite(v) for v in p[:2]) and abs(p[1]) <= 90 and abs(p[0]) <= 540


def cleaned(g):
    """What a reader keeps of a geometry: ("bad", None) for a line or ring too short once positions are
    left out, (None, None) for one with nothing left (an empty member is no piece), else (geometry, None)."""
    if g is None:
        return None
    t = g["type"]
    if t == "GeometryCollection":
        if not g["geometries"]:
            return "bad"
        members = []
        for m in g["geometries"]:
            k = cleaned(m)
            if k == "bad":
                return "bad"
            if k is not None:
                members.append(k)
        return {"type": t, "geometries": members} if members else None
    c = g["coordinates"]
    if t == "Point":
        return g if position_kept(c) else None
    if t == "MultiPoint":
        pos = [p for p in c if position_kept(p)]
        return {"type": t, "coordinates": pos} if pos else None
    if t == "LineString":
        pos = [p for p in c if position_kept(p)]
        return None if not pos else "bad" if len(pos) < 2 else {"type": t, "coordinates": pos}
    if t == "MultiLineString":
        lines = [[p for p in l if position_kept(p)] for l in c]
        lines = [l for l in lines if l]
        return None if not lines else "bad" if any(len(l) < 2 for l in lines) else {"type": t, "coordinates": lines}
    polygons = [c] if t == "Polygon" else c
    kept = []
    for poly in polygons:
        rings = [[p for p in r if position_kept(p)] for r in poly]
        if not any(rings):
            continue
        if any(len(r) < 4 for r in rings):
            return "bad"
        kept.append(rings)
    if not kept:
        return None
    return {"type": t, "coordinates": kept[0] if t == "Polygon" else kept}


def valid(g):
    """A geometry a reader keeps: something left, and nothing too short."""
    k = cleaned(g)
    return k is not None and k != "bad"


def describe_features(features):
    """What a reader keeps of GeoJSON features: later ids replace earlier ones, bad ones are counted."""
    kept, skipped, by_id = [], 0, {}
    for f in features:
        if not valid(f.get("geometry")):
            skipped += 1
            continue
        f = dict(f, geometry=cleaned(f["geometry"]))
        fid = f.get("id")
        if fid is not None:
            key = ("s" if isinstance(fid, str) else "n") + str(fid)
            if key in by_id:
                kept[by_id[key]] = None
            by_id[key] = len(kept)
        kept.append(f)
    kept = [f for f in kept if f is not None]
    counts = {}
    for f in kept:
        for t in types_of(f["geometry"]):
            counts[t] = counts.get(t, 0) + 1
    lons = [p[0] for f in kept for _, parts in geojson_geoms(f["geometry"]) for part in parts for p in part]
    lats = [p[1] for f in kept for _, parts in geojson_geoms(f["geometry"]) for part in parts for p in part]
    props = []
    for f in kept:
        p = dict((k, prop_text(v)) for k, v in (f.get("properties") or {}).items())
        g = f["geometry"]
        if g["type"] == "Point" and len(g["coordinates"]) > 2 and "altitude" not in p:
            p["altitude"] = dump(float(g["coordinates"][2]))
        props.append(p)
    names = []
    for f in kept:
        pr = f.get("properties") or {}
        # The label: `name`, else GDAL's `Name` or `NAME`, else `title`.
        n = next((pr[k] for k in ("name", "Name", "NAME", "title") if isinstance(pr.get(k), str)), None)
        names.append(n)
    return {
        "count": len(kept), "skipped": skipped, "counts": counts,
        "bounds": [min(lons), min(lats), max(lons), max(lats)] if lons else None,
        "names": names, "properties": props,
        "geoms": [g for f in kept for g in geojson_geoms(f["geometry"])],
    }


# MARK: generated files

def shapes():
    rnd = random.Random(7)
    fs = [
        {"type": "Feature", "id": "a", "properties": {"name": "Point with altitude", "n": 1, "x": 2.5, "ok": True,
                                                       "nothing": None, "list": [1, "two"], "obj": {"k": "v"}},
         "geometry": {"type": "Point", "coordinates": [24.9384, 60.1699, 12.5]}},
        {"type": "Feature", "properties": {"title": "Many points"},
         "geometry": {"type": "MultiPoint", "coordinates": [[-0.1276, 51.5072], [2.3522, 48.8566], [13.405, 52.52]]}},
        {"type": "Feature", "properties": {"name": "Tab\tand \"quotes\" and é 漢 😀", "stroke": "#ff0000"},
         "geometry": {"type": "LineString", "coordinates": [[-74.006, 40.7128], [-87.6298, 41.8781], [-118.2437, 34.0522]]}},
        {"type": "Feature", "properties": {"name": "Two lines"},
         "geometry": {"type": "MultiLineString", "coordinates": [[[10, 10], [20, 20]], [[30, 10], [40, 20], [50, 10]]]}},
        {"type": "Feature", "id": 7, "properties": {"name": "Square with a hole"},
         "geometry": {"type": "Polygon", "coordinates": [
             [[100, 0], [110, 0], [110, 10], [100, 10], [100, 0]],
             [[102, 2], [102, 8], [108, 8], [108, 2], [102, 2]]]}},
        {"type": "Feature", "properties": {"name": "Islands"},
         "geometry": {"type": "MultiPolygon", "coordinates": [
             [[[-60, -30], [-55, -30], [-55, -25], [-60, -30]]],
             [[[-50, -30], [-45, -30], [-45, -25], [-50, -30]]]]}},
        {"type": "Feature", "properties": {"name": "Collection"},
         "geometry": {"type": "GeometryCollection", "geometries": [
             {"type": "Point", "coordinates": [139.6917, 35.6895]},
             {"type": "LineString", "coordinates": [[139.6917, 35.6895], [135.5023, 34.6937]]}]}},
        # Bad features: counted, left out.
        {"type": "Feature", "properties": {"name": "No geometry"}, "geometry": None},
        {"type": "Feature", "properties": {"name": "Too far north"}, "geometry": {"type": "Point", "coordinates": [10, 95]}},
        {"type": "Feature", "properties": {"name": "Ring of two"},
         "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1]]]}},
        # Replaces the feature of id "a".
        {"type": "Feature", "id": "a", "properties": {"name": "Point a, moved"},
         "geometry": {"type": "Point", "coordinates": [25.0, 60.2]}},
        # Across the antimeridian (drawn as given: the long way in longitude, as RFC 7946 §3.1.9 asks
        # writers to cut such lines).
        {"type": "Feature", "properties": {"name": "Fiji"},
         "geometry": {"type": "LineString", "coordinates": [[177.0, -17.0], [179.9, -16.5]]}},
        {"type": "Feature", "properties": {"name": "Samoa side"},
         "geometry": {"type": "LineString", "coordinates": [[-179.9, -16.5], [-172.0, -13.8]]}},
    ]
    # Random walks for recall and precision.
    for k in range(6):
        lon, lat = rnd.uniform(-170, 170), rnd.uniform(-60, 70)
        line = []
        for _ in range(40):
            line.append([round(lon, 6), round(lat, 6)])
            lon = max(-179.9, min(179.9, lon + rnd.uniform(-3, 3)))
            lat = max(-80, min(80, lat + rnd.uniform(-2, 2)))
        fs.append({"type": "Feature", "properties": {"walk": k}, "geometry": {"type": "LineString", "coordinates": line}})
    return fs


def write_geojson_variants(fs):
    coll = {"type": "FeatureCollection", "features": fs}
    with open(os.path.join(OUT, "shapes.geojson"), "w", encoding="utf-8") as f:
        json.dump(coll, f, ensure_ascii=False, indent=1)
    with open(os.path.join(OUT, "shapes.ndjson"), "w", encoding="utf-8") as f:
        for x in fs:
            f.write(dump(x) + "\n")
    with open(os.path.join(OUT, "shapes.geojsons"), "w", encoding="utf-8") as f:
        for x in fs:
            f.write("\x1e" + dump(x) + "\n")
    # A bare geometry and a bare Feature are documents of their own.
    with open(os.path.join(OUT, "bare-geometry.json"), "w") as f:
        json.dump({"type": "LineString", "coordinates": [[0, 0], [1, 1], [2, 0]]}, f)


def points():
    rnd = random.Random(11)
    rows = [["name", "Latitude", "LON", "note", "empty"]]
    for i in range(200):
        name = rnd.choice(["Plain", "With, comma", 'With "quotes"', "Line\nbreak", "Ünïcödé"]) + f" {i}"
        rows.append([name, f"{rnd.uniform(-80, 80):.6f}", f"{rnd.uniform(-180, 180):.6f}", str(rnd.randint(0, 999)), ""])
    rows.append(["Bad row", "north", "east", "x", ""])
    return rows


def write_csv_variants(rows):
    for name, delim, ending in [("points.csv", ",", "\r\n"), ("points-semicolon.csv", ";", "\n"), ("points.tsv", "\t", "\n")]:
        buf = io.StringIO()
        csv.writer(buf, delimiter=delim, lineterminator=ending, quoting=csv.QUOTE_MINIMAL).writerows(rows)
        with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="") as f:
            f.write(buf.getvalue())
    # The same rows in Windows-1252 (as Excel writes CSV in Western Europe), a euro sign and a 1252-only
    # quote among the names: not UTF-8, read after detection.
    legacy = [r if i == 0 else [r[0].replace("Ünïcödé", "Mäkelä € “1252”")] + r[1:] for i, r in enumerate(rows)]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows(legacy)
    with open(os.path.join(OUT, "points-windows1252.csv"), "w", encoding="cp1252", newline="") as f:
        f.write(buf.getvalue())
    wkt = [["id", "WKT"], ["1", "POINT (30 10)"], ["2", "LINESTRING (30 10, 10 30, 40 40)"],
           ["3", "POLYGON ((30 10, 40 40, 20 40, 10 20, 30 10))"], ["4", "MULTIPOINT ((10 40), (40 30))"],
           ["5", "MULTILINESTRING Z ((10 10 1, 20 20 2), (40 40 3, 30 30 4))"],
           ["6", "MULTIPOLYGON (((30 20, 45 40, 10 40, 30 20)), ((15 5, 40 10, 10 20, 5 10, 15 5)))"],
           ["7", "GEOMETRYCOLLECTION (POINT (4 6), LINESTRING (4 6, 7 10))"], ["8", "POINT EMPTY"], ["9", "CIRCLE (1 2)"]]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(wkt)
    with open(os.path.join(OUT, "wkt.csv"), "w") as f:
        f.write(buf.getvalue())


def describe_csv(text, delim):
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delim))
    header = rows[0]
    lower = [h.strip().lower() for h in header]
    lat = next(i for i, h in enumerate(lower) if h in ("lat", "latitude", "y"))
    lon = next(i for i, h in enumerate(lower) if h in ("lon", "lng", "long", "longitude", "x"))
    kept, skipped = [], 0
    for r in rows[1:]:
        if r == [] or r == [""]:
            continue
        try:
            la, lo = float(r[lat].strip()), float(r[lon].strip())
        except (ValueError, IndexError):
            skipped += 1
            continue
        if not (abs(la) <= 90 and abs(lo) <= 540):
            skipped += 1
            continue
        kept.append((lo, la, r))
    others = [i for i in range(len(header)) if i not in (lat, lon)]
    name = lower.index("name") if "name" in lower else None
    return {
        "count": len(kept), "skipped": skipped, "counts": {"Point": len(kept)} if kept else {},
        "bounds": [min(k[0] for k in kept), min(k[1] for k in kept), max(k[0] for k in kept), max(k[1] for k in kept)],
        "names": [(k[2][name] or None) if name is not None else None for k in kept],
        "properties": [{header[i].strip(): (k[2][i] if i < len(k[2]) else None) for i in others} for k in kept],
        "geoms": [("point", [[[k[0], k[1]]]]) for k in kept],
    }


def write_gpx():
    """A GPX 1.1 file made by gpxpy: waypoints, a track of two segments (one of a single point), an empty
    track, a route."""
    rnd = random.Random(5)
    g = gpxpy.gpx.GPX()
    for i in range(5):
        g.waypoints.append(gpxpy.gpx.GPXWaypoint(rnd.uniform(45, 46), rnd.uniform(13, 15), elevation=100 + i, name=f"Waypoint {i}"))
    t = gpxpy.gpx.GPXTrack(name="Walk & talk")
    for n in (30, 1):
        seg = gpxpy.gpx.GPXTrackSegment()
        lat, lon = 45.5, 14.0
        for _ in range(n):
            seg.points.append(gpxpy.gpx.GPXTrackPoint(lat, lon, elevation=rnd.uniform(0, 500)))
            lat += rnd.uniform(-0.01, 0.01)
            lon += rnd.uniform(-0.01, 0.01)
        t.segments.append(seg)
    g.tracks.append(t)
    g.tracks.append(gpxpy.gpx.GPXTrack(name="Empty"))
    r = gpxpy.gpx.GPXRoute(name="Route")
    for i in range(10):
        # Every third a named stop (with an elevation and a description, read as a point of its own).
        stop = i % 3 == 0
        r.points.append(gpxpy.gpx.GPXRoutePoint(44.0 + i * 0.1, 15.0 + i * 0.05, elevation=10.0 * i if stop else None,
                                                name=f"Stop {i}" if stop else None,
                                                description=f"stop {i} of the route" if stop else None))
    g.routes.append(r)
    with open(os.path.join(OUT, "walk.gpx"), "w", encoding="utf-8") as f:
        f.write(g.to_xml(version="1.1"))


def describe_gpx(text):
    """Waypoints, then routes, then tracks (the order GPX 1.1's schema gives them), as gpxpy reads
    them; the first time is not compared (gpxpy makes it a datetime)."""
    g = gpxpy.parse(text)
    kept, skipped = [], 0

    def fmt(v):
        return None if v is None else str(float(v))

    def texts(x, kind):
        p = {k: getattr(x, a) for k, a in (("name", "name"), ("desc", "description"), ("cmt", "comment"), ("type", "type"), ("sym", "symbol"))
             if getattr(x, a, None) is not None}
        p["gpx"] = kind
        return p
    for w in g.waypoints:
        p = texts(w, "wpt")
        if w.elevation is not None:
            p["ele"] = fmt(w.elevation)
        kept.append((w.name, [("point", [[[w.longitude, w.latitude]]])], p))
    for r in g.routes:
        if r.points:
            p = texts(r, "rte")
            eles = [q.elevation for q in r.points if q.elevation is not None]
            if eles:
                p["ele_min"], p["ele_max"] = fmt(min(eles)), fmt(max(eles))
            kept.append((r.name, [("line", [[[q.longitude, q.latitude] for q in r.points]])], p))
            # Each named route point (a stop) follows its route as a point of its own.
            for q in r.points:
                if q.name:
                    s = texts(q, "rtept")
                    if q.elevation is not None:
                        s["ele"] = fmt(q.elevation)
                    kept.append((q.name, [("point", [[[q.longitude, q.latitude]]])], s))
        else:
            skipped += 1
    for t in g.tracks:
        parts = [("point" if len(s.points) == 1 else "line", [[[q.longitude, q.latitude] for q in s.points]])
                 for s in t.segments if s.points]
        if parts:
            p = texts(t, "trk")
            eles = [q.elevation for s in t.segments for q in s.points if q.elevation is not None]
            if eles:
                p["ele_min"], p["ele_max"] = fmt(min(eles)), fmt(max(eles))
            kept.append((t.name, parts, p))
        else:
            skipped += 1
    counts = {}
    for _, parts, _ in kept:
        for t in {"Point" if k == "point" else "LineString" for k, _ in parts}:
            counts[t] = counts.get(t, 0) + 1
    pts = [p for _, parts, _ in kept for _, ps in parts for part in ps for p in part]
    return {"count": len(kept), "skipped": skipped, "counts": counts,
            "bounds": [min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts)],
            "names": [n or None for n, _, _ in kept], "properties": [p for _, _, p in kept],
            # gpxpy reads no track type in GPX 1.0 (its schema has none), termmap reads what is there.
            "unchecked": ["time"] + (["type"] if g.version == "1.0" else []),
            "geoms": [g for _, parts, _ in kept for g in parts]}


KML = "{http://www.opengis.net/kml/2.2}"


def write_kml():
    """A KML 2.2 file made with ElementTree: a point, a line, a polygon with a hole, a MultiGeometry, and
    a Placemark without geometry."""
    ET.register_namespace("", KML[1:-1])
    root = ET.Element(KML + "kml")
    doc = ET.SubElement(root, KML + "Document")

    def placemark(name, build):
        p = ET.SubElement(doc, KML + "Placemark")
        ET.SubElement(p, KML + "name").text = name
        ET.SubElement(p, KML + "description").text = f"About {name} <b>bold</b>"
        if build:
            build(p)

    def coords(el, pts):
        ET.SubElement(el, KML + "coordinates").text = " ".join(f"{lo},{la},0" for lo, la in pts)

    def ring(parent, tag, pts):
        lr = ET.SubElement(ET.SubElement(parent, KML + tag), KML + "LinearRing")
        coords(lr, pts)

    placemark("A point", lambda p: coords(ET.SubElement(p, KML + "Point"), [(-122.08, 37.42)]))
    placemark("A line", lambda p: coords(ET.SubElement(p, KML + "LineString"), [(-112.26, 36.09), (-112.25, 36.08), (-112.27, 36.07)]))

    def polygon(p):
        poly = ET.SubElement(p, KML + "Polygon")
        ring(poly, "outerBoundaryIs", [(-77.05, 38.87), (-77.06, 38.87), (-77.06, 38.88), (-77.05, 38.88), (-77.05, 38.87)])
        ring(poly, "innerBoundaryIs", [(-77.052, 38.872), (-77.053, 38.872), (-77.053, 38.873), (-77.052, 38.872)])
    placemark("A polygon", polygon)

    def multi(p):
        m = ET.SubElement(p, KML + "MultiGeometry")
        coords(ET.SubElement(m, KML + "Point"), [(2.35, 48.85)])
        coords(ET.SubElement(m, KML + "LineString"), [(2.35, 48.85), (-0.13, 51.51)])
    placemark("Multi", multi)
    placemark("Nothing", None)
    ET.ElementTree(root).write(os.path.join(OUT, "places.kml"), encoding="UTF-8", xml_declaration=True)


def describe_kml(text):
    root = ET.fromstring(text.encode("utf-8"))
    kept, skipped = [], 0

    def pts(el):
        return [[float(v) for v in t.split(",")[:2]] for t in el.text.split()]
    # Placemarks, and GroundOverlays as the box their image covers (as togeojson and GDAL read them).
    for p in (e for e in root.iter() if e.tag in (KML + "Placemark", KML + "GroundOverlay")):
        parts = []
        box = p.find(KML + "LatLonBox")
        if box is not None:
            n, s, e, w = (float(box.find(KML + k).text) for k in ("north", "south", "east", "west"))
            parts.append(("polygon", [[[w, s], [e, s], [e, n], [w, n], [w, s]]]))
        for el in p.iter():
            if el.tag == KML + "Point":
                parts.append(("point", [pts(el.find(KML + "coordinates"))]))
            elif el.tag == KML + "LineString":
                parts.append(("line", [pts(el.find(KML + "coordinates"))]))
            elif el.tag == KML + "Polygon":
                parts.append(("polygon", [pts(c) for c in el.iter(KML + "coordinates")]))
        name = p.find(KML + "name")
        if parts:
            kept.append(((name.text or "").strip() if name is not None else None, parts,
                         {c.tag[len(KML):]: (c.text or "").strip() for c in p if c.tag in (KML + "name", KML + "description")}))
        else:
            skipped += 1
    counts = {}
    for _, parts, _ in kept:
        for t in {{"point": "Point", "line": "LineString", "polygon": "Polygon"}[k] for k, _ in parts}:
            counts[t] = counts.get(t, 0) + 1
    allp = [p for _, parts, _ in kept for _, ps in parts for part in ps for p in part]
    return {"count": len(kept), "skipped": skipped, "counts": counts,
            "bounds": [min(p[0] for p in allp), min(p[1] for p in allp), max(p[0] for p in allp), max(p[1] for p in allp)],
            "names": [n or None for n, _, _ in kept], "properties": [pr for _, _, pr in kept],
            "geoms": [("point" if k == "point" else "line", ps) for _, parts, _ in kept for k, ps in parts]}


VIEWS = [
    (0.0, 0.0, 0.0, 100, 28),
    (20.0, 0.0, 2.0, 160, 46),
    (-16.0, 180.0, 5.0, 120, 34),   # across the antimeridian
    (50.0, 10.0, 4.0, 80, 22),
]


def entry(file, desc, real=False):
    geoms = desc.pop("geoms")
    desc["file"] = file
    desc["real"] = real
    desc["views"] = [{"lat": v[0], "lon": v[1], "zoom": v[2], "cols": v[3], "rows": v[4], "cells": cells(geoms, v)} for v in VIEWS]
    return desc


def main():
    os.makedirs(OUT, exist_ok=True)
    fs = shapes()
    write_geojson_variants(fs)
    rows = points()
    write_csv_variants(rows)
    write_gpx()
    write_kml()
    described = describe_features(fs)
    out = []
    for name in ("shapes.geojson", "shapes.ndjson", "shapes.geojsons"):
        out.append(entry(name, json.loads(json.dumps(describe_features(fs)))))
    for name, delim in [("points.csv", ","), ("points-semicolon.csv", ";"), ("points.tsv", "\t")]:
        with open(os.path.join(OUT, name), encoding="utf-8", newline="") as f:
            out.append(entry(name, describe_csv(f.read(), delim)))
    with open(os.path.join(OUT, "points-windows1252.csv"), encoding="cp1252", newline="") as f:
        out.append(entry("points-windows1252.csv", describe_csv(f.read(), ",")))
    with open(os.path.join(OUT, "walk.gpx"), encoding="utf-8") as f:
        out.append(entry("walk.gpx", describe_gpx(f.read())))
    with open(os.path.join(OUT, "places.kml"), encoding="utf-8") as f:
        out.append(entry("places.kml", describe_kml(f.read())))
    # The real files, when they are here.
    if os.path.isdir(SAMPLES):
        for name in ("ne_110m_admin_0_countries.json", "ne_110m_rivers_lake_centerlines.json"):
            with open(os.path.join(SAMPLES, name), encoding="utf-8") as f:
                out.append(entry(name, describe_features(json.load(f)["features"]), real=True))
        with open(os.path.join(SAMPLES, "2011_february_us_airport_traffic.csv"), encoding="utf-8", newline="") as f:
            out.append(entry("2011_february_us_airport_traffic.csv", describe_csv(f.read(), ","), real=True))
        # Latin-1 (its first non-UTF-8 byte on line 228): read as Windows-1252, as termmap reads it.
        with open(os.path.join(SAMPLES, "volcano_db.csv"), encoding="cp1252", errors="replace", newline="") as f:
            out.append(entry("volcano_db.csv", describe_csv(f.read(), ","), real=True))
        for name in ("korita-zbevnica.gpx", "route.gpx", "run.gpx"):
            with open(os.path.join(SAMPLES, name), encoding="utf-8") as f:
                out.append(entry(name, describe_gpx(f.read()), real=True))
        with open(os.path.join(SAMPLES, "KML_Samples.kml"), encoding="utf-8") as f:
            out.append(entry("KML_Samples.kml", describe_kml(f.read()), real=True))
    assert described["count"] > 0
    with open(os.path.join(OUT, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(out)} descriptions to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
