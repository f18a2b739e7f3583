#!/usr/bin/env python3
"""Bytes the interactive viewer sends to a 200x60 xterm-256color pty for one pan step in each
direction and a zoom step, each against a full repaint (Ctrl-L) of the view it arrived at, over
several scenes.

    python3 Tools/pty_bytes.py .build/release/termmap
"""
import fcntl, os, pty, select, struct, sys, termios

binary = sys.argv[1]
scenes = [("world z0", "0,0", "0"), ("Europe z5", "50,10", "5"), ("Norway z7", "62.5,6.5", "7"),
          ("SF z12", "37.7749,-122.4194", "12"), ("GT z14", "33.777328,-84.397348", "14"),
          ("Fiji z6", "-17.7,179.5", "6")]
steps = [("down", "j"), ("up", "k"), ("right", "l"), ("left", "h"), ("zoom", "+")]


def run(center, zoom):
    """For each step: (bytes of the step, bytes of a repaint of the view it arrived at)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", LANG="C.UTF-8")
        os.execv(binary, [binary, "--no-animation", "--center", center, "--zoom", zoom])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))

    def send(key, quiet=0.4):
        if key:
            os.write(fd, key.encode())
        n = 0
        while select.select([fd], [], [], quiet)[0]:
            try:
                d = os.read(fd, 65536)
            except OSError:
                break
            if not d:
                break
            n += len(d)
        return n

    send(None, 1.5)
    out = [(send(key), send("\x0c")) for _, key in steps]
    os.write(fd, b"q")
    send(None, 0.3)
    os.waitpid(pid, 0)
    return out


print("bytes of a step / bytes of a repaint of the same view (Ctrl-L), 200x60 xterm-256color")
print(f"{'scene':10} " + " ".join(f"{name:>19}" for name, _ in steps))
for name, c, z in scenes:
    cells = [f"{s:6}/{f:6} {100 * s / f:5.1f}%" for s, f in run(c, z)]
    print(f"{name:10} " + " ".join(cells))
