"""A PostgreSQL server for the tests of the index on a server.

``$TABLA_TEST_POSTGRES`` (a ``postgresql://`` URL, which ``.ci/run`` sets after
starting a server) is used when set. Else a throw-away server is started on
127.0.0.1 in a temporary data folder, when PostgreSQL's ``initdb`` and
``pg_ctl`` are installed (on the PATH or in Debian's ``/usr/lib/postgresql/*/bin``);
run as root, the server runs as the ``postgres`` user (PostgreSQL refuses
root). Without a server the tests skip and say why, unless
``TABLA_REQUIRE_POSTGRES`` or ``CI`` is set: then they fail.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def unavailable(reason: str) -> None:
    """Skip for ``reason``, or fail where a server is required (CI)."""
    if os.environ.get("TABLA_REQUIRE_POSTGRES") or os.environ.get("CI"):
        pytest.fail(f"PostgreSQL is required here: {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def server() -> Iterator[str]:
    """The URL of a running server's ``postgres`` database (started here, stopped after, unless given)."""
    given = os.environ.get("TABLA_TEST_POSTGRES")
    if given:
        yield given
        return
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not (initdb and pg_ctl):
        unavailable("PostgreSQL's initdb and pg_ctl not found (install postgresql, or set TABLA_TEST_POSTGRES)")
        return
    prefix: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="tabla-pg-"))
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(folder)
            unavailable("running as root and no 'postgres' user to run the server as")
            return
        os.chown(folder, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"
    port = _free_port()
    try:
        subprocess.run(
            [*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "tabla", "--no-sync"],
            check=True,
            capture_output=True,
        )
        options = f"-h 127.0.0.1 -p {port} -k {folder} -c fsync=off -c full_page_writes=off"
        subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start"],
            check=True,
            capture_output=True,
        )
    except (subprocess.CalledProcessError, OSError) as exc:
        log = (folder / "log").read_text(errors="replace")[-500:] if (folder / "log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        unavailable(f"could not start PostgreSQL: {exc}; {getattr(exc, 'stderr', b'')!r} {log}")
        return
    try:
        yield f"postgresql://tabla@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(url: str, name: str) -> str:
    """A new empty database ``name`` on the server of ``url`` (dropped first if there); its URL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"
