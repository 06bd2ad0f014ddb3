"""Make ``gnubg_cube.csv``: cube decisions with GNU Backgammon's verdict at 1-ply.

Run from the repository root with the GPL ``gnubg`` package installed (a
test-time tool, never imported by tabla_cli)::

    pip install gnubg
    python tests/data/cube/make_cube_oracle.py /work/shared/corpus/mat > tests/data/cube/gnubg_cube.csv

The positions are (1) every cube decision (double or not, before the roll) of
the ``.mat`` files under the directory given whose position is a bear-off
(every checker of both sides in its home board), one per distinct
Position ID and Match ID, and a sample of the others, and (2) a few bear-offs
set at the scores and cube states that decide matches: money with the cube
centred and owned, a redouble that wins the match or leaves a dead cube, the
post-Crawford trailer, 2-away/2-away. gnubg answers ``hint`` at 1-ply (its
look-ahead of one roll, tabla's ``2ply``), Jacoby and beavers off, and we keep
its cubeless chances of winning (and of winning a gammon), its three cubeful
equities and its proper action, as printed (three decimals).
"""

from __future__ import annotations

import csv
import ctypes
import os
import random
import re
import sys
import tempfile
from pathlib import Path

from tabla_cli.analysis.decisions import AnalysisOptions, DecisionsVisitor
from tabla_cli.board import Player, Position
from tabla_cli.check import FileReport
from tabla_cli.evaluation.types import DecisionKind
from tabla_cli.ids import MatchState, encode_match_id
from tabla_cli.pasted import parse_ids
from tabla_cli.pipeline import run

OTHERS = 60
"""How many cube decisions that are not bear-offs to keep (a fixed-seed sample)."""

# (length, score of the side on roll, score of the other, cube, owner: "me"/"them"/None, crawford)
STATES = [
    (0, 0, 0, 1, None, False),
    (0, 0, 0, 2, "me", False),
    (7, 4, 2, 2, "me", False),
    (3, 0, 0, 2, "me", False),
    (5, 3, 0, 2, "me", False),
    (5, 0, 4, 1, None, False),
    (5, 2, 4, 1, None, False),
    (7, 5, 5, 1, None, False),
    (7, 3, 5, 2, "me", False),
    (9, 6, 3, 2, "me", False),
    (11, 5, 9, 2, "me", False),
]
# ({point: checkers} of the side on roll, of the other side)
BEAROFFS = [
    ({1: 3, 2: 1}, {1: 3}),
    ({2: 1, 5: 1}, {1: 1, 3: 1}),
    ({6: 2}, {1: 2, 2: 1}),
    ({4: 2, 5: 1}, {1: 2, 3: 1, 4: 1}),
    ({1: 2, 3: 2, 4: 1}, {2: 3, 3: 1}),
    ({6: 1, 5: 1}, {2: 1, 4: 1}),
    ({1: 4, 2: 3, 3: 2}, {1: 3, 2: 3, 4: 3}),
    ({3: 3, 5: 2}, {2: 2, 4: 2, 6: 1}),
]


def corpus_decisions(directory: Path) -> list[str]:
    """``POSITION:MATCH`` of every cube decision before a roll in the ``.mat`` files of ``directory``."""
    found: dict[str, None] = {}
    for path in sorted(directory.glob("*.mat")):
        visitor = DecisionsVisitor(FileReport(str(path)), AnalysisOptions(recorded=False))
        run(str(path), visitor)
        for item in visitor.pending:
            row = item.row
            if item.kind is DecisionKind.DOUBLE and row.get("match_id"):
                found[f"{row['position_id']}:{row['match_id']}"] = None
    return list(found)


def is_bearoff(ids: str) -> bool:
    position, _ = parse_ids(ids)
    return all(not side[p] for side in (position.mover, position.opponent) for p in range(7, 26))


def constructed() -> list[str]:
    out = []
    for mover, opponent in BEAROFFS:
        position_id = Position.from_points(mover, opponent).position_id()
        for length, mine, theirs, cube, owner, crawford in STATES:
            me = Player.ZERO
            state = MatchState(
                cube=cube,
                cube_owner=None if owner is None else me if owner == "me" else me.other,
                dice_owner=me,
                turn=me,
                crawford=crawford,
                game_state=1,
                length=length,
                score=(mine, theirs),
                jacoby=False,
            )
            out.append(f"{position_id}:{encode_match_id(state)}")
    return out


_LIBC = ctypes.CDLL(None)
_EQUITY = re.compile(r"^\d\. (No double|Double, take|Double, pass|Double, beaver)\s+([-+]\d+\.\d+)", re.M)
_CHANCES = re.compile(r"^\s+(\d\.\d+) (\d\.\d+) \d\.\d+ - \d\.\d+ \d\.\d+ \d\.\d+$", re.M)
_PROPER = re.compile(r"^Proper cube action: (.+)$", re.M)


def gnubg_output(gnubg: object, *commands: str) -> str:
    """What gnubg prints for ``commands`` (its C output, taken from file descriptor 1)."""
    command = gnubg.command
    sys.stdout.flush()
    _LIBC.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile("w+") as capture:
        os.dup2(capture.fileno(), 1)
        try:
            for text in commands:
                command(text)
            _LIBC.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        capture.seek(0)
        return capture.read()


def main() -> None:
    import gnubg

    gnubg_output(
        gnubg,
        "set threads 1",
        "set jacoby off",
        "set beavers 0",
        "set evaluation cubedecision evaluation plies 1",
        "set evaluation cubedecision evaluation prune off",
    )
    decisions = corpus_decisions(Path(sys.argv[1]))
    bearoffs = [ids for ids in decisions if is_bearoff(ids)]
    others = [ids for ids in decisions if not is_bearoff(ids)]
    chosen = bearoffs + random.Random(23).sample(others, min(OTHERS, len(others))) + constructed()
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["position_id", "match_id", "kind", "win", "win_gammon", "nd", "dt", "dp", "proper"])
    for ids in dict.fromkeys(chosen):
        text = gnubg_output(gnubg, f"set gnubgid {ids}", "hint")
        equities = {name: float(value) for name, value in _EQUITY.findall(text)}
        proper = _PROPER.search(text)
        chances = _CHANCES.search(text)
        if proper is None or chances is None or len(equities) != 3:
            continue  # gnubg gives no cube analysis (the side on roll may not double)
        kind = "bearoff" if is_bearoff(ids) else "other"
        position_id, match_id = ids.split(":")
        writer.writerow(
            [
                position_id,
                match_id,
                kind,
                *chances.groups(),
                f"{equities['No double']:.3f}",
                f"{equities['Double, take']:.3f}",
                f"{equities['Double, pass']:.3f}",
                proper.group(1).strip(),
            ]
        )
        sys.stdout.flush()


if __name__ == "__main__":
    main()
