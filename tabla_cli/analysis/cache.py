"""A persistent cache of engine evaluations, so an archive is analysed once.

The cache is one SQLite file, ``analysis.sqlite``, in ``$TABLA_CACHE_DIR`` if
set, else ``$XDG_CACHE_HOME/tabla-cli``, else ``~/.cache/tabla-cli``. A row is
keyed by the decision (:func:`decision_key`), the level and the engine version
(:func:`tabla_cli.analysis.engine.engine_version`: with the revision of how
tabla scores with it), so a new engine, network or scoring never answers
from an old one's figures. Several processes may share the file:
it runs in WAL mode, reads in one query per chunk and writes in one short
transaction per call.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tabla_cli.analysis.engine import ANALYSABLE_VARIANTS, analyse, check_level, engine_version, not_analysable
from tabla_cli.evaluation.types import DecisionInput, Evaluation

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
    return json.dumps(asdict(evaluation), separators=(",", ":"))


def _load(text: str) -> Evaluation:
    fields: dict[str, Any] = json.loads(text)
    if fields.get("cube_equities") is not None:
        fields["cube_equities"] = tuple(fields["cube_equities"])
    return Evaluation(**fields)


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=30.0)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(_SCHEMA)
    return db


def _chunks(items: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def _read(db: sqlite3.Connection, keys: list[str], level: str, engine: str) -> dict[str, Evaluation]:
    found: dict[str, Evaluation] = {}
    for chunk in _chunks(sorted(set(keys))):
        marks = ",".join("?" * len(chunk))
        rows = db.execute(
            f"SELECT key, value FROM evaluations WHERE level = ? AND engine = ? AND key IN ({marks})",
            (level, engine, *chunk),
        )
        found.update((key, _load(value)) for key, value in rows)
    return found


def _write(db: sqlite3.Connection, rows: dict[str, Evaluation], level: str, engine: str) -> None:
    with db:
        db.executemany(
            "INSERT OR REPLACE INTO evaluations (key, level, engine, value) VALUES (?, ?, ?, ?)",
            [(key, level, engine, _dump(value)) for key, value in rows.items()],
        )


def analyse_cached(
    decisions: Sequence[DecisionInput],
    level: str = "auto",
    threads: int = 1,
    *,
    luck: bool = True,
    use_cache: bool = True,
    path: Path | None = None,
) -> list[Evaluation]:
    """:func:`~tabla_cli.analysis.engine.analyse`, answering from the cache where it can.

    Only the decisions the cache lacks go to the engine (in one call), and
    their results are stored. With ``use_cache=False`` the cache is neither
    read nor written. A cache that cannot be opened (a read-only directory,
    a damaged file) is bypassed: the analysis still runs.

    Args:
        decisions: as for :func:`~tabla_cli.analysis.engine.analyse`.
        level: ``1ply``, ``2ply`` or ``3ply``.
        threads: threads of the engine's C++ core.
        luck: compute the luck of each roll (entries with and without luck
            are kept apart).
        use_cache: read and write the cache.
        path: the cache file (default :func:`cache_path`).

    Raises:
        UnknownLevelError: ``level`` is not offered.
    """
    check_level(level)
    if not use_cache:
        return analyse(decisions, level, threads, luck=luck)
    slot = level if luck else f"{level}-noluck"
    engine = engine_version()
    out: list[Evaluation | None] = [None] * len(decisions)
    keys: dict[int, str] = {}
    for i, d in enumerate(decisions):
        if d.variant in ANALYSABLE_VARIANTS:
            keys[i] = decision_key(d)
        else:
            out[i] = not_analysable(d.variant)
    try:
        with closing(_connect(path or cache_path())) as db:
            found = _read(db, list(keys.values()), slot, engine)
            missing = [i for i, key in keys.items() if key not in found]
            fresh = analyse([decisions[i] for i in missing], level, threads, luck=luck) if missing else []
            if fresh:
                _write(db, {keys[i]: e for i, e in zip(missing, fresh)}, slot, engine)
    except (sqlite3.Error, OSError):
        return analyse(decisions, level, threads, luck=luck)
    for i, key in keys.items():
        out[i] = found.get(key)
    for i, computed in zip(missing, fresh):
        out[i] = computed
    result: list[Evaluation] = []
    for evaluation in out:
        assert evaluation is not None
        result.append(evaluation)
    return result
