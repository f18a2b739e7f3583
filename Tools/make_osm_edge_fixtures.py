#!/usr/bin/env python3
"""OSM fixtures for cases other projects' suites found, written by osmium-tool (libosmium), not by termmap.

  undefined-locations.osm.pbf   libosmium's test/t/io/data-n0w1r3.osm case, converted with locations:
      `osmium add-locations-to-ways --ignore-missing-nodes` writes libosmium's "undefined" location for
      every node the file lacks. One street runs through a missing node (it must split there, 3 + 2
      points); a second way has no node in the file at all (it must vanish, as data-n0w1r3's way does).

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


def main():
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
