"""Summaries of the report frames: per player, per match, per finding code.

Players are matched by exact name; :func:`apply_aliases` merges names first.
Definitions (also in the README):

* ``gammons_won`` counts gammons only, ``backgammons_won`` backgammons only
  (likewise ``_lost``);
* ``gammon_rate_won`` = games won at any level above single (gammons,
  backgammons and 1-2-4-8's ``gammon-outside`` and ``gammon-bar``) /
  game_wins, and ``gammon_rate_lost`` the same over game_losses;
  ``backgammon_rate_*``, ``gammon_outside_rate_*`` and ``gammon_bar_rate_*``
  = that level's games / game wins or losses; a rate over zero games is NaN;
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

from tabla_cli.errors import InputError, Location
from tabla_cli.findings import CODES
from tabla_cli.reports.frames import COLUMNS, NAME_COLUMNS, SEVERITIES, Column, Frames

C = Column

PLAYER_COLUMNS: tuple[Column, ...] = (
    C("player", "string", "the player's name (after --alias)"),
    C("matches", "int64", "matches played"),
    C("match_wins", "int64", "matches won (reached the match length first)"),
    C("games", "int64", "games played"),
    C("game_wins", "int64", "games won"),
    C("game_losses", "int64", "games lost"),
    C("points_won", "int64", "points won, as the replay verified them"),
    C("points_lost", "int64", "points lost, as the replay verified them"),
    C("gammons_won", "int64", "games won with a gammon (backgammons not included)"),
    C("backgammons_won", "int64", "games won with a backgammon"),
    C("gammons_lost", "int64", "games lost with a gammon"),
    C("backgammons_lost", "int64", "games lost with a backgammon"),
    C("gammons_outside_won", "int64", "1-2-4-8: games won at 4 (the loser had a checker outside his home board)"),
    C("gammons_bar_won", "int64", "1-2-4-8: games won at 8 (the loser also had a checker on the bar)"),
    C("gammons_outside_lost", "int64", "1-2-4-8: games lost at 4"),
    C("gammons_bar_lost", "int64", "1-2-4-8: games lost at 8"),
    C("gammon_rate_won", "float64", "games won above single (gammons_won + backgammons_won + "
                                    "gammons_outside_won + gammons_bar_won) / game_wins"),
    C("gammon_rate_lost", "float64", "games lost above single / game_losses"),
    C("backgammon_rate_won", "float64", "backgammons_won / game_wins"),
    C("backgammon_rate_lost", "float64", "backgammons_lost / game_losses"),
    C("gammon_outside_rate_won", "float64", "gammons_outside_won / game_wins"),
    C("gammon_outside_rate_lost", "float64", "gammons_outside_lost / game_losses"),
    C("gammon_bar_rate_won", "float64", "gammons_bar_won / game_wins"),
    C("gammon_bar_rate_lost", "float64", "gammons_bar_lost / game_losses"),
    C("doubles", "int64", "initial doubles offered (cube centred)"),
    C("redoubles", "int64", "redoubles offered (cube owned)"),
    C("doubles_received", "int64", "doubles and redoubles offered by the opponent"),
    C("takes", "int64", "doubles taken"),
    C("drops", "int64", "doubles dropped"),
    C("beavers", "int64", "doubles beavered"),
    C("raccoons", "int64", "beavers raccooned"),
    C("take_rate", "float64", "takes / doubles_received"),
    C("drop_rate", "float64", "drops / doubles_received"),
    C("doubles_dropped", "int64", "the player's doubles and redoubles that the opponent dropped"),
    C("max_cube", "Int64", "highest cube value at the end of any of the player's games"),
    C("gammons_won_taken_cube", "int64", "games won above single in games where a double was "
                                         "taken (or beavered)"),
)

MATCH_COLUMNS: tuple[Column, ...] = (
    *(c for c in COLUMNS["matches"] if c.name not in ("variant", "date", "findings", "errors")),
    C("gammons", "int64", "games won with a gammon"),
    C("backgammons", "int64", "games won with a backgammon"),
    C("gammons_outside", "int64", "1-2-4-8: games won at 4"),
    C("gammons_bar", "int64", "1-2-4-8: games won at 8"),
    C("doubles", "int64", "initial doubles offered"),
    C("redoubles", "int64", "redoubles offered"),
    C("takes", "int64", "takes"),
    C("drops", "int64", "drops"),
    C("beavers", "int64", "beavers"),
    C("max_cube", "Int64", "highest cube value at the end of a game"),
    *(c for c in COLUMNS["matches"] if c.name in ("findings", "errors")),
)

CODE_COLUMNS: tuple[Column, ...] = (
    C("code", "string", "the finding code"),
    C("severity", "category", "error, warning or note", SEVERITIES),
    C("findings", "int64", "how many times it was found"),
    C("files", "int64", "in how many files"),
    C("matches", "int64", "in how many matches"),
    C("description", "string", "what the code means"),
)

_FILE = C("file", "string", "the file the match was read from")

SUMMARY_COLUMNS: dict[str, tuple[Column, ...]] = {
    "player": PLAYER_COLUMNS,
    "match": MATCH_COLUMNS,
    "game": (COLUMNS["games"][0], _FILE, *COLUMNS["matches"][3:5], *COLUMNS["games"][1:]),
    "cube": (COLUMNS["cube"][0], _FILE, *COLUMNS["cube"][1:]),
    "errors": CODE_COLUMNS,
}
"""The columns of each ``--by`` table, in order."""

del C

_ANSWERS = ("take", "drop", "beaver", "raccoon")


def _typed(df: pd.DataFrame, columns: tuple[Column, ...]) -> pd.DataFrame:
    names = [c.name for c in columns]
    return df[names].astype({c.name: c.pandas_dtype for c in columns}).reset_index(drop=True)


def _rate(num: pd.Series, den: pd.Series) -> pd.Series:
    return (num.astype("float64") / den.astype("float64").where(den > 0)).astype("float64")


# --- aliases --------------------------------------------------------------------


def read_aliases(path: str | Path) -> dict[str, str]:
    """Read an alias file: CSV with a header ``alias,player``, one name per row.

    Raises:
        InputError: the file cannot be read, lacks the header, or gives one
            alias two players.
    """
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the alias file: {getattr(exc, 'strerror', None) or exc}",
                         Location(name)) from exc
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
            raise InputError(f"alias {alias!r} is given to both {out[alias]!r} and {player!r}",
                             Location(name, reader.line_num, 1))
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


# --- per player -------------------------------------------------------------------


def _sides(matches: pd.DataFrame) -> pd.DataFrame:
    """One row per match and side: ``match, side, player, opponent, match_win``."""
    parts = []
    for side in (0, 1):
        parts.append(pd.DataFrame({
            "match": matches["match"],
            "side": side,
            "player": matches[f"player{side}"],
            "opponent": matches[f"player{1 - side}"],
            "match_win": matches["winner_side"].eq(side).fillna(False).astype(bool),
        }))
    return pd.concat(parts, ignore_index=True)


def _taken(cube: pd.DataFrame) -> pd.DataFrame:
    taken = cube.loc[cube["action"].isin(("take", "beaver", "raccoon")), ["match", "game"]]
    return taken.drop_duplicates().assign(taken=True)


def _game_sides(frames: Frames) -> pd.DataFrame:
    """One row per game and side, with the side's player and what the game did for them."""
    names = frames.matches[["match", "player0", "player1"]]
    games = frames.games.merge(names, on="match", how="left")
    games = games.merge(_taken(frames.cube), on=["match", "game"], how="left")
    taken = games["taken"].astype("boolean").fillna(False).astype(bool)
    result = games["result"].astype("string")
    parts = []
    for side in (0, 1):
        won = games["winner_side"].eq(side).fillna(False).astype(bool)
        lost = games["winner_side"].eq(1 - side).fillna(False).astype(bool)
        points = games["points"].fillna(0).astype("int64")
        gammon = result.eq("gammon").fillna(False).astype(bool)
        backgammon = result.eq("backgammon").fillna(False).astype(bool)
        outside = result.eq("gammon-outside").fillna(False).astype(bool)
        on_bar = result.eq("gammon-bar").fillna(False).astype(bool)
        above = gammon | backgammon | outside | on_bar
        parts.append(pd.DataFrame({
            "match": games["match"],
            "player": games[f"player{side}"],
            "won": won,
            "lost": lost,
            "points_won": points.where(won, 0),
            "points_lost": points.where(lost, 0),
            "gammons_won": won & gammon,
            "backgammons_won": won & backgammon,
            "gammons_lost": lost & gammon,
            "backgammons_lost": lost & backgammon,
            "gammons_outside_won": won & outside,
            "gammons_bar_won": won & on_bar,
            "gammons_outside_lost": lost & outside,
            "gammons_bar_lost": lost & on_bar,
            "cube": games["cube"],
            "gammons_won_taken_cube": won & above & taken,
        }))
    return pd.concat(parts, ignore_index=True)


def _cube_counts(cube: pd.DataFrame, by: str) -> pd.DataFrame:
    counts = cube.groupby([by, "action"], observed=False).size().unstack("action", fill_value=0)
    return counts.reindex(columns=list(COLUMNS["cube"][5].categories), fill_value=0)


def player_summary(frames: Frames) -> pd.DataFrame:
    """One row per player (exact names), sorted by name; columns :data:`PLAYER_COLUMNS`."""
    sides = _sides(frames.matches)
    base = sides.groupby("player").agg(matches=("match", "nunique"), match_wins=("match_win", "sum"))
    g = _game_sides(frames)
    games = g.groupby("player").agg(
        games=("match", "size"), game_wins=("won", "sum"), game_losses=("lost", "sum"),
        points_won=("points_won", "sum"), points_lost=("points_lost", "sum"),
        gammons_won=("gammons_won", "sum"), backgammons_won=("backgammons_won", "sum"),
        gammons_lost=("gammons_lost", "sum"), backgammons_lost=("backgammons_lost", "sum"),
        gammons_outside_won=("gammons_outside_won", "sum"), gammons_bar_won=("gammons_bar_won", "sum"),
        gammons_outside_lost=("gammons_outside_lost", "sum"), gammons_bar_lost=("gammons_bar_lost", "sum"),
        max_cube=("cube", "max"), gammons_won_taken_cube=("gammons_won_taken_cube", "sum"),
    )
    cube = frames.cube.merge(sides[["match", "side", "opponent"]], on=["match", "side"], how="left")
    acted = _cube_counts(cube, "player")
    offered = cube[cube["action"].isin(("double", "redouble"))]
    received = offered.groupby("opponent").size().rename("doubles_received")
    dropped = cube[cube["action"].eq("drop")].groupby("opponent").size().rename("doubles_dropped")
    out = base.join(games, how="left").join(acted.rename(columns=lambda a: f"{a}s"), how="left")
    out = out.join(received, how="left").join(dropped, how="left")
    counts = [c.name for c in PLAYER_COLUMNS if c.dtype == "int64"]
    out[counts] = out[counts].fillna(0).astype("int64")
    for end, games_of in (("won", "game_wins"), ("lost", "game_losses")):
        above = (out[f"gammons_{end}"] + out[f"backgammons_{end}"] + out[f"gammons_outside_{end}"]
                 + out[f"gammons_bar_{end}"])
        out[f"gammon_rate_{end}"] = _rate(above, out[games_of])
        out[f"backgammon_rate_{end}"] = _rate(out[f"backgammons_{end}"], out[games_of])
        out[f"gammon_outside_rate_{end}"] = _rate(out[f"gammons_outside_{end}"], out[games_of])
        out[f"gammon_bar_rate_{end}"] = _rate(out[f"gammons_bar_{end}"], out[games_of])
    out["take_rate"] = _rate(out["takes"], out["doubles_received"])
    out["drop_rate"] = _rate(out["drops"], out["doubles_received"])
    out = out.reset_index().rename(columns={"index": "player"})
    out = out.sort_values("player", kind="stable")
    return _typed(out, PLAYER_COLUMNS)


# --- per match, game, cube, code -------------------------------------------------


def match_summary(frames: Frames) -> pd.DataFrame:
    """One row per match in input order; columns :data:`MATCH_COLUMNS`."""
    m = frames.matches
    games = frames.games
    result = games["result"].astype("string")
    per_game = pd.DataFrame({
        "match": games["match"],
        "gammons": result.eq("gammon").fillna(False).astype("int64"),
        "backgammons": result.eq("backgammon").fillna(False).astype("int64"),
        "gammons_outside": result.eq("gammon-outside").fillna(False).astype("int64"),
        "gammons_bar": result.eq("gammon-bar").fillna(False).astype("int64"),
        "max_cube": games["cube"],
    }).groupby("match").agg(gammons=("gammons", "sum"), backgammons=("backgammons", "sum"),
                            gammons_outside=("gammons_outside", "sum"), gammons_bar=("gammons_bar", "sum"),
                            max_cube=("max_cube", "max"))
    acted = _cube_counts(frames.cube, "match").rename(columns=lambda a: f"{a}s")
    out = m.set_index("match").join(per_game, how="left").join(acted, how="left").reset_index()
    counts = [c.name for c in MATCH_COLUMNS if c.dtype == "int64"]
    out[counts] = out[counts].fillna(0).astype("int64")
    return _typed(out.sort_values("match", kind="stable"), MATCH_COLUMNS)


def game_table(frames: Frames) -> pd.DataFrame:
    """The games frame with each match's file and players."""
    names = frames.matches[["match", "file", "player0", "player1"]]
    out = frames.games.merge(names, on="match", how="left")
    return _typed(out, SUMMARY_COLUMNS["game"])


def cube_table(frames: Frames) -> pd.DataFrame:
    """The cube frame with each match's file."""
    out = frames.cube.merge(frames.matches[["match", "file"]], on="match", how="left")
    return _typed(out, SUMMARY_COLUMNS["cube"])


def findings_by_code(frames: Frames) -> pd.DataFrame:
    """One row per finding code found: how often, in how many files and matches."""
    errors = frames.errors.assign(code=frames.errors["code"].astype("string"))
    out = errors.groupby("code").agg(
        findings=("file", "size"), files=("file", "nunique"), matches=("match", "nunique"),
    ).reset_index()
    out["severity"] = [CODES[c][0].value for c in out["code"]]
    out["description"] = [CODES[c][1] for c in out["code"]]
    order = {s: i for i, s in enumerate(SEVERITIES)}
    out["_order"] = out["severity"].map(order)
    out = out.sort_values(["_order", "code"], kind="stable")
    return _typed(out, CODE_COLUMNS)


TABLES: dict[str, Callable[[Frames], pd.DataFrame]] = {
    "player": player_summary,
    "match": match_summary,
    "game": game_table,
    "cube": cube_table,
    "errors": findings_by_code,
}
"""The table of each ``tabla report --by`` value."""


def summarize(frames: Frames, by: str = "player") -> pd.DataFrame:
    """The ``--by`` table ``by`` (player, match, game, cube or errors) of ``frames``."""
    try:
        table = TABLES[by]
    except KeyError:
        raise ValueError(f"unknown table {by!r}; choose from {', '.join(TABLES)}") from None
    return table(frames)
