"""Write the mutated copies of the variant examples (``tests/data/variants/*.mat``).

Run by hand, never by pytest::

    .venv/bin/python tests/data/variants/make_mutations.py

Each copy breaks one rule at one line; the game is cut after that line and
given to the other side by resignation, so that the broken play is the only
error (``tests/test_variants.py`` checks line and code). Most mutations are
written out below; the ones that need a position the hand-written games do
not reach (a forbidden six-point prime, a bear-off past a pinned checker)
are looked up in the self-play examples: the first play legal under relaxed
options but not under the real ones.
"""

from __future__ import annotations

from pathlib import Path

from tabla_cli.formats.mat import read_match
from tabla_cli.model import ActionKind
from tabla_cli.variant import Variant, find_variant
from tabla_cli.writers.rolls import replay_rolls

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
OUT = Path(__file__).resolve().parent

# (output, example, old text, new text): a plain replacement on one line.
BY_HAND = [
    ("tapa-pinned-checker.mat", "tapa-opening.mat", "21: 12/10 12/11", "21: 16/14 12/11"),
    ("tapa-lands-on-pin.mat", "tapa-opening.mat", "11: 24/22(2)", "11: 19/18 24/22 24/23"),
    ("fevga-first-checker.mat", "fevga-opening.mat", "31: 14/10 ", "31: 14/13 24/21"),
    ("fevga-blocked-by-single.mat", "fevga-opening.mat", "21: 18/16 5/4", "21: 18/17 18/16"),
    ("long-nardy-head-rule.mat", "long-nardy-opening.mat", "52: 15/10 24/22 ", "52: 24/19 24/22"),
    ("gulbara-progression.mat", "gulbara-opening.mat", "55: 24/13(2) 18/13(2) 14/8 24/18", "55: 24/14(2)"),
]


def cut(lines: list[str], index: int, column: int, winner: int) -> list[str]:
    """The file up to line ``index`` (its text from ``column`` on dropped when > 0), then a resignation."""
    head = lines[: index + 1]
    if column:
        head[-1] = head[-1][:column].rstrip()
    pad = " " * 5 if winner == 0 else " " * 34
    return head + [f"{pad}Wins 1 point", ""]


def by_hand() -> None:
    for out, source, old, new in BY_HAND:
        lines = (EXAMPLES / source).read_text(encoding="utf-8").splitlines()
        (index,) = [i for i, line in enumerate(lines) if old in line]
        start = lines[index].index(old)
        lines[index] = lines[index].replace(old, new)
        player = 1 if start >= 20 else 0
        column = 0 if player == 1 else start + len(new)
        write(out, cut(lines, index, column, 1 - player))


def write(name: str, lines: list[str]) -> None:
    (OUT / name).write_text("\n".join(lines), encoding="utf-8")
    print("wrote", OUT / name)


def relaxed_mutation(source: str, out: str, strict: Variant, relaxed: Variant, code: str) -> None:
    """Find a play legal under ``relaxed`` but not under ``strict`` with ``code``, and write the cut copy."""
    path = EXAMPLES / source
    match = read_match(path)
    _, games = replay_rolls(match)
    lines = path.read_text(encoding="utf-8").splitlines()
    for game in games:
        for decision in filter(None, game):
            action = decision.action
            assert action.kind is ActionKind.ROLL and action.dice is not None
            position = decision.position
            for play in relaxed.legal_plays(position, action.dice).values():
                text = relaxed.format_play(position, play)
                got = strict.resolve_play(position, action.dice, strict.parse_play(text))
                if got.error is None or getattr(got, "code", "") != code:
                    continue
                index = action.location.line - 1
                column = action.location.column - 1
                line = lines[index]
                written = f"{action.dice[0]}{action.dice[1]}: {action.play_text}"
                assert line[column:].startswith(written), (line, written)
                new = f"{action.dice[0]}{action.dice[1]}: {text}"
                lines[index] = line[:column] + new + line[column + len(written) :]
                keep = 0 if action.player == 1 else column + len(new)
                write(out, cut(lines, index, keep, 1 - int(action.player)))
                return
    raise SystemExit(f"no {code} mutation found in {source}")


def plakoto_result() -> None:
    """Game 1 of plakoto.mat ends by a mother-checker win (2 points): claim 1 point."""
    lines = (EXAMPLES / "plakoto.mat").read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if "Wins 2 points" in line)
    lines[index] = lines[index].replace("Wins 2 points", "Wins 1 point")
    write("plakoto-mother-checker.mat", lines[: index + 1] + [""])


def main() -> None:
    by_hand()
    nardy = find_variant("long nardy")
    relaxed_mutation(
        "long-nardy-blockade.mat",
        "long-nardy-prime.mat",
        nardy,
        nardy.with_options(prime_rule="none"),
        "six-prime-forbidden",
    )  # type: ignore[attr-defined]
    fevga = find_variant("fevga")
    relaxed_mutation(
        "fevga.mat",
        "fevga-start-quarter.mat",
        fevga,
        fevga.with_options(start_quarter_block="allowed"),
        "six-prime-forbidden",
    )  # type: ignore[attr-defined]
    bear_off_past_pin("tapa.mat", "tapa-bear-off-pinned.mat")
    plakoto_result()


def bear_off_past_pin(source: str, out: str) -> None:
    """A position where every checker is home but one is pinned: write a bear-off there."""
    path = EXAMPLES / source
    match = read_match(path)
    variant = find_variant(match.variant)
    _, games = replay_rolls(match)
    lines = path.read_text(encoding="utf-8").splitlines()
    for game in games:
        for decision in filter(None, game):
            action, position = decision.action, decision.position
            pins = getattr(position, "mover_pins", 0)
            if not pins or any(position.mover[7:25]) or action.dice is None:
                continue
            high = max(action.dice)
            free = [p for p in range(6, 0, -1) if position.mover[p] and not (pins >> p) & 1]
            if not free or free[0] > high:
                continue
            text = f"{free[0]}/off"
            got = variant.resolve_play(position, action.dice, variant.parse_play(text))
            if getattr(got, "code", "") != "pinned-checker":
                continue
            index, column = action.location.line - 1, action.location.column - 1
            written = f"{action.dice[0]}{action.dice[1]}: {action.play_text}"
            line = lines[index]
            assert line[column:].startswith(written), (line, written)
            new = f"{action.dice[0]}{action.dice[1]}: {text}"
            lines[index] = line[:column] + new + line[column + len(written) :]
            keep = 0 if action.player == 1 else column + len(new)
            write(out, cut(lines, index, keep, 1 - int(action.player)))
            return
    raise SystemExit(f"no bear-off past a pin in {source}")


if __name__ == "__main__":
    main()
