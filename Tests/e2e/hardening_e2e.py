#!/usr/bin/env python3
"""Hardening checks of the real binary: malformed command lines, terminal types, signal and resize
storms while animating, and what the program touches (files, programs, network) under strace.

    python3 Tests/e2e/hardening_e2e.py .build/debug/termmap
"""
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

from harness import Checks, Tmux

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
tmux = Tmux("termmap-hard")
check = Checks(tmux)


MALFORMED = [
    ["render", "--size", "0x0"], ["render", "--size", "-5x10"], ["render", "--size", "x"], ["render", "--size", ""],
    ["render", "--size", "100x"], ["render", "--size", "1e3x10"], ["render", "--size", "99999999999999999999x5"],
    ["render", "--center", "91,0"], ["render", "--center", "nan,0"], ["render", "--center", "0,inf"],
    ["render", "--center", "1,2,3"], ["render", "--center", ""], ["render", "--center", "0x10,0"],
    ["render", "--zoom", "-1"], ["render", "--zoom", "abc"], ["render", "--zoom", "nan"], ["render", "--zoom", "-inf"],
    ["render", "--zoom", "1e999"], ["render", "--zoom", ""], ["render", "--zoom", "1", "--zoom", "2"],
    ["render", "--radius", "0"], ["render", "--radius", "-3km"], ["render", "--radius", "1e30"],
    ["render", "--radius", "5 parsecs"], ["render", "--keys", "<Enter"], ["render", "--keys", "<F99>"],
    ["render", "--color", "sometimes"], ["render", "--color"], ["render", "--json", "--json"],
    ["render", "--circle=1"], ["render", "--unknown"], ["render", "-x"],
    ["data"], ["data", "pack"], ["data", "import-gshhg"], ["--kiosk", "--idle-timeout", "0"],
    ["--idle-timeout", "-5"], ["--idle-timeout", "abc"], ["--zoom", "nan"],
    [b"render", b"--center", b"\xff\xfe,0"], [b"render", b"--zoom", b"1\xa0"],
]
# Words that are neither options nor commands are files to show: one that is not there is a data
# error (exit 1), in one line naming it.
MISSING_FILES = [["render", "extra"], ["frobnicate"], [b"\xc3\x28"], ["render", "--", "--zoom"]]


@check(f"{len(MALFORMED)} malformed command lines: exit 2, one line on stderr, no crash; missing files exit 1")
def _():
    bad = []
    for args in MALFORMED:
        argv = [os.fsencode(BINARY)] + [a if isinstance(a, bytes) else a.encode() for a in args]
        r = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, timeout=20)
        err = r.stderr.decode("utf-8", "replace")
        if r.returncode != 2 or err.count("\n") != 1 or not err.startswith("termmap: ") or r.stdout:
            bad.append((args, r.returncode, err[:200]))
    for args in MISSING_FILES:
        argv = [os.fsencode(BINARY)] + [a if isinstance(a, bytes) else a.encode() for a in args]
        r = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, timeout=20)
        err = r.stderr.decode("utf-8", "replace")
        if r.returncode != 1 or err.count("\n") != 1 or not err.startswith("termmap: ") or r.stdout:
            bad.append((args, r.returncode, err[:200]))
    assert not bad, bad[:3]
    return f"{len(MALFORMED)} tried, and {len(MISSING_FILES)} missing files (exit 1)"


def start(args, term="xterm-256color", lang="C.UTF-8", cols=100, rows=30):
    status = tempfile.mktemp(prefix="termmap-status-")
    pidf = tempfile.mktemp(prefix="termmap-pid-")
    cmd = f"env TERM={term} LANG={lang} sh -c 'echo $$ > {pidf}; exec {BINARY} {args}'; echo $? > {status}; sleep 600"
    tmux.new_session(cmd, cols, rows)
    pid = None
    for _ in range(100):
        try:
            pid = int(open(pidf).read())
            break
        except (OSError, ValueError):
            time.sleep(0.05)
    return pid, status


def wait_status(path, seconds=8):
    end = time.time() + seconds
    while time.time() < end:
        try:
            return int(open(path).read())
        except (OSError, ValueError):
            time.sleep(0.05)
    return None


def restored():
    out = tmux("display-message", "-p", "-t", "m", "#{alternate_on} #{cursor_flag}").split()
    return out == ["0", "1"]


@check("TERM xterm, xterm-256color, screen, tmux-256color, vt100 run; dumb is refused")
def _():
    seen = []
    for term in ["xterm", "xterm-256color", "screen", "tmux-256color", "vt100"]:
        pid, status = start("--zoom 3", term=term)
        time.sleep(1.0)
        screen = tmux("capture-pane", "-p", "-t", "m")
        assert "zoom 3.00" in screen, (term, screen[-300:])
        tmux("send-keys", "-t", "m", "+")
        time.sleep(0.6)
        tmux("send-keys", "-t", "m", "q")
        assert wait_status(status) == 0, term
        assert restored(), f"{term}: terminal not restored"
        tmux.kill()
        time.sleep(0.2)
        seen.append(term)
    pid, status = start("--zoom 3", term="dumb")
    code = wait_status(status)
    screen = tmux("capture-pane", "-p", "-t", "m")
    assert code == 2 and "termmap render" in screen, (code, screen[-300:])
    return ", ".join(seen) + ", dumb refused"


@check("SIGTERM, SIGHUP and SIGINT while animating, after 100 resizes: no crash, terminal restored")
def _():
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        pid, status = start("--center 48,2 --zoom 3")
        time.sleep(0.8)
        for i in range(100):
            tmux("resize-window", "-t", "m", "-x", str(20 + (i * 37) % 180), "-y", str(5 + (i * 13) % 60))
            if i % 10 == 0:
                tmux("send-keys", "-t", "m", "+" if i % 20 else "-")
        tmux("send-keys", "-t", "m", "+")
        os.kill(pid, sig)
        code = wait_status(status)
        assert code == 0, f"{sig.name}: exit status {code}"
        assert restored(), f"{sig.name}: terminal not restored"
        tmux.kill()
        time.sleep(0.2)
    return "3 signals after 100 resizes each"


def strace(args, env, cwd):
    log = tempfile.mktemp(prefix="termmap-strace-")
    r = subprocess.run(["strace", "-f", "-qq", "-o", log, "-e", "trace=%file,%network,%process", BINARY, *args],
                       env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    text = open(log).read()
    os.unlink(log)
    return r, text


def writes(text):
    paths = []
    for line in text.splitlines():
        m = re.search(r'open(?:at)?\((?:AT_FDCWD, )?"([^"]+)", ([A-Z_|]+)', line)
        if m and any(f in m.group(2) for f in ("O_WRONLY", "O_RDWR", "O_CREAT")):
            paths.append(m.group(1))
        m = re.search(r'(?:rename|renameat2?|mkdir|mkdirat|unlink|unlinkat)\((?:AT_FDCWD, )?"([^"]+)"', line)
        if m:
            paths.append(m.group(1))
    return paths


def sandbox():
    """A scratch folder with an empty home and a data folder not yet made, and an environment that points
    there: (work, home, data, env)."""
    work = tempfile.mkdtemp(prefix="termmap-sandbox-")
    home = os.path.join(work, "home")
    data = os.path.join(work, "data")
    os.makedirs(home)
    env = {"HOME": home, "XDG_DATA_HOME": os.path.join(work, "xdg"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    return work, home, data, env


@check("import writes only in the data folder; render writes nothing; no programs run, no sockets")
def _():
    work, home, data, env = sandbox()
    # A small GSHHG pair in the real layout: one ring of float32 lon/lat.
    src = os.path.join(work, "src")
    os.makedirs(src)
    ring = [(10.0, 46.0), (10.5, 46.0), (10.5, 46.5), (10.0, 46.0)]
    with open(os.path.join(src, "gshhs_h.dat"), "wb") as f:
        f.write(b"".join(struct.pack("<ff", *p) for p in ring))
    with open(os.path.join(src, "gshhsmeta_h.dat"), "w") as f:
        f.write(f"1 1.0 {len(ring)} 46 46.5 0 {len(ring) * 8} 0\n")
    # And its WDBII rivers beside it: a major river (level 2) is kept, a minor one (level 5) is not.
    major = [(8.0, 45.0), (9.0, 45.3), (10.0, 45.1)]
    minor = [(8.0, 44.0), (9.0, 44.2)]
    with open(os.path.join(src, "rivers_h.dat"), "wb") as f:
        f.write(b"".join(struct.pack("<ff", *p) for p in major + minor))
    with open(os.path.join(src, "riversmeta_h.dat"), "w") as f:
        f.write(f"2 -1 3 45 45.3 0 24\n5 -1 2 44 44.2 24 16\n")
    r, text = strace(["data", "import-gshhg", os.path.join(src, "gshhs_h.dat"), "--data", data], env, work)
    assert r.returncode == 0, r.stderr
    written = writes(text)
    outside = [p for p in written if not os.path.abspath(os.path.join(work, p)).startswith(data + os.sep)
               and os.path.abspath(os.path.join(work, p)) != data]
    assert written and not outside, f"writes outside the data folder: {outside[:5]}"
    assert len(re.findall(r"\bexecve\(", text)) == 1, "ran another program"
    assert not re.search(r"\b(socket|connect)\(", text), "opened a socket"
    assert sorted(os.listdir(work)) == ["data", "home", "src"], os.listdir(work)
    assert os.listdir(home) == [], os.listdir(home)
    assert sorted(os.listdir(data)) == ["gshhg-rivers.tmap", "gshhg.tmap"], os.listdir(data)
    assert "imported 1 rivers" in r.stdout, r.stdout
    # The imported data is used: the status line says GSHHG below 150 m per dot.
    shutil.copy(os.path.join(ROOT, "assets", "world.tmap"), data)
    r, text = strace(["render", "--data", data, "--center", "46.2,10.25", "--zoom", "12", "--size", "120x24"], env, work)
    assert r.returncode == 0 and "│ GSHHG" in r.stdout, r.stdout[-400:]
    assert writes(text) == [], f"render wrote {writes(text)[:5]}"
    assert len(re.findall(r"\bexecve\(", text)) == 1 and not re.search(r"\b(socket|connect)\(", text)
    # The river is drawn at a regional zoom, in the rivers' colour, and GSHHG is credited.
    r = subprocess.run([BINARY, "render", "--data", data, "--center", "45.2,9", "--zoom", "6", "--size", "100x30",
                        "--color", "256"], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and re.search(r"38;5;39[;m]", r.stdout) and "GSHHG" in r.stdout, r.stdout[-300:]
    shutil.rmtree(work)
    return f"import wrote {len(written)} paths, all in the data folder"


@check("import-osm writes only its file in the data folder, or nothing when the extract is damaged")
def _():
    work, home, data, env = sandbox()
    town = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "osm", "town-dense-zlib.osm.pbf")
    r, text = strace(["data", "import-osm", town, "--data", data], env, work)
    assert r.returncode == 0, r.stderr
    written = writes(text)
    outside = [p for p in written if not os.path.abspath(os.path.join(work, p)).startswith(data + os.sep)
               and os.path.abspath(os.path.join(work, p)) != data]
    assert written and not outside, f"writes outside the data folder: {outside[:5]}"
    assert len(re.findall(r"\bexecve\(", text)) == 1 and not re.search(r"\b(socket|connect)\(", text)
    assert os.listdir(data) == ["town-dense-zlib.tmap"], os.listdir(data)
    assert os.listdir(home) == [], os.listdir(home)
    # Cut in the middle of its data: one line, exit 1, and the folder as it was.
    cut = os.path.join(work, "cut.osm.pbf")
    with open(town, "rb") as f, open(cut, "wb") as g:
        g.write(f.read()[:400])
    r, text = strace(["data", "import-osm", cut, "--data", data], env, work)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "truncated" in r.stderr, r.stderr
    assert [p for p in writes(text) if "cut" in p or p.endswith(".tmap")] == [], writes(text)
    assert os.listdir(data) == ["town-dense-zlib.tmap"], os.listdir(data)
    shutil.rmtree(work)
    return f"import wrote {len(written)} paths, all in the data folder; a cut extract wrote none"


@check("tiles from files (--tiles and the data folder): no socket, libcurl never loaded, nothing written")
def _():
    work, home, data, env = sandbox()
    os.makedirs(data)
    tiles = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "tiles")
    shutil.copy(os.path.join(tiles, "helsinki-omt.mbtiles"), data)
    args = ["render", "--data", data, "--tiles", os.path.join(tiles, "helsinki-protomaps.pmtiles"), "--center",
            "60.1690,24.9420", "--zoom", "15", "--size", "120x24"]
    r, text = strace(args, env, work)
    assert r.returncode == 0 and "│ helsinki-protomaps ·" in r.stdout, r.stdout[-300:]
    assert os.path.join(data, "helsinki-omt.mbtiles") in text, "the data folder's tileset was not opened"
    assert not re.search(r"\b(socket|connect)\(", text), "opened a socket"
    # termmap's own HTTP (libcurl.so.4 through dlopen) is never loaded. (PROJ links libcurl-gnutls for its
    # optional grid downloads, which stay off: no socket above.)
    assert "libcurl.so.4" not in text, "loaded libcurl"
    assert len(re.findall(r"\bexecve\(", text)) == 1, "ran another program"
    assert writes(text) == [], f"render wrote {writes(text)[:5]}"
    shutil.rmtree(work)
    return "render over a .pmtiles and a data-folder .mbtiles: no socket, no libcurl"


@check("a plain view loads no library it does not use: no PROJ, no libcurl, no full Foundation or ICU")
def _():
    work, home, data, env = sandbox()
    unused = ["libproj.so", "libcurl", "libFoundation.so", "libFoundationInternationalization", "_FoundationICU"]
    r, text = strace(["render", "--center", "48,10", "--zoom", "4", "--size", "120x30"], env, work)
    opened = {m.group(1) for line in text.splitlines() if "= -1" not in line
              for m in [re.search(r'open(?:at)?\([^"]*"([^"]+\.so[^"]*)"', line)] if m}
    assert r.returncode == 0 and opened, r.stderr
    loaded = [lib for lib in opened if any(u in lib for u in unused)]
    assert not loaded, f"loaded {loaded}"
    # A circle measures on the ellipsoid: PROJ is loaded then, and only then.
    r, text = strace(["render", "--keys", "c", "--size", "120x30"], env, work)
    assert r.returncode == 0 and "libproj.so" in text, "the circle did not load PROJ"
    shutil.rmtree(work)
    return f"a plain render opened {len(opened)} libraries, none of {len(unused)} unused ones; a circle loads PROJ"


@check("recordings are the only other file output: render --cast writes its file and nothing else, --record its file and the last view")
def _():
    work, home, data, env = sandbox()
    r, text = strace(["render", "--tour", "builtin", "--size", "80x24", "--cast", "tour.cast"], env, work)
    assert r.returncode == 0, r.stderr
    assert writes(text) == ["tour.cast"], f"render --cast wrote {writes(text)[:5]}"
    log = os.path.join(work, "strace.log")
    command = (f"strace -f -qq -o {log} -e trace=%file,%network,%process {BINARY} --record live.cast "
               "--no-animation")
    r = subprocess.run(["script", "-qec", command, "/dev/null"], input="q", cwd=work, capture_output=True, text=True,
                       timeout=60, env={**env, "TERM": "xterm-256color"})
    text = open(log).read()
    # Besides the recording, the viewer keeps the view it ended on, in the XDG state folder (made as
    # needed), through a temporary file renamed over it; nothing else.
    state = os.path.join(home, ".local", "state", "termmap")
    kept = [p for p in writes(text) if not p.startswith("/dev/") and p != "live.cast"]
    made = [os.path.join(home, ".local"), os.path.join(home, ".local", "state"), state]
    assert all(p in made or re.fullmatch(re.escape(os.path.join(state, "last-view")) + r"(\.tmp\.\d+)?", p) for p in kept), kept[:8]
    assert "live.cast" in writes(text) and os.path.exists(os.path.join(state, "last-view")), writes(text)[:8]
    assert not re.search(r"\b(socket|connect)\(", text), "opened a socket"
    with open(os.path.join(work, "live.cast")) as f:
        lines = f.read().splitlines()
    assert json.loads(lines[0])["version"] == 2 and all(json.loads(line)[1] == "o" for line in lines[1:])
    assert sorted(os.listdir(work)) == ["home", "live.cast", "strace.log", "tour.cast"], os.listdir(work)
    shutil.rmtree(work)
    return f"the recording: {len(lines) - 1} events"


if __name__ == "__main__":
    check.report("hardening")
