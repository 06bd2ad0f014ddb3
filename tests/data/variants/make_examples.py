"""Write the self-play example matches of the variants (``examples/*.mat``).

Run by hand, never by pytest::

    .venv/bin/python tests/data/variants/make_examples.py [--out examples]

Each match is seeded self-play: a player picks a random legal play, with a
preference for plays that bear off, pin or move furthest (so the games look
less aimless). The output is deterministic. These files complement the short
hand-written games in ``examples/*-opening.mat``; both must check clean, and
``tests/data/variants/*.mat`` are mutated copies whose errors the tests expect
at exact lines.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from tabla_cli.board import OFF, Play, Position
from tabla_cli.variant import Variant, find_variant
from tabla_cli.variants import TablaVariant

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from selfplay import random_play  # noqa: E402  (tests/selfplay.py)

Move = tuple[int, tuple[int, int], str]  # player, dice, written play


def choose(
    variant: Variant, position: Position, dice: tuple[int, int], rng: random.Random, policy: str = "random"
) -> tuple[Position, Play]:
    """A play: ``random`` (with the preferences above), ``blocker`` (longest run of held points
    first) or ``lazy`` (keeps its checkers back: the least pips moved)."""
    plays, total = variant.some_plays(position, dice, 400)
    if total < 0:  # a huge Gulbara progression: any full play
        assert issubclass(variant, TablaVariant)
        return random_play(variant, position, dice, rng)
    legal = variant.legal_plays(position, dice)

    def score(item: tuple[Position, Play]) -> float:
        after, play = item
        if policy == "blocker":
            return _run(after) * 10 + after.mover[OFF] * 3 + rng.random()
        if policy == "lazy":
            return after.pips()[0] + after.mover[OFF] * 100 + rng.random()
        return after.mover[OFF] * 3 + sum(s.hit for s in play) * 2 + _run(after) + rng.random() * 4

    return max(legal.items(), key=score)


def _run(position: Position) -> int:
    """The longest run of points the side that moved holds on the other side's track (parallel games)."""
    from tabla_cli.variants.parallel import ParallelPosition, his_mask, occupied_mask

    if not isinstance(position, ParallelPosition):
        return 0
    mask = his_mask(occupied_mask(position.mover))
    best = run = 0
    for point in range(1, 25):
        run = run + 1 if (mask >> point) & 1 else 0
        best = max(best, run)
    return best


def play_game(
    variant: Variant,
    starter: int,
    first_game: bool,
    rng: random.Random,
    policies: tuple[str, str] = ("random", "random"),
) -> tuple[list[Move], int, int] | None:
    """A game: the moves, the winner and the points (None: stuck or drawn)."""
    position = variant.start_position()
    side = starter
    moves: list[Move] = []
    for turn in range(600):
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if turn or dice[0] != dice[1] or variant.allows_opening_double(1 if first_game else 2):
                break
        after, play = choose(variant, position, dice, rng, policies[side])
        moves.append((side, dice, variant.format_play(position, play)))
        if variant.is_over(after):
            points = variant.outcome(after)
            return (moves, side, points) if points else None
        position = after.flip()
        side = 1 - side
    return None


def write_match(
    names: list[str],
    games: list[str],
    players: tuple[str, str],
    length: int,
    headers: list[tuple[str, str]],
    seed: int,
    policies: tuple[str, str] = ("random", "random"),
) -> str:
    rng = random.Random(seed)
    lines = [f'; [{k} "{v}"]' for k, v in headers]
    lines += [
        f"; self-play example (tests/data/variants/make_examples.py, seed {seed})",
        "",
        f" {length} point match",
        "",
    ]
    score = [0, 0]
    starter = rng.randint(0, 1)
    number = 0
    previous = None
    while max(score) < length:
        name = games[number % len(games)]
        variant = find_variant(name)
        got = play_game(variant, starter, number == 0, rng, policies)
        if got is None:
            continue
        moves, winner, points = got
        number += 1
        if len(games) > 1 and (number > 1 or name != names[0]):
            lines.append(f'; [Variation "{name}"]')
        lines.append(f" Game {number}")
        lines.append(f" {players[0]} : {score[0]:<26}{players[1]} : {score[1]}")
        row = 1
        i = 0
        if moves[0][0] == 1:
            lines.append(f"{row:3d}) {'':<28} {_roll(moves[0])}")
            row += 1
            i = 1
        while i < len(moves):
            left = _roll(moves[i])
            right = _roll(moves[i + 1]) if i + 1 < len(moves) else ""
            lines.append(f"{row:3d}) {left:<28} {right}".rstrip())
            row += 1
            i += 2
        score[winner] += points
        tail = " and the match" if score[winner] >= length else ""
        word = "point" if points == 1 else "points"
        pad = " " * 5 if winner == 0 else " " * 34
        lines.append(f"{pad}Wins {points} {word}{tail}")
        lines.append("")
        starter = winner
        previous = name
    del previous
    return "\n".join(lines)


def _roll(move: Move) -> str:
    _, (a, b), text = move
    return f"{max(a, b)}{min(a, b)}: {text}".rstrip()


MATCHES = [
    # file, series of variants (one name: every game), players, length, seed, header variation
    ("tapa.mat", ["Tapa"], ("Ivan", "Georgi"), 3, 77, "Tapa"),
    ("plakoto.mat", ["Plakoto"], ("Nikos", "Eleni"), 3, 12, "Plakoto"),
    ("fevga.mat", ["Fevga"], ("Nikos", "Eleni"), 3, 13, "Fevga"),
    ("gulbara.mat", ["Gulbara"], ("Ivan", "Georgi"), 3, 14, "Гюлбара"),
    ("long-nardy.mat", ["Long Nardy"], ("Oleg", "Irina"), 3, 15, "Long Nardy"),
    ("portes.mat", ["Portes"], ("Nikos", "Eleni"), 3, 16, "Portes"),
    ("tabla-series.mat", ["Backgammon", "Gulbara", "Tapa"], ("Petar", "Maria"), 5, 17, None),
]

# A Long Nardy game where one side blocks and the other dawdles: it reaches
# positions where a six-point prime would be forbidden (used by make_mutations).
BLOCKADE = ("long-nardy-blockade.mat", ["Long Nardy"], ("Oleg", "Irina"), 1, 9, "Long Nardy")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[3] / "examples")
    args = parser.parse_args()
    for name, games, players, length, seed, header in MATCHES:
        headers = [("Site", "Kafene"), ("EventDate", "2025.05.01")]
        if header:
            headers.append(("Variation", header))
        text = write_match(games, games, players, length, headers, seed)
        (args.out / name).write_text(text, encoding="utf-8")
        print("wrote", args.out / name)
    name, games, players, length, seed, header = BLOCKADE
    headers = [("Site", "Kafene"), ("EventDate", "2025.05.01"), ("Variation", str(header))]
    text = write_match(games, games, players, length, headers, seed, ("blocker", "lazy"))
    (args.out / name).write_text(text, encoding="utf-8")
    print("wrote", args.out / name)


if __name__ == "__main__":
    main()
