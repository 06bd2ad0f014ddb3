"""Legal-play generation: gnubg perft table, rules.md §2.7 examples, properties.

``tests/data/perft.csv`` is frozen by ``tests/data/make_perft.py`` from
gnubg-nn's move generator (run by hand in a separate venv; gnubg is never
imported here).
"""

from __future__ import annotations

import csv
from collections import Counter
from itertools import permutations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabla_cli.board import (
    BAR,
    CHECKERS,
    OFF,
    Dice,
    Play,
    Position,
    Step,
    is_legal,
    legal_plays,
    max_dice_playable,
    resolve_play,
)

from helpers import DATA

# --- the perft table --------------------------------------------------------------


def _perft_rows() -> list[tuple[str, str, int, str]]:
    with open(DATA / "perft.csv", newline="", encoding="utf-8") as handle:
        return [(r["position_id"], r["dice"], int(r["plays"]), r["note"]) for r in csv.DictReader(handle)]


PERFT = _perft_rows()


def _count(position: Position, dice: Dice) -> int:
    """Distinct legal plays; 0 for a forfeit, which ``legal_plays`` gives as ``{position: ()}``."""
    plays = legal_plays(position, dice)
    if plays == {position: ()}:
        return 0
    assert all(plays.values()), "an empty play next to real ones"
    return len(plays)


def test_perft_table_covers_the_categories() -> None:
    notes = Counter(note.split()[0] for *_, note in PERFT)
    assert notes["start"] == 21
    assert notes["rules-2.8"] == 9
    assert len(PERFT) - notes["start"] - notes["rules-2.8"] - notes["rules-2.7"] >= 150
    for category in (
        "bar-1",
        "bar-2",
        "bar-3plus",
        "bearoff-overshoot",
        "bearoff-exact",
        "bearoff-higher-occupied",
        "bearoff-contact",
        "prime-6",
        "doubles-partial",
        "one-die-larger",
        "one-die-smaller-only",
        "forfeit",
        "corpus",
        "random-selfplay",
    ):
        assert notes[category] >= 4, category
    assert len({(pid, dice) for pid, dice, *_ in PERFT}) == len(PERFT)


@pytest.mark.parametrize(
    ("position_id", "dice", "plays", "note"), PERFT, ids=[f"{pid}-{dice}" for pid, dice, *_ in PERFT]
)
def test_perft(position_id: str, dice: str, plays: int, note: str) -> None:
    position = Position.from_id(position_id)
    a, b = int(dice[0]), int(dice[1])
    assert _count(position, (a, b)) == plays
    if a != b:
        assert legal_plays(position, (b, a)).keys() == legal_plays(position, (a, b)).keys()


# --- rules.md §2.7: the plays themselves --------------------------------------------------


def _steps(text: str) -> Play:
    """``'13/8 8/2'`` -> steps (no hits in these examples)."""
    out = []
    for part in text.split():
        src, dst = part.split("/")
        out.append(Step(BAR if src == "bar" else int(src), OFF if dst == "off" else int(dst)))
    return tuple(out)


RULES_2_7 = [
    ("4HN8ABj/PwAEAA", (6, 5), ["13/7"]),
    ("4HMcMAb/H0AEAA", (6, 5), ["13/8 8/2"]),
    ("27Y5AADgc/ADQA", (6, 5), []),
    ("2zY+AADgc/ABYA", (6, 1), ["bar/19"]),
    ("4PngAwR3AwAAAQ", (6, 2), ["bar/23"]),
    (
        "4Nu2AQDgc/ABMA",
        (6, 6),
        [
            "13/7 13/7 13/7 13/7",
            "13/7 13/7 13/7 8/2",
            "13/7 13/7 13/7 7/1",
            "13/7 13/7 8/2 8/2",
            "13/7 13/7 8/2 7/1",
            "13/7 13/7 7/1 7/1",
            "13/7 8/2 8/2 8/2",
            "13/7 8/2 8/2 7/1",
        ],
    ),
    ("4PPBBwBCAAAAAA", (5, 4), ["6/1 2/off", "6/2 2/off"]),
    ("4PPBBwASAAAAAA", (6, 5), ["4/off 2/off"]),
    ("4PPBBwChAQAAAA", (6, 6), ["6/off 6/off 5/off 1/off"]),
]


@pytest.mark.parametrize(
    ("position_id", "dice", "expected"), RULES_2_7, ids=[f"{pid}-{a}{b}" for pid, (a, b), _ in RULES_2_7]
)
def test_rules_examples(position_id: str, dice: Dice, expected: list[str]) -> None:
    position = Position.from_id(position_id)
    plays = legal_plays(position, dice)
    if not expected:
        assert plays == {position: ()}
        assert resolve_play(position, dice, ()).error is None
        return
    want = {position.apply(_steps(text)) for text in expected}
    assert set(plays) == want
    for text in expected:
        play = _steps(text)
        assert is_legal(position, dice, play), text
    if len(expected) == 1:
        assert list(plays.values()) == [_steps(expected[0])]


def test_rules_examples_reject_the_alternatives() -> None:
    # 13/8 alone is legal as a step but not the larger die (§2.7 row 1)
    assert not is_legal(Position.from_id("4HN8ABj/PwAEAA"), (6, 5), _steps("13/8"))
    # 10/5 alone uses one die where both can be played (row 2)
    assert not is_legal(Position.from_id("4HMcMAb/H0AEAA"), (6, 5), _steps("10/5"))
    # the 1 cannot be used after bar/19: the second checker is still out (row 4)
    assert not is_legal(Position.from_id("2zY+AADgc/ABYA"), (6, 1), _steps("bar/24"))
    # no bear-off while a checker is on the bar (row 5)
    assert not is_legal(Position.from_id("4PngAwR3AwAAAQ"), (6, 2), _steps("bar/23 6/off"))
    # row 7: both dice must be used ("2/off 6/2" is fine: the same play written in another order)
    assert not is_legal(Position.from_id("4PPBBwBCAAAAAA"), (5, 4), _steps("2/off"))
    assert is_legal(Position.from_id("4PPBBwBCAAAAAA"), (5, 4), _steps("2/off 6/2"))
    # row 8: bearing off the 2 first is not a different play
    assert not is_legal(Position.from_id("4PPBBwASAAAAAA"), (6, 5), _steps("4/off"))
    # forfeit: an empty play is the only legal one (row 3)
    assert not is_legal(Position.from_id("27Y5AADgc/ADQA"), (6, 5), _steps("bar/20"))


# --- properties over reachable positions ----------------------------------------------------

DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def reachable(draw: st.DrawFn, max_turns: int = 100) -> Position:
    """A position reached by random legal self-play from the start (never a finished game)."""
    position = Position.start()
    for _ in range(draw(st.integers(0, max_turns))):
        plays = list(legal_plays(position, draw(DICE)))
        after = plays[draw(st.integers(0, len(plays) - 1))]
        if after.mover[OFF] == CHECKERS:
            break
        position = after.flip()
    return position


def _check_sides(position: Position) -> None:
    for side in (position.mover, position.opponent):
        assert len(side) == 26
        assert sum(side) == CHECKERS
        assert min(side) >= 0
    for point in range(1, 25):
        assert not (position.mover[point] and position.opponent[25 - point]), point


def _segments(play: Play) -> tuple[tuple[int, int, bool], ...]:
    return tuple((s.src, s.dst, s.hit) for s in play)


PROPERTY = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""The full runs of the play-generation properties: the ``*_full`` tests at the end (marked slow)."""
QUICK = settings(PROPERTY, max_examples=30)
"""The same properties in the everyday run, with fewer examples."""


def _single_die(step: Step, pool: list[int]) -> bool:
    """True if ``step`` can only be read as one die (so ``Position.apply`` gives its meaning)."""
    length = step.src - step.dst
    if step.dst == OFF:
        return length <= min(pool)
    return length in pool


def _check_verdict(position: Position, dice: Dice, play: Play, legal: dict[Position, Play]) -> None:
    """``is_legal`` must reject a play whose result is not a legal one, and accept only legal results."""
    a, b = dice
    pool = [a] * 4 if a == b else [a, b]
    verdict = is_legal(position, dice, play)
    resolution = resolve_play(position, dice, _segments(play))
    assert verdict == (resolution.error is None)
    if verdict:
        assert resolution.result in legal, play
    if all(_single_die(s, pool) for s in play) and position.apply(play) not in legal:
        assert not verdict, play


def _dice_fit(play: Play, pool: list[int]) -> list[int] | None:
    """Dice for the steps, one each: the step's length, or a larger die to bear off by overshoot."""
    for dice in set(permutations(pool, len(play))):
        if all(s.src - s.dst == d or (s.dst == OFF and s.src - s.dst < d) for s, d in zip(play, dice)):
            return list(dice)
    return None


@QUICK
@given(reachable(), DICE)
def test_generated_plays_are_consistent(position: Position, dice: Dice) -> None:
    _check_sides(position)
    plays = legal_plays(position, dice)
    assert plays
    a, b = dice
    pool = [a] * 4 if a == b else [a, b]
    depth = max_dice_playable(position, dice)
    assert legal_plays(position, (b, a)).keys() == plays.keys()
    for result, play in plays.items():
        _check_sides(result)
        assert len(play) == depth
        assert position.apply(play) == result
        # pips: the mover loses exactly the steps' lengths, the opponent gains what was hit
        lengths = [s.src - s.dst for s in play]
        before, after = position.pips(), result.pips()
        assert before[0] - after[0] == sum(lengths)
        assert after[1] - before[1] == sum(s.dst for s in play if s.hit)
        used = _dice_fit(play, pool)
        assert used is not None, play
        assert sum(lengths) <= sum(used)
        if all(s.dst != OFF for s in play):
            assert sum(lengths) == sum(used)
        # the play checks out, in the written form too
        assert is_legal(position, dice, play)
        resolution = resolve_play(position, dice, _segments(play))
        assert resolution.error is None, (play, resolution.error)
        assert resolution.result == result
    if depth == 0:
        assert plays == {position: ()}
    elif depth == 1 and a != b:
        # larger-die rule: if the larger die can be played, every play uses it
        high, low = max(a, b), min(a, b)
        die = high if max_dice_playable(position, (high, high)) else low
        for play in plays.values():
            assert _dice_fit(play, [die]) is not None, (die, play)


@QUICK
@given(reachable(), DICE, st.data())
def test_shortened_plays_are_illegal(position: Position, dice: Dice, data: st.DataObject) -> None:
    legal = legal_plays(position, dice)
    play = data.draw(st.sampled_from(list(legal.values())))
    if not play:
        return
    i = data.draw(st.integers(0, len(play) - 1))
    shorter = play[:i] + play[i + 1 :]
    if position.apply(shorter) in legal:
        # Fewer dice than the maximum reach a legal result only where a checker bears off
        # by a larger die on the way (3/off with the 4 of a 4-1 is where 3/2 2/off goes).
        assert any(s.dst == OFF for s in play), (play, shorter)
    _check_verdict(position, dice, shorter, legal)


@QUICK
@given(reachable(), DICE, st.data())
def test_landing_on_a_blocked_point_is_illegal(position: Position, dice: Dice, data: st.DataObject) -> None:
    legal = legal_plays(position, dice)
    play = data.draw(st.sampled_from(list(legal.values())))
    if not play:
        return
    i = data.draw(st.integers(0, len(play) - 1))
    src = play[i].src
    blocked = [p for p in range(1, min(src, 25)) if position.opponent[25 - p] >= 2]
    if not blocked:
        return
    bad = play[:i] + (Step(src, data.draw(st.sampled_from(blocked))),) + play[i + 1 :]
    assert not is_legal(position, dice, bad), bad
    assert resolve_play(position, dice, _segments(bad)).error is not None


STEP = st.integers(1, BAR).flatmap(
    lambda src: st.tuples(st.just(src), st.integers(OFF, src - 1), st.booleans()).map(lambda t: Step(*t))
)


@QUICK
@given(reachable(), DICE, st.lists(STEP, max_size=4))
def test_random_step_tuples(position: Position, dice: Dice, steps: list[Step]) -> None:
    _check_verdict(position, dice, tuple(steps), legal_plays(position, dice))


@QUICK
@given(reachable(), DICE, st.data())
def test_random_single_die_steps(position: Position, dice: Dice, data: st.DataObject) -> None:
    """Steps of one die each from points the mover holds: mostly near-legal plays."""
    a, b = dice
    pool = [a] * 4 if a == b else [a, b]
    held = [p for p in range(1, BAR + 1) if position.mover[p]]
    order = data.draw(st.permutations(pool))
    steps = []
    for die in order[: data.draw(st.integers(1, len(pool)))]:
        src = data.draw(st.sampled_from(held) | st.integers(1, BAR))
        steps.append(Step(src, max(src - die, OFF), data.draw(st.booleans())))
    _check_verdict(position, dice, tuple(steps), legal_plays(position, dice))


@QUICK
@given(reachable(), DICE, st.data())
def test_near_miss_steps(position: Position, dice: Dice, data: st.DataObject) -> None:
    """A legal play with one step's landing point nudged."""
    legal = legal_plays(position, dice)
    play = data.draw(st.sampled_from(list(legal.values())))
    if not play:
        return
    i = data.draw(st.integers(0, len(play) - 1))
    step = play[i]
    dst = step.dst + data.draw(st.sampled_from([-2, -1, 1, 2]))
    if not OFF <= dst < step.src:
        return
    nudged = play[:i] + (Step(step.src, dst, data.draw(st.booleans())),) + play[i + 1 :]
    _check_verdict(position, dice, nudged, legal)


# --- the properties above with every example (pytest -m slow) --------------------------------


def _full(test: Any, *strategies: Any) -> Any:
    """``test``'s property again, drawn from ``strategies`` for :data:`PROPERTY`'s examples, marked slow."""
    return pytest.mark.slow(PROPERTY(given(*strategies)(test.hypothesis.inner_test)))


test_generated_plays_are_consistent_full = _full(test_generated_plays_are_consistent, reachable(), DICE)
test_shortened_plays_are_illegal_full = _full(test_shortened_plays_are_illegal, reachable(), DICE, st.data())
test_landing_on_a_blocked_point_is_illegal_full = _full(
    test_landing_on_a_blocked_point_is_illegal, reachable(), DICE, st.data()
)
test_random_step_tuples_full = _full(test_random_step_tuples, reachable(), DICE, st.lists(STEP, max_size=4))
test_random_single_die_steps_full = _full(test_random_single_die_steps, reachable(), DICE, st.data())
test_near_miss_steps_full = _full(test_near_miss_steps, reachable(), DICE, st.data())
