"""One error per mistake: after a syntax error in a game, the check resynchronises on the next score line."""

from __future__ import annotations

import pytest

from tabla_cli.check import check_file
from tabla_cli.source import Source

from helpers import DATA

GALAXY = (DATA / "mat" / "galaxy-bare-forfeit.mat").read_text(encoding="utf-8")


def findings(text: str) -> list[tuple[str, int | None]]:
    report = check_file(Source("m.mat", data=text.encode("utf-8")))
    return [(f.code, f.location.line) for f in report.findings if f.severity.value != "note"]


def test_the_file_itself_is_clean() -> None:
    assert findings(GALAXY) == []


@pytest.mark.parametrize(
    ("good", "bad", "line"),
    [
        ("      Wins 1 point\n", "      Wins 1 pont\n", 23),  # a typo in the result of game 1
        ("  5)  Doubles => 2                Drops", "  5)  Doubles => 2                Dorps", 22),
        ("  3) 42: 8/4 6/4", "  3) 72: 8/4 6/4", 20),  # a die of 7 in game 1 (71: for 21:)
        ("  3) 21: 25/23 6/5", "  3) 71: 25/23 6/5", 29),  # the same in the last game
        (" akab : 1                        lasse : 0", " akab  1                        lasse : 0", 26),  # a score line
    ],
)
def test_a_syntax_error_is_the_only_finding(good: str, bad: str, line: int) -> None:
    assert good in GALAXY
    assert findings(GALAXY.replace(good, bad, 1)) == [("syntax-error", line)]


def test_the_message_quotes_the_whole_action() -> None:
    report = check_file(Source("m.mat", data=GALAXY.replace("      Wins 1 point\n", "      Wins 1 pont\n").encode()))
    assert "cannot read 'Wins 1 pont' as an action" in report.findings[0].message


def test_a_wrong_score_after_a_complete_game_is_still_found() -> None:
    text = GALAXY.replace(" akab : 1                        lasse : 0", " akab : 2                        lasse : 0")
    assert [code for code, _ in findings(text)] == ["score-mismatch"]
