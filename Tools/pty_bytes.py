#!/usr/bin/env python3
"""Bytes the interactive viewer sends to a 200x60 xterm-256color pty for one step in each direction,
a zoom step and a full repaint (Ctrl-L), over several scenes.

    python3 Tools/pty_bytes.py .build/release/termmap
"""
import os, pty, select, sys, struct, fcntl, termios
binary = sys.argv[1]
scenes = [("world z0", "0,0", "0"), ("Europe z5", "50,10", "5"), ("Norway z7", "62.5,6.5", "7"),
          ("SF z12", "37.7749,-122.4194", "12"), ("GT z14", "33.777328,-84.397348", "14"), ("Fiji z6", "-17.7,179.5", "6")]
def run(center, zoom, keys):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", LANG="C.UTF-8")
        os.execv(binary, [binary, "--no-animation", "--center", center, "--zoom", zoom])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
    def drain(q=0.4):
        n = 0
        while select.select([fd], [], [], q)[0]:
            try: d = os.read(fd, 65536)
            except OSError: break
            if not d: break
            n += len(d)
        return n
    drain(1.5)
    out = [drain() if os.write(fd, k.encode()) else 0 for k in keys]
    os.write(fd, b"q"); drain(0.3); os.waitpid(pid, 0)
    return out
print("scene        down   up  right  left  zoom  repaint   down% right%")
for name, c, z in scenes:
    d, u, r, l, zz, full = run(c, z, ["j", "k", "l", "h", "+", "\x0c"])
    print(f"{name:10} {d:6} {u:5} {r:6} {l:5} {zz:5} {full:7}  {100*d/full:5.1f} {100*r/full:5.1f}")
