#!/usr/bin/env python3
"""End-to-end tests of imagery (issue 47) through the real binary, against Pillow on the same tiles.

Tilesets are made by GDAL's gdal2tiles (`Tools/make_imagery.py`): a synthetic checkerboard with
gradients and a labelled grid, horizontal stripes one tile pixel tall, and xplanet-images' earth.jpg;
each as MBTiles and PMTiles. For each bare imagery cell of `termmap render`, the colours drawn are
compared with the mean of the tile pixels under each half-cell, computed by Pillow (a BOX resize of
the tiles' mosaic over the view: each output pixel the area-weighted mean of its footprint), at the
tile zoom whose pixel is nearest half a cell, worked out here from the view's zoom.

    PYTHONPATH=.pytest python3 Tests/e2e/imagery_e2e.py .build/debug/termmap

Needs Pillow (Debian python3-pil), gdal-bin, `pmtiles` (make test-deps), and for the earth
xplanet-images. Prints one line per check and a closing 'N passed, N failed' line.
"""
import base64
import json
import math
import os
import re
import select
import sqlite3
import subprocess
import sys
import tempfile
import time
import zlib

from PIL import Image

import harness
from harness import Checks, Tmux

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
tmux = Tmux("termmap-imagery-e2e")
check = Checks(tmux)
WORK = tempfile.mkdtemp(prefix="termmap-imagery-")
EMPTY = os.path.join(WORK, "empty")
os.makedirs(EMPTY)
EARTH = os.path.exists("/usr/share/xplanet/images/earth.jpg")
made = subprocess.run([sys.executable, os.path.join(ROOT, "Tools", "make_imagery.py"), WORK, "checker", "stripes"]
                      + (["earth"] if EARTH else []), capture_output=True, text=True)
assert made.returncode == 0, made.stderr
COLS, ROWS = 80, 24
MAP_ROWS = ROWS - 2  # the status line's two rows


def run(*args, env=None):
    environment = dict(os.environ, XDG_DATA_HOME=EMPTY, XDG_CONFIG_HOME=EMPTY, **(env or {}))
    return subprocess.run([BINARY, *args], capture_output=True, timeout=60, env=environment,
                          stdin=subprocess.DEVNULL)


# --- what the terminal is sent, cell by cell -------------------------------------------------------

def palette(i):
    if i < 16:
        return [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
                (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
                (255, 0, 255), (0, 255, 255), (255, 255, 255)][i]
    if i >= 232:
        g = 8 + 10 * (i - 232)
        return (g, g, g)
    levels = [0, 95, 135, 175, 215, 255]
    i -= 16
    return (levels[i // 36], levels[i // 6 % 6], levels[i % 6])


def cells(output):
    """Rows of (glyph, fg, bg): colours as ('rgb', (r,g,b)), ('index', n) or None (the default)."""
    def kind(c):
        return None if c is None else ("rgb", c) if isinstance(c, tuple) else ("index", c)
    return [[(ch, kind(fg), kind(bg)) for ch, fg, bg in harness.sgr_cells(line)]
            for line in output.decode().split("\n")]


def halves(output):
    """Per bare imagery cell (a ▀, or a blank with a background), (col, row, upper, lower). A blank
    beside text is left out: it may be a space of a name, on its halo."""
    out = []
    for r, row in enumerate(cells(output)[:MAP_ROWS]):
        for c, (ch, fg, bg) in enumerate(row):
            if ch == "▀" and fg and bg:
                out.append((c, r, fg, bg))
            elif ch == " " and bg and all(row[k][0] in " ▀" for k in (c - 1, c + 1) if 0 <= k < len(row)):
                out.append((c, r, bg, bg))
    return out


# --- what Pillow says the tiles hold there ---------------------------------------------------------

def world_pixel(lat, lon, zoom, size=256):
    """Web Mercator (EPSG:3857) pixel of a coordinate at a tile zoom (the slippy-map formulas)."""
    n = size * 2 ** zoom
    x = (lon + 180) / 360 * n
    s = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * n
    return x, y


def expected_tile_zoom(view_zoom, min_zoom, max_zoom):
    """The tile zoom whose 256-pixel tiles' pixel is nearest half a cell: a view's world is 256 · 2^z
    dots, a half-cell 2 × 2 dots, so a tile pixel at zoom t is 2^(z − t) dots; nearest 2 at t = z − 1."""
    best = min(range(min_zoom, max_zoom + 1), key=lambda t: (abs(view_zoom - t - 1), -t))
    return best


def reference(folder, lat, lon, view_zoom, tile_zoom, size=None, k=32):
    """Pillow's area-weighted mean colour (RGBA) of the tile pixels under each part of the view: a
    `size` image (default: a half-cell a pixel, (COLS, MAP_ROWS*2)). Pillow's BOX filter averages the
    pixels whose centres fall in each footprint; a footprint's share of a pixel it covers in part counts
    too: the view's crop is first enlarged `k` times (NEAREST), so that shares count to a k-th of a pixel."""
    width_dots, height_dots = COLS * 2, MAP_ROWS * 4
    cx, cy = world_pixel(lat, lon, tile_zoom)
    per_dot = 2 ** (tile_zoom - view_zoom)  # tile pixels a dot
    x0, x1 = cx - width_dots / 2 * per_dot, cx + width_dots / 2 * per_dot
    y0, y1 = cy - height_dots / 2 * per_dot, cy + height_dots / 2 * per_dot
    tx0, tx1 = int(x0 // 256), int(x1 // 256)
    ty0, ty1 = int(y0 // 256), int(y1 // 256)
    mosaic = Image.new("RGBA", ((tx1 - tx0 + 1) * 256, (ty1 - ty0 + 1) * 256), (0, 0, 0, 0))
    for tx in range(tx0, tx1 + 1):
        for ty in range(ty0, ty1 + 1):
            path = os.path.join(folder, str(tile_zoom), str(tx % (1 << tile_zoom)), "%d.png" % ty)
            if 0 <= ty < (1 << tile_zoom) and os.path.exists(path):
                mosaic.paste(Image.open(path).convert("RGBA"), ((tx - tx0) * 256, (ty - ty0) * 256))
    left, top = int(math.floor(x0)) - tx0 * 256, int(math.floor(y0)) - ty0 * 256
    crop = mosaic.crop((left, top, int(math.ceil(x1)) - tx0 * 256 + 1, int(math.ceil(y1)) - ty0 * 256 + 1))
    big = crop.resize((crop.width * k, crop.height * k), Image.NEAREST)
    box = ((x0 - tx0 * 256 - left) * k, (y0 - ty0 * 256 - top) * k, (x1 - tx0 * 256 - left) * k,
           (y1 - ty0 * 256 - top) * k)
    return big.resize(size or (COLS, MAP_ROWS * 2), Image.BOX, box=box)


def lab(c):
    def lin(v):
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in c[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def delta_e(a, b):
    return math.dist(lab(a), lab(b))


PALETTE_LAB = [(i, lab(palette(i))) for i in range(16, 256)]


def nearest_entries(c):
    """Palette entries 16–255 by ΔE from c, nearest first, with their ΔE."""
    target = lab(c)
    return sorted(((math.dist(target, p), i) for i, p in PALETTE_LAB))


def opaque(ref, col, half):
    return ref.getpixel((col, half))[3] == 255 and all(
        ref.getpixel((max(0, min(COLS - 1, col + dx)), max(0, min(MAP_ROWS * 2 - 1, half + dy))))[3] == 255
        for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def compare(name, fmt, lat, lon, zoom, colour="truecolor", max_zoom=6):
    """Renders and compares; returns (cells compared, worst ΔE or misses)."""
    tiles = os.path.join(WORK, name + "." + fmt)
    r = run("render", "--tiles", tiles, "--center", "%r,%r" % (lat, lon), "--zoom", str(zoom), "--size",
            "%dx%d" % (COLS, ROWS), "--color", colour)
    assert r.returncode == 0, r.stderr.decode()
    t = expected_tile_zoom(zoom, 0, max_zoom)
    ref = reference(os.path.join(WORK, name), lat, lon, zoom, t)
    compared, worst, misses = 0, 0.0, []
    for col, row, upper, lower in halves(r.stdout):
        for half, drawn in ((row * 2, upper), (row * 2 + 1, lower)):
            if not opaque(ref, col, half):
                continue
            want = ref.getpixel((col, half))[:3]
            compared += 1
            if colour == "truecolor":
                assert drawn[0] == "rgb", drawn
                worst = max(worst, delta_e(drawn[1], want))
            else:
                assert drawn[0] == "index", drawn
                ranked = nearest_entries(want)
                # The nearest entry to Pillow's mean; where the two means differ a little (the truecolour
                # check's ΔE), the nearest to a colour that close: never more than 3 ΔE further.
                if drawn[1] != ranked[0][1]:
                    mine = next(d for d, i in ranked if i == drawn[1])
                    misses.append((mine - ranked[0][0], col, half, want, drawn[1], ranked[0]))
    return compared, worst, misses


CHECKER = (60.0, 25.0)


@check("truecolour: each half-cell's colour is Pillow's mean of its tile pixels within ΔE 10 (zooms 1-6, 4.6)")
def _():
    worst_all, counted = 0.0, 0
    for fmt in ("mbtiles", "pmtiles"):
        for zoom in (1, 2, 3, 4, 5, 6, 4.6):
            n, worst, _ = compare("checker", fmt, *CHECKER, zoom)
            assert n > 0 or zoom < 3, (fmt, zoom, "no cell compared")
            assert worst <= 10, (fmt, zoom, worst)
            worst_all, counted = max(worst_all, worst), counted + n
    return "%d half-cells, worst ΔE %.2f" % (counted, worst_all)


@check("256 colours: each half-cell is the palette entry nearest Pillow's mean (by ΔE 1976)")
def _():
    counted, missed = 0, []
    for zoom in (3, 5, 6, 4.6):
        n, _, misses = compare("checker", "pmtiles", *CHECKER, zoom, colour="256")
        counted += n
        missed += misses
    worst = max([m[0] for m in missed] or [0])
    assert counted > 1000 and len(missed) <= counted // 50 and worst <= 3, (len(missed), sorted(missed)[-5:])
    return "%d half-cells, %d not the nearest entry (at most %.1f ΔE further)" % (counted, len(missed), worst)


@check("earth.jpg (xplanet-images) at zooms 1-4: within ΔE 10 of Pillow")
def _():
    if not EARTH:
        return "skipped: xplanet-images is not installed"
    worst_all, counted = 0.0, 0
    for zoom, (lat, lon) in ((1, (0, 0)), (2, (30, 10)), (3, (45, -100)), (4, (-20, 140))):
        n, worst, _ = compare("earth", "mbtiles", lat, lon, zoom, max_zoom=3)
        assert n > 200 and worst <= 10, (zoom, n, worst)
        worst_all, counted = max(worst_all, worst), counted + n
    return "%d half-cells, worst ΔE %.2f" % (counted, worst_all)


@check("the half-block's upper half is the upper pixel: stripes one tile pixel tall come out red over blue")
def _():
    # A view at zoom 5 whose top edge is on a zoom-4 pixel boundary: each cell's halves are one pixel row
    # each, even rows red. The centre is a pixel corner of tile 4/8/4 (even row): 22 map rows are 22 pixels
    # above it, so row 0's upper half is an even pixel row.
    x, y = 8 * 256 + 100, 4 * 256 + 100
    n = 256 * 16
    lon = x / n * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / n))))
    r = run("render", "--tiles", os.path.join(WORK, "stripes.pmtiles"), "--center", "%r,%r" % (lat, lon),
            "--zoom", "5", "--size", "%dx%d" % (COLS, ROWS), "--color", "truecolor")
    found = [(u[1], l[1]) for _, _, u, l in halves(r.stdout)]
    red_over_blue = [1 for u, l in found if u[0] > 150 and u[2] < 80 and l[2] > 150 and l[0] < 80]
    assert len(found) > 500 and len(red_over_blue) == len(found), (len(found), len(red_over_blue), found[:3])
    return "%d cells red over blue" % len(found)


@check("render --json lists the imagery with its status and tile zoom; --pick says imagery; i says tile and pixel")
def _():
    tiles = os.path.join(WORK, "checker.mbtiles")
    args = ["render", "--tiles", tiles, "--center", "60.3,26", "--zoom", "6", "--size", "%dx%d" % (COLS, ROWS)]
    doc = json.loads(run(*args, "--json").stdout)
    imagery = [s for s in doc["sources"] if s["kind"] == "imagery"]
    assert len(imagery) == 1 and imagery[0]["status"] == "ok" and imagery[0]["detail"] == "z5", imagery
    pick = run(*args, "--pick").stdout.decode()
    legend = dict(line.split("\t")[::-1] for line in pick.split("\n\n")[1].split("\n") if "\t" in line)
    assert "imagery" in legend, legend
    info = json.loads(run(*args, "--keys", "i", "--json").stdout)["info"]["features"]
    found = [f for f in info if f["class"] == "imagery"]
    assert found and found[0]["id"].startswith("tile 5/"), info
    z, x, y = (int(v) for v in found[0]["id"].split()[1].split("/"))
    px, py = (int(v) for v in found[0]["properties"]["pixel"].split(", "))
    with Image.open(os.path.join(WORK, "checker", str(z), str(x), "%d.png" % y)) as img:
        r, g, b = img.convert("RGBA").getpixel((px, py))[:3]
    assert found[0]["properties"]["colour"] == "#%02x%02x%02x" % (r, g, b), (found[0], (r, g, b))
    return "%s pixel %d,%d %s" % (found[0]["id"], px, py, found[0]["properties"]["colour"])


class KittyTerminal:
    """What a terminal that draws kitty's pictures shows, as the graphics protocol says
    (sw.kovidgoyal.net/kitty/graphics-protocol): images sent (`a=t`/`a=T`, chunks joined while `m=1`,
    base64, then zlib when `o=z`), placements at the cursor (`a=p`, `x,y,w,h` the part shown, scaled
    over `c` × `r` cells; a placement of the same image and placement id moves it), deletions (`d=i`
    placements only, `d=I` the image too, `d=A` everything). Written for this test; the cursor is
    followed through `CSI row;col H` only, which is how termmap places pictures."""

    def __init__(self):
        self.images, self.placements, self.sent = {}, {}, 0
        self._keys, self._payload, self._cursor = None, b"", (0, 0)

    def feed(self, output):
        for cup, head, data in re.findall(rb"\x1b\[(\d*;?\d*)H|\x1b_G([^;\x1b]*);?([^\x1b]*)\x1b\\", output):
            if not head:
                parts = [int(v) if v else 1 for v in cup.split(b";")] if cup else [1, 1]
                self._cursor = (parts[0] - 1, (parts[1] if len(parts) > 1 else 1) - 1)
                continue
            k = {a: b for a, b in (kv.split(b"=", 1) for kv in head.split(b",") if b"=" in kv)}
            if self._keys is not None:
                self._payload += data
                if k.get(b"m", b"0") == b"0":
                    self._received()
                continue
            action = k.get(b"a", b"t")
            if action in (b"t", b"T"):
                self._keys, self._payload = k, data
                if k.get(b"m", b"0") == b"0":
                    self._received()
            elif action == b"p":
                self._place(k)
            elif action == b"d":
                what, image = k.get(b"d", b"a"), int(k.get(b"i", b"0"))
                if what in (b"a", b"A"):
                    self.placements.clear()
                    if what == b"A":
                        self.images.clear()
                elif what in (b"i", b"I"):
                    number = int(k[b"p"]) if b"p" in k and what == b"i" else None  # one placement, or all
                    self.placements = {key: v for key, v in self.placements.items()
                                       if key[0] != image or (number is not None and key[1] != number)}
                    if what == b"I":
                        self.images.pop(image, None)

    def _received(self):
        k, raw = self._keys, base64.b64decode(self._payload)
        self._keys = None
        pixels = zlib.decompress(raw) if k.get(b"o") == b"z" else raw
        image = int(k.get(b"i", b"0"))
        self.images[image] = (int(k[b"s"]), int(k[b"v"]), pixels)
        self.sent += 1
        if k.get(b"a") == b"T":
            self._place(k)

    def _place(self, k):
        image = int(k[b"i"])
        width, height, _ = self.images[image]
        x, y = int(k.get(b"x", b"0")), int(k.get(b"y", b"0"))
        w, h = int(k.get(b"w", str(width - x).encode())), int(k.get(b"h", str(height - y).encode()))
        row, col = self._cursor
        self.placements[(image, int(k.get(b"p", b"0")))] = (col, row, x, y, w, h, int(k[b"c"]), int(k[b"r"]))

    def picture(self, cols, rows):
        """The screen's pictures as one RGBA image of 2 × 4 pixels a cell (clear where none)."""
        canvas = Image.new("RGBA", (cols * 2, rows * 4), (0, 0, 0, 0))
        for (image, _), (col, row, x, y, w, h, c, r) in self.placements.items():
            width, height, pixels = self.images[image]
            part = Image.frombytes("RGBA", (width, height), pixels).crop((x, y, x + w, y + h))
            canvas.alpha_composite(part.resize((c * 2, r * 4), Image.NEAREST), (col * 2, row * 4))
        return canvas


def within_one_pixel(picture, width, height, reference):
    """Per opaque picture pixel, the least ΔE to the reference's pixels at most one away: the worst."""
    ref = reference.load()
    worst, counted = 0.0, 0
    for y in range(1, height - 1):
        for x in range(1, width - 1):
            i = (y * width + x) * 4
            if picture[i + 3] != 255 or any(ref[x + dx, y + dy][3] != 255 for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                continue
            got = tuple(picture[i:i + 3])
            best = min(delta_e(got, ref[x + dx, y + dy][:3]) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            worst, counted = max(worst, best), counted + 1
    return worst, counted


PICTURE_VIEW = (60.0, 25.0, 5)  # latitude, longitude, zoom of the pictures' checks


def render_picture(graphics):
    """`termmap render --graphics GRAPHICS` of the checker at PICTURE_VIEW (its run, checked)."""
    lat, lon, zoom = PICTURE_VIEW
    r = run("render", "--tiles", os.path.join(WORK, "checker.pmtiles"), "--center", "%r,%r" % (lat, lon), "--zoom",
            str(zoom), "--size", "%dx%d" % (COLS, ROWS), "--graphics", graphics)
    assert r.returncode == 0, r.stderr.decode()
    return r


def dots_against_tiles(rgba):
    """A picture of one pixel a braille dot (`rgba`, COLS*2 x MAP_ROWS*4) against Pillow's mean of the
    tile pixels under each dot, from the tiles whose pixel is nearest a dot: (worst ΔE within one
    pixel, pixels compared)."""
    lat, lon, zoom = PICTURE_VIEW
    width, height = COLS * 2, MAP_ROWS * 4
    tile_zoom = expected_tile_zoom(zoom + 1, 0, 6)
    reference_dots = reference(os.path.join(WORK, "checker"), lat, lon, zoom, tile_zoom, (width, height), k=16)
    return within_one_pixel(rgba, width, height, reference_dots)


@check("render --graphics kitty: the picture a kitty graphics parser decodes shows the tiles at the map's place within one pixel; its cells are left blank")
def _():
    r = render_picture("kitty")
    terminal = KittyTerminal()
    terminal.feed(r.stdout)
    # Chunks of 32 x 16 cells fixed to the world: an 80 x 22 map meets 3 to 4 columns and 2 to 3 rows.
    assert 6 <= len(terminal.placements) <= 12 and terminal.sent == len(terminal.placements), terminal.placements
    worst, counted = dots_against_tiles(terminal.picture(COLS, MAP_ROWS).tobytes())
    assert counted > 5000 and worst <= 10, (counted, worst)
    assert "▀" not in r.stdout.decode().split("\x1b_G")[0], "half blocks drawn under the picture"
    return "%dx%d picture in %d chunks, %d bytes sent; %d pixels, worst ΔE %.2f within one pixel" % (
        COLS * 2, MAP_ROWS * 4, terminal.sent, len(r.stdout), counted, worst)


def sixel_pictures(output, cell):
    """The screen's sixel pictures as one RGBA image, `cell` pixels a cell: each `ESC P … q … ESC \\`
    decoded by libsixel's `sixel2png` (Debian libsixel-bin) and put at the cell the `CSI row;col H`
    before it names."""
    width, height = cell
    canvas = Image.new("RGBA", (COLS * width, MAP_ROWS * height), (0, 0, 0, 0))
    sent = 0
    for row, col, sixel in re.findall(rb"\x1b\[(\d+);(\d+)H(\x1bP[0-9;]*q[^\x1b]*\x1b\\)", output):
        with open(os.path.join(WORK, "chunk.six"), "wb") as f:
            f.write(sixel)
        subprocess.run(["sixel2png", "-i", os.path.join(WORK, "chunk.six"), "-o", os.path.join(WORK, "chunk.png")],
                       check=True, capture_output=True)
        with Image.open(os.path.join(WORK, "chunk.png")) as img:
            canvas.paste(img.convert("RGBA"), ((int(col) - 1) * width, (int(row) - 1) * height))
        sent += 1
    return canvas, sent


@check("render --graphics sixel: libsixel's sixel2png decodes the chunks into the tiles at the map's place within one pixel; the text is written again over them")
def _():
    r = render_picture("sixel")
    picture, sent = sixel_pictures(r.stdout, (10, 20))
    assert 6 <= sent <= 12, sent
    assert picture.getchannel("A").getextrema() == (255, 255), "a part of the map has no picture"
    # Sixel's 252 colours are dithered (Bayer 4 x 4): compared a braille dot (5 x 5 pixels) at a time.
    worst, counted = dots_against_tiles(picture.resize((COLS * 2, MAP_ROWS * 4), Image.BOX).tobytes())
    assert counted > 5000 and worst <= 10, (counted, worst)
    # The text that stood on the pictures, written again after them (place names); never half blocks.
    after = r.stdout.rsplit(b"\x1b\\", 1)[1].decode()
    assert re.search(r"[A-Z][a-z]{3}", after) and "▀" not in r.stdout.decode(), after[-200:]
    return "%d chunks, %d bytes; %d dots (5 x 5 pixels each), worst ΔE %.2f within one dot" % (
        sent, len(r.stdout), counted, worst)


def converse(session, kitty, until, seconds=4, attributes=b"\x1b[?62;22c"):
    """What the viewer writes until `until` is in it (or `seconds` pass), answering as a terminal does:
    device attributes always (`attributes`), kitty's question when `kitty`."""
    start, out, seen = time.time(), b"", None
    while time.time() - start < seconds:
        # Once it came, quiet for 1 s: the frame after it (tiles arriving, a picture) is made and written.
        if not select.select([session.fd], [], [], 0.2 if seen is None else 1.0)[0]:
            if seen is not None:
                break
            continue
        data = os.read(session.fd, 1 << 16)
        if kitty and b"\x1b_Gi=31," in data:
            os.write(session.fd, b"\x1b_Gi=31;OK\x1b\\")
        for _ in range(data.count(b"\x1b[c")):
            os.write(session.fd, attributes)
        out += data
        if seen is None and until in out:
            seen = time.time() - start
    return out, seen


@check("the viewer asks the terminal: one that answers kitty's question gets the picture, and a pan sends only the chunks that came into view; one whose device attributes say sixel gets sixel; one that answers neither gets half blocks, within the start-up budget")
def _():
    tiles = os.path.join(WORK, "checker.pmtiles")
    argv = [BINARY, "--tiles", tiles, "--center", "60,25", "--zoom", "6", "--no-animation"]
    session = harness.PtySession(argv, COLS, ROWS)
    out, _ = converse(session, True, b"zoom 6")
    assert b"\x1b_Gi=31," in out, "the kitty question was not asked"
    assert "▀" not in out.decode("utf-8", "replace"), "half blocks drawn under the picture"
    terminal = KittyTerminal()
    terminal.feed(out)
    before, first_sent = terminal.picture(COLS, MAP_ROWS), terminal.sent
    view_bytes = sum(len(m) for m in re.findall(rb"\x1b_G[^\x1b]*\x1b\\", out))
    os.write(session.fd, b"h")  # pan left a quarter view: 20 columns
    out, _ = converse(session, True, b"pan to")
    session.quit()
    terminal.feed(out)
    after = terminal.picture(COLS, MAP_ROWS)
    pan_bytes = sum(len(m) for m in re.findall(rb"\x1b_G[^\x1b]*\x1b\\", out))
    # What the view kept is the same picture, moved 20 columns (40 pixels) right, pixel for pixel.
    kept = before.crop((0, 0, (COLS - 20) * 2, MAP_ROWS * 4))
    assert after.crop((40, 0, COLS * 2, MAP_ROWS * 4)).tobytes() == kept.tobytes(), "the kept part moved wrong"
    assert after.getchannel("A").getextrema() == (255, 255), "a part of the view has no picture"
    assert pan_bytes * 2 < view_bytes, (pan_bytes, view_bytes)
    # A terminal whose device attributes say sixel (4) and whose size says 10 x 20 pixels a cell.
    sixel = harness.PtySession(argv, COLS, ROWS, cell_pixels=(10, 20))
    out, _ = converse(sixel, False, b"\x1bP", attributes=b"\x1b[?62;4;22c")
    sixel.quit()
    picture, sixel_sent = sixel_pictures(out, (10, 20))
    assert sixel_sent >= 6 and picture.getchannel("A").getextrema() == (255, 255), sixel_sent
    assert "▀" not in out.decode("utf-8", "replace"), "half blocks drawn under the sixel picture"
    half_blocks = harness.PtySession(argv, COLS, ROWS)
    out, first_frame = converse(half_blocks, False, b"zoom 6")
    half_blocks.quit()
    assert b"\x1b_Gi=31," in out and b"a=t" not in out and "▀" in out.decode("utf-8", "replace"), out[-300:]
    assert first_frame < 1.0, first_frame
    return ("kitty: %d chunks, %d bytes; a 20-column pan: %d new chunks, %d bytes; sixel: %d chunks; neither: half "
            "blocks after %.2f s") % (first_sent, view_bytes, terminal.sent - first_sent, pan_bytes, sixel_sent,
                                      first_frame)


def write_bad_tiles(path):
    """An MBTiles of PNG tiles at zoom 6 around the checker's centre, five of them hostile."""
    good_dir = os.path.join(WORK, "checker", "6")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
    db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
    db.executemany("INSERT INTO metadata VALUES (?, ?)",
                   [("name", "bad"), ("format", "png"), ("minzoom", "6"), ("maxzoom", "6")])
    tiles = sorted((int(x), int(f[:-4])) for x in os.listdir(good_dir) for f in os.listdir(os.path.join(good_dir, x)))
    good = open(os.path.join(good_dir, str(tiles[0][0]), "%d.png" % tiles[0][1]), "rb").read()
    import io
    import struct
    import zlib
    jpeg = io.BytesIO()
    Image.new("RGB", (100, 60), (10, 200, 10)).save(jpeg, "JPEG")
    big = io.BytesIO()
    Image.new("RGB", (512, 512), (10, 10, 200)).save(big, "PNG")
    ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, 6, 0, 0, 0)
    bomb = (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr
            + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF))
    hostile = [good[:len(good) // 2], jpeg.getvalue(), b"RIFF\x10\x00\x00\x00WEBPVP8 " + os.urandom(64), bomb,
               big.getvalue()]
    for k, (x, y) in enumerate(tiles):
        data = hostile[k] if k < len(hostile) else open(os.path.join(good_dir, str(x), "%d.png" % y), "rb").read()
        db.execute("INSERT INTO tiles VALUES (6, ?, ?, ?)", (x, (1 << 6) - 1 - y, data))
    db.commit()
    db.close()
    return len(tiles), len(hostile)


@check("bad tiles (cut PNG, JPEG of the wrong size, WebP of noise, a 100000×100000 PNG header, 512-pixel tile): skipped and counted")
def _():
    path = os.path.join(WORK, "bad.mbtiles")
    total, bad = write_bad_tiles(path)
    args = ["render", "--tiles", path, "--center", "60,25", "--zoom", "4", "--size", "200x60", "--json"]
    r = run(*args)
    assert r.returncode == 0, r.stderr.decode()
    imagery = [s for s in json.loads(r.stdout)["sources"] if s["kind"] == "imagery"][0]
    assert imagery["failed"] == bad, imagery
    memory = subprocess.run(["/usr/bin/time", "-f", "%M", BINARY, *args], capture_output=True, text=True,
                            env=dict(os.environ, XDG_DATA_HOME=EMPTY, XDG_CONFIG_HOME=EMPTY))
    kib = int(memory.stderr.strip().split("\n")[-1])
    assert kib < 400 * 1024, kib
    return "%d of %d tiles skipped (status %s); peak %d MiB" % (imagery["failed"], total, imagery["status"], kib // 1024)


@check("I hides and shows the imagery in the viewer (tmux)")
def _():
    tiles = os.path.join(WORK, "checker.pmtiles")
    s = harness.Session(tmux, BINARY, f"--tiles {tiles} --center 60,25 --zoom 6", cols=COLS, rows=ROWS,
                        env=f"TERM=xterm-256color LANG=C.UTF-8 COLORTERM=truecolor XDG_DATA_HOME={EMPTY} "
                        f"XDG_CONFIG_HOME={EMPTY}")
    s.wait_for(lambda t: "zoom 6" in t)
    # The tiles load in the background: the picture comes within a few frames.
    for _ in range(50):
        if "48;2;" in s.screen(colours=True):
            break
        time.sleep(0.1)
    assert "48;2;" in s.screen(colours=True), "no 24-bit backgrounds"
    s.keys("I")
    s.wait_for(lambda t: "imagery checker off" in t)
    assert "48;2;" not in s.screen(colours=True), "imagery still drawn"
    s.keys("I")
    s.wait_for(lambda t: "imagery checker on" in t)
    s.keys("q")
    assert s.exit_status() == 0
    return "on → off → on"


@check("data import-raster: a GeoTIFF through gdal2tiles into NAME.pmtiles, drawn from the data folder; bad input in one line")
def _():
    data = os.path.join(WORK, "imports")
    os.makedirs(data, exist_ok=True)
    picture = os.path.join(WORK, "gradient.png")
    img = Image.new("RGB", (600, 400))
    img.putdata([(x * 255 // 600, y * 255 // 400, 128) for y in range(400) for x in range(600)])
    img.save(picture)
    tif = os.path.join(WORK, "gradient.tif")
    subprocess.run(["gdal_translate", "-q", "-of", "GTiff", "-a_srs", "EPSG:4326", "-a_ullr", "24.8", "60.25",
                    "25.1", "60.1", picture, tif], check=True)
    r = run("data", "import-raster", tif, "--data", data, "--zooms", "8-12")
    said = r.stdout.decode()
    assert r.returncode == 0 and "34 tiles, zooms 8-12" in said, (r.returncode, said, r.stderr.decode())
    with open(os.path.join(data, "gradient.pmtiles"), "rb") as f:
        assert f.read(127)[99] == 2
    args = ["render", "--data", data, "--center", "60.17,24.95", "--zoom", "11", "--size", "%dx%d" % (COLS, ROWS)]
    doc = json.loads(run(*args, "--json").stdout)
    imagery = [s for s in doc["sources"] if s["kind"] == "imagery"]
    assert imagery and imagery[0]["name"] == "gradient" and imagery[0]["status"] == "ok", imagery
    cells = len(halves(run(*args, "--color", "truecolor").stdout))
    assert cells > 1000, cells
    # A picture without a place, no such file, no gdal2tiles: one line each, exit 1.
    bad = run("data", "import-raster", picture, "--data", data)
    assert bad.returncode == 1 and "has no coordinate system or place" in bad.stderr.decode(), bad.stderr
    missing = run("data", "import-raster", os.path.join(WORK, "none.tif"), "--data", data)
    assert missing.returncode == 1 and missing.stderr.decode().strip().endswith("no such file"), missing.stderr
    nogdal = run("data", "import-raster", tif, "--data", data, env={"PATH": "/nonexistent"})
    assert nogdal.returncode == 1 and "gdal2tiles" in nogdal.stderr.decode(), nogdal.stderr
    for r in (bad, missing, nogdal):
        assert len(r.stderr.decode().strip().split("\n")) == 1, r.stderr
    return "34 tiles, %d cells drawn; %s" % (cells, bad.stderr.decode().strip()[-80:])


@check("over HTTP (nginx on 127.0.0.1): a {z}/{x}/{y}.png template and a TileJSON of format png draw, the User-Agent names termmap, and the disk cache draws them offline")
def _():
    from nginx import Nginx
    server = Nginx(os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "tiles"), [],
                   locations="        location /checker/ { expires 1h; }",
                   log_format="$request_method $uri|$status|$http_user_agent")
    try:
        www = os.path.join(server.dir, "www")
        subprocess.run(["cp", "-r", os.path.join(WORK, "checker"), www], check=True)
        with open(os.path.join(www, "checker.json"), "w") as f:
            json.dump({"tilejson": "3.0.0", "format": "png", "minzoom": 0, "maxzoom": 6,
                       "tiles": [server.url("checker/{z}/{x}/{y}.png")], "bounds": [20, 55, 30, 65]}, f)
        subprocess.run(["chmod", "-R", "a+rX", www], check=True)
        cache = os.path.join(WORK, "cache")
        args = ["--center", "60,25", "--zoom", "6", "--size", "%dx%d" % (COLS, ROWS), "--color", "truecolor"]
        env = {"XDG_CACHE_HOME": cache}
        drawn = {}
        for name, location in (("template", server.url("checker/{z}/{x}/{y}.png")),
                               ("TileJSON", server.url("checker.json"))):
            r = run("render", "--tiles", location, *args, env=env)
            assert r.returncode == 0, r.stderr.decode()
            drawn[name] = len(halves(r.stdout))
            assert drawn[name] > 1000, (name, drawn[name])
        agents = {entry[2] for entry in server.access_log() if entry[0].startswith("GET /checker/")}
        assert agents and all(re.fullmatch(r"termmap/\d+\.\d+\.\d+", a) for a in agents), agents
        # data get keeps an area of it as a raster .pmtiles (PMTiles tile type 2: PNG).
        data = os.path.join(WORK, "data")
        os.makedirs(data, exist_ok=True)
        r = run("data", "get", "area", "--bbox", "24,59,26,61", "--zooms", "0-6", "--from",
                server.url("checker/{z}/{x}/{y}.png"), "--data", data, env=env)
        assert r.returncode == 0, r.stderr.decode()
        kept = os.path.join(data, "area.pmtiles")
        with open(kept, "rb") as f:
            header = f.read(127)
        assert header[99] == 2, header[99]
        server.stop(keep=True)
        r = run("render", "--tiles", server.url("checker/{z}/{x}/{y}.png"), *args, env=env)
        offline = len(halves(r.stdout))
        assert r.returncode == 0 and offline == drawn["template"], (r.returncode, offline, r.stderr.decode())
        r = run("render", "--tiles", kept, *args)
        area = len(halves(r.stdout))
        assert r.returncode == 0 and area > 500, (area, r.stderr.decode())
        return ("%d cells over HTTP, %d from the disk cache with nginx stopped, %d from data get's raster "
                ".pmtiles; User-Agent %s") % (drawn["template"], offline, area, agents.pop())
    finally:
        server.stop()


if __name__ == "__main__":
    try:
        check.report("imagery e2e")
    finally:
        subprocess.run(["rm", "-rf", WORK])
