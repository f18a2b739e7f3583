#!/usr/bin/env python3
"""OSM fixtures for cases other projects' suites found, written by osmium-tool (libosmium), not by termmap.

  undefined-locations.osm.pbf   libosmium's test/t/io/data-n0w1r3.osm case, converted with locations:
      `osmium add-locations-to-ways --ignore-missing-nodes` writes libosmium's "undefined" location for
      every node the file lacks. One street runs through a missing node (it must split there, 3 + 2
      points); a second way has no node in the file at all (it must vanish, as data-n0w1r3's way does).

  multipolygon-roles.osm.pbf    multipolygons whose roles do not say what the rings are, after osmcode/
      osm-testdata's grid 902, 926 and 904: (a) one outer ring from two ways, one with role `inner`;
      (b) an outer and an inner ring, the inner way tagged like its relation (it is a hole, not a wood);
      (c) an outer and a hole, both with role `outer`, the hole listed first.

Run from the project's root (needs Debian's osmium-tool):  python3 Tools/make_osm_edge_fixtures.py
"""
import os
import subprocess
import tempfile

OUT = os.path.join("Tests", "MapDataTests", "Fixtures", "osm")

XML = """<?xml version='1.0' encoding='UTF-8'?>
<osm version="0.6" generator="termmap fixtures">
  <bounds minlat="60.1690" minlon="24.9390" maxlat="60.1760" maxlon="24.9460"/>
  <node id="1" version="1" lat="60.1700" lon="24.9400"/>
  <node id="2" version="1" lat="60.1700" lon="24.9410"/>
  <node id="3" version="1" lat="60.1700" lon="24.9420"/>
  <node id="5" version="1" lat="60.1700" lon="24.9440"/>
  <node id="6" version="1" lat="60.1700" lon="24.9450"/>
  <way id="10" version="1">
    <nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="5"/><nd ref="6"/>
    <tag k="highway" v="residential"/><tag k="name" v="Puuttuvankatu"/>
  </way>
  <way id="11" version="1">
    <nd ref="20"/><nd ref="21"/><nd ref="22"/>
    <tag k="highway" v="residential"/><tag k="name" v="Tyhjätie"/>
  </way>
</osm>
"""


def square(first_id, lon, lat, size):
    """Four nodes of a square (south-west first, clockwise) as OSM XML, and their ids."""
    corners = [(lon, lat), (lon, lat + size), (lon + size, lat + size), (lon + size, lat)]
    ids = list(range(first_id, first_id + 4))
    xml = "".join(f'  <node id="{i}" version="1" lat="{la:.4f}" lon="{lo:.4f}"/>\n'
                  for i, (lo, la) in zip(ids, corners))
    return xml, ids


def way(way_id, refs, tags=()):
    nds = "".join(f'<nd ref="{r}"/>' for r in refs)
    tg = "".join(f'<tag k="{k}" v="{v}"/>' for k, v in tags)
    return f'  <way id="{way_id}" version="1">{nds}{tg}</way>\n'


def relation(rel_id, members, tags):
    ms = "".join(f'<member type="way" ref="{r}" role="{role}"/>' for r, role in members)
    tg = "".join(f'<tag k="{k}" v="{v}"/>' for k, v in [("type", "multipolygon")] + list(tags))
    return f'  <relation id="{rel_id}" version="1">{ms}{tg}</relation>\n'


def multipolygon_roles_xml():
    nodes = ways = rels = ""
    # (a) 902: a ring from two ways, the second with role inner by mistake.
    xml, a = square(100, 24.940, 60.170, 0.002)
    nodes += xml
    ways += way(1000, [a[0], a[1], a[2]]) + way(1001, [a[2], a[3], a[0]])
    rels += relation(1900, [(1000, "outer"), (1001, "inner")], [("landuse", "forest"), ("name", "Roolimetsä")])
    # (b) 926: outer and inner closed ways, the inner one tagged natural=wood like the relation.
    xml, o = square(200, 24.950, 60.170, 0.004)
    nodes += xml
    xml, i = square(210, 24.951, 60.171, 0.002)
    nodes += xml
    ways += way(2000, o + [o[0]]) + way(2001, i + [i[0]], [("natural", "wood")])
    rels += relation(2900, [(2000, "outer"), (2001, "inner")], [("natural", "wood"), ("name", "Reikämetsä")])
    # (c) 904: a hole listed first, both rings with role outer.
    xml, o = square(300, 24.960, 60.170, 0.004)
    nodes += xml
    xml, i = square(310, 24.961, 60.171, 0.002)
    nodes += xml
    ways += way(3001, i + [i[0]]) + way(3000, o + [o[0]])
    rels += relation(3900, [(3001, "outer"), (3000, "outer")], [("natural", "wood"), ("name", "Ulkometsä")])
    return ("<?xml version='1.0' encoding='UTF-8'?>\n<osm version=\"0.6\" generator=\"termmap fixtures\">\n"
            + nodes + ways + rels + "</osm>\n")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        xml = os.path.join(tmp, "multipolygon-roles.osm")
        with open(xml, "w") as f:
            f.write(multipolygon_roles_xml())
        out = os.path.join(OUT, "multipolygon-roles.osm.pbf")
        subprocess.run(["osmium", "cat", "-F", "osm", xml, "-f", "pbf", "-o", out, "--overwrite"], check=True)
        print("wrote", out)

    with tempfile.TemporaryDirectory() as tmp:
        xml = os.path.join(tmp, "data-n0w1r3-like.osm")
        with open(xml, "w") as f:
            f.write(XML)
        out = os.path.join(OUT, "undefined-locations.osm.pbf")
        subprocess.run(
            ["osmium", "add-locations-to-ways", "--ignore-missing-nodes", "--keep-untagged-nodes",
             "-F", "osm", xml, "-f", "pbf", "-o", out, "--overwrite"],
            check=True)
        print("wrote", out)


if __name__ == "__main__":
    main()
