"""Tests for tabla_cli.ids: gnubg Position ID / Match ID, XGID and pasted text.

Vectors and reject rows come from the Position ID, Match ID and XGID formats
(docs/formats.md) and from the files of tests/data/corpus/ids and txt.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tabla_cli.board import Player, Position
from tabla_cli.errors import InvalidIdError
from tabla_cli.grammar import load_grammar
from tabla_cli.ids import (
    MatchState,
    decode_match_id,
    decode_position_id,
    encode_match_id,
    encode_position_id,
    format_xgid,
    parse_xgid,
)
from tabla_cli.pasted import SYNTAX_EXAMPLES, parse_ids

import helpers
from helpers import corpus_files

REPO = helpers.ROOT
ZERO, ONE = Player.ZERO, Player.ONE


# --- helpers -------------------------------------------------------------------


def position_id_from_bits(bits: int) -> str:
    """Hand-make a Position ID with the stdlib's Base64 (an independent oracle)."""
    return base64.b64encode(bits.to_bytes(10, "little")).decode()[:14]


def match_id_from_bits(bits: int) -> str:
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


def side(points: dict[int, int], checkers: int = 15) -> tuple[int, ...]:
    counts = [0] * 26
    for point, n in points.items():
        counts[point] = n
    counts[0] = checkers - sum(counts)
    return tuple(counts)


def x_and_o(pos: Position, state: MatchState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(X's side, O's side): X is gnubg player 1."""
    if state.dice_owner == ONE:
        return pos.mover, pos.opponent
    return pos.opponent, pos.mover


def pips(counts: tuple[int, ...]) -> int:
    return sum(i * n for i, n in enumerate(counts))


def unordered(dice: tuple[int, int] | None) -> tuple[int, ...]:
    return tuple(sorted(dice)) if dice else ()


def rejects(call: Any, *args: Any, match: str, **kwargs: Any) -> None:
    with pytest.raises(InvalidIdError, match=match):
        call(*args, **kwargs)


# --- Position ID: vectors P1-P8 ------------------------------------------------

BAR = 25
POSITION_VECTORS = {
    "P1": ("4HPwATDgc/ABMA", {6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}),
    "P2": ("sGfwATDgc/ABMA", {5: 2, 6: 4, 8: 2, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}),
    "P3": (
        "4OvCATDgc+QBUA",
        {6: 5, 7: 1, 8: 3, 9: 1, 13: 3, 24: 2},
        {BAR: 1, 6: 5, 8: 3, 11: 1, 13: 4, 24: 1},
    ),
    "P4": ("4DP4AFjgOfgAaA", {BAR: 1, 6: 5, 8: 2, 13: 5, 24: 2}, {BAR: 2, 6: 4, 8: 3, 13: 5, 24: 1}),
    "P5": ("2xIAAAoBAAAAAA", {1: 2, 2: 2, 3: 2, 4: 1, 6: 1}, {1: 1, 2: 1, 6: 1}),
    "P6": ("ADAAAQAkIAAAAA", {13: 2, 23: 1}, {15: 1, 17: 1, 24: 1}),
    "P7": (
        "4O3CgAXgZ8wMIA",
        {6: 4, 7: 2, 8: 3, 9: 1, 13: 2, 20: 2, 21: 1},
        {6: 6, 8: 2, 11: 2, 13: 2, 15: 2, 24: 1},
    ),
    "P8": ("AAAAAAAAAAAAAA", {}, {}),
}


@pytest.mark.parametrize("name", POSITION_VECTORS)
def test_position_vector(name: str) -> None:
    text, other, on_roll = POSITION_VECTORS[name]
    pos = decode_position_id(text)
    assert pos == Position(side(on_roll), side(other))
    assert encode_position_id(pos) == text
    assert Position.from_id(text) == pos
    assert pos.position_id() == text
    assert repr(pos) == f"Position.from_id({text!r})"


def test_borne_off_counts() -> None:
    pos = decode_position_id("2xIAAAoBAAAAAA")
    assert (pos.opponent[0], pos.mover[0]) == (7, 12)


def test_hypergammon_checkers() -> None:
    pos = decode_position_id("ADAAAQAkIAAAAA", checkers=3)
    assert pos.mover == side({15: 1, 17: 1, 24: 1}, checkers=3)
    assert pos.opponent[0] == 0
    rejects(decode_position_id, "4HPwATDgc/ABMA", checkers=3, match="15 checkers, more than 3")


def test_worked_example_bytes() -> None:
    key = bytes.fromhex("E073F00130E073F00130")
    assert base64.b64encode(key).decode()[:14] == "4HPwATDgc/ABMA"
    assert encode_position_id(Position.start()) == position_id_from_bits(int.from_bytes(key, "little"))


def test_ids_are_case_sensitive() -> None:
    assert decode_position_id("4HPwATDgc/ABMA") != decode_position_id("4hPwATDgc/ABMA")


# --- Position ID: rejects ---------------------------------------------------------

ONES_AFTER_50TH_ZERO = position_id_from_bits(1 << 79)
TOO_MANY_ONES = position_id_from_bits((1 << 80) - 1)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("4Dn4ABjwc/ABMA", "16 checkers, more than 15"),
        ("4HPwATCDz8EHAA", "same point"),
        ("27YBAHDbtgEAcA", "closed boards"),
        ("4HPwATDgc/AB!A", "'!' at column 13, outside the Base64 alphabet"),
        ("4HPwATDgc/ABMB", "padding bits"),
        ("4HPwATDgc/AB", "12 characters, expected 14"),
        ("4HPwATDgc/ABMAAA", "16 characters, expected 14"),
        ("", "0 characters"),
        (TOO_MANY_ONES, "more than 30 checkers"),
        (ONES_AFTER_50TH_ZERO, "after its 50th zero"),
    ],
)
def test_position_id_rejects(text: str, match: str) -> None:
    rejects(decode_position_id, text, match=match)


def test_position_id_lenient_ignores_padding() -> None:
    assert decode_position_id("4HPwATDgc/ABMB", strict=False) == Position.start()
    assert decode_position_id(ONES_AFTER_50TH_ZERO, strict=False) == decode_position_id("AAAAAAAAAAAAAA")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("4Dn4ABjwc/ABMA", "more than 15"),
        ("4HPwATCDz8EHAA", "same point"),
        ("27YBAHDbtgEAcA", "closed boards"),
        ("4HPwATDgc/AB!A", "outside the Base64 alphabet"),
        ("4HPwATDgc/AB", "expected 14"),
        (TOO_MANY_ONES, "more than 30 checkers"),
    ],
)
def test_position_id_lenient_rejects_the_rest(text: str, match: str) -> None:
    rejects(decode_position_id, text, strict=False, match=match)


def test_encode_position_id_rejects_impossible_counts() -> None:
    rejects(encode_position_id, Position(side({6: 16}, 16), side({})), match="cannot encode")
    rejects(encode_position_id, Position(side({6: -1}), side({})), match="cannot encode")


# --- Match ID: vectors M1-M14 ----------------------------------------------------


def state(**fields: Any) -> MatchState:
    """A MatchState; ``owner``/``on_roll`` shorthands fill cube_owner/dice_owner/turn."""
    on_roll = fields.pop("on_roll", ZERO)
    fields.setdefault("dice_owner", on_roll)
    fields.setdefault("turn", on_roll)
    return MatchState(**fields)


MATCH_VECTORS = {
    "M1": (
        "QYkqASAAIAAA",
        state(cube=2, cube_owner=ZERO, on_roll=ONE, dice=(5, 2), length=9, score=(2, 4), jacoby=True),
    ),
    "M2": ("MIEFAAAAAAAA", state(on_roll=ZERO, dice=(3, 1), jacoby=True)),
    "M3": ("cAkAAAAAAAAA", state(on_roll=ONE, jacoby=True)),
    "M4": ("cAmgAAAAAAAE", state(on_roll=ONE, length=5)),
    "M5": ("cBGgAAAAAAAE", state(dice_owner=ONE, turn=ZERO, doubled=True, length=5)),
    "M6": ("QYmlAAAAAAAE", state(cube=2, cube_owner=ZERO, on_roll=ONE, dice=(3, 1), length=5)),
    "M7": ("AUmgAAAAAAAE", state(cube=2, cube_owner=ZERO, dice_owner=ZERO, turn=ONE, resign=2, length=5)),
    "M8": ("cASgAAAACAAE", state(dice_owner=ONE, turn=ZERO, game_state=4, length=5, score=(0, 1))),
    "M9": ("sAGqAAAAIAAE", state(on_roll=ZERO, dice=(4, 2), crawford=True, length=5, score=(0, 4))),
    "M10": ("8AnvAGAAIAAE", state(on_roll=ONE, dice=(6, 3), crawford=True, length=7, score=(6, 4))),
    "M11": ("QgngACAAGAAE", state(cube=4, cube_owner=ZERO, on_roll=ONE, length=7, score=(2, 3))),
    "M12": ("EQESAAAAAAAA", state(cube=2, cube_owner=ONE, on_roll=ZERO, dice=(4, 4), jacoby=True)),
    "M13": ("cImuAAAACAAE", state(on_roll=ONE, dice=(5, 3), length=5, score=(0, 1))),
    "M14": ("AgIAAAAAIAAA", state(cube=4, cube_owner=ZERO, on_roll=ZERO, game_state=2, score=(0, 4), jacoby=True)),
}


@pytest.mark.parametrize("name", MATCH_VECTORS)
def test_match_vector(name: str) -> None:
    text, expected = MATCH_VECTORS[name]
    assert decode_match_id(text) == expected
    assert decode_match_id(text, strict=False) == expected
    assert encode_match_id(expected) == text


def test_match_worked_example_bytes() -> None:
    key = bytes.fromhex("41892A012000200000")
    assert base64.b64encode(key).decode() == "QYkqASAAIAAA"


def test_jacoby_is_bit_66_clear() -> None:
    assert MATCH_VECTORS["M12"][1].jacoby  # money, Jacoby on
    assert not MATCH_VECTORS["M4"][1].jacoby  # gnubg 1.07+ match: bit 66 set
    assert MATCH_VECTORS["M1"][1].jacoby  # the manual's old-style match ID
    assert encode_match_id(MatchState()).endswith("E")


def test_dice_order_is_kept() -> None:
    low_first = encode_match_id(state(on_roll=ONE, dice=(2, 5), length=9))
    assert decode_match_id(low_first).dice == (2, 5)
    assert encode_match_id(decode_match_id(low_first)) == low_first


# --- Match ID: rejects ------------------------------------------------------------

UNUSED_BIT = match_id_from_bits(int.from_bytes(base64.b64decode("cAkAAAAAAAAA"), "little") | 1 << 71)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("cImnAAAAAAAA", "a die shows 7"),
        ("cAkgCAAAAAAA", "match length 65 is over 64"),
        ("cAmgAGAAAAAA", "score 6-0 is above the match length 5"),
        ("8AkAAAAAAAAA", "Crawford flag is set in money play"),
        ("QYkqASAAIAA!", "'!' at column 12, outside the Base64 alphabet"),
        ("QYkqASAAIA", "10 characters, expected 12"),
        ("QYkqASAAIAAAA", "13 characters, expected 12"),
    ],
)
def test_match_id_gnubg_rejects(text: str, match: str) -> None:
    rejects(decode_match_id, text, match=match)
    rejects(decode_match_id, text, strict=False, match=match)


def test_match_id_owner_two() -> None:
    rejects(decode_match_id, "YAkAAAAAAAAA", match="cube-owner bits are 2")
    lenient = decode_match_id("YAkAAAAAAAAA", strict=False)
    assert lenient.cube_owner is None
    assert encode_match_id(lenient) == "cAkAAAAAAAAA"


STRICT_ONLY = {
    "one die": (state(on_roll=ONE, dice=(3, 0), length=5), "not two values from 1 to 6"),
    "owned cube of 1": (state(cube_owner=ZERO, length=5), "a cube of 1 is owned"),
    "huge cube": (state(cube=2048, cube_owner=ZERO), "cube 2048 is above the limit 1024"),
    "doubler to act": (state(on_roll=ONE, doubled=True, length=5), "doubler is also the player to act"),
    "double after roll": (state(dice_owner=ONE, turn=ZERO, doubled=True, dice=(3, 1)), "dice have been rolled"),
    "double and resign": (state(dice_owner=ONE, turn=ZERO, doubled=True, resign=1), "both pending"),
    "resigner to act": (state(on_roll=ONE, resign=1, length=5), "one who offered it"),
    "score at length": (state(length=5, score=(5, 0)), "reached the match length 5"),
    "crawford too early": (state(crawford=True, length=7, score=(3, 4)), "Crawford flag is set at 3-4"),
    "crawford both at match point": (state(crawford=True, length=7, score=(6, 6)), "Crawford flag is set at 6-6"),
    "game state 5": (state(game_state=5, length=5), "game state 5"),
}


@pytest.mark.parametrize("case", STRICT_ONLY)
def test_match_id_strict_rules(case: str) -> None:
    bad, match = STRICT_ONLY[case]
    text = encode_match_id(bad)
    rejects(decode_match_id, text, match=match)
    assert decode_match_id(text, strict=False) == bad


def test_match_id_unused_bits() -> None:
    rejects(decode_match_id, UNUSED_BIT, match="unused bits")
    assert decode_match_id(UNUSED_BIT, strict=False) == MATCH_VECTORS["M3"][1]


def test_match_id_allowed_edge_cases() -> None:
    finished = state(game_state=2, length=5, score=(5, 3))
    assert decode_match_id(encode_match_id(finished)) == finished
    one_pointer = state(crawford=True, length=1)
    assert decode_match_id(encode_match_id(one_pointer)) == one_pointer


@pytest.mark.parametrize(
    "bad",
    [
        state(cube=3),
        state(cube=1 << 16),
        state(dice=(8, 1)),
        state(resign=4),
        state(game_state=8),
        state(length=1 << 15),
        state(score=(-1, 0)),
    ],
)
def test_encode_match_id_rejects_unencodable(bad: MatchState) -> None:
    rejects(encode_match_id, bad, match="cannot encode a Match ID")


# --- XGID: vectors X1-X8 ------------------------------------------------------------

XGID_VECTORS = {
    "X1": ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "4HPwATDgc/ABMA", "cAkAAAAAAAAE"),
    "X2": ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10", "4HPwATDgc/ABMA", "cIkKAAAAAAAA"),
    "X3": ("XGID=----abF-B--BbB-Bacbd----A-:0:0:1:41:1:0:0:11:10", "4O3CgAXgZ8wMIA", "cAlmAQAACAAE"),
    "X4": ("XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:5:10", "4HPwATDgc/ABMA", "MIGlAAAAAAAE"),
    "X5": ("XGID=-b----E-C---eE---b-db---B-:0:0:1:D:0:0:0:5:10", "sGfwATDgc/ABMA", "cBGgAAAAAAAE"),
    "X6": ("XGID=aa----EACA--dCa--c-e----B-:2:-1:-1:00:3:2:0:7:10", "4OvCATDgc+QBUA", "AgHgACAAGAAE"),
    "X7": ("XGID=-b----E-C---eE---c-e----B-:0:0:1:63:4:6:1:7:10", "4HPwATDgc/ABMA", "8AnvAGAAIAAE"),
    "X8": ("XGID=-AA---A------------a-abbb-:1:1:1:61:0:0:1:0:10", "2xIAAAoBAAAAAA", "UQkHAAAAAAAA"),
}


@pytest.mark.parametrize("name", XGID_VECTORS)
def test_xgid_vector(name: str) -> None:
    xgid, position_id, match_id = XGID_VECTORS[name]
    pos, st_ = parse_xgid(xgid)
    assert encode_position_id(pos) == position_id
    assert encode_match_id(st_) == match_id
    assert format_xgid(pos, st_) == xgid
    assert parse_xgid(xgid.removeprefix("XGID=")) == (pos, st_)


@pytest.mark.parametrize("name", XGID_VECTORS)
def test_gnubg_ids_to_xgid(name: str) -> None:
    xgid, position_id, match_id = XGID_VECTORS[name]
    back = format_xgid(decode_position_id(position_id), decode_match_id(match_id))
    if name == "X2":  # the Match ID cannot carry the beaver bit
        xgid = xgid.replace(":3:0:10", ":1:0:10")
    assert back == xgid


def test_xgid_fields() -> None:
    pos, st_ = parse_xgid(XGID_VECTORS["X6"][0])
    assert st_ == state(cube=4, cube_owner=ZERO, on_roll=ZERO, length=7, score=(2, 3))
    assert pos.mover[BAR] == 1  # O on roll, from the bar
    _, beavers = parse_xgid(XGID_VECTORS["X2"][0])
    assert (beavers.jacoby, beavers.beaver, beavers.dice) == (True, True, (5, 2))
    _, doubled = parse_xgid(XGID_VECTORS["X5"][0])
    assert (doubled.dice_owner, doubled.turn, doubled.doubled, doubled.dice) == (ONE, ZERO, True, None)


def test_xgid_x3_pips() -> None:
    pos, st_ = parse_xgid(XGID_VECTORS["X3"][0])
    x, o = x_and_o(pos, st_)
    assert (pips(x), pips(o)) == (154, 158)


def test_xgid_edge_cases() -> None:
    start = "-b----E-C---eE---c-e----B-"
    money = parse_xgid(f"{start}:0:0:1:00:3:2:0:0:10")[1]
    assert money.score == (2, 3)
    assert parse_xgid(f"{start}:0:0:1:D:0:0:0:0:10")[1].doubled
    for flag in ("0", "1"):
        assert parse_xgid(f"{start}:0:0:1:00:0:0:{flag}:1:10")[1].crawford == (flag == "1")
    assert parse_xgid(f"{start}:0:0:1:25:0:0:0:0:10")[1].dice == (2, 5)
    assert parse_xgid(f"  xgid={start}:0:0:1:00:0:0:0:0:3 ")[1].max_cube_exp == 3
    assert parse_xgid(f"XGID = {start}:0:0:1:00:0:0:0:0:10") == parse_xgid(f"{start}:0:0:1:00:0:0:0:0:10")
    hyper = parse_xgid("-a---------------------a-A:0:0:1:00:0:0:0:0:10", checkers=3)[0]
    assert hyper.mover[0] == 2 and hyper.opponent[0] == 1


START = "-b----E-C---eE---c-e----B-"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (f"{START}:0:0:1:00:0:0:0:0", "9 fields, expected 10"),
        (f"{START}:0:0:1:00:0:0:0:0:10:1", "11 fields, expected 10"),
        ("-b--:--E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "11 fields"),
        (f"{START[:-1]}:0:0:1:00:0:0:0:0:10", "25 characters, expected 26"),
        (f"A{START[1:]}:0:0:1:00:0:0:0:0:10", "'A' at index 0"),
        (f"{START[:-1]}b:0:0:1:00:0:0:0:0:10", "'b' at index 25"),
        ("-b----E-C---eE---c-e----B*:0:0:1:00:0:0:0:0:10", "'\\*' at index 25"),
        ("-b----E-C---eE---c-e----Q-:0:0:1:00:0:0:0:0:10", "'Q' at index 24"),
        ("-b----E-C---eE---c-e----D-:0:0:1:00:0:0:0:0:10", "17 checkers, more than 15"),
        ("-b----E-C---eE---c-e---PB-:0:0:1:00:0:0:0:0:10", "more than 15"),
        (f"{START}:11:1:1:00:0:0:0:0:10", "cube exponent 11 is not in 0..10"),
        (f"{START}:1:2:1:00:0:0:0:0:10", "cube owner 2"),
        (f"{START}:0:1:1:00:0:0:0:0:10", "a cube of 1 is owned"),
        (f"{START}:0:0:0:00:0:0:0:0:10", "turn 0"),
        (f"{START}:0:0:x:00:0:0:0:0:10", "turn 'x' is not a number"),
        (f"{START}:0:0:1:B:0:0:0:0:10", "beaver/raccoon pending\\) is not supported"),
        (f"{START}:0:0:1:R:0:0:0:0:10", "not supported"),
        (f"{START}:0:0:1:70:0:0:0:0:10", "dice field '70'"),
        (f"{START}:0:0:1:30:0:0:0:0:10", "dice field '30'"),
        (f"{START}:0:0:1:5:0:0:0:0:10", "dice field '5'"),
        (f"{START}:0:0:1:00:0:0:2:5:10", "rules flags 2 is not in 0..1"),
        (f"{START}:0:0:1:00:0:0:4:0:10", "rules flags 4 is not in 0..3"),
        (f"{START}:0:0:1:00:0:0:0:65:10", "match length 65"),
        (f"{START}:0:0:1:00:5:0:0:5:10", "reached the match length"),
        (f"{START}:0:0:1:00:0:0:1:7:10", "Crawford flag is set at 0-0"),
        (f"{START}:0:0:1:00:-1:0:0:7:10", "score of X -1"),
        (f"{START}:0:0:1:00:0:0:0:0:", "max cube '' is not a number"),
        (f"{START}:0:0:1:00:0:0:0:0:16", "max cube 16"),
        ("", "1 fields"),
    ],
)
def test_xgid_rejects(text: str, match: str) -> None:
    rejects(parse_xgid, text, match=match)


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        (state(resign=1, dice_owner=ONE, turn=ZERO), "resignation"),
        (state(game_state=2), "only a game in play"),
        (state(game_state=0), "only a game in play"),
        (state(dice_owner=ONE, turn=ZERO), "only with a pending double"),
        (state(doubled=True), "only with a pending double"),
    ],
)
def test_format_xgid_rejects(bad: MatchState, match: str) -> None:
    rejects(format_xgid, Position.start(), bad, match=match)


def test_format_xgid_rejects_shared_point() -> None:
    clash = Position(side({6: 2}), side({19: 2}))
    rejects(format_xgid, clash, state(), match="both sides have checkers on one point")


# --- parse_ids -----------------------------------------------------------------------

START_ID = "4HPwATDgc/ABMA"
M3 = MATCH_VECTORS["M3"][1]


@pytest.mark.parametrize(
    "text",
    [
        f"{START_ID}:cAkAAAAAAAAA",
        f"{START_ID} cAkAAAAAAAAA",
        f"  {START_ID}\tcAkAAAAAAAAA\n",
        f"\ufeff{START_ID}:cAkAAAAAAAAA",
        f"Position ID: {START_ID}\nMatch ID: cAkAAAAAAAAA",
        f"Match ID: cAkAAAAAAAAA\nPosition ID: {START_ID}",
        f" GNU Backgammon  Position ID: {START_ID}\n                 Match ID   : cAkAAAAAAAAA\n",
        f"GNU Backgammon  Positions ID: {START_ID}\nMatch ID   : cAkAAAAAAAAA",
        f" Position-ID: {START_ID}    Match-ID: cAkAAAAAAAAA",
        f"position id:{START_ID} match id:cAkAAAAAAAAA",
    ],
)
def test_parse_ids_gnubg_forms(text: str) -> None:
    assert parse_ids(text) == (Position.start(), M3)


@pytest.mark.parametrize("text", [START_ID, f"Position ID: {START_ID}", f"GNU Backgammon  Positions ID: {START_ID}"])
def test_parse_ids_position_only(text: str) -> None:
    assert parse_ids(text) == (Position.start(), None)


@pytest.mark.parametrize("name", XGID_VECTORS)
def test_parse_ids_xgid(name: str) -> None:
    xgid = XGID_VECTORS[name][0]
    expected = parse_xgid(xgid)
    assert parse_ids(xgid) == expected
    assert parse_ids(xgid.removeprefix("XGID=")) == expected
    assert parse_ids(f"  XGID = {xgid.removeprefix('XGID=')}\n") == expected


def test_parse_ids_xgid_with_gnubg_ids() -> None:
    xgid, position_id, match_id = XGID_VECTORS["X7"]
    text = f" Position-ID: {position_id}    Match-ID: {match_id}\n {xgid}"
    assert parse_ids(text) == parse_xgid(xgid)
    rejects(parse_ids, text.replace(position_id, "sGfwATDgc/ABMA"), match="different positions")
    rejects(parse_ids, text.replace(":4:6:1:7:", ":4:5:0:7:"), match="different match states")


def test_parse_ids_lenient() -> None:
    assert parse_ids(f"{START_ID[:-1]}B:YAkAAAAAAAAA", strict=False) == (Position.start(), M3)
    rejects(parse_ids, f"{START_ID[:-1]}B:YAkAAAAAAAAA", match="padding bits")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "no Position ID, Match ID or XGID given"),
        (" \n\t", "no Position ID, Match ID or XGID given"),
        ("Match ID: cAkAAAAAAAAA", "Match ID was given without a Position ID"),
        ("4HPwATDgc/AB", "12 characters, expected 14"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAA", "11 characters, expected 12"),
        ("4HPwATDgc/ABMA:8AkAAAAAAAAA", "Crawford flag is set in money play"),
        ("hello world", "Position ID 'hello'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0", "9 fields"),
        (f"Position ID: {START_ID}\nPosition ID: {START_ID}", "more than one Position ID"),
        (f"{XGID_VECTORS['X1'][0]}\n{XGID_VECTORS['X1'][0]}", "more than one XGID"),
    ],
)
def test_parse_ids_rejects(text: str, match: str) -> None:
    rejects(parse_ids, text, match=match)


def test_parse_ids_errors_say_where_in_words() -> None:
    with pytest.raises(InvalidIdError) as caught:
        parse_ids("Position ID: 4HPwATDgc/ABMA\nMatch ID: cImnAAAAAAAA")
    assert caught.value.location is None
    assert str(caught.value).endswith("(line 2 of the pasted text)")
    with pytest.raises(InvalidIdError) as caught:
        parse_ids("4HPwATDgc/ABMA cAkAAAAAAAAA cAkAAAAAAAAA")
    assert caught.value.location is None
    assert str(caught.value).endswith("(at column 29 of '4HPwATDgc/ABMA cAkAAAAAAAAA cAkAAAAAAAAA')")
    assert "^" in caught.value.context


@pytest.mark.parametrize(
    ("label", "example"),
    [(label, example) for label, examples in SYNTAX_EXAMPLES.items() for example in examples],
)
def test_syntax_labels(label: str, example: str) -> None:
    with pytest.raises(InvalidIdError) as caught:
        parse_ids(example)
    assert caught.value.message.startswith(label)


def test_grammar_builds_strict() -> None:
    load_grammar("ids.lark", strict=True)


def test_grammar_found_inside_package(tmp_path: Path) -> None:
    """An installed layout (grammars inside the package, no repo dir) still loads."""
    shutil.copytree(REPO / "tabla_cli", tmp_path / "tabla_cli", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "grammars", tmp_path / "tabla_cli" / "grammars")
    code = (
        "import tabla_cli.grammar as g, tabla_cli.pasted as ids;"
        "assert g._packaged('ids.lark');"
        "assert not g._checkout_path('ids.lark').exists();"
        "print(ids.parse_ids('4HPwATDgc/ABMA')[0].position_id())"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == START_ID


def test_missing_grammar() -> None:
    with pytest.raises(FileNotFoundError):
        load_grammar("no-such-grammar.lark")


# --- properties --------------------------------------------------------------------


def closed_and_both_on_bar(pos: Position) -> bool:
    closed = all(s[p] >= 2 for s in (pos.mover, pos.opponent) for p in range(1, 7))
    return closed and bool(pos.mover[BAR]) and bool(pos.opponent[BAR])


@st.composite
def positions(draw: st.DrawFn, checkers: int = 15) -> Position:
    mover = [0] * 26
    opponent = [0] * 26
    for _ in range(draw(st.integers(0, checkers))):
        mover[draw(st.integers(1, 25))] += 1
    free = [p for p in range(1, 26) if p == BAR or not mover[25 - p]]
    for _ in range(draw(st.integers(0, checkers))):
        opponent[draw(st.sampled_from(free))] += 1
    mover[0] = checkers - sum(mover)
    opponent[0] = checkers - sum(opponent)
    pos = Position(tuple(mover), tuple(opponent))
    assume(not closed_and_both_on_bar(pos))
    return pos


@given(positions())
def test_position_id_round_trip(pos: Position) -> None:
    text = encode_position_id(pos)
    assert len(text) == 14
    assert decode_position_id(text) == pos
    assert Position.from_id(text).flip().flip() == pos


@given(positions(checkers=3))
def test_hypergammon_round_trip(pos: Position) -> None:
    assert decode_position_id(encode_position_id(pos), checkers=3) == pos


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", min_size=14, max_size=14))
def test_any_position_id_decodes_or_is_rejected(text: str) -> None:
    try:
        pos = decode_position_id(text)
    except InvalidIdError:
        return
    assert encode_position_id(pos) == text


players = st.sampled_from([ZERO, ONE])


@st.composite
def gnubg_states(draw: st.DrawFn) -> MatchState:
    """Any state gnubg itself would accept (not necessarily consistent)."""
    length = draw(st.integers(0, 64))
    score = st.integers(0, length) if length else st.integers(0, (1 << 15) - 1)
    return MatchState(
        cube=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.none() | players),
        dice_owner=draw(players),
        crawford=bool(length) and draw(st.booleans()),
        game_state=draw(st.integers(0, 7)),
        turn=draw(players),
        doubled=draw(st.booleans()),
        resign=draw(st.integers(0, 3)),
        dice=draw(st.none() | st.tuples(st.integers(1, 6), st.integers(0, 6))),
        length=length,
        score=(draw(score), draw(score)),
        jacoby=draw(st.booleans()),
    )


@given(gnubg_states())
def test_match_id_round_trip(st_: MatchState) -> None:
    text = encode_match_id(st_)
    assert len(text) == 12
    assert decode_match_id(text, strict=False) == st_


@st.composite
def playing_states(draw: st.DrawFn) -> MatchState:
    """Consistent states of a game in play: what an XGID can say."""
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 11, 25, 64]))
    if length:
        score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
        at_point = score.count(length - 1)
        crawford = (length == 1 or at_point == 1) and draw(st.booleans())
        jacoby, beaver = False, False
    else:
        score = (draw(st.integers(0, 20)), draw(st.integers(0, 20)))
        crawford = False
        jacoby, beaver = draw(st.booleans()), draw(st.booleans())
    exp = draw(st.integers(0, 10))
    mover = draw(players)
    doubled = draw(st.booleans())
    return MatchState(
        cube=1 << exp,
        cube_owner=draw(players | st.none()) if exp else None,
        dice_owner=mover,
        crawford=crawford,
        turn=mover.other if doubled else mover,
        doubled=doubled,
        dice=None if doubled else draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))),
        length=length,
        score=score,
        jacoby=jacoby,
        beaver=beaver,
        max_cube_exp=draw(st.integers(0, 15)),
    )


@given(positions(), playing_states())
def test_xgid_round_trip(pos: Position, st_: MatchState) -> None:
    xgid = format_xgid(pos, st_)
    assert parse_xgid(xgid) == (pos, st_)
    assert parse_ids(xgid) == (pos, st_)
    gnubg = dataclasses.replace(st_, beaver=False, max_cube_exp=10)
    assert decode_match_id(encode_match_id(st_)) == gnubg
    assert parse_ids(f"{encode_position_id(pos)}:{encode_match_id(st_)}") == (pos, gnubg)


@settings(max_examples=300)
@given(st.text() | st.text(alphabet="4HPwATDgc/ABMAcXGIDxgid=-bEeP:0123 \n\t"))
def test_any_text_raises_only_invalid_id_error(text: str) -> None:
    try:
        parse_ids(text)
    except InvalidIdError:
        pass


# --- corpus ---------------------------------------------------------------------------


def ids_files() -> list[Any]:
    return [pytest.param(p, id=p.name) for p in corpus_files("ids")]


def line_with(text: str, needle: str) -> str:
    return next(line for line in text.splitlines() if needle in line)


def assert_same(gnubg: tuple[Position, MatchState], xgid: tuple[Position, MatchState]) -> None:
    """The gnubg IDs and the XGID of one file describe the same decision."""
    assert gnubg[0] == xgid[0]
    a, b = gnubg[1], xgid[1]
    for name in ("cube", "cube_owner", "dice_owner", "turn", "doubled", "length", "score", "crawford"):
        assert getattr(a, name) == getattr(b, name), name
    assert unordered(a.dice) == unordered(b.dice)


def check_bgblitz(text: str) -> None:
    gnubg = parse_ids(line_with(text, "Position-ID"))
    xgid = parse_xgid(line_with(text, "XGID="))
    assert gnubg[1] is not None
    assert_same((gnubg[0], gnubg[1]), xgid)
    assert parse_ids(line_with(text, "Position-ID") + "\n" + line_with(text, "XGID=")) == xgid
    x, o = x_and_o(*xgid)
    printed = dict(re.findall(r"^ \+[-+\d]+\+\s+([OX]): .*?(\d+)\s*$", text, re.M))
    assert (pips(x), pips(o)) == (int(printed["X"]), int(printed["O"]))
    score = re.search(r"^ .+ - (\d+) .+ - (\d+) in a (\d+) point match\.$", text, re.M)
    assert score is not None
    assert (xgid[1].score, xgid[1].length) == ((int(score[1]), int(score[2])), int(score[3]))
    dice = re.search(r" to move (\d)-(\d)\s*$", text, re.M)
    assert unordered(xgid[1].dice) == (unordered((int(dice[1]), int(dice[2]))) if dice else ())


XG_CUBE = re.compile(r"^(?:Cube|Dopplerwürfel|Videau): (\d+)(?:, ([XO]))?", re.M)
XG_PLAY = re.compile(r"^([XO]) (?:to play|zum spielen|à jouer) (\d)(\d)$", re.M)
XG_CUBE_ACTION = re.compile(r"^([XO])(?: on roll, cube action|: lance ou double| am würfeln)", re.M)


def check_xg(text: str, path: Path) -> None:
    xgid = line_with(text, "XGID=")
    pos, st_ = parse_ids(xgid)
    assert st_ is not None
    assert format_xgid(pos, st_) == xgid.strip()
    x, o = x_and_o(pos, st_)
    line = re.search(r"X: (\d+)\s+O: (\d+) X-O: (\d+)-(\d+)/(\d+)", text)
    assert line is not None
    assert (pips(x), pips(o)) == (int(line[1]), int(line[2]))
    assert (st_.score, st_.length) == ((int(line[4]), int(line[3])), int(line[5]))
    cube = XG_CUBE.search(text)
    assert cube is not None
    owner = {None: None, "X": ONE, "O": ZERO}[cube[2]]
    assert (st_.cube, st_.cube_owner) == (int(cube[1]), owner)
    play = XG_PLAY.search(text)
    action = XG_CUBE_ACTION.search(text)
    assert (play is None) != (action is None)
    on_roll, dice = (play[1], unordered((int(play[2]), int(play[3])))) if play else (action[1] if action else "", ())
    assert (st_.dice_owner, unordered(st_.dice)) == ({"X": ONE, "O": ZERO}[on_roll], dice)
    twin = path.with_name(path.name.replace("xg-", "bgblitz-"))
    if twin.exists():
        assert line_with(twin.read_text(encoding="utf-8"), "XGID=").strip() == xgid.strip()


def gnubg_header(text: str) -> tuple[Position, MatchState | None]:
    lines = [line for line in text.splitlines() if re.search(r"(Positions? ID|Match ID)\s*:", line)]
    return parse_ids("\n".join(lines))


def check_gnubg_hypergammon(text: str) -> None:
    pos, st_ = gnubg_header(text)
    assert st_ is not None and "(Cube: 1)" in text and st_.cube == 1
    hyper = decode_position_id(encode_position_id(pos), checkers=3)
    assert hyper.mover[0] == hyper.opponent[0] == 0
    x, o = x_and_o(hyper, st_)
    assert {p for p in range(1, 25) if x[p]} == {15, 17, 24}  # the top row: X's 15, 17 and 24
    assert st_.score == (0, 0) and text.count("0 points") == 2


def check_gnubg_opening(text: str) -> None:
    pos, st_ = gnubg_header(text)
    assert st_ is not None
    assert pos.pips() == (167, 167)
    rolls = re.search(r"^(\w+) rolls (\d), (\w+) rolls (\d)\.", text, re.M)
    assert rolls is not None
    o_name = re.search(r"O: (\w+)", text)
    assert o_name is not None and rolls[1] == o_name[1]
    assert st_.dice_owner == ZERO and unordered(st_.dice) == unordered((int(rolls[2]), int(rolls[4])))
    assert st_.cube == 1 and "(Cube: 1)" in text


MATCH_ID_FIELDS = re.compile(r"^([A-Za-z][\w ()]*?) +(\d+) +(\d+) +([01]+)$", re.M)
MATCH_ID_WIDTHS = (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15)


def check_matchid_worked_example(text: str) -> None:
    """The hand-worked Match ID: every field's bits, value and width, the bytes, the story."""
    match_id = text.split()[-1]
    st_ = decode_match_id(match_id)
    rows = MATCH_ID_FIELDS.findall(text)
    assert tuple(int(width) for _, width, _, _ in rows) == MATCH_ID_WIDTHS
    assert all(len(bits) == int(width) for _, width, _, bits in rows)
    values = [int(value) for _, _, value, _ in rows]
    assert values == [int(bits[::-1], 2) for _, _, _, bits in rows]  # printed lowest bit first
    assert values == [
        st_.cube.bit_length() - 1,
        int(st_.cube_owner) if st_.cube_owner is not None else 3,
        st_.dice_owner,
        st_.crawford,
        st_.game_state,
        st_.turn,
        st_.doubled,
        st_.resign,
        *(st_.dice or (0, 0)),
        st_.length,
        *st_.score,
    ]
    stream = "".join(bits for _, _, _, bits in rows)
    packed = bytes(int(stream[i : i + 8][::-1], 2) for i in range(0, len(stream), 8))
    printed = re.search(r"^bytes: ([0-9A-F ]+)$", text, re.M)
    assert printed is not None and bytes.fromhex(printed[1]) == packed
    assert base64.b64encode(packed).decode() == match_id == encode_match_id(st_)
    story = re.search(r"a (\d+) point match in which player 0 has (\d+) points and player 1\nhas (\d+)", text)
    assert story is not None
    assert (st_.length, st_.score) == (int(story[1]), (int(story[2]), int(story[3])))
    assert "Player 0 owns the cube at 2" in text and (st_.cube, st_.cube_owner) == (2, ZERO)
    assert "Player 1 is on roll and has rolled 5-2" in text and (st_.dice_owner, st_.dice) == (ONE, (5, 2))


def check_blunderdb(text: str) -> None:
    for line in text.splitlines():
        case = json.loads(line)
        pos, st_ = parse_xgid(case["xgid"])
        assert format_xgid(pos, st_) == "XGID=" + case["xgid"], case["name"]
        x, o = x_and_o(pos, st_)
        assert [pips(x), pips(o)] == case["pips"], case["name"]
        assert [x[0], o[0]] == case["bearoff"], case["name"]
        assert st_.cube == 1 << case["cubeValueExp"]
        assert st_.cube_owner == {-1: None, 0: ONE, 1: ZERO}[case["cubeOwner"]]
        assert st_.dice_owner == {0: ONE, 1: ZERO}[case["playerOnRoll"]]
        assert unordered(st_.dice) == unordered(tuple(case["dice"]) if any(case["dice"]) else None)
        away = [-1, -1] if not st_.length else [st_.length - st_.score[1], st_.length - st_.score[0]]
        assert away == case["score"], case["name"]
        if not st_.length:
            assert (int(st_.jacoby), int(st_.beaver)) == (case["hasJacoby"], case["hasBeaver"])


def check_unknown(text: str) -> None:
    """A file no rule knows: every ID-looking thing in it must decode and agree."""
    found = re.findall(r"(?:XGID=)?\S{26}(?::-?\w+){9}", text)
    for xgid in found:
        pos, st_ = parse_xgid(xgid)
        assert parse_xgid(format_xgid(pos, st_)) == (pos, st_)
    pairs = re.findall(r"\b([A-Za-z0-9+/]{14})\b[: ]+(?:Match[ -]ID\s*:\s*)?([A-Za-z0-9+/]{12})\b", text)
    for position_id, match_id in pairs:
        assert encode_position_id(decode_position_id(position_id)) == position_id
        assert encode_match_id(decode_match_id(match_id)) == match_id
    assert found or pairs, "no ID found"


@pytest.mark.parametrize("path", ids_files())
def test_corpus_ids(path: Path) -> None:
    text = path.read_text(encoding="utf-8-sig")
    name = path.name
    if name.startswith("bgblitz-"):
        check_bgblitz(text)
    elif name.startswith("xg-"):
        check_xg(text, path)
    elif name == "gnubg-hypergammon-board.txt":
        check_gnubg_hypergammon(text)
    elif name == "gnubg-opening-board.txt":
        check_gnubg_opening(text)
    elif name == "tabla-matchid-worked-example.txt":
        check_matchid_worked_example(text)
    elif name == "blunderdb-xgid-cases.jsonl":
        check_blunderdb(text)
    else:
        check_unknown(text)


GNUBG_BOARD = re.compile(
    r"Position ID: (\S+)\n\s+Match ID\s+: (\S+)\n(?:.*\n){13}Pip counts: O (\d+), X (\d+)",
)


def test_corpus_gnubg_text_exports() -> None:
    """Every board of the gnubg text exports round-trips and matches its pip counts."""
    boards = 0
    for path in corpus_files("txt"):
        text = path.read_text(encoding="utf-8-sig")
        for position_id, match_id, o_pips, x_pips in GNUBG_BOARD.findall(text):
            pos, st_ = parse_ids(f"{position_id}:{match_id}")
            assert st_ is not None
            assert (encode_position_id(pos), encode_match_id(st_)) == (position_id, match_id)
            x, o = x_and_o(pos, st_)
            assert (pips(x), pips(o)) == (int(x_pips), int(o_pips)), f"{path.name}: {position_id}"
            boards += 1
        assert text.count("Position ID:") == text.count("Pip counts:")
    assert boards > 0
