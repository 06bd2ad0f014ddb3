"""A persistent cache of engine evaluations, so an archive is analysed once.

The cache is one SQLite file, ``analysis.sqlite``, in ``$TABLA_CACHE_DIR`` if
set, else ``$XDG_CACHE_HOME/tabla-cli``, else ``~/.cache/tabla-cli``. A row is
keyed by the decision (:func:`decision_key`), the level and the engine version
(:func:`tabla_cli.analysis.engine.engine_version`: with the revision of how
tabla scores with it), so a new engine, network or scoring never answers
from an old one's figures. Several processes may share the file:
it runs in WAL mode, reads in one query per chunk and writes in one short
transaction per call.

The cache is never a reason for a run to fail: a row that cannot be read
back as the evaluation it stored (damaged bytes, caught by the CRC-32 each
value carries, or a value of another shape) is a miss, evaluated again and rewritten; a file SQLite cannot read is moved
aside (``analysis.sqlite.damaged-<time>``) and a new one made; a cache that
cannot be used at all (a read-only folder, a lock held too long) is bypassed.
Each of these adds a notice for the caller to show.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import time
import types
import zlib
from collections.abc import Iterator, Sequence
from contextlib import closing, suppress
from dataclasses import asdict
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

from tabla_cli.evaluation.types import ANALYSABLE_VARIANTS, DecisionInput, Evaluation

ENV_DIR = "TABLA_CACHE_DIR"
"""Environment variable naming the cache directory (tests, shared caches)."""

_FILE = "analysis.sqlite"
_CHUNK = 500
_SCHEMA = """
CREATE TABLE IF NOT EXISTS evaluations (
    key TEXT NOT NULL,
    level TEXT NOT NULL,
    engine TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (key, level, engine)
) WITHOUT ROWID
"""


def cache_path() -> Path:
    """Where the cache file lives (the directory may not exist yet)."""
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR]) / _FILE
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tabla-cli" / _FILE


def decision_key(d: DecisionInput) -> str:
    """A text that names everything the evaluation of ``d`` depends on.

    The position's gnubg Position ID, the decision kind and dice, then the
    match state as the engine sees it (cube value, owner relative to the side
    on roll, points each side needs with the side on roll first, Crawford,
    Jacoby and beavers), then the play made (the Position ID of its result) or
    the cube action. Two matches of different lengths at the same away score
    share their entries, as their equities are the same.

    >>> from tabla_cli.board import Player, Position
    >>> from tabla_cli.evaluation.types import DecisionKind
    >>> decision_key(DecisionInput(DecisionKind.CHECKER, Position.start(), Player.ZERO,
    ...                            Player.ZERO, 1, None, (7, 5), dice=(3, 1)))
    'backgammon|checker|4HPwATDgc/ABMA|31|1|c|7/5|-|-|-'
    """
    if d.cube_owner is None:
        owner = "c"
    else:
        owner = "p" if d.cube_owner is d.on_roll else "o"
    dice = f"{d.dice[0]}{d.dice[1]}" if d.dice else "-"
    if d.played is not None:
        made = d.played.position_id()
    else:
        made = d.cube_action.value if d.cube_action is not None else "-"
    return "|".join(
        (
            d.variant,
            d.kind.value,
            d.position.position_id(),
            dice,
            str(d.cube),
            owner,
            f"{d.away[d.on_roll]}/{d.away[d.on_roll.other]}",
            "C" if d.crawford else "-",
            ("J" if d.jacoby else "") + ("B" if d.beavers else "") or "-",
            made,
        )
    )


def _dump(evaluation: Evaluation) -> str:
    """A row's value: the evaluation as JSON, after the CRC-32 of that JSON in 8 hex digits."""
    text = json.dumps(asdict(evaluation), separators=(",", ":"))
    return f"{zlib.crc32(text.encode('utf-8')):08x}{text}"


def _fits(value: Any, hint: Any) -> bool:
    """Whether the JSON ``value`` is of the type ``hint`` (an annotation of :class:`Evaluation`)."""
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        return any(_fits(value, option) for option in get_args(hint))
    if origin is tuple:
        parts = get_args(hint)
        return isinstance(value, list) and len(value) == len(parts) and all(map(_fits, value, parts))
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(hint, type) and isinstance(value, hint)


_HINTS = get_type_hints(Evaluation)
_REQUIRED = frozenset(
    f.name
    for f in dataclasses.fields(Evaluation)
    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
)


def _load(text: Any) -> Evaluation | None:
    """The evaluation a row stores; None when the row cannot be read as one (it is then a miss).

    >>> _load('{"equity": null, "best_equity": 0.5, "best": "8/5 6/5", "error": null, "source": "x"}').best
    '8/5 6/5'
    >>> row = _dump(Evaluation(0.1, 0.2, "8/5 6/5", 0.1, "x"))
    >>> _load(row) == Evaluation(0.1, 0.2, "8/5 6/5", 0.1, "x"), _load(row.replace("8/5", "8/4"))
    (True, None)
    >>> _load('xx'), _load('null'), _load('{"equity": "0.1"}'), _load('{"best_equity": 1, "other": 2}')
    (None, None, None, None)
    """
    if not isinstance(text, str):
        return None
    if not text.startswith("{"):  # a checked row; one written before rows had their CRC starts with its JSON
        check, text = text[:8], text[8:]
        if check != f"{zlib.crc32(text.encode('utf-8', 'replace')):08x}":
            return None
    try:
        fields = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(fields, dict) or not _REQUIRED <= fields.keys() <= _HINTS.keys():
        return None
    if not all(_fits(value, _HINTS[name]) for name, value in fields.items()):
        return None
    if fields.get("cube_equities") is not None:
        fields["cube_equities"] = tuple(fields["cube_equities"])
    return Evaluation(**fields)


def _text(raw: bytes) -> str:
    """A text column as read back: damaged bytes become U+FFFD (and the row a miss), not an error."""
    return raw.decode("utf-8", "replace")


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=30.0)
    db.text_factory = _text
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(_SCHEMA)
    return db


def _chunks(items: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def _read(db: sqlite3.Connection, keys: list[str], level: str, engine: str) -> tuple[dict[str, Evaluation], int]:
    """The evaluations the cache holds for ``keys``, and how many rows could not be read."""
    found: dict[str, Evaluation] = {}
    unreadable = 0
    for chunk in _chunks(sorted(set(keys))):
        marks = ",".join("?" * len(chunk))
        rows = db.execute(
            f"SELECT key, value FROM evaluations WHERE level = ? AND engine = ? AND key IN ({marks})",
            (level, engine, *chunk),
        )
        for key, value in rows:
            evaluation = _load(value)
            if evaluation is None or not isinstance(key, str):
                unreadable += 1
            else:
                found[key] = evaluation
    return found, unreadable


def _write(db: sqlite3.Connection, rows: dict[str, Evaluation], level: str, engine: str) -> None:
    with db:
        db.executemany(
            "INSERT OR REPLACE INTO evaluations (key, level, engine, value) VALUES (?, ?, ?, ?)",
            [(key, level, engine, _dump(value)) for key, value in rows.items()],
        )


_BUSY = ("locked", "busy", "unable to open", "readonly", "read-only", "disk i/o", "disk is full")
"""Words of SQLite errors that say the cache cannot be used now, not that the file is damaged."""


_FAILURES = (sqlite3.Error, OSError, ValueError)
"""What using the cache may raise: SQLite's errors, the file system's, and a damaged file's text (UnicodeDecodeError)."""


def _damaged(exc: Exception) -> bool:
    """Whether ``exc`` says the cache file itself is unreadable (then it is set aside), not busy or unwritable."""
    if isinstance(exc, ValueError):
        return True
    text = str(exc).lower()
    return isinstance(exc, sqlite3.DatabaseError) and not any(word in text for word in _BUSY)


def _set_aside(path: Path) -> Path:
    """Move the damaged cache file (and its WAL files) out of the way; returns its new name.

    Raises:
        OSError: it cannot be moved.
    """
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}")
    os.replace(path, aside)
    for extra in ("-wal", "-shm"):
        with suppress(OSError):
            os.replace(path.with_name(path.name + extra), aside.with_name(aside.name + extra))
    return aside


def _aside_if_damaged(path: Path, exc: Exception) -> str:
    """Set a cache file that ``exc`` says is damaged aside; the words that say so ('' when not moved)."""
    if _damaged(exc) and path.exists():
        with suppress(OSError):
            return f": the file is damaged, moved to {_set_aside(path).name}"
    return ""


def _lookup(path: Path, keys: list[str], slot: str, engine: str, notices: list[str]) -> dict[str, Evaluation] | None:
    """Read the cache for ``keys``: None when it cannot be used (with a notice); a damaged file is replaced."""
    for attempt in range(2):
        try:
            with closing(_connect(path)) as db:
                found, unreadable = _read(db, keys, slot, engine)
        except _FAILURES as exc:
            if attempt or not _damaged(exc) or not path.exists():
                notices.append(f"analysis cache {path} not used ({exc}): evaluating without it")
                return None
            try:
                aside = _set_aside(path)
            except OSError as moved:
                notices.append(f"analysis cache {path} is damaged ({exc}) and cannot be moved ({moved}): not used")
                return None
            notices.append(f"analysis cache {path} is damaged ({exc}): moved to {aside.name}, a new one made")
            continue
        if unreadable:
            notices.append(f"analysis cache {path} had unreadable entries: they were evaluated again and rewritten")
        return found
    return None


def analyse(decisions: Sequence[DecisionInput], level: str, threads: int, *, luck: bool = True) -> list[Evaluation]:
    """The engine's :func:`~tabla_cli.analysis.engine.analyse`, its module imported at the first call.

    The engine's module loads bgsage: importing the cache (as reading recorded analysis does) loads no
    engine, only a run that analyses does.
    """
    from tabla_cli.analysis import engine

    return engine.analyse(decisions, level, threads, luck=luck)


def analyse_cached(
    decisions: Sequence[DecisionInput],
    level: str = "auto",
    threads: int = 1,
    *,
    luck: bool = True,
    use_cache: bool = True,
    path: Path | None = None,
    notices: list[str] | None = None,
) -> list[Evaluation]:
    """:func:`~tabla_cli.analysis.engine.analyse`, answering from the cache where it can.

    Only the decisions the cache lacks (or holds unreadable) go to the
    engine (in one call), and their results are stored. With
    ``use_cache=False`` the cache is neither read nor written. A damaged
    cache file is set aside and a new one made; a cache that cannot be used
    (a read-only directory, a lock) is bypassed: the analysis still runs.

    Args:
        decisions: as for :func:`~tabla_cli.analysis.engine.analyse`.
        level: ``1ply``, ``2ply`` or ``3ply``.
        threads: threads of the engine's C++ core.
        luck: compute the luck of each roll (entries with and without luck
            are kept apart).
        use_cache: read and write the cache.
        path: the cache file (default :func:`cache_path`).
        notices: where to add one line per problem met with the cache
            (unreadable rows, a file set aside, a cache bypassed).

    Raises:
        UnknownLevelError: ``level`` is not offered.
    """
    from tabla_cli.analysis.engine import check_level, engine_version, not_analysable

    check_level(level)
    if not use_cache:
        return analyse(decisions, level, threads, luck=luck)
    notices = [] if notices is None else notices
    path = path or cache_path()
    slot = level if luck else f"{level}-noluck"
    engine = engine_version()
    out: list[Evaluation | None] = [None] * len(decisions)
    keys: dict[int, str] = {}
    for i, d in enumerate(decisions):
        if d.variant in ANALYSABLE_VARIANTS:
            keys[i] = decision_key(d)
        else:
            out[i] = not_analysable(d.variant)
    found = _lookup(path, list(keys.values()), slot, engine, notices)
    usable = found is not None
    found = found or {}
    missing = [i for i, key in keys.items() if key not in found]
    fresh = analyse([decisions[i] for i in missing], level, threads, luck=luck) if missing else []
    if fresh and usable:
        try:
            with closing(_connect(path)) as db:
                _write(db, {keys[i]: e for i, e in zip(missing, fresh)}, slot, engine)
        except _FAILURES as exc:
            notices.append(f"analysis cache {path} not written ({exc}){_aside_if_damaged(path, exc)}")
    for i, key in keys.items():
        out[i] = found.get(key)
    for i, computed in zip(missing, fresh):
        out[i] = computed
    result: list[Evaluation] = []
    for evaluation in out:
        assert evaluation is not None
        result.append(evaluation)
    return result
