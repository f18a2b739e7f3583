#!/usr/bin/env python3
"""The README's commands run as written: every line of a fenced block that starts with `termmap` is
run against the built binary from the repository's root (its comment after `#` left out).

    python3 Tests/e2e/readme_e2e.py .build/debug/termmap

A command that opens the viewer runs in tmux: it must draw a map (a status line with its zoom) and
end with status 0 on `q`. Any other command must exit 0 and print something. Each runs with its own
HOME and XDG folders, so nothing of the user's is read or written. Without a network, the named
source `openfreemap` is stood in for by nginx on 127.0.0.1 serving the Helsinki fixture tileset (the
same OpenMapTiles schema), and the line says so; with one, the line runs exactly as written.
Also: the README stays a front door (at most 15 KB) and every document it links to exists.
"""
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile

import harness
from harness import Checks, Tmux
from nginx import Nginx

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
README = os.path.join(ROOT, "README.md")
FIXTURES = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "tiles")
# Commands whose first word after `termmap` makes them print and exit rather than open the viewer.
BATCH = {"render", "route", "data", "config", "help", "--help", "--version", "--about"}
tmux = Tmux("termmap-readme")
check = Checks(tmux)


def readme_commands(text):
    """Each `termmap …` line of the README's fenced blocks, without its trailing comment."""
    commands, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced and (line == "termmap" or line.startswith("termmap ")):
            words = shlex.split(line, comments=True)
            commands.append(words)
    return commands


def network_reachable(host="tiles.openfreemap.org"):
    try:
        socket.create_connection((host, 443), timeout=3).close()
        return True
    except OSError:
        return False


def isolated_env(home):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "TERMMAP_"))}
    env.update(HOME=home, XDG_DATA_HOME=os.path.join(home, "data"), XDG_STATE_HOME=os.path.join(home, "state"),
               XDG_CACHE_HOME=os.path.join(home, "cache"), XDG_CONFIG_HOME=os.path.join(home, "config"),
               LANG="C.UTF-8")
    return env


def run_batch(words, env):
    r = subprocess.run([BINARY] + words[1:], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr.strip()[-300:]}"
    assert r.stdout.strip() or r.stderr.strip(), "printed nothing"
    return f"exit 0, {len(r.stdout.splitlines())} lines"


def run_viewer(words, env):
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items() if k.startswith(("HOME", "XDG_")))
    args = " ".join(shlex.quote(w) for w in words[1:])
    session = harness.Session(tmux, BINARY, args, 100, 30,
                              env=f"TERM=xterm-256color LANG=C.UTF-8 {exports}")
    try:
        screen = session.wait_for(lambda s: re.search(r"[│|] zoom \d+\.\d\d [│|]", s), 15)
        zoom = session.zoom()
        assert zoom is not None, "no map drawn:\n" + screen[-600:]
        session.keys("q")
        status = session.exit_status(10)
        assert status == 0, f"exit status {status} after q"
        return f"a map at zoom {zoom:.2f}, q exits 0"
    finally:
        session.close()


def main():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    commands = readme_commands(text)
    online = network_reachable()
    server = None if online else Nginx(FIXTURES, ["helsinki-omt.pmtiles"])
    os.chdir(ROOT)

    @check(f"the README is a front door: {len(text.encode())} bytes, at most 15 KB")
    def _():
        assert len(text.encode()) <= 15 * 1024

    @check("every document the README links to exists")
    def _():
        links = re.findall(r"\]\(([^)#:]+)\)", text)
        missing = [link for link in links if not os.path.exists(os.path.join(ROOT, link))]
        assert links and not missing, f"missing: {missing}"
        return f"{len(links)} links"

    @check(f"the README has its commands: {len(commands)} `termmap` lines")
    def _():
        assert len(commands) >= 5 and ["termmap"] in commands

    for words in commands:
        as_written = " ".join(shlex.quote(w) for w in words)
        if server and any(w == "openfreemap" for w in words):
            words = [server.url("helsinki-omt.pmtiles") if w == "openfreemap" else w for w in words]
            as_written += "   (offline: openfreemap stood in for by nginx on 127.0.0.1)"

        @check(as_written)
        def _():
            with tempfile.TemporaryDirectory(prefix="termmap-readme-") as home:
                env = isolated_env(home)
                if len(words) > 1 and words[1] in BATCH:
                    return run_batch(words, env)
                return run_viewer(words, env)

    if server:
        server.stop()
    check.report("readme")


if __name__ == "__main__":
    main()
