#!/usr/bin/env python3
"""Bytes the interactive viewer sends to a 200x60 xterm-256color pty for one pan step in each
direction and a zoom step, each against a full repaint (Ctrl-L) of the view it arrived at, over
several scenes.

    python3 Tools/pty_bytes.py .build/release/termmap
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "e2e"))
from harness import PtySession  # noqa: E402

binary = sys.argv[1]
scenes = [("world z0", "0,0", "0"), ("Europe z5", "50,10", "5"), ("Norway z7", "62.5,6.5", "7"),
          ("SF z12", "37.7749,-122.4194", "12"), ("GT z14", "33.777328,-84.397348", "14"),
          ("Fiji z6", "-17.7,179.5", "6")]
steps = [("down", "j"), ("up", "k"), ("right", "l"), ("left", "h"), ("zoom", "+")]


def run(center, zoom):
    """For each step: (bytes of the step, bytes of a repaint of the view it arrived at)."""
    session = PtySession([binary, "--no-animation", "--center", center, "--zoom", zoom], cols=200, rows=60)
    session.send(None, 1.5)
    out = [(session.send(key), session.send("\x0c")) for _, key in steps]
    session.quit()
    return out


print("bytes of a step / bytes of a repaint of the same view (Ctrl-L), 200x60 xterm-256color")
print(f"{'scene':10} " + " ".join(f"{name:>19}" for name, _ in steps))
for name, c, z in scenes:
    cells = [f"{s:6}/{f:6} {100 * s / f:5.1f}%" for s, f in run(c, z)]
    print(f"{name:10} " + " ".join(cells))
