"""Every table of the personal page shows each measure in its ``columns.toml`` unit (issue 38).

The page of a player with analysis (a gnubg export, its recorded analysis) is
rendered once; every ``<table>`` is read back, each header is traced to its
column, and each cell is checked against that column's unit: a share is a
percentage from 0 to 100, a measure in mEMG or PR says so in its header and is
never a percentage, and no other column shows a percent sign.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.analysis.stats import STAT_COLUMNS
from tabla_cli.cli import main
from tabla_cli.reports.personal import label, units
from tabla_cli.reports.skill import OPPONENT_SKILL_COLUMNS, SKILL_COLUMNS
from tabla_cli.reports.summaries import SUMMARY_COLUMNS

from helpers import CORPUS

EXPORT = CORPUS / "txt" / "bglab-lasse-2-ply-match967143.txt"
COLUMNS = [*SUMMARY_COLUMNS.values(), STAT_COLUMNS, SKILL_COLUMNS, OPPONENT_SKILL_COLUMNS]
BY_LABEL = {label(c.name): c.name for columns in COLUMNS for c in columns}
PAGE_ONLY = {"number", "match length", "won", "lost", "unfinished", "lasse", "score", "result"}
"""Headers of the page's own tables (the record by length, the numbers one per row, the matches), not schema columns."""


class Tables(HTMLParser):
    """The text of every ``<table>``: a list of rows, the header row first."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> list[list[list[str]]]:
    page = tmp_path_factory.mktemp("page") / "lasse.html"
    result = CliRunner().invoke(main, ["report", str(EXPORT), "--player", "lasse", "--format", "html", "-o", str(page)])
    assert result.exit_code == 0, result.stderr
    parser = Tables()
    parser.feed(Path(page).read_text(encoding="utf-8"))
    return parser.tables


def check(header: str, cells: list[str]) -> None:
    name = BY_LABEL[header]
    unit = units().get(name, "")
    values = [cell for cell in cells if cell not in ("", "–")]
    if unit == "share":
        assert header.endswith("%"), header
        assert all(v.endswith("%") and 0 <= float(v[:-1].replace(",", "")) <= 100 for v in values), (header, values)
        return
    assert not any(v.endswith("%") for v in values), (header, values)
    if unit:
        assert unit in header, header


def test_the_page_has_the_skill_tables(tables: list[list[list[str]]]) -> None:
    headers = {header for table in tables for header in table[0]}
    assert {"error rate (mEMG)", "PR", "opponent error rate (mEMG)", "cube error rate (mEMG)"} <= headers


def test_every_column_of_every_table_is_in_its_unit(tables: list[list[list[str]]]) -> None:
    checked = 0
    for table in tables:
        header, *rows = table
        if header[0] == "number":  # one number per row: the row's first cell names its column
            for row in rows:
                check(row[0], row[1:])
                checked += 1
            continue
        for k, name in enumerate(header):
            assert name in BY_LABEL or name in PAGE_ONLY, f"{name!r} is no column of columns.toml"
            if name in BY_LABEL:
                check(name, [row[k] for row in rows])
                checked += 1
    assert checked > 40


def test_skill_error_rates_are_not_percentages(tables: list[list[list[str]]]) -> None:
    """Issue 38 read 'checker error rate 968.1%' where the CSV says 9.681 mEMG."""
    text = [cell for table in tables for row in table for cell in row]
    assert not any(cell.startswith(("error rate", "cube error rate")) and cell.endswith("%") for cell in text)


def test_every_unit_of_the_schema_is_known() -> None:
    assert set(units().values()) == {"share", "mEMG", "PR"}
    assert units()["take_rate"] == "share" and units()["checker_error_rate"] == "mEMG" and units()["pr"] == "PR"
