"""One match, every writer, one answer: each match that tests/data holds in more than one format gives the
same decisions from every reader.

The matches are the rows of ``tests/data/twins.csv``: ``match`` names a match, and its first row is the
file the others are compared with; ``path`` is relative to tests/data; ``game``, when set, says that the
file holds only that game of the match (gnubg's text export writes one game a file); ``known_failure``, when
set, says why the file does not agree yet, and the row is expected to fail (strictly: a row that agrees
then fails the test, to be moved back among the agreeing ones). A new twin joins by a row.

A decision is the game, the side, the dice (either order), the action (the play as the replay resolved it,
or the cube action), the gnubg Position ID and the Match ID before it. A roll its roller resigned on (``????``
in a ``.mat`` file) is a resignation, not a decision: gnubg's text export does not write it.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import NamedTuple

import pytest

from tabla_cli.reader import read_path_matches
from tabla_cli.replay import replay_match
from tabla_cli.writers.positions import format_positions

from helpers import DATA

TABLE = DATA / "twins.csv"


class Twin(NamedTuple):
    match: str
    path: Path
    game: int | None
    known_failure: str


def _rows() -> list[Twin]:
    with TABLE.open(newline="", encoding="utf-8") as handle:
        return [
            Twin(row["match"], DATA / row["path"], int(row["game"]) if row["game"] else None, row["known_failure"])
            for row in csv.DictReader(handle)
        ]


ROWS = _rows()
REFERENCE = {row.match: row for row in reversed(ROWS)}  # the first row of each match
PAIRS = [row for row in ROWS if REFERENCE[row.match] is not row]

Decision = tuple[str, str, str, str, str, str]


def _positions(path: Path) -> list[dict[str, str]]:
    [match] = read_path_matches(path)
    return list(csv.DictReader(io.StringIO(format_positions([(match, replay_match(match))]))))


def decisions(path: Path, game: int | None = None) -> list[Decision]:
    """Every decision of the one match in ``path`` (of its game ``game`` alone, when given)."""
    return [
        (r["game"], r["side"], "".join(sorted(r["dice"])), r["action"], r["play"], r["position_id"] + r["match_id"])
        for r in _positions(path)
        if (game is None or r["game"] == str(game)) and r["play"] != "????"
    ]


def unplayed_rolls(path: Path) -> list[tuple[str, str, str]]:
    """The game, side and dice of each roll the file writes without its play (``????``)."""
    return [(r["game"], r["side"], "".join(sorted(r["dice"]))) for r in _positions(path) if r["play"] == "????"]


def _case(row: Twin) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=row.known_failure)] if row.known_failure else []
    return pytest.param(row, id=f"{row.match}:{row.path.name}", marks=marks)


def test_the_table_names_files_that_are_here() -> None:
    assert all(row.path.is_file() for row in ROWS)
    assert all(REFERENCE[row.match].game is None for row in ROWS)  # the reference holds the whole match
    assert len(PAIRS) >= 30


@pytest.mark.parametrize("row", [_case(row) for row in PAIRS])
def test_every_writer_gives_the_same_decisions(row: Twin) -> None:
    got = decisions(row.path)
    want = decisions(REFERENCE[row.match].path, row.game)
    if row.game is not None:  # a game exported alone: numbered as the match numbers it
        got = [(str(row.game), *rest) for _, *rest in got]
    assert len(got) == len(want) > 0
    assert got == want


FIELD_MATCH = "gbf-test-hsbt-paris-2023"


@pytest.mark.parametrize("row", [_case(row) for row in PAIRS if row.match == FIELD_MATCH])
def test_a_roll_written_without_its_play_is_the_same_roll_from_every_writer(row: Twin) -> None:
    # A live match from the field: XG's .mat writes the roll before each resignation as "33: ???",
    # XG's text export as "33: ????" and gnubg's SGF as a roll-only node ";PL[B]DI[33]".
    want = unplayed_rolls(REFERENCE[row.match].path)
    assert want == [("2", "1", "33"), ("5", "0", "12"), ("7", "1", "35")]
    assert unplayed_rolls(row.path) == want
