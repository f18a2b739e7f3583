#!/usr/bin/env python3
"""End-to-end: names and properties made to attack the terminal (OSC 52 setting the clipboard, OSC 0 the
title, OSC 8 links, DSR, DCS, C1 controls, bidirectional overrides, zero-width characters) in every
source the viewer reads (GeoJSON, CSV, GPX, KML, the stream, vector tiles in a kiosk, bookmarks, a file's
name), shown in every place (labels, `i`, `o`, `'`, `/`), in ASCII (LANG=C) and UTF-8: in tmux with
`set-clipboard on` no paste buffer appears and the title stays, and the bytes the viewer writes to a
pseudo-terminal hold no sequence termmap does not write itself. Then the terminal is restored after a
crash (no interactive handler, no backtrace in kiosk mode).

    python3 Tests/e2e/hostile_e2e.py .build/debug/termmap

Prints one line per check and a closing 'N passed, N failed' line.
"""
import gzip
import json
import os
import pty
import re
import select
import signal
import sqlite3
import struct
import zlib
import subprocess
import sys
import tempfile
import time

import geopackage
import harness
from harness import Checks, Tmux
import http.server


class QuietServer(http.server.ThreadingHTTPServer):
    """A test server that says nothing when termmap hangs up on it (it gives up on hostile answers)."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
tmux = Tmux("termmap-hostile")
check = Checks(tmux)
WORK = tempfile.mkdtemp(prefix="termmap-hostile-")
os.environ["XDG_DATA_HOME"] = os.path.join(WORK, "data")
os.environ["XDG_STATE_HOME"] = os.path.join(WORK, "state")
os.environ["XDG_CONFIG_HOME"] = os.path.join(WORK, "config")
os.environ["XDG_CACHE_HOME"] = os.path.join(WORK, "cache")

ESC, BEL = "\x1b", "\x07"
CORPUS = [
    f"{ESC}]52;c;SEFDS0VE{BEL}Main Street",
    f"{ESC}]52;c;SEFDS0VE{ESC}\\Side Street",
    f"{ESC}]0;HACKED TITLE{BEL}Title Road",
    f"{ESC}]2;HACKED TITLE{ESC}\\Window Road",
    f"{ESC}]8;;https://evil.example/{ESC}\\Link Lane{ESC}]8;;{ESC}\\",
    f"Ask{ESC}[6n{ESC}[c Alley",
    f"{ESC}P1$tq{ESC}\\Dcs Drive",
    "\u009b31337m C1 Court \u009d0;HACKED TITLE\u009c",
    "Bidi \u202ehcaeB\u202c Boulevard \u2066iso\u2069",
    "Zero\u200bwidth\ufeff Way",
    "\u0301Lone Mark Path",
    "Wide ⌚⭐ 東京 Square",
]
# XML carries no C0 control but tab, line feed and carriage return: ESC becomes C1's CSI there.
XML_CORPUS = [re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f]", lambda m: "\u009b" if m.group() == ESC else "\u009c", t) for t in CORPUS]
CENTER = (60.1700, 24.9400)


def place(i):
    """Where the i-th name goes: a ring around the centre, within a screen at zoom 16."""
    return CENTER[0] + 0.0012 * ((i % 4) - 1.5), CENTER[1] + 0.0035 * ((i // 4) - 1)


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def xml(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


features = []
for i, t in enumerate(CORPUS):
    lat, lon = place(i)
    features.append({"type": "Feature", "properties": {"name": t, t: t}, "geometry": {"type": "Point", "coordinates": [lon, lat]}})
features.append({"type": "Feature", "properties": {"name": CORPUS[0]},
                 "geometry": {"type": "LineString", "coordinates": [[CENTER[1] - 0.01, CENTER[0]], [CENTER[1] + 0.01, CENTER[0]]]}})
# The first feature sits at the centre, under the crosshair of `i`.
features[0]["geometry"]["coordinates"] = [CENTER[1], CENTER[0]]
GEOJSON = write("hostile.geojson", json.dumps({"type": "FeatureCollection", "features": features}))
CSV = write("hostile.csv", "lat,lon,name\n" + "".join(
    f'{place(i)[0]},{place(i)[1] + 0.0005},"{t.replace(chr(34), chr(34) * 2)}"\n' for i, t in enumerate(CORPUS)))
GPX = write("hostile.gpx", '<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">' + "".join(
    f'<wpt lat="{place(i)[0] + 0.0003}" lon="{place(i)[1]}"><name>{xml(t)}</name><desc>{xml(t)}</desc></wpt>' for i, t in enumerate(XML_CORPUS)) + "</gpx>")
KML = write("hostile.kml", '<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>' + "".join(
    f"<Placemark><name>{xml(t)}</name><description>{xml(t)}</description><Point><coordinates>{place(i)[1] - 0.0005},{place(i)[0]}"
    "</coordinates></Point></Placemark>" for i, t in enumerate(XML_CORPUS)) + "</Document></kml>")
STREAM = write("hostile.jsonl", "".join(json.dumps({"id": i, "lat": place(i)[0] - 0.0003, "lon": place(i)[1], "label": t}) + "\n"
                                        for i, t in enumerate(CORPUS)))
# A file named to attack: its name shows in the layer list and in messages.
NAMED = os.path.join(WORK, f"{ESC}]52;c;SEFDS0VE{BEL}named.geojson")
with open(NAMED, "w") as f:
    json.dump({"type": "Feature", "properties": {"name": "plain"}, "geometry": {"type": "Point", "coordinates": [CENTER[1], CENTER[0]]}}, f)
os.makedirs(os.path.join(WORK, "data", "termmap"), exist_ok=True)
with open(os.path.join(WORK, "data", "termmap", "bookmarks.tsv"), "w") as f:
    for i, t in enumerate(CORPUS):
        f.write(t.replace("\t", " ").replace("\n", " ") + f"\t{place(i)[0]}\t{place(i)[1]}\t16\n")


# A vector tile (Mapbox Vector Tile 2.1) written by hand: streets named with the corpus across tile
# 14/9326/4742 (OpenMapTiles' transportation and transportation_name layers), in an MBTiles file.
def varint(v):
    out = b""
    while v >= 0x80:
        out += bytes([v & 0x7F | 0x80])
        v >>= 7
    return out + bytes([v])


def field(n, wire, payload):
    key = varint(n << 3 | wire)
    return key + (varint(payload) if wire == 0 else varint(len(payload)) + payload)


def zigzag(v):
    return (v << 1) ^ (v >> 31)


def layer(name, lines, properties):
    keys, values, feats = [], [], b""
    for (y, props) in zip(lines, properties):
        tags = []
        for k, v in props.items():
            if k not in keys:
                keys.append(k)
            if v not in values:
                values.append(v)
            tags += [keys.index(k), values.index(v)]
        geometry = [9, zigzag(0), zigzag(y), 10, zigzag(4096), zigzag(0)]
        feats += field(2, 2, field(2, 2, b"".join(varint(t) for t in tags)) + field(3, 0, 2)
                       + field(4, 2, b"".join(varint(g) for g in geometry)))
    body = field(15, 0, 2) + field(1, 2, name.encode()) + feats
    body += b"".join(field(3, 2, k.encode()) for k in keys)
    body += b"".join(field(4, 2, field(1, 2, v.encode())) for v in values)
    body += field(5, 0, 4096)
    return field(3, 2, body)


rows = [256 + 300 * i for i in range(len(CORPUS))]
TILE = gzip.compress(layer("transportation", rows, [{"class": "primary"}] * len(CORPUS))
                     + layer("transportation_name", rows, [{"class": "primary", "name": t} for t in CORPUS]))
MBTILES = os.path.join(WORK, "hostile.mbtiles")
db = sqlite3.connect(MBTILES)
db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
for k, v in [("name", CORPUS[2]), ("format", "pbf"), ("minzoom", "14"), ("maxzoom", "14"), ("attribution", CORPUS[0]),
             ("bounds", "24.90,60.15,24.98,60.19"),
             ("json", json.dumps({"vector_layers": [{"id": "transportation", "fields": {}}, {"id": "transportation_name", "fields": {}}]}))]:
    db.execute("INSERT INTO metadata VALUES (?, ?)", (k, v))
db.execute("INSERT INTO tiles VALUES (14, 9326, ?, ?)", ((1 << 14) - 1 - 4742, TILE))
db.commit()
db.close()
TILE_CENTER = "60.1707,24.9257"


def png(width, height, rgb):
    """A PNG of one colour (PNG 1.2: IHDR, one IDAT of zlib'd rows with filter 0, IEND)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


# Imagery (issue 47) whose name and credit are hostile: a raster MBTiles of one zoom-0 tile.
RASTER = os.path.join(WORK, "hostile-raster.mbtiles")
db = sqlite3.connect(RASTER)
db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
for k, v in [("name", CORPUS[1]), ("format", "png"), ("minzoom", "0"), ("maxzoom", "0"), ("attribution", CORPUS[0])]:
    db.execute("INSERT INTO metadata VALUES (?, ?)", (k, v))
db.execute("INSERT INTO tiles VALUES (0, 0, 0, ?)", (png(256, 256, (40, 120, 60)),))
db.commit()
db.close()

# ---- The output stream, parsed -------------------------------------------------------------------------------------
# What termmap and the curses library write themselves: the painter's CSI (H C m J K X P @ r), index and
# reverse index, private modes (?…h/l: the alternate screen, the cursor, the mouse, the keypad), xterm's title
# stack around the alternate screen (CSI 22/23 t), keypad ESC = and ESC >, the character set ESC ( B, the
# device attributes question (CSI c), the background question (OSC 11 ; ? BEL) and, with imagery, kitty's
# graphics question (APC G … a=q … ST). Anything else is foreign.
ALLOWED = re.compile(rb"\x1b(\[[0-9;]*[HCmJKXP@rABDdGlh]|\[\?[0-9;]*[hl]|\[2[23];[0-9;]*t|\[c|[DME=>78]|\(B|\]11;\?\x07"
                     rb"|_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\)")


def foreign(data):
    """The first thing in `data` termmap did not write itself, or None."""
    i = 0
    while i < len(data):
        b = data[i]
        if b == 0x1B:
            m = ALLOWED.match(data, i)
            if not m:
                return f"ESC sequence {data[i:i + 24]!r}"
            i = m.end()
            continue
        if b < 0x20 and b not in (0x0A, 0x0D, 0x08):
            return f"control 0x{b:02x} at {i}: {data[max(0, i - 20):i + 20]!r}"
        i += 1
    text = data.decode("utf-8", "replace")
    for ch in text:
        o = ord(ch)
        if 0x80 <= o <= 0x9F or 0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069 or o in (0x200B, 0xFEFF, 0x2028, 0x2029):
            return f"U+{o:04X} sent raw"
    return None


def pty_run(argv, keys, lang, seconds=2.5, stdin_path=None):
    """Runs argv on a pseudo-terminal of 120×40, answering the terminal questions as xterm would, types
    `keys` (each after a pause) and returns everything written."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", LANG=lang, LC_ALL=lang)
        if stdin_path:
            os.dup2(os.open(stdin_path, os.O_RDONLY), 0)
        os.execv(argv[0], argv)
    import fcntl
    import termios
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    out = b""
    script = list(keys)
    end = time.time() + seconds
    next_key = time.time() + 1.0
    while time.time() < end or script:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                d = os.read(fd, 65536)
            except OSError:
                break
            if not d:
                break
            out += d
            for _ in range(d.count(b"\x1b[c")):
                os.write(fd, b"\x1b[?62;22c")
            if b"\x1b]11;?" in d:
                os.write(fd, b"\x1b]11;rgb:0000/0000/0000\x07")
        if script and time.time() >= next_key:
            os.write(fd, script.pop(0).encode())
            next_key = time.time() + 0.4
            end = max(end, next_key + 0.6)
    os.write(fd, b"q")
    deadline = time.time() + 5
    while time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                d = os.read(fd, 65536)
            except OSError:
                break
            if not d:
                break
            out += d
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)
    return out


KEYS = ["i", "\x1b", "o", "\x1b", "'", "\x1b", "/" + CORPUS[0] + CORPUS[5], "\x1b", "m", "i"]
VIEW = ["--center", f"{CENTER[0]},{CENTER[1]}", "--zoom", "16", "--no-animation"]

try:
    for lang in ("C.UTF-8", "C"):
        @check(f"LANG={lang}: every source's hostile names in labels, i, o, ', / and the message line: no foreign byte written")
        def _(lang=lang):
            cases = {
                "files": [BINARY, *VIEW, GEOJSON, CSV, GPX, KML, NAMED],
                "stream": [BINARY, *VIEW, "-"],
                "kiosk tiles": [BINARY, "--kiosk", "--tiles", MBTILES, "--center", TILE_CENTER, "--zoom", "15", "--no-animation"],
            }
            sizes = []
            for name, argv in cases.items():
                out = pty_run(argv, [] if name == "kiosk tiles" else KEYS, lang, stdin_path=STREAM if name == "stream" else None)
                problem = foreign(out)
                assert problem is None, f"{name}: {problem}"
                text = out.decode("utf-8", "replace")
                assert "Street" in text or "Main" in text, f"{name}: no name drawn"
                sizes.append(f"{name} {len(out):,} B")
            return ", ".join(sizes)

        @check(f"LANG={lang}: in tmux with set-clipboard on, the clipboard stays empty and the title stays, keys or none (kiosk)")
        def _(lang=lang):
            tmux.with_options(set_clipboard="on", allow_rename="on")
            tmux("set", "-g", "set-titles", "on")
            env = f"TERM=xterm-256color LANG={lang} XDG_DATA_HOME={os.environ['XDG_DATA_HOME']}"
            runs = [
                f"{BINARY} {' '.join(VIEW)} {GEOJSON} {CSV} {GPX} {KML}",
                f"{BINARY} --kiosk --tiles {MBTILES} --center {TILE_CENTER} --zoom 15 --no-animation",
                f"{BINARY} {' '.join(VIEW)} - < {STREAM}",
            ]
            for command in runs:
                tmux.new_session(f"env {env} sh -c '{command}'; sleep 600", 120, 40)
                tmux("rename-window", "-t", "m", "before")
                title = tmux("display-message", "-p", "-t", "m", "#{pane_title}").strip()
                time.sleep(1.5)
                if "--kiosk" not in command:
                    for k in ["i", "Escape", "o", "Escape", "'", "Escape", "/"]:
                        tmux("send-keys", "-t", "m", k)
                        time.sleep(0.3)
                    tmux("send-keys", "-t", "m", "-l", "--", CORPUS[0] + CORPUS[2])
                    time.sleep(0.5)
                    tmux("send-keys", "-t", "m", "Escape", "m", "i")
                    time.sleep(1.0)
                screen = tmux("capture-pane", "-p", "-t", "m")
                buffers = tmux("list-buffers", check=False).strip()
                assert buffers == "", f"{command}: a paste buffer appeared: {buffers!r}"
                now = tmux("display-message", "-p", "-t", "m", "#{pane_title} #{window_name}").strip()
                assert "HACKED" not in now and now.startswith(title), f"{command}: title {now!r} (was {title!r})"
                assert "Street" in screen or "Road" in screen or "Main" in screen, f"{command}: nothing named on screen\n{screen}"
                tmux("kill-session", "-t", "m", check=False)
            return f"{len(runs)} runs: no buffer, title '{title}'"

    @check("imagery whose name and credit are hostile: the viewer (I, i), render, --json, --pick and --about print no foreign byte")
    def _():
        out = pty_run([BINARY, "--tiles", RASTER, "--center", "20,10", "--zoom", "2", "--no-animation"],
                      ["I", "I", "i"], "C.UTF-8")
        problem = foreign(out)
        assert problem is None, f"viewer: {problem}"
        text = out.decode("utf-8", "replace")
        assert "Main Street" in text and "imagery" in text, "the credit or the imagery's answer is not on screen"
        sizes = [f"viewer {len(out):,} B"]
        for extra in ([], ["--json"], ["--pick"], ["--keys", "i", "--json"], ["--about"]):
            argv = ([BINARY, "--tiles", RASTER, "--about"] if extra == ["--about"] else
                    [BINARY, "render", "--tiles", RASTER, "--center", "20,10", "--zoom", "2", "--color", "256", *extra])
            r = subprocess.run(argv, capture_output=True, timeout=60)
            # --pick's legend is LETTER<TAB>CLASS: that tab is termmap's own.
            shown = r.stdout.replace(b"\t", b" ") if "--pick" in extra else r.stdout
            problem = foreign(shown) or foreign(r.stderr)
            assert r.returncode == 0 and problem is None, (extra, r.returncode, problem)
            sizes.append(f"{' '.join(extra) or 'render'} {len(r.stdout):,} B")
        return ", ".join(sizes)

    @check("a tile server's hostile TileJSON, tiles and error answers: data info, --about and render print no foreign byte")
    def _():
        import http.server
        import threading

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                base = f"http://127.0.0.1:{self.server.server_port}"
                if self.path == "/tiles.json":
                    body = json.dumps({"tilejson": "3.0.0", "name": CORPUS[2], "attribution": CORPUS[0], "description": CORPUS[3],
                                       "tiles": [base + "/{z}/{x}/{y}.pbf"], "minzoom": 14, "maxzoom": 14,
                                       "vector_layers": [{"id": "transportation"}, {"id": "transportation_name"}]}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                elif self.path == "/14/9326/4742.pbf":
                    body = TILE
                    self.send_response(200)
                    self.send_header("Content-Encoding", "gzip")
                else:
                    body = (CORPUS[0] + CORPUS[2]).encode()
                    self.send_response(500 if self.path == "/bad.json" else 404)
                    self.send_header("Content-Type", "text/plain")
                    self.send_header("X-Reason", "x")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        server = QuietServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        try:
            runs = [["data", "info", base + "/tiles.json"], ["--tiles", base + "/tiles.json", "--about"],
                    ["render", "--tiles", base + "/tiles.json", "--center", TILE_CENTER, "--zoom", "15", "--tile-cache-disk", "0"],
                    ["render", "--tiles", base + "/tiles.json", "--center", TILE_CENTER, "--zoom", "15", "--json", "--tile-cache-disk", "0"],
                    ["data", "info", base + "/bad.json"], ["data", "info", base + "/missing.pmtiles"]]
            for args in runs:
                r = subprocess.run([BINARY, *args], capture_output=True, timeout=60)
                for stream in (r.stdout, r.stderr):
                    problem = foreign(stream)
                    assert problem is None, f"{args}: {problem}"
            return f"{len(runs)} commands against a server on 127.0.0.1"
        finally:
            server.shutdown()

    @check("devices, pipes and sockets named as files: one line each, exit 1, at once (render and the viewer)")
    def _():
        link = os.path.join(WORK, "zero.geojson")
        if not os.path.lexists(link):
            os.symlink("/dev/zero", link)
        fifo = os.path.join(WORK, "fifo.geojson")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        said = []
        for path in ("/dev/zero", "/dev/null", link, fifo):
            t = time.time()
            r = subprocess.run([BINARY, "render", path], capture_output=True, text=True, timeout=20)
            lines = r.stderr.strip().split("\n")
            assert r.returncode == 1 and len(lines) == 1 and "not a file" in lines[0], (path, r.returncode, r.stderr)
            assert time.time() - t < 5, f"{path}: {time.time() - t:.1f} s"
            said.append(lines[0].split(": ", 1)[1].split(",")[0])
        # The viewer lists it as failed and answers keys.
        tmux.new_session(f"env TERM=xterm-256color LANG=C.UTF-8 {BINARY} --no-animation {link}; sleep 600", 120, 40)
        s = harness.Session.__new__(harness.Session)
        s.tmux = tmux
        screen = s.wait_for(lambda x: "not a file" in x, 10)
        assert "character device" in screen, screen[-400:]
        tmux("send-keys", "-t", "m", "q")
        time.sleep(0.5)
        assert tmux("display-message", "-p", "-t", "m", "#{alternate_on}").strip() == "0", "q did not quit"
        return "; ".join(sorted(set(said)))

    @check("yes '{\"id\":1,…}' | termmap render - holds one feature and one line, not the input (RSS after 4 s)")
    def _():
        yes = subprocess.Popen(["yes", '{"id":1,"lat":60,"lon":24}'], stdout=subprocess.PIPE)
        p = subprocess.Popen([BINARY, "render", "-"], stdin=yes.stdout, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        yes.stdout.close()
        peaks = []
        for _ in range(8):
            time.sleep(0.5)
            with open(f"/proc/{p.pid}/status") as f:
                peaks += [int(l.split()[1]) // 1024 for l in f if l.startswith("VmHWM:")]
        p.kill()
        yes.kill()
        p.wait()
        yes.wait()
        assert max(peaks) < 100, f"peak {max(peaks)} MB"
        return f"peak {max(peaks)} MB after 4 s"

    @check("--follow /dev/zero, and a followed file swapped for a link to it: said once, no core spun, keys answered")
    def _():
        followed = os.path.join(WORK, "followed.jsonl")
        with open(followed, "w") as f:
            f.write(json.dumps({"id": 1, "lat": CENTER[0], "lon": CENTER[1], "label": "here"}) + "\n")
        spent = []
        for target, swap in (("/dev/zero", False), (followed, True)):
            pid_file = os.path.join(WORK, f"follow-pid-{swap}")
            tmux.new_session(f"env TERM=xterm-256color LANG=C.UTF-8 sh -c 'echo $$ > {pid_file}; exec {BINARY} --no-animation "
                             f"--center {CENTER[0]},{CENTER[1]} --zoom 14 --follow {target}'; sleep 600", 120, 40)
            s = harness.Session.__new__(harness.Session)
            s.tmux = tmux
            time.sleep(1.5)
            pid = int(open(pid_file).read())
            if swap:
                os.unlink(followed)
                os.symlink("/dev/zero", followed)
            screen = s.wait_for(lambda x: "not a file to follow" in x, 5)
            assert "character device, not a file to follow" in screen, screen[-400:]
            def cpu():
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            before = cpu()
            time.sleep(3)
            used = cpu() - before
            assert used < 0.6, f"{used:.2f} s of CPU in 3 s"
            spent.append(f"{used:.2f} s")
            t = time.time()
            tmux("send-keys", "-t", "m", "q")
            while time.time() - t < 3 and tmux("display-message", "-p", "-t", "m", "#{alternate_on}").strip() != "0":
                time.sleep(0.02)
            assert tmux("display-message", "-p", "-t", "m", "#{alternate_on}").strip() == "0", "q did not quit"
            tmux("kill-session", "-t", "m", check=False)
        return "CPU in 3 s: " + ", ".join(spent)

    @check("a server that stalls mid-answer is said to have timed out; one that ignores Range, to not answer range requests")
    def _():
        import http.server
        import threading
        pmtiles = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "MapDataTests", "Fixtures", "tiles", "helsinki-omt.pmtiles")
        whole = open(pmtiles, "rb").read()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path.startswith("/stall"):
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes 0-16383/{len(whole)}")
                    self.send_header("Content-Length", "16384")
                    self.end_headers()
                    self.wfile.write(whole[:1000])
                    self.wfile.flush()
                    time.sleep(14)
                    return
                self.send_response(200)  # Range ignored: the whole file
                self.send_header("Content-Length", str(len(whole)))
                self.end_headers()
                self.wfile.write(whole)

        server = QuietServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        said = []
        try:
            for path, expect in (("/stall.pmtiles", "timed out: the server sent 1000 bytes and then nothing for 10 s"),
                                 ("/whole.pmtiles", "the server does not answer range requests")):
                t = time.time()
                r = subprocess.run([BINARY, "data", "info", base + path], capture_output=True, text=True, timeout=60)
                lines = r.stderr.strip().split("\n")
                assert r.returncode == 1 and len(lines) == 1 and expect in lines[0], (path, r.returncode, r.stderr)
                said.append(f"{lines[0].split(': ', 2)[-1]} ({time.time() - t:.1f} s)")
        finally:
            server.shutdown()
        return "; ".join(said)

    @check("two viewers open at once keep each other's bookmarks; temporaries of dead writers are removed at start")
    def _():
        home = tempfile.mkdtemp(prefix="termmap-state-")
        data, state = os.path.join(home, "data", "termmap"), os.path.join(home, "state", "termmap")
        os.makedirs(data)
        os.makedirs(state)
        dead = subprocess.Popen(["true"])
        dead.wait()
        stale = [os.path.join(data, f"bookmarks.tsv.tmp.{dead.pid}"), os.path.join(state, f"last-view.tmp.{dead.pid}")]
        live = os.path.join(data, f"bookmarks.tsv.tmp.{os.getpid()}")
        for path in stale + [live]:
            with open(path, "w") as f:
                f.write("half written\n")
        env = f"TERM=xterm-256color LANG=C.UTF-8 XDG_DATA_HOME={home}/data XDG_STATE_HOME={home}/state"
        tmux.new_session(f"env {env} {BINARY} --no-animation --center 60.17,24.94 --zoom 12; sleep 600", 100, 30)
        tmux("new-session", "-d", "-s", "b", "-x", "100", "-y", "30", f"env {env} {BINARY} --no-animation --center 48.85,2.35 --zoom 12; sleep 600")
        time.sleep(1.5)
        for session, name in (("m", "alpha"), ("b", "beta")):
            tmux("send-keys", "-t", session, "b")
            time.sleep(0.3)
            tmux("send-keys", "-t", session, "C-u")
            tmux("send-keys", "-t", session, "-l", "--", "\b" * 40 + name)
            tmux("send-keys", "-t", session, "Enter")
            time.sleep(0.6)
        tmux("send-keys", "-t", "b", "'")
        time.sleep(0.5)
        listed = tmux("capture-pane", "-p", "-t", "b")
        with open(os.path.join(data, "bookmarks.tsv")) as f:
            names = [line.split("\t")[0] for line in f if line.strip()]
        assert sorted(names) == ["alpha", "beta"], names
        assert "alpha" in listed and "beta" in listed, listed
        assert not any(os.path.exists(p) for p in stale), "a dead writer's temporary is left"
        assert os.path.exists(live), "a live process's temporary was removed"
        tmux("kill-session", "-t", "b", check=False)
        return f"the file holds {names}; B lists both; {len(stale)} stale temporaries removed, a live one kept"

    def peak_of(argv, env=None, timeout=120):
        """Runs argv; its exit status, stderr and peak resident memory in MB (wait4's rusage)."""
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        err = p.stderr.read().decode("utf-8", "replace")
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        return p.returncode, err, usage.ru_maxrss / 1024

    @check("ogr2ogr's limits: a GeoPackage view of a million rows stops at the layer's memory, an endless one at the CPU "
           "time, a program that eats memory at its address space, endless output at the memory: one line each")
    def _():
        gpkg = os.path.join(WORK, "view.gpkg")
        db = geopackage.start(gpkg)
        for name, rows in (("many", 1_000_000), ("endless", None)):
            geopackage.add_view(db, name, rows)
        db.commit()
        db.close()
        said = []
        for layer, args, expect in (("many", ["--ogr2ogr-memory", "16"], "stopped at 16 MB of features"),
                                    ("endless", ["--ogr2ogr-seconds", "3"], "CPU time limit (3 s")):
            only = os.path.join(WORK, f"{layer}.gpkg")
            subprocess.run(["ogr2ogr", "-f", "GPKG", only, gpkg, layer, "-nln", layer, "-sql", f"SELECT * FROM seed LIMIT 0"],
                           capture_output=True)
            # The view alone in a file of its own (ogr2ogr reads every layer of a file).
            db = sqlite3.connect(only)
            db.execute(f"CREATE VIEW v AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r {'LIMIT 1000000' if layer == 'many' else ''}) "
                       f"SELECT r.i AS fid, (SELECT geom FROM {layer} LIMIT 1) AS geom FROM r")
            db.execute("INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES ('v', 'features', 'v', 4326)")
            db.execute("INSERT INTO gpkg_geometry_columns VALUES ('v', 'geom', 'POINT', 4326, 0, 0)")
            db.execute(f"DELETE FROM gpkg_contents WHERE table_name = '{layer}'")
            db.execute(f"INSERT INTO {layer} (geom) VALUES (?)", (b"GP\x00\x01" + struct.pack("<i", 4326) + struct.pack("<BIdd", 1, 1, 24.94, 60.17),))
            db.commit()
            db.close()
            t = time.time()
            code, err, peak = peak_of([BINARY, "render", *args, only])
            lines = err.strip().split("\n")
            assert len(lines) == 1 and expect in lines[0], (layer, code, err[-300:])
            said.append(f"{layer}: {time.time() - t:.1f} s, {peak:.0f} MB, exit {code}")
        # Stand-ins for ogr2ogr: one that eats memory, one whose output has no end.
        bin_dir = os.path.join(WORK, "bin")
        os.makedirs(bin_dir, exist_ok=True)
        with open(os.path.join(bin_dir, "ogr2ogr"), "w") as f:
            f.write("#!/bin/sh\nif [ \"$MODE\" = eat ]; then exec python3 -c 'a = []\nwhile True: a.append(bytearray(1 << 24))'; fi\n"
                    "exec yes '{\"type\":\"Feature\",\"properties\":{\"n\":\"x\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[24.9,60.1]}}'\n")
        os.chmod(os.path.join(bin_dir, "ogr2ogr"), 0o755)
        odd = os.path.join(WORK, "x.odd")
        with open(odd, "w") as f:
            f.write("not a format termmap reads\n")
        for mode, expect in (("eat", "ran out of its memory limit (512 MB"), ("endless", "stopped at 16 MB of features")):
            env = dict(os.environ, PATH=bin_dir + ":" + os.environ["PATH"], MODE=mode)
            t = time.time()
            code, err, peak = peak_of([BINARY, "render", "--ogr2ogr-memory", "16", odd], env=env)
            lines = err.strip().split("\n")
            assert len(lines) == 1 and expect in lines[0], (mode, code, err[-300:])
            # (The peak is the largest of termmap and the stand-in: the eater's is its 512 MB.)
            assert mode == "eat" or peak < 16 * 1.5 + 40, f"{mode}: peak {peak:.0f} MB"
            said.append(f"{mode}: {time.time() - t:.1f} s, {peak:.0f} MB, exit {code}")
        return "; ".join(said)

    for kiosk in (False, True):
        @check(f"a crash (SIGSEGV){' in kiosk mode' if kiosk else ''}: the terminal restored (modes, alternate screen, cursor), "
               + ("one line and no backtrace" if kiosk else "a backtrace that waits for no key"))
        def _(kiosk=kiosk):
            status = os.path.join(WORK, f"crash-{kiosk}")
            pid_file = os.path.join(WORK, f"crash-pid-{kiosk}")
            command = (f"sh -c 'echo $$ > {pid_file}; exec {BINARY} {'--kiosk' if kiosk else ''} --no-animation'; "
                       f"echo status $? > {status}; stty -a | tr -s ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo; sleep 600")
            tmux.new_session(f"env TERM=xterm-256color LANG=C.UTF-8 {command}", 100, 30)
            end = time.time() + 10
            while time.time() < end and not os.path.exists(pid_file):
                time.sleep(0.05)
            time.sleep(1.5)
            assert tmux("display-message", "-p", "-t", "m", "#{alternate_on}").strip() == "1", "the viewer did not start"
            os.kill(int(open(pid_file).read()), signal.SIGSEGV)
            end = time.time() + 20
            while time.time() < end and not os.path.exists(status):
                time.sleep(0.1)
            time.sleep(0.5)
            screen = tmux("capture-pane", "-p", "-S", "-200", "-t", "m")
            flags = tmux("display-message", "-p", "-t", "m", "#{alternate_on} #{cursor_flag}").split()
            assert os.path.exists(status), f"the process did not end\n{screen}"
            code = int(open(status).read().split()[1])
            assert code in (139, 128 + 11), f"exit status {code}"
            assert flags == ["0", "1"], f"alternate screen, cursor: {flags}"
            assert "icanon" in screen.split() and "echo" in screen.split(), f"modes not restored:\n{screen[-400:]}"
            assert "Press space" not in screen and ">>>" not in screen, "the backtracer waited for a key"
            if kiosk:
                assert "termmap: internal error (signal 11); the terminal is restored" in screen, screen[-400:]
                assert "Program crashed" not in screen and "Backtrace" not in screen, "a backtrace in kiosk mode"
            return f"exit {code}, modes and screen restored" + ("" if kiosk else ", " + ("backtrace printed" if "Program crashed" in screen else "no backtracer in this build"))
finally:
    pass

check.report("hostile e2e")
