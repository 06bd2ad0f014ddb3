"""Choose the matches a report is about: players, opponents, dates, site, length.

:func:`filter_frames` keeps the matches a :class:`ReportFilter` selects in
every frame (file-level findings, which belong to no match, are kept), so
every table, frame and plot made afterwards counts only those matches.
:func:`fold_case` first merges names that differ only in case;
:func:`unknown_names` tells the names asked for that no match has, with the
names nearest to each.

>>> flt = ReportFilter(players=("Ann",), since="2025-01-01")
>>> flt.selects, flt.describe()
(True, 'player Ann, since 2025-01-01')
"""

from __future__ import annotations

import dataclasses
import difflib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tabla_cli.reports.choice import ReportFilter

if TYPE_CHECKING:  # pandas and the frames load with the first function that needs them, not with the names
    import pandas as pd

    from tabla_cli.reports.frames import Frames

__all__ = ["FilterResult", "ReportFilter", "filter_frames", "fold_case", "unknown_names"]


@dataclass(frozen=True, slots=True)
class FilterResult:
    """The filtered frames and what the filter did.

    Attributes:
        frames: the frames of the selected matches.
        matches: matches before the filter.
        kept: matches selected.
        undated: matches without a date that a date filter met (left
            out, or kept with :attr:`ReportFilter.keep_undated`); 0 without
            a date filter.
    """

    frames: Frames
    matches: int
    kept: int
    undated: int


def as_spelled(frames: Frames, flt: ReportFilter) -> ReportFilter:
    """``flt`` with each player and opponent named as the files spell them most often (case aside),
    so that ``--player LASSE`` reports on ``lasse`` as the matches write the name; a name no match
    has stays as given."""
    counts: Counter[str] = Counter()
    for column in ("player0", "player1"):
        counts.update(frames.matches[column].dropna().tolist())
    spelled: dict[str, str] = {}
    for spelling, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        spelled.setdefault(spelling.casefold(), spelling)

    def respell(names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(spelled.get(name.casefold(), name) for name in names)

    return dataclasses.replace(flt, players=respell(flt.players), opponents=respell(flt.opponents))


def fold_case(frames: Frames, prefer: Iterable[str] = ()) -> Frames:
    """``frames`` with names that differ only in case merged into one spelling.

    The spelling kept is one of ``prefer`` (the names given on the command
    line) when one matches, else the one in most matches (ties: the first
    in sorted order).
    """
    counts: Counter[str] = Counter()
    for column in ("player0", "player1"):
        counts.update(frames.matches[column].dropna().tolist())
    chosen = {p.casefold(): p for p in prefer}
    for spelling, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        chosen.setdefault(spelling.casefold(), spelling)
    aliases = {spelling: chosen[spelling.casefold()] for spelling in counts if chosen[spelling.casefold()] != spelling}
    from tabla_cli.reports.summaries import apply_aliases

    return apply_aliases(frames, aliases)


def _selected(matches: pd.DataFrame, flt: ReportFilter) -> pd.Series:
    import pandas as pd

    keep = pd.Series(True, index=matches.index)
    p0, p1 = matches["player0"], matches["player1"]
    if flt.players and flt.opponents:
        players, opponents = list(flt.players), list(flt.opponents)
        keep &= (p0.isin(players) & p1.isin(opponents)) | (p1.isin(players) & p0.isin(opponents))
    elif flt.players:
        keep &= p0.isin(list(flt.players)) | p1.isin(list(flt.players))
    elif flt.opponents:
        keep &= p0.isin(list(flt.opponents)) | p1.isin(list(flt.opponents))
    dates = matches["date"]
    if flt.since is not None:
        keep &= (dates >= flt.since).fillna(flt.keep_undated)
    if flt.until is not None:
        keep &= (dates <= flt.until).fillna(flt.keep_undated)
    if flt.site is not None:
        keep &= matches["site"].str.casefold().eq(flt.site.casefold()).fillna(False)
    if flt.length is not None:
        keep &= matches["length"].eq(flt.length)
    if flt.money:
        keep &= matches["length"].eq(0)
    return keep.astype(bool)


def _undated(flt: ReportFilter) -> ReportFilter:
    """``flt`` keeping undated matches."""
    return ReportFilter(flt.players, flt.opponents, flt.since, flt.until, flt.site, flt.length, flt.money, True)


def unknown_names(frames: Frames, names: Iterable[str]) -> list[tuple[str, list[str]]]:
    """Each of ``names`` that no match has on either side, with up to three names near it (by :mod:`difflib`).

    Names are compared as given: fold case first (:func:`fold_case`) to compare them without it.
    """
    matches = frames.matches
    return unknown_among(set(matches["player0"].dropna().tolist()) | set(matches["player1"].dropna().tolist()), names)


def unknown_among(
    players: Iterable[str], names: Iterable[str], *, exact_case: bool = True
) -> list[tuple[str, list[str]]]:
    """Each of ``names`` that is none of ``players`` (with ``exact_case`` False: in no case), with up to
    three of the ``players`` near it (by :mod:`difflib`)."""
    known = sorted(set(players))
    spellings: dict[str, list[str]] = {}
    for known_name in known:
        spellings.setdefault(known_name.casefold(), []).append(known_name)
    out = []
    for name in names:
        if name in known or (not exact_case and name.casefold() in spellings):
            continue
        near = difflib.get_close_matches(name.casefold(), list(spellings), n=3, cutoff=0.6)
        out.append((name, [spelling for n in near for spelling in spellings[n]]))
    return out


def filter_frames(frames: Frames, flt: ReportFilter) -> FilterResult:
    """Keep the matches ``flt`` selects in every frame."""
    from tabla_cli.reports.frames import FRAME_NAMES

    matches = frames.matches
    keep = _selected(matches, flt)
    chosen = matches.loc[keep, "match"]
    # The undated matches the other filters keep: the ones a date filter cannot judge.
    undated = int(matches.loc[_selected(matches, _undated(flt)), "date"].isna().sum()) if flt.dated else 0
    if not flt.selects:
        return FilterResult(frames, len(matches), len(matches), undated)
    wanted = set(chosen.tolist())
    changed: dict[str, pd.DataFrame] = {}
    for name in FRAME_NAMES:
        df = frames[name]
        key = df["match"]
        inside = key.isin(wanted)
        if name == "findings":
            inside |= key.isna()
        changed[name] = df[inside.fillna(False).astype(bool)].reset_index(drop=True)
    return FilterResult(frames.replace(**changed), len(matches), len(chosen), undated)
