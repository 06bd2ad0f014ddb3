"""The index's database: an SQLite file by default, or a PostgreSQL server given by a URL.

One :class:`Store` holds the tables of docs/study.md: ``files`` (each indexed
file's path, content hash and the report's frames of it), ``matches``, ``games``,
``decisions`` (every decision, with its evaluation and tags), ``findings`` and
the view ``players``. Each file's rows are replaced in one transaction
(:meth:`Store.replace_file`), so that a reader, or a second ``tabla index``
writing at the same time, sees a file's old rows or its new ones, never a mix:
SQLite takes its write lock at the start of the transaction (``BEGIN
IMMEDIATE``, waiting for another writer up to :data:`BUSY_SECONDS`), and
PostgreSQL takes a transaction-level advisory lock.

Both speak the same SQL here; only the placeholders, the binary type and the
locking differ (:class:`Store` keeps them apart).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabla_cli.errors import TablaError
from tabla_cli.study.tags import TAG_COLUMNS

__all__ = [
    "BUSY_SECONDS",
    "DECISION_FIELDS",
    "GAME_FIELDS",
    "MATCH_FIELDS",
    "SCHEMA_VERSION",
    "Store",
    "StoreError",
    "StoredFile",
    "open_store",
]

SCHEMA_VERSION = 1
BUSY_SECONDS = 600
"""How long a writer waits for another's transaction (a file's rows) before giving up."""

_LOCK_KEY = 0x7461626C61  # "tabla": PostgreSQL's advisory lock of the index's writers


class StoreError(TablaError):
    """The index cannot be opened or written (a bad URL, a server that does not answer, a foreign file)."""


_KINDS = {"text": "TEXT", "int": "BIGINT", "float": "DOUBLE PRECISION", "bool": "BOOLEAN"}

DECISION_FIELDS: tuple[tuple[str, str], ...] = (
    ("path", "text"),
    ("seq", "int"),
    ("match_no", "int"),
    ("match", "text"),
    ("game", "int"),
    ("move", "int"),
    ("player", "text"),
    ("opponent", "text"),
    ("side", "int"),
    ("kind", "text"),
    ("date", "text"),
    ("dice", "text"),
    ("action", "text"),
    ("best", "text"),
    ("equity", "float"),
    ("best_equity", "float"),
    ("error", "float"),
    ("error_mwc", "float"),
    ("rank", "int"),
    ("options", "int"),
    ("forced", "bool"),
    ("close", "bool"),
    ("luck", "float"),
    ("skill", "text"),
    ("source", "text"),
    ("rolled_out", "bool"),
    ("cube", "int"),
    ("position_id", "text"),
    ("match_id", "text"),
    ("xgid", "text"),
    ("game_result", "float"),
    ("alternatives", "text"),
    *TAG_COLUMNS,
    ("tags", "text"),
)
"""The columns of ``decisions`` with their kinds (docs/study.md says what each holds)."""

MATCH_FIELDS: tuple[tuple[str, str], ...] = (
    ("path", "text"),
    ("match_no", "int"),
    ("player0", "text"),
    ("player1", "text"),
    ("length", "int"),
    ("variant", "text"),
    ("date", "text"),
    ("site", "text"),
    ("winner", "text"),
    ("score0", "int"),
    ("score1", "int"),
    ("games", "int"),
    ("findings", "int"),
)
"""The columns of ``matches``."""

GAME_FIELDS: tuple[tuple[str, str], ...] = (
    ("path", "text"),
    ("match_no", "int"),
    ("game", "int"),
    ("score0", "int"),
    ("score1", "int"),
    ("winner", "text"),
    ("winner_side", "int"),
    ("points", "int"),
    ("cube", "int"),
    ("cube_owner", "text"),
    ("result", "text"),
    ("ended_by", "text"),
    ("crawford", "bool"),
    ("post_crawford", "bool"),
    ("moves", "int"),
)
"""The columns of ``games`` (as the report's games frame has them)."""

_FINDING_FIELDS: tuple[tuple[str, str], ...] = (
    ("path", "text"),
    ("line", "int"),
    ("severity", "text"),
    ("code", "text"),
    ("message", "text"),
)


def _table(name: str, fields: Sequence[tuple[str, str]], extra: str = "") -> str:
    columns = ", ".join(f'"{column}" {_KINDS[kind]}' for column, kind in fields)
    return f"CREATE TABLE IF NOT EXISTS {name} ({columns}{extra})"


def _schema(blob: str) -> list[str]:
    return [
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)",
        f"CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, hash TEXT NOT NULL, size BIGINT, "
        f"matches BIGINT, decisions BIGINT, indexed_at TEXT, frames {blob})",
        _table("matches", MATCH_FIELDS, ', PRIMARY KEY (path, "match_no")'),
        _table("games", GAME_FIELDS),
        _table("decisions", DECISION_FIELDS, ", PRIMARY KEY (path, seq)"),
        _table("findings", _FINDING_FIELDS),
        "CREATE INDEX IF NOT EXISTS findings_path ON findings (path)",
        'CREATE INDEX IF NOT EXISTS games_path ON games (path, "match_no")',
        "CREATE VIEW players AS SELECT player AS name, COUNT(DISTINCT path || '#' || match_no) AS matches, "
        "COUNT(*) AS decisions FROM decisions GROUP BY player",
    ]


def _indexes(postgres: bool) -> list[str]:
    """The indexes of ``decisions`` that ``tabla positions`` reads, made where missing (and the one they replace
    dropped).

    ``decisions_by_error`` is in the order of ``--sort error`` (the biggest
    error first, no error last, as :data:`~tabla_cli.study.query.SORTS` has
    it): the worst decisions are read off it without sorting the table, and
    a range of errors is one stretch of it. PostgreSQL needs ``NULLS LAST``
    said (it could not use a plain ``(error)`` index for that order, and
    sorted every row); SQLite sorts NULL first, so that its ``DESC`` already
    puts them last.
    """
    order = "error DESC NULLS LAST" if postgres else "error DESC"
    return [
        "DROP INDEX IF EXISTS decisions_error",  # (error): what an index made before decisions_by_error has
        "CREATE INDEX IF NOT EXISTS decisions_player ON decisions (LOWER(player))",
        f"CREATE INDEX IF NOT EXISTS decisions_by_error ON decisions ({order})",
    ]


@dataclass(frozen=True, slots=True)
class StoredFile:
    """What one file gives the index: its hash and size, and its rows for each table.

    ``frames``: the report's rows of the file (:mod:`tabla_cli.study.frames`), as bytes.
    """

    path: str
    hash: str
    size: int
    matches: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    findings: list[dict[str, Any]]
    frames: bytes | None = None
    games: list[dict[str, Any]] = field(default_factory=list)


def is_url(target: str) -> bool:
    """Whether ``target`` names a PostgreSQL server rather than a file.

    >>> is_url("postgresql://u@localhost/db"), is_url("postgres://h/db"), is_url("archive.sqlite")
    (True, True, False)
    """
    return target.startswith(("postgresql://", "postgres://"))


class Store:
    """An open index (use :func:`open_store`); closes with ``with`` or :meth:`close`.

    Attributes:
        target: the file or URL it was opened from.
        postgres: True for a PostgreSQL server.
    """

    def __init__(self, target: str, connection: Any, postgres: bool) -> None:
        self.target = target
        self.connection = connection
        self.postgres = postgres

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection."""
        self.connection.close()

    def sql(self, text: str) -> str:
        """``text`` with ``?`` placeholders as the driver wants them."""
        return text.replace("?", "%s") if self.postgres else text

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """A write transaction (a cursor); commits at the end, rolls back on an exception.

        Writers are serialised: SQLite's ``BEGIN IMMEDIATE`` takes the write
        lock at once; PostgreSQL waits for the index's advisory lock.
        """
        cursor = self.connection.cursor()
        try:
            if self.postgres:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            else:
                cursor.execute("BEGIN IMMEDIATE")
            yield cursor
        except BaseException:
            self.connection.rollback()
            raise
        else:
            self.connection.commit()
        finally:
            cursor.close()

    def create(self) -> None:
        """Create the tables if they are not there, and the indexes of :func:`_indexes` (which an index of this
        version made before them gets once); a no-op on an index that has them."""
        with self.transaction() as cursor:
            cursor.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            cursor.execute(self.sql("SELECT value FROM meta WHERE key = ?"), ("schema",))
            found = cursor.fetchone()
            if found is not None:
                if found[0] != str(SCHEMA_VERSION):
                    raise StoreError(
                        f"{self.target}: an index of schema {found[0]}, this tabla writes {SCHEMA_VERSION}: "
                        "index into a new one"
                    )
            else:
                for statement in _schema("BYTEA" if self.postgres else "BLOB"):
                    cursor.execute(statement)
                cursor.execute(self.sql("INSERT INTO meta (key, value) VALUES (?, ?)"), ("schema", str(SCHEMA_VERSION)))
            if not self._has_indexes(cursor):
                for statement in _indexes(self.postgres):
                    cursor.execute(statement)

    def _has_indexes(self, cursor: Any) -> bool:
        """Whether the indexes of :func:`_indexes` are there (and the ones they replace gone)."""
        if self.postgres:
            cursor.execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'decisions'"
            )
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'decisions'")
        found = {row[0] for row in cursor.fetchall()}
        return {"decisions_player", "decisions_by_error"} <= found and "decisions_error" not in found

    def hashes(self) -> dict[str, str]:
        """Each indexed file's content hash, by path."""
        return dict(self.query("SELECT path, hash FROM files"))

    def query(self, text: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of a read query (``?`` placeholders)."""
        cursor = self.connection.cursor()
        try:
            cursor.execute(self.sql(text), tuple(params))
            rows = [tuple(row) for row in cursor.fetchall()]
            self.connection.commit()  # end the read transaction: PostgreSQL would hold its snapshot
            return rows
        finally:
            cursor.close()

    def query_dicts(self, text: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """The rows of a read query as dicts keyed by column name."""
        cursor = self.connection.cursor()
        try:
            cursor.execute(self.sql(text), tuple(params))
            names = [d[0] for d in cursor.description]
            rows = [dict(zip(names, row)) for row in cursor.fetchall()]
            self.connection.commit()
            return rows
        finally:
            cursor.close()

    def replace_file(self, stored: StoredFile, indexed_at: str, *, unless_hash: bool = True) -> bool:
        """Replace every row of ``stored.path`` with ``stored``'s, in one transaction.

        With ``unless_hash``, nothing is written when the index already holds
        the file with the same hash (another run wrote it meanwhile): False.
        """
        with self.transaction() as cursor:
            cursor.execute(self.sql("SELECT hash FROM files WHERE path = ?"), (stored.path,))
            found = cursor.fetchone()
            if unless_hash and found is not None and found[0] == stored.hash:
                return False
            self._delete(cursor, stored.path)
            frames = stored.frames
            cursor.execute(
                self.sql(
                    "INSERT INTO files (path, hash, size, matches, decisions, indexed_at, frames) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)"
                ),
                (
                    stored.path,
                    stored.hash,
                    stored.size,
                    len(stored.matches),
                    len(stored.decisions),
                    indexed_at,
                    frames,
                ),
            )
            self._insert(cursor, "matches", MATCH_FIELDS, stored.matches)
            self._insert(cursor, "games", GAME_FIELDS, stored.games)
            self._insert(cursor, "decisions", DECISION_FIELDS, stored.decisions)
            self._insert(cursor, "findings", _FINDING_FIELDS, stored.findings)
        return True

    def _delete(self, cursor: Any, path: str) -> None:
        for table in ("decisions", "games", "matches", "findings", "files"):
            cursor.execute(self.sql(f"DELETE FROM {table} WHERE path = ?"), (path,))

    def _insert(
        self, cursor: Any, table: str, fields: Sequence[tuple[str, str]], rows: Iterable[dict[str, Any]]
    ) -> None:
        names = [name for name, _ in fields]
        columns = ", ".join(f'"{name}"' for name in names)
        marks = ", ".join("?" for _ in names)
        values = [tuple(row.get(name) for name in names) for row in rows]
        if values:
            cursor.executemany(self.sql(f"INSERT INTO {table} ({columns}) VALUES ({marks})"), values)

    def forget(self, paths: Iterable[str]) -> int:
        """Remove every row of ``paths`` (each in its own transaction); how many were indexed."""
        count = 0
        for path in paths:
            with self.transaction() as cursor:
                cursor.execute(self.sql("SELECT 1 FROM files WHERE path = ?"), (path,))
                if cursor.fetchone() is not None:
                    count += 1
                    self._delete(cursor, path)
        return count

    def frames(self) -> list[tuple[str, bytes | None]]:
        """Each indexed file's path and stored report rows, in path order."""
        return [
            (path, None if blob is None else bytes(blob))
            for path, blob in self.query("SELECT path, frames FROM files ORDER BY path")
        ]


def _write_ahead(connection: sqlite3.Connection) -> None:
    """Put the database in WAL mode. SQLite answers "database is locked" at once, without waiting as the
    connection's timeout says, while another process turns a new file to WAL or creates its tables: try
    again until :data:`BUSY_SECONDS` have gone."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def open_store(target: str, *, create: bool = True) -> Store:
    """Open the index at ``target``: a file path (SQLite) or a ``postgresql://`` URL.

    Args:
        target: where the index is.
        create: create the tables if missing; False: the index must exist.

    Raises:
        StoreError: the index cannot be opened (a missing file without
            ``create``, a file that is no SQLite database, a server that does
            not answer, no PostgreSQL driver installed).
    """
    if is_url(target):
        try:
            import psycopg
        except ImportError as exc:
            raise StoreError("a PostgreSQL index needs the psycopg driver: pip install 'tabla-cli[postgres]'") from exc
        try:
            server = psycopg.connect(target, connect_timeout=10)
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to the index: {str(exc).strip()}") from exc
        store = Store(target, server, postgres=True)
    else:
        if not create and not Path(target).is_file():
            raise StoreError(f"{target}: no such index (make one with 'tabla index PATH... --db {target}')")
        try:
            connection = sqlite3.connect(target, timeout=BUSY_SECONDS, isolation_level=None)
            _write_ahead(connection)
            connection.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.Error as exc:
            raise StoreError(f"{target}: cannot open the index: {exc}") from exc
        store = Store(target, _SqliteConnection(connection), postgres=False)
    try:
        if create:
            store.create()
        else:
            store.query("SELECT value FROM meta WHERE key = 'schema'")
    except (sqlite3.Error, StoreError) as exc:
        store.close()
        raise exc if isinstance(exc, StoreError) else StoreError(f"{target}: not an index: {exc}") from exc
    except Exception as exc:
        store.close()
        raise StoreError(f"{target}: not an index: {exc}") from exc
    return store


class _SqliteConnection:
    """An SQLite connection in autocommit mode whose ``commit`` and ``rollback`` end an explicit
    transaction if one is open (so that ``BEGIN IMMEDIATE`` starts every write)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.raw = connection

    def cursor(self) -> sqlite3.Cursor:
        return self.raw.cursor()

    def commit(self) -> None:
        if self.raw.in_transaction:
            self.raw.execute("COMMIT")

    def rollback(self) -> None:
        if self.raw.in_transaction:
            self.raw.execute("ROLLBACK")

    def close(self) -> None:
        self.raw.close()
