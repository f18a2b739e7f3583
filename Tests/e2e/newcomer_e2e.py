#!/usr/bin/env python3
"""End-to-end tests of a newcomer's first ten minutes in the real binary (tmux for the viewer, `render`
for the rest): the views explain themselves, the messages help.

    python3 Tests/e2e/newcomer_e2e.py .build/debug/termmap

Prints one line per check and a closing 'N passed, N failed' line.
"""
import os
import re
import subprocess
import sys

import harness
from harness import Checks, Tmux

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
tmux = Tmux("termmap-newcomer-e2e")
check = Checks(tmux)
NO_STREET_DATA = "no street data here: termmap --tiles openfreemap, or termmap data get"


def Session(args="", cols=120, rows=40):
    return harness.Session(tmux, BINARY, args, cols, rows)


def message(s):
    return s.lines()[-1]


@check("Paris at zoom 16 says how to get street data at once; the next key's own message replaces it")
def _():
    s = Session("--center 48.8584,2.2945 --zoom 16 --no-animation")
    s.wait_for(lambda t: NO_STREET_DATA in t)
    s.keys("l")
    s.wait_for(lambda t: "pan to" in t.splitlines()[-1])
    assert NO_STREET_DATA not in s.screen()
    s.close()


@check("panning east out of the demo city says `no street data beyond here` within 9 screens, over the pans' own message")
def _():
    s = Session("--center 60.1699,24.9384 --zoom 16 --no-animation")
    seen = []
    for screens in range(1, 10):
        s.keys("L")
        line = s.wait_for(lambda t: "pan to" in t.splitlines()[-1] or "street data" in t.splitlines()[-1])
        seen.append(line.splitlines()[-1].strip())
        if "no street data beyond here" in seen[-1]:
            break
    s.close()
    assert "no street data beyond here" in seen[-1], seen
    return f"after {screens} screens"


@check("a misspelt option, command or help topic gets the nearest: --colour, --centre, rendr, help mann")
def _():
    said = []
    for args, nearest, status in [(["--colour", "never"], "'--color'", 2), (["--centre", "1,2"], "'--center'", 2),
                                  (["rendr"], "'render'", 1), (["help", "mann"], "'man'", 2)]:
        r = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=30)
        assert r.returncode == status and f"(did you mean {nearest}?)" in r.stderr, (args, r.returncode, r.stderr)
        assert len(r.stderr.splitlines()) == 1, r.stderr
        said.append(r.stderr.strip())
    return said[0]


@check("g Helsinki goes where /Helsinki goes (a place's name, as --center takes it)")
def _():
    s = Session("--no-animation")
    s.keys("g")
    s.literal("Helsinki")
    s.keys("Enter")
    by_name = s.wait_for(lambda t: "Helsinki, FI" in t)
    status = by_name.splitlines()[-2]
    s.close()
    t = Session("--no-animation")
    t.keys("/")
    t.literal("Helsinki")
    t.keys("Enter")
    searched = t.wait_for(lambda t: "Helsinki, FI" in t).splitlines()[-2]
    t.close()
    assert status.split("│")[:2] == searched.split("│")[:2], (status, searched)
    return status.split("│")[0].strip()


@check("a zoom's message gives the widths the status line gives (the world at zoom 0, and zoom 3 → 4.32)")
def _():
    said = []
    for args in (["--zoom", "0", "--keys", "-"], ["--zoom", "3", "--keys", "+"], ["--zoom", "1", "--keys", "+"]):
        before = subprocess.run([BINARY, "render", "--size", "100x30", args[0], args[1]], capture_output=True,
                                text=True, timeout=30).stdout.splitlines()
        after = subprocess.run([BINARY, "render", "--size", "100x30", *args], capture_output=True, text=True,
                               timeout=30).stdout.splitlines()
        width = lambda status: status.split("│")[2].split("×")[0].strip()
        m = re.search(r": (\S+ k?m) → (\S+ k?m) wide", after[-1])
        assert m, after[-1]
        assert (m.group(1), m.group(2)) == (width(before[-2]), width(after[-2])), (after[-1], before[-2], after[-2])
        said.append(after[-1].split("  ")[0])
    return said[0]


@check("panning north at zoom 3 stops with the world's edge at the screen's top: no blank band above the Arctic")
def _():
    s = Session("--center 70,0 --zoom 3 --no-animation", cols=100, rows=30)
    for _ in range(4):
        s.keys("K")
    screen = s.wait_for(lambda t: "zoom 3.00" in t and "pan to" in t)
    lines = screen.splitlines()
    s.close()
    blank = [i for i, line in enumerate(lines[:27]) if not line.strip()]
    assert not blank, f"blank rows {blank}: {lines[:3]}"
    return lines[-2].split("│")[0].strip()


if __name__ == "__main__":
    check.report("newcomer e2e")
