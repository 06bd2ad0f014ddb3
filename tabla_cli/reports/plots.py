"""The report's plots as PNG bytes, drawn on matplotlib's Agg canvas directly (no pyplot, no global backend switch)."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

import pandas as pd

from tabla_cli.reports.frames import Frames

PLOTS: dict[str, str] = {
    "gammon_rates": "Gammon rates per player",
    "cube_values": "Cube value at the end of each game",
    "result_types": "Result types",
    "take_drop_by_score": "Take, drop and beaver by match score",
    "trend": "Over time",
    "dice": "Rolls observed and expected with fair dice",
    "error_rates": "Error rate per player (mEMG)",
    "endings": "How the games won and lost ended",
}
"""The plots (file stem -> title) that ``--plots`` writes and HTML embeds
(``trend``, ``dice`` and ``endings`` only in a report with ``--player``, ``error_rates`` only with analysis)."""


_TOP_PLAYERS = 20
_TOP_SCORES = 20


def _figure(height: float = 4.0) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(7.5, height), dpi=100, layout="constrained")


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def _empty(ax: Any, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#666")
    ax.set_xticks([])
    ax.set_yticks([])


def plot_gammon_rates(players: pd.DataFrame) -> bytes:
    """Horizontal bars: gammon rate won and lost for the players with the most games."""
    fig = _figure(max(3.0, 0.9 + 0.32 * min(len(players), _TOP_PLAYERS)))
    ax = fig.add_subplot()
    shown = (
        players[players["games"] > 0]
        .sort_values(["games", "player"], ascending=[False, True], kind="stable")
        .head(_TOP_PLAYERS)
    )
    if shown.empty:
        _empty(ax, "no games")
    else:
        shown = shown.iloc[::-1]
        y = range(len(shown))
        won = shown["gammon_rate_won"].fillna(0).to_numpy(dtype=float)
        lost = shown["gammon_rate_lost"].fillna(0).to_numpy(dtype=float)
        ax.barh([i + 0.2 for i in y], won, height=0.4, label="gammon rate won", color="#2a7ab9")
        ax.barh([i - 0.2 for i in y], lost, height=0.4, label="gammon rate lost", color="#d9653b")
        ax.set_yticks(list(y), [str(p) for p in shown["player"]])
        ax.set_xlim(0, 1)
        ax.set_xlabel("(gammons + backgammons) / games won or lost, resignations written as 'Losses' lines left out")
        ax.legend(loc="lower right")
    ax.set_title(PLOTS["gammon_rates"] + (f" (top {_TOP_PLAYERS} by games)" if len(players) > _TOP_PLAYERS else ""))
    return _png(fig)


def plot_cube_values(games: pd.DataFrame) -> bytes:
    """Bars: how many games ended at each cube value."""
    fig = _figure()
    ax = fig.add_subplot()
    counts = games["cube"].value_counts().sort_index()
    if counts.empty:
        _empty(ax, "no games")
    else:
        labels = [str(v) for v in counts.index]
        ax.bar(labels, counts.to_numpy(), color="#2a7ab9")
        ax.set_xlabel("cube value")
        ax.set_ylabel("games")
    ax.set_title(PLOTS["cube_values"])
    return _png(fig)


def plot_result_types(games: pd.DataFrame) -> bytes:
    """Stacked bars: single, gammon, backgammon (the levels that occur), split by how the game ended;
    forfeits (no level) a bar and a colour of their own."""
    fig = _figure()
    ax = fig.add_subplot()
    ended = games["ended_by"].astype("string")
    result = games["result"].astype("string").mask(ended.eq("forfeit").fillna(False), "forfeit")
    known = pd.DataFrame({"result": result, "ended_by": ended}).dropna()
    if known.empty:
        _empty(ax, "no finished games")
    else:
        table = pd.crosstab(known["result"], known["ended_by"])
        order = [
            r for r in ("single", "gammon", "backgammon", "gammon-outside", "gammon-bar", "forfeit") if r in table.index
        ]
        table = table.loc[order]
        results = [str(r) for r in table.index]
        bottom = [0.0] * len(results)
        colours = {
            "bearoff": "#2a7ab9",
            "drop": "#d9653b",
            "resign": "#8a8a8a",
            "forfeit": "#c2185b",
            "draw": "#f0a030",
        }
        for ending in table.columns:
            values = table[ending].to_numpy(dtype=float)
            ax.bar(results, values, bottom=bottom, label=str(ending), color=colours.get(str(ending)))
            bottom = [b + v for b, v in zip(bottom, values)]
        ax.set_ylabel("games")
        ax.legend(title="ended by")
    ax.set_title(PLOTS["result_types"])
    return _png(fig)


_ENDINGS = (
    ("single", "#2a7ab9", "bear-off, single"),
    ("gammon", "#174a73", "gammon (any level above single)"),
    ("drop", "#d9653b", "double dropped"),
    ("resign", "#8a8a8a", "resignation (its level written)"),
    ("forfeit", "#c2185b", "resignation as a 'Losses' line (no final position)"),
)
"""How a game ended, in the order the bars stack them, with colour and label."""


def _ending(games: pd.DataFrame) -> pd.Series:
    """Each game's ending for :func:`plot_endings`: single or gammon (by bear-off), drop, resign, forfeit."""
    ended = games["ended_by"].astype("string")
    above = games["result"].astype("string").isin(("gammon", "backgammon", "gammon-outside", "gammon-bar"))
    out = ended.where(~ended.eq("bearoff").fillna(False), "single")
    return out.where(~(ended.eq("bearoff").fillna(False) & above.fillna(False)), "gammon")


def plot_endings(games: pd.DataFrame, players: Sequence[str]) -> bytes:
    """Two stacked bars, games won and games lost by ``players``, split by how each game ended.

    ``games`` has the games frame's columns and ``player0``/``player1``;
    forfeits get a bar segment and a colour of their own.
    """
    fig = _figure(3.2)
    ax = fig.add_subplot()
    names = list(players)
    side = games["player1"].isin(names).astype("int64")
    won = games["winner_side"].eq(side).fillna(False).astype(bool)
    lost = games["winner_side"].eq(1 - side).fillna(False).astype(bool)
    ending = _ending(games)
    if not (won.any() or lost.any()):
        _empty(ax, "no finished games")
    else:
        left = [0.0, 0.0]
        for key, colour, label in _ENDINGS:
            counts = [float((ending.eq(key).fillna(False) & mask).sum()) for mask in (won, lost)]
            if any(counts):
                ax.barh(["won", "lost"], counts, left=left, color=colour, label=label)
                left = [a + b for a, b in zip(left, counts)]
        ax.invert_yaxis()
        ax.set_xlabel("games")
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title(PLOTS["endings"])
    return _png(fig)


def plot_take_drop_by_score(cube: pd.DataFrame) -> bytes:
    """Stacked bars: answers to doubles at the most frequent away-scores (match play)."""
    fig = _figure(4.5)
    ax = fig.add_subplot()
    answers = cube[
        cube["action"].isin(("take", "drop", "beaver")) & cube["away_player"].notna() & cube["away_opponent"].notna()
    ]
    if answers.empty:
        _empty(ax, "no answered doubles in match play")
    else:
        key = pd.DataFrame(
            {
                "doubler": answers["away_opponent"].astype("int64"),
                "taker": answers["away_player"].astype("int64"),
                "action": answers["action"].astype("string"),
            }
        )
        table = key.groupby(["doubler", "taker", "action"]).size().unstack("action", fill_value=0)
        table = table.reindex(columns=["take", "drop", "beaver"], fill_value=0)
        top = table.sum(axis=1).sort_values(ascending=False, kind="stable").head(_TOP_SCORES).index
        table = table.loc[sorted(top)]
        labels = [f"{d}-{t}" for d, t in table.index]
        bottom = [0.0] * len(labels)
        colours = {"take": "#2a7ab9", "drop": "#d9653b", "beaver": "#4caf50"}
        for action in table.columns:
            values = table[action].to_numpy(dtype=float)
            if values.any():
                ax.bar(labels, values, bottom=bottom, label=str(action), color=colours[str(action)])
                bottom = [b + v for b, v in zip(bottom, values)]
        ax.set_xlabel("away-score: doubler-taker")
        ax.set_ylabel("doubles answered")
        ax.tick_params(axis="x", labelrotation=60)
        ax.legend()
    ax.set_title(PLOTS["take_drop_by_score"])
    return _png(fig)


def plot_trend(periods: pd.DataFrame) -> bytes:
    """Lines per player over the dated periods: match win rate and gammon rates, points per game,
    and the rating and error rate where the frames give them.

    The axes do not zoom in on small differences: percentages run from 0 to 100, error rates
    from 0, points per game include 0; each period is labelled with the matches it holds."""
    dated = periods[periods["period"] != "undated"]
    panels = [
        ("%", ["match_win_rate", "gammon_rate_won", "gammon_rate_lost"]),
        ("points per game", ["points_per_game"]),
    ]
    for column, label in (("rating", "rating"), ("error_rate", "error rate (mEMG)")):
        if column in dated.columns and dated[column].notna().any():
            panels.append((label, [column]))
    words = {
        "match_win_rate": "matches won",
        "gammon_rate_won": "gammons won",
        "gammon_rate_lost": "gammons lost",
        "points_per_game": "points per game",
        "rating": "rating",
        "error_rate": "error rate",
    }
    fig = _figure(1.0 + 2.2 * len(panels))
    axes = fig.subplots(len(panels), 1, sharex=True, squeeze=False)[:, 0]
    if dated.empty:
        for ax in axes:
            _empty(ax, "no dated matches")
    else:
        labels = sorted(set(dated["period"]))
        position = {label: i for i, label in enumerate(labels)}
        several = dated["player"].nunique() > 1
        for ax, (ylabel, columns) in zip(axes, panels):
            for player, own in dated.groupby("player", sort=True):
                x = [position[p] for p in own["period"]]
                for column in columns:
                    y = own[column].astype("float64").to_numpy() * (100 if ylabel == "%" else 1)
                    name = f"{player}: {words[column]}" if several else words[column]
                    ax.plot(x, y, marker="o", markersize=3, label=name)
            ax.set_ylabel(ylabel)
            if ylabel == "%":
                ax.set_ylim(0, 100)
            elif "error" in ylabel:
                ax.set_ylim(bottom=0)
            elif ylabel == "points per game":
                ax.axhline(0, color="#999", linewidth=0.8)
            ax.legend(fontsize="small", loc="best")
        counts = dated.groupby("period")["matches"].sum()
        named = [f"{label} ({int(counts[label])})" for label in labels]
        step = max(1, len(labels) // 12)
        axes[-1].set_xticks(range(0, len(labels), step), named[::step])
        axes[-1].tick_params(axis="x", labelrotation=45)
        axes[-1].set_xlabel("period (matches)")
    axes[0].set_title(PLOTS["trend"])
    return _png(fig)


def plot_dice(plays: pd.DataFrame, players: Sequence[str] = ()) -> bytes:
    """Bars of the tested rolls (no opening rolls) of ``players`` (default everyone) in ``plays``,
    each with its fair-dice expectation and 95% range (1.96 binomial standard deviations)."""
    from tabla_cli.reports.dice import ROLLS, roll_counts, roll_probabilities

    fig = _figure(4.0)
    ax = fig.add_subplot()
    rolls = roll_counts(plays)
    rolls = rolls[~rolls["opening"]]
    if players:
        rolls = rolls[rolls["player"].isin(list(players))]
    n = len(rolls)
    if n == 0:
        _empty(ax, "no rolls")
    else:
        observed = rolls["roll"].value_counts().reindex(list(ROLLS), fill_value=0)
        probabilities = roll_probabilities()
        expected = [probabilities[r] * n for r in ROLLS]
        spread = [1.96 * math.sqrt(n * probabilities[r] * (1 - probabilities[r])) for r in ROLLS]
        x = list(range(len(ROLLS)))
        ax.bar(x, observed.to_numpy(dtype=float), color="#2a7ab9", label=f"observed (n = {n:,})")
        ax.errorbar(x, expected, yerr=spread, fmt="_", color="#d9653b", markersize=12, label="fair dice, 95% range")
        ax.set_xticks(x, list(ROLLS))
        ax.set_xlabel("roll (opening rolls left out)")
        ax.set_ylabel("rolls")
        ax.legend(fontsize="small")
    ax.set_title(PLOTS["dice"])
    return _png(fig)


def plot_error_rates(stats: pd.DataFrame, top: int = 20) -> bytes:
    """Horizontal bars from 0: the error rate (mEMG) of the players with the most decisions, checker and cube
    apart, each player named with the decisions the rates are over."""
    analysed = stats[stats["decisions"] > 0]
    shown = analysed.sort_values("decisions", ascending=False, kind="stable").head(top).iloc[::-1]
    fig = _figure(max(2.5, 0.9 + 0.4 * len(shown)))
    ax = fig.add_subplot()
    names = [f"{p} ({int(n):,})" for p, n in zip(shown["player"], shown["decisions"])]
    y = range(len(shown))
    ax.barh([v - 0.2 for v in y], shown["checker_error_rate"].fillna(0.0), height=0.4, label="checker")
    ax.barh([v + 0.2 for v in y], shown["cube_error_rate"].fillna(0.0), height=0.4, label="cube")
    ax.plot(shown["error_rate"].fillna(0.0), list(y), "k|", markersize=14, label="overall")
    ax.set_yticks(list(y), names)
    ax.set_xlim(left=0)
    ax.set_ylabel("player (decisions)")
    ax.set_xlabel("error rate (mEMG, lower is better)")
    ax.legend(loc="lower right")
    ax.set_title(PLOTS["error_rates"] + (f" (top {top} by decisions)" if len(analysed) > top else ""))
    return _png(fig)


def match_play(cube: pd.DataFrame, frames: Frames) -> pd.DataFrame:
    """The cube actions of ``cube`` in matches (completed or not), not in money or one-game sessions.

    A one-game session is written as a 16-point match; its score says nothing
    (it would show as 16-16 away).
    """
    from tabla_cli.reports.summaries import session_kinds

    kinds = session_kinds(frames.matches)
    played = frames.matches.loc[kinds.isin(("completed", "unfinished")), "match"]
    return cube[cube["match"].isin(played)]


def make_plots(frames: Frames, players: pd.DataFrame) -> dict[str, bytes]:
    """The plots of :data:`PLOTS` for every player as PNG bytes (``players``: the per-player summary);
    ``error_rates`` when it has the skill columns (the frames hold decisions)."""
    plots = {
        "gammon_rates": plot_gammon_rates(players),
        "cube_values": plot_cube_values(frames.games),
        "result_types": plot_result_types(frames.games),
        "take_drop_by_score": plot_take_drop_by_score(match_play(frames.cube, frames)),
    }
    if "error_rate" in players.columns:
        plots["error_rates"] = plot_error_rates(players)
    return plots
