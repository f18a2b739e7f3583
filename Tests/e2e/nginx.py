"""Debian's nginx for the end-to-end tests: its own configuration in a temporary folder, on 127.0.0.1
only, started and stopped by the test."""
import os
import shutil
import socket
import subprocess
import tempfile

import harness

# The log format the range-request checks read: `GET /x|bytes=0-16383|206|"etag"`.
RANGES = "$request_method $uri|$http_range|$status|$http_if_match"

CONF = """daemon off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 64; }}
http {{
    log_format tests '{log_format}';
    access_log {dir}/access.log tests;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    default_type application/octet-stream;
    server {{
        listen 127.0.0.1:{port};
        root {dir}/www;
{locations}
    }}
}}
"""


class Nginx:
    """nginx serving copies of fixture files from a temporary folder, on a free loopback port, with
    `locations` added to its server block and each request logged as `log_format` says. It runs in the
    foreground under `timeout`, so that it stops by itself even if the test script is killed."""

    def __init__(self, fixtures, files, locations="", log_format=RANGES, port=None):
        self.fixtures = fixtures
        self.dir = tempfile.mkdtemp(prefix="termmap-nginx-")
        www = os.path.join(self.dir, "www")
        os.mkdir(www)
        for f in files:
            shutil.copy(os.path.join(fixtures, f), www)
        # An interrupted download: the first third of a healthy file.
        with open(os.path.join(fixtures, "helsinki-omt.pmtiles"), "rb") as f:
            whole = f.read()
        with open(os.path.join(www, "cut.pmtiles"), "wb") as f:
            f.write(whole[:len(whole) // 3])
        # Workers started by root run as nobody: they must be able to read the folder.
        for d, _, files in os.walk(self.dir):
            os.chmod(d, 0o755)
            for f in files:
                os.chmod(os.path.join(d, f), 0o644)
        self.locations, self.log_format = locations, log_format
        if port is None:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
        self.port = port
        self.start()

    def start(self):
        """Starts (or starts again, after `stop(keep=True)`) on the same port and folder."""
        with open(os.path.join(self.dir, "nginx.conf"), "w") as f:
            f.write(CONF.format(dir=self.dir, port=self.port, locations=self.locations, log_format=self.log_format))
        self.process = subprocess.Popen(
            ["timeout", "600", "nginx", "-p", self.dir, "-c", os.path.join(self.dir, "nginx.conf"), "-e",
             os.path.join(self.dir, "error.log")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if harness.wait_for_port(self.port):
            return
        self.stop()
        raise RuntimeError("nginx did not start: " + self.error_log())

    def url(self, name):
        return f"http://127.0.0.1:{self.port}/{name}"

    def replace(self, name, with_file):
        """Replaces a served file the way a deploy does: a new file renamed over the old."""
        www = os.path.join(self.dir, "www")
        tmp = os.path.join(www, ".new")
        shutil.copy(os.path.join(self.fixtures, with_file), tmp)
        os.chmod(tmp, 0o644)
        os.rename(tmp, os.path.join(www, name))

    def access_log(self):
        try:
            with open(os.path.join(self.dir, "access.log")) as f:
                return [line.rstrip("\n").split("|") for line in f if line.strip()]
        except OSError:
            return []

    def clear_log(self):
        open(os.path.join(self.dir, "access.log"), "w").close()

    def error_log(self):
        try:
            with open(os.path.join(self.dir, "error.log")) as f:
                return f.read()[-500:]
        except OSError:
            return ""

    def listening(self):
        """The sockets listening on this server's port (/proc/net/tcp{,6}: local address as hex
        IP:port, state 0A = LISTEN); asserts that it is 127.0.0.1 alone."""
        found = []
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with open(table) as f:
                for line in f.readlines()[1:]:
                    local, state = line.split()[1], line.split()[3]
                    if state == "0A" and int(local.split(":")[1], 16) == self.port:
                        found.append(local)
        assert found == ["0100007F:%04X" % self.port], found
        return f"listening on {found[0]} (127.0.0.1:{self.port}) only"

    def stop(self, keep=False):
        """Stops nginx; its folder is removed unless `keep` (to start it again)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if not keep:
            shutil.rmtree(self.dir, ignore_errors=True)


