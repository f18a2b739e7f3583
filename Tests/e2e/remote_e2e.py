#!/usr/bin/env python3
"""End-to-end tests of street level from a network: TileJSON sources, the shared disk cache, being
polite to servers, and area downloads. A real Debian nginx on 127.0.0.1 (its own configuration and
log, started and stopped here) serves a TileJSON document, a {z}/{x}/{y}.pbf tree made from the
fixture tiles and a .pmtiles; the real binary reads them.

    python3 Tests/e2e/remote_e2e.py .build/debug/termmap

Prints one line per check and a closing 'N passed, N failed' line.
"""
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import harness
from harness import Checks, Tmux
from nginx import Nginx

from pmtiles.reader import MmapSource, Reader, all_tiles

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "tiles")
MBTILES = os.path.join(FIXTURES, "helsinki-omt.mbtiles")
PMTILES = os.path.join(FIXTURES, "helsinki-omt.pmtiles")
tmux = Tmux("termmap-remote")
check = Checks(tmux)

# Each request: connection number, when it ended and how long it took (nginx's own clock), the
# request, its Range, status, conditional headers and User-Agent.
LOG = "$connection|$msec|$request_time|$request_method $uri|$http_range|$status|$http_if_none_match|$http_user_agent"
LOCATIONS = """
        location /fresh/ { expires 1h; }
        location /stale/ { expires 2s; etag on; }
        location /slow/ { limit_rate 24k; expires 1h; }
        location /slowall/ { limit_rate 200k; try_files /blob.pbf =404; }
        location /bulk/ { expires 1h; try_files /bulk.pbf =404; }
        location /busy/ { add_header Retry-After 2 always; return 429; }
        location = /status { stub_status; }
"""
VIEW = ["--center", "60.1690,24.9420", "--zoom", "15"]
SIZE = ["--size", "100x30"]


def tree(www, folder, tms=False):
    """The fixture MBTiles' tiles as www/folder/{z}/{x}/{y}.pbf (rows counted from the north unless tms)."""
    db = sqlite3.connect(MBTILES)
    count = 0
    for z, x, row, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
        y = row if tms else (1 << z) - 1 - row
        d = os.path.join(www, folder, str(z), str(x))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"{y}.pbf"), "wb") as f:
            f.write(data)
        count += 1
    return count


def tilejson(server, folder, **extra):
    doc = {"tilejson": "3.0.0", "tiles": [server.url(folder + "/{z}/{x}/{y}.pbf")], "minzoom": 0, "maxzoom": 14,
           "bounds": [24.9352, 60.1642, 24.9534, 60.1791], "attribution": "<a href=\"x\">&copy; Test Tiles</a>",
           "vector_layers": [{"id": n, "fields": {}} for n in ("transportation", "building", "water", "park", "poi")]}
    doc.update(extra)
    return json.dumps(doc)


def open_permissions(path):
    for d, _, files in os.walk(path):
        os.chmod(d, 0o755)
        for f in files:
            os.chmod(os.path.join(d, f), 0o644)


def run(*args, cache=None, timeout=60):
    env = dict(os.environ)
    if cache:
        env["XDG_CACHE_HOME"] = cache
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=timeout, env=env)


def render(*args, cache=None):
    r = run("render", *SIZE, *args, cache=cache)
    assert r.returncode == 0, r.stderr
    return r.stdout


def map_rows(screen):
    return screen.split("\n")[:28]


def local_screen(*view):
    return render("--tiles", MBTILES, *(view or VIEW), cache=tempfile.mkdtemp())


def drive(args, size, keys):
    """The viewer in tmux at `size` with `args` (no animation, a new cache, the server's log cleared);
    `keys(session)` drives it, then q."""
    server.clear_log()
    s = harness.Session(tmux, BINARY, args + " --no-animation", *size,
                        env=f"TERM=xterm-256color LANG=C.UTF-8 XDG_CACHE_HOME={tempfile.mkdtemp()}")
    keys(s)
    s.keys("q")
    s.close()


def log_entries(server):
    out = []
    for line in open(os.path.join(server.dir, "access.log")):
        f = line.rstrip("\n").split("|")
        if len(f) >= 8:
            end, took = float(f[1]), float(f[2])
            out.append({"conn": f[0], "start": end - took, "end": end, "req": f[3], "range": f[4], "status": f[5],
                        "inm": f[6], "ua": f[7]})
    return out


def most_at_once(entries):
    """The most requests in flight together (their [start, end] intervals overlapping). nginx logs
    milliseconds: times are compared at that precision, and a request that ends as another starts has
    left first (start = end − request_time can come out a hair early in floating point)."""
    events = sorted([(round(e["start"], 3), 1) for e in entries] + [(round(e["end"], 3), -1) for e in entries])
    now = best = 0
    for _, d in events:
        now += d
        best = max(best, now)
    return best


def pmtiles_tiles(path):
    with open(path, "rb") as f:
        r = Reader(MmapSource(f))
        return {k: v for k, v in all_tiles(r.get_bytes)}, r.header(), r.metadata()


server = Nginx(FIXTURES, ["helsinki-omt.pmtiles"], locations=LOCATIONS, log_format=LOG)
www = os.path.join(server.dir, "www")
for folder in ("fresh", "stale", "slow", "plain"):
    os.makedirs(os.path.join(www, folder), exist_ok=True)
    tree(www, folder + "/t")
    shutil.copy(PMTILES, os.path.join(www, folder, "h.pmtiles"))
tree(www, "fresh/tms", tms=True)
with open(os.path.join(www, "fresh", "doc.json"), "w") as f:
    f.write(tilejson(server, "fresh/t"))
with open(os.path.join(www, "fresh", "tms.json"), "w") as f:
    f.write(tilejson(server, "fresh/tms", scheme="tms"))
with open(os.path.join(www, "stale", "doc.json"), "w") as f:
    f.write(tilejson(server, "stale/t"))
with open(os.path.join(www, "slow", "doc.json"), "w") as f:
    # The whole world: tiles outside the fixture's area are asked for too (and answered 404).
    f.write(tilejson(server, "slow/t", bounds=[-180, -85, 180, 85]))
with open(os.path.join(www, "fresh", "huge.json"), "w") as f:
    f.write(tilejson(server, "fresh/t", padding="x" * (1 << 20)))
with open(os.path.join(www, "fresh", "ftp.json"), "w") as f:
    f.write(tilejson(server, "fresh/t", tiles=["ftp://example.org/{z}/{x}/{y}.pbf"]))
with open(os.path.join(www, "fresh", "none.json"), "w") as f:
    f.write(json.dumps({"tilejson": "3.0.0", "name": "no tiles"}))
# Any tile of /slowall/ is the same 400 KB (more than socket buffers take at once; not a vector tile:
# only its requests are looked at), sent at 200 KB/s.
with open(os.path.join(www, "blob.pbf"), "wb") as f:
    f.write(random.Random(1).randbytes(400_000))
with open(os.path.join(www, "slowall.json"), "w") as f:
    f.write(tilejson(server, "slowall", bounds=[-180, -85, 180, 85]))


def bulk_tile(size):
    """A vector tile of `size` bytes or so: a layer `junk` of one point whose one value is random text
    (protobuf by hand: Tile.layers 3, Layer.name 1, features 2, keys 3, values 4, extent 5, version 15)."""
    def varint(n):
        out = b""
        while True:
            out += bytes([(n & 0x7F) | (0x80 if n > 0x7F else 0)])
            n >>= 7
            if not n:
                return out

    def field(number, data):
        return varint(number << 3 | 2) + varint(len(data)) + data
    text = "".join(random.Random(2).choice("abcdefghijklmnopqrstuvwxyz") for _ in range(size)).encode()
    feature = b"\x12\x02\x00\x00" + b"\x18\x01" + b"\x22\x03\x09\x02\x02"  # tags [0,0], POINT, MoveTo(1,1)
    layer = (b"\x78\x02" + field(1, b"junk") + field(2, feature) + field(3, b"k") + field(4, field(1, text))
             + b"\x28" + varint(4096))
    return field(3, layer)


# Any tile of /bulk/ is the same valid vector tile of 400 KB, sent at once.
with open(os.path.join(www, "bulk.pbf"), "wb") as f:
    f.write(bulk_tile(400_000))
with open(os.path.join(www, "bulk.json"), "w") as f:
    f.write(tilejson(server, "bulk", bounds=[-180, -85, 180, 85]))
open_permissions(server.dir)

try:
    @check("a TileJSON URL (told by its first bytes) draws the map of its tiles, with its credit; tms rows flip")
    def _():
        local = map_rows(local_screen())
        for doc in ("fresh/doc.json", "fresh/tms.json"):
            screen = render("--tiles", server.url(doc), *VIEW, cache=tempfile.mkdtemp())
            assert map_rows(screen) == local, f"{doc}: map rows differ"
            assert "Test Tiles" in screen, screen.split("\n")[-2:]
        info = run("data", "info", server.url("fresh/doc.json")).stdout
        assert "TileJSON" in info and "OpenMapTiles" in info, info
        return "2 documents, 28 map rows equal the local file's; credit '© Test Tiles' on screen"

    @check("bad TileJSON documents: over 1 MB, a template not http(s), no tiles: one line, exit 1")
    def _():
        lines = []
        for doc, words in (("huge.json", "more than 1 MB"), ("ftp.json", "not an http or https URL"),
                           ("none.json", "without \"tiles\"")):
            r = run("render", "--tiles", server.url("fresh/" + doc), cache=tempfile.mkdtemp())
            assert r.returncode == 1 and r.stdout == "", (doc, r.returncode)
            assert r.stderr.count("\n") == 1 and words in r.stderr and doc in r.stderr, r.stderr
            lines.append(r.stderr.strip())
        return "; ".join(lines)

    @check("every request says User-Agent termmap/VERSION")
    def _():
        agents = {e["ua"] for e in log_entries(server)}
        version = run("--version").stdout.split()[-1]
        assert agents == {f"termmap/{version}"}, agents
        return agents.pop()

    @check("a second render of the same view makes no request (TileJSON and PMTiles, fresh in the cache)")
    def _():
        counts = []
        for url in (server.url("fresh/doc.json"), server.url("fresh/h.pmtiles")):
            cache = tempfile.mkdtemp()
            server.clear_log()
            first = render("--tiles", url, *VIEW, cache=cache)
            n = len(log_entries(server))
            server.clear_log()
            second = render("--tiles", url, *VIEW, cache=cache)
            assert log_entries(server) == [], log_entries(server)
            assert second == first
            counts.append(n)
            files = os.listdir(os.path.join(cache, "termmap"))
            assert any(f.endswith(".mbtiles") for f in files), files
        return f"first renders {counts[0]} and {counts[1]} requests, second renders 0"

    @check("with nginx stopped, the same map comes from the cache; a view with tiles not cached says offline: nothing cached here; a source never seen draws the rest, exit 0")
    def _():
        cache = tempfile.mkdtemp()
        url = server.url("fresh/doc.json")
        online = render("--tiles", url, *VIEW, cache=cache)
        pm_online = render("--tiles", server.url("fresh/h.pmtiles"), *VIEW, cache=cache)
        server.stop(keep=True)
        try:
            offline = render("--tiles", url, *VIEW, cache=cache)
            pm_offline = render("--tiles", server.url("fresh/h.pmtiles"), *VIEW, cache=cache)
            elsewhere = render("--tiles", url, "--center", "60.1700,24.9440", "--zoom", "13", cache=cache)
            unknown = run("render", "--tiles", server.url("fresh/other.json"), cache=cache)
        finally:
            server.start()
        assert map_rows(offline) == map_rows(online) and map_rows(pm_offline) == map_rows(pm_online)
        status = elsewhere.rstrip("\n").split("\n")[-2]
        assert "offline: nothing cached here" in status, status
        assert unknown.returncode == 0 and unknown.stderr.count("\n") == 1 and ": offline (" in unknown.stderr, \
            (unknown.returncode, unknown.stderr)
        return "28 map rows equal offline (TileJSON, PMTiles); status: " + re.sub(r"\s+", " ", status.strip())[:90]

    @check("offline is a state: a tile server that gives no answer opens the viewer (status offline: nothing cached here, render --json says offline, exit 0); once it answers, its tiles come without a restart")
    def _():
        url = server.url("fresh/doc.json")
        server.stop(keep=True)
        cache = tempfile.mkdtemp()
        try:
            r = run("render", "--json", "--tiles", url, *VIEW, cache=cache)
            listed = {x["name"]: x["status"] for x in json.loads(r.stdout)["sources"]}
            assert r.returncode == 0 and r.stderr.count("\n") == 1 and ": offline (" in r.stderr, (r.returncode, r.stderr)
            s = harness.Session(tmux, BINARY, f"--tiles {url} {' '.join(VIEW)} --no-animation", 100, 30,
                                env=f"TERM=xterm-256color LANG=C.UTF-8 XDG_CACHE_HOME={cache}")
            before = s.wait_for(lambda t: "offline: nothing cached here" in t, 10).splitlines()[-2]
        finally:
            server.start()
        server.clear_log()
        # The archive is asked again at most every 10 s, its tiles every 30 s: pans ask for new ones.
        end = time.time() + 60
        after = before
        while time.time() < end and "offline" in after:
            s.keys("l")
            s.keys("h")
            time.sleep(2)
            after = s.screen().splitlines()[-2]
        s.keys("q")
        s.close()
        asked = [e["req"] for e in log_entries(server) if e["req"].startswith("GET /fresh/")]
        assert "offline" in before and "offline" not in after and asked, (before, after, asked[:3])
        assert set(listed.values()) >= {"offline"}, listed
        return (f"render: {[k for k, v in listed.items() if v == 'offline']} offline, exit 0; viewer: "
                f"'{re.sub(r'  +', ' ', before.strip())[-60:]}' then tiles came ({len(asked)} requests) without a restart")

    @check("--tile-cache-disk 1 keeps the cache within 1 MB on disk however much comes (400 KB tiles), the view's last tiles kept")
    def _():
        cache = tempfile.mkdtemp()
        server.clear_log()
        url = server.url("bulk.json")
        folder = os.path.join(cache, "termmap")
        on_disk = 0
        # Each render's tiles, and the most the folder held after any of them.
        for view in (["--center", "60,25", "--zoom", "13"], ["--center", "48.85,2.35", "--zoom", "13"],
                     ["--center", "40,-100", "--zoom", "13"], ["--center", "-33.9,151.2", "--zoom", "13"],
                     ["--center", "35.7,139.7", "--zoom", "13.5"]):
            render("--tiles", url, "--tile-cache-disk", "1", *view, cache=cache)
            on_disk = max(on_disk, sum(os.path.getsize(os.path.join(folder, n)) for n in os.listdir(folder)))
        # ($uri is the file try_files gave.)
        came = sum(1 for e in log_entries(server) if e["req"] == "GET /bulk.pbf" and e["status"] == "200")
        server.clear_log()
        r = run("render", "--size", "20x6", "--tiles", url, "--tile-cache-disk", "1", "--center", "35.7,139.7", "--zoom", "13.5",
                cache=cache)
        assert r.returncode == 0, r.stderr
        again = sum(1 for e in log_entries(server) if e["req"] == "GET /bulk.pbf")
        assert came * 400_000 > 2 << 20 and on_disk <= 1 << 20, (came, on_disk)
        assert again == 0, again
        return (f"{came} tiles came ({came * 0.4:.1f} MB); at most {on_disk / 1e6:.2f} MB on disk after any render; the last "
                "view's centre drawn again from it")

    @check("after the expiry a stale tile is drawn and revalidated: 304 keeps it")
    def _():
        cache = tempfile.mkdtemp()
        url = server.url("stale/doc.json")
        first = render("--tiles", url, *VIEW, cache=cache)
        time.sleep(2.5)
        server.clear_log()
        second = render("--tiles", url, *VIEW, cache=cache)
        log = log_entries(server)
        revalidated = [e for e in log if e["status"] == "304"]
        assert revalidated and all(e["inm"] not in ("", "-") for e in revalidated), log
        assert not [e for e in log if e["status"] == "200" and e["req"].endswith(".pbf")], log
        assert second == first
        return f"{len(revalidated)} answered 304 (If-None-Match sent), none sent again whole; same screen"

    @check("never more than 4 requests in flight while panning in tmux (a slow server)")
    def _():
        def pan(s):
            for key in ["Left", "Up", "Right", "Right", "Down", "-", "Left", "+", "Up", "-", "-"] * 2:
                s.keys(key, pause=0.3)
            time.sleep(4)

        drive(f"--tiles {server.url('slow/doc.json')} --center 60.1690,24.9420 --zoom 14", (200, 60), pan)
        log = [e for e in log_entries(server) if e["req"].endswith(".pbf")]
        assert len(log) >= 5, log
        most = most_at_once(log)
        assert most <= 4, most
        # One render of a wide view asks for all its tiles together: 4 go at once, the rest wait.
        server.clear_log()
        run("render", "--size", "300x90", "--tiles", server.url("slowall.json"), "--center", "60.1690,24.9420",
            "--zoom", "13", cache=tempfile.mkdtemp())
        wide = [e for e in log_entries(server) if e["req"].endswith(".pbf")]
        assert len(wide) > 4 and most_at_once(wide) == 4, [(e["start"], e["end"], e["status"]) for e in wide]
        return (f"panning: {len(log)} tile requests over {len({e['conn'] for e in log})} connections, at most {most} at once; "
                f"a wide render: {len(wide)} requests over {len({e['conn'] for e in wide})} connections, 4 at once")

    @check("a server answering 429 with Retry-After: 2 gets no request for 2 s")
    def _():
        def pan(s):
            end = time.time() + 5
            while time.time() < end:
                s.keys("Left", pause=0.2)

        drive(f"--tiles '{server.url('busy/{z}/{x}/{y}.pbf')}' --center 60.1690,24.9420 --zoom 16", (100, 30), pan)
        times = sorted(e["end"] for e in log_entries(server) if e["status"] == "429")
        assert len(times) >= 2, times
        gaps = [b - a for a, b in zip(times, times[1:])]
        # A batch's requests end together; between batches the wait is the server's 2 s.
        waits = [g for g in gaps if g > 0.05]
        assert waits and min(waits) >= 1.95, gaps
        return f"{len(times)} requests answered 429; waits between asks {min(waits):.2f}–{max(waits):.2f} s"

    @check("50 renders started together on one cache all draw the right screen and leave it intact")
    def _():
        cache = tempfile.mkdtemp()
        expected = map_rows(local_screen())
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        procs = [subprocess.Popen([BINARY, "render", *SIZE, "--tiles", server.url("stale/doc.json"), *VIEW],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(50)]
        outs = [p.communicate(timeout=120) for p in procs]
        bad = [i for i, (p, (out, err)) in enumerate(zip(procs, outs)) if p.returncode != 0 or map_rows(out) != expected]
        assert not bad, (len(bad), outs[bad[0]][1][:300] if bad else "")
        files = [f for f in os.listdir(os.path.join(cache, "termmap")) if f.endswith(".mbtiles")]
        assert len(files) == 1, files
        db = sqlite3.connect(os.path.join(cache, "termmap", files[0]))
        ok = db.execute("PRAGMA integrity_check").fetchone()[0]
        tiles = db.execute("SELECT count(*) FROM tiles").fetchone()[0]
        assert ok == "ok" and tiles > 0, (ok, tiles)
        return f"50 screens right; integrity_check {ok}; {tiles} tiles cached"

    @check("renders killed with SIGKILL mid-write leave an intact cache")
    def _():
        cache = tempfile.mkdtemp()
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        rng = random.Random(28)
        killed = 0
        for round in range(6):
            procs = [subprocess.Popen([BINARY, "render", *SIZE, "--tiles", server.url("stale/doc.json"), "--center",
                                       f"60.{1680 + rng.randrange(20)},24.94{rng.randrange(10)}", "--zoom", str(rng.choice([14, 15, 16]))],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env) for _ in range(8)]
            time.sleep(rng.uniform(0.02, 0.3))
            for p in procs:
                if p.poll() is None:
                    p.send_signal(signal.SIGKILL)
                    killed += 1
            for p in procs:
                p.wait()
        files = [f for f in os.listdir(os.path.join(cache, "termmap")) if f.endswith(".mbtiles")]
        db = sqlite3.connect(os.path.join(cache, "termmap", files[0]))
        ok = db.execute("PRAGMA integrity_check").fetchone()[0]
        assert ok == "ok", ok
        after = render("--tiles", server.url("stale/doc.json"), *VIEW, cache=cache)
        assert map_rows(after) == map_rows(local_screen())
        return f"{killed} of 48 renders killed mid-run; integrity_check {ok}; the next render right"

    @check("a cache file SQLite calls not a database is set aside in one line and a new one started")
    def _():
        cache = tempfile.mkdtemp()
        url = server.url("fresh/doc.json")
        render("--tiles", url, *VIEW, cache=cache)
        folder = os.path.join(cache, "termmap")
        name = [f for f in os.listdir(folder) if f.endswith(".mbtiles")][0]
        for suffix in ("-wal", "-shm"):
            if os.path.exists(os.path.join(folder, name + suffix)):
                os.unlink(os.path.join(folder, name + suffix))
        with open(os.path.join(folder, name), "wb") as f:
            f.write(os.urandom(8192))
        r = run("render", *SIZE, "--tiles", url, *VIEW, cache=cache)
        assert r.returncode == 0 and map_rows(r.stdout) == map_rows(local_screen()), r.stderr
        assert r.stderr.count("\n") == 1 and "set aside" in r.stderr, r.stderr
        assert os.path.exists(os.path.join(folder, name + ".corrupt"))
        ok = sqlite3.connect(os.path.join(folder, name)).execute("PRAGMA integrity_check").fetchone()[0]
        assert ok == "ok"
        return r.stderr.strip()

    @check("data get from nginx equals the source tile for tile (read back by the pmtiles reader)")
    def _():
        data = tempfile.mkdtemp()
        bbox = "24.90,60.15,24.99,60.19"
        sources = {"pmtiles": server.url("fresh/h.pmtiles"), "tilejson": server.url("fresh/doc.json"),
                   "template": server.url("fresh/t/{z}/{x}/{y}.pbf")}
        want, _, _ = pmtiles_tiles(PMTILES)
        details = []
        for name, url in sources.items():
            r = run("data", "get", name, "--data", data, "--from", url, "--bbox", bbox)
            assert r.returncode == 0, r.stderr
            got, header, meta = pmtiles_tiles(os.path.join(data, name + ".pmtiles"))
            expected = want if name != "template" else {k: v for k, v in want.items()}
            assert got == expected, (name, len(got), len(expected))
            assert header["clustered"] and meta["bounds"] == "24.9,60.15,24.99,60.19", (header, meta)
            details.append(f"{name} {len(got)}")
        shown = render("--tiles", os.path.join(data, "tilejson.pmtiles"), *VIEW, cache=tempfile.mkdtemp())
        assert map_rows(shown) == map_rows(local_screen())
        listed = run("data", "list", "--data", data).stdout
        assert "tilejson" in listed, listed
        return "tiles equal: " + ", ".join(details) + "; render of the download equals the source's"

    @check("data get stopped by Ctrl-C keeps every tile that came (exit 130, one line), no file under its name; run again, it asks for none of them and completes")
    def _():
        data = tempfile.mkdtemp()
        args = ["data", "get", "cut", "--data", data, "--from", server.url("slow/doc.json"), "--bbox", "24.90,60.15,24.99,60.19"]
        server.clear_log()
        # Ctrl-C's signal as a terminal sends it: a test run in the background (a shell's `&`) starts its
        # children with SIGINT ignored, and a program keeps an ignored SIGINT ignored.
        p = subprocess.Popen([BINARY, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        part = os.path.join(data, "cut.pmtiles.part")
        end = time.time() + 30
        while time.time() < end and (not os.path.exists(part) or os.path.getsize(part) < 20000):
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        said = p.communicate(timeout=30)[1].strip().splitlines()
        assert p.returncode == 130 and said[-1].startswith("termmap: interrupted: ") \
            and said[-1].endswith("run again to resume"), (p.returncode, said[-3:])
        assert not os.path.exists(os.path.join(data, "cut.pmtiles")), os.listdir(data)
        kept = os.path.getsize(part)
        # Every tile the first run was sent whole (nginx logs a request when it is done).
        came = {e["req"] for e in log_entries(server) if e["req"].endswith(".pbf") and e["status"] == "200"}
        server.clear_log()
        r = run(*args, timeout=120)
        assert r.returncode == 0, r.stderr
        asked = [e["req"] for e in log_entries(server) if e["req"].endswith(".pbf")]
        again = came & set(asked)
        got, _, _ = pmtiles_tiles(os.path.join(data, "cut.pmtiles"))
        want, _, _ = pmtiles_tiles(PMTILES)
        assert got == want and not again and asked, (len(asked), len(came), sorted(again)[:4])
        assert not os.path.exists(part)
        return (f"interrupted after {len(came)} tiles came ({kept} bytes in the journal); the second run asked for "
                f"{len(asked)} of {len(want)}, none of those again")

    @check("data get of 87,381 distinct tiles writes leaf directories the pmtiles reader follows")
    def _():
        data = tempfile.mkdtemp()
        src = os.path.join(data, "many.mbtiles")
        db = sqlite3.connect(src)
        db.executescript("CREATE TABLE metadata(name, value); CREATE TABLE tiles(zoom_level, tile_column, tile_row, tile_data);"
                         "CREATE UNIQUE INDEX tile_index ON tiles(zoom_level, tile_column, tile_row);"
                         "INSERT INTO metadata VALUES('format','pbf'),('minzoom','0'),('maxzoom','8'),('name','many');")
        rng = random.Random(7)
        want = {}
        for z in range(9):
            for x in range(1 << z):
                for y in range(1 << z):
                    blob = bytes([0x1a]) + rng.randbytes(rng.randrange(4, 40))
                    want[(z, x, y)] = blob
                    db.execute("INSERT INTO tiles VALUES(?,?,?,?)", (z, x, (1 << z) - 1 - y, blob))
        db.commit()
        db.close()
        r = run("data", "get", "many", "--data", data, "--from", src, "--bbox", "-180,-85,180,85", "--zooms", "0-8", "--yes")
        assert r.returncode == 0, r.stderr
        got, header, _ = pmtiles_tiles(os.path.join(data, "many.pmtiles"))
        assert got == want, (len(got), len(want))
        assert header["leaf_directory_length"] > 0 and header["root_length"] <= 16384 - 127, header
        return f"{len(got)} tiles equal; root {header['root_length']} B, leaves {header['leaf_directory_length']} B"

    @check("data get --around a place of the gazetteer, and data sources lists the named sources")
    def _():
        data = tempfile.mkdtemp()
        r = run("data", "get", "centre", "--data", data, "--from", PMTILES, "--around", "Helsinki", "--within", "1km")
        assert r.returncode == 0, r.stderr
        got, _, meta = pmtiles_tiles(os.path.join(data, "centre.pmtiles"))
        west, south, east, north = map(float, meta["bounds"].split(","))
        # 1 km around Helsinki's gazetteer point (60.16952, 24.93545): 2 km tall, 2 km / cos(lat) wide.
        assert abs((north - south) * 111_320 - 2000) < 1 and 24.9 < (west + east) / 2 < 24.97, meta["bounds"]
        assert got and r.stderr.count("\n") == 2, r.stderr
        sources = run("data", "sources")
        assert sources.returncode == 0 and "openfreemap" in sources.stdout and "https://tiles.openfreemap.org/planet" in sources.stdout
        return f"{len(got)} tiles around Helsinki ({meta['bounds']}); " + sources.stdout.split("\n")[1].split()[0] + " listed"

    @check("bad areas give one line and exit 2")
    def _():
        lines = []
        for extra in (["--bbox", "10,10,0,0"], ["--around", "Nowhere-at-all-ville"], ["--bbox", "24.9,60.1,25,60.2", "--zooms", "15-3"]):
            r = run("data", "get", "x", "--data", tempfile.mkdtemp(), "--from", PMTILES, *extra)
            assert r.returncode == 2 and r.stderr.count("\n") == 1, (extra, r.returncode, r.stderr)
            lines.append(r.stderr.strip())
        big = run("data", "get", "x", "--data", tempfile.mkdtemp(), "--from", server.url("fresh/t/{z}/{x}/{y}.pbf"),
                  "--bbox", "-10,35,30,60", "--zooms", "0-14")
        assert big.returncode == 2 and "more than 50,000" in big.stderr and big.stderr.count("\n") == 1, big.stderr
        return "; ".join(lines + [big.stderr.strip()])

    @check("nginx listened on 127.0.0.1 only")
    def _():
        return server.listening()
finally:
    server.stop()

check.report("remote e2e")
