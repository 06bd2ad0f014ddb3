"""The verdict on one cube decision: the three equities, the proper action in GNU Backgammon's words, the cost of each wrong action.

The equities are the engine's (see :mod:`tabla_cli.analysis.engine` for their
normalisation): no double (ND), double/take (DT) and double/pass (DP), from
the side that may double. The proper action follows the rules GNU Backgammon
states its verdicts by, so that the same three numbers get the same words:

- doubling is right when DT beats ND and DP is no worse than ND; then
  "Double, take" when DP beats DT, else "Double, pass" ("Redouble" once the
  cube is above 1; "Optional" when double and no double are equal to 1e-5);
- otherwise "No double, take" (with the share of the way from DT to DP that ND
  has gone), unless ND beats DP too: then the side is "Too good to double"
  (with the share of the way from DP to DT that ND has gone, when below DT)
  when it has gammon chances (and the opponent would take, or pass), and
  "Double, pass" or "No double, take" when it has none (nothing to play on for);
- a money game with beavers turns "take" into "beaver" where the taker's
  DT is between -2 and 0 (taking is worth more than a cube of 1).

A cube decision that the rules do not offer (the Crawford game, a cube the
opponent owns, a cube that already wins the match) is
:class:`CubeNotAvailableError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabla_cli.analysis.bgsage_batch import AUTO, CubeValues, State, clear_caches, collector_paused, cube_batch
from tabla_cli.analysis.engine import one_position_level, to_board
from tabla_cli.errors import TablaError
from tabla_cli.evaluation.types import ANALYSABLE_VARIANTS, DecisionInput

OPTIONAL = 1e-5
"""Two equities this close make the double optional (gnubg's margin)."""


class CubeNotAvailableError(TablaError, ValueError):
    """The side on roll may not double in this position."""


@dataclass(frozen=True, slots=True)
class CubeVerdict:
    """The engine's judgement of one cube decision, from the side that may double.

    Attributes:
        no_double: cubeful equity after no double.
        double_take: ... after a double that is taken.
        double_pass: ... after a double that is passed (1.0).
        proper: the proper action in gnubg's words, e.g. ``"Redouble, pass"``
            or ``"No double, take (28.9%)"``.
        double: doubling is right.
        take: taking is right (the answer to a double, whether right or not).
        costs: for each action (``no double``, ``double``, ``take``, ``pass``
            and, where beavers are allowed, ``beaver``) what it loses against
            the right one, in normalised equity (0.0 for the right action).
        level: the engine level.
        chances: the cubeless chances of the side on roll, before its roll:
            win, win gammon, win backgammon, lose gammon, lose backgammon
            (empty when the figures came without them).
    """

    no_double: float
    double_take: float
    double_pass: float
    proper: str
    double: bool
    take: bool
    costs: dict[str, float]
    level: str
    chances: tuple[float, ...] = ()


def proper_action(values: CubeValues, *, redouble: bool, beavers: bool = False) -> str:
    """The proper cube action for ``values`` in gnubg's words.

    Args:
        values: ND, DT, DP and the chance of winning a gammon.
        redouble: the cube is above 1 (gnubg then says "redouble").
        beavers: a money game with beavers allowed.

    >>> proper_action(CubeValues(0.713, 1.086, 1.0, 0.0), redouble=True)
    'Redouble, pass'
    >>> proper_action(CubeValues(-0.974, -1.775, 1.0, 0.0), redouble=True)
    'No redouble, take (28.9%)'
    >>> proper_action(CubeValues(1.2, 1.5, 1.0, 0.3), redouble=False)
    'Too good to double, pass (40.0%)'
    >>> proper_action(CubeValues(0.5, 0.6, 1.0, 0.1), redouble=False)
    'Double, take'
    """
    return _action(values, redouble=redouble, beavers=beavers).words


@dataclass(frozen=True, slots=True)
class _Action:
    """One proper action: gnubg's words, and what they say to do."""

    words: str
    double: bool
    take: bool


def _action(values: CubeValues, *, redouble: bool, beavers: bool) -> _Action:
    nd, dt, dp = values.nd, values.dt, values.dp
    verb = "redouble" if redouble else "double"
    beaver = beavers and -2.0 <= dt <= 0.0
    gammons = values.gammon > 0.0
    if dt > nd and dp >= nd:
        if dp > dt:
            if beaver and 2.0 * dt < nd:
                return _Action(f"No {verb}, beaver", double=False, take=True)
            optional = abs(dt - nd) <= OPTIONAL
            return _sentence(optional, verb, "beaver" if beaver else "take")
        return _sentence(abs(dp - nd) <= OPTIONAL and gammons, verb, "pass")
    if nd > dt and dt <= dp:
        if nd > dp:
            return _Action(f"Too good to {verb}, take" if gammons else f"No {verb}, take", double=False, take=True)
        share = f" ({100.0 * (nd - dt) / (dp - dt):.1f}%)" if dp != dt else ""
        return _Action(f"No {verb}, {'beaver' if beaver else 'take'}{share}", double=False, take=True)
    if not gammons:
        return _sentence(False, verb, "pass")
    share = f" ({100.0 * (nd - dp) / (dt - dp):.1f}%)" if nd < dt else ""
    return _Action(f"Too good to {verb}, pass{share}", double=False, take=False)


def _sentence(optional: bool, verb: str, response: str) -> _Action:
    text = f"optional {verb}, {response}" if optional else f"{verb}, {response}"
    return _Action(text[0].upper() + text[1:], double=True, take=response != "pass")


def verdict(values: CubeValues, level: str, *, redouble: bool, beavers: bool = False) -> CubeVerdict:
    """The full :class:`CubeVerdict` for ``values``: the proper action decided once, and
    ``double`` and ``take`` read from it (so that the words and the flags never disagree).

    >>> v = verdict(CubeValues(0.713, 1.086, 1.0, 0.0), "2ply", redouble=True)
    >>> v.proper, v.double, v.take, round(v.costs["no double"], 3), round(v.costs["take"], 3)
    ('Redouble, pass', True, False, 0.287, 0.086)

    At a tie (a sure win with no gammons: no double and double/pass both 1.0)
    gnubg's words are "Double, pass", and so are the flags:

    >>> v = verdict(CubeValues(1.0, 2.0, 1.0, 0.0), "1ply", redouble=False)
    >>> v.proper, v.double, v.take, v.costs["no double"], v.costs["double"]
    ('Double, pass', True, False, 0.0, 0.0)
    """
    nd, dt, dp = values.nd, values.dt, values.dp
    answers = {"take": -dt, "pass": -dp}
    if beavers:
        answers["beaver"] = -2.0 * dt
    answer = max(answers, key=lambda a: answers[a])
    doubled = -answers[answer]
    best = max(nd, doubled)
    costs = {"no double": best - nd, "double": best - doubled}
    costs.update({action: answers[answer] - value for action, value in answers.items()})
    action = _action(values, redouble=redouble, beavers=beavers)
    return CubeVerdict(
        no_double=nd,
        double_take=dt,
        double_pass=dp,
        proper=action.words,
        double=action.double,
        take=action.take,
        costs=costs,
        level=level,
        chances=values.probs,
    )


def not_available(state: State) -> str | None:
    """Why the side on roll may not double, or None when it may.

    >>> not_available(State(2, "player", 3, 5, False, False)) is None
    True
    >>> not_available(State(1, "centered", 1, 4, True, False))
    'the Crawford game: no doubling'
    >>> not_available(State(2, "player", 2, 4, False, False))
    'the cube (2) already wins the match for the side on roll: it is dead'
    """
    if state.owner == "opponent":
        return "the opponent owns the cube"
    if state.money:
        return None
    if state.crawford:
        return "the Crawford game: no doubling"
    if state.cube >= state.away1:
        return f"the cube ({state.cube}) already wins the match for the side on roll: it is dead"
    return None


def cube_verdict(decision: DecisionInput, level: str = AUTO, threads: int = 1) -> CubeVerdict:
    """The engine's verdict on the cube decision before ``decision``'s roll, at ``level``.

    Args:
        decision: the position and match state (``dice`` and ``played`` are ignored).
        level: ``1ply``, ``2ply``, ``3ply`` or ``auto`` (which judges one
            position at :data:`~tabla_cli.analysis.engine.ONE_POSITION_LEVEL`).
        threads: threads of the engine's C++ core (0 = every core).

    Raises:
        UnknownLevelError: ``level`` is not offered.
        CubeNotAvailableError: the side on roll may not double (says why).
        TablaError: a variant the engine does not evaluate.
    """
    level = one_position_level(level)
    if decision.variant not in ANALYSABLE_VARIANTS:
        raise TablaError(f"the engine evaluates backgammon and nackgammon, not {decision.variant}")
    state = State.of(decision)
    reason = not_available(state)
    if reason is not None:
        raise CubeNotAvailableError(f"no cube decision: {reason}")
    with collector_paused():
        (values,) = cube_batch([state.cube_input(to_board(decision.position))], level, threads, state.jacoby)
    clear_caches()
    return verdict(values, level, redouble=state.cube > 1, beavers=state.beavers)
