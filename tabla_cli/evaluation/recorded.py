"""The analysis an analysed file already holds, kept per action.

GNU Backgammon writes its analysis into its text export (a ranked list of
plays after each roll, a cube analysis block before it) and into SGF
(``A[...]`` for the plays, ``DA[...]`` for the cube, ``LU[...]`` for the
luck). tabla's own JSON stores the evaluation of each decision as it is (see
``docs/json-schema.md``). The readers keep it as a :class:`RecordedAnalysis` on
:attr:`tabla_cli.model.Action.analysis`, and :func:`evaluation_from_recorded`
turns it into the :class:`~tabla_cli.evaluation.types.Evaluation` the
statistics use, exactly as an engine's analysis would be.

Equities are GNU Backgammon's: cubeful, normalised to money equity in match
play (EMG), from the side that decides.

Example:
    >>> lines = [
    ...     "Rolled 42:",
    ...     "     1. Cubeful 2-ply    13/11(2) 6/4(2)              Eq.: +0.042",
    ...     "       0.521 0.159 0.008 - 0.479 0.149 0.007",
    ...     "*    2. Cubeful 2-ply    24/22(2) 6/4(2)              Eq.: +0.030 (-0.012)",
    ...     "       0.515 0.135 0.005 - 0.485 0.114 0.003",
    ... ]
    >>> recorded = parse_gnubg_text_analysis("\\n".join(lines) + "\\n")
    >>> recorded.level, recorded.played, recorded.candidates[1].play
    ('gnubg 2-ply', 1, '24/22(2) 6/4(2)')
    >>> ev = evaluation_from_recorded(recorded, DecisionKind.CHECKER)
    >>> round(ev.error, 3), ev.rank, ev.best, ev.source
    (0.012, 2, '13/11(2) 6/4(2)', 'recorded gnubg 2-ply')
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import NamedTuple

from tabla_cli.evaluation.met import cube_outcomes
from tabla_cli.evaluation.types import CubeAction, DecisionKind, Evaluation

__all__ = [
    "CLOSE_CUBE",
    "Candidate",
    "CubeAnalysis",
    "RecordedAnalysis",
    "WrittenCube",
    "evaluation_from_recorded",
    "parse_gnubg_text_analysis",
    "parse_sgf_cube_analysis",
    "parse_sgf_move_analysis",
    "proper_cube_action",
    "read_written_cube",
]

CLOSE_CUBE = 0.16
"""A no-double is a close cube decision when the best cube action beats
"double, take" (capped at +1) by less than this (GNU Backgammon's rule)."""


class Candidate(NamedTuple):
    """One play of a ranked list.

    Attributes:
        rank: 1 for the best play; None when the file does not know it
            (gnubg prints ``??`` for a play made outside its list).
        play: the play as the file writes it ('' = no move).
        equity: its equity (cubeful, normalised).
        error: how much worse than the best, as printed (>= 0), else
            computed from the equities.
        probabilities: win, win gammon, win backgammon, lose, lose gammon,
            lose backgammon (0..1) when given.
        level: the evaluation of this play (``2-ply``, ``rollout``); a list
            may mix levels.
    """

    rank: int | None
    play: str
    equity: float
    error: float
    probabilities: tuple[float, ...] | None = None
    level: str = ""


@dataclass(frozen=True, slots=True)
class CubeAnalysis:
    """A cube decision's equities, always from the doubler's side.

    Attributes:
        no_double: equity of not doubling.
        double_take: equity of doubling when the opponent takes.
        double_pass: equity of doubling when the opponent passes (+1.0
            normalised).
        proper: the proper cube action as written (``No double, take``).
        level: the evaluation (``gnubg 2-ply``).
        probabilities: the cubeless outcome probabilities (six, as
            :attr:`Candidate.probabilities`) when given.
        mwc_scale: in match play, match-winning chances per unit of
            normalised equity at this score and cube (``(W - L) / 2``, see
            :func:`~tabla_cli.evaluation.met.cube_outcomes`), when the source gives what it takes;
            an error times this is its cost in MWC.
    """

    no_double: float
    double_take: float
    double_pass: float
    proper: str = ""
    level: str = ""
    probabilities: tuple[float, ...] | None = None
    mwc_scale: float | None = None

    @property
    def optimal(self) -> float:
        """The doubler's equity with the best cube action (both sides best)."""
        doubled = min(self.double_take, self.double_pass)
        return doubled if doubled > self.no_double else self.no_double

    @property
    def close(self) -> bool:
        """GNU Backgammon's close decision: optimal - min(double/take, 1) < 0.16.

        The equities are gnubg's printed figures (three decimals), so the
        difference is taken in decimal: exactly 0.160 is not close, whatever
        binary floating point makes of the subtraction.

        >>> CubeAnalysis(0.015, -0.145, 1.0).close, CubeAnalysis(0.203, 0.043, 1.0).close
        (False, False)
        >>> CubeAnalysis(0.015, -0.144, 1.0).close
        True
        """
        return round(self.optimal - min(self.double_take, 1.0), 6) < CLOSE_CUBE


@dataclass(frozen=True, slots=True)
class WrittenCube:
    """A cube analysis as the file writes it, not yet read: SGF's ``DA``, in match-winning chances at a score
    and cube the file does not write; :func:`read_written_cube` reads it where they are known."""

    value: str
    """The value, unescaped."""
    made: CubeAction
    """The cube decision it evaluates, as the notation says (NO_DOUBLE before a roll, DOUBLE, TAKE, PASS)."""
    alone: bool
    """The action records no other analysis."""


@dataclass(frozen=True, slots=True)
class RecordedAnalysis:
    """The analysis a file records for one action.

    Attributes:
        candidates: the ranked plays (checker plays), best first; empty when
            the roller could not move or the action is a cube action.
        played: index in ``candidates`` of the play made (None when the
            list does not hold it).
        level: the evaluation level of the list (``gnubg 2-ply``).
        cube: the cube analysis that goes with the action: for a roll, the
            decision not to double before it; for a double, a take or a pass,
            that double.
        cube_action: what the actor did with the cube at this action
            (NO_DOUBLE for a roll with a cube analysis).
        luck: the luck of the roll (normalised), when the file records it.
        forced: the file says the play was forced (one legal play, or none).
        skill: the file's mark for the play (``none``, ``doubtful``, ``bad``,
            ``very bad``), when it marks plays.
        checker_evaluation: the evaluation of the roll's checker play as an
            earlier analysis stored it (tabla JSON's ``analysis.checker``);
            when set, :func:`evaluation_from_recorded` returns it as it is.
        cube_evaluation: the same for the action's cube decision
            (``analysis.cube``): not doubling before a roll, the double, or
            the answer to it.
        undecided: the file analyses a position but records no decision
            (a position export: eXtreme Gammon, BGBlitz): the action only
            carries the analysis, and its evaluations give the best action
            and its equity, with no equity of the action made and no error.
        written_cube: the cube analysis as the file writes it, when it can
            only be read with the score and cube of the moment (SGF's ``DA``):
            ``cube`` and ``cube_action`` are then unset until
            :func:`read_written_cube` reads it with them.
    """

    candidates: tuple[Candidate, ...] = ()
    played: int | None = None
    level: str = ""
    cube: CubeAnalysis | None = None
    cube_action: CubeAction | None = None
    luck: float | None = None
    forced: bool = False
    skill: str | None = None
    checker_evaluation: Evaluation | None = None
    cube_evaluation: Evaluation | None = None
    undecided: bool = False
    written_cube: WrittenCube | None = None


def read_written_cube(
    recorded: RecordedAnalysis | None, match: tuple[int, int, int, bool] | None, cube: int
) -> RecordedAnalysis | None:
    """``recorded`` with its :attr:`~RecordedAnalysis.written_cube` read at the state of its action.

    Args:
        recorded: an action's analysis (None: it has none).
        match: ``(away, other, cube, crawford)`` of the doubler in match play, as
            :func:`parse_sgf_cube_analysis` takes it; None in money play; or None
            with ``cube`` 0 when the state is not known (the action is not
            followed by the replay): the written cube is then dropped.
        cube: the cube before the decision (the doubler owns it when it is over 1).

    Returns:
        The analysis with ``cube`` and ``cube_action`` set, or without the written
        cube when it cannot be read (None when the action records nothing else).
    """
    if recorded is None or recorded.written_cube is None:
        return recorded
    written = recorded.written_cube
    rest = None if written.alone else dataclasses.replace(recorded, written_cube=None)
    analysis = parse_sgf_cube_analysis(written.value, match, cube > 1) if cube else None
    if analysis is None:
        return rest
    return dataclasses.replace(rest or RecordedAnalysis(level=analysis.level), cube=analysis, cube_action=written.made)


def evaluation_from_recorded(recorded: RecordedAnalysis, kind: DecisionKind) -> Evaluation | None:
    """The evaluation of one decision from its recorded analysis.

    Args:
        recorded: the action's analysis.
        kind: CHECKER for the play of a roll, DOUBLE for the doubler's
            decision (not doubling before a roll, or the double itself), TAKE
            for the answer.

    Returns:
        The evaluation, or None when the analysis does not cover that
        decision (a roll without cube analysis asked for DOUBLE...).
        An evaluation stored with the action (``checker_evaluation``,
        ``cube_evaluation``) is returned as it is.
    """
    if kind is DecisionKind.CHECKER:
        return recorded.checker_evaluation or _checker(recorded)
    if recorded.cube_evaluation is not None:
        return recorded.cube_evaluation
    cube = recorded.cube
    made_action = recorded.cube_action
    if cube is None or (made_action is None and not recorded.undecided):
        return None
    if kind is DecisionKind.DOUBLE:
        if made_action not in (None, CubeAction.NO_DOUBLE, CubeAction.DOUBLE):
            return None
        doubled = min(cube.double_take, cube.double_pass)
        best = CubeAction.DOUBLE if doubled > cube.no_double else CubeAction.NO_DOUBLE
        made = None if made_action is None else doubled if made_action is CubeAction.DOUBLE else cube.no_double
        return _cube_evaluation(
            recorded, cube, best, cube.optimal, made, made_action is CubeAction.DOUBLE or cube.close
        )
    if made_action not in (None, CubeAction.TAKE, CubeAction.PASS, CubeAction.BEAVER):
        return None
    take, drop = -cube.double_take, -cube.double_pass
    best = CubeAction.TAKE if take >= drop else CubeAction.PASS
    made = None if made_action is None else drop if made_action is CubeAction.PASS else take
    return _cube_evaluation(recorded, cube, best, max(take, drop), made, True)


def _cube_evaluation(
    recorded: RecordedAnalysis,
    cube: CubeAnalysis,
    best: CubeAction,
    best_equity: float,
    made: float | None,
    close: bool,
) -> Evaluation:
    """A cube decision's evaluation; ``made`` None = the action made is unknown."""
    error = None if made is None else max(0.0, best_equity - made)
    chosen = recorded.cube_action
    same = chosen is best or (chosen is CubeAction.BEAVER and best is CubeAction.TAKE)
    return Evaluation(
        equity=made,
        best_equity=best_equity,
        best=best.value,
        error=error,
        error_mwc=None if error is None or cube.mwc_scale is None else error * cube.mwc_scale,
        source=f"recorded {cube.level or recorded.level}".rstrip(),
        rank=None if made is None else 1 if same else 2,
        options=2,
        close=close,
        cube_equities=(cube.no_double, cube.double_take, cube.double_pass),
    )


def _checker(recorded: RecordedAnalysis) -> Evaluation | None:
    source = f"recorded {recorded.level}".rstrip()
    candidates = recorded.candidates
    if not candidates:
        if not recorded.forced:
            return None
        return Evaluation(
            equity=None,
            best_equity=0.0,
            best="",
            error=0.0,
            source=source,
            rank=1,
            options=0,
            forced=True,
            luck=recorded.luck,
            close=False,
        )
    best = candidates[0]
    if recorded.played is None:
        return Evaluation(
            equity=None,
            best_equity=best.equity,
            best=best.play,
            error=None,
            source=source,
            options=len(candidates),
            forced=False,
            luck=recorded.luck,
        )
    made = candidates[recorded.played]
    forced = recorded.forced or len(candidates) == 1
    return Evaluation(
        equity=made.equity,
        best_equity=best.equity,
        best=best.play,
        error=0.0 if forced else made.error,
        source=source,
        rank=made.rank,
        options=len(candidates),
        forced=forced,
        close=not forced,
        luck=recorded.luck,
        skill=recorded.skill,
        spread=abs(best.equity - candidates[-1].equity),
    )


# --------------------------------------------------------------------------
# GNU Backgammon text export

_CANDIDATES = re.compile(
    r"^(\*?)[ \t]+([0-9]+\.|\?\? ) (?:Cubeful |Cubeless )?([0-9]+-ply|Rollout)[ \t]+(\S[^\n]*?) +"
    r"Eq\.: *([+-]?[0-9.]+)(?: \(([+-]?[0-9.]+)\))?[ \t]*\n"
    r"(?:[ \t]+([0-9.]+ [0-9.]+ [0-9.]+) - ([0-9.]+ [0-9.]+ [0-9.]+)[ \t]*\n)?",
    re.MULTILINE,
)
_PROBABILITIES = re.compile(r"^[ \t]+([0-9.]+ [0-9.]+ [0-9.]+) - ([0-9.]+ [0-9.]+ [0-9.]+)[ \t]*$", re.MULTILINE)
_CUBE_OPTION = re.compile(r"^[0-9]\. ([A-Za-z ,]*[A-Za-z,])[ \t]+([+-]?[0-9]+\.[0-9]+)", re.MULTILINE)
_ALERT = re.compile(r"^Alert: (doubtful|bad|very bad) move", re.MULTILINE)
_CUBELESS = re.compile(r"(?<![0-9])([0-9]++-ply|Rollout) cubeless equity")
_LUCK = re.compile(r"^Luck[^:\n]*:[ \t]*([+-]?[0-9]+\.[0-9]+)", re.MULTILINE)


def parse_gnubg_text_analysis(text: str, cube_action: CubeAction | None = None) -> RecordedAnalysis | None:
    """Read the analysis lines that follow an action line of a gnubg text export.

    Args:
        text: the lines after the action line up to the next record (alerts,
            the ``Cube analysis`` block, the ``Rolled DD:`` list).
        cube_action: what the actor did with the cube at this action (a
            roll: NO_DOUBLE); kept when the text holds a cube analysis.

    Returns:
        The analysis, or None when the text holds none.
    """
    cube_at = text.find("Cube analysis")
    rolled_at = text.find("Rolled ")
    if cube_at < 0 and rolled_at < 0:
        return None
    cube = _cube_block(text, cube_at) if cube_at >= 0 else None
    candidates: list[Candidate] = []
    played: int | None = None
    forced = False
    if rolled_at >= 0:
        for mark, rank, level, play, equity, diff, wins, losses in _CANDIDATES.findall(text, rolled_at):
            try:  # a damaged number ("1.2.3", thousands of digits) leaves the candidate out
                candidate = Candidate(
                    int(rank[:-1]) if rank[0] != "?" else None,
                    play,
                    float(equity),
                    -float(diff) if diff else 0.0,
                    tuple(map(float, f"{wins} {losses}".split())) if wins else None,
                    level.lower(),
                )
            except ValueError:
                continue
            if mark:
                played = len(candidates)
            candidates.append(candidate)
        forced = len(candidates) == 1 or (not candidates and "Cannot move" in text)
    luck_found = _LUCK.search(text) if "Luck" in text else None
    skill = None
    if candidates:
        alert = _ALERT.search(text) if "Alert: " in text else None
        skill = alert.group(1) if alert is not None else "none"
    if cube is None and not candidates and not forced:
        return None
    level = f"gnubg {candidates[0].level}" if candidates else (cube.level if cube is not None else "")
    return RecordedAnalysis(
        candidates=tuple(candidates),
        played=played,
        level=level,
        cube=cube,
        cube_action=cube_action if cube is not None else None,
        luck=float(luck_found.group(1)) if luck_found is not None else None,
        forced=forced,
        skill=skill,
    )


def _probabilities(wins: str, losses: str) -> tuple[float, ...]:
    """Six probabilities from gnubg's ``w wg wbg - l lg lbg`` halves."""
    return tuple(map(float, f"{wins} {losses}".split()))


def _cube_block(text: str, start: int) -> CubeAnalysis | None:
    """The 'Cube analysis' block at ``start``: cubeless line, probabilities, three options, proper action."""
    end = text.find("Proper cube action:", start)
    if end < 0:
        return None
    line_end = text.find("\n", end)
    proper = text[end + len("Proper cube action:") : line_end if line_end >= 0 else len(text)].strip()
    block = text[start:end]
    options = {name.lower(): float(equity) for name, equity in _CUBE_OPTION.findall(block)}
    no_double = _option(options, "no double", "no redouble")
    take = _option(options, "double, take", "redouble, take")
    drop = _option(options, "double, pass", "redouble, pass")
    if no_double is None or take is None or drop is None:
        return None
    level_found = _CUBELESS.search(block)
    found = _PROBABILITIES.search(block)
    probabilities = _probabilities(*found.groups()) if found is not None else None
    if drop < 0:  # printed for the taker: every equity negated
        no_double, take, drop = -no_double, -take, -drop
        if probabilities is not None:
            probabilities = probabilities[3:] + probabilities[:3]
    level = f"gnubg {level_found.group(1).lower()}" if level_found is not None else ""
    return CubeAnalysis(no_double, take, drop, proper, level, probabilities)


def _option(options: dict[str, float], *names: str) -> float | None:
    for name in names:
        if name in options:
            return options[name]
    return None


# --------------------------------------------------------------------------
# GNU Backgammon SGF

_SGF_LEVEL = re.compile(r"(?P<plies>[0-9]+)(?P<cubeful>C?)")


def parse_sgf_move_analysis(
    values: list[str], plays: list[str], luck: str | None = None, moved: bool = True
) -> RecordedAnalysis | None:
    """The analysis of an SGF move node: ``A[index][move E ver 3 w wg wbg lg lbg eq 2C ...]...``.

    Args:
        values: the values of the ``A`` property: the index of the play made
            in the list, then one value per candidate (the play in SGF
            letters, ``E`` for an evaluation or ``R`` for a rollout, the
            version, five probabilities, the equity, then the level as
            ``<plies>C`` for cubeful).
        plays: each candidate's play as text, in the same order (the reader
            converts the SGF letters).
        luck: the ``LU`` value, if any (``-inf`` = not analysed).
        moved: the roll was played (gnubg lists no play for a roll that
            cannot be played, and still writes its luck).

    Returns:
        The analysis, or None when ``values`` holds no candidate (and, for a
        roll that could not be played, no luck).
    """
    if len(values) < 2:
        lucky = None if moved else _sgf_luck(luck)
        return None if lucky is None else RecordedAnalysis(level="gnubg", luck=lucky, forced=True)
    try:
        played: int | None = int(values[0])
    except ValueError:
        played = None
    candidates: list[Candidate] = []
    for rank, (value, play) in enumerate(zip(values[1:], plays, strict=False), 1):
        fields = value.split()
        if len(fields) < 10 or fields[1] not in ("E", "R") or fields[2] != "ver":
            continue
        try:
            win, wg, wbg, lg, lbg, equity = (float(x) for x in fields[4:10])
        except ValueError:
            continue
        level = "rollout"
        if fields[1] == "E" and len(fields) > 10 and (lv := _SGF_LEVEL.fullmatch(fields[10])) is not None:
            level = f"{lv.group('plies')}-ply"
        candidates.append(Candidate(rank, play, equity, 0.0, (win, wg, wbg, 1.0 - win, lg, lbg), level))
    if not candidates:
        return None
    best = candidates[0].equity
    candidates = [c._replace(error=max(0.0, best - c.equity)) for c in candidates]
    if played is not None and not 0 <= played < len(candidates):
        played = None
    return RecordedAnalysis(
        candidates=tuple(candidates),
        played=played,
        level=f"gnubg {candidates[0].level}",
        luck=_sgf_luck(luck),
        forced=len(candidates) == 1,
    )


def _sgf_luck(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        luck = float(value)
    except ValueError:
        return None
    return luck if luck == luck and abs(luck) != float("inf") else None


def proper_cube_action(cube: CubeAnalysis, redouble: bool = False) -> str:
    """The proper cube action in GNU Backgammon's words, from the three equities.

    >>> proper_cube_action(CubeAnalysis(0.5, 0.7, 1.0)), proper_cube_action(CubeAnalysis(1.3, 1.8, 1.0), True)
    ('Double, take', 'Too good to redouble, pass')
    """
    double = "redouble" if redouble else "double"
    if cube.double_take >= cube.double_pass:
        if cube.no_double > cube.double_pass:
            return f"Too good to {double}, pass"
        return f"{double.capitalize()}, pass"
    if cube.double_take > cube.no_double:
        return f"{double.capitalize()}, take"
    return f"No {double}, take"


_SGF_OUTPUTS = r"((?:\s+[-+0-9.eE]+){7})"
_SGF_CUBE_EVAL = re.compile(r"E\s+ver\s+3\s+([0-9]+)(C?)\s+\S+\s+\S+\s+\S+" + _SGF_OUTPUTS + _SGF_OUTPUTS)
_SGF_CUBE_ROLLOUT = re.compile(
    r"X\s+ver\s+3\s.*?\bNoDouble\s+Output" + _SGF_OUTPUTS + r".*?\bDoubleTake\s+Output" + _SGF_OUTPUTS, re.DOTALL
)


def parse_sgf_cube_analysis(
    value: str, match: tuple[int, int, int, bool] | None, redouble: bool = False
) -> CubeAnalysis | None:
    """The cube analysis of an SGF ``DA[...]`` value (format version 3), from the doubler's side.

    gnubg writes, for an evaluation, ``E ver 3 <plies>[C] <deterministic>
    <noise> <prune>`` and then its seven outputs for no double and for
    double/take (win, win gammon, win backgammon, lose gammon, lose
    backgammon, cubeless equity, cubeful equity); a rollout writes the same
    outputs after ``NoDouble Output`` and ``DoubleTake Output``. The cubeful
    figures are normalised money equities in money play, and match-winning
    chances in match play: they are normalised here with the match equity
    table at the score (:func:`~tabla_cli.evaluation.met.cube_outcomes`), as gnubg's
    ``FindCubeDecision`` does; double/pass is then +1.

    Args:
        value: the ``DA`` value.
        match: ``(away, other, cube, crawford)`` in match play (points the
            doubler and the opponent need, the cube before the decision, the
            Crawford game), None in money play.
        redouble: the doubler owns the cube (the proper action says redouble).

    Returns:
        The analysis, or None when the value is not one gnubg's layout.
    """
    found = _SGF_CUBE_EVAL.match(value.strip())
    if found is not None:
        level = f"gnubg {found.group(1)}-ply"
        no_double, double = found.group(3).split(), found.group(4).split()
    elif (rollout := _SGF_CUBE_ROLLOUT.match(value.strip())) is not None:
        level = "gnubg rollout"
        no_double, double = rollout.group(1).split(), rollout.group(2).split()
    else:
        return None
    try:
        outputs = [float(x) for x in no_double], [float(x) for x in double]
    except ValueError:
        return None
    nd, dt, dp = outputs[0][6], outputs[1][6], 1.0
    scale = None
    if match is not None:
        away, other, cube_value, crawford = match
        win, lose = cube_outcomes(away, other, cube_value, crawford=crawford)
        if win <= lose:
            return None
        nd, dt = ((2 * mwc - (win + lose)) / (win - lose) for mwc in (nd, dt))
        scale = (win - lose) / 2
    w, wg, wbg, lg, lbg = outputs[0][:5]
    cube = CubeAnalysis(nd, dt, dp, level=level, probabilities=(w, wg, wbg, 1.0 - w, lg, lbg), mwc_scale=scale)
    return dataclasses.replace(cube, proper=proper_cube_action(cube, redouble))
