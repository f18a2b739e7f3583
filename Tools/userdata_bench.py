#!/usr/bin/env python3
"""Figures for the user's own files (make bench-userdata): generates a 100 MB GeoJSON (about 2.5 million
vertices), a 50 MB GPX and a 1-million-row CSV in a temporary folder, then times, side by side in one
run, the time to termmap's first complete frame (`termmap render --size 200x60 FILE`) and its peak
memory against `ogr2ogr -f GeoJSONSeq /dev/null FILE` on the same file (median of 3 runs each), and
the steady frame times of termmap-bench --user-file at zooms 0, 8 and 14; and gj2ascii (PyPI) on the
GeoJSON and the GPX when it is installed (GJ2ASCII names its script).

    python3 Tools/userdata_bench.py .build/release/termmap .build/release/termmap-bench
"""
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

TERMMAP, BENCH = (os.path.abspath(a) for a in sys.argv[1:3])
WORK = tempfile.mkdtemp(prefix="termmap-userdata-bench-")


def geojson(path, target_bytes=100 << 20):
    """Random walks (lines of 200 vertices) and a few polygons until the file is target_bytes."""
    rnd = random.Random(1)
    vertices = 0
    with open(path, "w") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        first = True
        k = 0
        while f.tell() < target_bytes:
            lon, lat = rnd.uniform(-170, 170), rnd.uniform(-70, 70)
            line = []
            for _ in range(200):
                line.append([round(lon, 6), round(lat, 6)])
                lon = max(-179.9, min(179.9, lon + rnd.uniform(-0.05, 0.05)))
                lat = max(-85, min(85, lat + rnd.uniform(-0.05, 0.05)))
            vertices += len(line)
            feature = {"type": "Feature", "properties": {"name": f"walk {k}", "k": k},
                       "geometry": {"type": "LineString", "coordinates": line}}
            f.write(("" if first else ",\n") + json.dumps(feature, separators=(",", ":")))
            first = False
            k += 1
        f.write("\n]}\n")
    return vertices


def gpx(path, target_bytes=50 << 20):
    rnd = random.Random(2)
    points = 0
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1">\n')
        t = 0
        while f.tell() < target_bytes:
            f.write("<trk><name>track</name><trkseg>\n")
            lat, lon = rnd.uniform(-60, 60), rnd.uniform(-170, 170)
            for _ in range(5000):
                f.write(f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}"><ele>{rnd.uniform(0, 900):.1f}</ele>'
                        f'<time>2026-01-01T00:{t // 60 % 60:02d}:{t % 60:02d}Z</time></trkpt>\n')
                lat += rnd.uniform(-0.0005, 0.0005)
                lon += rnd.uniform(-0.0005, 0.0005)
                t += 1
                points += 1
            f.write("</trkseg></trk>\n")
        f.write("</gpx>\n")
    return points


def csv(path, rows=1_000_000):
    rnd = random.Random(3)
    with open(path, "w") as f:
        f.write("id,name,lat,lon,value\n")
        for i in range(rows):
            f.write(f'{i},"place {i}",{rnd.uniform(-80, 80):.6f},{rnd.uniform(-180, 180):.6f},{rnd.randint(0, 9999)}\n')
    return rows


def timed(argv):
    """Wall seconds and the child's peak RSS in MB (ru_maxrss of a fresh child: one run a process)."""
    pid = os.fork()
    if pid == 0:
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    t0 = time.perf_counter()
    _, status, usage = os.wait4(pid, 0)
    took = time.perf_counter() - t0
    assert os.waitstatus_to_exitcode(status) == 0, (argv, status)
    return took, usage.ru_maxrss / 1024


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def main():
    files = []
    p = os.path.join(WORK, "walks.geojson")
    files.append((p, f"{geojson(p):,} vertices"))
    p = os.path.join(WORK, "tracks.gpx")
    files.append((p, f"{gpx(p):,} track points"))
    p = os.path.join(WORK, "places.csv")
    files.append((p, f"{csv(p):,} rows"))
    have_ogr = shutil.which("ogr2ogr") is not None
    print("| file | size | termmap: first frame | termmap: peak memory | ogr2ogr GeoJSONSeq | ogr2ogr: peak memory | time ratio |")
    print("|---|---|---|---|---|---|---|")
    for path, what in files:
        size = os.path.getsize(path) / (1 << 20)
        ours = [timed([TERMMAP, "render", "--size", "200x60", "--color", "256", path]) for _ in range(3)]
        t, m = median([o[0] for o in ours]), median([o[1] for o in ours])
        if have_ogr:
            theirs = [timed(["ogr2ogr", "-f", "GeoJSONSeq", "/dev/null", path]) for _ in range(3)]
            ot, om = median([o[0] for o in theirs]), median([o[1] for o in theirs])
            print(f"| {os.path.basename(path)} ({what}) | {size:.0f} MB | {t:.2f} s | {m:.0f} MB | {ot:.2f} s | {om:.0f} MB | {t / ot:.2f}× |")
        else:
            print(f"| {os.path.basename(path)} ({what}) | {size:.0f} MB | {t:.2f} s | {m:.0f} MB | (no ogr2ogr) | | |")
        sys.stdout.flush()
    # gj2ascii (PyPI; GJ2ASCII=path to its script, with PYTHONPATH set for it), where it reads the file.
    gj = os.environ.get("GJ2ASCII") or shutil.which("gj2ascii")
    if gj:
        for path, what in files[:2]:
            try:
                t, m = timed([gj, "--width", "200", path])
                print(f"gj2ascii --width 200 {os.path.basename(path)} ({what}): {t:.2f} s, peak {m:.0f} MB")
            except AssertionError:
                print(f"gj2ascii --width 200 {os.path.basename(path)}: failed")
            sys.stdout.flush()
    for path, _ in files:
        out = subprocess.run([BENCH, "--frames", "300", "--user-file", path], capture_output=True, text=True)
        print(out.stdout.strip() or out.stderr.strip())
    shutil.rmtree(WORK)


if __name__ == "__main__":
    main()
