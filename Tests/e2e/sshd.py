"""A private OpenSSH server for the SSH tests: loopback only, stopped by its pid."""
import getpass
import os
import shutil
import signal
import socket
import subprocess
import tempfile

from harness import wait_for_port

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class PrivateSSHD:
    """An sshd of our own on 127.0.0.1 (own host key, config and user key; the system's sshd and its
    config are never touched) with docs/presenting.md's kiosk ForceCommand for `user`."""

    @staticmethod
    def demo_user():
        """docs/presenting.md's recipe is for a demo account of its own: as root the tests make a throwaway one
        (and remove it), so that no login runs root's shell start-up; otherwise the current user."""
        return "termmapdemo" if os.geteuid() == 0 else getpass.getuser()

    def __init__(self, binary, data, user, extra_config="", files=(), args=""):
        """`files` are copied beside the map data (the demo account reads them there) and `args` are
        added to the kiosk's command, `{data}` in them naming that folder."""
        self.dir = tempfile.mkdtemp(prefix="termmap-sshd-")
        self.port = free_port()
        d = self.dir
        for name in ("host", "user"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", f"{d}/{name}_key"], check=True)
        shutil.copy(f"{d}/user_key.pub", f"{d}/authorized_keys")
        os.chmod(f"{d}/authorized_keys", 0o600)
        self.binary, self.user = binary, user
        if user == "termmapdemo":
            # The demo account reads the binary and the map from the private folder (the checkout may
            # sit where only root can read), logs in without a password ("*", not locked "!").
            subprocess.run(["userdel", user], capture_output=True)
            os.makedirs(f"{d}/home")
            subprocess.run(["useradd", "-M", "-d", f"{d}/home", "-s", "/bin/sh", user], check=True)
            subprocess.run(["usermod", "-p", "*", user], check=True)
            shutil.chown(f"{d}/home", user)
            os.makedirs(f"{d}/app/data")
            self.binary = shutil.copy(binary, f"{d}/app/termmap")
            for name in ("world.tmap", "helsinki.tmap"):
                shutil.copy(f"{data}/{name}", f"{d}/app/data/")
            for path in files:
                shutil.copy(path, f"{d}/app/data/")
            data = f"{d}/app/data"
            for path in (d, f"{d}/app", f"{d}/app/data"):
                os.chmod(path, 0o755)
            # sshd reads the key file as the user it logs in.
            shutil.chown(f"{d}/authorized_keys", user)
        elif files:
            os.makedirs(f"{d}/data")
            for path in files:
                shutil.copy(path, f"{d}/data/")
            for name in ("world.tmap", "helsinki.tmap"):
                os.symlink(os.path.abspath(f"{data}/{name}"), f"{d}/data/{name}")
            data = f"{d}/data"
        # The kiosk recipe of docs/presenting.md, in a config of our own (`exec`: the login shell becomes termmap).
        force = f"exec {self.binary} --kiosk --idle-timeout 5 --data {data}" + (" " + args.format(data=data) if args else "")
        with open(f"{d}/sshd_config", "w") as f:
            f.write(f"""Port {self.port}
ListenAddress 127.0.0.1
HostKey {d}/host_key
PidFile {d}/sshd.pid
AuthorizedKeysFile {d}/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
AcceptEnv LANG LC_*
{extra_config}
Match User {user}
    ForceCommand {force}
    PermitTTY yes
    AllowTcpForwarding no
    X11Forwarding no
    AllowAgentForwarding no
    PermitTunnel no
""")
        # sshd needs its privilege-separation folder; Debian creates it only when the service starts.
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
        self.proc = subprocess.Popen([SSHD, "-D", "-e", "-f", f"{d}/sshd_config"], stderr=open(f"{d}/sshd.log", "w"))
        wait_for_port(self.port)

    def ssh_command(self, port=None):
        """The client's command line (through `port` instead of sshd's own, e.g. a proxy)."""
        return ["ssh", "-tt", "-p", str(port or self.port), "-i", f"{self.dir}/user_key", "-o", "IdentitiesOnly=yes",
                "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={self.dir}/known_hosts",
                "-o", "LogLevel=ERROR", "-o", "SendEnv=LANG", f"{self.user}@127.0.0.1"]

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)  # this sshd only, by its pid
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        if self.user == "termmapdemo":
            subprocess.run(["pkill", "-u", self.user], capture_output=True)
            subprocess.run(["userdel", self.user], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)
