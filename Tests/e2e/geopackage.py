"""GeoPackages whose layers are recursive SQL views of one point: a file of about 100 KB that GDAL reads
as millions of rows, or endless ones. For the tests and the benchmark of ogr2ogr's limits."""
import sqlite3
import struct

SCHEMA = """
    PRAGMA application_id = 1196444487; PRAGMA user_version = 10200;
    CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
      organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
    INSERT INTO gpkg_spatial_ref_sys VALUES ('WGS 84', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]]', NULL);
    CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
      description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
      min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER);
    CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
      srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL, PRIMARY KEY (table_name, column_name));
    CREATE TABLE seed (fid INTEGER PRIMARY KEY, geom BLOB);
"""


def start(path):
    """A GeoPackage at `path` with its tables and a table `seed` of one point (24.94°E, 60.17°N); open."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    # A GeoPackage geometry: its header (magic, version, flags, SRS), then the WKB point.
    db.execute("INSERT INTO seed VALUES (1, ?)", (b"GP\x00\x01" + struct.pack("<i", 4326) + struct.pack("<BIdd", 1, 1, 24.94, 60.17),))
    return db


def add_view(db, name, rows=None, register=False):
    """A view `name` of the seed point `rows` times (None: endless); `register` lists it as a layer."""
    limit = f"LIMIT {rows}" if rows else ""
    db.execute(f"CREATE VIEW {name} AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r {limit}) "
               "SELECT r.i AS fid, seed.geom AS geom FROM r, seed")
    if register:
        db.execute("INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (?, 'features', ?, 4326)",
                   (name, name))
        db.execute("INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', 'POINT', 4326, 0, 0)", (name,))
