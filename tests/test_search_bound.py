"""The play search of the tabla variants is bounded (issue 12: Gulbara's progression on a damaged file).

Work is counted in search states (deterministic), not in seconds.
"""

from __future__ import annotations

from typing import Any

import pytest

import tabla_cli.variants.common as common
import tabla_cli.variants.search as search_module
import tabla_cli.variants.written as written
from tabla_cli.check import check_text
from tabla_cli.variants import Gulbara, GulbaraPosition
from tabla_cli.variants.search import SEARCH_LIMIT, SearchLimitError, SearchResult, search

import helpers

ROOT = helpers.ROOT
DAMAGED = ROOT / "tests" / "data" / "search" / "gulbara-damaged.mat"
CLEAN = ROOT / "examples" / "gulbara.mat"
# Game 2 move 13 of the damaged file: Georgi to play 1-1 (a progression: 1s to 6s, four each).
SPREAD = GulbaraPosition.from_text(
    "24:2 22:1 17:1 16:2 13:1 10:5 9:2 8:1 / 23:1 19:1 18:4 17:1 16:2 15:2 14:1 13:3 / rolls=3,3"
)


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
    monkeypatch.setattr(search_module, "SEARCH_LIMIT", 200)
    report = check_text(DAMAGED.read_text(encoding="utf-8"), "damaged")
    first = report.findings[0]
    assert (first.code, first.game, first.move, first.severity.value) == ("unchecked", 2, 13, "note")
    assert "take more than 200 positions to search" in first.message and first.legal == ()
    assert report.plays == 94 and report.findings[1].move == 18  # read on after the roll


WALKED = ROOT / "tests" / "data" / "fuzz" / "json-gulbara-1-1-walk-of-many-orders.json"
"""tabla-series as JSON with one Gulbara roll made 1-1 and emptied (issue 25): a later 1-1 progression
written as twelve moves had millions of orders to walk (28 s in the fuzz round that found its kind)."""


def test_walking_a_written_play_is_bounded_too(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = [0]
    run = written._Walk.run

    def counted(self: Any, *args: Any) -> Any:
        steps[0] += 1
        return run(self, *args)

    monkeypatch.setattr(written._Walk, "run", counted)
    report = check_text(WALKED.read_text(encoding="utf-8"), "walked")
    assert steps[0] <= 4 * SEARCH_LIMIT  # a few bounded walks; unbounded, about 700,000
    late = [f for f in report.findings if (f.game, f.move) == (5, 15)]
    assert late[0].code == "unchecked" and "take more than" in late[0].message


def test_every_search_is_bounded_by_default() -> None:
    plan = Gulbara.plan(SPREAD, (1, 1))
    assert not search(Gulbara.board(SPREAD, plan), plan).complete
    with pytest.raises(SearchLimitError, match="more than 20,000 positions"):
        Gulbara.legal_plays(SPREAD, (1, 1))
    assert "no move written" in (Gulbara.resolve_play(SPREAD, (1, 1), ()).error or "")  # the first full play stops it


def test_a_written_play_of_more_moves_than_dice_is_not_walked() -> None:
    segments = tuple((24 - n % 3, 23 - n % 3, False) for n in range(5000))
    resolution = Gulbara.resolve_play(SPREAD, (6, 5), segments)
    assert resolution.error is not None and "cannot be made of the dice 6-5" in resolution.error
