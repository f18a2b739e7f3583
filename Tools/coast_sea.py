"""The sea of an OSM extract from its coastline ways, by shapely, independently of termmap's importer.

OpenStreetMap's rule: a coastline way has the land on its left and the water on its right
(wiki.openstreetmap.org/wiki/Tag:natural=coastline). Here the located runs of every coastline way
(an extract lacks the nodes outside its box) are taken to the nearest side of the box, the box's
outline and the lines are polygonized (shapely.ops.polygonize), and each face is sea when it lies
on the right of the coastline along its edge, land when on the left. Closed rings inside the box
count the same way (an island is anticlockwise, so its inside is on its left).

    python3 -m pip install osmium==4.3.2 shapely==2.0.6
"""
import math

import osmium
from shapely.geometry import LineString, MultiPolygon, Point, box as shapely_box
from shapely.ops import polygonize, unary_union

from osm_lines import located_runs


def header_box(pbf):
    """The extract's box (west, south, east, north) as its header states it."""
    b = osmium.io.Reader(pbf).header().box()
    return (b.bottom_left.lon, b.bottom_left.lat, b.top_right.lon, b.top_right.lat)


def coastline_runs(pbf):
    """Each coastline way's runs of located nodes, in the way's direction, as (lon, lat) lists."""
    runs = []
    for w in osmium.FileProcessor(pbf, osmium.osm.WAY | osmium.osm.NODE).with_locations():
        if w.is_way() and w.tags.get("natural") == "coastline":
            runs += located_runs(w)
    return runs


def to_side(p, bbox):
    """The point of the box's side nearest to p (by metres on the sphere)."""
    west, south, east, north = bbox
    k = math.cos(math.radians(p[1]))
    choices = [
        ((north - p[1]), (p[0], north)),
        ((east - p[0]) * k, (east, p[1])),
        ((p[1] - south), (p[0], south)),
        ((p[0] - west) * k, (west, p[1])),
    ]
    return min(choices)[1]


def sea(runs, bbox):
    """The sea in the box: a shapely (Multi)Polygon, or an empty one when there is no coastline."""
    frame = shapely_box(*bbox)
    lines = []
    for run in runs:
        closed = run[0] == run[-1]
        pts = list(run) if closed else [to_side(run[0], bbox)] + list(run) + [to_side(run[-1], bbox)]
        lines.append(LineString(pts).intersection(frame) if not closed else LineString(pts))
    if not lines:
        return MultiPolygon()
    faces = list(polygonize(unary_union([frame.exterior] + lines)))
    sea_faces = []
    for face in faces:
        votes = 0
        for run in runs:
            closed = run[0] == run[-1]
            pts = list(run) if closed else [to_side(run[0], bbox)] + list(run) + [to_side(run[-1], bbox)]
            for a, b in zip(pts, pts[1:]):
                seg = LineString([a, b])
                if seg.length == 0 or not face.boundary.buffer(1e-9).contains(seg.interpolate(0.5, normalized=True)):
                    continue
                # A point a hair to the segment's right (x east, y north): inside the face means sea.
                dx, dy = b[0] - a[0], b[1] - a[1]
                n = math.hypot(dx, dy)
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                right = Point(mid[0] + dy / n * 1e-7, mid[1] - dx / n * 1e-7)
                votes += 1 if face.contains(right) else -1
        if votes > 0:
            sea_faces.append(face)
    return unary_union(sea_faces) if sea_faces else MultiPolygon()
