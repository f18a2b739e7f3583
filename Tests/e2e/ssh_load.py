#!/usr/bin/env python3
"""The SSH demo under load (a benchmark; CI runs it small and checks correctness only): N sessions of
the kiosk recipe of docs/presenting.md through a private sshd on 127.0.0.1, logging in all at once and then 4 a
second; every session's screen, rebuilt by a terminal emulator, is checked against `termmap render`
of the same keys after each key, all sessions pressing each key at the same instant; and one session
behind a rate-limited proxy (32 KB/s, 50 ms each way) for a slow link.

    python3 Tests/e2e/ssh_load.py BINARY                 # CI: 10 sessions, correctness only
    python3 Tests/e2e/ssh_load.py BINARY --full          # make bench-ssh: 1, 10, 25, 50, 100 and the table
    python3 Tests/e2e/ssh_load.py BINARY --slow-link     # the slow link alone
    python3 Tests/e2e/ssh_load.py BINARY --slow-link --imagery  # and kitty and sixel pictures over it
    python3 Tests/e2e/ssh_load.py BINARY --sessions=50   # one number of sessions (and the slow link)

Loopback only; every wait is bounded; every process it starts is ended by its pid.
"""
import os
import pty
import select
import selectors
import queue
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

import fcntl
import termios

from emulator import Terminal
from sshd import PrivateSSHD

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else ".build/debug/termmap")
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FULL = "--full" in sys.argv
SLOW_ONLY = "--slow-link" in sys.argv
IMAGERY = "--imagery" in sys.argv
COLS, ROWS = 120, 40
KEYS = ["+", "l", "+", "j", "-", "h", "c", "k", "f", "-"]
ANSWER_LIMIT = 30.0  # seconds a session may take to show a screen before it counts as failed


def render(keys):
    """The screen `termmap render` gives for `keys`, in colour (without it the circle's shade is a
    stipple), as text: its map and status rows (the message row of a kiosk session says more)."""
    out = subprocess.run([BINARY, "render", "--size", f"{COLS}x{ROWS}", "--data", f"{ROOT}/assets", "--color", "256",
                          "--keys", keys], capture_output=True, text=True, timeout=60).stdout
    out = re.sub(r"\x1b\[[0-9;]*m", "", out).split("\n")
    return [(out[r] if r < len(out) else "").rstrip() for r in range(ROWS - 1)]


class Reader:
    """One thread reading every session's output as it comes (noting when) and answering device
    attributes queries at once, as a terminal does. One thread and a selector, not a thread a session:
    50 threads contending for Python's lock would delay the timestamps they are there to take."""

    ANSWER = b"\x1b[?64;1;2;6;22c"

    def __init__(self):
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.wake_r, self.wake_w = os.pipe()
        self.selector.register(self.wake_r, selectors.EVENT_READ, None)
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def add(self, session):
        with self.lock:
            self.selector.register(session.fd, selectors.EVENT_READ, session)
        os.write(self.wake_w, b"x")

    def remove(self, session):
        with self.lock:
            try:
                self.selector.unregister(session.fd)
            except (KeyError, ValueError):
                pass

    def run(self):
        # The instrument must not queue behind what it measures: among 150 busy processes on 2 cores an
        # ordinary thread waits tens of milliseconds for its turn, and every timestamp would be that late.
        # A user's terminal runs on the user's own machine. (Root only; otherwise as it is.)
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), -10)
        except OSError:
            pass
        while not self.stop:
            for key, _ in self.selector.select(timeout=0.5):
                session = key.data
                if session is None:
                    os.read(self.wake_r, 4096)
                    continue
                try:
                    data = os.read(session.fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    self.remove(session)
                    session.open = False
                    continue
                # A query split between reads still counts: look at the end of the previous one too.
                for _ in range((session.tail + data).count(b"\x1b[c")):
                    os.write(session.fd, self.ANSWER)
                session.tail = data[-2:]
                session.chunks.append((time.monotonic(), data))

    def close(self):
        self.stop = True
        os.write(self.wake_w, b"x")
        self.thread.join(timeout=2)
        os.close(self.wake_r)
        os.close(self.wake_w)


class Session:
    """An ssh client on a pty of our own, read by `reader`; the emulator parses its output only once the
    output has settled, so that parsing never competes with the sessions it measures."""

    def __init__(self, command, reader):
        self.started = time.monotonic()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update(TERM="xterm-256color", LANG="C.UTF-8")
            os.execvp(command[0], command)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.term = Terminal(COLS, ROWS)
        self.bytes = 0
        self.open = True
        self.tail = b""
        self.chunks = []  # (when, bytes) read and not yet parsed; appended by the reader thread only
        self.last_read = self.started  # when the output parsed last came
        self.reader = reader
        reader.add(self)

    def last_heard(self):
        """When output last came, parsed or not."""
        chunks = self.chunks
        return chunks[-1][0] if chunks else self.last_read

    def parse(self):
        """Feeds what came to the emulator; False when nothing did."""
        count = len(self.chunks)
        chunks, self.chunks[:count] = self.chunks[:count], []
        for when, data in chunks:
            self.bytes += len(data)
            self.last_read = when
            self.term.feed(data)
        return bool(chunks)

    def shows(self, screen):
        return self.term.text()[:ROWS - 1] == screen

    def write(self, data):
        os.write(self.fd, data)

    def end(self):
        self.reader.remove(self)
        try:
            os.kill(self.pid, signal.SIGTERM)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        os.close(self.fd)


def wait_all(sessions, screen, since, limit, spawn=None, settle=0.3):
    """Waits until each session shows `screen` (or `limit` s pass); each one's seconds from `since` (from
    its own start when None) to the output that completed it, None when it did not. Output is parsed
    only once every session waited for has had some since `since` and none for `settle` s (and none is
    still to be started), so the emulators' work stays out of the measured time. `spawn`, when given, is
    called each turn to start sessions on a schedule."""
    took = {}

    def check(waiting):
        for s in waiting:
            if s.parse() and s.shows(screen):
                took[s] = s.last_read - (since if since is not None else s.started)

    end = time.monotonic() + limit
    while time.monotonic() < end:
        if spawn:
            spawn()
        waiting = [s for s in sessions if s not in took]
        if not waiting and not (spawn and spawn.pending()):
            break
        time.sleep(0.02)
        if spawn and spawn.pending():
            continue
        live = [s for s in waiting if s.open]
        heard = [s.last_heard() for s in live]
        started = all(t > (since if since is not None else s.started) for s, t in zip(live, heard))
        if started and (not heard or time.monotonic() - max(heard) >= settle):
            check(waiting)
            if not live:
                break
    check([s for s in sessions if s not in took])
    return [took.get(s) for s in sessions]


def termmap_cpu_and_pss(user):
    """Per termmap process of the demo account: CPU seconds so far (the scheduler's nanoseconds, not
    clock ticks) and PSS in MB."""
    out = []
    # By process name: a pattern over command lines would also match a shell running the command.
    pids = subprocess.run(["pgrep", "-u", user, "-x", "termmap"], capture_output=True, text=True).stdout.split()
    for pid in pids:
        try:
            cpu = int(open(f"/proc/{pid}/schedstat").read().split()[0]) / 1e9
            pss = next(int(line.split()[1]) for line in open(f"/proc/{pid}/smaps_rollup") if line.startswith("Pss:"))
            out.append((cpu, pss / 1024))
        except (OSError, StopIteration, ValueError):
            continue
    return out


def first_frame_cpu(runs=10):
    """termmap's CPU seconds from exec to its first frame (median of `runs`), on a pty of its own, read
    when the query that follows the frame arrives. Started by posix_spawn, so that no work of ours
    before the exec counts (a forked Python child's would). PROJ's 12 ms start just after the frame,
    while the user looks at the map; a login's CPU in the table includes them."""
    times = []
    for _ in range(runs):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
        pid = os.posix_spawn(BINARY, [BINARY, "--kiosk", "--data", f"{ROOT}/assets"], env, setsid=True,
                             file_actions=[(os.POSIX_SPAWN_DUP2, slave, fd) for fd in (0, 1, 2)])
        os.close(slave)
        try:
            seen, end = b"", time.monotonic() + 10
            while b"\x1b[c" not in seen[-4096:] and time.monotonic() < end:
                if select.select([master], [], [], 0.5)[0]:
                    seen += os.read(master, 65536)
            times.append(int(open(f"/proc/{pid}/schedstat").read().split()[0]) / 1e9)
        finally:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(master)
    return percentile(times, 0.5)


def cpu_by_command():
    """CPU seconds so far of every process on the machine, summed by command name over all threads
    (the scheduler's nanoseconds: clock ticks would round each short-lived sshd's share to nothing): a
    round of keys' share of termmap, sshd, ssh and this harness (whose emulators parse once output has
    settled). Threads that ended are not counted."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            name = open(f"/proc/{pid}/comm").read().strip()
            total = sum(int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
                        for tid in os.listdir(f"/proc/{pid}/task"))
        except (OSError, ValueError, IndexError):
            continue
        out[name] = out.get(name, 0.0) + total / 1e9
    return out


def percentile(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(p * (len(v) - 1) + 0.5))] if v else float("nan")


def run_sessions(sshd, reader, screens, n, animated, arrival=0.0):
    """N sessions logging in `arrival` s apart, all pressing each key at once. Returns the figures, and
    raises when a session does not show a screen it should."""
    sessions = []
    start = time.monotonic()

    def spawn():
        while len(sessions) < n and time.monotonic() >= start + arrival * len(sessions):
            sessions.append(Session(sshd.ssh_command(), reader))
    spawn.pending = lambda: len(sessions) < n
    spawn()
    try:
        first = wait_all(sessions, screens[0], None, ANSWER_LIMIT + n * (0.5 + arrival), spawn=spawn)
        failed = sum(1 for t in first if t is None)
        assert failed == 0, f"{failed} of {n} sessions never showed the first screen"
        start_cpu = termmap_cpu_and_pss(sshd.user)
        start_all = cpu_by_command()
        if not animated:
            for s in sessions:
                s.write(b"a")
            assert None not in wait_all(sessions, screens[0], time.monotonic(), ANSWER_LIMIT)
        key_times, bytes_before = [], sum(s.bytes for s in sessions)
        for k, key in enumerate(KEYS):
            now = time.monotonic()
            for s in sessions:
                s.write(key.encode())
            took = wait_all(sessions, screens[k + 1], now, ANSWER_LIMIT)
            failed = sum(1 for t in took if t is None)
            assert failed == 0, f"{failed} of {n} sessions never showed the screen after key {k + 1} ({key!r})"
            key_times += took
        end_cpu = termmap_cpu_and_pss(sshd.user)
        end_all = cpu_by_command()
    finally:
        for s in sessions:
            s.end()
    return {
        "first": first, "keys": key_times,
        "login_cpu": sum(c for c, _ in start_cpu) / max(1, len(start_cpu)),
        "key_cpu": (sum(c for c, _ in end_cpu) - sum(c for c, _ in start_cpu)) / (n * len(KEYS)),
        "pss": sum(p for _, p in end_cpu) / max(1, len(end_cpu)),
        "bytes": (sum(s.bytes for s in sessions) - bytes_before) / (n * len(KEYS)),
        "cpu_by_command": {k: (end_all[k] - start_all.get(k, 0.0)) / (n * len(KEYS)) for k in end_all
                           if end_all[k] - start_all.get(k, 0.0) > 0},
    }


class SlowLink:
    """A TCP proxy on 127.0.0.1 to sshd: each way `rate` bytes a second and `delay` s late."""

    def __init__(self, target_port, rate=32 * 1024, delay=0.05):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(4)
        self.port = self.server.getsockname()[1]
        self.rate, self.delay, self.target = rate, delay, target_port
        self.wire = 0
        self.stop = threading.Event()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        self.server.settimeout(0.5)
        while not self.stop.is_set():
            try:
                client, _ = self.server.accept()
            except OSError:
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pipe, args=(a, b), daemon=True).start()

    def pipe(self, src, dst):
        """Carries `src` to `dst`: each chunk is on the link once the ones before it have been carried and
        arrives `delay` later. The delay is the link's length, not a pause between chunks: chunks in flight
        overlap, so reading goes on while earlier chunks wait in `due` for their arrival time."""
        src.settimeout(0.5)
        due = queue.Queue()
        threading.Thread(target=self.deliver, args=(due, dst), daemon=True).start()
        sent_until = time.monotonic()
        while not self.stop.is_set():
            try:
                data = src.recv(4096)
            except socket.timeout:
                continue
            except OSError:
                break
            if not data:
                break
            sent_until = max(sent_until, time.monotonic()) + len(data) / self.rate
            due.put((sent_until + self.delay, data))
        due.put((0.0, None))

    def deliver(self, due, dst):
        """Sends each chunk at its arrival time, in order; closes `dst` after the last one."""
        while True:
            at, data = due.get()
            if data is None:
                break
            time.sleep(max(0.0, at - time.monotonic()))
            self.wire += len(data)
            try:
                dst.sendall(data)
            except OSError:
                break
        try:
            dst.close()
        except OSError:
            pass

    def close(self):
        self.stop.set()
        self.server.close()


def link_time(size=12300):
    """Seconds the slow link takes to carry `size` bytes one way: a check of the proxy itself."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    link = SlowLink(server.getsockname()[1])
    client = socket.create_connection(("127.0.0.1", link.port))
    far, _ = server.accept()
    try:
        client.settimeout(10)
        start = time.monotonic()
        far.sendall(b"x" * size)
        got = 0
        while got < size:
            got += len(client.recv(65536))
        return time.monotonic() - start
    finally:
        for s in (client, far, server):
            s.close()
        link.close()


def slow_link(sshd, reader, animated):
    """One session behind the slow link: seconds from the last key of `+++--` (150 ms apart) to the
    right screen, from a single `+` to its screen, and bytes on the wire for both."""
    link = SlowLink(sshd.port)
    s = Session(sshd.ssh_command(port=link.port), reader)
    try:
        assert wait_all([s], render(""), None, 60)[0] is not None, "the slow session never showed the map"
        if not animated:
            s.write(b"a")
            assert wait_all([s], render(""), time.monotonic(), 30)[0] is not None
        wire = link.wire
        for key in "+++--":
            last_key = time.monotonic()
            s.write(key.encode())
            time.sleep(0.15)
        burst = wait_all([s], render("+++--"), last_key, 60)[0]
        now = time.monotonic()
        s.write(b"+")
        single = wait_all([s], render("+++--+"), now, 60)[0]
        assert burst is not None and single is not None, "the slow session never showed the screen"
        return burst, single, link.wire - wire
    finally:
        s.end()
        link.close()


def imagery_link(graphics, cell=(10, 20)):
    """One session of imagery behind the slow link, its terminal drawing pictures (`--graphics kitty`
    or `sixel`, the pty saying `cell` pixels a cell): seconds from the login to the last byte of the
    first view, and from a pan (`h`, a quarter view) to its last byte, and the bytes on the wire for
    each. The imagery is earth.jpg (Debian xplanet-images) tiled by gdal2tiles (Tools/make_imagery.py)."""
    import harness
    work = tempfile.mkdtemp(prefix="termmap-imagery-link-")
    try:
        # PyPI's pmtiles, where the Makefile puts the tests' PyPI packages.
        env = dict(os.environ, PYTHONPATH=f"{ROOT}/.pytest")
        subprocess.run([sys.executable, f"{ROOT}/Tools/make_imagery.py", work, "earth"], check=True,
                       capture_output=True, timeout=300, env=env)
        args = f"--tiles {{data}}/earth.pmtiles --center 47,10 --zoom 4 --graphics {graphics}"
        sshd = PrivateSSHD(BINARY, f"{ROOT}/assets", PrivateSSHD.demo_user(), files=[f"{work}/earth.pmtiles"], args=args)
        link = SlowLink(sshd.port)
        session = harness.PtySession(sshd.ssh_command(port=link.port), COLS, ROWS, cell_pixels=cell)
        answer = b"\x1b[?62;4;22c" if graphics == "sixel" else b"\x1b[?62;22c"

        def until_quiet(since, quiet=3.0, limit=300):
            """Reads until nothing came for `quiet` s: the time of the last byte after `since`, and the
            output."""
            out, last = b"", since
            while time.monotonic() - since < limit:
                if not select.select([session.fd], [], [], quiet)[0]:
                    if out:
                        break
                    continue
                try:
                    data = os.read(session.fd, 1 << 16)
                except OSError:
                    break
                for _ in range(data.count(b"\x1b[c")):
                    os.write(session.fd, answer)
                out, last = out + data, time.monotonic()
            return last - since, out

        try:
            start = time.monotonic()
            view, out = until_quiet(start)
            view_wire = link.wire
            pictures = out.count(b"a=t,") if graphics == "kitty" else out.count(b"\x1bP")
            start = time.monotonic()
            os.write(session.fd, b"h")
            pan, out = until_quiet(start)
            moved = out.count(b"a=t,") if graphics == "kitty" else out.count(b"\x1bP")
            return view, view_wire, pictures, pan, link.wire - view_wire, moved
        finally:
            try:
                session.quit(seconds=60)
            except AssertionError:
                pass
            link.close()
            sshd.stop()
    finally:
        subprocess.run(["rm", "-rf", work])


def main():
    sshd = PrivateSSHD(BINARY, f"{ROOT}/assets", PrivateSSHD.demo_user(), extra_config="MaxStartups 200:30:300")
    reader = Reader()
    try:
        screens = [render("")] + [render("".join(KEYS[:k + 1])) for k in range(len(KEYS))]
        only = [int(a.split("=")[1]) for a in sys.argv if a.startswith("--sessions=")]
        sizes = [] if SLOW_ONLY else only or ([1, 10, 25, 50, 100] if FULL else [10])
        rows = []
        for n in sizes:
            for animated in (False, True):
                r = run_sessions(sshd, reader, screens, n, animated)
                rows.append((f"{n} at once" + (", animated" if animated else ""), n, r))
            if n >= 10:
                r = run_sessions(sshd, reader, screens, n, False, arrival=0.25)
                rows.append((f"{n}, 4 a second", n, r))
        slow = [(animated, slow_link(sshd, reader, animated)) for animated in (False, True)]
        pictures = [(g, imagery_link(g)) for g in ("kitty", "sixel")] if FULL or IMAGERY else []
        link = link_time()
        first_cpu = first_frame_cpu()
    finally:
        reader.close()
        sshd.stop()
    print(f"termmap over ssh: {COLS}x{ROWS}, xterm-256color, {len(KEYS)} keys pressed by every session at once, "
          "screens checked against termmap render")
    print(f"{'sessions':22} {'first screen s':>24} {'over 5 s':>8} {'key → screen ms':>22} {'login CPU ms':>12} "
          f"{'CPU/key ms':>10} {'PSS MB':>7} {'bytes/key':>9}")
    for name, n, r in rows:
        f, k = r["first"], [t * 1000 for t in r["keys"]]
        print(f"{name:22} {percentile(f, .5):7.2f} {percentile(f, .95):7.2f} {max(f):7.2f} "
              f"{sum(1 for t in f if t > 5):8} {percentile(k, .5):6.0f} {percentile(k, .95):6.0f} {max(k):6.0f} "
              f"{r['login_cpu'] * 1000:12.0f} {r['key_cpu'] * 1000:10.1f} {r['pss']:7.1f} {r['bytes']:9.0f}")
    print("(first screen: p50 p95 max; key → screen: p50 p95 max)")
    for name, n, r in rows:
        spent = r["cpu_by_command"]
        # termmap's own is the table's CPU/key column.
        print(f"{name}: CPU a key besides termmap's, ms: " + ", ".join(
            f"{label} {spent.get(command, 0.0) * 1000:.1f}" for command, label in
            (("sshd", "sshd"), ("ssh", "ssh"), ("python3", "this harness"))))
    for animated, (burst, single, wire) in slow:
        print(f"slow link (32 KB/s, 50 ms each way), {'animated' if animated else 'no animation'}: "
              f"+++-- settles {burst:.2f} s after the last key, one + {single:.2f} s; {wire} bytes on the wire")
    for graphics, (view, view_wire, sent, pan, pan_wire, moved) in pictures:
        print(f"slow link, imagery as {graphics} pictures ({COLS}x{ROWS}, 10x20 pixels a cell, earth.jpg at zoom 4): "
              f"first view {view:.1f} s, {view_wire} bytes on the wire ({sent} chunks); a quarter-view pan "
              f"{pan:.1f} s, {pan_wire} bytes ({moved} chunks sent)")
    print(f"termmap's CPU from exec to its first frame: {first_cpu * 1000:.1f} ms (median of 10, without ssh)")
    print(f"(the slow link carries 12,300 bytes in {link:.3f} s; 32 KB/s and 50 ms make 0.425 s)")
    print(f"ssh load: {sum(len(r['first']) for _, _, r in rows)} sessions, every screen right")


if __name__ == "__main__":
    main()
