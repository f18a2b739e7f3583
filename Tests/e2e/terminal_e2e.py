#!/usr/bin/env python3
"""End-to-end tests of the interactive viewer in a real terminal emulator (tmux).

    python3 Tests/e2e/terminal_e2e.py .build/debug/termmap

Each check drives the real binary with tmux send-keys and reads the screen with capture-pane
(-e for colours). Prints one line per check and a closing 'N passed, N failed' line.
"""
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import harness
from harness import Checks, PtySession, Tmux

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
GT = "33.777328,-84.397348"


def coloured_cells(text):
    """For each row of text with SGR escapes (tmux capture-pane -e, or termmap render --color 256), each
    character with its 256-colour foreground and background (None: the default). The colours carry
    over from one line to the next, as tmux writes them."""
    rows, fg, bg = [], None, None
    for line in text.rstrip("\n").split("\n"):
        cells, i = [], 0
        while i < len(line):
            m = re.match(r"\x1b\[([0-9;]*)m", line[i:])
            if m:
                params = [int(p) if p else 0 for p in m.group(1).split(";")]
                j = 0
                while j < len(params):
                    if params[j] == 0:
                        fg = bg = None
                    elif params[j] == 39:
                        fg = None
                    elif params[j] == 49:
                        bg = None
                    elif params[j] in (38, 48) and j + 2 < len(params) and params[j + 1] == 5:
                        if params[j] == 38:
                            fg = params[j + 2]
                        else:
                            bg = params[j + 2]
                        j += 2
                    j += 1
                i += m.end()
                continue
            cells.append((line[i], fg, bg))
            i += 1
        rows.append(cells)
    return rows


def glyphs_in(line, colour):
    """The characters other than blanks that `line` shows in the 256-colour foreground `colour`. A
    blank's foreground cannot be seen, and a terminal may keep an old one there."""
    return "".join(c for c, fg, _ in coloured_cells(line)[0] if c != " " and fg == colour)


tmux = Tmux("termmap-e2e")
check = Checks(tmux)


def Session(args="", cols=120, rows=40, env="TERM=xterm-256color LANG=C.UTF-8"):
    return harness.Session(tmux, BINARY, args, cols, rows, env)


@check("starts at 120x40 on the world at zoom 0.00; z 14 Enter sets zoom 14.00 at the center")
def _():
    s = Session(f"--center {GT}")
    assert len(s.lines()) >= 40, "screen height"
    assert "zoom 0.00" in s.screen(), s.screen()[-300:]
    assert re.search(r"[\u2801-\u28ff]", s.screen()), "no braille map on screen"
    s.keys("z", "1", "4", "Enter")
    s.wait_for(lambda t: "zoom 14.00" in t)
    assert s.zoom() == 14.00, s.zoom()
    assert s.center() == "33.77733°N 84.39735°W", s.center()
    s.close()


@check("/Helsinki then z 16 shows the bundled demo city: streets with names, credited to OpenStreetMap")
def _():
    s = Session()
    s.literal("/Helsinki")
    s.keys("Enter")
    s.wait_for(lambda t: "Helsinki, FI" in t)
    s.keys("z", "1", "6", "Enter")
    screen = s.wait_for(lambda t: "zoom 16.00" in t and "© OSM" in t)
    streets = sorted(set(re.findall(r"\w+(?:katu|tie|puisto|aukio)\b", screen)))
    assert len(streets) >= 2, f"street names on screen: {streets}"
    assert re.search(r"[\u2801-\u28ff]", screen), "no braille map on screen"
    s.close()
    return ", ".join(streets)


@check("p leaves the mouse to the terminal and takes it back (tmux's mouse flags); --no-mouse starts without it")
def _():
    def flags():
        return tmux("display-message", "-p", "-t", "m", "#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}").strip()
    s = Session("--center 20,10 --zoom 5 --no-animation", cols=100, rows=30)
    on = flags()
    s.keys("p")
    s.wait_for(lambda t: "mouse off" in t)
    off = flags()
    s.keys("p")
    s.wait_for(lambda t: "mouse on" in t)
    again = flags()
    s.close()
    t = Session("--center 20,10 --zoom 5 --no-mouse", cols=100, rows=30)
    time.sleep(0.3)
    started = flags()
    t.close()
    assert "1" in on and off == "000" and again == on and started == "000", (on, off, again, started)
    return f"flags {on} → {off} → {again}; --no-mouse {started}"


@check("a drag moves the map while the button is held: button-event tracking (mode 1002) on, not every motion")
def _():
    s = Session("--center 51,0 --zoom 6 --no-animation", cols=100, rows=30)
    button = tmux("display-message", "-p", "-t", "m", "#{mouse_button_flag}#{mouse_standard_flag}").strip()
    before = s.center()
    s.literal("\x1b[<0;60;10M")  # press, then motion with the button held (SGR: 32 + button)
    time.sleep(0.1)
    s.literal("\x1b[<32;55;10M")
    held = s.wait_for(lambda t: s.center() != before, 3) and s.center()
    s.literal("\x1b[<0;55;10m")
    s.keys("q")
    status = s.exit_status()
    off = tmux("display-message", "-p", "-t", "m", "#{mouse_any_flag}").strip()
    s.close()
    assert button == "10", f"tmux's mouse_button_flag, mouse_standard_flag: {button}"
    assert held and held != before, (before, held)
    assert status == 0 and off == "0", (status, off)
    return f"{before} → {held} before the release"


@check("Shift- and Ctrl-arrows pan a whole view, as L and K do: ESC [ 1 ; 2 C under screen-256color (its terminfo lacks it), tmux's C-Up under xterm-256color")
def _():
    out = []
    for term, send, letter in (("screen-256color", "\x1b[1;2C", "L"), ("xterm-256color", "C-Up", "K")):
        env = f"TERM={term} LANG=C.UTF-8"
        a = Session("--center 20,10 --zoom 5 --no-animation", cols=100, rows=30, env=env)
        if send.startswith("\x1b"):
            a.literal(send)
        else:
            a.keys(send)
        time.sleep(0.5)
        moved, screen = a.center(), a.screen()
        a.close()
        b = Session("--center 20,10 --zoom 5 --no-animation", cols=100, rows=30, env=env)
        b.keys(letter)
        time.sleep(0.5)
        expected = b.center()
        b.close()
        assert "no command on key" not in screen, screen[-200:]
        assert moved == expected and moved != "20.00000°N 10.00000°E", (term, moved, expected)
        out.append(f"{term}: {moved}")
    return "; ".join(out)


@check("i on Simonkatu names the way (way 30287785, pyosmium's) with its crosshair; a pan asks the next cell; Esc closes")
def _():
    # A point on Simonkatu from Tests/ViewerTests/Fixtures/info.json (Tools/make_info_fixtures.py).
    s = Session("--center 60.16903355,24.93599245 --zoom 17 --no-animation", cols=120, rows=40)
    s.keys("i")
    screen = s.wait_for(lambda t: "what is here" in t and "way 30287785" in t)
    assert "Simonkatu" in screen and "highway=tertiary" in screen, screen
    assert "60°10′8.52″N 24°56′9.57″E" in screen, screen
    centre = s.lines()[19]
    assert centre[60] == "┼", f"crosshair in the centre cell: {centre!r}"
    s.keys("l")
    s.wait_for(lambda t: "way 30287785" not in t or "24.936" not in t, 5)
    s.keys("Escape")
    gone = s.wait_for(lambda t: "what is here" not in t, 5)
    s.close()
    assert "┼" not in gone.splitlines()[19], "the crosshair goes with the panel"
    return "panel, crosshair, pan, Esc"


@check("mouse: a click right after a wheel zoom, its release mid-animation, ends where it said; a drag moves the map")
def _():
    s = Session("--center 51,0 --zoom 6", cols=100, rows=30)
    s.literal("\x1b[<64;50;15M")  # wheel up at column 50, row 15 (SGR, 1-based)
    s.wait_for(lambda t: "zoom in at pointer" in t)
    time.sleep(0.3)
    s.literal("\x1b[<0;70;10M")  # press …
    time.sleep(0.05)
    s.literal("\x1b[<0;70;10m")  # … and its release while the animation runs
    screen = s.wait_for(lambda t: (m := re.search(r"go to (\S+ \S+)", t)) is not None and s.center() == m.group(1), 5)
    target = re.search(r"go to (\S+ \S+)", screen)
    assert target and s.center() == target.group(1), f"status {s.center()} against {target and target.group(1)}"
    # A drag: press, move 10 columns left, release.
    before = s.center()
    s.literal("\x1b[<0;60;10M")
    s.literal("\x1b[<32;55;10M")
    s.literal("\x1b[<32;50;10M")
    s.literal("\x1b[<0;50;10m")
    moved = s.wait_for(lambda t: "drag to" in t, 5)
    after = s.center()
    s.close()
    assert "drag to" in moved and after != before, (before, after)
    return f"click ended at {target.group(1)}; drag {before} → {after}"


@check("+ raises the zoom by log2(2.5) and explains it; - lowers it by log2(3)")
def _():
    s = Session(f"--center {GT} --zoom 14 --no-animation")
    s.keys("+")
    z1 = s.zoom()
    assert abs(z1 - (14 + math.log2(2.5))) < 0.011, z1
    assert "zoom in ×0.4:" in s.screen() and "→" in s.screen(), s.lines()[-2]
    s.keys("-")
    z2 = s.zoom()
    assert abs((z1 - z2) - math.log2(3)) < 0.02, (z1, z2)
    assert "zoom out ×3:" in s.screen()
    s.close()


@check("animated zoom ends on the same level as without animation")
def _():
    s = Session(f"--center {GT} --zoom 14")
    s.keys("+", "+", pause=0.05)
    s.wait_for(lambda t: "zoom 16.64" in t, 3)
    assert s.zoom() == 16.64, s.zoom()
    s.close()


@check("c shades outside the circle (background colour), not inside; f puts the whole circle on screen")
def _():
    s = Session(f"--center {GT} --zoom 15 --no-animation")
    s.keys("c")
    rows = s.screen(colours=True).split("\n")
    # The shade is navy over the sea (17) and a lighter navy over land (18): Atlanta is land.
    shaded = lambda r: "48;5;17" in r or "48;5;18" in r
    assert any(shaded(r) for r in rows[:38]), "no shaded cells"
    # The centre cell of the map is inside the circle: the row's middle stretch has no shade.
    assert shaded(rows[0]), "top row should be outside"
    s.keys("f")
    col = s.screen(colours=True).split("\n")
    red_rows = [i for i, r in enumerate(col[:38]) if glyphs_in(r, 196)]
    assert red_rows, "no outline"
    assert 0 not in red_rows and 37 not in red_rows, f"outline touches the edge: rows {red_rows[:3]}…{red_rows[-3:]}"
    assert "fit circle" in s.screen()
    s.close()


@check("invalid prompt input shows an error and leaves the state")
def _():
    s = Session(f"--center {GT} --zoom 12 --no-animation")
    for text in ["abc", "-3", "1e999", "", "x" * 300]:
        s.keys("z")
        if text:
            s.literal(text)
        s.keys("Enter")
        assert s.zoom() == 12.0, (text, s.zoom())
        assert "view unchanged" in s.lines()[-1] or "too long" in s.screen(), (text, s.lines()[-1])
    s.keys("g")
    s.literal("91,0")
    s.keys("Enter")
    assert "outside -90" in s.screen() and s.center() == "33.77733°N 84.39735°W"
    s.close()


@check("y copies to the terminal's clipboard through OSC 52 (tmux set-clipboard on takes it), and a pasted link goes back there")
def _():
    s = Session("--center 60.16952,24.93545 --zoom 12.6 --no-animation")
    tmux("set", "-g", "set-clipboard", "on")
    copied = []
    for digit, want in (("1", "https://www.openstreetmap.org/#map=13/60.169520/24.935450"),
                        ("2", "geo:60.169520,24.935450"), ("3", "60.169520, 24.935450")):
        s.keys("y", digit)
        deadline = time.time() + 5
        got = None
        while time.time() < deadline:
            got = tmux("show-buffer", check=False)
            if got == want:
                break
            time.sleep(0.1)
        assert got == want, (digit, got, s.lines()[-1])
        assert s.lines()[-1].startswith("sent to your terminal's clipboard (OSC 52): " + want[:20]), s.lines()[-1]
        copied.append(want)
    # The link pasted into g: the same place, at the link's zoom.
    s.keys("0")
    s.keys("g")
    s.literal(copied[0])
    s.keys("Enter")
    assert s.center() == "60.16952°N 24.93545°E" and abs(s.zoom() - 13) < 1e-9, (s.center(), s.zoom())
    s.close()
    return "; ".join(copied) + "; the link through g: back at 60.16952°N 24.93545°E, zoom 13"


@check("the viewer keeps the view it ends on (a file renamed into place), --resume starts there, U redoes what u undid")
def _():
    state_home = tempfile.mkdtemp(prefix="termmap-state-")
    env = f"TERM=xterm-256color LANG=C.UTF-8 XDG_STATE_HOME={state_home}"
    last = os.path.join(state_home, "termmap", "last-view")
    missing = subprocess.run([BINARY, "render", "--resume", "--json"], capture_output=True, text=True,
                             env={**os.environ, "XDG_STATE_HOME": state_home})
    said = json.loads(missing.stdout)["message"]
    assert missing.returncode == 0 and "no last view to resume yet" in said, said
    s = Session("--center 48.8584,2.2945 --zoom 9 --no-animation", env=env)
    s.keys("l", "+", "u", "U")
    center, zoom = s.center(), s.zoom()
    assert "redo" in s.lines()[-1] and abs(zoom - 9) > 0.5, (s.lines()[-1], zoom)
    s.keys("q")
    deadline = time.time() + 5
    while time.time() < deadline and not os.path.exists(last):
        time.sleep(0.1)
    s.close()
    with open(last) as f:
        kept = f.read()
    lat, lon, z = (float(v) for v in kept.split("\t"))
    resumed = json.loads(subprocess.run([BINARY, "render", "--resume", "--json"], capture_output=True, text=True,
                                        env={**os.environ, "XDG_STATE_HOME": state_home}).stdout)
    assert abs(resumed["center"]["lat"] - lat) < 1e-7 and abs(resumed["center"]["lon"] - lon) < 1e-7, (resumed["center"], kept)
    assert abs(resumed["zoom"] - z) < 1e-4 and abs(z - zoom) < 0.006, (resumed["zoom"], z, zoom)
    # --center decides over --resume.
    given = json.loads(subprocess.run([BINARY, "render", "--resume", "--center", "10,10", "--json"], capture_output=True,
                                      text=True, env={**os.environ, "XDG_STATE_HOME": state_home}).stdout)
    assert given["center"] == {"lat": 10, "lon": 10}, given["center"]
    # Written whole: a temporary file renamed over the last view.
    traced = ""
    if shutil.which("strace"):
        trace = os.path.join(state_home, "trace")
        s = Session(f"--center 1,2 --zoom 3", env=env)
        pid = s.pid()
        tracer = subprocess.Popen(["strace", "-f", "-qq", "-e", "trace=rename,renameat,renameat2", "-o", trace, "-p", str(pid)])
        time.sleep(0.5)
        s.keys("q")
        tracer.wait(timeout=10)
        s.close()
        with open(trace) as f:
            renames = [l for l in f if "last-view.tmp" in l]
        assert renames and "= 0" in renames[-1], renames
        traced = "; strace: " + renames[-1].split("(")[0].split()[-1] + " of last-view.tmp.PID"
    shutil.rmtree(state_home)
    return f"redo back at zoom {zoom:.2f}; kept {kept.strip()!r}; resumed there; --center wins" + traced


@check("b keeps the view under a name (the place's proposed), ' lists and goes there, d deletes; a damaged line is reported and kept")
def _():
    data_home = tempfile.mkdtemp(prefix="termmap-data-")
    folder = os.path.join(data_home, "termmap")
    os.makedirs(folder)
    path = os.path.join(folder, "bookmarks.tsv")
    with open(path, "w") as f:
        f.write("# my places\nHome\t51.5\t-0.12\t11\nthis line is damaged\n")
    env = f"TERM=xterm-256color LANG=C.UTF-8 XDG_DATA_HOME={data_home} XDG_STATE_HOME={data_home}"
    s = Session("--center 60.1699,24.9384 --zoom 10 --no-animation", env=env)
    said = s.lines()[-1]
    assert "bookmarks.tsv:3: not a bookmark" in said, said
    s.keys("b")
    assert "bookmark this view as: Helsinki" in s.screen(), s.lines()[-1]
    s.keys("Enter")
    assert "bookmark 'Helsinki' kept (2 in all" in s.screen(), s.lines()[-1]
    with open(path) as f:
        text = f.read()
    assert text == "# my places\nHome\t51.5000000\t-0.1200000\t11.0000\nthis line is damaged\nHelsinki\t60.1699000\t24.9384000\t10.0000\n", text
    s.keys("'")
    assert "1 Home" in s.screen() and "2 Helsinki" in s.screen(), s.screen()
    s.keys("1")
    assert s.center() == "51.50000°N 0.12000°W" and abs(s.zoom() - 11) < 1e-9, (s.center(), s.zoom())
    s.keys("'", "d", "2")
    assert "bookmark 'Helsinki' deleted" in s.screen(), s.lines()[-1]
    with open(path) as f:
        text = f.read()
    assert text == "# my places\nHome\t51.5000000\t-0.1200000\t11.0000\nthis line is damaged\n", text
    s.close()
    k = Session("--kiosk --no-animation", env=env)
    k.keys("b")
    assert "bookmarks are off in kiosk mode" in k.screen(), k.lines()[-1]
    k.close()
    shutil.rmtree(data_home)
    return "kept, listed, gone to, deleted; the damaged line reported and kept in place; off in kiosk mode"


@check("a bookmark save killed mid-way (kill -9 while strace holds its write or its rename) leaves the old file or the new, never half")
def _():
    if not shutil.which("strace"):
        return "skipped: no strace"
    data_home = tempfile.mkdtemp(prefix="termmap-data-")
    folder = os.path.join(data_home, "termmap")
    os.makedirs(folder)
    path = os.path.join(folder, "bookmarks.tsv")
    old = "Home\t51.5000000\t-0.1200000\t11.0000\n"
    env = f"TERM=xterm-256color LANG=C.UTF-8 XDG_DATA_HOME={data_home} XDG_STATE_HOME={data_home}"
    seen = []
    for syscall in ("write", "rename"):
        with open(path, "w") as f:
            f.write(old)
        # Mid-Atlantic: no place near to propose a name.
        s = Session("--center 0,-30 --zoom 8 --no-animation", env=env)
        pid = s.pid()
        # The save's own calls slowed: 3 s before each write to the temporary file (fd ≥ 3 beyond the
        # terminal's), or before the rename.
        inject = "trace=rename,renameat,renameat2" if syscall == "rename" else "trace=write"
        spec = ("inject=rename,renameat,renameat2:delay_enter=3000000" if syscall == "rename"
                else "inject=write:delay_enter=3000000:when=1")
        trace = os.path.join(data_home, f"trace-{syscall}")
        s.keys("b", pause=0.5)
        s.literal("Away")
        tracer = subprocess.Popen(["strace", "-f", "-qq", "-e", inject, "-e", spec, "-o", trace, "-p", str(pid)])
        time.sleep(0.8)
        s.keys("Enter", pause=0.1)
        time.sleep(1.0)
        os.kill(pid, 9)
        tracer.wait(timeout=10)
        s.close()
        with open(path) as f:
            text = f.read()
        new = old + "Away\t0.0000000\t-30.0000000\t8.0000\n"
        assert text in (old, new), (syscall, text)
        seen.append(f"killed in {syscall}: {'old' if text == old else 'new'} file whole")
    shutil.rmtree(data_home)
    return "; ".join(seen)


@check("resize to 80x24 and back keeps center and zoom at the new size")
def _():
    s = Session(f"--center {GT} --zoom 13")
    before = (s.center(), s.zoom())
    tmux("resize-window", "-t", "m", "-x", "80", "-y", "24")
    s.wait_for(lambda t: len(t.split("\n")[0]) <= 80, 2)
    time.sleep(0.3)
    lines = s.lines()
    assert (s.center(), s.zoom()) == before, (s.center(), s.zoom())
    assert "zoom 13.00" in lines[22], lines[22]
    tmux("resize-window", "-t", "m", "-x", "120", "-y", "40")
    time.sleep(0.5)
    assert "zoom 13.00" in s.lines()[38], s.lines()[38]
    assert (s.center(), s.zoom()) == before, (s.center(), s.zoom(), before)
    tmux("resize-window", "-t", "m", "-x", "15", "-y", "5")
    s.wait_for(lambda t: "too small" in t, 2)
    assert "too small" in s.screen(), s.screen()
    tmux("resize-window", "-t", "m", "-x", "120", "-y", "40")
    s.wait_for(lambda t: "zoom 13.00" in t, 2)
    s.close()


def quit_and_check(how):
    s = Session(f"--center {GT} --zoom 5")
    assert s.flags()["alternate"], "viewer should use the alternate screen"
    if how == "q":
        s.keys("q")
    else:
        os.kill(s.pid(), how)
    status = s.exit_status()
    assert status == 0, f"exit status {status}"
    f = s.flags()
    assert not f["alternate"], "alternate screen still on"
    assert f["cursor"], "cursor hidden"
    s.close()


@check("q exits 0 with the terminal restored")
def _():
    quit_and_check("q")


@check("SIGTERM exits 0 with the terminal restored")
def _():
    quit_and_check(15)


@check("SIGHUP exits 0 with the terminal restored")
def _():
    quit_and_check(1)


@check("a damaged file in --data DIR is left out: the viewer starts, says so once, and the rest is drawn")
def _():
    folder = tempfile.mkdtemp(prefix="termmap-damaged-")
    try:
        with open(os.path.join(folder, "junk.pmtiles"), "wb") as f:
            f.write(b"not a tileset")
        s = Session(f"--data {folder} --center 60.1699,24.9384 --zoom 15")
        text = s.screen()
        assert "junk.pmtiles is damaged and not used" in text, text[-400:]
        assert "zoom 15.00" in text and "OSM" in text, text[-400:]
        s.keys("q")
        assert s.exit_status() == 0
        after = s.screen().replace("\n", "")  # the line may wrap on the shell's screen
        assert after.count("skipped, the rest is used") == 1 and "junk.pmtiles" in after, after[-400:]
        s.close()
        return "message line and one stderr line; exit 0"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@check("LANG=C gives ASCII glyphs")
def _():
    s = Session("--zoom 1", env="TERM=xterm-256color LANG=C LC_ALL=C")
    text = s.screen()
    assert "zoom 1.00" in text
    assert all(ord(c) < 128 for c in text), "non-ASCII on screen"
    assert re.search(r"[/\\|_\-']", text)
    s.close()


@check("TERM=vt100 has no colour and still works")
def _():
    s = Session("--zoom 2 --circle --radius 2000km --no-animation", env="TERM=vt100 LANG=C.UTF-8")
    colours = s.screen(colours=True)
    assert "38;5;" not in colours and "48;5;" not in colours, "colour escape on vt100"
    assert "░" in s.screen(), "the shade must show as a stipple without colour"
    s.keys("+")
    assert s.zoom() > 2
    s.close()


def shell_session(cols=100, rows=30):
    """An interactive bash in tmux (job control on), its prompt `prompt$ `."""
    tmux.new_session("env TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=/nonexistent PS1='prompt$ ' "
                     "bash --norc --noprofile -i", cols, rows)
    s = harness.Session.__new__(harness.Session)
    s.tmux, s.status_file, s.pid_file = tmux, "/nonexistent", "/nonexistent"
    return s


def process_state(name):
    """The ps state letters of the termmap processes running `name` (T: stopped)."""
    out = subprocess.run(["ps", "-eo", "stat=,args="], capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if BINARY in line and name in line]


@check("Ctrl-Z in bash: the shell's prompt, termmap stopped, modes off; fg: alternate screen, mouse, a full redraw")
def _():
    s = shell_session()
    args = "--no-animation --center 50,10 --zoom 4 --theme dark"
    s.literal(f"{BINARY} {args}")
    s.keys("Enter")
    s.wait_for(lambda t: "zoom 4.00" in t, 10)
    s.keys("+", "l")
    s.wait_for(lambda t: "zoom 5.3" in t)
    s.keys("C-z")
    stopped = s.wait_for(lambda t: "Stopped" in t and t.rstrip().endswith("prompt$"))
    assert "Stopped" in stopped and stopped.rstrip().endswith("prompt$"), stopped[-300:]
    modes = tmux("display-message", "-p", "-t", "m", "#{alternate_on} #{cursor_flag} #{mouse_button_flag} #{mouse_any_flag}")
    assert modes.split() == ["0", "1", "0", "0"], f"alternate, cursor, mouse while stopped: {modes}"
    assert process_state("--zoom 4") == ["T"] or process_state("--zoom 4")[0].startswith("T"), process_state("--zoom 4")
    # The shell has the terminal: what is typed is the shell's, and writes over its screen.
    s.literal("echo typed at the shell")
    s.keys("Enter")
    s.literal("fg")
    s.keys("Enter")
    back = s.wait_for(lambda t: "zoom 5.3" in t)
    time.sleep(0.4)
    modes = tmux("display-message", "-p", "-t", "m", "#{alternate_on} #{cursor_flag} #{mouse_button_flag}")
    assert modes.split() == ["1", "0", "1"], f"alternate, cursor, mouse after fg: {modes}"
    shown = [line.rstrip() for line in s.lines()]
    r = subprocess.run([BINARY, "render", "--no-config", "--size", "100x30", *args.split()[1:], "--keys", "+l",
                        "--color", "256"], capture_output=True, text=True, check=True)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", r.stdout)
    expected = [line.rstrip() for line in plain.rstrip("\n").split("\n")]
    wrong = [i for i, (a, b) in enumerate(zip(shown, expected)) if a != b]
    assert len(shown) == len(expected) and not wrong, f"rows differ after fg: {wrong[:8]}\n" + "\n".join(shown[-3:])
    # Keys are the map's again, and a stop from outside (kill -TSTP) suspends too.
    s.keys("-")
    s.wait_for(lambda t: "zoom out" in t)
    assert "zoom out" in s.screen(), s.screen()[-200:]
    pid = int(subprocess.run(["pgrep", "-f", f"{BINARY} {args}"], capture_output=True, text=True).stdout.split()[0])
    os.kill(pid, signal.SIGTSTP)
    assert "Stopped" in s.wait_for(lambda t: t.count("Stopped") == 2), s.screen()[-300:]
    s.literal("fg")
    s.keys("Enter")
    s.wait_for(lambda t: "zoom out" in t)
    s.keys("q")
    done = s.wait_for(lambda t: t.rstrip().endswith("prompt$") and "fg" in t.rstrip().split("\n")[-2])
    assert done.rstrip().endswith("prompt$"), done[-300:]
    assert process_state("--zoom 4") == [], process_state("--zoom 4")
    return f"stopped (ps T), modes off; after fg all {len(expected)} rows equal termmap render; kill -TSTP too"


@check("Ctrl-Z with no job control (sh -c exec, as a ForceCommand), in kiosk mode and while recording: said, and the map stays")
def _():
    said = []
    cast = tempfile.mktemp(suffix=".cast")
    for args, want in [("--no-animation", "Ctrl-Z: no job control here"), ("--kiosk --no-animation", "Ctrl-Z: not in kiosk mode"),
                       (f"--no-animation --record {cast}", "Ctrl-Z: not while recording")]:
        s = Session(args)
        s.keys("C-z")
        screen = s.wait_for(lambda t: want in t, 3)
        assert want in screen, screen[-300:]
        s.literal("fg")
        time.sleep(0.4)
        assert "go to" in s.screen(), "g still opens the prompt here (the map has the keys)"
        assert s.exit_status(0.2) is None
        said.append(screen.strip().split("\n")[-1].split("  ")[0].strip())
        s.keys("Escape", "q")
        s.exit_status()
        s.close()
    # The theme's question went to the terminal, not into the recording.
    recorded = open(cast).read()
    os.unlink(cast)
    assert "zoom 0.00" in recorded and "]11;?" not in recorded, recorded[:300]
    return "; ".join(said) + "; the recording holds no OSC 11 question"


def background_layer(text):
    """For each row, whether each character has a 256-colour background ('#') or the default ('.')."""
    return ["".join("." if bg is None else "#" for _, _, bg in row).rstrip(".") for row in coloured_cells(text)]


def screen_after_pans(term, circle=""):
    """Pans in all four directions (sideways the terminal deletes and inserts characters, up and down
    it scrolls lines): the screen must then be exactly what termmap render draws for the same keys."""
    keys = "llhljlkhhhkj"
    args = f"--center 50,10 --zoom 5 {circle}".split()
    s = Session(" ".join(args) + " --no-animation", env=f"TERM={term} LANG=C.UTF-8")
    for k in keys:
        s.keys(k, pause=0.15)
    time.sleep(0.4)
    shown = [line.rstrip() for line in s.lines()]
    # -N keeps trailing blanks, which show the shade too.
    shown_bg = background_layer(tmux("capture-pane", "-p", "-e", "-N", "-t", "m"))
    s.close()
    # Colour where the terminal has it: the shade is then a background, not a stipple.
    render = [BINARY, "render", "--size", "120x40", *args, "--keys", keys, "--color", "never" if term == "vt100" else "256"]
    r = subprocess.run(render, capture_output=True, text=True, check=True)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", r.stdout)
    expected = [line.rstrip() for line in plain.rstrip("\n").split("\n")]
    wrong = [i for i, (a, b) in enumerate(zip(shown, expected)) if a != b]
    assert len(shown) == len(expected) and not wrong, f"rows differ: {wrong[:8]}"
    if circle and term != "vt100":
        expected_bg = background_layer(r.stdout)
        wrong = [i for i, (a, b) in enumerate(zip(shown_bg[:-2], expected_bg[:-2])) if a != b]
        assert not wrong, f"shade differs on rows {wrong[:8]}"
        assert sum(row.count("#") for row in expected_bg) > 1000, "the circle's shade is missing"
    return f"{len(keys)} pans, {len(expected)} rows equal"


@check("pans with xterm-256color (moved by delete/insert character and scrolling) equal termmap render")
def _():
    return screen_after_pans("xterm-256color")


@check("pans with the circle shaded: glyphs and background colours equal termmap render")
def _():
    # screen-256color, as inside screen or tmux: it also deletes and inserts characters and scrolls.
    return screen_after_pans("screen-256color", "--circle --radius 300km")


@check("pans with vt100 (no delete/insert character: redrawn) equal termmap render")
def _():
    return screen_after_pans("vt100")


@check("a pan sends what came in: through a pty, h and l cost under half a repaint, j and k under 3/4")
def _():
    # The screen repairs a picture moved the wrong way, so only the bytes show it: h and l move the
    # terminal's columns (delete/insert character), j and k its lines.
    session = PtySession([BINARY, "--no-animation", "--center", "50,10", "--zoom", "5"], cols=160, rows=48)
    try:
        session.send(None, 1.5)
        ratios = {}
        for key in "hjkl":
            step = session.send(key)
            repaint = session.send("\x0c")
            ratios[key] = step / repaint
    finally:
        session.quit()
    # Measured: h 26 %, l 30 %, j 32 %, k 44 %; columns moved the wrong way cost 101 %.
    assert ratios["h"] < 0.5 and ratios["l"] < 0.5 and ratios["j"] < 0.75 and ratios["k"] < 0.75, ratios
    return ", ".join(f"{k} {100 * r:.1f} %" for k, r in ratios.items())


@check("frames wait for the terminal to say it has shown the last (ESC [ c); answers are never keys")
def _():
    args = ["--center", "50,10", "--zoom", "4"]
    session = PtySession([BINARY] + args, cols=100, rows=30)
    answer = b"\x1b[?64;1;2;6;22c"
    try:
        session.collect(None, 1.5, answer=answer)
        # Answered at once, as a terminal on a fast link: a question after each animation frame.
        fast = session.collect("+", 1.0, answer=answer).count(b"\x1b[c")
        # Not answered (a slow link): one question, then nothing more is drawn.
        silent = session.collect("-", 1.0).count(b"\x1b[c")
        # The answer comes: the newest frame is drawn; neither its `c` (a circle) nor Esc acts as a key.
        late = session.collect(answer.decode(), 0.6, answer=answer).decode("utf-8", "replace")
    finally:
        session.quit()
    final = subprocess.run([BINARY, "render", "--size", "100x30", "--keys", "+-"] + args, capture_output=True,
                           text=True).stdout
    zoom = re.search(r"zoom (\d+\.\d\d)", final).group(1)  # only what changed is sent: the number
    assert fast >= 4, f"{fast} questions during a fast animation"
    assert silent == 1, f"{silent} questions while none was answered"
    assert "circle" not in late and zoom in late, (zoom, late[-400:])
    return (f"{fast} frames asked about on a fast link, 1 while unanswered; the answer brought the last "
            f"frame (zoom {zoom})")


@check("not a terminal: exit 2 pointing to termmap render")
def _():
    r = subprocess.run([BINARY], input="", capture_output=True, text=True)
    assert r.returncode == 2, r.returncode
    assert "termmap render" in r.stderr and r.stderr.count("\n") == 1, r.stderr


@check("TERM unset, unknown or not ANSI: one clear line, exit 2")
def _():
    # A terminal whose cursor addressing is not ECMA-48's (an ADM-3A's), compiled with tic on the spot.
    terminfo = tempfile.mkdtemp()
    source = os.path.join(terminfo, "adm.ti")
    with open(source, "w") as f:
        f.write("termmap-adm|not ANSI,\n\tam, cols#80, lines#24,\n\tclear=^Z, cup=\\E=%p1%' '%+%c%p2%' '%+%c,\n")
    subprocess.run(["tic", "-o", terminfo, source], check=True, capture_output=True)
    for env in ({"TERM": "no-such-terminal-xyz"}, {}, {"TERM": "termmap-adm", "TERMINFO": terminfo}):
        e = {k: v for k, v in os.environ.items() if k != "TERM"}
        e.update(env)
        e["LANG"] = "C.UTF-8"
        r = subprocess.run(["script", "-qec", BINARY + "; echo exit=$?", "/dev/null"], env=e, capture_output=True,
                           text=True, timeout=20)
        assert "TERM" in r.stdout or "terminal" in r.stdout, r.stdout[-300:]
        assert "exit=2" in r.stdout, r.stdout[-300:]
        assert "Traceback" not in r.stdout and "Fatal" not in r.stdout
    assert "does not move the cursor as ANSI terminals do" in r.stdout, r.stdout[-300:]


if __name__ == "__main__":
    check.report("e2e")
