"""Board diagrams (tabla_cli.svg) and ``tabla show --format svg``.

The golden file ``tests/data/svg/start.expected.svg`` is rewritten only with
``pytest --update-golden``; review the
diff and the drawing before committing it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from tabla_cli.board import BAR, OFF, Player, Position
from tabla_cli.errors import UnsupportedFormatError
from tabla_cli.ids import MatchState
from tabla_cli.pasted import parse_ids
from tabla_cli.render import board_lines
from tabla_cli.svg import board_svg
from tabla_cli.variant import Plakoto

import helpers
from helpers import run

DATA = helpers.DATA / "svg"
NS = "{http://www.w3.org/2000/svg}"
MARK = {Player.ZERO: "o", Player.ONE: "x"}

# Positions used elsewhere in the tests: one with a checker on the bar and the cube
# owned (XGID X6 of test_ids), both sides bearing off, a stack of 6 and a stack of 14.
CASES = {
    "start": "4HPwATDgc/ABMA:cAkAAAAAAAAA",
    "bar-cube": "XGID=aa----EACA--dCa--c-e----B-:2:-1:-1:00:3:2:0:7:10",
    "borne-off": "XGID=-AA---A------------a-abbb-:1:1:1:61:0:0:1:0:10",
    "stack-6": "27Y5AADgc/ADQA",
    "stack-14": "4HN8ABj/PwAEAA",
}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == name]


def drawn(position: Position, state: MatchState) -> ET.Element:
    return parse(
        board_svg(position, on_roll=state.dice_owner, dice=state.dice, cube=state.cube, cube_owner=state.cube_owner)
    )


def checkers_shown(root: ET.Element, mark: str) -> int:
    """Checkers on the board and the bar: circles, plus what each count says beyond its five circles."""
    circles = len(of_class(root, f"checker {mark}"))
    return circles + sum(int(e.text or "") - 5 for e in of_class(root, f"count {mark}"))


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_checker_not_borne_off_is_drawn(case: str) -> None:
    position, found = parse_ids(CASES[case])
    state = found or MatchState()
    root = drawn(position, state)
    sides = {state.dice_owner: position.mover, state.dice_owner.other: position.opponent}
    for player, counts in sides.items():
        mark = MARK[player]
        assert checkers_shown(root, mark) == 15 - counts[OFF]
        assert len(of_class(root, f"off {mark}")) == counts[OFF]


def test_the_cases_cover_bar_borne_off_stacks_cube_and_dice() -> None:
    positions = {name: parse_ids(text) for name, text in CASES.items()}
    assert positions["stack-6"][1] is None and positions["stack-14"][1] is None
    bar_cube, bar_state = positions["bar-cube"]
    assert bar_cube.mover[BAR] and bar_state is not None and bar_state.cube_owner is not None
    borne, borne_state = positions["borne-off"]
    assert borne.mover[OFF] and borne.opponent[OFF] and borne_state is not None and borne_state.dice
    assert max(positions["stack-6"][0].mover[1:25]) == 6
    assert max(positions["stack-14"][0].mover[1:25]) == 14


def labels(root: ET.Element) -> list[tuple[float, float, int]]:
    return [(float(e.get("y", "")), float(e.get("x", "")), int(e.text or "")) for e in of_class(root, "point-number")]


def test_point_numbers_read_as_the_ascii_board() -> None:
    root = parse(board_svg(Position.start()))
    rows: dict[float, list[tuple[float, int]]] = {}
    for y, x, number in labels(root):
        rows.setdefault(y, []).append((x, number))
    top, bottom = (sorted(rows[y]) for y in sorted(rows))
    ascii_lines = board_lines(Position.start())
    assert [n for _, n in top] == [int(n) for n in re.findall(r"\d+", ascii_lines[0])]
    assert [n for _, n in bottom] == [int(n) for n in re.findall(r"\d+", ascii_lines[-1])]


@pytest.mark.parametrize("case", sorted(CASES))
def test_checkers_stand_on_their_points(case: str) -> None:
    """Under each point number: the side and number of checkers the position has there."""
    position, found = parse_ids(CASES[case])
    state = found or MatchState()
    root = drawn(position, state)
    ys = sorted({y for y, _, _ in labels(root)})
    middle = (ys[0] + ys[1]) / 2
    for y, x, point in labels(root):
        mine, theirs = position.mover[point], position.opponent[25 - point]
        owner = state.dice_owner if mine else state.dice_owner.other
        here = [
            e
            for e in root.iter()
            if str(e.get("class", "")).startswith(("checker", "count"))
            and float(e.get("cx", e.get("x", ""))) == x
            and (float(e.get("cy", e.get("y", ""))) < middle) == (y < middle)
        ]
        classes = {str(e.get("class")).split()[1] for e in here}
        assert classes <= {MARK[owner]}
        circles = sum(1 for e in here if e.tag == f"{NS}circle")
        counts = [int(e.text or "") for e in here if e.tag == f"{NS}text"]
        assert (counts[0] if counts else circles) == mine + theirs
        assert circles == min(mine + theirs, 5)


def test_bar_checkers_sit_in_the_bar_in_their_own_half() -> None:
    position = Position.from_points({25: 2, 6: 13}, {25: 1, 6: 14})
    root = parse(board_svg(position, on_roll=Player.ONE))
    numbers = [e for e in of_class(root, "point-number") if e.text in ("7", "6")]
    left, right = sorted(float(e.get("x", "")) for e in numbers)
    at_bar = [
        e
        for e in root.iter(f"{NS}circle")
        if str(e.get("class", "")).startswith("checker") and left < float(e.get("cx", "")) < right
    ]
    mover = [float(e.get("cy", "")) for e in at_bar if e.get("class") == "checker x"]
    opponent = [float(e.get("cy", "")) for e in at_bar if e.get("class") == "checker o"]
    assert len(mover) == 2 and len(opponent) == 1
    assert max(opponent) < min(mover)


def cube_place(svg: str) -> tuple[float, str]:
    root = parse(svg)
    (cube,) = of_class(root, "cube")
    rect = cube.find(f"{NS}rect")
    text = cube.find(f"{NS}text")
    assert rect is not None and text is not None
    return float(rect.get("y", "")), text.text or ""


def test_cube_is_centred_or_at_its_owners_side() -> None:
    start = Position.start()
    top, _ = cube_place(board_svg(start, cube=2, cube_owner=Player.ONE, on_roll=Player.ZERO))
    middle, value = cube_place(board_svg(start))
    bottom, owned = cube_place(board_svg(start, cube=2, cube_owner=Player.ZERO, on_roll=Player.ZERO))
    assert top < middle < bottom
    assert (value, owned) == ("64", "2")


def test_dice_show_their_spots() -> None:
    root = parse(board_svg(Position.start(), dice=(6, 5)))
    dice = of_class(root, "die")
    assert [len(d.findall(f"{NS}circle")) for d in dice] == [6, 5]
    assert of_class(parse(board_svg(Position.start())), "die") == []


def test_score_pips_and_caption_are_labelled_by_side() -> None:
    position = Position.from_points({6: 5, 5: 5}, {24: 2, 13: 13})
    svg = board_svg(
        position,
        on_roll=Player.ONE,
        score=(3, 1),
        length=5,
        names=("Ann", "Bob & Co"),
        caption="play made: 13/7 8/7 \u2014 best: 24/18 13/7 (\u22120.123)",
    )
    root = parse(svg)
    (score,) = of_class(root, "score")
    assert score.text == "Ann (O) 3, Bob & Co (X) 1 \u2014 5-point match"
    legends = [e.text for e in of_class(root, "legend") if e.tag == f"{NS}text"]
    assert legends == ["Ann (O): pip count 217, borne off 0", "Bob & Co (X), on roll: pip count 55, borne off 5"]
    (caption,) = of_class(root, "caption")
    assert caption.text == "play made: 13/7 8/7 \u2014 best: 24/18 13/7 (\u22120.123)"
    assert "Bob &amp; Co" in svg


def test_long_lines_get_a_smaller_font() -> None:
    names = ("A player with a very long name indeed, from far away", "Another player with a long name")
    root = parse(board_svg(Position.start(), caption="24/18 " * 18, names=names, score=(1, 2), length=11))
    width = float(root.get("viewBox", "").split()[2])
    sizes = {e.get("class"): float(e.get("font-size", "")) for e in root.iter(f"{NS}text")}
    for line in ("caption", "score", "legend"):
        assert sizes[line] < 14
    texts = {e.get("class"): e for e in root.iter(f"{NS}text")}
    assert len(texts["caption"].text or "") * sizes["caption"] * 0.56 <= width
    short = parse(board_svg(Position.start(), caption="13/7 8/7"))
    assert [e.get("font-size") for e in of_class(short, "caption")] == ["14"]


def test_money_game_and_crawford() -> None:
    (money,) = of_class(parse(board_svg(Position.start())), "score")
    assert money.text == "money game"
    (crawford,) = of_class(parse(board_svg(Position.start(), score=(4, 2), length=5, crawford=True)), "score")
    assert crawford.text == "X 2, O 4 \u2014 5-point match, Crawford game"


def test_title_viewbox_and_size() -> None:
    root = parse(board_svg(Position.start(), dice=(3, 1)))
    assert root[0].tag == f"{NS}title"
    assert root[0].text == "Backgammon position 4HPwATDgc/ABMA, O on roll, dice 3-1"
    width, height = map(int, root.get("viewBox", "").split()[2:])
    assert root.get("width") is None
    sized = parse(board_svg(Position.start(), size=311, title="Opening"))
    assert (sized.get("width"), sized.get("height")) == ("311", str(round(311 * height / width)))
    assert sized[0].text == "Opening"
    assert not [e for e in root.iter() if e.get("id")]


def test_start_matches_golden(golden: Callable[[Path, str], None]) -> None:
    golden(DATA / "start.expected.svg", board_svg(Position.start()))


def test_variant_boards_are_refused() -> None:
    with pytest.raises(UnsupportedFormatError, match="PlakotoPosition"):
        board_svg(Plakoto.start_position())
    with pytest.raises(UnsupportedFormatError, match="dice 7-1"):
        board_svg(Position.start(), dice=(7, 1))


# --- tabla show --------------------------------------------------------------


def test_show_svg_on_stdout() -> None:
    code, out, err = run("show", CASES["bar-cube"], "--format", "svg")
    assert (code, err) == (0, "")
    root = parse(out)
    (cube,) = of_class(root, "cube")
    assert [e.text for e in cube.iter(f"{NS}text")] == ["4"]
    assert of_class(root, "score")[0].text == "X 3, O 2 \u2014 7-point match"


def test_show_svg_wants_one_position() -> None:
    code, out, err = run("show", "start", "start", "--format", "svg")
    assert code == 2 and out == ""
    assert "one POSITION at a time" in err


def test_show_svg_of_a_variant_without_the_standard_board_is_a_usage_error() -> None:
    code, out, err = run("show", "start", "--variant", "plakoto", "--format", "svg")
    assert code == 2 and out == ""
    assert "plakoto" in err


def test_show_svg_of_a_bad_id_exits_1() -> None:
    code, out, err = run("show", "4HPwATDgc/AB!A", "--format", "svg")
    assert code == 1 and out == ""
    assert "Error" in err


def test_show_output_file_takes_its_format_from_the_suffix(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    code, out, err = run("show", "start", "-o", str(target))
    assert (code, out, err) == (0, "", "")
    assert target.read_text(encoding="utf-8") == board_svg(Position.start())
    as_json = tmp_path / "board.json"
    assert run("show", "start", "start", "-o", str(as_json))[0] == 0
    assert as_json.read_text(encoding="utf-8").startswith("[")
    as_text = tmp_path / "board.svg.txt"
    assert run("show", "start", "-o", str(as_text), "--format", "text")[0] == 0
    assert "+13-14-15-16-17-18" in as_text.read_text(encoding="utf-8")


def test_show_output_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    target.write_text("keep me", encoding="utf-8")
    code, out, err = run("show", "start", "-o", str(target))
    assert code == 1 and out == ""
    assert "--force" in err
    assert target.read_text(encoding="utf-8") == "keep me"
    assert run("show", "start", "-o", str(target), "--force")[0] == 0
    assert target.read_text(encoding="utf-8").startswith("<svg")
    assert [p.name for p in tmp_path.iterdir()] == ["board.svg"]


def test_show_output_with_an_unknown_suffix_needs_a_format(tmp_path: Path) -> None:
    code, out, err = run("show", "start", "-o", str(tmp_path / "board.png"))
    assert code == 2 and out == ""
    assert "--format" in err
    assert list(tmp_path.iterdir()) == []
