#!/usr/bin/env python3
"""Routes through the demo city as routers independent of termmap find them, for its routing tests.

The Helsinki extract (the bundled demo city is imported from it) is read with pyosmium (libosmium);
each profile's rules are issue 46's table, written here again from its text; segment lengths are
GeographicLib's geodesics (WGS84). networkx then finds, for 50 seeded pairs of junctions per
profile, the shortest path on foot (metres) and the fastest by bike and by car (seconds); the car's
graph is the line graph of its segments, so that turn restrictions (`no_*`, `only_*` via a node) are
obeyed. Where Debian's `routino` is installed, its shortest route on foot between the same points is
recorded too (its foot profile with every highway equally preferred, so that --shortest measures
length): a sanity check of the rules (a different router with its own tagging), not an oracle.

Writes Tests/MapDataTests/Fixtures/routes.json.

    python3 -m pip install --target .pyref osmium==4.3.2 networkx geographiclib
    PYTHONPATH=.pyref python3 Tools/make_route_fixtures.py
"""
import json
import os
import random
import re
import shutil
import subprocess
import tempfile

import networkx as nx
import osmium
from geographiclib.geodesic import Geodesic

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PBF = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "osm", "Helsinki.osm.pbf")
OUT = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "routes.json")
PAIRS = 50

WALK, CYCLE = 5.0, 16.0
CAR_SPEEDS = {"motorway": 100, "trunk": 80, "primary": 60, "secondary": 50, "tertiary": 40, "unclassified": 30,
              "residential": 30, "living_street": 10, "service": 15}
ROADS = {"primary", "secondary", "tertiary", "unclassified", "residential", "service", "living_street"}


def denied(v):
    return v in ("no", "private")


def oneway(tags):
    """(forward, backward) as `oneway` says; roundabouts and motorways are one way without it."""
    o = tags.get("oneway")
    if o in ("yes", "1", "true"):
        return True, False
    if o in ("-1", "reverse"):
        return False, True
    if o in ("no", "false", "0"):
        return True, True
    implied = tags.get("junction") == "roundabout" or tags.get("highway", "").startswith("motorway")
    return True, not implied


def maxspeed(v):
    if v is None:
        return None
    v = v.strip()
    try:
        if v.endswith("mph"):
            mph = float(v[:-3].strip())
            return mph * 1.609344 if mph > 0 else None
        kmh = float(v)
        return kmh if kmh > 0 else None
    except ValueError:
        return None


def use(profile, tags):
    """(forward, backward, km/h) of a profile on a way, or None."""
    hw = tags.get("highway")
    if hw is None:
        return None
    if hw.endswith("_link"):
        hw = hw[:-5]
    if profile == "foot":
        foot = tags.get("foot")
        allowed = foot in ("yes", "designated", "permissive")
        paths = {"footway", "path", "pedestrian", "steps", "track", "cycleway"}
        if not (hw in paths or hw in ROADS or (hw in ("motorway", "trunk") and allowed)):
            return None
        if foot == "no" or (denied(tags.get("access")) and not allowed):
            return None
        return True, True, WALK
    if profile == "bike":
        bicycle = tags.get("bicycle")
        allowed = bicycle in ("yes", "designated")
        ok = hw in ("cycleway", "track") or hw in ROADS
        if hw in ("path", "footway", "pedestrian", "steps"):
            ok = allowed or hw == "steps"
        if not ok or denied(bicycle) or (denied(tags.get("access")) and not allowed):
            return None
        spared = tags.get("oneway:bicycle") == "no" or tags.get("cycleway", "").startswith("opposite")
        f, b = (True, True) if spared else oneway(tags)
        return f, b, WALK if hw == "steps" else CYCLE
    if hw not in CAR_SPEEDS:
        return None
    if denied(tags.get("access")) or denied(tags.get("motor_vehicle")) or denied(tags.get("motorcar")):
        return None
    f, b = oneway(tags)
    return f, b, maxspeed(tags.get("maxspeed")) or CAR_SPEEDS[hw]


class Reader(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.ways = []  # (id, [(node id, lat, lon) or None], tags)
        self.restrictions = []

    def way(self, w):
        tags = {t.k: t.v for t in w.tags}
        if "highway" not in tags:
            return
        nodes = [(n.ref, round(n.location.lat, 7), round(n.location.lon, 7)) if n.location.valid() else None
                 for n in w.nodes]
        self.ways.append((w.id, nodes, tags))

    def relation(self, r):
        tags = {t.k: t.v for t in r.tags}
        if tags.get("type") != "restriction":
            return
        kind = tags.get("restriction") or tags.get("restriction:motorcar") or tags.get("restriction:motor_vehicle")
        if not kind or not (kind.startswith("no_") or kind.startswith("only_")):
            return
        if "motorcar" in tags.get("except", "").split(";"):
            return
        frm = [m.ref for m in r.members if m.role == "from" and m.type == "w"]
        via = [m for m in r.members if m.role == "via"]
        to = [m.ref for m in r.members if m.role == "to" and m.type == "w"]
        if len(frm) == 1 and len(to) == 1 and len(via) == 1 and via[0].type == "n":
            self.restrictions.append((frm[0], via[0].ref, to[0], kind.startswith("only_")))


def segments(reader, profile):
    """Directed segments (u, v, way, metres, seconds) the profile may take."""
    out = []
    for wid, nodes, tags in reader.ways:
        u = use(profile, tags)
        if u is None:
            continue
        fwd, bwd, kmh = u
        for a, b in zip(nodes, nodes[1:]):
            if a is None or b is None:
                continue
            m = Geodesic.WGS84.Inverse(a[1], a[2], b[1], b[2])["s12"]
            s = m / (kmh * 1000 / 3600)
            if fwd:
                out.append((a[0], b[0], wid, m, s))
            if bwd:
                out.append((b[0], a[0], wid, m, s))
    return out


def line_graph(segs, restrictions, weight, car):
    """Segments as nodes, joined where one ends and the next starts unless a restriction forbids it, or
    (for cars) it turns back where the street goes on; ("start", n) and ("end", n) stand for junction n."""
    g = nx.DiGraph()
    leaving = {}
    for s in segs:
        leaving.setdefault(s[0], []).append(s)
    rules = {}
    for frm, via, to, only in restrictions:
        rules.setdefault(via, []).append((frm, to, only))
    for s in segs:
        key = (s[0], s[1], s[2])
        g.add_edge(("start", s[0]), key, weight=s[weight])
        g.add_edge(key, ("end", s[1]), weight=0.0)
        for t in leaving.get(s[1], []):
            ok = True
            for frm, to, only in rules.get(s[1], []):
                if frm == s[2] and ((only and t[2] != to) or (not only and t[2] == to)):
                    ok = False
            if car and t[1] == s[0] and t[2] == s[2] and len(leaving.get(s[1], [])) > 1:
                ok = False
            if ok:
                g.add_edge(key, (t[0], t[1], t[2]), weight=t[weight])
    return g


def node_graph(segs, weight):
    g = nx.DiGraph()
    for s in segs:
        if not g.has_edge(s[0], s[1]) or g[s[0]][s[1]]["weight"] > s[weight]:
            g.add_edge(s[0], s[1], weight=s[weight])
    return g


def routino_lengths(pairs, coords):
    """Routino's shortest foot routes (metres) between the pairs, or None without routino."""
    if not shutil.which("planetsplitter") or not shutil.which("routino-router"):
        return None
    share = "/usr/share/routino"
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        # Debian's foot profile prefers quiet streets even for --shortest (a primary road counts double):
        # every highway equally preferred and every property neutral (50 %), so that it measures length.
        with open(f"{share}/profiles.xml") as f:
            xml = f.read()
        start = xml.index('<profile name="foot"')
        end = xml.index("</profile>", start)
        foot = re.sub(r'(<preference highway="(?!ferry)[a-z]+"\s+percent=)"\d+"', r'\1"100"', xml[start:end])
        foot = re.sub(r'(<property type="[a-z]+"\s+percent=)"\d+"', r'\1"50"', foot)
        profiles = os.path.join(tmp, "profiles.xml")
        with open(profiles, "w") as f:
            f.write(xml[:start] + foot + xml[end:])
        subprocess.run(["planetsplitter", f"--dir={tmp}", f"--tagging={share}/tagging.xml", PBF], check=True,
                       capture_output=True)
        for a, b in pairs:
            (la, oa), (lb, ob) = coords[a], coords[b]
            r = subprocess.run(["routino-router", f"--dir={tmp}", f"--profiles={profiles}",
                                f"--translations={share}/translations.xml", "--transport=foot", "--shortest",
                                "--quiet", "--output-stdout", "--output-text",
                                f"--lat1={la}", f"--lon1={oa}", f"--lat2={lb}", f"--lon2={ob}"],
                               capture_output=True, text=True)
            rows = [ln.split("\t") for ln in r.stdout.splitlines() if ln and not ln.startswith("#")]
            # The segments' column (metres to the kilometre's third decimal), not the rounded total.
            out.append(sum(float(row[2].split()[0]) for row in rows) * 1000 if r.returncode == 0 and rows else None)
    return out


def main():
    reader = Reader()
    reader.apply_file(PBF, locations=True)
    coords = {}
    for _, nodes, _ in reader.ways:
        for n in nodes:
            if n:
                coords[n[0]] = (n[1], n[2])
    rng = random.Random(46)
    doc = {"pbf": "Helsinki.osm.pbf", "profiles": {}}
    for profile in ("foot", "bike", "car"):
        segs = segments(reader, profile)
        weight = 3 if profile == "foot" else 4
        graph = node_graph(segs, weight)
        core = max(nx.strongly_connected_components(graph), key=len)
        # Junctions only: a point where two ways meet snaps there exactly, whatever the router.
        uses = {}
        for s in segs:
            uses.setdefault(s[0], set()).add(s[2])
        junctions = sorted(n for n in core if len(uses.get(n, ())) >= 2)
        car = profile == "car"
        lg = line_graph(segs, reader.restrictions if car else [], weight, car)
        routes = []
        while len(routes) < PAIRS:
            a, b = rng.sample(junctions, 2)
            if not nx.has_path(lg, ("start", a), ("end", b)):
                continue
            path = nx.dijkstra_path(lg, ("start", a), ("end", b), weight="weight")
            segs_on = path[1:-1]
            metres = sum(Geodesic.WGS84.Inverse(*coords[u], *coords[v])["s12"] for u, v, _ in segs_on)
            cost = nx.dijkstra_path_length(lg, ("start", a), ("end", b), weight="weight")
            routes.append({"from": coords[a], "to": coords[b], "meters": metres,
                           "seconds": cost if profile != "foot" else metres / (WALK / 3.6), "cost": cost,
                           "fromNode": a, "toNode": b})
        if profile == "foot":
            lengths = routino_lengths([(r["fromNode"], r["toNode"]) for r in routes], coords)
            for r, length in zip(routes, lengths or [None] * len(routes)):
                r["routino"] = length
        doc["profiles"][profile] = routes
    doc["restrictions"] = len(reader.restrictions)
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT}: {PAIRS} pairs per profile, {len(reader.restrictions)} restrictions")


if __name__ == "__main__":
    main()
