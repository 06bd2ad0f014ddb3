"""The play search of the tabla variants is bounded (issue 12: Gulbara's progression on a damaged file).

Work is counted in search states (deterministic), not in seconds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tabla_cli.variants.common as common
import tabla_cli.variants.written as written
from tabla_cli.check import check_text
from tabla_cli.variants import Gulbara, GulbaraPosition
from tabla_cli.variants.search import SEARCH_LIMIT, SearchResult, search

ROOT = Path(__file__).resolve().parents[1]
DAMAGED = ROOT / "tests" / "data" / "search" / "gulbara-damaged.mat"
CLEAN = ROOT / "examples" / "gulbara.mat"
# Game 2 move 13 of the damaged file: Georgi to play 1-1 (a progression: 1s to 6s, four each).
SPREAD = GulbaraPosition.from_text("24:2 22:1 17:1 16:2 13:1 10:5 9:2 8:1 / 23:1 19:1 18:4 17:1 16:2 15:2 "
                                   "14:1 13:3 / rolls=3,3")


def count_states(monkeypatch: pytest.MonkeyPatch) -> list[SearchResult]:
    """Record every search the variants make."""
    seen: list[SearchResult] = []

    def counted(*args: Any, **kwargs: Any) -> SearchResult:
        result = search(*args, **kwargs)
        seen.append(result)
        return result

    monkeypatch.setattr(common, "search", counted)
    monkeypatch.setattr(written, "search", counted)
    return seen


def test_a_limited_search_says_it_is_incomplete() -> None:
    plan = Gulbara.plan(SPREAD, (1, 1))
    assert plan.progression and plan.size == 24
    bounded = search(Gulbara.board(SPREAD, plan), plan, cap=11, limit=1000)
    assert not bounded.complete and bounded.visited == 1000
    small = search(Gulbara.board(SPREAD, Gulbara.plan(SPREAD, (6, 5))), Gulbara.plan(SPREAD, (6, 5)), limit=1000)
    assert small.complete and small.found and small.visited < 1000


def test_listing_plays_of_a_huge_progression_gives_up_with_no_list() -> None:
    plays, count = Gulbara.some_plays(SPREAD, (1, 1), 10)
    assert (plays, count) == ([], -1)


def test_damaged_gulbara_costs_about_what_a_doubled_clean_file_does(monkeypatch: pytest.MonkeyPatch) -> None:
    searches = count_states(monkeypatch)
    clean = CLEAN.read_text(encoding="utf-8")
    check_text(clean + "\n" + clean, "doubled")
    doubled = sum(r.visited for r in searches)
    searches.clear()
    report = check_text(DAMAGED.read_text(encoding="utf-8"), "damaged")
    damaged = sum(r.visited for r in searches)
    assert max(r.visited for r in searches) <= SEARCH_LIMIT
    assert damaged <= doubled + 2 * SEARCH_LIMIT  # unbounded, the one damaged roll visits millions
    first = report.findings[0]
    assert (first.code, first.game, first.move) == ("doubles-progression", 2, 13)
    assert "plays 1 of the 24 moves" in first.message and first.legal == ("... (+more)",)


def test_a_roll_the_search_gives_up_on_is_unchecked_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(written, "SEARCH_LIMIT", 200)
    report = check_text(DAMAGED.read_text(encoding="utf-8"), "damaged")
    first = report.findings[0]
    assert (first.code, first.game, first.move, first.severity.value) == ("unchecked", 2, 13, "note")
    assert "take more than 200 positions to search" in first.message and first.legal == ()
    assert report.plays == 94 and report.findings[1].move == 18  # read on after the roll
