#!/usr/bin/env python3
"""Instructions (callgrind) per `termmap render` and per termmap-bench frame, scene by scene, for one
release build or two side by side: counts, not seconds, so two builds compare on a busy machine.

    python3 Tools/instructions.py BIN_DIR [AGAINST_BIN_DIR] [--scene TEXT]

BIN_DIR holds a release `termmap` and `termmap-bench` (`swift build -c release`, then
`swift build -c release --show-bin-path`). A render is the whole process at 200x60 in 256 colours;
a frame is the difference between two bench runs (30 and 10 frames a size, 200x60 and 400x120),
divided by the 40 frames between them, so that loading and warming up cancel out.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TILES = os.path.join(ROOT, "Tests/MapDataTests/Fixtures/tiles/helsinki-omt.pmtiles")

# The bench's scenes (Sources/termmap-bench/main.swift): name, centre, zoom, circle metres, tiles.
SCENES = [
    ("world z0", "0,0", 0, None, False),
    ("Europe z4", "50,10", 4, None, False),
    ("Norwegian coast z7", "62.5,6.5", 7, None, False),
    ("San Francisco z12 + 5 km circle", "37.7749,-122.4194", 12, 5000, False),
    ("Georgia Tech z14", "33.777328,-84.397348", 14, None, False),
    ("open Pacific z10", "0,-140", 10, None, False),
    ("Pitcairn Island z14", "-25.066,-130.1", 14, None, False),
    ("Fiji antimeridian z6", "-17.7,179.5", 6, None, False),
    ("Helsinki demo city z14", "60.16878,24.94164", 14, None, False),
    ("Helsinki demo city z16", "60.16878,24.94164", 16, None, False),
    ("Helsinki demo city z18", "60.16878,24.94164", 18, None, False),
    ("Helsinki .pmtiles z14", "60.1690,24.9420", 14, None, True),
    ("Helsinki .pmtiles z17", "60.1690,24.9420", 17, None, True),
]


def instructions(cmd):
    """Total instructions callgrind counts for `cmd` (every thread)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        # Swift seeds its hashing per process: a fixed seed makes the counts repeat run to run.
        env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + cmd,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        if run.returncode != 0:
            sys.exit(f"instructions: {' '.join(cmd)} failed:\n{run.stderr[-2000:]}")
        match = re.search(r"Collected : (\d+)", run.stderr)
        if not match:
            sys.exit(f"instructions: no count from callgrind for {' '.join(cmd)}")
        return int(match.group(1))


def stripped(bin_dir, product, into):
    """A copy of `product` without debug information (valgrind 3.19 cannot read Swift's DWARF 5)."""
    folder = os.path.join(into, str(abs(hash(bin_dir))))
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, product)
    subprocess.run(["strip", "--strip-debug", "-o", path, os.path.join(bin_dir, product)], check=True)
    return path


def measure(bin_dir, scene, scratch):
    name, center, zoom, circle, tiles = scene
    render = [stripped(bin_dir, "termmap", scratch), "render", "--size", "200x60", "--color", "256",
              "--center", center, "--zoom", str(zoom)]
    # The bundled data beside the source tree, whichever build this is.
    render += ["--data", os.path.join(ROOT, "assets")]
    if circle:
        render += ["--circle", "--radius", str(circle)]
    if tiles:
        render += ["--tiles", TILES]
    bench = [stripped(bin_dir, "termmap-bench", scratch), "--scene", name, "--frames"]
    r = instructions(render)
    few = instructions(bench + ["10"])
    many = instructions(bench + ["30"])
    return r, (many - few) / 40


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("against", nargs="?")
    parser.add_argument("--scene", help="only scenes whose name contains this text")
    args = parser.parse_args()
    builds = [args.build] + ([args.against] if args.against else [])
    scenes = [s for s in SCENES if not args.scene or args.scene in s[0]]
    head = "| scene | render, M | frame, M |" if len(builds) == 1 else \
        "| scene | render, M | against, M | ratio | frame, M | against, M | ratio |"
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    for scene in scenes:
        with tempfile.TemporaryDirectory() as scratch:
            figures = [measure(os.path.abspath(b), scene, scratch) for b in builds]
        if len(builds) == 1:
            (r, f), = figures
            print(f"| {scene[0]} | {r / 1e6:.1f} | {f / 1e6:.2f} |", flush=True)
        else:
            (r, f), (r0, f0) = figures
            print(f"| {scene[0]} | {r / 1e6:.1f} | {r0 / 1e6:.1f} | {r / r0:.3f} | {f / 1e6:.2f} | "
                  f"{f0 / 1e6:.2f} | {f / f0:.3f} |", flush=True)


if __name__ == "__main__":
    main()
