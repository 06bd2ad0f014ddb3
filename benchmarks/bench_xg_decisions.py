"""Accuracy per decision: tabla's and GNU Backgammon's error on each play and cube decision next to XG's.

Run from the repository root:

    python benchmarks/bench_xg_decisions.py --xg ../shared/corpus/xg --mat ../shared/corpus/mat \
        [--levels 1ply,2ply] [--gnubg-plies 1] [--only NAME,...] [--csv FILE]

The (match, player) totals of ``bench_xg_reference.py`` sum a few hundred
decisions each, and a single large error moves a total by more than the
engines differ. This benchmark pairs every decision instead:

- XG's, read from the ``.xg`` file's records (``temp.xg``, 2,560-byte
  records, see ``bench_xg_reference.py``): each checker play's ``ErrMove``,
  each cube decision's ``ErrCube`` (the side that may double) and ``ErrTake``
  (the answer to a double), as stored (XG writes a play's error as a negative
  number; its absolute value is taken);
- tabla's, from ``tabla analyze NAME.mat --by decision --format json`` at
  each level, one whole process per (match, level);
- GNU Backgammon's, from ``analyse match`` then ``export match text`` in a
  child process of the Python that has the GPL ``gnubg`` package (never
  imported here), read back with tabla's gnubg text reader (``--recorded``,
  its printed errors, three decimals).

Decisions are paired turn by turn within each game: a turn is an optional
cube decision (and the answer to a double) followed by a checker play, and
the two files' turns must agree on the side on roll and the dice (a game
where they stop agreeing is cut there and counted). gnubg's rows are paired
with tabla's by position, match state and kind.

It prints, for each engine, the mean absolute difference from XG's error per
decision (and the sum of the differences) over all paired decisions and by
group: checker plays and cube decisions, money and match, bear-offs and the
rest, plays XG calls an error or not. ``--csv`` writes every paired decision.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import struct
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bgsage import xg_file  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabla_cli.ids.match import decode_match_id  # noqa: E402
from tabla_cli.ids.position import decode_position_id  # noqa: E402

_NOT_ANALYSED = -999.0
_TS_GAME, _TS_CUBE, _TS_MOVE = 1, 2, 3
# TSaveRec offsets (XG_format.pas, Delphi alignment).
_CUBE_ACTIF = 12  # then the doubled flag
_CUBE_ERR_CUBE, _CUBE_ERR_TAKE = 200, 216
_MOVE_ACTIF, _MOVE_DICE, _MOVE_ERR_MOVE = 64, 100, 2312

GNUBG_SCRIPT = """
import sys, gnubg
plies = sys.argv[3]
jacoby = "off" if '[Jacoby "Off"]' in open(sys.argv[1], encoding="utf-8", errors="replace").read(4096) else "on"
for command in ("set threads 1", f"set analysis chequerplay evaluation plies {plies}",
                f"set analysis cubedecision evaluation plies {plies}", f"set jacoby {jacoby}",
                f"import mat {sys.argv[1]}", "analyse match", f"export match text {sys.argv[2]}"):
    gnubg.command(command)
"""


@dataclass
class Turn:
    """One side's turn: its cube decision, the answer to a double, its checker play (errors, EMG)."""

    side: int
    dice: tuple[int, int] | None = None
    cube: float | None = None
    take: float | None = None
    checker: float | None = None
    info: dict[str, object] = field(default_factory=dict)


def xg_turns(path: Path) -> list[list[Turn]]:
    """XG's turns, game by game; side 1 is the .mat's Player 1."""
    data = xg_file.XgArchive.load(str(path)).get("temp.xg")
    games: list[list[Turn]] = []
    pending: Turn | None = None

    def err(offset: int) -> float | None:
        value = struct.unpack_from("<d", data, offset)[0]
        return abs(value) if value > _NOT_ANALYSED else None

    for offset, kind in xg_file.iter_records(data):
        if kind == _TS_GAME:
            games.append([])
            pending = None
        elif kind == _TS_CUBE:
            actif, doubled = struct.unpack_from("<2i", data, offset + _CUBE_ACTIF)
            if doubled < 0:  # no cube decision this turn
                pending = None
                continue
            pending = Turn(actif, cube=err(offset + _CUBE_ERR_CUBE))
            if doubled == 1:
                pending.take = err(offset + _CUBE_ERR_TAKE)
            games[-1].append(pending)
        elif kind == _TS_MOVE:
            actif = struct.unpack_from("<i", data, offset + _MOVE_ACTIF)[0]
            dice = struct.unpack_from("<2i", data, offset + _MOVE_DICE)
            if pending is None or pending.side != actif or pending.dice is not None:
                pending = Turn(actif)
                games[-1].append(pending)
            pending.dice = (min(dice), max(dice))
            pending.checker = err(offset + _MOVE_ERR_MOVE)
            pending = None
    return games


def tabla_rows(path: Path, level: str | None) -> list[dict[str, object]]:
    """``tabla analyze --by decision`` rows (``level`` None: the recorded analysis)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-c", "from tabla_cli.cli import main; main()", "analyze", str(path)]
    command += ["--by", "decision", "--format", "json", "-j", "1", "--quiet", "--no-cache"]
    if level is not None:
        command += ["--level", level, "--no-recorded"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if not done.stdout.strip():
        raise SystemExit(f"{path}: tabla analyze gave no rows:\n{done.stderr[-3000:]}")
    rows: list[dict[str, object]] = json.loads(done.stdout)
    return rows


def tabla_turns(rows: list[dict[str, object]]) -> list[list[Turn]]:
    """tabla's decision rows as turns, game by game; side 1 is the .mat's Player 1 (tabla's side 0)."""
    games: dict[int, list[Turn]] = defaultdict(list)
    for row in rows:
        game, side = int(str(row["game"])), 1 if row["side"] == 0 else -1
        turns = games[game]
        if row["kind"] == "take":
            turns[-1].take = _error(row)
            turns[-1].info["take_row"] = row
            continue
        if not turns or turns[-1].side != side or turns[-1].checker is not None or "checker_row" in turns[-1].info:
            turns.append(Turn(side))
        turn = turns[-1]
        if row["kind"] == "double":
            turn.cube = _error(row)
            turn.info["cube_row"] = row
        else:
            dice = str(row["dice"])
            turn.dice = (min(int(dice[0]), int(dice[1])), max(int(dice[0]), int(dice[1])))
            turn.checker = _error(row)
            turn.info["checker_row"] = row
    return [games[g] for g in sorted(games)]


def _error(row: dict[str, object]) -> float | None:
    value = row.get("error")
    return None if value is None else float(str(value))


def _key(row: dict[str, object]) -> tuple[object, ...]:
    return (row["position_id"], row["match_id"], row["kind"])


@dataclass
class Pair:
    """One decision both files hold: XG's error and each engine's."""

    match: str
    game: int
    kind: str  # checker, cube, take
    money: bool
    bearoff: bool
    xg: float
    errors: dict[str, float | None]
    row: dict[str, object]


def pair_up(name: str, xg: list[list[Turn]], engines: dict[str, list[list[Turn]]], gnubg: dict) -> list[Pair]:
    """Pair XG's turns with the first engine's, game by game; the other engines by turn index."""
    first = next(iter(engines))
    pairs: list[Pair] = []
    cut = 0
    for g, xg_game in enumerate(xg):
        ours = {label: games[g] if g < len(games) else [] for label, games in engines.items()}
        for i, turn in enumerate(xg_game):
            mine = ours[first][i] if i < len(ours[first]) else None
            if mine is None or mine.side != turn.side or mine.dice != turn.dice:
                cut += len(xg_game) - i
                break
            for kind, attr, row_key in (
                ("checker", "checker", "checker_row"),
                ("cube", "cube", "cube_row"),
                ("take", "take", "take_row"),
            ):
                xg_error = getattr(turn, attr)
                row = mine.info.get(row_key)
                if xg_error is None or not isinstance(row, dict) or getattr(mine, attr) is None:
                    continue
                errors: dict[str, float | None] = {
                    label: getattr(games[i], attr) if i < len(games) else None for label, games in ours.items()
                }
                recorded = gnubg.get(_key(row))
                errors["gnubg"] = _error(recorded) if recorded is not None else None
                money = _money(str(row["match_id"]))
                pairs.append(Pair(name, g + 1, kind, money, _bearoff(str(row["position_id"])), xg_error, errors, row))
    if cut:
        print(f"{name}: {cut} XG turns not paired (the files stop agreeing)", file=sys.stderr)
    return pairs


def _money(match_id: str) -> bool:
    return decode_match_id(match_id, strict=False).length == 0


def _bearoff(position_id: str) -> bool:
    position = decode_position_id(position_id)
    return all(sum(side[p] for p in range(7, 26)) == 0 for side in (position.mover, position.opponent))


def report(pairs: list[Pair], labels: list[str]) -> None:
    groups: dict[str, list[Pair]] = defaultdict(list)
    for p in pairs:
        groups["all"].append(p)
        groups[p.kind].append(p)
        groups[f"{p.kind}, {'money' if p.money else 'match'}"].append(p)
        if p.bearoff:
            groups[f"{p.kind}, bear-off"].append(p)
        groups[f"{p.kind}, XG error {'>= 0.02' if p.xg >= 0.02 else '< 0.02'}"].append(p)
    print(f"{'group':<28}{'n':>6}{'XG sum':>9}" + "".join(f"{label:>22}" for label in labels))
    print(f"{'':<43}" + "".join(f"{'mean|d|  sum d  sum':>22}" for _ in labels))
    for name in sorted(groups, key=lambda n: (n != "all", n)):
        members = [p for p in groups[name] if all(p.errors.get(label) is not None for label in labels)]
        if not members:
            continue
        line = f"{name:<28}{len(members):>6}{sum(p.xg for p in members):9.2f}"
        for label in labels:
            diffs = [float(p.errors[label] or 0.0) - p.xg for p in members]
            total = sum(float(p.errors[label] or 0.0) for p in members)
            line += f"  {sum(map(abs, diffs)) / len(diffs):.4f} {sum(diffs):+6.2f} {total:6.2f}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--xg", type=Path, required=True, help="folder of XG-analysed .xg files")
    parser.add_argument("--mat", type=Path, required=True, help="folder with NAME.mat for each NAME.xg")
    parser.add_argument("--levels", default="1ply,2ply", help="tabla levels, comma-separated")
    parser.add_argument("--gnubg-python", default=sys.executable, help="a Python with the gnubg package")
    parser.add_argument("--gnubg-plies", type=int, default=1, help="gnubg's analysis depth (default 1)")
    parser.add_argument("--only", default="", help="match names (stems), comma-separated")
    parser.add_argument("--csv", type=Path, help="also write every paired decision here")
    args = parser.parse_args()
    levels = args.levels.split(",")
    only = set(filter(None, args.only.split(",")))
    names = [x.stem for x in sorted(args.xg.glob("*.xg")) if (args.mat / f"{x.stem}.mat").is_file()]
    pairs: list[Pair] = []
    for name in names:
        if only and name not in only:
            continue
        mat = args.mat / f"{name}.mat"
        engines = {f"tabla {level}": tabla_turns(tabla_rows(mat, level)) for level in levels}
        with tempfile.TemporaryDirectory() as tmp:
            export = Path(tmp) / "gnubg.txt"
            subprocess.run(
                [args.gnubg_python, "-c", GNUBG_SCRIPT, str(mat), str(export), str(args.gnubg_plies)],
                capture_output=True,
                stdin=subprocess.DEVNULL,
                check=False,
            )
            exported = sorted(Path(tmp).glob("gnubg*.txt"))
            recorded = [row for path in exported for row in tabla_rows(path, None)]
        gnubg = {_key(row): row for row in recorded}
        pairs.extend(pair_up(name, xg_turns(args.xg / f"{name}.xg"), engines, gnubg))
    labels = [f"tabla {level}" for level in levels] + ["gnubg"]
    print(f"{len(pairs)} paired decisions from {len(names) if not only else len(only)} matches; XG against:")
    report(pairs, labels)
    if args.csv:
        with args.csv.open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(
                [
                    "match",
                    "game",
                    "kind",
                    "money",
                    "bearoff",
                    "position_id",
                    "match_id",
                    "dice",
                    "action",
                    "XG",
                    *labels,
                ]
            )
            for p in pairs:
                writer.writerow(
                    [
                        p.match,
                        p.game,
                        p.kind,
                        p.money,
                        p.bearoff,
                        p.row["position_id"],
                        p.row["match_id"],
                        p.row.get("dice"),
                        p.row.get("action"),
                        f"{p.xg:.4f}",
                        *(("" if p.errors[label] is None else f"{p.errors[label]:.4f}") for label in labels),
                    ]
                )


if __name__ == "__main__":
    main()
