"""Shared pieces of the end-to-end scripts: a private tmux server, named checks, and the closing
'N passed, N failed' line."""
import fcntl
import os
import pty
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import time


class Tmux:
    """A tmux server of our own (-L), so that tests never touch the user's sessions."""

    def __init__(self, prefix):
        self.socket = f"{prefix}-{os.getpid()}"

    def __call__(self, *args, check=True):
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=check).stdout

    def new_session(self, command, cols=120, rows=40):
        for _ in range(30):  # the previous check's server may still be shutting down
            if subprocess.run(["tmux", "-L", self.socket, "new-session", "-d", "-s", "m", "-x", str(cols), "-y",
                               str(rows), command]).returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError("tmux would not start a session")

    def with_options(self, **options):
        """Starts the server with global options (`window_style="bg=white"`), for the sessions that come
        after: a session of its own keeps it running."""
        for _ in range(30):  # the previous check's server may still be shutting down
            if subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s",
                               "setup"]).returncode == 0:
                break
            time.sleep(0.1)
        for name, value in options.items():
            self("set", "-g", name.replace("_", "-"), value)

    def kill(self):
        self(*["kill-server"], check=False)


class Session:
    """One tmux session running termmap; the exit status is written to a file when it ends."""

    def __init__(self, tmux, binary, args="", cols=120, rows=40, env="TERM=xterm-256color LANG=C.UTF-8"):
        self.tmux = tmux
        self.status_file = tempfile.mktemp(prefix="termmap-status-")
        self.pid_file = tempfile.mktemp(prefix="termmap-pid-")
        command = (f"env {env} sh -c 'echo $$ > {self.pid_file}; exec {binary} {args}'; "
                   f"echo $? > {self.status_file}; sleep 600")
        tmux.new_session(command, cols, rows)
        self.wait_for(lambda s: "zoom" in s or "terminal" in s, 10)

    def screen(self, colours=False):
        return self.tmux("capture-pane", "-p", *(["-e"] if colours else []), "-t", "m")

    def lines(self):
        return self.screen().rstrip("\n").split("\n")

    def keys(self, *keys, pause=0.35):
        for k in keys:
            self.tmux("send-keys", "-t", "m", k)
        time.sleep(pause)

    def literal(self, text):
        self.tmux("send-keys", "-t", "m", "-l", "--", text)

    def wait_for(self, predicate, seconds=5.0):
        end = time.time() + seconds
        while time.time() < end:
            s = self.screen()
            if predicate(s):
                return s
            time.sleep(0.05)
        return self.screen()

    def zoom(self):
        # The status line's "│ zoom 14.00 │" (ASCII: "| zoom 14.00 |"), not the message's "zoom a → b".
        m = re.search(r"[│|] zoom (\d+\.\d\d) [│|]", self.screen())
        return float(m.group(1)) if m else None

    def center(self):
        m = re.search(r"(\d+\.\d+)°([NS]) (\d+\.\d+)°([EW])", self.screen())
        return m.group(0) if m else None

    def pid(self):
        for _ in range(100):
            try:
                return int(open(self.pid_file).read())
            except (OSError, ValueError):
                time.sleep(0.05)
        return None

    def exit_status(self, seconds=5.0):
        end = time.time() + seconds
        while time.time() < end:
            try:
                return int(open(self.status_file).read())
            except (OSError, ValueError):
                time.sleep(0.05)
        return None

    def flags(self):
        out = self.tmux("display-message", "-p", "-t", "m", "#{alternate_on} #{cursor_flag}").split()
        return {"alternate": out[0] == "1", "cursor": out[1] == "1"}

    def close(self):
        self.tmux.kill()
        for f in (self.status_file, self.pid_file):
            if os.path.exists(f):
                os.unlink(f)


class PtySession:
    """The viewer on a pseudo-terminal of our own, counting the bytes it writes after each key."""

    def __init__(self, argv, cols, rows, term="xterm-256color", cell_pixels=(0, 0)):
        size = struct.pack("HHHH", rows, cols, cols * cell_pixels[0], rows * cell_pixels[1])
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update(TERM=term, LANG="C.UTF-8")
            fcntl.ioctl(1, termios.TIOCSWINSZ, size)  # before the program looks
            os.execvp(argv[0], argv)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, size)

    def send(self, key=None, quiet=0.4):
        """Types `key` (if any) and returns the bytes written until the output is quiet for `quiet` s."""
        return len(self.collect(key, quiet))

    def collect(self, key=None, quiet=0.4, answer=None):
        """Types `key` (if any) and returns what is written until the output is quiet for `quiet` s;
        with `answer`, replies it to each device attributes query (ESC [ c) as a terminal would."""
        if key:
            os.write(self.fd, key.encode())
        out = b""
        while select.select([self.fd], [], [], quiet)[0]:
            try:
                d = os.read(self.fd, 65536)
            except OSError:
                break
            if not d:
                break
            if answer:
                for _ in range(d.count(b"\x1b[c")):
                    os.write(self.fd, answer)
            out += d
        return out

    def quit(self, seconds=10):
        """Types `q` and reads what comes (answering device attributes, as a terminal does) until the
        viewer exits: a viewer still writing a large frame is not left blocked on a full pty. Killed, and
        a failure, after `seconds`."""
        os.write(self.fd, b"q")
        deadline = time.time() + seconds
        while time.time() < deadline:
            if os.waitpid(self.pid, os.WNOHANG)[0]:
                os.close(self.fd)
                return
            if select.select([self.fd], [], [], 0.05)[0]:
                try:
                    d = os.read(self.fd, 65536)
                except OSError:
                    d = b""
                for _ in range(d.count(b"\x1b[c")):
                    os.write(self.fd, b"\x1b[?62;22c")
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        raise AssertionError("the viewer did not quit within %d s of q" % seconds)


class Checks:
    """Named checks: each runs once, a failed assertion or an exception fails it, tmux is reset after."""

    def __init__(self, tmux):
        self.tmux = tmux
        self.results = []

    def __call__(self, name):
        def wrap(fn):
            # E2E_ONLY=a,b runs only the checks whose names contain one of them (while working on one).
            only = [w for w in os.environ.get("E2E_ONLY", "").split(",") if w]
            if only and not any(w in name for w in only):
                return fn
            try:
                detail = fn()
                self.results.append((name, None, detail))
            except AssertionError as e:
                self.results.append((name, str(e) or "assertion failed", None))
            except Exception as e:  # a crash of the harness is a failure too
                self.results.append((name, f"{type(e).__name__}: {e}", None))
            finally:
                self.tmux.kill()
            return fn
        return wrap

    def report(self, label, extra_on_failure=""):
        for name, error, detail in self.results:
            print(("ok   " if error is None else "FAIL ") + name + (f": {detail}" if detail else "")
                  + ("" if error is None else f"\n     {error}"))
        failed = sum(1 for _, e, _ in self.results if e)
        if failed and extra_on_failure:
            print(extra_on_failure)
        print(f"{label}: {len(self.results) - failed} passed, {failed} failed")
        sys.exit(1 if failed else 0)


def sgr_cells(line):
    """(character, foreground, background) of each cell of a line of SGR-coloured text: a colour is a
    palette index (0-255, the 16 ANSI colours as 0-15), an (r, g, b) tuple (38;2 / 48;2), or None for the
    terminal's default."""
    out, fg, bg = [], None, None
    for part in re.split(r"(\x1b\[[0-9;]*m)", line):
        if not part.startswith("\x1b["):
            out += [(ch, fg, bg) for ch in part]
            continue
        codes = [int(c) if c else 0 for c in part[2:-1].split(";")]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                fg = bg = None
            elif c in (38, 48) and i + 4 < len(codes) and codes[i + 1] == 2:
                colour = tuple(codes[i + 2:i + 5])
                fg, bg = (colour, bg) if c == 38 else (fg, colour)
                i += 4
            elif c in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
                fg, bg = (codes[i + 2], bg) if c == 38 else (fg, codes[i + 2])
                i += 2
            elif 30 <= c <= 37 or 90 <= c <= 97:
                fg = c - 30 if c < 90 else c - 90 + 8
            elif 40 <= c <= 47 or 100 <= c <= 107:
                bg = c - 40 if c < 100 else c - 100 + 8
            elif c == 39:
                fg = None
            elif c == 49:
                bg = None
            i += 1
    return out


def wait_for_port(port, tries=100):
    """True once something accepts connections on 127.0.0.1:port (polled every 50 ms), else False."""
    for _ in range(tries):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def suite(name):
    """What an e2e script starts with: the binary (argv[1]), the repository's root, its tmux session and
    checks, a scratch folder and an empty data home in it (the caller removes the folder at the end)."""
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/termmap")
    root = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
    tmux = Tmux("termmap-%s-e2e" % name)
    work = tempfile.mkdtemp(prefix="termmap-%s-" % name)
    os.makedirs(os.path.join(work, "empty"))
    return binary, root, tmux, Checks(tmux), work, os.path.join(work, "empty")
