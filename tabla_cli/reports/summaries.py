"""Summaries of the report frames: per player, per match, per finding code.

With analysis (a ``decisions`` frame), the player and match tables also hold
the skill columns of :mod:`tabla_cli.reports.skill`; the opponent and period
tables ``decisions``, ``error_rate`` and ``pr``.

Players are matched by exact name; :func:`apply_aliases` merges names first.
Definitions (also in docs/report.md):

* ``gammons_won`` counts gammons only, ``backgammons_won`` backgammons only
  (likewise ``_lost``);
* ``gammon_rate_won`` = games won at any level above single (gammons,
  backgammons and 1-2-4-8's ``gammon-outside`` and ``gammon-bar``) / the
  games won with a final position (game_wins - forfeits_won: a forfeit,
  a game given up before it was over, has none), and ``gammon_rate_lost``
  the same over game losses; ``backgammon_rate_*``,
  ``gammon_outside_rate_*`` and ``gammon_bar_rate_*`` = that level's games
  over the same games; a rate over zero games is NaN; ``forfeits_*`` and
  ``resignations_*`` count the games that ended so;
* ``doubles`` are initial doubles (centred cube) offered, ``redoubles``
  doubles of an owned cube; ``take_rate`` and ``drop_rate`` are takes and
  drops over ``doubles_received`` (the opponent's doubles and redoubles);
* points are the values the replay verified (``Wins k points`` as written
  when the rules allow it; a garbage value is never summed).
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from tabla_cli.columns import Column, rate, table, typed
from tabla_cli.errors import InputError, Location
from tabla_cli.findings import CODES
from tabla_cli.reports.dice import DICE_COLUMNS, dice_summary
from tabla_cli.reports.frames import COLUMNS, NAME_COLUMNS, SEVERITIES, Frames, decisions_of
from tabla_cli.reports.options import PERIODS, PLAYER_TABLES
from tabla_cli.reports.skill import (
    GROUP_SKILL,
    MATCH_SKILL_COLUMNS,
    OPPONENT_SKILL_COLUMNS,
    SKILL_COLUMNS,
    group_skill,
    match_skill,
    player_skill,
)
from tabla_cli.source import read_source

_ENDS = (("won", "game_wins"), ("lost", "game_losses"))
"""The two ends of a player's games, each with the games its rates are over."""

_LEVELS = {
    "gammons": "gammon",
    "backgammons": "backgammon",
    "gammons_outside": "gammon-outside",
    "gammons_bar": "gammon-bar",
}
"""The results above single, by the stem of the columns that count them (``gammons``, ``gammons_won``)."""

_LEVEL_RATES = (("backgammon", "backgammons"), ("gammon_outside", "gammons_outside"), ("gammon_bar", "gammons_bar"))
"""The levels with rates of their own: ``{level}_rate_won`` = ``{counted}_won / game_wins``, likewise lost."""

PLAYER_COLUMNS: tuple[Column, ...] = table("by.player", each={"level_rates": _LEVEL_RATES, "ends": _ENDS})
"""``--by player``: one row per player (``by.player`` in ``columns.toml``; with analysis, also the skill columns)."""

OPPONENT_COLUMNS: tuple[Column, ...] = table("by.opponent")
"""``--by opponent``: one row per player and opponent (with analysis, also the
skill columns and ``opponent_error_rate``, ``opponent_pr``)."""

PERIOD_COLUMNS: tuple[Column, ...] = table("by.period")
"""``--by period``: one row per player and period, oldest first, undated last
(with analysis, also the skill columns)."""

_FINDING_COUNTS = ("findings", "error_findings")

MATCH_COLUMNS: tuple[Column, ...] = (
    *(c for c in COLUMNS["matches"] if c.name not in ("variant", "rating0", "rating1", *_FINDING_COUNTS)),
    *table("by.match_counts"),
    *(c for c in COLUMNS["matches"] if c.name in _FINDING_COUNTS),
)
"""``--by match``: one row per match (with analysis, also :data:`MATCH_SKILL_COLUMNS`)."""

CODE_COLUMNS: tuple[Column, ...] = table("by.findings", {"severities": SEVERITIES})
"""``--by findings``: one row per finding code."""

_FILE = table("shared.file")

SUMMARY_COLUMNS: dict[str, tuple[Column, ...]] = {
    "player": PLAYER_COLUMNS,
    "opponent": OPPONENT_COLUMNS,
    "period": PERIOD_COLUMNS,
    "dice": DICE_COLUMNS,
    "match": MATCH_COLUMNS,
    "game": (COLUMNS["games"][0], *_FILE, *COLUMNS["matches"][3:5], *COLUMNS["games"][1:]),
    "cube": (COLUMNS["cube"][0], *_FILE, *COLUMNS["cube"][1:]),
    "findings": CODE_COLUMNS,
    "decisions": COLUMNS["decisions"],
}
"""The columns of each ``--by`` table, in order."""

_ANSWERS = ("take", "drop", "beaver", "raccoon")


# --- aliases --------------------------------------------------------------------


def read_aliases(path: str | Path) -> dict[str, str]:
    """Read an alias file: CSV with a header ``alias,player``, one name per row.

    Raises:
        InputError: the file cannot be read, lacks the header, or gives one
            alias two players.
    """
    name = str(path)
    try:
        text = read_source(path).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(
            f"cannot read the alias file: {getattr(exc, 'strerror', None) or exc}", Location(name)
        ) from exc
    reader = csv.DictReader(text.splitlines(), skipinitialspace=True)
    fields = [f.strip() for f in reader.fieldnames or []]
    if "alias" not in fields or "player" not in fields:
        raise InputError("the alias file needs a header line 'alias,player'", Location(name, 1, 1))
    reader.fieldnames = fields
    out: dict[str, str] = {}
    for row in reader:
        alias = (row.get("alias") or "").strip()
        player = (row.get("player") or "").strip()
        if not alias and not player:
            continue
        if not alias or not player:
            raise InputError("a row needs both an alias and a player", Location(name, reader.line_num, 1))
        if out.get(alias, player) != player:
            raise InputError(
                f"alias {alias!r} is given to both {out[alias]!r} and {player!r}", Location(name, reader.line_num, 1)
            )
        out[alias] = player
    return out


def apply_aliases(frames: Frames, aliases: dict[str, str]) -> Frames:
    """``frames`` with every player name found in ``aliases`` replaced by its player."""
    if not aliases:
        return frames
    changed: dict[str, pd.DataFrame] = {}
    for name, columns in NAME_COLUMNS.items():
        df = frames[name].copy()
        for column in columns:
            df[column] = df[column].replace(aliases).astype("string")
        changed[name] = df
    return frames.replace(**changed)


# --- per player ---------------------------------------------------------------------

SESSION_KINDS = ("completed", "unfinished", "one-game", "money")
"""What :func:`session_kinds` calls a match or session."""


def session_kinds(matches: pd.DataFrame) -> pd.Series:
    """Each match's kind: completed, unfinished, one-game (session) or money.

    Read from the length, the games and the final score: money when the
    length is 0; a one-game session when a "16 point match" has a single
    game (Backgammon Galaxy's one-game sessions, scored like money play);
    completed when a side reached the length; else unfinished.
    """
    money = matches["length"].eq(0)
    one_game = matches["length"].eq(16) & matches["games"].eq(1)
    completed = matches["winner_side"].notna() & ~money & ~one_game
    kind = pd.Series("unfinished", index=matches.index, dtype="string")
    kind[completed.to_numpy(dtype=bool)] = "completed"
    kind[one_game.to_numpy(dtype=bool)] = "one-game"
    kind[money.to_numpy(dtype=bool)] = "money"
    return kind


def _sides(matches: pd.DataFrame) -> pd.DataFrame:
    """One row per match and side: ``match, side, player, opponent, kind, match_win, date, rating``."""
    kind = session_kinds(matches)
    parts = []
    for side in (0, 1):
        parts.append(
            pd.DataFrame(
                {
                    "match": matches["match"],
                    "side": side,
                    "player": matches[f"player{side}"],
                    "opponent": matches[f"player{1 - side}"],
                    "kind": kind,
                    "match_win": matches["winner_side"].eq(side).fillna(False).astype(bool) & kind.eq("completed"),
                    "date": matches["date"],
                    "rating": matches[f"rating{side}"],
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def _taken(cube: pd.DataFrame) -> pd.DataFrame:
    taken = cube.loc[cube["action"].isin(("take", "beaver", "raccoon")), ["match", "game"]]
    return taken.drop_duplicates().assign(taken=True)


def _levels(games: pd.DataFrame) -> dict[str, pd.Series]:
    """For each of :data:`_LEVELS`, which of ``games`` ended at that level."""
    result = games["result"].astype("string")
    return {stem: result.eq(level).fillna(False).astype(bool) for stem, level in _LEVELS.items()}


def _game_sides(frames: Frames) -> pd.DataFrame:
    """One row per game and side, with what the game did for that side."""
    money = frames.matches.loc[session_kinds(frames.matches).isin(("money", "one-game")), "match"]
    games = frames.games.merge(_taken(frames.cube), on=["match", "game"], how="left")
    taken = games["taken"].astype("boolean").fillna(False).astype(bool)
    in_money = games["match"].isin(money)
    points = games["points"].fillna(0).astype("int64")
    levels = _levels(games)
    above = pd.DataFrame(levels).any(axis=1)
    parts = []
    for side in (0, 1):
        won = games["winner_side"].eq(side).fillna(False).astype(bool)
        lost = games["winner_side"].eq(1 - side).fillna(False).astype(bool)
        parts.append(
            pd.DataFrame(
                {
                    "match": games["match"],
                    "side": side,
                    "won": won,
                    "lost": lost,
                    "points_won": points.where(won & ~in_money, 0),
                    "points_lost": points.where(lost & ~in_money, 0),
                    "money_points_won": points.where(won & in_money, 0),
                    "money_points_lost": points.where(lost & in_money, 0),
                    **{
                        f"{stem}_{end}": ended & at
                        for stem, at in levels.items()
                        for end, ended in (("won", won), ("lost", lost))
                    },
                    **{
                        f"{name}_{end}": ended & games["ended_by"].eq(how).fillna(False).astype(bool)
                        for name, how in (("forfeits", "forfeit"), ("resignations", "resign"))
                        for end, ended in (("won", won), ("lost", lost))
                    },
                    "cube": games["cube"],
                    "gammons_won_taken_cube": won & above & taken,
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def _cube_counts(cube: pd.DataFrame, by: str | list[str]) -> pd.DataFrame:
    keys = [by] if isinstance(by, str) else by
    counts = cube.groupby([*keys, "action"], observed=False).size().unstack("action", fill_value=0)
    return counts.reindex(columns=list(COLUMNS["cube"][5].categories), fill_value=0)


_GAME_SUMS = (
    "points_won",
    "points_lost",
    "money_points_won",
    "money_points_lost",
    "gammons_won_taken_cube",
    *(f"{stem}_{end}" for stem in (*_LEVELS, "forfeits", "resignations") for end, _ in _ENDS),
)


def _side_stats(frames: Frames, sides: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The counts and rates of the player tables, grouped by ``keys`` (columns of ``sides``).

    ``sides`` has one row per match and side that counts (``match``,
    ``side``, the keys, ``kind``, ``match_win``). Cube columns of the
    opponent's actions are prefixed ``opponent_``.
    """
    kinds = sides.assign(
        completed=sides["kind"].eq("completed"),
        unfinished=sides["kind"].eq("unfinished"),
        one_game=sides["kind"].eq("one-game"),
        money=sides["kind"].eq("money"),
    )
    base = kinds.groupby(keys).agg(
        matches=("match", "nunique"),
        matches_completed=("completed", "sum"),
        match_wins=("match_win", "sum"),
        matches_unfinished=("unfinished", "sum"),
        one_game_sessions=("one_game", "sum"),
        money_sessions=("money", "sum"),
    )
    g = _game_sides(frames).merge(sides[["match", "side", *keys]], on=["match", "side"], how="inner")
    games = g.groupby(keys).agg(
        games=("match", "size"),
        game_wins=("won", "sum"),
        game_losses=("lost", "sum"),
        max_cube=("cube", "max"),
        **{name: (name, "sum") for name in _GAME_SUMS},
    )
    cube = frames.cube.drop(columns=["player"]).merge(sides[["match", "side", *keys]], on=["match", "side"])
    acted = _cube_counts(cube, keys).rename(columns=lambda a: f"{a}s")
    against = frames.cube.drop(columns=["player"]).assign(side=1 - frames.cube["side"])
    against = against.merge(sides[["match", "side", *keys]], on=["match", "side"])
    theirs = _cube_counts(against, keys).rename(columns=lambda a: f"opponent_{a}s")
    out = base.join(games, how="left").join(acted, how="left").join(theirs, how="left")
    counts = [c for c in out.columns if c != "max_cube"]
    out[counts] = out[counts].fillna(0).astype("int64")
    out["doubles_received"] = out["opponent_doubles"] + out["opponent_redoubles"]
    out["doubles_dropped"] = out["opponent_drops"]
    out["match_win_rate"] = rate(out["match_wins"], out["matches_completed"])
    for end, games_of in _ENDS:
        above = out[[f"{stem}_{end}" for stem in _LEVELS]].sum(axis=1)
        played_out = out[games_of] - out[f"forfeits_{end}"]
        out[f"gammon_rate_{end}"] = rate(above, played_out)
        for level, counted in _LEVEL_RATES:
            out[f"{level}_rate_{end}"] = rate(out[f"{counted}_{end}"], played_out)
    out["take_rate"] = rate(out["takes"], out["doubles_received"])
    out["drop_rate"] = rate(out["drops"], out["doubles_received"])
    net = out["points_won"] + out["money_points_won"] - out["points_lost"] - out["money_points_lost"]
    out["points_per_game"] = rate(net, out["games"])
    return out.reset_index()


def _zero_counts(table: pd.DataFrame, columns: tuple[Column, ...]) -> pd.DataFrame:
    """``table`` with the counts of ``columns`` 0 where a row had no decision."""
    for c in columns:
        if c.dtype == "int64":
            table[c.name] = table[c.name].fillna(0).astype("int64")
    return table


def _with_skill(
    table: pd.DataFrame,
    frames: Frames,
    sides: pd.DataFrame,
    keys: list[str],
    columns: tuple[Column, ...],
    opponent: bool = False,
) -> pd.DataFrame:
    """``table`` (typed as ``columns``) with the skill columns added when the frames hold decisions.

    Per player every column of :data:`SKILL_COLUMNS`; grouped otherwise
    (opponent, period) ``decisions``, ``error_rate`` and ``pr``, and with
    ``opponent`` the opponent's rates.
    """
    decisions = decisions_of(frames)
    if decisions is None:
        return typed(table, columns)
    if keys == ["player"]:
        table = table.merge(player_skill(decisions), on="player", how="left")
        extra = SKILL_COLUMNS
    else:
        table = table.merge(group_skill(decisions, sides, keys), on=keys, how="left")
        extra = tuple(c for c in SKILL_COLUMNS if c.name in GROUP_SKILL)
    if opponent:
        table = table.merge(group_skill(decisions, sides, keys, "opponent_"), on=keys, how="left")
        extra = (*extra, *OPPONENT_SKILL_COLUMNS)
    return typed(_zero_counts(table, extra), (*columns, *extra))


def player_summary(frames: Frames, players: tuple[str, ...] = ()) -> pd.DataFrame:
    """One row per player (exact names), sorted by name; columns :data:`PLAYER_COLUMNS`.

    Args:
        frames: the frames.
        players: only these players' rows (default: everyone).
    """
    sides = _sides(frames.matches)
    if players:
        sides = sides[sides["player"].isin(players)]
    out = _side_stats(frames, sides, ["player"]).sort_values("player", kind="stable")
    return _with_skill(out, frames, sides, ["player"], PLAYER_COLUMNS)


def opponent_summary(frames: Frames, players: tuple[str, ...]) -> pd.DataFrame:
    """``--by opponent``: one row per player of ``players`` and opponent; columns :data:`OPPONENT_COLUMNS`.

    Sorted by player, then matches (most first), then opponent.
    """
    sides = _sides(frames.matches)
    sides = sides[sides["player"].isin(players)]
    keys = ["player", "opponent"]
    out = _side_stats(frames, sides, keys)
    out = out.sort_values(["player", "matches", "opponent"], ascending=[True, False, True], kind="stable")
    return _with_skill(out, frames, sides, keys, OPPONENT_COLUMNS, opponent=True)


def period_of(dates: pd.Series, every: str) -> pd.Series:
    """The period (``2024``, ``2024-08``, ``2024-W31``) of each ``YYYY-MM-DD`` date; missing = ``undated``.

    >>> period_of(pd.Series(["2024-08-04", None], dtype="string"), "week").tolist()
    ['2024-W31', 'undated']
    """
    if every not in PERIODS:
        raise ValueError(f"unknown period {every!r}; choose from {', '.join(PERIODS)}")
    parsed = pd.to_datetime(dates, format="%Y-%m-%d", errors="coerce")
    if every == "year":
        text = parsed.dt.strftime("%Y")
    elif every == "month":
        text = parsed.dt.strftime("%Y-%m")
    else:
        iso = parsed.dt.isocalendar()
        text = iso["year"].astype("string") + "-W" + iso["week"].astype("string").str.zfill(2)
    return pd.Series(text, index=dates.index, dtype="string").fillna("undated")


def period_summary(frames: Frames, players: tuple[str, ...], every: str = "month") -> pd.DataFrame:
    """``--by period``: one row per player of ``players`` and period; columns :data:`PERIOD_COLUMNS`."""
    sides = _sides(frames.matches)
    sides = sides[sides["player"].isin(players)]
    sides = sides.assign(period=period_of(sides["date"], every))
    keys = ["player", "period"]
    out = _side_stats(frames, sides, keys)
    rated = sides.dropna(subset=["rating"]).sort_values(["date", "match"], kind="stable", na_position="first")
    last = rated.groupby(keys)["rating"].last().rename("rating").reset_index()
    out = out.merge(last, on=keys, how="left")
    out["_undated"] = out["period"].eq("undated")
    out = out.sort_values(["player", "_undated", "period"], kind="stable")
    return _with_skill(out, frames, sides, keys, PERIOD_COLUMNS)


# --- per match, game, cube, code -------------------------------------------------


def match_summary(frames: Frames) -> pd.DataFrame:
    """One row per match in input order; columns :data:`MATCH_COLUMNS`."""
    m = frames.matches
    games = frames.games
    levels = pd.DataFrame({"match": games["match"], **_levels(games), "max_cube": games["cube"]})
    per_game = levels.groupby("match").agg(**{stem: (stem, "sum") for stem in _LEVELS}, max_cube=("max_cube", "max"))
    acted = _cube_counts(frames.cube, "match").rename(columns=lambda a: f"{a}s")
    out = m.set_index("match").join(per_game, how="left").join(acted, how="left").reset_index()
    out = _zero_counts(out, MATCH_COLUMNS).sort_values("match", kind="stable")
    decisions = decisions_of(frames)
    if decisions is None:
        return typed(out, MATCH_COLUMNS)
    out = _zero_counts(out.merge(match_skill(decisions), on="match", how="left"), MATCH_SKILL_COLUMNS)
    return typed(out, (*MATCH_COLUMNS, *MATCH_SKILL_COLUMNS))


def game_table(frames: Frames) -> pd.DataFrame:
    """The games frame with each match's file and players."""
    names = frames.matches[["match", "file", "player0", "player1"]]
    out = frames.games.merge(names, on="match", how="left")
    return typed(out, SUMMARY_COLUMNS["game"])


def cube_table(frames: Frames) -> pd.DataFrame:
    """The cube frame with each match's file."""
    out = frames.cube.merge(frames.matches[["match", "file"]], on="match", how="left")
    return typed(out, SUMMARY_COLUMNS["cube"])


def findings_by_code(frames: Frames) -> pd.DataFrame:
    """One row per finding code found: how often, in how many files and matches."""
    findings = frames.findings.assign(code=frames.findings["code"].astype("string"))
    out = (
        findings.groupby("code")
        .agg(
            findings=("file", "size"),
            files=("file", "nunique"),
            matches=("match", "nunique"),
        )
        .reset_index()
    )
    out["severity"] = [CODES[c][0].value for c in out["code"]]
    out["description"] = [CODES[c][1] for c in out["code"]]
    order = {s: i for i, s in enumerate(SEVERITIES)}
    out["_order"] = out["severity"].map(order)
    out = out.sort_values(["_order", "code"], kind="stable")
    return typed(out, CODE_COLUMNS)


def decision_table(frames: Frames) -> pd.DataFrame:
    """``--by decisions``: the decisions frame, one row per analysed decision."""
    return typed(frames.decisions, SUMMARY_COLUMNS["decisions"])


TABLES: dict[str, Callable[[Frames], pd.DataFrame]] = {
    "player": player_summary,
    "dice": dice_summary,
    "match": match_summary,
    "game": game_table,
    "cube": cube_table,
    "findings": findings_by_code,
    "decisions": decision_table,
}
"""The table of each ``tabla report --by`` value."""


def summarize(
    frames: Frames, by: str = "player", *, players: tuple[str, ...] = (), every: str = "month"
) -> pd.DataFrame:
    """The ``--by`` table ``by`` of ``frames``.

    Args:
        frames: the frames.
        by: player, opponent, period, dice, match, game, cube, findings or decisions.
        players: the players of the player, opponent, period and dice
            tables (opponent and period need at least one).
        every: the period of ``by="period"``: week, month or year.

    Raises:
        ValueError: an unknown table, or an opponent or period table without players.
    """
    if by in PLAYER_TABLES and not players:
        raise ValueError(f"the {by} table needs players")
    if by == "opponent":
        return opponent_summary(frames, players)
    if by == "period":
        return period_summary(frames, players, every)
    if by == "player":
        return player_summary(frames, players)
    if by == "dice":
        return dice_summary(frames, players)
    try:
        table = TABLES[by]
    except KeyError:
        choices = ", ".join([*TABLES, *PLAYER_TABLES])
        raise ValueError(f"unknown table {by!r}; choose from {choices}") from None
    return table(frames)
