#!/usr/bin/env python3
"""The conventions of a terminal tool, with the real programs people use them with:

    python3 Tests/e2e/conventions_e2e.py .build/debug/termmap

- the man page: mandoc -T lint reports nothing above style level; every option and key is in it;
- completions: bash (Debian's bash-completion) and fish (`complete -C`) complete real command lines,
  zsh parses the script and it defines _termmap;
- a configuration's [keys] drive the viewer in tmux;
- make install puts the man page and the completions where each system looks;
- as root, the Debian package: lintian reports no errors; apt-get installs it, /usr/bin/termmap
  renders, man finds the page, bash completes, apt-get purge leaves nothing of it.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import harness
from harness import Checks, Tmux

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
tmux = Tmux("termmap-conventions")
check = Checks(tmux)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def termmap(*args):
    return run([BINARY, *args], env={**os.environ, "XDG_CONFIG_HOME": "/nonexistent"}).stdout


def option_names():
    """Every option of `termmap help options` (the table in docs/viewer.md)."""
    return re.findall(r"^\| `--([a-z-]+)", termmap("help", "options"), re.M)


def command_names():
    return re.findall(r"`<([a-z-]+)>`", termmap("help", "keys"))


@check("man page: mandoc -T lint says nothing above style; every option and every key's command is in it")
def _():
    page = tempfile.mktemp(suffix=".1")
    with open(page, "w") as f:
        f.write(termmap("help", "man"))
    lint = run(["mandoc", "-T", "lint", "-W", "warning", page])
    assert lint.stdout == "" and lint.stderr == "", lint.stdout + lint.stderr
    text = run(["mandoc", "-T", "ascii", page]).stdout
    text = re.sub(r".\x08", "", text)  # overstrike bold and underline
    flat = re.sub(r"\s+", " ", text)
    options, commands = option_names(), command_names()
    assert len(options) > 30 and len(commands) > 30
    missing = [o for o in options if f"--{o}" not in flat] + [c for c in commands if f"<{c}>" not in flat]
    assert not missing, missing
    for section in ["SYNOPSIS", "OPTIONS", "KEYS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "COPYRIGHT"]:
        assert f"\n{section}\n" in text, section
    for word in ["XDG_CONFIG_HOME", "NO_COLOR", "COLORFGBG", "TERM", "ODbL", "CC BY", "public domain"]:
        assert word in flat, word
    return f"{len(options)} options, {len(commands)} commands"


def completion_folder():
    folder = tempfile.mkdtemp(prefix="termmap-complete-")
    for name in ["city.pmtiles", "notes.txt", "track.gpx"]:
        open(os.path.join(folder, name), "w").close()
    os.mkdir(os.path.join(folder, "sub"))
    return folder


def bash_complete(script, line, folder):
    """What bash with Debian's bash-completion offers for `line` (completed at its end)."""
    program = f"""
source /usr/share/bash-completion/bash_completion
source {script}
COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}
read -ra COMP_WORDS <<< "$COMP_LINE"; [[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
_termmap termmap "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    return sorted(run(["bash", "-c", program], cwd=folder).stdout.split())


EXPECTED = {
    "termmap --th": ["--theme"],
    "termmap --theme ": ["auto", "dark", "light"],
    "termmap data ": ["get", "import-dem", "import-gshhg", "import-osm", "import-raster", "info", "list", "pack", "remove", "sources"],
    "termmap --tiles ": ["bluemarble", "city.pmtiles", "openfreemap", "sub"],
    "termmap --units i": ["imperial"],
    "termmap ": ["config", "data", "help", "render", "route", "sub", "track.gpx"],
    "termmap render --si": ["--size"],
    "termmap route --pro": ["--profile"],
}


def check_completions(shell, complete):
    """Writes the shell's completion script and asks `complete(script, line, folder)` for each line of
    EXPECTED: the words offered (a folder's trailing / dropped) must be exactly those expected."""
    folder = completion_folder()
    script = os.path.join(folder, "..", os.path.basename(folder) + "." + shell)
    with open(script, "w") as f:
        f.write(termmap("help", "completions", shell))
    for line, want in EXPECTED.items():
        got = sorted(w.rstrip("/") for w in complete(script, line, folder))
        assert got == want, f"{line!r}: {got} != {want}"
    return f"{len(EXPECTED)} command lines"


@check("bash: Debian's bash-completion completes options, values, data's commands and .pmtiles files")
def _():
    return check_completions("bash", bash_complete)


@check("fish: complete -C completes the same command lines")
def _():
    def fish_complete(script, line, folder):
        out = run(["fish", "--no-config", "-c", f"source {script}; complete -C '{line}'"], cwd=folder).stdout
        return [w.split("\t")[0] for w in out.splitlines()]
    return check_completions("fish", fish_complete)


@check("zsh: the completion parses (zsh -n) and defines _termmap")
def _():
    script = tempfile.mktemp(prefix="_termmap")
    with open(script, "w") as f:
        f.write(termmap("help", "completions", "zsh"))
    assert run(["zsh", "-n", script]).returncode == 0
    r = run(["zsh", "-f", "-c", f"autoload -U compinit; compinit -u -D; source {script}; whence -w _termmap"])
    assert "_termmap: function" in r.stdout, r.stdout + r.stderr


@check("a configuration's [keys] drive the viewer in tmux: x zooms in, + no longer does")
def _():
    home = tempfile.mkdtemp(prefix="termmap-xdg-")
    os.makedirs(os.path.join(home, "termmap"))
    with open(os.path.join(home, "termmap", "config"), "w") as f:
        f.write('zoom = 3\n\n[keys]\nzoom-in = "x"\nquit = "Q", "<Ctrl-C>"\n')
    s = harness.Session(tmux, BINARY, "--no-animation", 100, 30, f"TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME={home}")
    assert s.zoom() == 3.0, s.screen()[-300:]
    s.keys("+")
    assert s.zoom() == 3.0, "+ still zooms"
    s.keys("x")
    s.wait_for(lambda _: s.zoom() != 3.0)
    assert s.zoom() and s.zoom() > 3.0, s.screen()[-300:]
    s.keys("?")
    assert "x  " in s.screen() and "zoom in" in s.screen(), "the help shows x for zoom in"
    s.keys("Escape", "q")
    assert s.exit_status(1.0) is None, "q still quits"
    s.keys("Q")
    assert s.exit_status() == 0


def land_backgrounds(screen):
    """The 256-colour backgrounds of land the pane shows: 235 in the dark theme, 230 in the light."""
    found = set(re.findall(r"48;5;(235|230)m", screen))
    return {"235": "dark", "230": "light"}.get(found.pop()) if len(found) == 1 else sorted(found)


def themed_session(window_style="default", env="", args=""):
    """termmap in a tmux whose panes have `window-style` (set before termmap asks)."""
    tmux.with_options(window_style=window_style)
    return harness.Session(tmux, BINARY, f"--no-animation {args}", 100, 30,
                           f"TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=/nonexistent {env}")


@check("--theme auto: tmux answers OSC 11 with its window-style's background: white is light, default dark")
def _():
    seen = {}
    for style in ["bg=colour231", "bg=white", "bg=#202020", "default"]:
        s = themed_session(style)
        seen[style] = land_backgrounds(s.screen(colours=True))
        s.close()
    assert seen == {"bg=colour231": "light", "bg=white": "light", "bg=#202020": "dark", "default": "dark"}, seen
    return ", ".join(f"{k} {v}" for k, v in seen.items())


@check("--theme auto: no OSC 11 answer (tmux's default style) and COLORFGBG=0;15 is light; 15;0 dark; --theme wins")
def _():
    seen = {}
    for env, args in [("COLORFGBG='0;15'", ""), ("COLORFGBG='15;0'", ""), ("COLORFGBG='0;15'", "--theme dark")]:
        s = themed_session(env=env, args=args)
        seen[f"{env} {args}".strip()] = land_backgrounds(s.screen(colours=True))
        s.close()
    assert list(seen.values()) == ["light", "dark", "dark"], seen
    return ", ".join(f"{k}: {v}" for k, v in seen.items())


@check("--theme auto on a terminal that answers nothing: 1 s wait, COLORFGBG=0;15 light; a late answer types no keys")
def _():
    os.environ["COLORFGBG"] = "0;15"
    session = harness.PtySession([BINARY, "--no-animation", "--no-config"], cols=100, rows=30)
    os.environ.pop("COLORFGBG")
    try:
        start = time.time()
        first = b""
        # The start's question, then the first frame and its question, none answered.
        while first.count(b"\x1b[c") < 2 and time.time() - start < 5:
            first += session.collect(None, 0.2)
        waited = time.time() - start
        asked = first.find(b"\x1b]11;?\x07\x1b[c")
        assert 0 <= asked < first.find(b"zoom 0.00"), first[:80]
        assert b"48;5;230m" in first and b"48;5;235m" not in first, first[-300:]
        # The answers arrive late: the colour (r, g, b, f would act as keys), then both DA answers.
        late = session.collect("\x1b]11;rgb:ffff/ffff/ffff\x07\x1b[?62;22c\x1b[?62;22c", 0.6)
        after = session.collect("+", 1.0, answer=b"\x1b[?62;22c").decode("utf-8", "replace")
    finally:
        session.quit()
    assert b"go to" not in late and "go to" not in after, (late, after[-300:])
    assert "zoom 0.00 → " in after, after[-300:]
    assert 0.9 < waited < 2.5, waited
    return f"first frame after {waited:.2f} s; the late answer typed nothing and + zoomed in"


@check("make install puts the man page and the three completions where each system looks")
def _():
    dest = tempfile.mkdtemp(prefix="termmap-install-")
    r = run(["make", "--no-print-directory", "install", f"DESTDIR={dest}", "PREFIX=/usr/local"], cwd=ROOT)
    assert r.returncode == 0, r.stdout[-500:] + r.stderr[-500:]
    for path in ["bin/termmap", "share/termmap/world.tmap", "share/termmap/helsinki.tmap", "share/man/man1/termmap.1",
                 "share/bash-completion/completions/termmap", "share/zsh/site-functions/_termmap",
                 "share/fish/vendor_completions.d/termmap.fish"]:
        assert os.path.getsize(os.path.join(dest, "usr/local", path)) > 0, path
    out = run([os.path.join(dest, "usr/local/bin/termmap"), "render", "--no-config", "--size", "40x12"])
    assert out.returncode == 0 and "zoom 0.00" in out.stdout, out.stdout[-300:] + out.stderr
    shutil.rmtree(dest)


def installed_files():
    return run(["dpkg-query", "-L", "termmap"]).stdout.split()


@check("Debian package: lintian reports no errors; apt-get install, render, man -w, bash completion, purge leaves nothing")
def _():
    if os.geteuid() != 0:
        return "skipped (not root: apt-get install needs root)"
    assert run(["dpkg-query", "-W", "termmap"]).returncode != 0, "termmap is installed already: remove it first"
    r = run(["make", "--no-print-directory", "deb"], cwd=ROOT)
    assert r.returncode == 0, r.stdout[-500:] + r.stderr[-500:]
    deb = r.stdout.strip().splitlines()[-1]
    deb = os.path.join(ROOT, deb)
    lint = run(["lintian", "--allow-root", deb])
    tags = [line for line in lint.stdout.splitlines() if re.match(r"[EW]: ", line)]
    assert not [t for t in tags if t.startswith("E:")], tags
    control = run(["dpkg-deb", "-f", deb, "Depends", "Recommends", "Suggests"]).stdout
    assert "libproj" in control and "libncursesw6" in control and "Recommends: libcurl" in control, control
    assert "Suggests: gdal-bin" in control, control
    contents = run(["dpkg-deb", "-c", deb]).stdout
    files = ["/" + line.split()[-1].lstrip("./") for line in contents.splitlines() if not line.startswith("d")]
    try:
        r = run(["apt-get", "install", "-y", "-qq", deb], env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        assert r.returncode == 0, r.stdout[-500:] + r.stderr[-500:]
        out = run(["/usr/bin/termmap", "render", "--no-config", "--size", "60x20", "--center", "Helsinki", "--zoom", "15"])
        # The bundled demo city, from /usr/share/termmap, with its credit.
        assert out.returncode == 0 and "© OSM" in out.stdout and "katu" in out.stdout, out.stdout[-300:] + out.stderr
        assert run(["man", "-w", "termmap"]).stdout.strip() == "/usr/share/man/man1/termmap.1.gz"
        program = ("source /usr/share/bash-completion/bash_completion; _completion_loader termmap; "
                   "COMP_WORDS=(termmap --the); COMP_CWORD=1; COMP_LINE='termmap --the'; COMP_POINT=13; "
                   "_termmap termmap --the termmap; echo ${COMPREPLY[@]}")
        assert run(["bash", "-c", program]).stdout.split() == ["--theme"]
        assert set(files) <= set(installed_files())
    finally:
        r = run(["apt-get", "purge", "-y", "-qq", "termmap"], env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    assert r.returncode == 0, r.stderr
    assert run(["dpkg-query", "-W", "termmap"]).returncode != 0 or "not-installed" in run(
        ["dpkg-query", "-W", "-f=${Status}", "termmap"]).stdout
    left = [f for f in files if os.path.exists(f)] + [d for d in ["/usr/share/termmap", "/usr/share/doc/termmap"] if os.path.exists(d)]
    assert not left, left
    os.unlink(deb)
    return f"{os.path.basename(deb)}: {len(files)} files; lintian: {len(tags)} warnings"


if __name__ == "__main__":
    check.report("conventions")
