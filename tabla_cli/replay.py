"""Replay a match against the rules: every roll, play, cube action and result.

The replay is the one owner of game state: turn, cube (value, owner, pending
double, beaver and raccoon), score, Crawford and the position. :func:`replay`
hands each step to a :class:`~tabla_cli.visitor.BaseVisitor`;
:func:`replay_match` is the visitor that collects the findings and results.

It never raises on a bad transcript: everything it finds is a
:class:`~tabla_cli.findings.Finding`. After the first error in a game it goes
on from the position the recorded play leads to (what the players saw); when
that play cannot even be applied, the rest of the game is skipped with one
``unchecked`` note. The recorded ``Wins`` always count for the score.

The cube (:class:`~tabla_cli.cube.Cube`) is the one state machine of
doubles, takes, drops, beavers and raccoons; the replay asks it what each
cube action is worth and reports what it refuses. A written value that
differs from the cube's is reported (``cube-value``) but the cube's value is
the one that counts.

Results: :mod:`tabla_cli.results` holds what the replay establishes
(:class:`GameResult`, :class:`MatchResult`) and the rules that judge a
``Wins`` line; the running score goes on from what is written.
"""

from __future__ import annotations

import itertools
from typing import TypeVar

from tabla_cli.board import Dice, Play, Player, Position
from tabla_cli.cube import Cube
from tabla_cli.errors import InvalidPlayError, UnknownScoringError
from tabla_cli.findings import Code, Finding
from tabla_cli.match_state import MatchScore, away
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.notation import format_play, format_play_plain, parse_play
from tabla_cli.results import (
    Decision,
    EndedBy,
    GameResult,
    MatchResult,
    cube_in_play,
    judge_kind,
    mismatch,
    session_kind,
    win_values,
)
from tabla_cli.scoring import Scoring, find_scoring
from tabla_cli.variant import Variant, find_variant
from tabla_cli.variants.common import TablaVariant, VariantResolution
from tabla_cli.visitor import SKIP, BaseVisitor, DecisionState, Wants
from tabla_cli.written import legal_plays, mark_problem

__all__ = ["Decision", "GameResult", "MatchResult", "replay", "replay_match", "session_kind"]

T = TypeVar("T")

_ANSWERS = frozenset((ActionKind.TAKE, ActionKind.DROP, ActionKind.BEAVER, ActionKind.RACCOON, ActionKind.RESIGN))
_RESULTS = frozenset((ActionKind.WIN, ActionKind.LOSS))


class _GameReplay:
    """The state machine of one game."""

    def __init__(self, replay: _MatchReplay, game: Game, result: GameResult, start: Position, variant: Variant) -> None:
        self.r = replay
        self.v = replay.visitor
        self.wants_roll = replay.wants_roll
        self.wants_move = replay.wants_move
        self.variant = variant
        # Variants with the standard board keep the standard notation (and its speed).
        standard = variant.has_gnubg_ids
        self.parse = parse_play if standard else variant.parse_play
        self.format = format_play if standard else variant.format_play
        self.game = game
        self.res = result
        self.pos = start
        self.side = Player.ZERO
        self.turn: Player | None = None
        self.over: tuple[EndedBy, Player] | None = None
        self.after_end_reported = False
        self.stopped = False
        self.cube_warned = False
        self.doubled = False  # a double since the last roll
        # Hit marks ('*') are expected once the transcript has used one: in this game or an earlier one.
        if not replay.marks:
            replay.marks = any("*" in (a.play_text or "") for a in game.actions if a.kind is ActionKind.ROLL)
        self.marks = replay.marks
        match = replay.match
        self.cube = Cube(match.rules, match.length, *(game.start_cube or (1, None)))
        self.jacoby = not match.length and match.rules.jacoby

    def state(
        self,
        action: Action | None,
        on_roll: Player,
        actor: Player,
        doubled: bool = False,
        opening: bool = False,
        may_double: bool = False,
    ) -> DecisionState:
        """The state before ``action``, with the position seen from ``on_roll``."""
        res = self.res
        match = self.r.match
        cube = self.cube
        pos = self.pos if self.side == on_roll else self.pos.flip()
        return DecisionState(
            position=pos,
            on_roll=on_roll,
            actor=actor,
            cube=cube.value,
            cube_owner=cube.owner,
            doubled=doubled,
            score=res.score,
            length=match.length,
            crawford=res.crawford,
            post_crawford=res.post_crawford,
            jacoby=self.jacoby,
            beavers=cube.beavers,
            cube_limit=match.rules.cube_limit,
            variant=self.variant,
            game=self.game.number,
            move=action.move_number if action else None,
            opening=opening,
            may_double=may_double,
        )

    def answer_state(self, action: Action) -> DecisionState:
        """The state before an answer to a double: seen from the doubler, the double pending."""
        return self.state(action, self.cube.seen_from(action.player), action.player, True)

    # --- helpers ------------------------------------------------------------

    def finding(self, code: str, message: str, action: Action | None, **extra: object) -> None:
        loc = action.location if action else self.game.location
        player = self.r.match.players[action.player] if action else None
        self.r.add(
            Finding(
                code,
                message,
                loc,
                game=self.game.number,
                move=action.move_number if action else None,
                player=player,
                dice=action.dice if action else None,
                **extra,  # type: ignore[arg-type]
            )
        )

    # --- actions ------------------------------------------------------------

    def run(self) -> None:
        if self.v.begin_game(self.game, self.state(None, Player.ZERO, Player.ZERO)) is SKIP:
            self.skip()
            return
        actions = self.game.actions
        trailing = self.game.trailing_roll
        for i, action in enumerate(actions):
            kind = action.kind
            if trailing is not None and kind in _RESULTS:
                self.trailing(trailing)
                trailing = None
            if kind is ActionKind.LOSS:
                self.loss(action)
                continue
            if kind is ActionKind.WIN:
                self.win(action)
                continue
            self.act(action, actions, i)
        if trailing is not None:
            self.trailing(trailing)
        if self.res.winner is None:
            self.unfinished()
        self.settle_cube()

    def trailing(self, action: Action) -> None:
        """A roll written without moves after the last move (:attr:`~tabla_cli.model.Game.trailing_roll`).

        It is a dance when the game goes on and no play is possible with it;
        otherwise it is the roll that was pending when the file was saved (the
        game was over, or the roll was still to be played), and is left out.
        """
        dice = action.dice
        if self.stopped or self.over is not None or dice is None:
            return
        if all(1 <= die <= 6 for die in dice):
            pos = self.pos if self.side == action.player else self.pos.flip()
            if self.variant.resolve_play(pos, dice, ()).error is not None:
                return  # a play was possible: the roll was still to be played
        self.act(action, [action], 0)

    def act(self, action: Action, actions: list[Action], i: int) -> None:
        """Replay ``action``, the ``i``-th of ``actions`` (anything but a result)."""
        kind = action.kind
        if self.stopped:
            if self.r.wants_unchecked:
                self.v.visit_unchecked(action)
            return
        if self.over is not None:
            if not self.after_end_reported:
                self.after_end_reported = True
                self.finding(Code.ACTION_AFTER_END, f"{kind.value} after the game ended", action)
            if self.r.wants_unchecked:
                self.v.visit_unchecked(action)
            return
        pending = self.cube.pending
        if pending is not None and kind not in _ANSWERS:
            doubler = self.r.match.players[pending]
            self.finding(Code.UNANSWERED_DOUBLE, f"{doubler}'s double is neither taken nor dropped", action)
            self.take(pending.other)
        if kind is ActionKind.ROLL:
            self.roll(action, actions, i)
        elif kind is ActionKind.DOUBLE:
            self.double(action)
        elif kind is ActionKind.TAKE:
            self.answer(action)
        elif kind is ActionKind.DROP:
            if self.answer(action):
                assert self.cube.pending is not None
                self.over = ("drop", self.cube.pending)
                self.cube.cancel()
        elif kind is ActionKind.BEAVER or kind is ActionKind.RACCOON:
            self.beaver(action)
        elif kind is ActionKind.SETUP:
            self.set_up(action)
        elif kind is ActionKind.RESIGN:
            if self.r.wants_resign:
                self.v.visit_resign(self.state(action, action.player, action.player), action)
            self.cube.cancel()
            self.over = ("resign", action.player.other)

    def set_up(self, action: Action) -> None:
        """A set-up inside the game (:attr:`~tabla_cli.model.Action.setup`): the next decision starts from
        the board and the cube it sets, whoever acts next."""
        setup = action.setup
        if setup is None:
            return
        if setup.position is not None:
            self.pos = setup.position if self.side is Player.ZERO else setup.position.flip()
        cube = self.cube
        if setup.cube is not None:
            cube.value = setup.cube
        if setup.owner_set:
            cube.owner = setup.owner
        self.turn = None
        self.doubled = False
        pos = self.pos if self.side is Player.ZERO else self.pos.flip()
        names = self.r.match.players
        said = []
        if setup.position is not None:
            board = f"Position ID {pos.position_id()}" if self.variant.has_gnubg_ids else "the board"
            said.append(f"{board} ({names[0]} on roll)")
        if setup.cube is not None or setup.owner_set:
            owner = "centred" if cube.owner is None else f"owned by {names[cube.owner]}"
            said.append(f"the cube at {cube.value}, {owner}")
        self.r.add(
            Finding(Code.POSITION_SET, f"set by hand: {' and '.join(said)}", action.location, game=self.game.number)
        )
        if self.r.wants_setup:
            self.v.visit_setup(self.state(action, Player.ZERO, Player.ZERO), action)

    def settle_cube(self) -> None:
        """Put the cube as it stands into the game's result."""
        self.res.cube, self.res.cube_owner = self.cube.value, self.cube.owner

    def skip(self) -> None:
        """Count a skipped game's recorded result, without replaying it."""
        self.res.checked = False
        self.settle_cube()
        for action in self.game.actions:
            if action.kind is ActionKind.WIN and self.res.winner is None:
                self.res.winner, self.res.points = action.player, action.value or 0
                self.res.verified_points = self.res.points
                self.res.match_won = self.wins_match(action.player, self.res.points)

    def roll(self, action: Action, actions: list[Action], i: int) -> None:
        player = action.player
        if self.turn is not None and player != self.turn:
            self.finding(Code.WRONG_TURN, f"it is {self.r.match.players[self.turn]}'s turn", action)
        self.turn = player
        if self.side != player:
            self.pos = self.pos.flip()
            self.side = player
        cube = self.cube
        cube.doubler = None
        dice = action.dice
        assert dice is not None
        res = self.res
        first = res.rolls == 0
        state = None
        if self.wants_roll:
            may_double = (
                not self.doubled
                and cube.refusal(player, res.crawford) is None
                and cube.value * 2 <= self.r.match.rules.cube_limit
            )
            state = self.state(action, player, player, opening=first, may_double=may_double)
        self.doubled = False
        die0, die1 = dice
        if not (1 <= die0 <= 6 and 1 <= die1 <= 6):
            self.finding(Code.INVALID_DICE, f"{die0}-{die1} is not a roll of two dice from 1 to 6", action)
            self.rolled(state, action, None, None)
            self.stop(action)
            return
        res.rolls += 1
        self.r.result.plays += 1
        if (
            first
            and die0 == die1
            and self.game.start is None
            and not self.variant.allows_opening_double(self.game.number)
        ):
            self.finding(Code.OPENING_DOUBLE, f"the opening roll {die0}-{die1} is a double", action)
        text = action.play_text or ""
        if action.resigned or (not text and self._resigns_after(actions, i)):
            if self.r.wants_resign:
                self.v.visit_resign(state or self.state(action, action.player, action.player, opening=first), action)
            self.over = ("resign", action.player.other)
            return
        try:
            segments = self.parse(text)
        except InvalidPlayError as exc:
            self.finding(Code.INVALID_PLAY, exc.message, action, play=text, **self.ids(dice))
            self.rolled(state, action, None, None)
            self.stop(action)
            return
        variant = self.variant
        resolution = variant.resolve_play(self.pos, dice, segments)
        play: Play | None = None
        if resolution.error is None:
            assert resolution.result is not None and resolution.play is not None
            play = resolution.play
            if resolution.alternatives > 1 and not self.marks and not self.r.match.marks_hits:
                self.finding(
                    Code.AMBIGUOUS_PLAY,
                    f"'{text}' could mean {resolution.alternatives} different plays (the transcript marks no "
                    f"hits); read as {format_play_plain(play)}, a die at a time, the one that hits nothing on the way",
                    action,
                    play=text,
                )
            if self.marks or "*" in text:
                problem = mark_problem(segments, play, text, self.marks)
                if problem is not None:
                    self.finding(*problem, action, play=text)
            after = resolution.result
        else:
            code = resolution.code if isinstance(resolution, VariantResolution) else Code.ILLEGAL_PLAY
            # When the search gave up ("unchecked") there is no list of legal plays either.
            applied = variant.apply_written(self.pos, segments)
            shown = () if code == Code.UNCHECKED else legal_plays(variant, self.pos, dice, self.format, applied)
            self.finding(code, resolution.error, action, play=text, legal=shown, **self.ids(dice))
            if applied is None:
                self.rolled(state, action, None, None)
                self.stop(action)
                return
            after = applied
        if state is not None:
            self.v.visit_roll(state, action, play, after)
        if self.wants_move:
            self.v.visit_move(action, after)
        if variant.is_over(after):
            multiplier = self.r.scoring.value(variant, after)
            self.over = ("bearoff" if multiplier else "draw", player)
            res.multiplier = multiplier or None
        self.pos = after.flip()
        self.side = self.turn = player.other

    def rolled(self, state: DecisionState | None, action: Action, play: Play | None, after: Position | None) -> None:
        """Tell the visitor about a roll (``state`` is None when it does not want :meth:`visit_roll`)."""
        if state is not None:
            self.v.visit_roll(state, action, play, after)
        if self.wants_move:
            self.v.visit_move(action, after)

    def _resigns_after(self, actions: list[Action], i: int) -> bool:
        for j in range(i + 1, len(actions)):  # no slice: a copy of the rest at every roll is quadratic
            nxt = actions[j]
            if nxt.kind is ActionKind.LOSS:
                continue
            return nxt.kind is ActionKind.WIN and nxt.player != actions[i].player
        return False

    def stop(self, action: Action) -> None:
        self.stopped = True
        self.finding(
            Code.UNCHECKED, "the recorded play cannot be applied; the rest of this game is not checked", action
        )

    def double(self, action: Action) -> None:
        names = self.r.match.players
        cube = self.cube
        state = self.state(action, action.player, action.player) if self.r.wants_cube else None
        if self.turn is None and self.game.start is not None:
            self.turn = action.player  # a set-up position: the side that acts first is on roll
        refusal = cube.refusal(action.player, self.res.crawford)
        if self.turn is None:
            self.finding(Code.ILLEGAL_DOUBLE, "a double before the opening roll", action)
        elif action.player != self.turn:
            self.finding(Code.WRONG_TURN, f"it is {names[self.turn]}'s turn", action)
        elif refusal == "crawford":
            self.finding(Code.CRAWFORD_DOUBLE, "no double is allowed in the Crawford game", action, **self.ids(None))
        elif refusal == "owned":
            assert cube.owner is not None
            self.finding(Code.ILLEGAL_DOUBLE, f"the cube belongs to {names[cube.owner]}", action, **self.ids(None))
        elif refusal == "no-cube":
            self.finding(Code.ILLEGAL_DOUBLE, "this match is played without a cube", action)
        elif issubclass(self.variant, TablaVariant) and not self.r.cube_in_play and not self.cube_warned:
            self.cube_warned = True
            self.finding(
                Code.UNTRADITIONAL_CUBE,
                f"{self.variant.name} is traditionally played without a doubling "
                "cube, and the transcript does not say one is in play (a Cube or CubeLimit header)",
                action,
            )
        problem = cube.value_problem(action.value)
        if problem is not None:
            self.finding(Code.CUBE_VALUE, problem, action)
        offered = cube.double(action.player)
        self.doubled = True
        self.turn = action.player.other
        if state is not None:
            self.v.visit_cube(state, action, state.cube, offered, state.cube_owner)

    def answer(self, action: Action) -> bool:
        cube = self.cube
        state = self.answer_state(action) if self.r.wants_cube else None
        answered = cube.answers(action.player)
        if not answered:
            self.finding(Code.UNEXPECTED_ANSWER, f"{action.kind.value} with no double to answer", action)
        elif action.kind is ActionKind.TAKE:
            self.take(action.player)
        if action.kind is ActionKind.DROP:
            cube.drop()
        if state is not None:
            self.v.visit_cube(state, action, state.cube, cube.value, cube.owner)
        return answered

    def take(self, taker: Player) -> None:
        self.cube.take(taker)
        self.turn = taker.other

    def beaver(self, action: Action) -> None:
        match = self.r.match
        cube = self.cube
        state = self.answer_state(action) if self.r.wants_cube else None
        if not cube.beaver_answers(action.player) or self.over is not None:
            self.finding(Code.UNEXPECTED_ANSWER, f"{action.kind.value} with no double to answer", action)
            if state is not None:
                self.v.visit_cube(state, action, state.cube, state.cube, state.cube_owner)
            return
        if not cube.beavers:
            self.finding(
                Code.ILLEGAL_BEAVER,
                f"{action.kind.value} is not allowed here ({'match play' if match.length else 'beavers are off'})",
                action,
            )
        before, value, self.turn = cube.beaver(action.player, action.value)
        if state is not None:
            self.v.visit_cube(state, action, before, value, action.player)

    # --- results ------------------------------------------------------------

    def loss(self, action: Action) -> None:
        """``Losses N``: a forfeit when the game is not over yet (or only resigned), else a repeat of the result."""
        if self.r.wants_result_line:
            self.v.visit_result_line(self.state(action, action.player, action.player), action, self.res)
        if self.res.winner is not None or (self.over is not None and self.over[0] != "resign"):
            return
        names = self.r.match.players
        self.cube.cancel()
        self.over = ("forfeit", action.player.other)
        self.finding(
            Code.FORFEIT,
            f"{names[action.player]} resigns ('Losses {action.value or 0}', Backgammon Galaxy's line for a "
            f"resignation) before the game is over; {names[action.player.other]} gets what the result line says",
            action,
        )

    def win(self, action: Action) -> None:
        names = self.r.match.players
        winner = action.player
        points = action.value or 0
        res = self.res
        if res.winner is not None:
            self.finding(Code.ACTION_AFTER_END, "a second result for this game", action)
            if self.r.wants_result_line:
                self.v.visit_result_line(self.state(action, winner, winner), action, res)
            return
        cube = self.cube.value
        over = self.over or self._unannounced_end(action)
        how, credited = over
        if how == "draw":
            if not self.stopped:
                self.finding(
                    Code.RESULT_MISMATCH, f"'Wins {points}' after a drawn game (both mother checkers pinned)", action
                )
            res.winner, res.points, res.ended_by = winner, points, how
            res.verified_points = points if self.stopped else None
            res.match_won = self.wins_match(winner, points)
            if self.r.wants_result:
                self.settle_cube()
                self.v.visit_result(self.state(action, winner, winner), action, res)
            return
        if winner != credited and not self.stopped:
            self.finding(Code.WRONG_WINNER, f"{names[credited]} won this game, not {names[winner]}", action)
        length = self.r.match.length
        needed = away(length, res.score, winner)
        jacoby = not length and not self.cube.turned and self.r.match.rules.jacoby
        # On a centred cube the cube alone is right too: in a one-game session, and in money play
        # whose transcript does not say whether the Jacoby rule was on.
        unsaid = not length and not self.r.match.rules.jacoby_said
        single = not self.cube.turned and (self.r.kind == "one-game" or unsaid)
        allowed, res.multiplier = win_values(
            how, points, cube, res.multiplier, self.r.scoring, needed, jacoby=jacoby, single=single
        )
        full = max(allowed)
        verified: int | None = points
        if points not in allowed and not self.stopped:
            if length and needed <= points < full:
                self.finding(
                    Code.CAPPED_WIN,
                    f"wins {points} where the game is worth {full}: a final win capped "
                    f"between the points needed ({needed}) and the match length ({length})",
                    action,
                )
            else:
                verified = full if how in ("bearoff", "drop") and len(allowed) == 1 else None
                self.finding(Code.RESULT_MISMATCH, mismatch(how, points, allowed, cube, res.multiplier), action)
        res.winner = winner
        res.points = points
        res.verified_points = verified
        res.ended_by = how
        res.match_won = self.wins_match(winner, points)
        self.over = over
        if self.r.wants_result:
            self.settle_cube()
            self.v.visit_result(self.state(action, winner, winner), action, res)

    def wins_match(self, winner: Player, points: int) -> bool:
        """Whether ``points`` take ``winner`` from below the match length to it."""
        return 0 < away(self.r.match.length, self.res.score, winner) <= points

    def _unannounced_end(self, action: Action) -> tuple[EndedBy, Player]:
        """How a game ended when a ``Wins`` line comes without a finish: a resignation."""
        pending = self.cube.pending
        if pending is not None:
            doubler = self.r.match.players[pending]
            self.finding(Code.UNANSWERED_DOUBLE, f"{doubler}'s double is neither taken nor dropped", action)
            return ("drop", pending)
        return ("resign", action.player)

    def unfinished(self) -> None:
        if self.over is not None and self.over[0] == "draw":
            self.res.ended_by = "draw"
            return
        if self.over is not None and not self.stopped and not self.game.cut:
            how, winner = self.over
            self.finding(
                Code.MISSING_RESULT,
                f"the game ended ({how}) but no 'Wins' line says what {self.r.match.players[winner]} won",
                None,
            )

    def ids(self, dice: Dice | None) -> dict[str, str]:
        if not self.variant.has_gnubg_ids:
            return {}
        state = self.state(None, self.side, self.side)
        ids = {"position_id": state.position_id()}
        match_id = state.match_id_or_none(dice, playing=True)
        if match_id is not None:
            ids["match_id"] = match_id
        return ids


class _MatchReplay:
    def __init__(self, match: Match, visitor: BaseVisitor[T]) -> None:
        self.match = match
        self.visitor: BaseVisitor[object] = visitor  # type: ignore[assignment]
        wants = visitor.wants
        self.wants_roll = Wants.ROLL in wants
        self.wants_move = Wants.MOVE in wants
        self.wants_cube = Wants.CUBE in wants
        self.wants_resign = Wants.RESIGN in wants
        self.wants_result = Wants.RESULT in wants
        self.wants_unchecked = Wants.UNCHECKED in wants
        self.wants_result_line = Wants.RESULT_LINE in wants
        self.wants_setup = Wants.SETUP in wants
        self.wants_finding = Wants.FINDING in wants
        # The first two games tell a one-game session and a transcript starting at a score; the
        # others are read as they come (a match read game by game).
        self.games = match.iter_games()
        self.ahead = list(itertools.islice(self.games, 2))
        self.kind = judge_kind(match, self.ahead[0] if self.ahead else None, len(self.ahead) == 1)
        self.unknown_scoring: UnknownScoringError | None = None
        try:
            self.scoring: Scoring = find_scoring(match.rules.scoring)
        except UnknownScoringError as exc:
            self.scoring = find_scoring("standard")
            self.unknown_scoring = exc
        self.cube_in_play = cube_in_play(match)
        self.result = MatchResult(match, kind=self.kind, scoring=self.scoring.name)
        self.variant: Variant = find_variant(match.variant)
        self.marks = False
        self.told = 0  # match.findings reported

    def tell(self) -> None:
        """Report what the reader noticed (``match.findings``) since the last call."""
        findings = self.match.findings
        while self.told < len(findings):
            self.told += 1
            self.add(findings[self.told - 1])

    def add(self, finding: Finding) -> None:
        self.result.findings.append(finding)
        if self.wants_finding:
            self.visitor.visit_finding(finding)

    def run(self) -> MatchResult:
        match = self.match
        if self.visitor.begin_match(match) is SKIP:
            return self.result
        self.tell()
        if self.unknown_scoring is not None:
            message = f"{self.unknown_scoring}; scored as {self.scoring.name}"
            self.add(Finding(Code.UNKNOWN_SCORING, message, match.location))
        length = match.length
        state = MatchScore(length, match.rules.crawford)
        first = 1
        # A transcript that starts at a score is a game of a match (gnubg exports each game
        # to a file of its own: match_002.txt is game 2), not an incomplete match; so is a
        # set-up position (a position export), whatever its score.
        opening = self.ahead[0] if self.ahead else None
        part = opening is not None and (opening.number > 1 or tuple(opening.score) != (0, 0))
        if opening is not None and (opening.number > 1 or opening.start is not None):
            first = opening.number
            state.score = opening.score
        cut = False  # the game before was cut short by a syntax error, its result unknown
        for index, game in enumerate(itertools.chain(self.ahead, self.games), start=first):
            self.tell()
            score = state.score
            if game.number != index:
                self.add(
                    Finding(
                        Code.GAME_NUMBER,
                        f"game {game.number} where game {index} was expected",
                        game.location,
                        game=game.number,
                    )
                )
            if cut or (game.cut and not game.actions):
                # One error per mistake: the score line after a cut game is taken as it is; a cut
                # game with no actions may have had its score line be the line that failed.
                if not game.cut or game.actions:
                    state.score = (game.score[0], game.score[1])
            elif tuple(game.score) != score and not (game.score_unordered and tuple(game.score[::-1]) == score):
                self.add(
                    Finding(
                        Code.SCORE_MISMATCH,
                        f"the score line says {game.score[0]}-{game.score[1]}, "
                        f"but the games before make it {score[0]}-{score[1]}",
                        game.location,
                        game=game.number,
                    )
                )
                state.score = (game.score[0], game.score[1])
            if state.over:
                self.add(Finding(Code.GAME_AFTER_MATCH, "the match was already over", game.location, game=game.number))
            crawford, post_crawford = state.begin_game(game.crawford)
            result = GameResult(game.number, state.score, crawford, post_crawford)
            variant = self.variant if game.variant is None else find_variant(game.variant)
            start = variant.start_position() if game.start is None else variant.position_from(game.start)
            _GameReplay(self, game, result, start, variant).run()
            self.result.games.append(result)
            self.visitor.end_game(result)
            cut = game.cut and result.winner is None
            if result.winner is not None and result.points:
                state.award(result.winner, result.points)
        self.tell()
        self.result.final_score = score = state.score
        if state.winner is not None:
            self.result.winner = Player(state.winner)
        elif self.kind == "one-game" and self.result.games:
            self.result.winner = self.result.games[0].winner
        if length and state.winner is None and not part and self.kind == "match" and not cut:
            self.add(
                Finding(
                    Code.MATCH_INCOMPLETE,
                    f"the transcript stops at {score[0]}-{score[1]} in a {length}-point match",
                    match.location,
                )
            )
        self.visitor.end_match(self.result)
        return self.result


def replay(match: Match, visitor: BaseVisitor[T]) -> T:
    """Replay ``match``, calling ``visitor`` at every step; returns ``visitor.result()``."""
    _MatchReplay(match, visitor).run()
    return visitor.result()


class _Results(BaseVisitor[MatchResult]):
    """The findings and game results (what :func:`replay_match` returns)."""

    match_result: MatchResult | None = None

    def end_match(self, match_result: MatchResult) -> None:
        self.match_result = match_result

    def result(self) -> MatchResult:
        assert self.match_result is not None
        return self.match_result


def replay_match(match: Match) -> MatchResult:
    """Replay ``match`` and return its findings and game results."""
    return replay(match, _Results())
