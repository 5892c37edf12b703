"""A throwaway PostgreSQL cluster (initdb + pg_ctl on a free port) for the tests and the
web benchmark: `with throwaway_postgresql() as url: ...`."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from typing import Iterator


class Unavailable(Exception):
    """No PostgreSQL server can be started here; the message says why."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def throwaway_postgresql(fsync: bool = False, max_connections: int = 200) -> Iterator[str]:
    """A SQLAlchemy URL of a fresh cluster, removed afterwards.  `fsync=False` (tests):
    commits skip the disk sync, which only matters for power cuts."""
    try:
        import psycopg  # noqa: F401
    except ModuleNotFoundError:
        raise Unavailable("psycopg is not installed (pip install -e .[postgres])") from None
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if not (initdb and pg_ctl):
        raise Unavailable("no PostgreSQL server: install initdb/pg_ctl (or give a URL)")
    run_as: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        if not shutil.which("runuser"):
            raise Unavailable("running as root without runuser: cannot start a PostgreSQL cluster")
        try:
            import pwd
            pwd.getpwnam("postgres")
        except KeyError:
            raise Unavailable("running as root and there is no postgres user to run the cluster") from None
        run_as = ["runuser", "-u", "postgres", "--"]
    folder = tempfile.mkdtemp(prefix="wasserspiele-pg-")
    if run_as:
        shutil.chown(folder, "postgres")
    data = os.path.join(folder, "data")
    port = free_port()
    flags = f"-k {folder} -p {port} -h 127.0.0.1 -N {max_connections}" + ("" if fsync else " -F")
    try:
        subprocess.run([*run_as, initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"],
                       check=True, capture_output=True, timeout=120)
        subprocess.run([*run_as, pg_ctl, "-D", data, "-w", "-l", os.path.join(folder, "log"), "-o", flags, "start"],
                       check=True, capture_output=True, timeout=60)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise Unavailable(f"could not start a throwaway PostgreSQL cluster: {exc}") from None
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*run_as, pg_ctl, "-D", data, "-m", "immediate", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)
