"""Tests for tabla_cli.writers.positions (``--to positions``) and tabla_cli.writers.text (``--to txt``).

The central property: GNU Backgammon's text exports in the corpus print a
Position ID and a Match ID before every action; the positions writer
computes the same two IDs (and the same play text) for every one of them,
both from the export itself and from the .mat transcript the export was
made from.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from pathlib import Path

import pytest

from tabla_cli.board import Player, Position
from tabla_cli.errors import Location
from tabla_cli.formats import gnubg_text, mat
from tabla_cli.ids import XGID_MAX_CUBE_EXP, decode_match_id, decode_position_id, parse_xgid
from tabla_cli.model import Action, ActionKind, Game, Match, RuleSet
from tabla_cli.writers.positions import COLUMNS, format_positions, position_rows, write_positions
from tabla_cli.writers.text import format_text, write_text

import helpers
from helpers import CORPUS, DATA, corpus_files

ZERO, ONE = Player.ZERO, Player.ONE
EXPORTS = corpus_files("txt")


def export_of(path: Path) -> gnubg_text.TextExport:
    (export,) = gnubg_text.parse_exports(path.read_text(encoding="utf-8"), path=str(path))
    return export


def rows_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# --- against gnubg's own exports -------------------------------------------------------------


def test_export_ids_equal_the_rows_of_the_export() -> None:
    """Every record of every corpus export: the same Position ID, Match ID and play."""
    checked = 0
    for path in EXPORTS:
        export = export_of(path)
        rows = {id(row.source): row for row in position_rows(export.match)}
        for printed in export.positions:
            assert printed.action is not None
            row = rows[id(printed.action)]
            where = f"{path.name} move {printed.move}"
            assert (row.position_id, row.match_id) == (printed.position_id, printed.match_id), where
            if printed.kind == "roll":
                assert row.play == printed.action.play_text, where
            checked += 1
    assert checked > 900


def _source_of(path: Path) -> tuple[Path, int] | None:
    """The corpus .mat transcript a text export was made from, and the game's index in it."""
    stem = re.sub(r"^bglab-(lasse|Llabba)-[0-9]-ply-", r"bglab-\1-", path.stem)
    number = re.search(r"_0([0-9]{2})$", stem)
    source = CORPUS / "mat" / (re.sub(r"_0[0-9]{2}$", "", stem) + ".txt")
    return (source, int(number.group(1)) if number else 1) if source.exists() else None


def test_export_ids_equal_the_rows_of_the_mat_game() -> None:
    """The same game read from its .mat transcript (score, Crawford and cube from the whole match)."""
    games = checked = 0
    for path in EXPORTS:
        found = _source_of(path)
        export = export_of(path)
        if found is None:
            continue
        whole = mat.read_match(found[0])
        if whole.players != export.match.players:
            continue  # one export names the players the other way round
        number = whole.games[found[1] - 1].number
        # gnubg drops a '????' roll (rolled, then resigned) and prints a record per resignation.
        rows = [r for r in position_rows(whole) if r.game == number and r.play != "????"]
        printed = [p for p in export.positions if p.kind != "resign"]
        assert [(r.position_id, r.match_id) for r in rows] == [(p.position_id, p.match_id) for p in printed]
        games += 1
        checked += len(rows)
    assert games >= 4 and checked > 150


# --- the rows ----------------------------------------------------------------------------------


def _roll(player: Player, dice: tuple[int, int], text: str, **extra: object) -> Action:
    return Action(ActionKind.ROLL, player, Location("m"), dice=dice, play_text=text, **extra)  # type: ignore[arg-type]


def _act(kind: ActionKind, player: Player, value: int | None = None) -> Action:
    return Action(kind, player, Location("m"), value=value)


def test_money_cube_actions_and_ids() -> None:
    match = Match(
        ("Ann", "Bob"),
        0,
        [
            Game(
                1,
                (0, 0),
                [
                    _roll(ZERO, (3, 1), "8/5 6/5"),
                    _act(ActionKind.DOUBLE, ONE, 2),
                    _act(ActionKind.BEAVER, ZERO, 4),
                    _roll(ONE, (6, 6), "24/18 24/18 13/7 13/7"),
                    _roll(ZERO, (5, 5), "", resigned=True),
                    _act(ActionKind.WIN, ONE, 4),
                ],
            )
        ],
        rules=RuleSet(jacoby=True, beaver=True),
    )
    rows = position_rows(match)
    assert [(r.action, int(r.player), r.play) for r in rows] == [
        ("roll", 0, "8/5 6/5"),
        ("double", 1, ""),
        ("beaver", 0, ""),
        ("roll", 1, "24/18(2) 13/7(2)"),
        ("roll", 0, "????"),
    ]
    roll, double, beaver, bob, resigned = rows
    assert roll.position_id == "4HPwATDgc/ABMA" and roll.pips == (167, 167)
    assert double.on_roll == ONE and double.position_id == beaver.position_id
    assert beaver.on_roll == ONE and beaver.pips == (163, 167)
    for row in rows:
        assert row.state is not None
        # A Match ID holds every field but the XGID-only beaver rule and cube limit.
        state = decode_match_id(row.match_id, strict=False)
        assert state == dataclasses.replace(row.state, beaver=False, max_cube_exp=XGID_MAX_CUBE_EXP)
        assert (state.length, state.jacoby) == (0, True)
        position, xg = parse_xgid(row.xgid)
        assert position == decode_position_id(row.position_id) == row.position
        assert xg.dice_owner == row.on_roll and xg.beaver and xg.jacoby
    assert (double.state and double.state.turn, beaver.state and beaver.state.doubled) == (ONE, True)
    assert (bob.state and bob.state.cube, bob.state and bob.state.cube_owner) == (4, ZERO)
    assert resigned.state is not None and resigned.state.dice == (5, 5)


def test_unresolved_play_and_a_play_that_cannot_be_applied() -> None:
    match = Match(
        ("Ann", "Bob"),
        3,
        [
            Game(
                1,
                (0, 0),
                [
                    _roll(ZERO, (3, 1), "13/7"),  # illegal, but it can be applied
                    _roll(ONE, (6, 2), "24/18 13/11"),
                    _roll(ZERO, (4, 2), "3/1 3/1"),  # cannot be applied: no checker on 3
                    _roll(ONE, (5, 2), "13/8 13/11"),
                ],
            )
        ],
    )
    rows = position_rows(match)
    assert [r.play for r in rows] == ["13/7", "24/18* 13/11", "3/1 3/1", "13/8 13/11"]
    ann = list(Position.start().mover)
    ann[13] -= 1
    ann[7] += 1
    assert rows[1].position == Position(Position.start().mover, tuple(ann))  # Bob on roll after 13/7
    assert rows[2].position_id and not rows[3].position_id and rows[3].pips is None
    assert rows[3].values()[8:] == ["", "", "", None, None, ""]


def test_csv_columns_and_rows() -> None:
    match = mat.read_match(DATA / "mat" / "spec-3pt-gnubg.mat")
    text = format_positions([(match, None), (match, None)])
    assert text.splitlines()[0] == ",".join(COLUMNS)
    rows = rows_of(text)
    decisions = sum(1 for g in match.games for a in g.actions if a.kind not in (ActionKind.WIN, ActionKind.LOSS))
    assert len(rows) == 2 * decisions and {r["match"] for r in rows} == {"1", "2"}
    first = rows[0]
    assert (first["game"], first["move"], first["player"], first["side"], first["action"], first["dice"]) == (
        "1",
        "1",
        "Petar",
        "0",
        "roll",
        "31",
    )
    assert first["play"] == "8/5 6/5" and first["pips_player"] == first["pips_opponent"] == "167"
    drop = next(r for r in rows if r["action"] == "drop")
    assert drop["player"] == "Maria" and drop["dice"] == "" and decode_match_id(drop["match_id"]).doubled
    handle = io.StringIO()
    write_positions([(match, None), (match, None)], handle)
    assert handle.getvalue() == text


def test_text_boards() -> None:
    match = mat.read_match(DATA / "mat" / "spec-3pt-gnubg.mat")
    text = format_text([(match, None)])
    assert text.startswith("Petar (O) - Maria (X), 3-point match\nSite: Kafene Sofia\n")
    assert "Move 2: Maria (X) to play 55\n" in text and "* Maria cannot move\n" in text
    assert "Move 4: Petar (O) on roll, cube decision\n" in text and "* Petar doubles to 2\n" in text
    assert "* Maria drops\n" in text and "\nPetar wins 2 points and the match\n" in text
    assert text.count(" +13-14-15-16-17-18------19-20-21-22-23-24-+") == len(position_rows(match))
    handle = io.StringIO()
    write_text([(match, None)], handle)
    assert handle.getvalue() == text


@pytest.mark.parametrize("path", EXPORTS[:3], ids=lambda p: p.name)
def test_text_of_corpus_exports(path: Path) -> None:
    text = format_text([(export_of(path).match, None)])
    assert "Position ID: " in text and "(position unknown" not in text


def test_convert_page_lists_every_column() -> None:
    page = (helpers.ROOT / "docs" / "convert.md").read_text(encoding="utf-8")
    section = page[page.index("| Column | Meaning |") :]
    for column in COLUMNS:
        assert f"| `{column}` |" in section, column
