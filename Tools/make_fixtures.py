#!/usr/bin/env python3
"""Write the reference fixtures GeoCore's tests compare against.

Every expected number comes from an independent implementation: pyproj (PROJ's EPSG:3857 and its
scale factors), GeographicLib (Karney's geodesics) and mercantile (tile maths). Where the issue defines
an algorithm (zoom buttons, circle fit), it is re-implemented here from its text on top of those
libraries, never from termmap's Swift code.

    python3 -m pip install --target .pyref pyproj geographiclib mercantile
    PYTHONPATH=.pyref python3 Tools/make_fixtures.py
"""
import json
import math
import os
import sys

import mercantile
from geographiclib.geodesic import Geodesic
from pyproj import Geod, Proj, Transformer

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "GeoCoreTests", "Fixtures", "geocore.json")

G = Geodesic.WGS84
TO_3857 = Transformer.from_crs("EPSG:4326", "EPSG:3857", always_xy=True)
TO_4326 = Transformer.from_crs("EPSG:3857", "EPSG:4326", always_xy=True)
MERC = Proj("EPSG:3857")
R = 6378137.0
WORLD_M = 2 * math.pi * R
MAX_LAT = math.degrees(math.atan(math.sinh(math.pi)))
DOTS_X, DOTS_Y = 2, 4


def unit_y(lat):
    """Unit-square y (0 at the north limit) from pyproj's northing."""
    lat = max(-MAX_LAT, min(MAX_LAT, lat))
    _, y = TO_3857.transform(0.0, lat)
    return 0.5 - y / WORLD_M


def lat_from_unit_y(uy):
    _, lat = TO_4326.transform(0.0, (0.5 - uy) * WORLD_M)
    return lat


def projection_cases():
    pts = [(0, 0), (33.777328, -84.397348), (37.8199, -122.4783), (60, 10.5), (-33.9249, 18.4241),
           (-55.98, -67.27), (21.0245, 105.8412), (-17.7134, 178.065), (85.05, 179.999), (-85.05, -180),
           (45, 90), (-45, -90), (1e-9, -1e-9), (70.0, -179.5), (-60.5, 179.75)]
    out = []
    for lat, lon in pts:
        x, y = TO_3857.transform(lon, lat)
        mx, my = mercantile.xy(lon, lat)
        tiles = {str(z): list(mercantile.tile(lon, lat, z))[:2] for z in (0, 1, 5, 10, 14, 20)}
        out.append({"lat": lat, "lon": lon, "x": x, "y": y, "mercantileX": mx, "mercantileY": my, "tiles": tiles})
    inverse = []
    for x, y in [(0, 0), (1e6, 2e6), (-2.0e7, 1.9e7), (1.5e7, -1.2e7), (-9395209.4, 3998891.3)]:
        lon, lat = TO_4326.transform(x, y)
        inverse.append({"x": x, "y": y, "lat": lat, "lon": lon})
    return out, inverse


def meters_per_dot_cases():
    out = []
    for lat in (0, 33.777328, 45, 60, 80, -70, 85.05):
        for z in (0, 1, 7.5, 14, 20, 28):
            k = MERC.get_factors(10.0, lat).parallel_scale  # sec φ on the sphere
            left, _, right, _ = mercantile.xy_bounds(mercantile.Tile(0, 0, 0))
            eq = (right - left) / 256 / 2 ** z
            out.append({"lat": lat, "zoom": z, "metersPerDot": eq / k})
    return out


def span_cases():
    out = []
    for lat, lon, z, cols, rows in [(0, 0, 0, 120, 40), (0, 0, 0, 100, 30), (33.777328, -84.397348, 14, 120, 40),
                                    (33.777328, -84.397348, 14, 100, 30), (60, 10, 5, 80, 24), (-17.7, 178.9, 6, 200, 60),
                                    (85, 0, 3, 100, 30), (-84, 120, 2, 100, 30), (45.5, -73.6, 10.25, 150, 50),
                                    (0, 179.99, 1, 400, 120), (51.5, -0.12, 28, 120, 40), (35, 139, 0, 300, 100)]:
        w, h = cols * DOTS_X, rows * DOTS_Y
        ws = 256 * 2 ** z
        cy = unit_y(lat)
        top = max(0.0, cy - h / 2 / ws)
        bottom = min(1.0, cy + h / 2 / ws)
        north = max(-MAX_LAT, min(MAX_LAT, lat_from_unit_y(top)))
        south = max(-MAX_LAT, min(MAX_LAT, lat_from_unit_y(bottom)))
        dlon = 360 * w / ws
        out.append({"lat": lat, "lon": lon, "zoom": z, "cols": cols, "rows": rows,
                    "north": north, "south": south, "west": lon - dlon / 2, "east": lon + dlon / 2,
                    "latitudeDelta": north - south, "longitudeDelta": dlon})
    return out


def geodesic_cases():
    pairs = [((33.777328, -84.397348), (33.78, -84.39)), ((0, 0), (0, 1)), ((0, 0), (1, 0)),
             ((40.64, -73.78), (1.36, 103.99)), ((0, 0), (0.5, 179.5)), ((0, 0), (-0.3, 179.7)),
             ((90, 0), (-90, 0)), ((89.9999, 0), (-89.9999, 180)), ((60, 10), (60, -170)),
             ((-33.9249, 18.4241), (-55.98, -67.27)), ((10, 20), (10, 20.0000001)), ((0, 0), (0, 180))]
    inverse = []
    for (a, b) in pairs:
        r = G.Inverse(a[0], a[1], b[0], b[1])
        inverse.append({"lat1": a[0], "lon1": a[1], "lat2": b[0], "lon2": b[1], "distance": r["s12"],
                        "azi1": r["azi1"], "azi2": r["azi2"]})
    direct = []
    for lat, lon, azi, s in [(40.64, -73.78, 45, 10e6), (0, 0, 90, 20003931.4586), (89.99, 0, 180, 19000e3),
                             (60, 10, 0, 1000e3), (60, 10, 180, 1000e3), (-17.7, 178.9, 90, 500e3),
                             (33.777328, -84.397348, 270, 500), (-89.5, 45, 0, 2e6), (0, 179.9, 90, 50e3)]:
        r = G.Direct(lat, lon, azi, s)
        direct.append({"lat1": lat, "lon1": lon, "azi1": azi, "distance": s, "lat2": r["lat2"], "lon2": r["lon2"]})
    return inverse, direct


def region_from_meters(lat, lat_m, lon_m):
    """MKCoordinateRegion(center:latitudinalMeters:longitudinalMeters:) with pyproj's ellipsoid."""
    geod = Geod(ellps="WGS84")
    a, es = geod.a, geod.es
    s = math.sin(math.radians(lat))
    w = 1 - es * s * s
    m = a * (1 - es) / w ** 1.5
    n = a / math.sqrt(w)
    return lat_m / (m * math.pi / 180), lon_m / (n * math.cos(math.radians(lat)) * math.pi / 180)


def region_cases():
    out = []
    for lat, lat_m, lon_m in [(0, 1000, 1000), (0, 2000, 2000), (33.777328, 5000, 8000), (60, 1e6, 1e6),
                              (-45, 250, 125), (80, 12345, 67890)]:
        dlat, dlon = region_from_meters(lat, lat_m, lon_m)
        # The same radius of curvature by a central difference of GeographicLib's meridian arc.
        h = 1e-3
        arc = G.Inverse(lat - h, 0, lat + h, 0)["s12"] / math.radians(2 * h)
        assert abs(lat_m / (arc * math.pi / 180) - dlat) < 1e-9 * max(1, dlat), (lat, arc)
        out.append({"lat": lat, "latitudinalMeters": lat_m, "longitudinalMeters": lon_m,
                    "latitudeDelta": dlat, "longitudeDelta": dlon})
    return out


def zoom_that_fits(lat, dlat, dlon, w, h):
    """Issue 2 §4, regionThatFits without snapping (unclamped)."""
    zx = math.log2(w * 360 / (256 * dlon)) if dlon > 0 else math.inf
    north = max(-MAX_LAT, min(MAX_LAT, lat + dlat / 2))
    south = max(-MAX_LAT, min(MAX_LAT, lat - dlat / 2))
    yc, yn, ys = unit_y(lat), unit_y(north), unit_y(south)
    hh = max(abs(yn - yc), abs(ys - yc))
    zy = math.log2(h / (2 * hh * 256)) if hh > 0 else math.inf
    return min(zx, zy)


def view_span(lat, z, w, h):
    ws = 256 * 2 ** z
    cy = unit_y(lat)
    north = max(-MAX_LAT, min(MAX_LAT, lat_from_unit_y(max(0.0, cy - h / 2 / ws))))
    south = max(-MAX_LAT, min(MAX_LAT, lat_from_unit_y(min(1.0, cy + h / 2 / ws))))
    return north - south, 360 * w / ws


def zoom_button_cases():
    """Issue 2 §7 (seed 004) step by step."""
    out = []
    views = [(33.777328, -84.397348, 14, 120, 40), (33.777328, -84.397348, 14, 100, 30), (0, 0, 0, 120, 40),
             (0, 0, 0, 100, 30), (0, 0, 1, 120, 40), (60, 10, 5, 80, 24), (-17.7, 178.9, 6, 200, 60),
             (37.7749, -122.4194, 12.5, 120, 40), (84, 0, 3, 100, 30), (0, 0, 27.5, 120, 40),
             (0, 0, 28, 120, 40), (45, 45, 2, 400, 120), (-60, -60, 9, 20, 6), (0, 0, 0, 128, 40),
             (0, 0, 0, 400, 100), (30, 0, 0, 400, 100), (0, 179.5, 0.3, 400, 100)]
    for lat, lon, z, cols, rows in views:
        w, h = cols * DOTS_X, rows * DOTS_Y
        dlat, dlon = view_span(lat, z, w, h)
        south = max(-90, lat - dlat / 2)
        north = min(90, lat + dlat / 2)
        lat_m = G.Inverse(south, lon, north, lon)["s12"]
        lon_m = G.Inverse(lat, lon - dlon / 2, lat, lon + dlon / 2)["s12"]
        for direction, factor, fallback in (("in", 0.4, math.log2(2.5)), ("out", 3.0, -math.log2(3))):
            nlat_m, nlon_m = lat_m * factor, lon_m * factor
            ndlat, ndlon = region_from_meters(lat, nlat_m, nlon_m)
            seed = zoom_that_fits(lat, ndlat, ndlon, w, h)
            right_way = seed > z if direction == "in" else seed < z
            ok = right_way and nlat_m > 0 and nlon_m > 0 and math.isfinite(seed)
            after = seed if ok else z + fallback
            after = max(0.0, min(28.0, after))
            out.append({"lat": lat, "lon": lon, "zoom": z, "cols": cols, "rows": rows, "direction": direction,
                        "latitudinalMetersBefore": lat_m, "longitudinalMetersBefore": lon_m,
                        "zoomAfter": after, "fallback": not ok})
    return out


def circle_cases():
    out = []
    for lat, lon, radius in [(37.7749, -122.4194, 500), (60, 10, 1e6), (-17.7, 178.9, 800e3), (0, 0.5, 300e3),
                             (85, 30, 1500e3), (-80, -100, 2e6), (33.777328, -84.397348, 5000),
                             (0, 0, 19_000e3), (89, 0, 20_000e3)]:
        ring = []
        prev = lon
        for b in range(360):
            r = G.Direct(lat, lon, b, radius)
            k = (r["lon2"] - prev) / 360
            lon2 = r["lon2"] - 360 * math.copysign(math.floor(abs(k) + 0.5), k)  # ties away from zero
            prev = lon2
            ring.append([r["lat2"], lon2])
        north = G.Inverse(lat, lon, 90, 0)["s12"] <= radius
        south = G.Inverse(lat, lon, -90, 0)["s12"] <= radius
        fits = {}
        for cols, rows in ((120, 40), (40, 60), (100, 30)):
            w, h = cols * DOTS_X, rows * DOTS_Y
            ratio = 300 / 360
            cx = (lon + 180) / 360
            cy = unit_y(lat)
            if north or south:
                # Issue 2 §9 with the pole rule: frame from the Mercator limit to the ring's far edge.
                far = max(unit_y(p[0]) for p in ring) if north else min(unit_y(p[0]) for p in ring)
                dx, dy = 0.5, abs(far - (0.0 if north else 1.0)) / 2
            else:
                dx = max(abs((p[1] + 180) / 360 - cx) for p in ring)
                dy = max(abs(unit_y(p[0]) - cy) for p in ring)
            zx = math.log2(ratio * w / 2 / (dx * 256))
            zy = math.log2(ratio * h / 2 / (dy * 256))
            fits[f"{cols}x{rows}"] = max(0.0, min(28.0, min(zx, zy)))
        out.append({"lat": lat, "lon": lon, "radius": radius, "ring": ring, "containsNorthPole": north,
                    "containsSouthPole": south, "fitZoom": fits})
    return out


def seed_screen_circle():
    """Seed 002 A's screen-space hole, 1000 km at 60°N: distances of its top and bottom points."""
    lat, lon, radius, z = 60.0, 10.0, 1e6, 4.0
    ws = 256 * 2 ** z
    mpd = WORLD_M / ws * math.cos(math.radians(lat))
    r_units = radius / mpd / ws
    cy = unit_y(lat)
    top = lat_from_unit_y(cy - r_units)
    bottom = lat_from_unit_y(cy + r_units)
    return {"lat": lat, "lon": lon, "radius": radius, "zoom": z,
            "northDistance": G.Inverse(lat, lon, top, lon)["s12"],
            "southDistance": G.Inverse(lat, lon, bottom, lon)["s12"]}


def main():
    proj, inv = projection_cases()
    ginv, gdir = geodesic_cases()
    data = {
        "generator": "Tools/make_fixtures.py",
        "libraries": {"pyproj": __import__("pyproj").__version__, "proj": __import__("pyproj").proj_version_str,
                      "geographiclib": __import__("geographiclib").__version__,
                      "mercantile": mercantile.__version__},
        "maxLatitude": MAX_LAT,
        "projection": proj,
        "inverseProjection": inv,
        "metersPerDot": meters_per_dot_cases(),
        "spans": span_cases(),
        "geodesicInverse": ginv,
        "geodesicDirect": gdir,
        "regionFromMeters": region_cases(),
        "zoomButton": zoom_button_cases(),
        "circles": circle_cases(),
        "seedScreenCircle": seed_screen_circle(),
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
