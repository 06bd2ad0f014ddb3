"""``tabla positions``: the decisions of an index that a filter chooses, sorted by error or luck.

A :class:`PositionFilter` becomes one SQL query over ``decisions`` (joined
with ``matches`` for the match length), the same on SQLite and PostgreSQL.
Over files instead of an index, :func:`positions_from_files` indexes them
into a temporary SQLite database first and asks it the same query.
"""

from __future__ import annotations

import json
import operator
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from tabla_cli.analysis.stats import SKILL_THRESHOLDS
from tabla_cli.study.store import Store, open_store

if TYPE_CHECKING:
    from tabla_cli.findings import Finding
    from tabla_cli.study.index import IndexOptions, IndexSummary

__all__ = [
    "KINDS",
    "NAMES",
    "RATINGS",
    "SORTS",
    "Found",
    "PositionFilter",
    "Positions",
    "find_positions",
    "player_names",
    "positions_from_files",
    "search_positions",
]

KINDS = {"checker": "checker", "cube": "double", "take": "take"}
"""``--kind`` to the decisions' kinds: a checker play, the roller's cube decision, the answer to a double."""

RATINGS = dict(zip(("doubtful", "error", "blunder"), SKILL_THRESHOLDS))
"""``--rating`` words and the normalised error a decision must exceed (GNU Backgammon's thresholds)."""

SORTS = {
    "error": "d.error DESC NULLS LAST, d.path, d.seq",
    "luck": "d.luck DESC NULLS LAST, d.path, d.seq",
    "unlucky": "d.luck ASC NULLS LAST, d.path, d.seq",
    "order": "d.path, d.seq",
}
"""``--sort``: the biggest errors first, the luckiest rolls first, the unluckiest, or file order."""


@dataclass(frozen=True, slots=True)
class PositionFilter:
    """Which decisions to choose (every field empty or None: all of them).

    Attributes:
        players: the deciding player is one of these (case ignored).
        opponents: the opponent is one of these (case ignored).
        since: the match is dated on or after this day (YYYY-MM-DD).
        until: the match is dated on or before this day.
        tags: every one of these tag words (docs/study.md) is on the decision.
        without: none of these tag words is.
        kind: ``checker``, ``cube`` or ``take`` (:data:`KINDS`).
        min_error: the error is at least this (normalised equity).
        max_error: the error is at most this.
        rating: the mistake is at least this bad (:data:`RATINGS`).
        dice: the roll is one of these (``31`` also matches ``13``).
        site: the match's Site header is this (case ignored).
        length: the match is to this many points.
        money: the match is a money session.
        keep_undated: with ``since`` or ``until``, undated matches are kept too.
        exact_case: ``players`` and ``opponents`` are matched with their case.
        sort: :data:`SORTS`.
        limit: at most this many decisions.
    """

    players: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    tags: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    kind: str | None = None
    min_error: float | None = None
    max_error: float | None = None
    rating: str | None = None
    dice: tuple[str, ...] = ()
    site: str | None = None
    length: int | None = None
    money: bool = False
    keep_undated: bool = False
    exact_case: bool = False
    sort: str = "error"
    limit: int | None = None

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition (``?`` placeholders) and its parameters.

        >>> PositionFilter(players=("Ann",), kind="cube", min_error=0.05).where()
        ('LOWER(d.player) IN (?) AND d.kind = ? AND d.error >= ?', ['ann', 'double', 0.05])
        """
        parts: list[str] = []
        params: list[Any] = []

        def among(column: str, values: Sequence[str]) -> None:
            marks = ", ".join("?" for _ in values)
            if self.exact_case:
                parts.append(f"{column} IN ({marks})")
                params.extend(values)
            else:
                parts.append(f"LOWER({column}) IN ({marks})")
                params.extend(value.lower() for value in values)

        undated = " OR d.date IS NULL" if self.keep_undated else ""
        if self.players:
            among("d.player", self.players)
        if self.opponents:
            among("d.opponent", self.opponents)
        if self.since:
            parts.append(f"(d.date >= ?{undated})")
            params.append(self.since)
        if self.until:
            parts.append(f"(d.date <= ?{undated})")
            params.append(self.until)
        if self.site is not None:
            parts.append("LOWER(m.site) = ?")
            params.append(self.site.lower())
        if self.length is not None:
            parts.append("m.length = ?")
            params.append(self.length)
        if self.money:
            parts.append("m.length = 0")
        for word in self.tags:
            parts.append("d.tags LIKE ?")
            params.append(f"% {word.lower()} %")
        for word in self.without:
            parts.append("d.tags NOT LIKE ?")
            params.append(f"% {word.lower()} %")
        if self.kind is not None:
            parts.append("d.kind = ?")
            params.append(KINDS[self.kind])
        if self.min_error is not None:
            parts.append("d.error >= ?")
            params.append(self.min_error)
        if self.max_error is not None:
            parts.append("d.error <= ?")
            params.append(self.max_error)
        if self.rating is not None:
            parts.append("d.error > ?")
            params.append(RATINGS[self.rating])
        if self.dice:
            rolls = sorted({roll for text in self.dice for roll in (text, text[::-1])})
            parts.append(f"d.dice IN ({', '.join('?' for _ in rolls)})")
            params.extend(rolls)
        return " AND ".join(parts) or "1 = 1", params


_COLUMNS = (
    "d.path, d.seq, d.match_no, d.game, d.move, d.player, d.opponent, d.side, d.kind, d.date, d.dice, "
    "d.action, d.best, d.equity, d.best_equity, d.error, d.error_mwc, d.luck, d.skill, d.source, d.rolled_out, "
    "d.cube, d.cube_state, d.position_id, d.match_id, d.xgid, d.phase, d.plan_player, d.plan_opponent, "
    "d.score, d.pips_player, d.pips_opponent, d.race_lead, d.tags, d.alternatives, m.length"
)
NAMES: tuple[str, ...] = tuple(column.strip().split(".")[1] for column in _COLUMNS.split(","))
"""The keys of a decision :func:`find_positions` gives, in order."""


def _tags(text: str | None) -> list[str]:
    return (text or "").split()


def _alternatives(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _rolled_out(value: Any) -> bool | None:
    return None if value is None else bool(value)


_DECODE: dict[str, Callable[[Any], Any]] = {"tags": _tags, "alternatives": _alternatives, "rolled_out": _rolled_out}
"""The columns stored as text or numbers that a decision gives as Python values: the tag words (a list), the
alternatives (JSON), whether it was rolled out (SQLite keeps 0 and 1)."""


class Positions(Sequence[dict[str, Any]]):
    """The decisions a query found, in its order: each a dict of :data:`NAMES` when asked for.

    The rows are kept as the database gave them (tuples), so that writing
    thousands of them out does not make thousands of dicts first:
    :meth:`reader` gives a function that reads some values of a stored row,
    decoded as the dict would have them.
    """

    __slots__ = ("_rows",)

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self._rows = rows

    @property
    def stored(self) -> list[tuple[Any, ...]]:
        """The rows as the database gave them (values in :data:`NAMES` order, undecoded)."""
        return self._rows

    @staticmethod
    def decode(name: str, value: Any) -> Any:
        """A stored value of column ``name`` as the decision's dict has it."""
        decode = _DECODE.get(name)
        return value if decode is None else decode(value)

    @staticmethod
    def reader(names: Sequence[str]) -> Callable[[tuple[Any, ...]], list[Any]]:
        """A function from a stored row to its values of ``names``, decoded (None for a name that is no column)."""
        known = [name for name in names if name in _INDEX]
        pick = operator.itemgetter(*(_INDEX[name] for name in known)) if known else (lambda row: ())
        decoders = [(i, _DECODE[name]) for i, name in enumerate(names) if name in _DECODE]
        if len(known) == len(names) > 1 and not decoders:
            return lambda row: list(pick(row))
        gaps = [i for i, name in enumerate(names) if name not in _INDEX]

        def read(row: tuple[Any, ...]) -> list[Any]:
            picked = pick(row)
            values = list(picked) if len(known) != 1 else [picked]
            for i in gaps:
                values.insert(i, None)
            for i, decode in decoders:
                values[i] = decode(values[i])
            return values

        return read

    @staticmethod
    def as_dict(row: tuple[Any, ...]) -> dict[str, Any]:
        """A stored row as the decision's dict."""
        item = dict(zip(NAMES, row))
        for name, decode in _DECODE.items():
            item[name] = decode(item[name])
        return item

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self.as_dict(row) for row in self._rows[index]]
        return self.as_dict(self._rows[index])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return map(self.as_dict, self._rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Positions({len(self._rows)} decisions)"


_INDEX = {name: i for i, name in enumerate(NAMES)}


def find_positions(store: Store, flt: PositionFilter) -> Positions:
    """The decisions of the index ``store`` that ``flt`` chooses, in its order."""
    condition, params = flt.where()
    text = (
        f"SELECT {_COLUMNS} FROM decisions d "
        'LEFT JOIN matches m ON m.path = d.path AND m."match_no" = d."match_no" '
        f"WHERE {condition} ORDER BY {SORTS[flt.sort]}"
    )
    if flt.limit is not None:
        text += " LIMIT ?"
        params.append(flt.limit)
    return Positions(store.query(text, params))


def player_names(store: Store) -> set[str]:
    """The names of the players of the matches of the index ``store`` (either side)."""
    rows = store.query_dicts("SELECT player0 AS name FROM matches UNION SELECT player1 AS name FROM matches", [])
    return {str(row["name"]) for row in rows if row["name"] is not None}


def positions_from_files(
    paths: Sequence[str], flt: PositionFilter, **index: Any
) -> tuple[Positions, IndexSummary, set[str]]:
    """:func:`find_positions` over the files under ``paths``, indexed into a temporary database first.

    ``index``: keyword arguments of :func:`~tabla_cli.study.index.index_into`
    (options, jobs, scheduler, progress). Returns the decisions, what
    indexing the files did (their findings among it) and the names of the
    matches' players (:func:`player_names`).
    """
    from tabla_cli.study.index import index_into

    with tempfile.TemporaryDirectory(prefix="tabla-positions-") as folder:
        with open_store(str(Path(folder) / "index.sqlite")) as store:
            summary = index_into(store, paths, **index)
            return find_positions(store, flt), summary, player_names(store)


@dataclass(frozen=True, slots=True)
class Found:
    """What :func:`search_positions` found.

    Attributes:
        rows: the decisions, as :func:`find_positions` gives them.
        findings: the errors of the files read (none from an index).
        unknown: the filter's players that no match has, each with the nearest names.
    """

    rows: Positions
    findings: list[Finding]
    unknown: list[tuple[str, list[str]]]


def search_positions(
    flt: PositionFilter,
    *,
    target: str | None = None,
    paths: Sequence[str] = (),
    options: IndexOptions | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
) -> Found:
    """``tabla positions``' library call: the decisions ``flt`` chooses from the index at ``target``, or
    else from the files under ``paths`` (:func:`positions_from_files`, read with ``options`` by ``jobs``
    processes or on the Dask ``scheduler``), and the players ``flt`` names that no match has."""
    from tabla_cli.reports.filters import unknown_among

    findings: list[Finding] = []
    if target is not None:
        with open_store(target, create=False) as store:
            rows = find_positions(store, flt)
            known = player_names(store)
    else:
        from tabla_cli.study.index import IndexOptions

        rows, summary, known = positions_from_files(
            list(paths), flt, options=options or IndexOptions(), jobs=jobs, scheduler=scheduler
        )
        findings = summary.findings
    return Found(rows, findings, unknown_among(known, flt.players, exact_case=flt.exact_case))
