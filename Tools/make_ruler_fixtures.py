#!/usr/bin/env python3
"""The geodesic ruler's expected values from GeographicLib (PyPI `geographiclib`), an implementation
independent of the PROJ code termmap loads: 30 seeded rulers (open and closed), with legs across ±180°,
round a pole, of 1 m and of 10,000 km. Writes Tests/GeoCoreTests/Fixtures/ruler.json.

    PYTHONPATH=.pyref python3 Tools/make_ruler_fixtures.py
"""
import json
import os
import random

import geographiclib
from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84
OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "GeoCoreTests", "Fixtures", "ruler.json")


def case(vertices, closed):
    ends = vertices + [vertices[0]] if closed else vertices
    legs = []
    for (lat1, lon1), (lat2, lon2) in zip(ends, ends[1:]):
        g = G.Inverse(lat1, lon1, lat2, lon2)
        legs.append({"meters": g["s12"], "bearing": g["azi1"] % 360})
    out = {"vertices": [[lat, lon] for lat, lon in vertices], "closed": closed, "legs": legs,
           "totalMeters": sum(l["meters"] for l in legs)}
    if closed:
        p = G.Polygon()
        for lat, lon in vertices:
            p.AddPoint(lat, lon)
        _, perimeter, area = p.Compute(False, True)
        out["areaSquareMeters"] = abs(area)
        out["perimeterMeters"] = perimeter
    return out


def main():
    rnd = random.Random(30)
    cases = [
        case([(10.0, 179.9), (10.5, -179.8), (11.0, -179.5)], False),  # across the antimeridian
        case([(80.0, 0.0), (80.0, 120.0), (80.0, -120.0)], True),  # round the north pole
        case([(-75.0, 10.0), (-75.0, 130.0), (-75.0, -110.0)], True),  # and the south
        case([(60.0, 24.0), (60.000009, 24.0), (60.000009, 24.000018), (60.0, 24.000018)], True),  # a 1 m square
        case([(0.0, 0.0), (0.0, 89.8)], False),  # 10,000 km
        case([(-40.0, 170.0), (-41.0, -175.0), (-45.0, -178.0)], True),  # a triangle across ±180°
    ]
    while len(cases) < 30:
        n = rnd.randint(2, 5)
        lat, lon = rnd.uniform(-70, 70), rnd.uniform(-180, 180)
        scale = 10 ** rnd.uniform(-4, 1.5)
        vertices = [(lat, lon)]
        for _ in range(n - 1):
            lat = max(-85, min(85, lat + rnd.uniform(-scale, scale)))
            lon = (lon + rnd.uniform(-scale, scale) + 180) % 360 - 180
            vertices.append((lat, lon))
        cases.append(case(vertices, n >= 3 and rnd.random() < 0.5))
    with open(OUT, "w") as f:
        json.dump({"geographiclib": geographiclib.__version__, "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
