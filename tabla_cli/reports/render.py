"""Render report tables: terminal tables, CSV, JSON, JSON Lines, Markdown, HTML, Parquet, PNG plots.

Nothing here computes statistics: it takes the DataFrames of
:mod:`tabla_cli.reports.summaries` and :mod:`tabla_cli.reports.frames` and
writes them out. Plots use matplotlib's Agg canvas directly (no pyplot, no
global backend switch).

>>> import pandas as pd
>>> print(render_markdown(pd.DataFrame({"player": ["Ann|B"], "games": [3]})), end="")
| player | games |
|:--|--:|
| Ann\\|B | 3 |
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from tabla_cli.reports.frames import Frames
from tabla_cli.writers import format_for_suffix

FORMATS: tuple[str, ...] = ("table", "csv", "json", "jsonl", "markdown", "html", "parquet")
"""The ``--format`` values of ``tabla report``."""

SUFFIXES: dict[str, str] = {
    ".txt": "table",
    ".csv": "csv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".parquet": "parquet",
    ".pq": "parquet",
}
"""Output file suffixes (lower case) and the report format each one implies (not the same
formats as ``tabla convert``'s: a ``.csv`` report is a table, not positions)."""

TITLES: dict[str, str] = {
    "player": "Players",
    "opponent": "Opponents",
    "period": "Over time",
    "dice": "Dice",
    "match": "Matches",
    "game": "Games",
    "cube": "Cube actions",
    "errors": "Findings by code",
}

PLOTS: dict[str, str] = {
    "gammon_rates": "Gammon rates per player",
    "cube_values": "Cube value at the end of each game",
    "result_types": "Result types",
    "take_drop_by_score": "Take, drop and beaver by match score",
    "trend": "Over time",
    "dice": "Rolls observed and expected with fair dice",
}
"""The plots (file stem -> title) that ``--plots`` writes and HTML embeds
(``trend`` and ``dice`` only in a report with ``--player``)."""

TOP = 50
"""Rows of a large table an HTML page shows (the top ones by games)."""


def format_for_path(path: str | Path) -> str | None:
    """The format an output file's suffix implies; None when the suffix is unknown.

    >>> format_for_path("out/report.CSV"), format_for_path("report.xlsx")
    ('csv', None)
    """
    return format_for_suffix(path, SUFFIXES)


# --- cells ----------------------------------------------------------------------


def _is_missing(value: Any) -> bool:
    if value is None or value is pd.NA:
        return True
    return isinstance(value, float) and math.isnan(value)


def _plain(value: Any) -> Any:
    """A cell as a JSON-ready Python value."""
    if _is_missing(value):
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isinf(value):
        return None
    return value


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of ``df`` as dicts of plain Python values (missing = None)."""
    columns = [str(c) for c in df.columns]
    data = [df[c].astype(object).tolist() for c in df.columns]
    return [{c: _plain(v) for c, v in zip(columns, row)} for row in zip(*data)]


def _text(value: Any) -> str:
    """A cell for people: missing = '', rates with 3 decimals, yes/no."""
    if _is_missing(value):
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _numeric(df: pd.DataFrame) -> list[bool]:
    return [pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) for c in df.columns]


def _text_rows(df: pd.DataFrame) -> list[list[str]]:
    return [[_text(v) for v in row.values()] for row in records(df)]


# --- text formats ------------------------------------------------------------------


def render_csv(df: pd.DataFrame) -> str:
    """CSV with a header; missing cells empty, floats at full precision."""
    text: str = df.to_csv(index=False, lineterminator="\n")
    return text


def render_json(df: pd.DataFrame) -> str:
    """One JSON document: a list of row objects."""
    return json.dumps(records(df), ensure_ascii=False, indent=2) + "\n"


def render_jsonl(df: pd.DataFrame) -> str:
    """JSON Lines: one row object per line."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records(df))


def render_markdown(df: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown pipe table (numbers right-aligned)."""
    def cell(text: str) -> str:
        return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")

    numeric = _numeric(df)
    lines = [
        "| " + " | ".join(cell(str(c)) for c in df.columns) + " |",
        "|" + "|".join("--:" if n else ":--" for n in numeric) + "|",
    ]
    lines.extend("| " + " | ".join(cell(v) for v in row) + " |" for row in _text_rows(df))
    return "\n".join(lines) + "\n"


def _column_groups(widths: Sequence[int], width: int, keys: int) -> list[list[int]]:
    """Split column indices into groups that fit ``width``, repeating the first ``keys`` columns."""
    head = list(range(min(keys, len(widths))))
    base = sum(widths[i] for i in head)
    groups: list[list[int]] = []
    current: list[int] = []
    used = base
    for i in range(len(head), len(widths)):
        if current and used + widths[i] > width:
            groups.append(head + current)
            current, used = [], base
        current.append(i)
        used += widths[i]
    if current or not groups:
        groups.append(head + current)
    return groups


def table_renderables(df: pd.DataFrame, *, width: int | None = None, keys: int = 1,
                      title: str | None = None) -> list[Any]:
    """rich Tables for ``df``: one, or several column groups when ``width`` is too narrow.

    Each group repeats the first ``keys`` columns so a row can be followed.
    """
    from rich import box
    from rich.table import Table

    rows = _text_rows(df)
    headers = [str(c) for c in df.columns]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) + 3 for i, h in enumerate(headers)]
    numeric = _numeric(df)
    groups = [list(range(len(headers)))] if width is None else _column_groups(widths, width - 1, keys)
    out: list[Any] = []
    for n, group in enumerate(groups):
        table = Table(box=box.SIMPLE_HEAD, title=title if n == 0 else None, title_justify="left",
                      pad_edge=False, show_edge=False)
        for i in group:
            table.add_column(headers[i], justify="right" if numeric[i] else "left", no_wrap=True)
        for row in rows:
            table.add_row(*(row[i] for i in group))
        out.append(table)
    return out


def print_tables(console: Any, tables: Sequence[Any]) -> None:
    """Print rich tables with a blank line between column groups."""
    for n, table in enumerate(tables):
        if n:
            console.print()
        console.print(table)


def render_table(df: pd.DataFrame, *, width: int | None = None, keys: int = 1) -> str:
    """``df`` as a plain-text table; ``width`` None = as wide as it needs.

    The layout of the rich tables, written directly (fast for large tables).
    Too wide for ``width``, it is split into column groups that each repeat
    the first ``keys`` columns.
    """
    gap = 3
    rows = _text_rows(df)
    headers = [str(c) for c in df.columns]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    numeric = _numeric(df)
    if width is None:
        groups = [list(range(len(headers)))]
    else:
        groups = _column_groups([w + gap for w in widths], width + gap, keys)
    blocks = []
    for group in groups:
        def line(cells: Sequence[str], group: list[int] = group) -> str:
            return (" " * gap).join(
                cell.rjust(widths[i]) if numeric[i] else cell.ljust(widths[i]) for i, cell in zip(group, cells)
            ).rstrip()

        rule = "\u2500" * (sum(widths[i] for i in group) + gap * (len(group) - 1))
        body = [line([row[i] for i in group]) for row in rows]
        blocks.append("\n".join([line([headers[i] for i in group]), rule, *body]))
    return "\n\n".join(blocks) + "\n"


def parquet_bytes(df: pd.DataFrame) -> bytes:
    """``df`` as a Parquet file (pyarrow), dtypes kept in the pandas metadata."""
    buffer = io.BytesIO()
    df.to_parquet(buffer, engine="pyarrow", index=False)
    return buffer.getvalue()


# --- HTML ----------------------------------------------------------------------------

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
p.meta { color: #555; }
figure.board { display: inline-block; width: 370px; margin: 0.5em; vertical-align: top; }
figure.board svg { width: 360px; height: auto; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; white-space: nowrap; }
th { background: #f3f3f3; text-align: left; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.scroll { overflow-x: auto; }
figure { display: inline-block; margin: 1em 1em 1em 0; }
figcaption { color: #555; font-size: 0.9em; }
img { max-width: 100%; }
"""


def html_table(df: pd.DataFrame) -> str:
    """``df`` as an HTML ``<table>`` (text escaped, numbers right-aligned)."""
    numeric = _numeric(df)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    body = []
    for row in _text_rows(df):
        cells = "".join(
            f'<td class="num">{html.escape(v)}</td>' if n else f"<td>{html.escape(v)}</td>"
            for v, n in zip(row, numeric)
        )
        body.append(f"<tr>{cells}</tr>")
    return (f'<div class="scroll"><table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
            + "\n".join(body) + "\n</tbody>\n</table></div>")


@dataclass(frozen=True, slots=True)
class Section:
    """One section of an HTML page.

    Attributes:
        heading: the section's heading.
        table: its table, if any.
        note: a line of text under the heading.
        plots: PNG plots (name -> bytes) shown after the table.
        fragment: HTML made elsewhere (e.g. SVG boards), shown last.
    """

    heading: str
    table: pd.DataFrame | None = None
    note: str = ""
    plots: Mapping[str, bytes] = field(default_factory=dict)
    fragment: str = ""


def limit_rows(df: pd.DataFrame, top: int = TOP, what: str = "rows") -> tuple[pd.DataFrame, str]:
    """At most ``top`` rows of ``df``: those with the most games (or rolls), else the first ones.

    Returns:
        The rows, and a note saying what was left out ('' when nothing was).
    """
    if len(df) <= top:
        return df, ""
    by = next((c for c in ("games", "rolls", "findings") if c in df.columns), None)
    if by is None:
        return df.head(top), (f"the first {top} of {len(df):,} {what}; the full table: "
                              "--format csv, json or parquet, or --frames")
    ordered = df.sort_values(by, ascending=False, kind="stable").head(top)
    return ordered, (f"top {top} of {len(df):,} {what} by {by}; the full table: "
                     "--format csv, json or parquet, or --frames")


def _figure_html(name: str, png: bytes) -> str:
    caption = PLOTS.get(name, name)
    data = base64.b64encode(png).decode("ascii")
    return (f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def render_page(sections: Sequence[Section], *, title: str = "tabla report", summary: str = "") -> str:
    """One self-contained page of ``sections`` (plots inline as base64 PNG)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    if summary:
        parts.append(f'<p class="meta">{html.escape(summary)}</p>')
    for section in sections:
        slug = "".join(ch if ch.isalnum() else "-" for ch in section.heading.lower())
        parts.append(f'<section id="{html.escape(slug)}"><h2>{html.escape(section.heading)}</h2>')
        if section.note:
            parts.append(f'<p class="meta">{html.escape(section.note)}</p>')
        if section.table is not None:
            parts.append(html_table(section.table))
        parts.extend(_figure_html(name, png) for name, png in section.plots.items())
        if section.fragment:
            parts.append(section.fragment)
        parts.append("</section>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def render_html(tables: Sequence[tuple[str, pd.DataFrame]], *, plots: Mapping[str, bytes] = {},
                title: str = "tabla report", summary: str = "", top: int | None = None) -> str:
    """One self-contained page: the ``(heading, frame)`` tables, then the PNG plots inline (base64).

    With ``top``, a table longer than that shows its ``top`` rows with the
    most games (:func:`limit_rows`) and says so.
    """
    sections = []
    for heading, df in tables:
        note = ""
        if top is not None:
            df, note = limit_rows(df, top)
        sections.append(Section(heading, df, note))
    if plots:
        sections.append(Section("Plots", plots=plots))
    return render_page(sections, title=title, summary=summary)


# --- plots ---------------------------------------------------------------------------------

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
    shown = players[players["games"] > 0].sort_values(["games", "player"], ascending=[False, True],
                                                      kind="stable").head(_TOP_PLAYERS)
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
        ax.set_xlabel("(gammons + backgammons) / games won or lost")
        ax.legend(loc="lower right")
    ax.set_title(PLOTS["gammon_rates"] + (f" (top {_TOP_PLAYERS} by games)" if len(players) > _TOP_PLAYERS
                                          else ""))
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
    """Stacked bars: single, gammon, backgammon, split by how the game ended."""
    fig = _figure()
    ax = fig.add_subplot()
    known = games.dropna(subset=["result"])
    if known.empty:
        _empty(ax, "no finished games")
    else:
        table = pd.crosstab(known["result"], known["ended_by"], dropna=False)
        results = [str(r) for r in table.index]
        bottom = [0.0] * len(results)
        colours = {"bearoff": "#2a7ab9", "drop": "#d9653b", "resign": "#8a8a8a"}
        for ending in table.columns:
            values = table[ending].to_numpy(dtype=float)
            ax.bar(results, values, bottom=bottom, label=str(ending), color=colours.get(str(ending)))
            bottom = [b + v for b, v in zip(bottom, values)]
        ax.set_ylabel("games")
        ax.legend(title="ended by")
    ax.set_title(PLOTS["result_types"])
    return _png(fig)


def plot_take_drop_by_score(cube: pd.DataFrame) -> bytes:
    """Stacked bars: answers to doubles at the most frequent away-scores (match play)."""
    fig = _figure(4.5)
    ax = fig.add_subplot()
    answers = cube[cube["action"].isin(("take", "drop", "beaver")) & cube["away_player"].notna()
                   & cube["away_opponent"].notna()]
    if answers.empty:
        _empty(ax, "no answered doubles in match play")
    else:
        key = pd.DataFrame({
            "doubler": answers["away_opponent"].astype("int64"),
            "taker": answers["away_player"].astype("int64"),
            "action": answers["action"].astype("string"),
        })
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
    and the rating and error rate where the frames give them."""
    dated = periods[periods["period"] != "undated"]
    panels = [("rate", ["match_win_rate", "gammon_rate_won", "gammon_rate_lost"]),
              ("points per game", ["points_per_game"])]
    for column, label in (("rating", "rating"), ("error_rate", "error rate (mEMG)")):
        if column in dated.columns and dated[column].notna().any():
            panels.append((label, [column]))
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
                    y = own[column].astype("float64").to_numpy()
                    name = f"{player}: {column}" if several else column
                    ax.plot(x, y, marker="o", markersize=3, label=name)
            ax.set_ylabel(ylabel)
            ax.legend(fontsize="small", loc="best")
        step = max(1, len(labels) // 12)
        axes[-1].set_xticks(range(0, len(labels), step), labels[::step])
        axes[-1].tick_params(axis="x", labelrotation=45)
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
        ax.errorbar(x, expected, yerr=spread, fmt="_", color="#d9653b", markersize=12,
                    label="fair dice, 95% range")
        ax.set_xticks(x, list(ROLLS))
        ax.set_xlabel("roll (opening rolls left out)")
        ax.set_ylabel("rolls")
        ax.legend(fontsize="small")
    ax.set_title(PLOTS["dice"])
    return _png(fig)


def make_plots(frames: Frames, players: pd.DataFrame) -> dict[str, bytes]:
    """Every plot of :data:`PLOTS` as PNG bytes (``players``: the per-player summary)."""
    return {
        "gammon_rates": plot_gammon_rates(players),
        "cube_values": plot_cube_values(frames.games),
        "result_types": plot_result_types(frames.games),
        "take_drop_by_score": plot_take_drop_by_score(frames.cube),
    }


HEADLINE = ("player", "matches", "matches_completed", "match_wins", "match_win_rate", "matches_unfinished",
            "one_game_sessions", "money_sessions", "games", "game_wins", "game_losses", "points_won",
            "points_lost", "money_points_won", "money_points_lost", "decisions", "error_rate", "pr")
"""The columns of the player table in a personal page's headline (the skill ones with analysis)."""

GAMMON_CUBE = ("player", "gammons_won", "backgammons_won", "gammons_lost", "backgammons_lost", "gammon_rate_won",
               "gammon_rate_lost", "backgammon_rate_won", "backgammon_rate_lost", "doubles", "redoubles",
               "doubles_received", "takes", "drops", "beavers", "raccoons", "take_rate", "drop_rate",
               "doubles_dropped", "max_cube", "gammons_won_taken_cube")
"""The columns of the player table in a personal page's gammon and cube section."""


def player_page(frames: Frames, players: Sequence[str], *, every: str = "month", top: int = TOP,
                summary: str = "", extra: Sequence[tuple[str, pd.DataFrame]] = ()) -> tuple[str, dict[str, bytes]]:
    """The personal HTML page of ``players`` and its plots.

    Sections: the headline numbers, the opponents, the trend over
    ``every`` period, the dice, gammons and cube, the skill numbers when
    the frames hold decisions, then ``extra`` tables and the findings.

    Returns:
        The page and its plots (name -> PNG).
    """
    from tabla_cli.reports.summaries import (
        decisions_of,
        findings_by_code,
        opponent_summary,
        period_summary,
        player_summary,
    )
    from tabla_cli.reports.dice import dice_summary

    names = tuple(players)
    table = player_summary(frames, names)
    opponents, opponents_note = limit_rows(opponent_summary(frames, names), top, "opponents")
    periods = period_summary(frames, names, every)
    cube = frames.cube[frames.cube["player"].isin(list(names))]
    plots = {
        "trend": plot_trend(periods),
        "dice": plot_dice(frames.plays, names),
        "gammon_rates": plot_gammon_rates(table),
        "cube_values": plot_cube_values(frames.games),
        "result_types": plot_result_types(frames.games),
        "take_drop_by_score": plot_take_drop_by_score(cube),
    }
    sections = [
        Section("Headline", table[[c for c in HEADLINE if c in table.columns]],
                "completed matches only in match_win_rate; unfinished matches, one-game sessions and money "
                "sessions apart; money points apart from match points"),
        Section("Opponents", opponents, opponents_note),
        Section("Over time", periods, f"per {every}", {"trend": plots["trend"]}),
        Section("Dice", dice_summary(frames, names),
                "opening rolls left out of the tests; a p-value measures how unusual the counts are for "
                "fair dice, it is no verdict", {"dice": plots["dice"]}),
        Section("Gammons and cube", table[list(GAMMON_CUBE)],
                plots={name: plots[name] for name in ("gammon_rates", "cube_values", "result_types",
                                                       "take_drop_by_score")}),
    ]
    decisions = decisions_of(frames)
    if decisions is not None:
        from tabla_cli.analysis.stats import player_stats

        stats = player_stats(decisions[decisions["player"].isin(list(names))])
        sections.append(Section("Skill", stats))
    for heading, df in extra:
        rows, note = limit_rows(df, top)
        sections.append(Section(heading, rows, note))
    sections.append(Section(TITLES["errors"], findings_by_code(frames)))
    title = f"tabla report: {', '.join(names)}"
    return render_page(sections, title=title, summary=summary), plots


def render(df: pd.DataFrame, fmt: str, *, width: int | None = None, keys: int = 1) -> str | bytes:
    """``df`` in the text format ``fmt`` (table, csv, json, jsonl, markdown) or as Parquet bytes.

    HTML needs plots and headings: use :func:`render_html`.
    """
    if fmt == "table":
        return render_table(df, width=width, keys=keys)
    if fmt == "csv":
        return render_csv(df)
    if fmt == "json":
        return render_json(df)
    if fmt == "jsonl":
        return render_jsonl(df)
    if fmt == "markdown":
        return render_markdown(df)
    if fmt == "parquet":
        return parquet_bytes(df)
    if fmt == "html":
        return render_html([("Report", df)])
    raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
