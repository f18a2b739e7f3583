#!/usr/bin/env python3
"""Figures for remote tiles (`make bench-remote`): requests and round trips of a new street view
from a TileJSON source and from a remote .pmtiles, through a proxy that adds 100 ms each way; a view
from the warm disk cache against the same view from a local .pmtiles; `data get` of the fixture area
against the server's own rate.

    python3 Tools/remote_bench.py .build/release/termmap

Debian's nginx on 127.0.0.1 serves the fixtures (Tests/e2e/nginx.py); nothing leaves the machine.
"""
import asyncio
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "e2e"))
from nginx import Nginx  # noqa: E402

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/termmap")
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
FIXTURES = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "tiles")
DELAY = 0.100
LOG = "$connection|$msec|$request_time|$request_method $uri|$status"
VIEW = ["--size", "200x60", "--center", "60.1690,24.9420", "--zoom", "15"]


def delayed_proxy(target_port):
    """A TCP proxy on a free loopback port that holds every chunk 100 ms each way."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    async def pipe(reader, writer):
        try:
            while data := await reader.read(65536):
                await asyncio.sleep(DELAY)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def handle(r, w):
        tr, tw = await asyncio.open_connection("127.0.0.1", target_port)
        await asyncio.gather(pipe(r, tw), pipe(tr, w))

    async def main():
        server = await asyncio.start_server(handle, "127.0.0.1", port)
        async with server:
            await server.serve_forever()

    threading.Thread(target=lambda: asyncio.run(main()), daemon=True).start()
    time.sleep(0.3)
    return port


def render(url, cache):
    t0 = time.monotonic()
    r = subprocess.run([BINARY, "render", *VIEW, "--tiles", url], capture_output=True, text=True,
                       env=dict(os.environ, XDG_CACHE_HOME=cache), timeout=120)
    assert r.returncode == 0, r.stderr
    return time.monotonic() - t0


def main():
    server = Nginx(FIXTURES, ["helsinki-omt.pmtiles"], locations="        location / { expires 1h; }",
                   log_format=LOG)
    try:
        www = os.path.join(server.dir, "www")
        import sqlite3
        db = sqlite3.connect(os.path.join(FIXTURES, "helsinki-omt.mbtiles"))
        for z, x, row, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
            d = os.path.join(www, "t", str(z), str(x))
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, f"{(1 << z) - 1 - row}.pbf"), "wb") as f:
                f.write(data)
        proxy = delayed_proxy(server.port)
        base = f"http://127.0.0.1:{proxy}"
        with open(os.path.join(www, "doc.json"), "w") as f:
            f.write('{"tilejson":"3.0.0","tiles":["%s/t/{z}/{x}/{y}.pbf"],"maxzoom":14,'
                    '"vector_layers":[{"id":"transportation"},{"id":"water"}]}' % base)
        for d, _, files in os.walk(server.dir):
            os.chmod(d, 0o755)
            for f in files:
                os.chmod(os.path.join(d, f), 0o644)
        local = render(os.path.join(FIXTURES, "helsinki-omt.pmtiles"), tempfile.mkdtemp())
        print(f"round trip through the proxy: {2 * DELAY * 1000:.0f} ms (plus connection set-up: one more)")
        for name, url in (("TileJSON", base + "/doc.json"), ("PMTiles", base + "/helsinki-omt.pmtiles")):
            times = []
            for _ in range(3):
                server.clear_log()
                times.append(render(url, tempfile.mkdtemp()))
                log = [line.split("|") for line in open(os.path.join(server.dir, "access.log"))]
            t = statistics.median(times)
            connections = len({entry[0] for entry in log})
            print(f"{name}: a new view, {len(log)} requests over {connections} connections, median {t * 1000:.0f} ms "
                  f"= {t / (2 * DELAY):.1f} round trips (local .pmtiles: {local * 1000:.0f} ms)")
        # Warm disk cache against a local file (no request either way).
        cache = tempfile.mkdtemp()
        url = base + "/helsinki-omt.pmtiles"
        render(url, cache)
        warm = statistics.median(render(url, cache) for _ in range(15))
        cold_local = statistics.median(render(os.path.join(FIXTURES, "helsinki-omt.pmtiles"), cache) for _ in range(15))
        print(f"warm disk cache {warm * 1000:.1f} ms, local .pmtiles {cold_local * 1000:.1f} ms: {warm / cold_local:.2f}x")
        # data get of the fixture area straight from nginx, against nginx's own rate (curl, 4 at a time).
        direct = f"http://127.0.0.1:{server.port}"
        data = tempfile.mkdtemp()
        t0 = time.monotonic()
        r = subprocess.run([BINARY, "data", "get", "b", "--data", data, "--from", direct + "/t/{z}/{x}/{y}.pbf",
                            "--bbox", "24.9352,60.1642,24.9534,60.1791"], capture_output=True, text=True)
        took = time.monotonic() - t0
        assert r.returncode == 0, r.stderr
        paths = [p for p in subprocess.run(["find", os.path.join(www, "t"), "-name", "*.pbf"], capture_output=True,
                                           text=True).stdout.split()]
        urls = [direct + "/t/" + os.path.relpath(p, os.path.join(www, "t")) for p in paths]
        t0 = time.monotonic()
        subprocess.run(["xargs", "-P", "4", "-n", "1", "curl", "-s", "-o", "/dev/null"], input="\n".join(urls), text=True)
        curl = time.monotonic() - t0
        tiles = r.stderr.split("holds ")[1].split(" ")[0]
        print(f"data get: {tiles} tiles in {took:.2f} s ({int(tiles) / took:.0f} tiles/s, with start-up); "
              f"curl for the server's {len(urls)} files, 4 at a time: {curl:.2f} s ({len(urls) / curl:.0f} tiles/s)")
    finally:
        server.stop()


main()
