#!/usr/bin/env python3
"""termmap over real OpenSSH: a private sshd on 127.0.0.1 with its own host key, config and a
throwaway user key (the system's sshd and its config are never touched), the kiosk ForceCommand
recipe from docs/presenting.md for a throwaway demo account (as root; otherwise the current user), a
session driven in tmux, a dropped connection mid-animation, and the bytes a client receives for a
scripted 20-key demo.

    python3 Tests/e2e/ssh_e2e.py .build/debug/termmap
"""
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time

from harness import Checks, Tmux
from sshd import PrivateSSHD

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEMO_USER = PrivateSSHD.demo_user()
tmux = Tmux("termmap-ssh")
check = Checks(tmux)


sshd = PrivateSSHD(BINARY, f"{ROOT}/assets", DEMO_USER)


def screen():
    return tmux("capture-pane", "-p", "-t", "m")


def wait_for(pred, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        s = screen()
        if pred(s):
            return s
        time.sleep(0.1)
    return screen()


def termmap_processes():
    out = subprocess.run(["pgrep", "-f", f"{sshd.binary} --kiosk"], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]




@check("over ssh -tt in tmux: the map and zoom readout appear, z/+/c work, y copies to the client's clipboard, q ends the session cleanly")
def _():
    status = tempfile.mktemp(prefix="termmap-ssh-status-")
    cmd = " ".join(sshd.ssh_command()) + f"; echo $? > {status}; sleep 600"
    tmux.new_session(f"env TERM=xterm-256color LANG=C.UTF-8 {cmd}")
    s = wait_for(lambda t: "zoom 0.00" in t)
    assert "zoom 0.00" in s, s[-500:]
    assert "demo: +/- zoom  arrows pan  / find  ? help  q leave" in s
    assert re.search(r"[\u2801-\u28ff]", s), "no braille map"
    owners = {subprocess.run(["ps", "-o", "user=", "-p", str(p)], capture_output=True, text=True).stdout.strip()
              for p in termmap_processes()}
    assert owners == {DEMO_USER}, f"termmap runs as {owners}, not {DEMO_USER}"
    for k in ["z", "5", "Enter"]:
        tmux("send-keys", "-t", "m", k)
    assert "zoom 5.00" in wait_for(lambda t: "zoom 5.00" in t)
    tmux("send-keys", "-t", "m", "+")
    s = wait_for(lambda t: "zoom in ×0.4" in t and "zoom 6.3" in t)
    assert "zoom in ×0.4" in s, s[-300:]
    tmux("send-keys", "-t", "m", "c")
    assert "circle 500 m" in wait_for(lambda t: "circle 500 m" in t)
    colours = tmux("capture-pane", "-p", "-e", "-t", "m")
    assert "48;5;17" in colours, "no shade over ssh"
    # y 1 in the kiosk: the link crosses ssh to the client's terminal (tmux, set-clipboard on) by OSC 52.
    tmux("set", "-g", "set-clipboard", "on")
    tmux("send-keys", "-t", "m", "y")
    tmux("send-keys", "-t", "m", "1")
    want = "https://www.openstreetmap.org/#map=6/0.000000/0.000000"
    end = time.time() + 10
    while time.time() < end and tmux("show-buffer", check=False) != want:
        time.sleep(0.1)
    assert tmux("show-buffer", check=False) == want, (tmux("show-buffer", check=False), screen()[-200:])
    tmux("send-keys", "-t", "m", "q")
    end = time.time() + 10
    code = None
    while time.time() < end and code is None:
        try:
            code = int(open(status).read())
        except (OSError, ValueError):
            time.sleep(0.1)
    assert code == 0, f"ssh exit status {code}"
    time.sleep(0.3)
    assert termmap_processes() == [], "termmap still running after q"
    os.unlink(status)
    return f"ssh exit status 0, termmap ran as {DEMO_USER}; y 1 put {want} on the client's clipboard"


@check("over ssh: --theme auto asks the client's terminal (tmux, window-style bg=colour231): the light theme")
def _():
    tmux.with_options(window_style="bg=colour231")
    tmux.new_session(f"env TERM=xterm-256color LANG=C.UTF-8 {' '.join(sshd.ssh_command())}; sleep 600")
    s = wait_for(lambda t: "zoom 0.00" in t)
    assert "zoom 0.00" in s, s[-500:]
    colours = tmux("capture-pane", "-p", "-e", "-t", "m")
    assert "48;5;230m" in colours and "48;5;235m" not in colours, "not the light theme's land"
    assert "no command" not in s and "go to" not in s, s[-200:]
    tmux("send-keys", "-t", "m", "q")
    return "land drawn on the light theme's 230 over ssh"


@check("closing the connection mid-animation leaves no termmap process behind")
def _():
    tmux.new_session("env TERM=xterm-256color LANG=C.UTF-8 " + " ".join(sshd.ssh_command()) + "; sleep 600")
    assert "zoom 0.00" in wait_for(lambda t: "zoom 0.00" in t)
    assert termmap_processes(), "termmap is not running"
    tmux("send-keys", "-t", "m", "+")
    time.sleep(0.05)  # inside the 250 ms animation
    client = subprocess.run(["pgrep", "-f", f"ssh -tt -p {sshd.port}"], capture_output=True, text=True).stdout.split()
    for pid in client:
        os.kill(int(pid), signal.SIGKILL)
    end = time.time() + 10
    while time.time() < end and termmap_processes():
        time.sleep(0.1)
    left = termmap_processes()
    assert not left, f"termmap processes left: {left}"
    return f"gone within {10 - max(0, end - time.time()):.1f} s"


DEMO = ["z", "1", "2", "\r", "+", "+", "-", "c", "f", "l", "j", "h", "k", "r", "2", "k", "m", "\r", "f", "q"]


def demo_bytes(animations):
    """Bytes the ssh client receives for the first screen and for the 20 demo keys (120x40)."""
    import fcntl
    import termios
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", LANG="C.UTF-8")
        cmd = sshd.ssh_command()
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    total = 0

    def drain(quiet):
        nonlocal total
        while select.select([fd], [], [], quiet)[0]:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            total += len(data)
            # Answer device attributes queries as a terminal does (termmap paces animation by them).
            for _ in range(data.count(b"\x1b[c")):
                os.write(fd, b"\x1b[?64;1;2;6;22c")
    drain(3.0)
    if not animations:
        os.write(fd, b"a")
        drain(0.6)
    start = total
    for k in DEMO:
        os.write(fd, k.encode())
        drain(0.6)
    os.waitpid(pid, 0)
    return start, total - start


@check("bytes received by the client for a scripted 20-key demo")
def _():
    assert len(DEMO) == 20
    first, animated = demo_bytes(True)
    _, still = demo_bytes(False)
    assert 0 < still < animated
    return (f"first screen {first} bytes; 20-key demo {animated} bytes animated, {still} bytes without "
            f"animation (120x40, xterm-256color)")


if __name__ == "__main__":
    log_path = os.path.join(sshd.dir, "sshd.log")
    log = open(log_path).read() if os.path.exists(log_path) else ""
    sshd.stop()
    check.report("ssh", extra_on_failure="sshd log:\n" + log[-1500:])
