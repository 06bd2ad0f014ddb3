"""Freeze ``tests/data/perft.csv``: legal-play counts from gnubg's move generator.

Run by hand, never by pytest, with the separate gnubg venv (gnubg-nn is GPL: it
is a test oracle only and tabla_cli never imports it)::

    python3 -m venv .gnubg-venv
    .gnubg-venv/bin/pip install gnubg-nn
    .gnubg-venv/bin/python tests/data/make_perft.py            # writes perft.csv
    .gnubg-venv/bin/python tests/data/make_perft.py --check    # compares only

Each row is ``position_id,dice,plays,note``: ``plays`` is the number of distinct
resulting positions (rules.md §2.4: maximal-use rules applied, plays that reach
the same position counted once) for the player on roll, who is the *second*
half of the Position ID (position-id.md §2.1) and ``board[1]`` of gnubg's
board, the side ``gnubg_nn.moves`` moves. ``plays`` is 0 when the roll is
forfeit. ``note`` names the category the row was chosen for.

Before writing anything the script checks that the oracle reproduces the
tables of rules.md §2.7 and §2.8, and that its private Position ID coder
agrees with gnubg's on every row. The output is deterministic (fixed seeds).
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import sys
from collections.abc import Iterable
from pathlib import Path

import gnubg_nn as gnubg

HERE = Path(__file__).resolve().parent
OUT = HERE / "perft.csv"
CORPUS = Path(__file__).resolve().parent / "corpus" / "txt"

Board = list[list[int]]  # [not on roll, on roll], 25 counters each: points 1..24, bar

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]  # 21 rolls, larger die first

# --- private Position ID coder (position-id.md §2) -------------------------------

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def encode_id(board: Board) -> str:
    bits: list[int] = []
    for side in board:
        for n in side:
            bits += [1] * n + [0]
    bits += [0] * (80 - len(bits))
    data = bytes(sum(bits[8 * k + j] << j for j in range(8)) for k in range(10))
    value = int.from_bytes(data + b"\0\0", "big")  # 96 bits = 16 sextets
    chars = [_B64[(value >> (90 - 6 * i)) & 63] for i in range(16)]
    return "".join(chars[:14])


def decode_id(pid: str) -> Board:
    assert len(pid) == 14, pid
    value = 0
    for c in pid:
        value = value << 6 | _B64.index(c)
    data = (value >> 4).to_bytes(10, "big")
    board: Board = [[0] * 25, [0] * 25]
    side = slot = 0
    for k in range(80):
        if side == 2:
            break
        if data[k // 8] >> (k % 8) & 1:
            board[side][slot] += 1
        else:
            slot += 1
            if slot == 25:
                side, slot = side + 1, 0
    return board


def valid(board: Board) -> bool:
    """position-id.md §2.4, and no finished game (both sides keep a checker)."""
    other, me = board
    if not (0 < sum(other) <= 15 and 0 < sum(me) <= 15):
        return False
    if any(other[i] and me[23 - i] for i in range(24)):
        return False
    if other[24] and me[24] and all(other[i] >= 2 for i in range(6)) and all(me[i] >= 2 for i in range(6)):
        return False
    return True


# --- the oracle ---------------------------------------------------------------------


def oracle(board: Board, dice: tuple[int, int]) -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
    """gnubg's legal plays: (result key, steps) pairs, steps as (src, dst) with 25 = bar, 0 = off."""
    found: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]
    found = gnubg.moves([list(board[0]), list(board[1])], dice[0], dice[1], 1)
    return found


def count(board: Board, dice: tuple[int, int]) -> int:
    a, b = dice
    n = len(oracle(board, (a, b)))
    assert n == len(oracle(board, (b, a))), (encode_id(board), dice)
    return n


def plays_text(board: Board, dice: tuple[int, int]) -> list[str]:
    out = []
    for _key, steps in oracle(board, dice):
        out.append(" ".join(f"{'bar' if s == 25 else s}/{'off' if d == 0 else d}" for s, d in steps))
    return sorted(out)


def die_playable(board: Board, die: int) -> bool:
    """True if a single step of ``die`` is legal (a double asks gnubg for exactly that)."""
    return bool(oracle(board, (die, die)))


def max_steps(board: Board, dice: tuple[int, int]) -> int:
    found = oracle(board, dice)
    return len(found[0][1]) if found else 0


# --- self-check against rules.md ----------------------------------------------------------

START = "4HPwATDgc/ABMA"
START_COUNTS = [42, 15, 75, 16, 17, 73, 14, 18, 17, 52, 8, 8, 9, 9, 4, 10, 14, 14, 14, 7, 11]
START_ROLLS = [
    "11",
    "21",
    "22",
    "31",
    "32",
    "33",
    "41",
    "42",
    "43",
    "44",
    "51",
    "52",
    "53",
    "54",
    "55",
    "61",
    "62",
    "63",
    "64",
    "65",
    "66",
]

RULES_2_8 = [
    ("4OvCATDgc+QBUA", "64", 5),
    ("4OvCATDgc+QBUA", "55", 16),
    ("0HPwATDgc/ABMA", "44", 52),
    ("4O3CgAXgZ8wMIA", "41", 28),
    ("sGfwATDgc/ABMA", "66", 11),
    ("4DP4AFjgOfgAaA", "31", 1),
    ("2xIAAAoBAAAAAA", "61", 3),
    ("4Nu2AQDgc/ABMA", "66", 8),
    ("27Y5AADgc/ADQA", "65", 0),
]

# rules.md §2.7: the exact plays, in gnubg's step notation (sorted).
RULES_2_7 = [
    ("4HN8ABj/PwAEAA", "65", ["13/7"]),
    ("4HMcMAb/H0AEAA", "65", ["13/8 8/2"]),
    ("27Y5AADgc/ADQA", "65", []),
    ("2zY+AADgc/ABYA", "61", ["bar/19"]),
    ("4PngAwR3AwAAAQ", "62", ["bar/23"]),
    (
        "4Nu2AQDgc/ABMA",
        "66",
        [  # 8 plays, all four 6s from 13 and 8
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
    ("4PPBBwBCAAAAAA", "54", ["6/1 2/off", "6/2 2/off"]),
    ("4PPBBwASAAAAAA", "65", ["4/off 2/off"]),
    ("4PPBBwChAQAAAA", "66", ["6/off 6/off 5/off 1/off"]),
]


def dice_of(text: str) -> tuple[int, int]:
    return int(text[0]), int(text[1])


def self_check() -> None:
    for roll, want in zip(START_ROLLS, START_COUNTS):
        got = count(decode_id(START), dice_of(roll))
        assert got == want, f"start {roll}: gnubg {got}, rules.md {want}"
    for pid, roll, want in RULES_2_8:
        got = count(decode_id(pid), dice_of(roll))
        assert got == want, f"{pid} {roll}: gnubg {got}, rules.md {want}"
    for pid, roll, want_plays in RULES_2_7:
        board = decode_id(pid)
        got_plays = plays_text(board, dice_of(roll))
        assert got_plays == sorted(want_plays), f"{pid} {roll}: {got_plays}"
    # the private coder agrees with gnubg's on the spec's vectors
    for pid in [
        START,
        "sGfwATDgc/ABMA",
        "4OvCATDgc+QBUA",
        "4DP4AFjgOfgAaA",
        "2xIAAAoBAAAAAA",
        "ADAAAQAkIAAAAA",
        "4O3CgAXgZ8wMIA",
        "AAAAAAAAAAAAAA",
    ]:
        assert decode_id(pid) == [list(s) for s in gnubg.board_from_position_id(pid)], pid
        assert encode_id(decode_id(pid)) == pid, pid


# --- building boards ---------------------------------------------------------------------------


class Builder:
    """Places checkers for the two sides, each in its own numbering (1..24, 25 = bar)."""

    def __init__(self) -> None:
        self.me = [0] * 25  # on roll
        self.opp = [0] * 25  # not on roll

    def put_me(self, point: int, n: int = 1) -> None:
        self.me[point - 1] += n

    def put_opp(self, point: int, n: int = 1) -> None:
        self.opp[point - 1] += n

    def me_free(self, point: int) -> bool:
        """Can the mover stand on his ``point`` (the opponent does not occupy it)?"""
        return point == 25 or not self.opp[25 - point - 1]

    def opp_free(self, point: int) -> bool:
        return point == 25 or not self.me[25 - point - 1]

    def scatter_me(self, rng: random.Random, n: int, points: Iterable[int]) -> None:
        choices = [p for p in points if self.me_free(p)]
        for _ in range(n):
            if not choices:
                return
            self.put_me(rng.choice(choices))

    def scatter_opp(self, rng: random.Random, n: int, points: Iterable[int]) -> None:
        choices = [p for p in points if self.opp_free(p)]
        for _ in range(n):
            if not choices:
                return
            self.put_opp(rng.choice(choices))

    def board(self) -> Board:
        return [list(self.opp), list(self.me)]


def upto(rng: random.Random, lo: int, hi: int) -> int:
    """A random count from ``lo`` to ``hi``, or ``hi`` when that is less than ``lo``."""
    return rng.randint(lo, hi) if hi > lo else max(hi, 0)


def some_rolls(rng: random.Random, k: int) -> list[tuple[int, int]]:
    return rng.sample(ROLLS, k)


# --- the categories ----------------------------------------------------------------------------

Row = tuple[str, str, int, str]


class Table:
    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.seen: set[tuple[str, str]] = set()

    def add(self, board: Board, dice: tuple[int, int], note: str) -> bool:
        assert valid(board), board
        pid = encode_id(board)
        assert [list(s) for s in gnubg.board_from_position_id(pid)] == board, pid
        assert decode_id(pid) == board
        a, b = max(dice), min(dice)
        key = (pid, f"{a}{b}")
        if key in self.seen:
            return False
        self.seen.add(key)
        self.rows.append((pid, f"{a}{b}", count(board, (a, b)), note))
        return True


def add_rules(t: Table) -> None:
    for roll in START_ROLLS:
        t.add(decode_id(START), dice_of(roll), "start")
    for pid, roll, _ in RULES_2_8:
        t.add(decode_id(pid), dice_of(roll), "rules-2.8")
    for pid, roll, _ in RULES_2_7:
        t.add(decode_id(pid), dice_of(roll), "rules-2.7")


def closed_home(b: Builder, rng: random.Random, closed: int) -> list[int]:
    """The opponent makes ``closed`` points of his home board (his 1..6); returns them."""
    made = sorted(rng.sample(range(1, 7), closed))
    for p in made:
        extra = rng.random() < 0.25 and sum(b.opp) + 2 * (closed - made.index(p)) < 15
        b.put_opp(p, 3 if extra else 2)
    return made


def add_bar(t: Table, rng: random.Random) -> None:
    # 1, 2, 3 and 4 checkers on the bar against 0..6 closed points, with and
    # without opponent blots in his home board (entering hits).
    for on_bar in (1, 2, 3, 4):
        for closed in range(7):
            for variant in range(2):
                b = Builder()
                made = closed_home(b, rng, closed)
                if variant and closed < 6:
                    blots = [p for p in range(1, 7) if p not in made]
                    for p in rng.sample(blots, min(len(blots), rng.randint(1, 2))):
                        b.put_opp(p)
                left = 15 - sum(b.opp)
                b.scatter_opp(rng, left - rng.randint(0, 3), range(7, 25))
                b.put_me(25, on_bar)
                b.scatter_me(rng, 15 - on_bar - rng.randint(0, 2), range(1, 25))
                rolls = some_rolls(rng, 2)
                if on_bar >= 2 and variant == 0:
                    rolls.append(rng.choice([(d, d) for d in range(1, 7)]))
                for dice in rolls:
                    t.add(
                        b.board(),
                        dice,
                        f"bar-{min(on_bar, 3)}{'plus' if on_bar >= 3 else ''} closed={closed}"
                        + (" blots" if variant else ""),
                    )
    # both sides on the bar
    for _ in range(6):
        b = Builder()
        closed_home(b, rng, rng.randint(2, 5))
        b.put_opp(25, rng.randint(1, 2))
        b.scatter_opp(rng, 15 - sum(b.opp), range(7, 25))
        b.put_me(25, rng.randint(1, 3))
        b.scatter_me(rng, 15 - sum(b.me), range(1, 19))
        if valid(b.board()):
            for dice in some_rolls(rng, 2):
                t.add(b.board(), dice, "bar-both-sides")


def add_bearoff(t: Table, rng: random.Random) -> None:
    def race_opp(b: Builder) -> None:
        # the opponent has everything past the mover (no contact)
        b.scatter_opp(rng, rng.randint(5, 15), range(1, 13))

    # overshoot: only low points left, big dice
    for _ in range(10):
        b = Builder()
        race_opp(b)
        top = rng.randint(1, 4)
        b.put_me(top)
        b.scatter_me(rng, rng.randint(0, 6), range(1, top + 1))
        dice = (rng.randint(top + 1, 6) if top < 6 else 6, rng.randint(1, 6))
        t.add(b.board(), dice, "bearoff-overshoot")
    # exact: dice equal to occupied points
    for _ in range(10):
        b = Builder()
        race_opp(b)
        b.scatter_me(rng, rng.randint(2, 15), range(1, 7))
        occupied = [p for p in range(1, 7) if b.me[p - 1]]
        dice = (rng.choice(occupied), rng.choice(occupied))
        t.add(b.board(), dice, "bearoff-exact")
    # a higher point occupied: the die's point is empty and checkers stand above it
    for _ in range(12):
        b = Builder()
        race_opp(b)
        high = rng.randint(4, 6)
        b.put_me(high, rng.randint(1, 3))
        b.scatter_me(rng, rng.randint(0, 8), range(1, high))
        empty = [d for d in range(1, high) if not b.me[d - 1]] or [high - 1]
        dice = (rng.choice(empty), rng.choice(empty + [rng.randint(1, 6)]))
        t.add(b.board(), dice, "bearoff-higher-occupied")
    # contact: opponent blots and points in the mover's home board, opponent on the bar
    for _ in range(14):
        b = Builder()
        b.scatter_me(rng, rng.randint(3, 14), range(1, 7))
        free = [p for p in range(19, 25) if b.opp_free(p)]
        for p in rng.sample(free, min(len(free), rng.randint(1, 2))):
            b.put_opp(p, rng.choice([1, 1, 2]))
        if rng.random() < 0.4:
            b.put_opp(25)
        b.scatter_opp(rng, upto(rng, 4, 15 - sum(b.opp)), range(1, 19))
        for dice in some_rolls(rng, 2):
            t.add(b.board(), dice, "bearoff-contact")
    # mover on the bar while bearing off (rules.md §2.3)
    for _ in range(6):
        b = Builder()
        closed_home(b, rng, rng.randint(1, 5))
        b.scatter_opp(rng, upto(rng, 2, 15 - sum(b.opp)), range(7, 25))
        b.put_me(25)
        b.scatter_me(rng, rng.randint(3, 12), range(1, 7))
        for dice in some_rolls(rng, 2):
            t.add(b.board(), dice, "bearoff-bar")
    # one checker just outside: must come home before the other die bears off
    for _ in range(6):
        b = Builder()
        race_opp(b)
        b.put_me(rng.randint(7, 12))
        b.scatter_me(rng, rng.randint(2, 10), range(1, 7))
        for dice in some_rolls(rng, 2):
            t.add(b.board(), dice, "bearoff-almost-home")
    # doubles in the bear-off
    for _ in range(6):
        b = Builder()
        race_opp(b)
        b.scatter_me(rng, rng.randint(1, 12), range(1, 7))
        d = rng.randint(1, 6)
        t.add(b.board(), (d, d), "bearoff-doubles")


def add_primes(t: Table, rng: random.Random) -> None:
    for length in (6, 6, 6, 5, 5, 5, 4, 4):
        b = Builder()
        # the opponent's prime on his points lo..lo+length-1, mover's back checkers behind it
        lo = rng.randint(2, 12 - length + 1) if length < 6 else rng.randint(2, 7)
        for p in range(lo, lo + length):
            b.put_opp(p, 2)
        # mover checkers behind the prime: mover points above 25 - lo
        behind = list(range(25 - lo + 1, 25))
        b.scatter_me(rng, rng.randint(1, 3), behind)
        b.scatter_opp(rng, 15 - sum(b.opp), [p for p in range(1, 25) if not lo <= p < lo + length])
        b.scatter_me(rng, 15 - sum(b.me) - rng.randint(0, 2), range(1, 25 - lo - length + 1))
        for dice in some_rolls(rng, 3):
            t.add(b.board(), dice, f"prime-{length}")


def random_blocked(rng: random.Random) -> Board:
    """A board where the opponent holds many points: few legal steps."""
    b = Builder()
    for p in rng.sample(range(1, 25), rng.randint(4, 7)):
        if b.opp_free(p) and sum(b.opp) <= 13:
            b.put_opp(p, 2)
    if rng.random() < 0.3:
        b.put_me(25, rng.randint(1, 2))
    b.scatter_me(rng, upto(rng, 2, 15 - sum(b.me)), range(1, 25))
    b.scatter_opp(rng, upto(rng, 0, 15 - sum(b.opp)), range(1, 25))
    return b.board()


def add_searched(t: Table, rng: random.Random) -> None:
    """Rows found by asking the oracle: partial doubles, one die only, forfeits."""
    want = {
        "doubles-partial": 24,
        "one-die-larger": 14,
        "one-die-larger-only": 8,
        "one-die-smaller-only": 10,
        "forfeit": 14,
    }
    got = dict.fromkeys(want, 0)
    partial_depths: dict[int, int] = {1: 0, 2: 0, 3: 0}
    tries = 0
    while any(got[k] < want[k] for k in want):
        tries += 1
        assert tries < 200_000, got
        board = random_blocked(rng)
        if not valid(board):
            continue
        dice = rng.choice(ROLLS)
        d1, d2 = dice
        m = max_steps(board, dice)
        note = None
        if m == 0:
            note = "forfeit"
            detail = "bar" if board[1][24] else "blocked"
            note_text = f"forfeit {detail}"
        elif d1 == d2 and m < 4:
            if partial_depths[m] >= want["doubles-partial"] // 3:
                continue
            note = "doubles-partial"
            note_text = f"doubles-partial {m} of 4"
        elif d1 != d2 and m == 1:
            big, small = die_playable(board, d1), die_playable(board, d2)
            if big and small:
                note = "one-die-larger"
            elif big:
                note = "one-die-larger-only"
            else:
                note = "one-die-smaller-only"
            note_text = note
        if note is None or got[note] >= want[note]:
            continue
        if t.add(board, dice, note_text):
            got[note] += 1
            if note == "doubles-partial":
                partial_depths[m] += 1
    # bear-off cases of the larger-die rule: one checker left on a low point, the 6 must be used
    for _ in range(4):
        b = Builder()
        b.scatter_opp(rng, rng.randint(3, 12), range(1, 19))
        b.put_me(rng.randint(1, 3))
        t.add(b.board(), (6, rng.randint(4, 5)), "one-die-bearoff-last-checker")


def corpus_positions() -> list[tuple[str, tuple[int, int], str]]:
    """(position id, roll, file name) for every checker play in the corpus exports."""
    out = []
    for path in sorted(CORPUS.glob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in re.finditer(r"Move number \d+:\s+.*? to play (\d)(\d)\s+GNU Backgammon\s+Position ID: (\S{14})", text):
            out.append((m.group(3), (int(m.group(1)), int(m.group(2))), path.name))
    return out


def add_corpus(t: Table, rng: random.Random, n: int = 80) -> None:
    rows = corpus_positions()
    assert len(rows) > 500, len(rows)
    # a varied sample: bucket by phase (mover's pips) and doubles, then draw evenly
    buckets: dict[tuple[int, bool, bool], list[tuple[str, tuple[int, int], str]]] = {}
    for pid, dice, name in rows:
        board = decode_id(pid)
        me = board[1]
        pips = sum((i + 1) * c for i, c in enumerate(me))
        key = (min(pips // 40, 4), dice[0] == dice[1], bool(me[24]))
        buckets.setdefault(key, []).append((pid, dice, name))
    keys = sorted(buckets)
    added = tries = 0
    while added < n:
        key = keys[tries % len(keys)]
        tries += 1
        pid, dice, name = rng.choice(buckets[key])
        if t.add(decode_id(pid), dice, f"corpus {name[:40]}"):
            added += 1


def add_selfplay(t: Table, rng: random.Random, games: int = 40) -> None:
    """Random legal self-play with the oracle; a snapshot or two per game."""
    for _ in range(games):
        board: Board = decode_id(START)
        turns = rng.randint(4, 70)
        snaps = set(rng.sample(range(1, turns + 1), min(2, turns)))
        for turn in range(1, turns + 1):
            dice = rng.choice(ROLLS) if rng.random() < 0.5 else (rng.randint(1, 6), rng.randint(1, 6))
            if turn in snaps:
                t.add(board, dice, "random-selfplay")
            found = oracle(board, dice)
            if found:
                key, _steps = rng.choice(found)
                after = gnubg.board_from_position_key(key)
                nxt = [list(after[1]), list(after[0])]
            else:
                nxt = [board[1], board[0]]
            if not valid(nxt):
                break
            board = nxt


def add_random_boards(t: Table, rng: random.Random, n: int = 30) -> None:
    added = 0
    while added < n:
        b = Builder()
        b.scatter_opp(rng, rng.randint(1, 15), range(1, 26))
        b.scatter_me(rng, rng.randint(1, 15), range(1, 26))
        board = b.board()
        if not valid(board):
            continue
        if t.add(board, rng.choice(ROLLS), "random-board"):
            added += 1


def build() -> list[Row]:
    self_check()
    t = Table()
    add_rules(t)
    add_bar(t, random.Random(1))
    add_bearoff(t, random.Random(2))
    add_primes(t, random.Random(3))
    add_searched(t, random.Random(4))
    add_corpus(t, random.Random(5))
    add_selfplay(t, random.Random(6))
    add_random_boards(t, random.Random(7))
    return t.rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the frozen file, write nothing")
    args = parser.parse_args(argv)
    rows = build()
    if args.check:
        with OUT.open(newline="") as f:
            frozen = [(r["position_id"], r["dice"], int(r["plays"]), r["note"]) for r in csv.DictReader(f)]
        if frozen != rows:
            print("perft.csv differs from a fresh run", file=sys.stderr)
            return 1
        print(f"{len(rows)} rows agree")
        return 0
    with OUT.open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["position_id", "dice", "plays", "note"])
        w.writerows(rows)
    cats: dict[str, int] = {}
    for *_, note in rows:
        cat = note.split()[0]
        cats[cat] = cats.get(cat, 0) + 1
    print(f"wrote {len(rows)} rows to {OUT}")
    for cat, n in cats.items():
        print(f"  {cat:32} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
