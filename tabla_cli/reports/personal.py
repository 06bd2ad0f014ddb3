"""The personal HTML page of ``tabla report --player``: what a player reads first, in words and large numbers.

Sections: a headline of large numbers (the record, by match length too;
points; gammon rates; the cube; with analysis the PR and error rate), the
opponents, the trend over time, the dice, how the games ended, with
analysis the worst decisions, then any extra tables and the findings.
Tables show rates as percentages, columns in words, and leave out the
columns that are zero in every row (the 1-2-4-8 levels appear only for
matches scored that way); a plot appears only when it has at least two
things to compare.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Sequence

import pandas as pd

from tabla_cli.reports.dice import dice_summary
from tabla_cli.reports.frames import Frames, decisions_of
from tabla_cli.reports.html import TITLES, TOP, Section, html_table, limit_rows, render_page, skill_sections
from tabla_cli.reports.plots import (
    match_play,
    plot_cube_values,
    plot_dice,
    plot_endings,
    plot_take_drop_by_score,
    plot_trend,
)
from tabla_cli.reports.skill import player_skill
from tabla_cli.reports.summaries import (
    findings_by_code,
    opponent_summary,
    period_summary,
    player_summary,
    session_kinds,
)
from tabla_cli.words import plural

__all__ = ["player_page", "readable"]

_CSS = """
.cards { display: flex; flex-wrap: wrap; gap: 1em; margin: 1em 0; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: 0.8em 1.2em; min-width: 11em; background: #fafafa; }
.card .label { color: #555; font-size: 0.9em; }
.card .big { font-size: 2em; font-weight: 600; margin: 0.15em 0; font-variant-numeric: tabular-nums; }
.card .small { color: #555; font-size: 0.85em; white-space: normal; max-width: 18em; }
"""

LABELS: dict[str, str] = {
    "match_win_rate": "match wins %",
    "matches_completed": "completed",
    "matches_unfinished": "unfinished",
    "one_game_sessions": "one-game sessions",
    "money_sessions": "money sessions",
    "game_wins": "games won",
    "game_losses": "games lost",
    "points_per_game": "points per game",
    "gammon_rate_won": "gammons won %",
    "gammon_rate_lost": "gammons lost %",
    "backgammon_rate_won": "backgammons won %",
    "backgammon_rate_lost": "backgammons lost %",
    "gammon_outside_rate_won": "4-point gammons won %",
    "gammon_outside_rate_lost": "4-point gammons lost %",
    "gammon_bar_rate_won": "8-point gammons won %",
    "gammon_bar_rate_lost": "8-point gammons lost %",
    "gammons_outside_won": "4-point gammons won",
    "gammons_outside_lost": "4-point gammons lost",
    "gammons_bar_won": "8-point gammons won",
    "gammons_bar_lost": "8-point gammons lost",
    "forfeits_won": "resignations won ('Losses' lines)",
    "forfeits_lost": "resignations lost ('Losses' lines)",
    "take_rate": "takes %",
    "drop_rate": "drops %",
    "doubles_received": "doubles received",
    "doubles_dropped": "own doubles dropped",
    "max_cube": "highest cube",
    "gammons_won_taken_cube": "gammons won after a take",
    "error_rate": "error rate (mEMG)",
    "pr": "PR",
    "opponent_pr": "opponent PR",
    "xg_decisions": "decisions (XG's count)",
    "snowie_error_rate": "Snowie error rate (mEMG)",
    "checker_error_mwc": "checker error (MWC %)",
    "cube_error_mwc": "cube error (MWC %)",
    "error_total_mwc": "error total (MWC %)",
    "error_rate_mwc": "error rate (MWC % per decision)",
    "fibs_rating": "FIBS rating from errors (gnubg)",
    "rolls_tested": "rolls tested",
    "chi2_p_value": "p-value (chi-squared)",
}
"""Column names in words, where replacing ``_`` by a blank is not enough."""


@functools.cache
def units() -> dict[str, str]:
    """The unit of each measure the page shows, by column name, as ``columns.toml`` gives it."""
    from tabla_cli.analysis.stats import STAT_COLUMNS
    from tabla_cli.reports.skill import OPPONENT_SKILL_COLUMNS, SKILL_COLUMNS
    from tabla_cli.reports.summaries import SUMMARY_COLUMNS

    tables = [*SUMMARY_COLUMNS.values(), STAT_COLUMNS, SKILL_COLUMNS, OPPONENT_SKILL_COLUMNS]
    return {c.name: c.unit for columns in tables for c in columns if c.unit}


def label(column: str) -> str:
    """The column's name in words, with its unit where a number alone would not say it.

    >>> label("take_rate"), label("checker_error_rate"), label("pr")
    ('takes %', 'checker error rate (mEMG)', 'PR')
    """
    words = LABELS.get(column, column.replace("_", " "))
    unit = units().get(column, "")
    if unit == "share" and not words.endswith("%"):
        return f"{words} %"
    if unit == "mEMG" and unit not in words:
        return f"{words} ({unit})"
    return words


def readable(df: pd.DataFrame, keep: Sequence[str] = ()) -> pd.DataFrame:
    """``df`` for a person: shares as percentages, columns in words with their units, all-zero numeric columns out.

    A column's unit is its ``columns.toml`` unit (:func:`units`); a column of
    ``keep`` stays even when it is all zero.

    >>> readable(pd.DataFrame({"player": ["a"], "take_rate": [0.5], "cube_error_rate": [18.5], "beavers": [0]}))
      player takes %  cube error rate (mEMG)
    0      a   50.0%                    18.5
    """
    out = df.copy()
    for column in df.columns:
        values = df[column]
        numeric = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
        if numeric and column not in keep and len(values) and values.fillna(0).eq(0).all():
            out = out.drop(columns=column)
        elif numeric and units().get(column) == "share":
            out[column] = values.astype("Float64").map(lambda v: "" if pd.isna(v) else f"{100 * v:.1f}%")
    return out.rename(columns=label)


def _percent(part: float, whole: float) -> str:
    return "–" if not whole else f"{100 * part / whole:.1f}%"


def _card(label: str, big: str, small: str = "") -> str:
    extra = f'<div class="small">{html.escape(small)}</div>' if small else ""
    return (
        f'<div class="card"><div class="label">{html.escape(label)}</div>'
        f'<div class="big">{html.escape(big)}</div>{extra}</div>'
    )


def headline_cards(row: pd.Series, analysed: tuple[int, int] | None = None) -> str:
    """The large numbers of one player (a row of :func:`~tabla_cli.reports.summaries.player_summary`).

    ``analysed``: (matches with analysis, matches) when the frames hold decisions.
    """
    won, done = int(row["match_wins"]), int(row["matches_completed"])
    others = [
        (int(row["matches_unfinished"]), "unfinished match"),
        (int(row["one_game_sessions"]), "one-game session"),
        (int(row["money_sessions"]), "money session"),
    ]
    besides = ", ".join(plural(n, word) for n, word in others if n)
    cards = [
        _card(
            "Matches won–lost",
            f"{won}–{done - won}",
            f"{_percent(won, done)} of {plural(done, 'completed match')}"
            + (f"; besides: {besides}" if besides else ""),
        )
    ]
    wins, losses = int(row["game_wins"]), int(row["game_losses"])
    cards.append(_card("Games won–lost", f"{wins}–{losses}", f"{_percent(wins, wins + losses)} of the games won"))
    net = int(row["points_won"]) - int(row["points_lost"])
    money = int(row["money_points_won"]) - int(row["money_points_lost"])
    cards.append(
        _card(
            "Points in matches",
            f"{net:+d}",
            f"{int(row['points_won'])} won, {int(row['points_lost'])} lost"
            + (f"; money and one-game sessions {money:+d}" if money or row["money_points_won"] else ""),
        )
    )
    played_won = wins - int(row["forfeits_won"])
    played_lost = losses - int(row["forfeits_lost"])
    gammon_won = row["gammon_rate_won"]
    gammon_lost = row["gammon_rate_lost"]
    big = " / ".join("–" if pd.isna(v) else f"{100 * v:.1f}%" for v in (gammon_won, gammon_lost))
    resigned_won = int(row["forfeits_won"]) + int(row["resignations_won"])
    resigned_lost = int(row["forfeits_lost"]) + int(row["resignations_lost"])
    ended = [
        (resigned_won, plural(resigned_won, "game") + " won by the opponent's resignation"),
        (resigned_lost, plural(resigned_lost, "game") + " resigned"),
    ]
    cards.append(
        _card(
            "Gammons won / lost",
            big,
            f"over the {plural(played_won, 'game')} won and {played_lost} lost that were played to an end"
            + "".join(f"; {words}" for n, words in ended if n),
        )
    )
    received = int(row["doubles_received"])
    cards.append(
        _card(
            "Takes / drops",
            f"{_percent(int(row['takes']), received)} / {_percent(int(row['drops']), received)}",
            f"of {plural(received, 'double')} received; you doubled {plural(int(row['doubles']), 'time')}"
            f" and redoubled {int(row['redoubles'])}, {int(row['doubles_dropped'])} dropped; highest cube "
            f"{'–' if pd.isna(row['max_cube']) else int(row['max_cube'])}",
        )
    )
    if analysed is not None and "pr" in row.index and pd.notna(row["pr"]):
        cards.append(
            _card(
                "PR",
                f"{row['pr']:.2f}",
                f"over {plural(int(row['xg_decisions']), 'decision')} as eXtreme Gammon counts them; gnubg's "
                f"error rate {row['error_rate']:.1f} mEMG over {plural(int(row['decisions']), 'decision')}"
                f"; {analysed[0]} of {plural(analysed[1], 'match')} analysed",
            )
        )
    return '<div class="cards">' + "".join(cards) + "</div>"


def record_by_length(frames: Frames, names: Sequence[str]) -> pd.DataFrame:
    """Matches, won, lost and win % per match length (completed matches), then the unfinished ones apart."""
    matches = frames.matches
    kind = session_kinds(matches)
    rows = []
    for side in (0, 1):
        mine = matches[f"player{side}"].isin(list(names)) & kind.isin(("completed", "unfinished"))
        part = matches.loc[mine, ["length", "winner_side"]].assign(kind=kind[mine])
        part["won"] = part["winner_side"].eq(side).fillna(False) & part["kind"].eq("completed")
        part["lost"] = part["winner_side"].eq(1 - side).fillna(False) & part["kind"].eq("completed")
        rows.append(part)
    both = pd.concat(rows, ignore_index=True)
    if both.empty:
        return pd.DataFrame({"match length": pd.Series(dtype="string")})
    table = both.groupby("length").agg(
        won=("won", "sum"), lost=("lost", "sum"), unfinished=("kind", lambda k: int(k.eq("unfinished").sum()))
    )
    table = table.reset_index()
    completed = table["won"] + table["lost"]
    out = pd.DataFrame(
        {
            "match length": table["length"].map(lambda n: plural(int(n), "point")).astype("string"),
            "completed": completed.astype("int64"),
            "won": table["won"].astype("int64"),
            "lost": table["lost"].astype("int64"),
            "match wins %": (table["won"] / completed.where(completed > 0)).astype("Float64"),
            "unfinished": table["unfinished"].astype("int64"),
        }
    )
    out["match wins %"] = out["match wins %"].map(lambda v: "" if pd.isna(v) else f"{100 * v:.1f}%")
    return out if out["unfinished"].any() else out.drop(columns="unfinished")


_PERIOD_KEEP = ("matches", "games")

OPPONENT_COLUMNS = (
    "player",
    "opponent",
    "matches",
    "matches_completed",
    "match_wins",
    "match_win_rate",
    "games",
    "game_wins",
    "game_losses",
    "points_won",
    "points_lost",
    "gammons_won",
    "gammons_lost",
    "forfeits_won",
    "forfeits_lost",
    "doubles",
    "takes",
    "drops",
    "opponent_doubles",
    "opponent_takes",
    "opponent_drops",
    "error_rate",
    "pr",
    "opponent_error_rate",
    "opponent_pr",
)
"""The opponents table's columns on the page (every column: ``--by opponent``)."""

PERIOD_COLUMNS = (
    "player",
    "period",
    "matches",
    "matches_completed",
    "match_wins",
    "match_win_rate",
    "games",
    "game_wins",
    "game_losses",
    "points_per_game",
    "gammon_rate_won",
    "gammon_rate_lost",
    "rating",
    "error_rate",
    "pr",
)
"""The columns of the table over time on the page (every column: ``--by period``)."""

DICE_COLUMNS = (
    "player",
    "rolls",
    "tested_rolls",
    "doubles",
    "doubles_rate",
    "pips_mean",
    "bar_rolls",
    "bar_entries",
    "bar_entries_expected",
    "chi2_p_value",
)
"""The dice table's columns on the page (the plot shows each roll; every column: ``--by dice``)."""

GAMMON_CUBE = (
    "gammons_won",
    "backgammons_won",
    "gammons_outside_won",
    "gammons_bar_won",
    "gammons_lost",
    "backgammons_lost",
    "gammons_outside_lost",
    "gammons_bar_lost",
    "forfeits_won",
    "forfeits_lost",
    "resignations_won",
    "resignations_lost",
    "gammon_rate_won",
    "gammon_rate_lost",
    "backgammon_rate_won",
    "backgammon_rate_lost",
    "gammon_outside_rate_won",
    "gammon_outside_rate_lost",
    "gammon_bar_rate_won",
    "gammon_bar_rate_lost",
    "doubles",
    "redoubles",
    "doubles_received",
    "takes",
    "drops",
    "beavers",
    "raccoons",
    "take_rate",
    "drop_rate",
    "doubles_dropped",
    "max_cube",
    "gammons_won_taken_cube",
)
"""The gammon and cube numbers of the player table on the page, one per row."""


def _columns(df: pd.DataFrame, wanted: Sequence[str], names: Sequence[str]) -> pd.DataFrame:
    """The ``wanted`` columns ``df`` has, without ``player`` for one player."""
    chosen = [c for c in wanted if c in df.columns and not (c == "player" and len(names) == 1)]
    return df[chosen]


def _one_per_row(table: pd.DataFrame, wanted: Sequence[str]) -> pd.DataFrame:
    """The ``wanted`` numbers of each player of ``table`` as rows (readable), a column per player."""
    shown = readable(
        table[["player", *[c for c in wanted if c in table.columns]]],
        keep=("gammons_won", "gammons_lost", "gammon_rate_won", "gammon_rate_lost"),
    )
    out = shown.set_index("player").T
    out.index.name = "number"
    out.columns = [str(c) for c in out.columns]
    return out.reset_index().astype("string")


NOTED_COLUMNS = ("match", "game", "move", "player", "kind", "dice", "action", "best", "error", "flagged", "comment")


def noted_decisions(decisions: pd.DataFrame) -> pd.DataFrame:
    """The decisions a file comments on or a user flagged (XG, SGF ``C[]``, tabla JSON), in order."""
    if "comment" not in decisions.columns or "flagged" not in decisions.columns:
        return decisions.iloc[0:0]
    noted = decisions[decisions["comment"].notna() | decisions["flagged"].astype(bool)]
    return noted[[c for c in NOTED_COLUMNS if c in noted.columns]].reset_index(drop=True)


MATCH_DECISION_COLUMNS = ("game", "move", "kind", "dice", "action", "best", "error", "error_mwc")
"""The columns of each match's decisions on the page."""


def _match_anchor(match: object) -> str:
    return f"decisions-of-match-{match}"


def player_matches(frames: Frames, names: Sequence[str], analysed: set[object]) -> tuple[pd.DataFrame, list[str]]:
    """The matches of ``names``, one row each, and where each links: its decisions on the page (an
    anchor) when it was analysed, else its file."""
    from pathlib import Path

    from tabla_cli.reports.analysis import short_name

    m = frames.matches
    ours = m[m["player0"].isin(list(names)) | m["player1"].isin(list(names))]
    rows, links = [], []
    for row in ours.to_dict("records"):
        side = 0 if row["player0"] in names else 1
        name = short_name(str(row["file"])) + (f"#{row['index']}" if int(row["index"]) > 1 else "")
        winner = row["winner_side"]
        result = "unfinished" if pd.isna(winner) else ("won" if int(winner) == side else "lost")
        rows.append(
            {
                "match": name,
                "date": "" if pd.isna(row["date"]) else str(row["date"]),
                "opponent": str(row[f"player{1 - side}"]),
                "length": row["length"],
                "score": f"{row[f'score{side}']}–{row[f'score{1 - side}']}",
                "result": result,
                "games": row["games"],
            }
        )
        links.append(
            f"#{_match_anchor(row['match'])}" if row["match"] in analysed else Path(str(row["file"])).resolve().as_uri()
        )
    return pd.DataFrame(rows, columns=["match", "date", "opponent", "length", "score", "result", "games"]), links


def _with_rollouts(decisions: pd.DataFrame) -> pd.DataFrame:
    """The :data:`MATCH_DECISION_COLUMNS` of ``decisions``, and after ``error`` a ``rollout`` column where
    a rollout judged one of them: the standard error of its error and the trials (blank for the others)."""
    from tabla_cli.reports.analysis import rollout_mark

    table = decisions[[c for c in MATCH_DECISION_COLUMNS if c in decisions.columns]]
    if "rolled_out" not in decisions.columns or not decisions["rolled_out"].fillna(False).astype(bool).any():
        return table
    marks = [rollout_mark(row) for row in decisions.to_dict("records")]
    at = list(table.columns).index("error") + 1 if "error" in table.columns else len(table.columns)
    return table.assign(**{"rollout": marks})[[*table.columns[:at], "rollout", *table.columns[at:]]]


def decisions_by_match(frames: Frames, decisions: pd.DataFrame) -> str:
    """An HTML fragment: per analysed match, a heading (the anchor the matches table links to) and the
    player's decisions that lost equity, costliest first."""
    from tabla_cli.reports.analysis import short_name

    files = dict(zip(frames.matches["match"], frames.matches["file"]))
    lost = decisions[decisions["error"].fillna(0) > 0]
    parts = []
    for match, rows in decisions.groupby("match", sort=True):
        mine = lost[lost["match"] == match].sort_values("error", ascending=False, kind="stable")
        name = short_name(str(files.get(match, match)))
        parts.append(f'<h3 id="{html.escape(_match_anchor(match))}">{html.escape(name)}</h3>')
        if len(mine):
            parts.append(html_table(readable(_with_rollouts(mine))))
        else:
            parts.append(f"<p>No decision of the {len(rows)} analysed lost equity.</p>")
    return "\n".join(parts)


def player_page(
    frames: Frames,
    players: Sequence[str],
    *,
    every: str = "month",
    top: int = TOP,
    summary: str = "",
    extra: Sequence[tuple[str, pd.DataFrame]] = (),
) -> tuple[str, dict[str, bytes]]:
    """The personal HTML page of ``players`` and its plots (name -> PNG, those the page shows)."""
    names = tuple(players)
    table = player_summary(frames, names)
    decisions = decisions_of(frames)
    mine = None if decisions is None else decisions[decisions["player"].isin(list(names))]
    if mine is not None and len(mine):
        figures = ["decisions", "error_rate", "xg_decisions", "pr"]
        table = table.drop(columns=[c for c in figures if c in table.columns])
        table = table.merge(player_skill(mine)[["player", *figures]], on="player", how="left")
    analysed = None
    if mine is not None:
        ours = frames.matches[frames.matches["player0"].isin(list(names)) | frames.matches["player1"].isin(list(names))]
        analysed = (int(ours["match"].isin(mine["match"]).sum()), len(ours))
    cards = "".join(
        (f"<h3>{html.escape(str(row['player']))}</h3>" if len(table) > 1 else "") + headline_cards(row, analysed)
        for _, row in table.iterrows()
    )
    by_length = record_by_length(frames, names)
    opponents, opponents_note = limit_rows(opponent_summary(frames, names), top, "opponents")
    periods = period_summary(frames, names, every)
    cube = frames.cube[frames.cube["player"].isin(list(names))]
    ours_games = frames.games.merge(frames.matches[["match", "player0", "player1"]], on="match", how="inner")
    ours_games = ours_games[ours_games["player0"].isin(list(names)) | ours_games["player1"].isin(list(names))]
    candidates = {
        "trend": (plot_trend(periods), (periods["period"] != "undated").sum() >= 2),
        "dice": (plot_dice(frames.plays, names), True),
        "endings": (plot_endings(ours_games, names), len(ours_games) > 0),
        "cube_values": (plot_cube_values(ours_games), ours_games["cube"].nunique() >= 2),
        "take_drop_by_score": (plot_take_drop_by_score(match_play(cube, frames)), _scores(cube, frames) >= 2),
    }
    plots = {name: png for name, (png, shown) in candidates.items() if shown}
    lengths = (
        "<h3>Matches by length</h3>" + html_table(readable(by_length, keep=("won", "lost"))) if len(by_length) else ""
    )
    matches, links = player_matches(frames, names, set() if mine is None else set(mine["match"]))
    sections = [
        Section("Headline", fragment=cards + lengths),
        Section(
            TITLES["match"],
            matches,
            "each match links to its decisions below when it was analysed, else to its file",
            links=links,
            filter="matches",
        ),
        Section("Opponents", readable(_columns(opponents, OPPONENT_COLUMNS, names), keep=("matches",)), opponents_note),
        Section(
            "Over time",
            readable(_columns(periods, PERIOD_COLUMNS, names), keep=_PERIOD_KEEP),
            f"per {every}",
            {k: plots[k] for k in ("trend",) if k in plots},
        ),
        Section(
            "Dice",
            readable(_columns(dice_summary(frames, names), DICE_COLUMNS, names)),
            "opening rolls left out of the tests; a p-value measures how unusual the counts are for "
            "fair dice, it is no verdict",
            {k: plots[k] for k in ("dice",) if k in plots},
        ),
        Section(
            "Gammons and cube",
            _one_per_row(table, GAMMON_CUBE),
            "gammon rates over the games played to an end (a resignation written as a 'Losses' line "
            "has no final position)",
            {k: plots[k] for k in ("endings", "cube_values", "take_drop_by_score") if k in plots},
        ),
    ]
    if mine is not None and len(mine):
        skill = skill_sections(mine)
        plots["error_rates"] = skill[0].plots["error_rates"]
        sections += [
            Section("Skill", readable(player_skill(mine))),
            skill[1],
            Section(
                "Decisions by match",
                note="the decisions that lost equity, costliest first",
                fragment=decisions_by_match(frames, mine),
            ),
        ]
        noted = noted_decisions(mine)
        if len(noted):
            sections.append(Section("Comments and flags", readable(noted), "decisions the files comment on or flag"))
    for heading, df in extra:
        rows, note = limit_rows(df, top)
        sections.append(Section(heading, rows, note))
    sections.append(Section(TITLES["findings"], findings_by_code(frames)))
    title = f"tabla report: {', '.join(names)}"
    return render_page(sections, title=title, summary=summary, css=_CSS), plots


def _scores(cube: pd.DataFrame, frames: Frames) -> int:
    """How many away-scores the answered doubles of ``cube`` in match play were at."""
    answers = match_play(cube, frames)
    answers = answers[answers["action"].isin(("take", "drop", "beaver")) & answers["away_player"].notna()]
    return len(answers[["away_player", "away_opponent"]].drop_duplicates())
