"""Runs a pvpython client against a pvserver on N MPI ranks on localhost.

    python3 RunClientServer.py --mpiexec PATH --pvserver PATH --ranks N
        [--mpi-flag=FLAG ...] [--startup-timeout S] [--client-timeout S]
        -- CLIENT COMMAND ...

Finds a free TCP port, starts `mpiexec FLAGS -np N pvserver --server-port=PORT`
in a process group of its own, waits until the server says it accepts
connections, then runs the client command with `--port PORT` appended.
Whatever happens (client failure, timeout, interrupt), the server's process
group is stopped before this script exits. The exit status is the client's,
or 1 when the server cannot be started, dies early or fails after the client.

The driver is plain python3, not pvpython: pvpython initialises MPI as a
singleton and its environment (OMPI_*, PMIX_*) makes a child mpiexec fail
silently."""
import argparse
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.stderr.flush()
    sys.exit(1)


def free_port():
    # Another process may take the port between this probe and the server's
    # bind; the caller retries on a new port when the server fails to start.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """mpiexec ... pvserver, its output echoed with a prefix to stderr, where
    with-xvfb.sh looks for a lost X connection to retry on a new server."""

    def __init__(self, command):
        self.command = command
        self.lines = queue.Queue()
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, text=True, bufsize=1,
                                        start_new_session=True)
        self.reader = threading.Thread(target=self._echo, daemon=True)
        self.reader.start()

    def _echo(self):
        for line in self.process.stdout:
            print("[pvserver] " + line.rstrip(), file=sys.stderr, flush=True)
            self.lines.put(line)
        self.lines.put(None)  # end of output

    def wait_until_accepting(self, timeout):
        """True once the server prints that it accepts connections; False if
        it exits first; fails after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                fail("pvserver did not accept connections within %g s: %s"
                     % (timeout, " ".join(self.command)))
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                return False
            if "Accepting connection" in line:
                return True

    def stop(self, grace):
        """Waits `grace` seconds for the server to exit by itself (it does
        when its client disconnects), then stops its process group.
        Returns its exit status, or None if it had to be stopped."""
        try:
            return self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.process.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--pvserver", required=True)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--mpi-flag", action="append", default=[])
    parser.add_argument("--startup-timeout", type=float, default=120.0)
    parser.add_argument("--client-timeout", type=float, default=700.0)
    parser.add_argument("client", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    client = args.client[1:] if args.client[:1] == ["--"] else args.client
    if not client:
        fail("no client command after --")
    for tool in (args.mpiexec, args.pvserver, client[0]):
        if shutil.which(tool) is None:
            fail("%s is not installed or not executable" % tool)
    if args.ranks < 1:
        fail("--ranks must be at least 1")
    if "DISPLAY" not in os.environ:
        fail("no DISPLAY: the server renders; run under Testing/Tools/with-xvfb.sh")
    environment = {k: v for k, v in os.environ.items()
                   if not k.startswith(("OMPI_", "PMIX_", "OPAL_"))}
    os.environ.clear()
    os.environ.update(environment)
    # A SIGTERM (e.g. from a test harness) unwinds through the finally below,
    # which stops the server.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("FAIL: terminated"))

    server = None
    for attempt in range(3):
        port = free_port()
        server = Server([args.mpiexec] + args.mpi_flag +
                        ["-np", str(args.ranks), args.pvserver, "--server-port=%d" % port])
        if server.wait_until_accepting(args.startup_timeout):
            break
        status = server.stop(5)
        print("pvserver on port %d exited with status %s before accepting connections "
              "(attempt %d)" % (port, status, attempt + 1), file=sys.stderr)
        server = None
    if server is None:
        fail("pvserver could not be started on %d ranks" % args.ranks)

    status = 1
    try:
        print("pvserver (%d ranks) accepts connections on port %d" % (args.ranks, port), flush=True)
        try:
            status = subprocess.run(client + ["--port", str(port)],
                                    timeout=args.client_timeout).returncode
        except subprocess.TimeoutExpired:
            print("FAIL: the client did not finish within %g s" % args.client_timeout,
                  file=sys.stderr)
            status = 1
    finally:
        server_status = server.stop(30 if status == 0 else 2)
    if status == 0 and server_status != 0:
        fail("the client passed but pvserver %s" % (
            "had to be stopped" if server_status is None else "exited with status %d" % server_status))
    sys.exit(status)


if __name__ == "__main__":
    main()
