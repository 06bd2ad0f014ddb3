"""Every replay visitor sees the same game: cube, owner, positions and scores agree after every action."""

from __future__ import annotations

import dataclasses
import io
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabla_cli.analysis.decisions import AnalysisOptions, DecisionsVisitor
from tabla_cli.board import Play, Player, Position
from tabla_cli.check import CheckVisitor, FileReport
from tabla_cli.errors import Location, TablaError
from tabla_cli.findings import Finding
from tabla_cli.formats.mat import read_matches
from tabla_cli.ids import decode_match_id
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.reader import read_path_matches
from tabla_cli.replay import GameResult, replay, replay_match
from tabla_cli.reports.rows import FileRows, RowsVisitor
from tabla_cli.reports.schema import INDEX
from tabla_cli.visitor import SKIP, BaseVisitor, DecisionState, Skip, Tee, Wants
from tabla_cli.writers.mat import MatWriter
from tabla_cli.writers.positions import PositionsVisitor

from helpers import DATA, replayed_decisions, transcript_files

ZERO, ONE = Player.ZERO, Player.ONE


@dataclass(frozen=True)
class Step:
    """What the replay said at one action."""

    kind: str
    game: int
    cube: int
    owner: Player | None
    score: tuple[int, int]
    position: Position
    on_roll: Player
    crawford: bool
    after: tuple[int, Player | None] | None = None


class Recorder(BaseVisitor[dict[int, Step]]):
    """Keeps every state the replay hands out, by action."""

    wants = Wants.ROLL | Wants.CUBE | Wants.RESIGN

    def __init__(self) -> None:
        self.steps: dict[int, Step] = {}

    def _keep(
        self, state: DecisionState, action: Action, after: tuple[int, Player | None] | None = None, kind: str = ""
    ) -> None:
        self.steps[id(action)] = Step(
            kind or action.kind.value,
            state.game,
            state.cube,
            state.cube_owner,
            state.score,
            state.position,
            state.on_roll,
            state.crawford,
            after,
        )

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        self._keep(state, action)

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        self._keep(state, action, (cube_after, owner))

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        self._keep(state, action, kind="resign")

    def result(self) -> dict[int, Step]:
        return self.steps


def _matches() -> list[tuple[str, Match]]:
    out = []
    for path in transcript_files():
        try:
            out += [(f"{path.name}#{i}", m) for i, m in enumerate(read_path_matches(path), start=1)]
        except TablaError:
            continue
    return out


MATCHES = _matches()


def test_the_corpus_is_there() -> None:
    kinds = {m.format for _, m in MATCHES}
    assert len(MATCHES) >= 30 and {"mat", "fibs"} <= kinds


def _all_rows(rows: FileRows, name: str) -> list[tuple[object, ...]]:
    """Every row of frame ``name``, those packed into Arrow batches during the replay first."""
    packed = [tuple(row.values()) for batch in rows.batches[name] for row in batch.to_pylist()]
    return packed + [tuple(row) for row in rows.rows[name]]


@pytest.mark.parametrize(("name", "match"), MATCHES, ids=[n for n, _ in MATCHES])
def test_visitors_agree(name: str, match: Match) -> None:
    steps = replay(match, Recorder())
    result, games = replayed_decisions(match)

    # check: the same findings, in the same order, and the same counts
    report = replay(match, CheckVisitor(FileReport(name)))
    assert report.findings == result.findings
    assert (report.matches, report.games, report.plays) == (1, len(result.games), result.plays)

    # the collected decisions: the replay's position and cube before every roll
    for game in games:
        for decision in game:
            step = steps[id(decision.action)]
            assert (decision.position, decision.cube, decision.cube_owner) == (step.position, step.cube, step.owner)

    # the positions CSV: every row the replay followed has its state
    ids = True
    for row in replay(match, PositionsVisitor()):
        step = steps.get(id(row.source))
        if step is None:
            assert row.state is None and row.position is None
            continue
        assert row.state is not None and row.position == step.position and row.on_roll == step.on_roll
        assert (row.state.cube, row.state.cube_owner, row.state.score) == (step.cube, step.owner, step.score)
        if row.position_id:
            assert row.position_id == step.position.position_id()
        ids = ids and bool(row.position_id)

    # the report rows: cube before/after and the scores, pips of every roll (packed batches unpacked)
    rows = FileRows(name)
    replay(match, RowsVisitor(rows, []))
    cube_rows = iter(_all_rows(rows, "cube"))
    play_rows = iter(_all_rows(rows, "plays"))
    col = INDEX["cube"]
    for game in match.games:
        for action in game.actions:
            step = steps.get(id(action))
            if step is None and action.kind is ActionKind.ROLL and action.dice:
                assert next(play_rows)[INDEX["plays"]["replayed"]] is False  # unchecked: dice only
                continue
            if step is None or action.kind is ActionKind.RESIGN:
                continue
            if action.kind is ActionKind.ROLL:
                row = next(play_rows)
                mover, other = step.position.pips()
                assert (row[INDEX["plays"]["pips_before"]], row[INDEX["plays"]["opponent_pips_before"]]) == (
                    mover,
                    other,
                )
                continue
            row = next(cube_rows)
            assert step.after is not None
            assert row[col["cube_after"]] == step.after[0]
            player = action.player
            assert (row[col["score_player"]], row[col["score_opponent"]]) == (
                step.score[player],
                step.score[player.other],
            )
    assert next(cube_rows, None) is None and next(play_rows, None) is None

    # the decisions: the engine's question and the Match ID (read back by the statistics) are the replay's state
    for item in replay(match, DecisionsVisitor(name, AnalysisOptions(recorded=False, cache=False))):
        step = steps[id(item.action)]
        question = item.decision
        assert question is not None
        assert (question.position, question.on_roll, question.cube, question.cube_owner, question.crawford) == (
            step.position,
            step.on_roll,
            step.cube,
            step.owner,
            step.crawford,
        )
        length = match.length
        assert question.away == ((length - step.score[0], length - step.score[1]) if length else (0, 0))
        if item.row["match_id"] is None:
            continue
        said = decode_match_id(item.row["match_id"], strict=False)  # as the statistics read it
        assert (said.score, said.cube, said.cube_owner, said.dice_owner, said.crawford, said.length) == (
            step.score,
            step.cube,
            step.owner,
            step.on_roll,
            step.crawford,
            length,
        )

    # the games: what the replay ended each game with
    by_game = {g[INDEX["games"]["game"]]: g for g in rows.rows["games"]}
    for res in result.games:
        row = by_game[res.number]
        assert (row[INDEX["games"]["cube"]], row[INDEX["games"]["score0"]], row[INDEX["games"]["score1"]]) == (
            res.cube,
            *res.score,
        )

    # the .mat writer: 'and the match' where it is written, and on the result the replay says wins the match
    said = 0
    scores = [res.score for res in result.games[1:]] + [result.final_score]
    for game, res, after in zip(match.games, result.games, scores, strict=True):
        wins = [a for a in game.actions if a.kind is ActionKind.WIN]
        said += sum(a.match_won or (i == 0 and res.match_won) for i, a in enumerate(wins))
        if res.match_won:
            assert res.winner is not None and res.score[res.winner] < match.length <= after[res.winner]
    assert replay(match, MatWriter()).count(" and the match\n") == said


MONEY = """\
 0 point match

 Game 1
 Ann : 0                             Bob : 0
  1) 31: 8/5 6/5                     Doubles => 2
  2) {answer}
  3)                                 64: 24/18 13/9
  4) 52: 13/8 13/11
"""


def _money(answer: str) -> Match:
    """The money game with ``answer``; a value written ``?`` is left out (as JSON and SGF may)."""
    match = next(read_matches(io.StringIO(MONEY.format(answer=answer.replace("?", "2")))))
    if "?" in answer:
        game = match.games[0]
        actions = [
            dataclasses.replace(a, value=None) if a.kind in (ActionKind.BEAVER, ActionKind.RACCOON) else a
            for a in game.actions
        ]
        match = dataclasses.replace(match, games=[dataclasses.replace(game, actions=actions)])
    return match


def _cube_steps(answer: str) -> list[tuple[str, Player, int, int, Player | None]]:
    match = _money(answer)

    class Cubes(BaseVisitor[list[tuple[str, Player, int, int, Player | None]]]):
        wants = Wants.CUBE

        def __init__(self) -> None:
            self.seen: list[tuple[str, Player, int, int, Player | None]] = []

        def visit_cube(
            self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
        ) -> None:
            self.seen.append((action.kind.value, state.on_roll, cube_before, cube_after, owner))

        def result(self) -> list[tuple[str, Player, int, int, Player | None]]:
            return self.seen

    return replay(match, Cubes())


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Takes", [("take", ONE, 1, 2, ZERO)]),
        ("Beavers => 4", [("beaver", ONE, 2, 4, ZERO)]),
        ("Beavers => ?", [("beaver", ONE, 2, 4, ZERO)]),
        ("Beavers => 4                      Raccoons => 8", [("beaver", ONE, 2, 4, ZERO), ("raccoon", ONE, 4, 8, ONE)]),
        ("Beavers => ?                      Raccoons => ?", [("beaver", ONE, 2, 4, ZERO), ("raccoon", ONE, 4, 8, ONE)]),
    ],
)
def test_beaver_and_raccoon_with_and_without_values(answer: str, expected: list[object]) -> None:
    steps = _cube_steps(answer)
    assert steps[0] == ("double", ONE, 1, 2, None)
    assert steps[1:] == expected
    match = _money(answer)
    games = FileRows("m")
    replay(match, RowsVisitor(games, []))
    cube = [(r[INDEX["cube"]["action"]], r[INDEX["cube"]["cube_after"]]) for r in games.rows["cube"]]
    assert cube == [(kind, after) for kind, _, _, after, _ in steps]
    final = replay_match(match).games[0]
    assert (final.cube, final.cube_owner) == (steps[-1][3], steps[-1][4])


def test_skip_a_game_keeps_its_score() -> None:
    match = next(read_matches(io.StringIO((DATA / "mat" / "spec-3pt-gnubg.mat").read_text())))

    class OnlyGame2(BaseVisitor[list[int]]):
        wants = Wants.ROLL

        def __init__(self) -> None:
            self.games: list[int] = []
            self.rolls: set[int] = set()

        def begin_game(self, game: Game, state: DecisionState) -> Skip | None:
            return None if game.number == 2 else SKIP

        def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
            self.rolls.add(state.game)

        def end_game(self, game_result: GameResult) -> None:
            self.games.append(game_result.number)

        def result(self) -> list[int]:
            return sorted(self.rolls)

    visitor = OnlyGame2()
    assert replay(match, visitor) == [2]
    assert visitor.games == [g.number for g in match.games]


def test_findings_reach_the_visitor_as_they_are_made() -> None:
    text = MONEY.format(answer="Takes").replace("8/5 6/5", "8/5 6/4")

    class Findings(BaseVisitor[list[Finding]]):
        wants = Wants.FINDING

        def __init__(self) -> None:
            self.found: list[Finding] = []

        def visit_finding(self, finding: Finding) -> None:
            self.found.append(finding)

        def result(self) -> list[Finding]:
            return self.found

    match = next(read_matches(io.StringIO(text)))
    found = replay(match, Findings())
    assert [f.code for f in found] == [f.code for f in replay_match(match).findings]
    assert found[0].code == "illegal-play"


class _BeaverRule(BaseVisitor[list[tuple[str, bool, bool]]]):
    """Each beaver and raccoon: its kind, whether the state said beavers are allowed, and whether it was refused."""

    wants = Wants.CUBE | Wants.FINDING

    def __init__(self) -> None:
        self.seen: list[tuple[str, bool, Action]] = []
        self.refused: set[Location] = set()

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        if action.kind in (ActionKind.BEAVER, ActionKind.RACCOON):
            self.seen.append((action.kind.value, state.beavers, action))

    def visit_finding(self, finding: Finding) -> None:
        if finding.code == "illegal-beaver":
            self.refused.add(finding.location)

    def result(self) -> list[tuple[str, bool, bool]]:
        return [(kind, allowed, action.location in self.refused) for kind, allowed, action in self.seen]


def _with_header(header: str | None, length: int = 0) -> Match:
    text = MONEY.format(answer="Beavers => 4").replace("0 point match", f"{length} point match")
    if header is not None:
        text = f'; [Beaver "{header}"]\n' + text
    return next(read_matches(io.StringIO(text)))


def test_a_money_mat_without_a_beaver_header_allows_beavers_and_says_so() -> None:
    """Regression: the replay accepted the beaver while every visitor was told beavers=False."""
    assert replay(_with_header(None), _BeaverRule()) == [("beaver", True, False)]
    assert replay_match(_with_header(None)).findings == []


@pytest.mark.parametrize(
    ("header", "length", "allowed"),
    [
        (None, 0, True),
        ("On", 0, True),
        ("yes", 0, True),
        ("Off", 0, False),
        ("No", 0, False),
        ("0", 0, False),
        (None, 3, False),
        ("On", 3, False),
    ],
)
def test_the_beaver_rule_has_one_source(header: str | None, length: int, allowed: bool) -> None:
    match = _with_header(header, length)
    assert match.rules.beavers(length) is allowed
    assert replay(match, _BeaverRule()) == [("beaver", allowed, not allowed)]


_ANSWERS = (
    "Takes",
    "Drops",
    "Beavers => 4",
    "Beavers => 8",
    "Raccoons => 8",
    "Beavers => 4                      Raccoons => 8",
    "Beavers => 4                      Takes",
)


class _States(_BeaverRule):
    """Every state a visitor is given, and the locations of the findings."""

    wants = Wants.ROLL | Wants.CUBE | Wants.FINDING

    def __init__(self) -> None:
        super().__init__()
        self.states: list[DecisionState] = []
        self.found: dict[Location, set[str]] = {}

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        self.states.append(state)

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        super().visit_cube(state, action, cube_before, cube_after, owner)
        self.states.append(state)

    def visit_finding(self, finding: Finding) -> None:
        super().visit_finding(finding)
        self.found.setdefault(finding.location, set()).add(finding.code)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from((None, "On", "Off", "no", "TRUE", "maybe")),
    st.sampled_from((None, "On", "Off")),
    st.sampled_from((0, 0, 3, 5)),
    st.sampled_from(_ANSWERS),
)
def test_every_visitor_state_agrees_with_what_the_replay_accepted(
    beaver: str | None, jacoby: str | None, length: int, answer: str
) -> None:
    text = MONEY.format(answer=answer).replace("0 point match", f"{length} point match")
    for key, value in (("Beaver", beaver), ("Jacoby", jacoby)):
        if value is not None:
            text = f'; [{key} "{value}"]\n' + text
    match = next(read_matches(io.StringIO(text)))
    visitor = _States()
    replay(match, visitor)
    allowed = match.rules.beavers(length)
    assert visitor.states and {s.beavers for s in visitor.states} == {allowed}
    assert {s.jacoby for s in visitor.states} == {not length and match.rules.jacoby}
    for s in visitor.states:
        if not length:
            assert s.match_state().beaver is allowed
    for _kind, said_allowed, _refused in visitor.result():
        assert said_allowed is allowed
    for _, _, action in visitor.seen:
        codes = visitor.found.get(action.location, set())
        answered = "unexpected-answer" not in codes
        assert ("illegal-beaver" in codes) is (answered and not allowed)


def test_a_visitor_that_overrides_a_step_it_does_not_want_is_refused() -> None:
    """The replay calls only what ``wants`` declares: a visitor that forgot one would silently miss it."""
    with pytest.raises(TypeError, match="Rolls overrides visit_roll but its 'wants' lacks Wants.ROLL"):

        class Rolls(BaseVisitor[None]):
            wants = Wants.CUBE

            def visit_roll(
                self, state: DecisionState, action: Action, play: Play | None, after: Position | None
            ) -> None:
                pass

    class Fewer(BaseVisitor[None]):
        wants = Wants.ROLL | Wants.CUBE

        def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
            pass

    assert Fewer.wants == Wants.ROLL | Wants.CUBE


class _Log(BaseVisitor[list[str]]):
    wants = Wants.ROLL | Wants.MOVE | Wants.CUBE

    def __init__(self, wants: Wants, skip: int | None = None, lazy: bool = False) -> None:
        self.wants = wants
        self.skip = skip
        self.lazy_games = lazy
        self.log: list[str] = []

    def begin_game(self, game: Game, state: DecisionState) -> Skip | None:
        self.log.append(f"game {game.number}")
        return SKIP if game.number == self.skip else None

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        self.log.append("roll")

    def visit_move(self, action: Action, after: Position | None) -> None:
        self.log.append("move")

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        self.log.append(action.kind.value)

    def end_game(self, game_result: GameResult) -> None:
        self.log.append("end")

    def result(self) -> list[str]:
        return self.log


def test_a_tee_gives_each_child_what_it_wants_and_the_first_childs_result() -> None:
    match = _money("Takes")
    rolls, cubes = _Log(Wants.ROLL, lazy=True), _Log(Wants.CUBE | Wants.MOVE)
    tee = Tee(rolls, cubes)
    assert tee.wants == Wants.ROLL | Wants.CUBE | Wants.MOVE and not tee.lazy_games
    assert replay(match, tee) is rolls.log
    assert rolls.log == ["game 1", "roll", "roll", "roll", "end"]
    assert cubes.log == ["game 1", "move", "double", "take", "move", "move", "end"]
    assert Tee(_Log(Wants.ROLL, lazy=True), _Log(Wants.CUBE, lazy=True)).lazy_games


def test_a_tee_skips_a_game_only_for_the_children_that_skip_it() -> None:
    match = next(read_matches(io.StringIO((DATA / "mat" / "spec-3pt-gnubg.mat").read_text())))
    skipping, playing = _Log(Wants.ROLL, skip=1), _Log(Wants.ROLL)
    replay(match, Tee(skipping, playing))
    first = skipping.log.index("end")
    assert skipping.log[: first + 1] == ["game 1", "end"]
    assert playing.log[1] == "roll"
    assert skipping.log[first + 1 :] == playing.log[playing.log.index("end") + 1 :]
    both = [_Log(Wants.ROLL, skip=1), _Log(Wants.ROLL, skip=1)]
    replay(match, Tee(*both))
    assert both[0].log[:2] == both[1].log[:2] == ["game 1", "end"]


class _Matches(_Log):
    """A log that skips the matches of the players it is not asked about (as a match filter would)."""

    def __init__(self, wants: Wants, player: str | None) -> None:
        super().__init__(wants)
        self.player = player

    def begin_match(self, match: Match) -> Skip | None:
        self.log.append(f"match {match.players[0]}")
        return None if self.player is None or self.player in match.players else SKIP

    def end_match(self, match_result: object) -> None:
        self.log.append("end match")


def test_a_match_skipped_at_its_beginning_is_not_replayed() -> None:
    text = (DATA / "mat" / "spec-3pt-gnubg.mat").read_text()
    match = next(read_matches(io.StringIO(text)))
    first = match.players[0]
    skipping, playing = _Matches(Wants.ROLL, "nobody"), _Matches(Wants.ROLL, None)
    replay(match, Tee(skipping, playing))
    assert skipping.log == [f"match {first}"]
    assert playing.log[:3] == [f"match {first}", "game 1", "roll"] and playing.log[-1] == "end match"
    alone = _Matches(Wants.ROLL, "nobody")
    assert replay(match, alone) == [f"match {first}"]
    both = (_Matches(Wants.ROLL, "nobody"), _Matches(Wants.ROLL | Wants.CUBE, "nobody"))
    assert Tee(*both).begin_match(match) is SKIP
    kept = _Matches(Wants.ROLL, first)
    replay(match, kept)
    assert kept.log.count("end") == len(match.games) and kept.log[-1] == "end match"


def test_the_state_says_when_the_cube_is_dead() -> None:
    class Dead(BaseVisitor[list[tuple[int, int, bool]]]):
        wants = Wants.ROLL

        def __init__(self) -> None:
            self.seen: list[tuple[int, int, bool]] = []

        def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
            self.seen.append((state.cube, state.away(state.on_roll), state.cube_dead))

        def result(self) -> list[tuple[int, int, bool]]:
            return self.seen

    match = next(read_matches(io.StringIO((DATA / "mat" / "spec-3pt-gnubg.mat").read_text())))
    seen = replay(match, Dead())
    assert all(dead == (cube >= away) for cube, away, dead in seen)
    assert any(dead for *_, dead in seen) and not all(dead for *_, dead in seen)
    assert not any(replay(_money("Takes"), Dead())[i][2] for i in range(3))
