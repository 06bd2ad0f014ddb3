"""A decision's recorded analysis as GNU Backgammon's SGF analysis properties (``A``, ``LU``, ``DA``).

What :mod:`tabla_cli.writers.sgf` adds to a node when the action carries
analysis (read from an eXtreme Gammon ``.xg``, a gnubg SGF or text export):

* a roll: ``A[played][play E ver 3 w wg wbg lg lbg equity <plies>C 0 1 0.000000 1]...``, the ranked
  candidate plays with their chances and cubeful equity, and ``LU[luck]``;
* the cube decision of a roll (not doubling), of a double and of its
  answer: ``DA[E ver 3 <plies>C 1 0.000000 1`` then seven outputs for no
  double and seven for double/take ``]`` (win, win gammon, win backgammon,
  lose gammon, lose backgammon, cubeless equity, cubeful equity): the
  cubeful figures are normalised money equities in money play and
  match-winning chances in match play, as gnubg writes them.

These are the forms :mod:`tabla_cli.formats.sgf` reads back. SGF has no
place for the level of an evaluation other than gnubg's ply count: XG's
n-ply is written as gnubg's (n-1)-ply (XG counts the static evaluation as
its first ply), a rollout, an XG Roller or book evaluation as 2-ply; nor for
XG's own error figures (gnubg computes errors from the equities).

>>> from tabla_cli.evaluation.recorded import Candidate, RecordedAnalysis
>>> recorded = RecordedAnalysis(candidates=(Candidate(1, "8/4 6/4", 0.1, 0.0, (0.5, 0.1, 0.0, 0.5, 0.1, 0.0), "3-ply"),),
...                             played=0, level="XG 3-ply", luck=0.0655)
>>> print(move_properties(recorded, lambda play: "hdfd"))
A[0][hdfd E ver 3 0.500000 0.100000 0.000000 0.100000 0.000000 0.100000 2C 0 1 0.000000 1]LU[0.06550]
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tabla_cli.evaluation.met import cube_outcomes
from tabla_cli.evaluation.recorded import CubeAnalysis, RecordedAnalysis

__all__ = ["cube_property", "move_properties"]

_PLIES = re.compile(r"\b([0-9]+)-ply\b")
_DEFAULT_PLIES = 2


def _plies(level: str, program: str) -> int:
    """gnubg's ply count for the level ``level`` (``3-ply``, ``rollout``) of an analysis named ``program``
    (``XG 3-ply``, ``gnubg 2-ply``): XG's n-ply is gnubg's (n-1)-ply."""
    found = _PLIES.search(level)
    if found is None:
        return _DEFAULT_PLIES
    plies = int(found.group(1))
    return max(0, plies - 1) if program.startswith("XG") else plies


def _outputs(probabilities: tuple[float, ...] | None) -> tuple[float, float, float, float, float, float]:
    """gnubg's five chances (win, win gammon, win backgammon, lose gammon, lose backgammon) and the cubeless
    money equity, from tabla's six chances."""
    win, win_gammon, win_backgammon, lose, lose_gammon, lose_backgammon = probabilities or (0.0,) * 6
    cubeless = win - lose + win_gammon - lose_gammon + win_backgammon - lose_backgammon
    return win, win_gammon, win_backgammon, lose_gammon, lose_backgammon, cubeless


def _numbers(values: tuple[float, ...]) -> str:
    return " ".join(f"{value:.6f}" for value in values)


def move_properties(recorded: RecordedAnalysis, letters: Callable[[str], str | None]) -> str:
    """``A[...]`` (when the play made is in the list) and ``LU[...]`` of a roll's analysis.

    ``letters`` writes a candidate's play (text, in the mover's numbering) as SGF letters; None when it
    cannot, which leaves the ranked list out.
    """
    out = ""
    if recorded.candidates and recorded.played is not None:
        written: list[str] = []
        for candidate in recorded.candidates:
            moves = letters(candidate.play)
            if moves is None:
                written = []
                break
            plies = _plies(candidate.level or recorded.level, recorded.level)
            written.append(
                f"[{moves} E ver 3 {_numbers(_outputs(candidate.probabilities)[:5])} "
                f"{candidate.equity:.6f} {plies}C 0 1 0.000000 1]"
            )
        if written:
            out += f"A[{recorded.played}]" + "".join(written)
    if recorded.luck is not None:
        out += f"LU[{recorded.luck:.5f}]"
    return out


def cube_property(cube: CubeAnalysis, match: tuple[int, int, int, bool] | None) -> str:
    """``DA[...]`` of a cube decision, from the doubler's side.

    Args:
        cube: the equities (normalised).
        match: ``(away, other, cube, crawford)`` in match play: points the
            doubler and the opponent need, the cube before the decision, the
            Crawford game; None in money play.
    """
    no_double, double_take = cube.no_double, cube.double_take
    if match is not None:
        away, other, value, crawford = match
        win, lose = cube_outcomes(away, other, value, crawford=crawford)
        no_double, double_take = ((equity * (win - lose) + (win + lose)) / 2 for equity in (no_double, double_take))
    chances = _outputs(cube.probabilities)
    plies = _plies(cube.level, cube.level)
    return (
        f"DA[E ver 3 {plies}C 1 0.000000 1 {_numbers(chances)} {no_double:.6f} {_numbers(chances)} {double_take:.6f}]"
    )
