#!/usr/bin/env python3
"""End-to-end tests of remote vector tiles: a real HTTP server (Debian's nginx, its own configuration,
on 127.0.0.1, started and stopped here) serves the tile fixtures, and the real binary reads them with
HTTP range requests.

    python3 Tests/e2e/tiles_e2e.py .build/debug/termmap

Prints one line per check and a closing 'N passed, N failed' line.
"""
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

import harness
from harness import Checks, Tmux
from nginx import Nginx

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "tiles")
tmux = Tmux("termmap-tiles")
check = Checks(tmux)

# Renders keep no remote tiles on disk (what is checked here is the network's part); the viewer's cache
# is a temporary folder's.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="termmap-cache-")


def render(*args):
    r = subprocess.run([BINARY, "render", "--size", "100x30", "--tile-cache-disk", "0", *args], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


VIEWS = [["--center", "60.1690,24.9420", "--zoom", z] for z in ("12", "13.4", "14", "16", "17.5")]

server = Nginx(FIXTURES, ["helsinki-omt.pmtiles", "helsinki-protomaps.pmtiles"])
try:
    @check("render --tiles over HTTP gives exactly the screen of the local file (5 views, with and without colour)")
    def _():
        for view in VIEWS:
            for colour in ("never", "256"):
                local = render("--tiles", os.path.join(FIXTURES, "helsinki-omt.pmtiles"), *view, "--color", colour)
                remote = render("--tiles", server.url("helsinki-omt.pmtiles"), *view, "--color", colour)
                assert remote == local, f"{view} {colour}: screens differ"
                assert "│ helsinki-omt" in local or "| helsinki-omt" in local
        return f"{2 * len(VIEWS)} screens equal"

    @check("the server saw range requests only, neighbouring tiles coalesced, If-Match after the first")
    def _():
        server.clear_log()
        render("--tiles", server.url("helsinki-omt.pmtiles"), "--center", "60.1690,24.9420", "--zoom", "14")
        log = server.access_log()
        assert log, "no requests"
        assert all(entry[1].startswith("bytes=") and entry[2] == "206" for entry in log), log
        assert log[0][1] == "bytes=0-16383" and log[0][3] == "-", log[0]
        assert all(entry[3].startswith('\\x22') or entry[3].startswith('"') for entry in log[1:]), log
        # The view's two z14 tiles lie side by side in the clustered file: one request, after the header.
        assert len(log) == 2, log
        return f"{len(log)} requests: " + ", ".join(e[1] for e in log)

    @check("a file replaced on the server is noticed (412), read anew, and drawn from the new file")
    def _():
        server.replace("live.pmtiles", "helsinki-omt.pmtiles")
        server.clear_log()
        view = "--center 60.1690,24.9420 --zoom 14"
        s = harness.Session(tmux, BINARY, f"--tiles {server.url('live.pmtiles')} {view} --no-animation", 100, 30)
        s.wait_for(lambda t: "│ live" in t and "zoom 14.00" in t and "loading" not in t, 10)
        server.replace("live.pmtiles", "helsinki-protomaps.pmtiles")
        time.sleep(1.1)  # nginx's ETag is the time and size: a new second makes it differ for sure
        s.keys("z")  # zoom 13: tiles not read yet
        s.literal("13")
        s.keys("Enter")
        shown = s.wait_for(lambda t: "│ live" in t and "zoom 13.00" in t and "loading" not in t, 10)
        s.close()
        log = server.access_log()
        statuses = [e[2] for e in log]
        assert "412" in statuses, log
        after = statuses[statuses.index("412") + 1:]
        assert after and all(st == "206" for st in after), log
        # The screen is the new file's, as render draws it from a local copy (in colour, as the terminal
        # shows it: areas as backgrounds, not stipples).
        expected = render("--tiles", os.path.join(FIXTURES, "helsinki-protomaps.pmtiles"), "--center",
                          "60.1690,24.9420", "--zoom", "13", "--color", "256")
        expected = re.sub(r"\x1b\[[0-9;]*m", "", expected).rstrip("\n").split("\n")
        got = shown.rstrip("\n").split("\n")
        wrong = [i for i in range(28) if got[i].rstrip() != expected[i].rstrip()]
        assert not wrong, f"map rows differ: {wrong[:8]}"
        return f"{len(log)} requests, {statuses.count('412')} answered 412, then {len(after)} more; 28 map rows equal"

    @check("missing URLs fail at start (exit 1, one line naming the URL); an unreachable one is offline: the rest is drawn, exit 0, one line")
    def _():
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            closed = s.getsockname()[1]
        for url in (server.url("none.pmtiles"), server.url("x.mbtiles")):
            r = subprocess.run([BINARY, "render", "--tiles", url], capture_output=True, text=True, timeout=30)
            assert r.returncode == 1 and r.stdout == "", (url, r.returncode, r.stdout[:200])
            assert r.stderr.count("\n") == 1 and url in r.stderr, r.stderr
        unreachable = f"http://127.0.0.1:{closed}/x.pmtiles"
        r = subprocess.run([BINARY, "render", "--tiles", unreachable], capture_output=True, text=True, timeout=30)
        assert r.returncode == 0 and r.stdout and r.stderr.count("\n") == 1 and unreachable in r.stderr \
            and ": offline (" in r.stderr, (r.returncode, r.stderr)
        return "; ".join(subprocess.run([BINARY, "render", "--tiles", u], capture_output=True, text=True).stderr.strip()
                         for u in (server.url("none.pmtiles"), unreachable))

    @check("a truncated .pmtiles on the server is refused at start by its Content-Range size, in one line")
    def _():
        url = server.url("cut.pmtiles")
        for args in (["data", "info", url], ["render", "--tiles", url]):
            r = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=30)
            assert r.returncode == 1 and r.stdout == "", (args, r.returncode, r.stdout[:200])
            assert r.stderr.count("\n") == 1 and "truncated: the header's tile data ends at byte" in r.stderr, r.stderr
        return r.stderr.strip()

    @check("a server that never answers: offline after the 10 s limit, one line, the rest drawn (exit 0)")
    def _():
        with socket.socket() as silent:
            silent.bind(("127.0.0.1", 0))
            silent.listen(1)  # the kernel completes the connection; nothing ever answers
            url = f"http://127.0.0.1:{silent.getsockname()[1]}/x.pmtiles"
            t0 = time.time()
            r = subprocess.run([BINARY, "render", "--tiles", url], capture_output=True, text=True, timeout=60)
            elapsed = time.time() - t0
        assert r.returncode == 0 and "offline (no answer within 10 s)" in r.stderr and r.stderr.count("\n") == 1, r.stderr
        assert 9.5 <= elapsed <= 20, elapsed
        return f"{r.stderr.strip()} after {elapsed:.1f} s"

    @check("a {z}/{x}/{y}.pbf tile server gives the map of the same tiles read from the file")
    def _():
        db = sqlite3.connect(os.path.join(FIXTURES, "helsinki-omt.mbtiles"))
        count = 0
        for z, x, tms, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
            folder = os.path.join(server.dir, "www", "tiles", str(z), str(x))
            os.makedirs(folder, exist_ok=True)
            os.chmod(folder, 0o755)
            os.chmod(os.path.dirname(folder), 0o755)
            path = os.path.join(folder, f"{(1 << z) - 1 - tms}.pbf")
            with open(path, "wb") as f:
                f.write(data)
            os.chmod(path, 0o644)
            count += 1
        os.chmod(os.path.join(server.dir, "www", "tiles"), 0o755)
        template = server.url("tiles/{z}/{x}/{y}.pbf")
        # Views inside the fixture's bounds: a tile server has no metadata, so it claims the whole world.
        for view in [["--center", "60.1690,24.9420", "--zoom", z] for z in ("15", "16", "17.5")]:
            local = render("--tiles", os.path.join(FIXTURES, "helsinki-omt.mbtiles"), *view).split("\n")
            remote = render("--tiles", template, *view).split("\n")
            assert remote[:28] == local[:28], f"{view}: map rows differ"
            assert "│ 127.0.0.1" in remote[28], remote[28]
        return f"{count} tiles served, 3 views equal"

    @check("nginx listened on 127.0.0.1 only")
    def _():
        return server.listening()
finally:
    server.stop()

check.report("tiles e2e")
