"""The tabla variants: names, start perft tables, fast generator vs reference, position text, rules.

The fast generator (tabla_cli.variants: search, common, written, plakoto, parallel) is checked
against the plain reference generator (tests/variant_reference.py) on
positions reached by random legal self-play from the start: a few hundred
per variant in every run, 10,000 per variant under the ``slow`` marker.
"""

from __future__ import annotations

import json
import random

import pytest

from tabla_cli.board import OFF, Position
from tabla_cli.check import check_file
from tabla_cli.errors import InvalidIdError, UnknownVariantError
from tabla_cli.findings import Severity
from tabla_cli.formats.mat import parse_matches
from tabla_cli.replay import replay_match
from tabla_cli.variant import Backgammon, Portes, find_variant
from tabla_cli.variants import (
    Fevga,
    Gulbara,
    GulbaraPosition,
    LongNardy,
    LongTabla,
    ParallelPosition,
    Plakoto,
    PlakotoPosition,
    TablaVariant,
    Tapa,
)
from tabla_cli.variants.position_text import board_lines
from tabla_cli.variants.search import SearchLimitError

import helpers
from helpers import DATA, EXAMPLES, run
from selfplay import random_play
from variant_reference import reference_plays

VARIANTS: list[type[TablaVariant]] = [Tapa, Plakoto, Fevga, Gulbara, LongNardy, LongTabla]
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


# --- names and options ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("tapa", "tapa"),
        ("Тапа", "tapa"),
        ("TAPA", "tapa"),
        ("plakoto", "plakoto"),
        ("πλακωτό", "plakoto"),
        ("Πλακωτό", "plakoto"),
        ("gulbara", "gulbara"),
        ("Гюлбара", "gulbara"),
        ("gul bara", "gulbara"),
        ("fevga", "fevga"),
        ("φεύγα", "fevga"),
        ("Φεύγα", "fevga"),
        ("long nardy", "long_nardy"),
        ("Длинные нарды", "long_nardy"),
        ("narde", "long_nardy"),
        ("long tabla", "long_tabla"),
        ("дълга табла", "long_tabla"),
        ("portes", "portes"),
        ("πόρτες", "portes"),
        ("табла", "backgammon"),
        ("права табла", "backgammon"),
        ("nackgammon", "nackgammon"),
    ],
)
def test_names_and_aliases(alias: str, name: str) -> None:
    assert find_variant(alias).name == name


def test_unknown_variant_lists_the_names() -> None:
    with pytest.raises(UnknownVariantError, match="tapa, plakoto, gulbara, fevga, long_nardy"):
        find_variant("tavla")


def test_regional_defaults() -> None:
    # Bulgarian names follow Bulgarian practice, Greek names Greek practice (rules.md §9).
    assert Plakoto.options.mother_checker and not Tapa.options.mother_checker
    assert Plakoto.allows_opening_double(1) and not Tapa.allows_opening_double(1) and Tapa.allows_opening_double(2)
    assert Fevga.options.start_exit == "first_checker_must_pass"
    assert Fevga.options.start_quarter_block == "own"
    assert Fevga.options.prime_rule == "must_open_trapping_prime"
    assert Gulbara.options.doubles == "progression" and Gulbara.options.progression_after == 3
    assert Gulbara.options.unplayable_progression == "opponent_plays"
    assert Gulbara.options.start_exit == "free" and Gulbara.options.prime_rule == "none"
    assert LongNardy.options.start_exit == "one_per_turn" and LongNardy.options.prime_rule == "no_prime_in_front_of_all"
    assert LongNardy.options.first_roll_head_doubles == frozenset({3, 4, 6}) and not LongNardy.options.triple_win
    assert LongNardy.allows_opening_double(1) and not LongTabla.allows_opening_double(1)
    assert not Portes.backgammons and Backgammon.backgammons and Portes.allows_opening_double(1)
    assert all(not v.has_gnubg_ids for v in VARIANTS)


def test_with_options_makes_a_new_variant() -> None:
    strict = Gulbara.with_options(start_exit="first_checker_must_pass")
    assert strict.options.start_exit == "first_checker_must_pass" and Gulbara.options.start_exit == "free"
    assert strict.name == "gulbara"
    with pytest.raises(ValueError, match="unknown option"):
        Gulbara.with_options(no_such_rule=True)


# --- perft tables for the start positions -----------------------------------------------
#
# Worked out by hand (then confirmed by both generators). Both sides start with
# 15 checkers on their own 24-point.
#
# Tapa / Plakoto (opposite directions; the opponent's stack is on our 1-point,
# nothing else is in the way). A non-double a-b is two checkers 24/(24-a)
# 24/(24-b) or one checker 24/(24-a-b): 2 plays. A double d-d moves checkers
# by multiples of d whose counts add up to 4: the partitions of 4 (4, 3+1,
# 2+2, 2+1+1, 1+1+1+1) = 5 plays, except 6-6: one checker can go at most
# 24/6 (a fourth 6 would bear off, and not all checkers are home), so the
# part 4 is out: 4 plays.
#
# Fevga (parallel; the opponent's stack is on our 12-point; only one checker
# may leave the start until it has reached our 12..1): a non-double is that
# one checker moving a+b (never 12 pips): 1 play. 1-1, 2-2: 24/20, 24/16.
# 3-3: 24/21/18/15, the fourth 3 would land on 12 and no other checker may
# leave: 24/15 (1). 4-4: 24/16 (12 is next; 1). 6-6: 24/18 (1). 5-5:
# 24/19/14/9 passes 12, so the fourth 5 may be 9/4 or a second checker
# 24/19: 2 plays.
#
# Gulbara (parallel, no exit rule; first roll: plain doubles): non-double 2
# plays as in Tapa (a+b is never 12). Doubles: the partitions of 4 whose
# checkers never land on 12: 1-1, 2-2, 5-5: 5; 3-3 (4 threes land on 12):
# 4; 4-4 (3 fours land on 12, 4 fours would have to pass it): parts <= 2:
# 2+2, 2+1+1, 1+1+1+1 = 3; 6-6 (2 sixes land on 12): 1+1+1+1 = 1.
#
# Long Nardy (one checker off the head per turn; on a first roll 3-3, 4-4,
# 6-6 two): non-double: 1 play (24/(24-a-b)). 1-1: 24/20, 2-2: 24/16, 5-5:
# 24/4 (19, 14, 9, 4 are free): 1 each. 3-3: one checker reaches 15 (12 is
# next), two checkers use all four: 3+1 or 2+2: 2 plays. 4-4: two checkers,
# at most 2 fours each: 24/16(2): 1. 6-6: two checkers, one six each:
# 24/18(2): 1.

TAPA = {r: (5 if r[0] == r[1] else 2) for r in ROLLS} | {(6, 6): 4}
FEVGA = {r: 1 for r in ROLLS} | {(5, 5): 2}
GULBARA = {r: 2 for r in ROLLS} | {(1, 1): 5, (2, 2): 5, (3, 3): 4, (4, 4): 3, (5, 5): 5, (6, 6): 1}
NARDY = {r: 1 for r in ROLLS} | {(3, 3): 2}
PERFT = {Tapa: TAPA, Plakoto: TAPA, Fevga: FEVGA, Gulbara: GULBARA, LongNardy: NARDY, LongTabla: NARDY}


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_start_position_perft(variant: type[TablaVariant]) -> None:
    start = variant.start_position()
    got = {roll: len(variant.legal_plays(start, roll)) for roll in ROLLS}
    assert got == PERFT[variant]
    assert {roll: len(reference_plays(variant, start, roll)) for roll in ROLLS} == PERFT[variant]


def test_start_plays_by_name() -> None:
    def plays(variant: type[TablaVariant], roll: tuple[int, int]) -> list[str]:
        start = variant.start_position()
        return sorted(variant.format_play(start, p) for p in variant.legal_plays(start, roll).values())

    assert plays(Tapa, (6, 6)) == sorted(["24/6 24/18", "24/12(2)", "24/12 24/18(2)", "24/18(4)"])
    assert plays(Fevga, (5, 5)) == ["24/4", "24/9 24/19"]
    assert plays(LongNardy, (3, 3)) == ["24/15 24/21", "24/18(2)"]
    assert plays(LongNardy, (6, 6)) == ["24/18(2)"]
    assert plays(Gulbara, (4, 4)) == sorted(["24/16(2)", "24/16 24/20(2)", "24/20(4)"])


# --- fast generator == reference on random reachable positions -----------------------------


def self_play(variant: type[TablaVariant], count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` (position, roll) pairs from random legal self-play, starting over when a game ends."""
    rng = random.Random(seed)
    position = variant.start_position()
    out: list[tuple[Position, tuple[int, int]]] = []
    turns = 0
    while len(out) < count:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        out.append((position, roll))
        after, _ = random_play(variant, position, roll, rng)
        turns += 1
        if variant.is_over(after) or turns > 400:  # 400: a rare Tapa blockade that never ends
            position, turns = variant.start_position(), 0
        else:
            position = after.flip()
    return out


def long_turn(variant: type[TablaVariant], position: Position, roll: tuple[int, int]) -> bool:
    """A Gulbara turn of more than 8 moves (a 1-1 .. 4-4 progression, or many owed moves):
    it can have up to a million plays, too many for the reference in bulk (see below)."""
    return variant.plan(position, roll).size > 8


def compare(variant: type[TablaVariant], count: int, seed: int, written: int) -> tuple[int, int, int]:
    """Fast == reference on ``count`` self-play positions; for the first ``written``, up to 12 of
    the plays are also written, read back and resolved to the same result.

    Returns how many positions were compared on their own roll, on another (non-double)
    roll instead of a long progression, and not at all (more than 8 owed moves).
    """
    rng = random.Random(seed + 1)
    own = other = skipped = 0
    for n, (position, roll) in enumerate(self_play(variant, count, seed)):
        mine = not long_turn(variant, position, roll)
        if not mine:
            roll = (rng.randint(2, 6), 1)
            if long_turn(variant, position, roll) and variant.some_plays(position, roll, 500)[1] < 0:
                skipped += 1
                continue
        try:
            fast = variant.legal_plays(position, roll)
        except SearchLimitError:  # owed dice and a roll: more than SEARCH_LIMIT states
            skipped += 1
            continue
        own, other = (own + 1, other) if mine else (own, other + 1)
        assert set(fast) == reference_plays(variant, position, roll), (position.text(), roll)
        if n < written:
            items = list(fast.items())
            for after, play in rng.sample(items, min(len(items), 12)):
                text = variant.format_play(position, play)
                got = variant.resolve_play(position, roll, variant.parse_play(text))
                assert got.error is None and got.result == after, (position.text(), roll, text, got.error)
    return own, other, skipped


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_fast_generator_matches_reference(variant: type[TablaVariant]) -> None:
    own, other, skipped = compare(variant, 300, 1, 300)
    assert own + other + skipped == 300 and other <= 45 and skipped <= 3  # Gulbara: ~1 roll in 9 is long


@pytest.mark.slow
@pytest.mark.parametrize("variant", [Tapa, Plakoto, Fevga, Gulbara, LongNardy], ids=lambda v: v.name)
def test_fast_generator_matches_reference_10000(variant: type[TablaVariant]) -> None:
    own, other, skipped = compare(variant, 10_000, 2, 1_000)
    assert own + other + skipped == 10_000 and other < 1_500 and skipped < 100


def test_long_progressions_match_reference() -> None:
    """Gulbara doubles of 12-24 moves on late positions (fewer checkers, fewer plays)."""
    late = [
        p
        for p, _ in self_play(Gulbara, 4000, 3)
        if isinstance(p, GulbaraPosition) and p.mover_rolls >= 3 and p.mover[OFF] + sum(p.mover[1:7]) >= 12
    ][::25]
    compared = 0
    for position in late[:40]:
        for die in (1, 2, 3, 4):
            listed, total = Gulbara.some_plays(position, (die, die), 3000)
            if total < 0:
                continue
            assert set(Gulbara.legal_plays(position, (die, die))) == reference_plays(Gulbara, position, (die, die))
            compared += 1
    assert compared >= 60


# --- position text -------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_position_text_round_trips(variant: type[TablaVariant]) -> None:
    for position, _ in self_play(variant, 400, 4):
        text = position.text()  # type: ignore[attr-defined]
        again = variant.position_class.from_text(text)
        assert again == position and again.text() == text
        assert eval(repr(position)) == position  # noqa: S307 - repr is Class.from_text('...')
        flipped = variant.position_class.from_text(position.flip().text())  # type: ignore[attr-defined]
        assert flipped.flip() == position


def test_position_text_examples() -> None:
    pos = PlakotoPosition.from_text("24:13 18:1 6:1p / 24:13 19:2")
    assert isinstance(pos, PlakotoPosition) and pos.mover_pins == 1 << 6 and pos.opponent_pins == 0
    assert pos.mover[OFF] == 0 and pos.opponent[19] == 2
    pos = ParallelPosition.from_text("24:10, 6:2 off:3 / 24:15")
    assert pos.mover[OFF] == 3 and pos.mover[6] == 2
    gul = GulbaraPosition.from_text("24:15 / 24:15 / rolls=5,2 owed=6,6")
    assert isinstance(gul, GulbaraPosition)
    assert (gul.mover_rolls, gul.opponent_rolls, gul.mover_owed) == (3, 2, (6, 6))
    assert gul.text() == "24:15 / 24:15 / rolls=3,2 owed=6,6"
    assert Tapa.start_position().text() == "24:15 / 24:15"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("cls", "text", "why"),
    [
        (PlakotoPosition, "24:15", "MOVER / OPPONENT"),
        (PlakotoPosition, "24:14 off:0 / 24:15", "not 15"),
        (PlakotoPosition, "24:16 / 24:15", "not 15"),
        (PlakotoPosition, "25:1 24:14 / 24:15", "no bar"),
        (PlakotoPosition, "24:14 1:1 / 24:15", "mark the one pinned checker"),
        (PlakotoPosition, "24:14 1:1p / 23:15", "no checker there"),
        (PlakotoPosition, "24:13 1:2p / 24:15", "only a single checker"),
        (ParallelPosition, "24:14 12:1 / 24:15", "both sides"),
        (ParallelPosition, "24:14 11:1p / 24:15", "only Tapa/Plakoto"),
        (ParallelPosition, "24:15 / 24:15 / rolls=1,1", "only kept in Gulbara"),
        (GulbaraPosition, "24:15 / 24:15 / owed=7", "dice 1-6"),
        (GulbaraPosition, "24:15 / 24:15 / rolls=x", "rolls=M,O"),
        (PlakotoPosition, "24:15 24:1 / 24:15", "given twice"),
        (PlakotoPosition, "24:x / 24:15", "POINT:COUNT"),
    ],
)
def test_bad_position_text(cls: type, text: str, why: str) -> None:
    with pytest.raises(InvalidIdError, match=why):
        cls.from_text(text)


@pytest.mark.parametrize(
    ("cls", "text", "message"),
    [
        (
            PlakotoPosition,
            "24:14 1:1 / 24:15",
            "bad position text '24:14 1:1 / 24:15': the mover's 1-point holds checkers of both sides: "
            "mark the one pinned checker with 'p'",
        ),
        (
            PlakotoPosition,
            "24:15 / 24:15 / owed=1",
            "bad position text '24:15 / 24:15 / owed=1': rolls and owed dice are only kept in Gulbara positions",
        ),
        (
            GulbaraPosition,
            "24:15 / 24:15 / foo=1",
            "bad position text '24:15 / 24:15 / foo=1': 'foo=1': extras are rolls=M,O, owed=d,d and owed-other=d,d",
        ),
        (
            GulbaraPosition,
            "24:15 / 24:15 / owed=1 owed-other=0",
            "bad position text "
            "'24:15 / 24:15 / owed=1 owed-other=0': owed-other='0': give dice 1-6 separated by commas",
        ),
        (
            GulbaraPosition,
            "24:14 1:1p / 24:15",
            "bad position text '24:14 1:1p / 24:15': only Tapa/Plakoto checkers can be pinned",
        ),
        (
            ParallelPosition,
            "24:14 12:1 / 24:15",
            "bad position text '24:14 12:1 / 24:15': both sides have "
            "checkers on the mover's 12-point (it is the other side's 24-point)",
        ),
    ],
)
def test_bad_position_text_messages(cls: type, text: str, message: str) -> None:
    with pytest.raises(InvalidIdError) as caught:
        cls.from_text(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "again"),
    [
        ("24:15 / 24:15 /", "24:15 / 24:15 / rolls=0,0"),
        ("24:15 / 24:15 / owed-other=2,2 rolls=7,1", "24:15 / 24:15 / rolls=3,1 owed-other=2,2"),
        ("off:2 6:13 / 24:15 / owed=5", "6:13 off:2 / 24:15 / rolls=0,0 owed=5"),
    ],
)
def test_gulbara_text_keeps_rolls_and_owed_dice(text: str, again: str) -> None:
    position = GulbaraPosition.from_text(text)
    assert isinstance(position, GulbaraPosition) and position.text() == again
    assert GulbaraPosition.from_text(again) == position


def test_board_drawing_marks_pinned_checkers() -> None:
    position = PlakotoPosition.from_text("24:13 18:1 6:1p / 24:12 19:2 7:1p")
    lines = board_lines(position)
    assert lines[1:3] == [
        " |                o |   |                X |",
        " |                X |   |                X |",
    ]
    assert lines[-4:-1] == [
        " |                  |   | O              O |",
        " |                  |   | O              O |",
        " |                  |   | x              O |",
    ]
    assert board_lines(ParallelPosition.from_text("24:14 13:1 / 24:15"))[-2] == (
        " | O                |   |                  |"
    )


def test_variant_positions_have_no_gnubg_id() -> None:
    with pytest.raises(InvalidIdError, match="exist only for standard"):
        Tapa.start_position().position_id()
    assert Tapa.start_position() != Position.start() and Fevga.start_position() != Tapa.start_position()


# --- rules -------------------------------------------------------------------------------


def plays(variant: type[TablaVariant], text: str, roll: tuple[int, int]) -> set[str]:
    position = variant.position_class.from_text(text)
    return {variant.format_play(position, p) for p in variant.legal_plays(position, roll).values()}


def resolve(variant: type[TablaVariant], text: str, roll: tuple[int, int], play: str) -> tuple[str | None, str]:
    position = variant.position_class.from_text(text)
    got = variant.resolve_play(position, roll, variant.parse_play(play))
    return got.error, getattr(got, "code", "illegal-play")


def test_pinning() -> None:
    # Our 18-point checker pins the opponent's lone checker on his 7 (our 18).
    text = "24:14 20:1 / 24:14 7:1"
    after = Tapa.legal_plays(PlakotoPosition.from_text(text), (2, 1))
    pinned = [p for p, play in after.items() if any(s.hit for s in play)]
    assert pinned and all(isinstance(p, PlakotoPosition) and p.opponent_pins == 1 << 7 for p in pinned)
    assert "24/23 20/18*" in plays(Tapa, text, (2, 1))
    # A pinned checker cannot move; we cannot land on a point where we are pinned.
    text = "24:13 18:1 6:1p / 24:13 19:2"
    assert resolve(Tapa, text, (2, 1), "6/4 6/5")[1] == "pinned-checker"
    # The opponent pins our 6 with two checkers on his 19: our 7/6 lands on a blocked point.
    assert resolve(Tapa, "24:13 7:1 6:1p / 24:13 19:2", (1, 2), "7/6 24/22")[1] == "pinned-checker"
    # Stacking on our own pin is fine; leaving it frees the pinned checker.
    pinned = PlakotoPosition.from_text("24:13 10:1 8:1 / 24:14 17:1p")
    assert pinned.opponent_pins == 1 << 17
    after = [a for a in Tapa.legal_plays(pinned, (2, 1)) if isinstance(a, PlakotoPosition)]
    assert any(a.mover[8] == 2 for a in after)  # 10/8 stacks on the pin
    assert all(a.opponent_pins == (1 << 17 if a.mover[8] else 0) for a in after)
    assert any(not a.mover[8] for a in after)  # 8/5 frees it


def test_no_bear_off_with_a_pinned_checker() -> None:
    # Everything is home but our 6 is pinned: nothing can be borne off, and a 6-5 has no other move.
    text = "6:1p 5:5 4:5 3:4 / 24:13 19:1 off:1"
    assert plays(Plakoto, text, (6, 5)) == {""}
    error, code = resolve(Plakoto, text, (6, 5), "5/off 5/off")
    assert code == "pinned-checker" and "pinned (on 6)" in str(error)
    assert "5/off(4)" in plays(Plakoto, "6:1 5:5 4:5 3:4 / 24:14 off:1", (5, 5))


def test_mother_checker() -> None:
    # We pin the opponent's last checker on his starting point (our 1-point), with
    # none of ours left on our own starting point: we win 2 at once (Plakoto).
    before = PlakotoPosition.from_text("20:1 6:14 / 24:1 13:14")
    over = [a for a, p in Plakoto.legal_plays(before, (5, 4)).items() if Plakoto.is_over(a)]
    assert over and all(Plakoto.outcome(a) == 2 for a in over)
    # Tapa has no such rule: the game goes on.
    assert not any(Tapa.is_over(a) for a in Tapa.legal_plays(before, (5, 4)))
    # With checkers still on our own starting point the game goes on in Plakoto too.
    still = PlakotoPosition.from_text("24:2 20:1 6:12 / 24:1 13:14")
    assert not any(Plakoto.is_over(a) for a in Plakoto.legal_plays(still, (5, 4)))
    # Both mother checkers pinned: a draw (0), in Tapa too (nobody can ever finish).
    both = PlakotoPosition.from_text("24:1p 20:1 6:13 / 24:1 1:1 13:13")
    for variant in (Plakoto, Tapa):
        drawn = [a for a, p in variant.legal_plays(both, (5, 4)).items() if variant.is_over(a)]
        assert drawn and all(variant.outcome(a) == 0 for a in drawn)


def test_parallel_blocking_and_first_checker() -> None:
    # The opponent's single checker on his 5 (our 17) closes it: no hitting.
    text = "24:14 19:1 / 24:14 5:1"
    error, code = resolve(Fevga, text, (2, 1), "19/17 24/23")
    assert code == "blocked-by-single" and "single opposing checker" in str(error)
    # Fevga: no second checker leaves the start before one reaches our 12..1.
    assert resolve(Fevga, "24:14 19:1 / 24:15", (2, 1), "24/22 19/18")[1] == "first-checker-must-pass"
    assert resolve(Fevga, "24:14 11:1 / 24:14 20:1", (2, 1), "24/22 11/10")[0] is None
    # Gulbara has no such rule.
    assert resolve(Gulbara, "24:14 19:1 / 24:15", (2, 1), "24/22 19/18")[0] is None


def test_fevga_start_quarter_and_trapping_prime() -> None:
    # Five of our 19..24 held: the sixth may not be taken.
    text = "24:10 23:1 22:1 21:1 20:1 11:1 / 24:14 1:1"
    assert resolve(Fevga, text, (5, 1), "24/19 11/10")[1] == "six-prime-forbidden"
    assert resolve(Fevga.with_options(start_quarter_block="allowed"), text, (5, 1), "24/19 11/10")[0] is None
    # We hold the opponent's 13..18 (our 1..6) and all his checkers are behind it (his 19+):
    # a play that opens the prime must be chosen.
    trap = "6:2 5:2 4:2 3:2 2:2 1:2 off:3 / 24:14 20:1"
    position = ParallelPosition.from_text(trap)
    legal = Fevga.legal_plays(position, (6, 5))
    assert legal and not any(isinstance(a, ParallelPosition) and a.mover[6] for a in legal)
    assert len(Fevga.with_options(prime_rule="none").legal_plays(position, (6, 5))) > len(legal)
    error, code = resolve(Fevga, trap, (6, 5), "6/off 5/off")
    assert code == "six-prime-forbidden" and "a play opens it" in str(error)


def test_nardy_head_rule_and_prime() -> None:
    assert resolve(LongNardy, "24:14 20:1 / 24:14 20:1", (5, 2), "24/19 24/22")[1] == "head-rule"
    assert plays(LongNardy, "24:15 / 24:14 16:1", (6, 6)) == {"24/18(2)"}  # the first-roll exception
    # Not a first roll: one checker off the head; 18/12 would land on the opponent's head.
    assert plays(LongNardy, "24:14 20:1 / 24:14 16:1", (6, 6)) == {"24/18 20/2"}
    # Our 22..18 are the opponent's 10..6, all his checkers are on his 24: taking our 23
    # (his 11) makes a six-point prime with nobody past it.
    text = "24:9 22:1 21:1 20:1 19:1 18:1 16:1 / 24:15"
    error, code = resolve(LongNardy, text, (6, 1), "24/23 16/10")
    assert code == "six-prime-forbidden" and "no opposing checker past it" in str(error)
    assert resolve(LongNardy, "24:9 22:1 21:1 20:1 19:1 18:1 16:1 / 24:14 2:1", (6, 1), "24/23 16/10")[0] is None
    # Checked after every step: vacating 19 first, then taking 23, never holds six.
    assert resolve(LongNardy, text, (3, 1), "24/23 19/16")[0] is None


def test_gulbara_progression_and_owed_dice() -> None:
    early = GulbaraPosition.from_text("24:13 20:1 19:1 / 24:13 21:1 18:1 / rolls=2,2")
    late = GulbaraPosition.from_text("24:13 20:1 19:1 / 24:13 21:1 18:1 / rolls=3,3")
    assert Gulbara.plan(early, (5, 5)).size == 4 and Gulbara.plan(late, (5, 5)).size == 8
    assert Gulbara.plan(late, (1, 1)).size == 24 and Gulbara.plan(late, (6, 6)).size == 4
    after = next(iter(Gulbara.legal_plays(early, (5, 5))))
    assert isinstance(after, GulbaraPosition) and after.mover_rolls == 3
    # From the fourth roll 5-5 is 5555 6666; nothing can move a 5 here (the opponent
    # holds our 19 and our 1; 18 too), so all eight moves go to the opponent.
    blocked = GulbaraPosition.from_text("24:14 6:1 / 24:12 13:1 7:1 6:1 / rolls=3,3")
    (rest,) = {a for a in Gulbara.legal_plays(blocked, (5, 5))}
    assert isinstance(rest, GulbaraPosition) and rest.opponent_owed == (5, 5, 5, 5, 6, 6, 6, 6)
    owed_to = rest.flip()
    assert isinstance(owed_to, GulbaraPosition) and owed_to.mover_owed == rest.opponent_owed
    plan = Gulbara.plan(owed_to, (2, 1))
    assert plan.split == len(rest.opponent_owed) and plan.orders[0][: plan.split] == rest.opponent_owed
    forfeit = Gulbara.with_options(unplayable_progression="forfeit")
    (lost,) = set(forfeit.legal_plays(blocked, (5, 5)))
    assert isinstance(lost, GulbaraPosition) and not lost.opponent_owed


def test_gulbara_huge_progression_is_listed_lazily() -> None:
    position = GulbaraPosition.from_text("24:10 23:1 21:1 18:1 11:1 5:1 / 24:2 22:1 20:7 15:2 5:1 3:1 1:1 / rolls=3,3")
    listed, total = Gulbara.some_plays(position, (1, 1), 10)
    assert len(listed) == 10 and total == -1  # over a million plays: not counted
    after, play = random_play(Gulbara, position, (1, 1), random.Random(0))
    assert len(play) == 24 and Gulbara.is_legal(position, (1, 1), play)


# --- transcripts -------------------------------------------------------------------------


def test_examples_check_clean() -> None:
    names = sorted(p.name for p in EXAMPLES.glob("*.mat"))
    assert {
        "tapa.mat",
        "plakoto.mat",
        "fevga.mat",
        "gulbara.mat",
        "long-nardy.mat",
        "portes.mat",
        "tabla-series.mat",
        "tapa-opening.mat",
        "fevga-opening.mat",
        "gulbara-opening.mat",
        "long-nardy-opening.mat",
    } <= set(names)
    for name in names:
        report = check_file(str(EXAMPLES / name))
        assert report.findings == [] and report.matches == 1, (name, [f.render() for f in report.findings])


MUTATIONS = {
    "tapa-pinned-checker.mat": (13, 34, "pinned-checker"),
    "tapa-lands-on-pin.mat": (15, 6, "pinned-checker"),
    "tapa-bear-off-pinned.mat": (149, 6, "pinned-checker"),
    "plakoto-mother-checker.mat": (39, 6, "result-mismatch"),
    "fevga-first-checker.mat": (12, 6, "first-checker-must-pass"),
    "fevga-blocked-by-single.mat": (13, 34, "blocked-by-single"),
    "fevga-start-quarter.mat": (73, 35, "six-prime-forbidden"),
    "long-nardy-head-rule.mat": (12, 6, "head-rule"),
    "long-nardy-prime.mat": (19, 6, "six-prime-forbidden"),
    "gulbara-progression.mat": (14, 6, "doubles-progression"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_mutated_examples_are_caught_at_their_line(name: str) -> None:
    report = check_file(str(DATA / "variants" / name))
    errors = [(f.location.line, f.location.column, f.code) for f in report.findings if f.severity is Severity.ERROR]
    assert errors == [MUTATIONS[name]]
    assert not [f for f in report.findings if f.severity is Severity.WARNING]


def test_every_mutation_file_is_listed() -> None:
    assert sorted(p.name for p in (DATA / "variants").glob("*.mat")) == sorted(MUTATIONS)


SERIES = """\
; [Variation "Backgammon"]

 5 point match

 Game 1
 Petar : 0                      Maria : 0
  1) 31: 8/5 6/5
      Wins 1 point
; [Variation "Гюлбара"]

 Game 2
 Petar : 1                      Maria : 0
  1) 66: 24/18(4)               11: 24/20
                                 Wins 1 point
; [Variation "Тапа"]
 Game 3
 Petar : 1                      Maria : 1
  1) 64: 24/14                   53: 24/16
  2) 52: 14/9* 24/22
      Wins 1 point
"""


def test_a_series_names_the_variant_of_each_game() -> None:
    (match,) = parse_matches(SERIES, path="s.mat")
    assert match.variant == "" and [g.variant for g in match.games] == [None, "гюлбара", "тапа"]
    assert [k for k, _ in match.headers] == ["Variation"]
    result = replay_match(match)
    assert [f.code for f in result.findings] == ["match-incomplete"]
    # Game 2 opens with a double: fine after game 1 (the previous winner rolls both dice).
    # Without its marker it is backgammon, where 24/18(4) is impossible.
    line = SERIES.splitlines().index("  1) 66: 24/18(4)               11: 24/20") + 1
    (match,) = parse_matches(SERIES.replace('; [Variation "Гюлбара"]\n', ""), path="s.mat")
    codes = [(f.location.line, f.code) for f in replay_match(match).findings]
    assert (line - 1, "opening-double") in codes and (line - 1, "illegal-play") in codes


# --- command line --------------------------------------------------------------------------


def test_cli_plays_for_a_variant() -> None:
    code, out, err = run("plays", "--variant", "тапа", "start", "64")
    assert (code, out, err) == (0, "24/20 24/18\n24/14\n", "")
    code, out, _ = run("plays", "--variant", "fevga", "24:14 19:1 / 24:15", "21", "--format", "json")
    rows = json.loads(out)
    assert code == 0 and [r["play"] for r in rows] == ["19/16"]
    assert rows[0]["position"] == "24:14 16:1 / 24:15" and rows[0]["dice_used"] == 2
    code, out, _ = run("plays", "--variant", "nackgammon", "start", "21")
    assert code == 0 and out.splitlines()


def test_cli_show_for_a_variant() -> None:
    code, out, err = run("show", "--variant", "plakoto", "24:13 18:1 6:1p / 24:13 19:2")
    assert code == 0 and err == ""
    assert "Variant: plakoto   Position: 24:13 18:1 6:1p / 24:13 19:2" in out
    assert " +13-14-15-16-17-18------19-20-21-22-23-24-+" in out and " x " in out
    assert "Pinned     X (on roll): 6  other: -" in out
    code, out, _ = run("show", "--variant", "gulbara", "start", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["variant"] == "gulbara" and data["rolls"] == [0, 0]
    assert data["on_roll"]["points"] == {"24": 15} and data["opponent"]["pips"] == 360


@pytest.mark.parametrize(
    "position", ["4HPwATDgc/ABMA", "4HPwATDgc/ABMA:cAkAAAAAAAAA", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:1:0:10"]
)
def test_cli_refuses_gnubg_and_xg_ids_for_variants(position: str) -> None:
    code, out, err = run("plays", "--variant", "gulbara", position, "64")
    assert code == 1 and out == "" and "exist only for standard backgammon" in err and "Traceback" not in err
    code, _, err = run("show", "--variant", "tapa", position)
    assert code == 1 and "exist only for standard backgammon" in err


def test_cli_variant_usage_errors() -> None:
    code, _, err = run("plays", "--variant", "tavla", "start", "64")
    assert code == 2 and "unknown variant" in err
    code, _, err = run("plays", "--variant", "tapa", "24:16 / 24:15", "64")
    assert code == 1 and "bad position text" in err


def test_variants_page_documents_the_variants() -> None:
    page = (helpers.ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    for variant in VARIANTS:
        assert f"`{variant.name}`" in page
    for word in ("mother_checker", "start_exit", "prime_rule", "unplayable_progression", "rolls=", "owed="):
        assert word in page


def test_steps_flag_pins_only_where_a_pin_stays() -> None:
    # 10/4 frees the pinned checker on our 10 and 16/10 pins it again: no '*' is written.
    position = PlakotoPosition.from_text("16:1 10:1 4:1 off:12 / 15:1p 24:14")
    legal = Tapa.legal_plays(position, (6, 6))
    texts = {Tapa.format_play(position, p) for p in legal.values()}
    assert texts and all("*" not in t for t in texts)
    # A new pin that stays is marked.
    fresh = PlakotoPosition.from_text("16:2 off:13 / 15:1 24:14")
    texts = {Tapa.format_play(fresh, p) for p in Tapa.legal_plays(fresh, (6, 1)).values()}
    assert "16/15 16/10*" in texts and "16/9" in texts
