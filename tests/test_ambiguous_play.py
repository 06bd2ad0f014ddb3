"""``ambiguous-play``: only where the writer's notation leaves the play open (issue 38).

Player B leaves a blot on A's 3 point; A then plays ``6/2`` with 3-1, which is
6/3*/2 (a hit) or 6/5/2 (none). The transcript marks no hit anywhere, so a
``.mat`` reader cannot tell, and the replay says which play it chose. A
program that marks every hit (GNU Backgammon, eXtreme Gammon: the reader says
so in :attr:`Match.marks_hits`) wrote "6/2" for the play that hits nothing.
"""

from __future__ import annotations

import dataclasses

from tabla_cli.check import FileReport, check_match
from tabla_cli.formats.gnubg_text import read_matches as read_gnubg
from tabla_cli.formats.mat import parse_matches
from tabla_cli.formats.xg import read_matches as read_xg

from helpers import CORPUS, DATA

TEXT = """ 1 point match

 Game 1
 Anna : 0                       Boris : 0
  1) 31: 8/5 6/5                 21: 24/22 6/5
  2) 31: 6/2
"""


def ambiguous(marks_hits: bool) -> list[str]:
    (match,) = parse_matches(TEXT, path="t.mat")
    report = check_match(dataclasses.replace(match, marks_hits=marks_hits), FileReport("t.mat"))
    return [f.message for f in report.findings if f.code == "ambiguous-play"]


def test_a_transcript_that_marks_no_hits_is_warned_with_the_play_chosen() -> None:
    (message,) = ambiguous(marks_hits=False)
    assert message == (
        "'6/2' could mean 2 different plays (the transcript marks no hits); read as 6/5 5/2, "
        "a die at a time, the one that hits nothing on the way"
    )


def test_a_writer_that_marks_every_hit_is_not_ambiguous() -> None:
    assert ambiguous(marks_hits=True) == []


def test_the_readers_of_gnubg_and_xg_say_their_writers_mark_hits() -> None:
    export = CORPUS / "txt" / "bglab-lasse-2-ply-match967143.txt"
    with export.open(encoding="utf-8") as handle:
        assert all(match.marks_hits for match in read_gnubg(handle, path=str(export)))
    xg = DATA / "xg" / "gammonview-5nqfGw9bWG3deTaU.xg"
    assert all(match.marks_hits for match in read_xg(xg.read_bytes(), path=str(xg), max_size=1 << 26))
    (mat,) = parse_matches(TEXT, path="t.mat")
    assert not mat.marks_hits
