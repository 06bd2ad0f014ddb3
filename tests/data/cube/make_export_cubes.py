"""Make ``gnubg_2ply_exports.csv``: the cube decisions GNU Backgammon analysed at 2-ply in its text exports.

Run from the repository root::

    python tests/data/cube/make_export_cubes.py tests/data/corpus/txt/bglab-*-2-ply-*.txt \
        > tests/data/cube/gnubg_2ply_exports.csv

Each "Cube analysis" block of an export follows the board of the move it
precedes; its Match ID carries the dice of that move, which are cleared here
(the decision is before the roll). Kept per decision: the file, gnubg's
cubeless chances for the side on roll (win, win gammon, win backgammon, lose,
lose gammon, lose backgammon), its three cubeful equities and its proper
action, as printed; a decision the side on roll may not take (gnubg prints
none) is not in the exports. Repeated ``POSITION:MATCH`` pairs are kept once.
"""

from __future__ import annotations

import csv
import dataclasses
import re
import sys
from pathlib import Path

from tabla_cli.ids import encode_match_id
from tabla_cli.pasted import parse_ids

_IDS = re.compile(r"Position ID: (\S+)\s*\n\s*Match ID\s*: (\S+)")
_BLOCK = re.compile(
    r"^Cube analysis\n(?P<level>\d)-ply cubeless equity [^\n]*\n"
    r"\s+(?P<chances>(?:\d\.\d+ ){3}- (?:\d\.\d+ ){2}\d\.\d+)\n"
    r"Cubeful equities:\n(?P<rows>(?:\d\. [^\n]*\n){3})"
    r"Proper cube action: (?P<proper>[^\n]+)",
    re.M,
)
_ROW = re.compile(
    r"^\d\. (No double|No redouble|Double, take|Double, pass|Redouble, take|Redouble, pass)\s+([-+]\d+\.\d+)"
)
FIELDS = [
    "source",
    "position_id",
    "match_id",
    "win",
    "win_gammon",
    "win_backgammon",
    "lose_gammon",
    "lose_backgammon",
    "nd",
    "dt",
    "dp",
    "proper",
]


def decisions(path: Path) -> list[dict[str, str]]:
    text = path.read_text(encoding="utf-8", errors="replace")
    rows = []
    for block in _BLOCK.finditer(text):
        ids = list(_IDS.finditer(text, 0, block.start()))[-1]
        position, state = parse_ids(f"{ids.group(1)}:{ids.group(2)}")
        assert state is not None
        match_id = encode_match_id(dataclasses.replace(state, dice=None, turn=state.dice_owner, doubled=False))
        chances = block.group("chances").replace("-", "").split()
        equities = {}
        for line in block.group("rows").splitlines():
            found = _ROW.match(line)
            assert found, line
            name = found.group(1).replace("Redouble", "Double").replace("No redouble", "No double")
            equities[name] = found.group(2)
        rows.append(
            {
                "source": path.name,
                "position_id": position.position_id(),
                "match_id": match_id,
                "win": chances[0],
                "win_gammon": chances[1],
                "win_backgammon": chances[2],
                "lose_gammon": chances[4],
                "lose_backgammon": chances[5],
                "nd": equities["No double"],
                "dt": equities["Double, take"],
                "dp": equities["Double, pass"],
                "proper": block.group("proper").strip(),
            }
        )
    return rows


def main(paths: list[str]) -> None:
    out = csv.DictWriter(sys.stdout, FIELDS, lineterminator="\n")
    out.writeheader()
    seen: set[str] = set()
    for name in sorted(paths):
        for row in decisions(Path(name)):
            key = f"{row['position_id']}:{row['match_id']}"
            if key not in seen:
                seen.add(key)
                out.writerow(row)


if __name__ == "__main__":
    main(sys.argv[1:])
