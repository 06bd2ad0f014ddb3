"""The HTML report: one self-contained page of sections (tables, inline PNG plots, SVG boards).

:func:`render_page` lays out :class:`Section` objects; :func:`render_html`
makes the page of ``tabla report --format html``; the personal page of
``--player`` is :mod:`tabla_cli.reports.personal`'s.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from tabla_cli.reports.cells import Grid
from tabla_cli.reports.frames import Frames, decisions_of
from tabla_cli.reports.plots import PLOTS, plot_error_rates
from tabla_cli.reports.skill import player_skill
from tabla_cli.reports.summaries import findings_by_code

TITLES: dict[str, str] = {
    "player": "Players",
    "opponent": "Opponents",
    "period": "Over time",
    "dice": "Dice",
    "match": "Matches",
    "game": "Games",
    "cube": "Cube actions",
    "findings": "Findings by code",
    "decisions": "Decisions",
}


TOP = 50
"""Rows of a large table an HTML page shows (the top ones by games)."""


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
[hidden] { display: none !important; }
th.sortable { cursor: pointer; }
th[aria-sort="ascending"]::after { content: " \\25B2"; }
th[aria-sort="descending"]::after { content: " \\25BC"; }
input.filter { margin: 0.5em 0; padding: 0.2em 0.4em; width: 20em; }
"""

FILTER_ROWS = 10
"""A table (or a list of boards) with more rows than this gets a filter box above it."""

_SCRIPT = """
(function () {
  function key(cell, numeric) {
    var text = cell.textContent.trim();
    if (!numeric) return text.toLowerCase();
    var n = parseFloat(text.replace(/[^0-9.eE+\\-\u2212]/g, "").replace("\u2212", "-"));
    return isNaN(n) ? null : n;
  }
  function sortBy(th) {
    var table = th.closest("table"), body = table.tBodies[0];
    var column = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.classList.contains("num") || Array.prototype.every.call(body.rows, function (row) {
      var text = row.cells[column].textContent.trim();
      return text === "" || /^[-+\u2212]?[0-9,]*\\.?[0-9]+ ?%?$/.test(text);
    });
    var up = th.getAttribute("aria-sort") !== "ascending";
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[column], numeric), y = key(b.cells[column], numeric);
      if (x === y) return 0;
      if (x === null || x === "") return 1;
      if (y === null || y === "") return -1;
      return (x < y ? -1 : 1) * (up ? 1 : -1);
    });
    rows.forEach(function (row) { body.appendChild(row); });
    th.parentNode.querySelectorAll("th").forEach(function (other) { other.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", up ? "ascending" : "descending");
  }
  document.querySelectorAll("th.sortable").forEach(function (th) {
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(th); }
    });
  });
  document.querySelectorAll("input.filter").forEach(function (input) {
    var target = document.getElementById(input.getAttribute("data-target"));
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().trim();
      target.querySelectorAll("tbody tr, figure.board").forEach(function (item) {
        item.hidden = words !== "" && item.textContent.toLowerCase().indexOf(words) < 0;
      });
    });
  });
})();
"""


def filter_box(target: str, what: str = "rows") -> str:
    """A text box that hides the rows (or boards) of the element ``target`` (an id) not containing its text."""
    label = f"filter the {what}"
    return (
        f'<input class="filter" type="search" data-target="{html.escape(target)}" '
        f'placeholder="{html.escape(label)}" aria-label="{html.escape(label)}">'
    )


def html_table(df: pd.DataFrame, *, links: Sequence[str] = (), table_id: str = "") -> str:
    """``df`` as an HTML ``<table>`` (text escaped, numbers right-aligned), sortable by a click (or Enter
    or Space) on a column header; ``links`` (one per row) make each row's first cell a link there."""
    grid = Grid.of(df)
    head = "".join(
        f'<th class="sortable{" num" if n else ""}" tabindex="0" scope="col">{html.escape(name)}</th>'
        for name, n in zip(grid.names, grid.numeric)
    )
    body = []
    for i, row in enumerate(grid.text_rows()):
        texts = [html.escape(v) for v in row]
        if i < len(links) and texts:
            texts[0] = f'<a href="{html.escape(links[i])}">{texts[0]}</a>'
        cells = "".join(f'<td class="num">{v}</td>' if n else f"<td>{v}</td>" for v, n in zip(texts, grid.numeric))
        body.append(f"<tr>{cells}</tr>")
    ident = f' id="{html.escape(table_id)}"' if table_id else ""
    return (
        f'<div class="scroll"><table{ident}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
        + "\n".join(body)
        + "\n</tbody>\n</table></div>"
    )


@dataclass(frozen=True, slots=True)
class Section:
    """One section of an HTML page.

    Attributes:
        heading: the section's heading.
        table: its table, if any.
        note: a line of text under the heading.
        plots: PNG plots (name -> bytes) shown after the table.
        fragment: HTML made elsewhere (e.g. SVG boards), shown last.
        links: where each row of the table links (its first cell), if anywhere.
        filter: what a filter box above the table or fragment filters ('' for none; a table of more
            than :data:`FILTER_ROWS` rows gets one for its rows anyway).
    """

    heading: str
    table: pd.DataFrame | None = None
    note: str = ""
    plots: Mapping[str, bytes] = field(default_factory=dict)
    fragment: str = ""
    links: Sequence[str] = ()
    filter: str = ""


def limit_rows(df: pd.DataFrame, top: int = TOP, what: str = "rows") -> tuple[pd.DataFrame, str]:
    """At most ``top`` rows of ``df``: those with the most games (or rolls), else the first ones.

    Returns:
        The rows, and a note saying what was left out ('' when nothing was).
    """
    if len(df) <= top:
        return df, ""
    by = next((c for c in ("games", "rolls", "findings") if c in df.columns), None)
    if by is None:
        return df.head(top), (
            f"the first {top} of {len(df):,} {what}; the full table: --format csv, json or parquet, or --frames"
        )
    ordered = df.sort_values(by, ascending=False, kind="stable").head(top)
    return ordered, (
        f"top {top} of {len(df):,} {what} by {by}; the full table: --format csv, json or parquet, or --frames"
    )


def _figure_html(name: str, png: bytes) -> str:
    caption = PLOTS.get(name, name)
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def render_page(sections: Sequence[Section], *, title: str = "tabla report", summary: str = "", css: str = "") -> str:
    """One self-contained page of ``sections`` (plots inline as base64 PNG); ``css`` adds to the style sheet."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        f"<style>{_CSS}{css}</style>",
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
        what = section.filter or ("rows" if section.table is not None and len(section.table) > FILTER_ROWS else "")
        if what:
            parts.append(filter_box(f"{slug}-body", what))
        parts.append(f'<div id="{html.escape(slug)}-body">')
        if section.table is not None:
            parts.append(html_table(section.table, links=section.links))
        parts.extend(_figure_html(name, png) for name, png in section.plots.items())
        if section.fragment:
            parts.append(section.fragment)
        parts.append("</div></section>")
    parts += [f"<script>{_SCRIPT}</script>", "</body>", "</html>", ""]
    return "\n".join(parts)


def render_html(
    tables: Sequence[tuple[str, pd.DataFrame]],
    *,
    plots: Mapping[str, bytes] = {},
    title: str = "tabla report",
    summary: str = "",
    top: int | None = None,
    extra: Sequence[Section] = (),
) -> str:
    """One self-contained page: the ``(heading, frame)`` tables, ``extra`` sections, then the PNG plots
    inline (base64).

    With ``top``, a table longer than that shows its ``top`` rows with the
    most games (:func:`limit_rows`) and says so.
    """
    sections = []
    for heading, df in tables:
        note = ""
        if top is not None:
            df, note = limit_rows(df, top)
        sections.append(Section(heading, df, note))
    sections += extra
    if plots:
        sections.append(Section("Plots", plots=plots))
    return render_page(sections, title=title, summary=summary)


def skill_sections(decisions: pd.DataFrame) -> list[Section]:
    """The error-rate plot per player and the :data:`~tabla_cli.reports.analysis.WORST` costliest
    ``decisions``, each with a board of the position before it."""
    from tabla_cli.reports.analysis import WORST, worst_decisions_html

    return [
        Section(
            "Error rates",
            note="mEMG per decision, checker plays and cube decisions apart (docs/analysis.md)",
            plots={"error_rates": plot_error_rates(player_skill(decisions))},
        ),
        Section(
            "Worst decisions",
            note=f"the {WORST} decisions that gave away the most equity",
            fragment=worst_decisions_html(decisions),
            filter="decisions",
        ),
    ]


def report_page(
    frames: Frames,
    by: str,
    table: pd.DataFrame,
    plots: Mapping[str, bytes],
    *,
    summary: str = "",
    top: int | None = None,
) -> str:
    """The page of ``tabla report --format html``: the ``by`` table, the findings by code, with analysis
    the error rates and worst decisions (:func:`skill_sections`), then the other ``plots``."""
    tables = [(TITLES[by], table)]
    if by != "findings":
        tables.append((TITLES["findings"], findings_by_code(frames)))
    decisions = decisions_of(frames)
    skill = skill_sections(decisions) if decisions is not None else []
    rest = {name: png for name, png in plots.items() if name != "error_rates"}
    return render_html(tables, plots=rest, summary=summary, top=top, extra=skill)
