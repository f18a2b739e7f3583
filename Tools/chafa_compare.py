#!/usr/bin/env python3
"""termmap's half blocks against chafa's (Debian `chafa`, libchafa's command line), for issue 47's question
of what libchafa does better than termmap's own mapper: one view of xplanet-images' earth.jpg cut by
gdal2tiles (zoom 3 at 20°N 10°E, 100 × 28 map cells), each cell's mean colour (its two halves) against
Pillow's area-weighted mean of the same tile pixels (as `Tests/e2e/imagery_e2e.py` computes it), in
truecolour, 256 and 16 colours (16 over 2 × 2 cells, as dithering spreads a colour); chafa is given the
view's pixels cut from the same tiles, and only its half-block symbols (`--symbols vhalf`).

    PYTHONPATH=.pytest:Tests/e2e python3 Tools/chafa_compare.py .build/debug/termmap

Prints one line per run: cells compared, mean and p95 ΔE (CIE 1976), bytes.
"""
import math
import os
import re
import subprocess
import sys
BINARY_ARG = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap"
ROOT_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.argv = ["x", BINARY_ARG]
__file__ = os.path.join(ROOT_DIR, "Tests", "e2e", "imagery_e2e.py")
src = open(__file__).read().split("CHECKER = (60.0, 25.0)")[0]
src = src.replace('"checker", "stripes"]', '"earth"]').replace('+ (["earth"] if EARTH else [])', '')
exec(src)
from PIL import Image
COLS, ROWS, MAP_ROWS = 100, 30, 28
globals().update(COLS=COLS, ROWS=ROWS, MAP_ROWS=MAP_ROWS)
lat, lon, zoom = 20.0, 10.0, 3.0
t = expected_tile_zoom(zoom, 0, 3)
ref = reference(os.path.join(WORK, "earth"), lat, lon, zoom, t)   # COLS x MAP_ROWS*2 means
# the same view's pixels as an image for chafa: the mosaic crop at tile zoom t, the view's box
cx, cy = world_pixel(lat, lon, t)
per_dot = 2 ** (t - zoom)
x0, x1 = cx - COLS * per_dot, cx + COLS * per_dot
y0, y1 = cy - MAP_ROWS * 2 * per_dot, cy + MAP_ROWS * 2 * per_dot
tx0, tx1, ty0, ty1 = int(x0 // 256), int(x1 // 256), int(y0 // 256), int(y1 // 256)
mosaic = Image.new("RGBA", ((tx1 - tx0 + 1) * 256, (ty1 - ty0 + 1) * 256))
for tx in range(tx0, tx1 + 1):
    for ty in range(ty0, ty1 + 1):
        p = os.path.join(WORK, "earth", str(t), str(tx % (1 << t)), "%d.png" % ty)
        if os.path.exists(p): mosaic.paste(Image.open(p).convert("RGBA"), ((tx - tx0) * 256, (ty - ty0) * 256))
crop = mosaic.crop((round(x0 - tx0*256), round(y0 - ty0*256), round(x1 - tx0*256), round(y1 - ty0*256))).convert("RGB")
VIEW_PNG = os.path.join(WORK, "view.png")
crop.save(VIEW_PNG)
def cellmeans(halves_list):
    out = {}
    for col, row, u, l in halves_list:
        out[(col, row)] = (u, l)
    return out
def rgbof(c):
    return c[1] if c[0] == "rgb" else palette(c[1])
def score(name, output, block=1):
    cells_ = cells(output)[:MAP_ROWS]
    if len(cells_) < MAP_ROWS: print(name, "rows", len(cells_)); return
    errs = []
    # per cell mean (halves averaged) vs reference, averaged over block x block cells
    for r0 in range(0, MAP_ROWS - block + 1, block):
        for c0 in range(0, COLS - block + 1, block):
            got, want, ok = [0,0,0], [0,0,0], True
            for r in range(r0, r0+block):
                for c in range(c0, c0+block):
                    if c >= len(cells_[r]): ok = False; break
                    ch, fg, bg = cells_[r][c]
                    fgc = rgbof(fg) if fg else (0,0,0); bgc = rgbof(bg) if bg else (0,0,0)
                    if ch == "▀": u, l = fgc, bgc
                    elif ch == "▄": u, l = bgc, fgc
                    elif ch == "█": u, l = fgc, fgc
                    elif ch == " ": u, l = bgc, bgc
                    else: ok = False; break
                    for k in range(3): got[k] += (u[k] + l[k]) / 2
                    ru, rl = ref.getpixel((c, 2*r)), ref.getpixel((c, 2*r+1))
                    for k in range(3): want[k] += (ru[k] + rl[k]) / 2
            if ok:
                n = block*block
                errs.append(delta_e([g/n for g in got], [w/n for w in want]))
    errs.sort()
    print("%-34s cells %5d  mean dE %5.2f  p95 %5.2f  bytes %d" % (name, len(errs), sum(errs)/len(errs), errs[int(len(errs)*0.95)], len(output)))
mb = os.path.join(WORK, "earth.mbtiles")
for mode in ("truecolor", "256", "16"):
    r = run("render", "--tiles", mb, "--center", "%r,%r" % (lat, lon), "--zoom", str(zoom), "--size", "%dx%d" % (COLS, ROWS), "--color", mode)
    blk = 2 if mode == "16" else 1
    if r.returncode: print(r.stderr.decode()[:300])
    score("termmap " + mode + (" (2x2 cells)" if blk == 2 else ""), r.stdout, blk)
    cm = {"truecolor": "full", "256": "256", "16": "16"}[mode]
    for dither in ("none", "ordered", "diffusion"):
        if mode != "16" and dither != "none": continue
        ch = subprocess.run(["chafa", "--size", "%dx%d" % (COLS, MAP_ROWS), "--stretch", "--symbols", "vhalf", "--colors", cm, "--dither", dither, "--color-space", "din99d", "--animate", "off", "--polite", "on", VIEW_PNG], capture_output=True)
        score("chafa vhalf %s dither %s%s" % (cm, dither, " (2x2 cells)" if blk == 2 else ""), ch.stdout, blk)
import shutil; shutil.rmtree(WORK)
