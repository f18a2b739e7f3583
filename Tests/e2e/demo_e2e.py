#!/usr/bin/env python3
"""End-to-end tests of the presenter's tools: tours in a real terminal (tmux), recordings replayed in
a terminal emulator.

    python3 Tests/e2e/demo_e2e.py .build/debug/termmap

Prints one line per check and a closing 'N passed, N failed' line.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import harness
from emulator import Terminal
from harness import Checks, Tmux

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
tmux = Tmux("termmap-demo-e2e")
check = Checks(tmux)
WORK = tempfile.mkdtemp(prefix="termmap-demo-")
THREE = "# three steps\n+\t2.5\tfirst: zoom in\n-\t2.5\tsecond: zoom out\nz5<Enter>\t2.5\tthird: level five\n"


def Session(args="", cols=100, rows=30):
    return harness.Session(tmux, BINARY, args, cols, rows)


def path(name, text=None):
    p = os.path.join(WORK, name)
    if text is not None:
        with open(p, "w") as f:
            f.write(text)
    return p


def read_cast(p):
    """The header and the events of an asciicast v2 file (every line must be JSON)."""
    with open(p, encoding="utf-8") as f:
        lines = f.read().split("\n")
    assert lines[-1] == "", "the file ends with a whole line"
    header = json.loads(lines[0])
    events = [json.loads(line) for line in lines[1:-1]]
    assert header["version"] == 2 and header["width"] > 0 and header["height"] > 0, header
    assert set(header["env"]) == {"TERM", "SHELL"}, header
    times = [e[0] for e in events]
    assert all(e[1] == "o" and isinstance(e[2], str) for e in events)
    assert times == sorted(times), "timestamps never go back"
    return header, events


def replay(header, events, upto=None):
    """What a terminal shows after the events (all, or those before index `upto`)."""
    t = Terminal(header["width"], header["height"])
    for e in events[:upto]:
        t.feed(e[2].encode())
    return t.text()


def rendered(*args, size="100x30"):
    """termmap render's screen (256 colours, escapes taken out), one string a row."""
    out = subprocess.run([BINARY, "render", "--size", size, "--color", "256", *args], capture_output=True,
                         text=True, check=True).stdout
    return [line.rstrip() for line in re.sub(r"\x1b\[[0-9;]*m", "", out).rstrip("\n").split("\n")]


def differing(a, b):
    return [i for i, (x, y) in enumerate(zip(a, b)) if x != y] + ([-1] if len(a) != len(b) else [])


def assert_same(shown, expected, what):
    wrong = differing(shown, expected)
    assert not wrong, f"rows differ from {what}: {wrong[:8]}"


@check("a three-step tour file plays its captions and zooms in tmux; a key pauses it (and does nothing else), t resumes")
def _():
    tour = path("three.tour", THREE)
    s = Session(f"--tour {tour} --zoom 3 --no-animation")
    s.wait_for(lambda t: "first: zoom in" in t)
    assert s.zoom() == 4.32, s.zoom()
    assert "tour 1/3" in s.screen()
    s.keys("l")
    screen = s.wait_for(lambda t: "tour paused" in t)
    assert "tour 1/3 paused" in screen and s.center() == "0.00000°N 0.00000°E", screen[-300:]
    time.sleep(2.0)
    assert "second" not in s.screen() and s.zoom() == 4.32, "a paused tour stays"
    s.keys("t")
    s.wait_for(lambda t: "second: zoom out" in t, 6)
    screen = s.wait_for(lambda t: "third: level five" in t, 6)
    assert s.zoom() == 5.00, s.zoom()
    screen = s.wait_for(lambda t: "tour over" in t, 6)
    assert "tour over" in screen, screen[-200:]
    s.keys("q")
    assert s.exit_status() == 0
    s.close()
    return "captions 1→2→3, paused on l, resumed on t"


@check("--kiosk --tour-after 2 starts the tour after two quiet seconds and loops it; a key hands over control")
def _():
    tour = path("three.tour", THREE)
    s = Session(f"--kiosk --tour {tour} --tour-after 2 --zoom 3 --no-animation")
    assert "demo: +/- zoom" in s.screen(), s.screen()[-300:]
    s.wait_for(lambda t: "first: zoom in" in t, 6)
    s.wait_for(lambda t: "third: level five" in t, 10)
    screen = s.wait_for(lambda t: "first: zoom in" in t, 6)
    assert "first: zoom in" in screen and "tour 1/3" in screen, "looped: " + screen[-200:]
    s.keys("h")
    assert "tour paused" in s.wait_for(lambda t: "tour paused" in t)
    s.keys("q")
    s.close()


@check("a bad tour file: one line naming the file and the line, exit 2, before the screen opens")
def _():
    bad = path("bad.tour", "+\t1\tfine\nno tab on this line\n")
    for argv in ([BINARY, "--tour", bad], [BINARY, "render", "--tour", bad]):
        r = subprocess.run(argv, capture_output=True, text=True, timeout=20)
        assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stdout[:100])
        assert r.stderr == f"termmap: tour '{bad}' line 2: expected KEYS<TAB>SECONDS<TAB>CAPTION, found no tab\n", r.stderr
    r = subprocess.run(["script", "-qec", f"{BINARY} --tour {bad}", "/dev/null"], capture_output=True, text=True,
                       timeout=20, env={**os.environ, "TERM": "xterm-256color"})
    assert "\x1b[?1049h" not in r.stdout, "the screen was opened"


@check("render --tour builtin --cast: valid asciicast v2, the same file twice, its last screen is render --tour's")
def _():
    a, b = path("a.cast"), path("b.cast")
    for p in (a, b):
        subprocess.run([BINARY, "render", "--tour", "builtin", "--size", "80x24", "--cast", p], check=True, timeout=120)
    assert open(a, "rb").read() == open(b, "rb").read(), "not deterministic"
    docs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "tour.cast")
    assert open(a, "rb").read() == open(docs, "rb").read(), "docs/tour.cast is not what the command makes now"
    header, events = read_cast(a)
    assert "timestamp" not in header and (header["width"], header["height"]) == (80, 24), header
    assert not any("\x1b[c" in e[2] or "\x1b[6n" in e[2] for e in events), "a terminal query in the recording"
    assert_same(replay(header, events), rendered("--tour", "builtin", size="80x24"), "render --tour")
    return f"{len(events)} events over {events[-1][0]:.1f} s, {os.path.getsize(a)} bytes"


@check("render --keys --cast: animation frames at their times, the last screen equals render --keys")
def _():
    p = path("keys.cast")
    keys = "+l+j-c"
    subprocess.run([BINARY, "render", "--center", "50,10", "--zoom", "4", "--keys", keys, "--cast", p], check=True)
    header, events = read_cast(p)
    gaps = [round(b[0] - a[0], 3) for a, b in zip(events, events[1:])]
    assert gaps.count(0.033) >= 8, gaps
    assert_same(replay(header, events), rendered("--center", "50,10", "--zoom", "4", "--keys", keys), "render --keys")
    return f"{len(events)} events, {gaps.count(0.033)} animation frames"


@check("--record: the cast replayed equals the screen tmux showed and termmap render (zoom and pans in every direction)")
def _():
    p = path("live.cast")
    args = "--center 50,10 --zoom 5 --no-animation"
    s = Session(f"--record {p} {args}")
    keys = "+lljhhk"
    for k in keys:
        s.keys(k, pause=0.3)
    time.sleep(0.4)
    shown = [line.rstrip() for line in s.lines()]
    s.keys("q")
    assert s.exit_status() == 0
    # tmux reads the last bytes on its own time: wait for it, at most 3 s.
    for _ in range(60):
        flags = s.flags()
        if not flags["alternate"] and flags["cursor"]:
            break
        time.sleep(0.05)
    assert not flags["alternate"] and flags["cursor"], f"terminal not restored: {flags}"
    s.close()
    header, events = read_cast(p)
    assert header["env"]["TERM"] == "xterm-256color" and isinstance(header.get("timestamp"), int), header
    assert not any("\x1b[c" in e[2] for e in events), "a device attributes query in the recording"
    # The last event leaves the alternate screen: the map is the screen before it.
    screen = replay(header, events, upto=-1)
    assert_same(screen, shown, "tmux's screen")
    assert_same(screen, rendered(*args.split()[:4], "--keys", keys), "render")
    return f"{len(events)} events, {os.path.getsize(p)} bytes"


@check("--record: a SIGHUP mid-recording leaves a valid file; the recording follows a resize")
def _():
    p = path("hup.cast")
    s = Session(f"--record {p} --zoom 2 --no-animation", cols=100, rows=30)
    s.keys("+")
    tmux("resize-window", "-t", "m", "-x", "80", "-y", "24")
    s.wait_for(lambda t: len(t.rstrip("\n").split("\n")) == 24 and "zoom 3.32" in t)
    s.keys("l", pause=0.5)
    os.kill(s.pid(), signal.SIGHUP)
    status = s.exit_status()
    s.close()
    assert status is not None, "still running after SIGHUP"
    header, events = read_cast(p)
    # Replayed on the first size, the frames after the resize put the status line on row 23 of 24.
    screen = replay(header, events)
    assert "zoom 3.32" in screen[22] and "°E" in screen[22], screen[20:24]
    return f"exit {status}, {len(events)} whole events"


if __name__ == "__main__":
    try:
        check.report("demo e2e")
    finally:
        subprocess.run(["rm", "-rf", WORK])
