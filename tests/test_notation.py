from __future__ import annotations

import pytest

from tabla_cli.board import Position, Step, legal_plays, resolve_play
from tabla_cli.errors import InvalidDiceError, InvalidPlayError
from tabla_cli.notation import format_play, format_play_plain, parse_dice, parse_play

START = "4HPwATDgc/ABMA"


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("bar/22", ((25, 22, False),)),
        ("25/22", ((25, 22, False),)),
        ("Bar/22", ((25, 22, False),)),
        ("6/off", ((6, 0, False),)),
        ("6/0", ((6, 0, False),)),
        ("6/Off", ((6, 0, False),)),
        ("13/7*", ((13, 7, True),)),
        ("13/7(2)", ((13, 7, False), (13, 7, False))),
        ("13/7 (2)", ((13, 7, False), (13, 7, False))),
        ("24/18/13", ((24, 18, False), (18, 13, False))),
        ("24/20*/16(2)", ((24, 20, True), (20, 16, False)) * 2),
        ("8-5 6-5", ((8, 5, False), (6, 5, False))),
        ("8/5, 6/5", ((8, 5, False), (6, 5, False))),
        ("Cannot Move", ()),
        ("", ()),
        ("  ", ()),
    ],
)
def test_parse_play(text: str, segments: tuple[tuple[int, int, bool], ...]) -> None:
    assert parse_play(text) == segments


@pytest.mark.parametrize("text", ["13/", "/13", "13//7", "13/7(1)", "13/7(5)", "x/7", "26/20", "13/7 x", "(2)"])
def test_parse_play_rejects(text: str) -> None:
    with pytest.raises(InvalidPlayError) as info:
        parse_play(text)
    assert text.strip() in str(info.value)


# move-notation.md section 6: position, dice, steps, gnubg's written form
GNUBG_WRITTEN = [
    (START, (3, 1), [(8, 5), (6, 5)], "8/5 6/5"),
    (START, (3, 1), [(24, 21), (21, 20)], "24/20"),
    (START, (3, 1), [(13, 10), (10, 9)], "13/9"),
    (START, (3, 1), [(24, 21), (24, 23)], "24/23 24/21"),
    (START, (6, 4), [(24, 18), (18, 14)], "24/14"),
    (START, (6, 4), [(13, 7), (7, 3)], "13/3"),
    (START, (6, 6), [(24, 18), (24, 18), (13, 7), (13, 7)], "24/18(2) 13/7(2)"),
    (START, (6, 6), [(13, 7), (13, 7), (13, 7), (8, 2)], "13/7(3) 8/2"),
    ("4OvCATDgc+QBUA", (6, 4), [(25, 21), (24, 18)], "bar/21 24/18*"),
    ("4OvCATDgc+QBUA", (6, 4), [(25, 21), (21, 15)], "bar/15"),
    ("4OvCATDgc+QBUA", (5, 5), [(25, 20), (20, 15), (15, 10), (10, 5)], "bar/5"),
    ("4OvCATDgc+QBUA", (5, 5), [(25, 20), (20, 15), (13, 8), (13, 8)], "bar/15 13/8(2)"),
    ("0HPwATDgc/ABMA", (4, 4), [(24, 20), (24, 20), (20, 16), (20, 16)], "24/20*/16(2)"),
    ("0HPwATDgc/ABMA", (4, 4), [(24, 20), (24, 20), (13, 9), (9, 5)], "24/20*(2) 13/5"),
    ("4Nu2AQDgc/ABMA", (6, 6), [(13, 7), (13, 7), (13, 7), (7, 1)], "13/1 13/7(2)"),
    ("4PPBBwBCAAAAAA", (5, 4), [(6, 1), (2, 0)], "6/1 2/off"),
    ("4PPBBwBCAAAAAA", (5, 4), [(6, 2), (2, 0)], "6/off"),
    ("4PPBBwASAAAAAA", (6, 5), [(4, 0), (2, 0)], "4/off 2/off"),
    ("4PPBBwChAQAAAA", (6, 6), [(6, 0), (6, 0), (5, 0), (1, 0)], "6/off(2) 5/off 1/off"),
]


@pytest.mark.parametrize(("pid", "dice", "steps", "written"), GNUBG_WRITTEN)
def test_gnubg_written_form(pid: str, dice: tuple[int, int], steps: list[tuple[int, int]], written: str) -> None:
    position = Position.from_id(pid)
    segments = tuple((s, d, False) for s, d in steps)
    resolution = resolve_play(position, dice, segments)
    assert resolution.error is None
    assert resolution.play is not None
    assert format_play(position, resolution.play) == written
    assert resolution.result in legal_plays(position, dice)


@pytest.mark.parametrize(("pid", "dice", "steps", "written"), GNUBG_WRITTEN)
def test_written_form_reads_back(pid: str, dice: tuple[int, int], steps: list[tuple[int, int]], written: str) -> None:
    position = Position.from_id(pid)
    expected = resolve_play(position, dice, tuple((s, d, False) for s, d in steps)).result
    assert resolve_play(position, dice, parse_play(written)).result == expected


def test_hop_prefers_the_route_without_a_hidden_hit() -> None:
    # An opponent blot on our 18 and our 19 open: 24/13 with 65 can go either way.
    position = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {7: 1, 8: 2, 13: 5, 24: 2, 5: 5})
    resolution = resolve_play(position, (6, 5), parse_play("24/13"))
    assert resolution.error is None and resolution.play is not None
    assert resolution.alternatives == 2
    assert not any(s.hit for s in resolution.play)
    marked = resolve_play(position, (6, 5), parse_play("24/18*/13"))
    assert marked.play is not None and any(s.hit for s in marked.play)


def test_plain_form() -> None:
    assert format_play_plain((Step(25, 20), Step(20, 15), Step(13, 8), Step(13, 8))) == "25/20 20/15 13/8 13/8"


@pytest.mark.parametrize(("text", "dice"), [("64", (6, 4)), ("6-4", (6, 4)), ("6 4", (6, 4)), ("13", (1, 3))])
def test_parse_dice(text: str, dice: tuple[int, int]) -> None:
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["7-1", "6", "654", "a1", ""])
def test_parse_dice_rejects(text: str) -> None:
    with pytest.raises(InvalidDiceError):
        parse_dice(text)
