"""Read the position exports of eXtreme Gammon and BGBlitz, with their analysis.

Both programs copy one position as text: an XGID (the whole match state), a
board diagram and, when the position was analysed, the analysis: the ranked
checker plays of the roll (eXtreme Gammon: ``1. 4-ply  19/18 14/12
eq:-0.491`` and the winning chances below; BGBlitz: ``1.  0.124 mwp /
-0.492  19/18, 14/12`` and its six probabilities), or the cube decision of
the side on roll (no double, double/take and double/pass with their cubeful
equities, and the best cube action). The labels are in the program's language
(English, German and French are read); the layout and the numbers are not.

Such a file records a position, not a decision: nobody has played yet. It is
read as a match of one game that starts from that position, with an action
for the analysis to belong to, marked ``undecided``
(:attr:`~tabla_cli.evaluation.recorded.RecordedAnalysis.undecided`):

* a checker position gives the roll, played with the best play;
* a cube position gives the double of the side on roll (when the XGID's dice
  field is ``D`` that double was made, and is evaluated) and the answer, a
  take.

So ``tabla analyze FILE`` shows each decision's best play or action and its
equity, with no action made and no error, and the statistics count none of
them. Equities are the programs' own: cubeful, normalised to money equity
(EMG) in match play, from the side that decides.

Example:
    >>> text = '''XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10
    ...
    ... X:Ann   O:Bob
    ... X to play 21
    ...
    ...     1. 4-ply       19/18 14/12                  eq:-0.491
    ...       Player:   25.45% (G:0.00% B:0.00%)
    ...       Opponent: 74.55% (G:31.09% B:0.09%)
    ...
    ...     2. 3-ply       14/11                        eq:-0.568 (-0.076)
    ...
    ... eXtreme Gammon Version: 2.10, MET: Kazaross XG2
    ... '''
    >>> [match] = parse_matches(text, path="p.txt")
    >>> match.players, match.length, match.games[0].score
    (('Bob', 'Ann'), 7, (6, 3))
    >>> [roll] = match.games[0].actions
    >>> roll.player, roll.dice, roll.play_text, roll.analysis.level
    (<Player.ONE: 1>, (2, 1), '19/18 14/12', 'XG 4-ply')
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from tabla_cli.board import Player
from tabla_cli.errors import InvalidIdError, Location, TranscriptSyntaxError
from tabla_cli.evaluation.recorded import Candidate, CubeAnalysis, RecordedAnalysis, proper_cube_action
from tabla_cli.evaluation.types import CubeAction
from tabla_cli.formats import Format
from tabla_cli.formats._syntax import ErrorHandler, normalise_newlines, read_handle
from tabla_cli.ids.match import MatchState
from tabla_cli.ids.xgid import parse_xgid
from tabla_cli.model import Action, ActionKind, Game, Match, RuleSet

__all__ = ["FORMAT", "looks_like_position_text", "parse_matches", "read_matches"]

_WORDS = r"\S+(?: \S+)*"  # words one space apart: a name, a play, a level (no backtracking)
_XGID = re.compile(r"^[ \t]*(XGID=\S+)[ \t]*$", re.MULTILINE)
_XG_PLAYERS = re.compile(rf"^X:({_WORDS})?[ \t]{{2,}}O:([^\n]*)$", re.MULTILINE)
_BGBLITZ_PLAYER = re.compile(rf"^ \+[-+0-9]+\+[ \t]+([XO]): ({_WORDS})[ \t]+[0-9]+[ \t]*$", re.MULTILINE)
_NUMBER = r"[-+]?[0-9]+\.[0-9]+"
_XG_PLAY = re.compile(
    rf"^[ \t]+([0-9]{{1,4}})\. (\S+(?: \S+)?)[ \t]{{2,}}({_WORDS})[ \t]+\S*q:[ \t]*({_NUMBER})"
    rf"(?:[ \t]+\(({_NUMBER})\))?[ \t]*$",
    re.MULTILINE,
)
_PERCENT = r"(?<![0-9])[0-9]++(?:\.[0-9]++)?+"
_CHANCES = re.compile(rf"({_PERCENT})% \(G:({_PERCENT})% B:({_PERCENT})%\)")
_BGBLITZ_PLAY = re.compile(
    rf"^[ \t]*([0-9]{{1,4}})\.[ \t]+(?:{_NUMBER}[ \t]+mwp[ \t]*/[ \t]*)?({_NUMBER})(?:[ \t]+\([ \t]*({_NUMBER})\))?"
    rf"[ \t]+({_WORDS})[ \t]*\n((?:[ \t]+(?:-|[0-9]+\.[0-9]+))+)[ \t]*$",
    re.MULTILINE,
)
_XG_CUBE = re.compile(rf"^[ \t]++([^:\n]+):[ \t]+({_NUMBER})(?:[ \t]+\({_NUMBER}\))?[ \t]*$", re.MULTILINE)
_BGBLITZ_CUBE = re.compile(
    rf"^ ([^:\n]+):(?:[ \t]+{_NUMBER}[ \t]+\([ \t]*{_NUMBER}\))?"
    rf"[ \t]+({_NUMBER})[ \t]+\([ \t]*{_NUMBER}\)[ \t]*$",
    re.MULTILINE,
)
_XG_LEVEL = re.compile(rf"^Analy\S*[ \t]+\S+[ \t]+({_WORDS})[ \t]*$", re.MULTILINE)
_PLIES = re.compile(r"^([0-9]+)-pl\w*$")
_PASS_WORDS = re.compile(r"pass|ablehnen|refuser|rejeter", re.IGNORECASE)


def looks_like_position_text(text: str) -> bool:
    """Whether ``text`` is an eXtreme Gammon or BGBlitz position export.

    >>> xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10\\n"
    >>> looks_like_position_text(xgid + "eXtreme Gammon Version: 2.10\\n"), looks_like_position_text(xgid)
    (True, False)
    """
    head = text[:20000]
    # Plain words first: they are found far faster than the XGID line (a regular expression tried at each character).
    return (
        "XGID=" in head
        and ("eXtreme Gammon Version" in head or "Position-ID:" in head)
        and _XGID.search(head) is not None
    )


def read_matches(handle: TextIO, *, path: str = "<stdin>", on_error: ErrorHandler | None = None) -> Iterator[Match]:
    """The match of one position export: one game from the position, its analysed decisions.

    Args:
        handle: text stream.
        path: the name used in every :class:`Location`.
        on_error: unused (a position export holds one position: an error in
            it is raised).

    Yields:
        The match, with ``format='position-text'``.

    Raises:
        TranscriptSyntaxError: the XGID cannot be read.
        InputError: the stream cannot be decoded.
    """
    yield from parse_matches(read_handle(handle, path), path=path)


def parse_matches(text: str, *, path: str = "<string>") -> Iterator[Match]:
    """The match of a position export in ``text``; see :func:`read_matches`."""
    text = normalise_newlines(text)
    found = _XGID.search(text)
    if found is None:
        raise TranscriptSyntaxError("no XGID= line: not a position export", Location(path))
    where = _location(text, path, found.start(1))
    try:
        position, state = parse_xgid(found.group(1))
    except InvalidIdError as error:
        raise TranscriptSyntaxError(error.message, where, found.group(1)) from error
    bgblitz = "Position-ID:" in text
    match = Match(players=_players(text), length=state.length, path=path, format="position-text", location=where)
    match.rules = RuleSet(crawford=bool(state.length), jacoby=state.jacoby, beaver=state.beaver)
    mover = state.dice_owner
    game = Game(
        1,
        state.score,
        location=where,
        start=position if mover is Player.ZERO else position.flip(),
        crawford=state.crawford if state.length else None,
    )
    if state.cube > 1 or state.cube_owner is not None:
        game.start_cube = (state.cube, state.cube_owner)
    match.games.append(game)
    after = text[found.end() :]
    if state.dice is not None:
        analysis = _bgblitz_plays(after) if bgblitz else _xg_plays(after)
        if analysis is not None and analysis.candidates:
            game.actions.append(
                Action(
                    ActionKind.ROLL,
                    mover,
                    where,
                    dice=state.dice,
                    play_text=analysis.candidates[0].play,
                    analysis=analysis,
                )
            )
    else:
        cube = _bgblitz_cube(after, state) if bgblitz else _xg_cube(after, state)
        if cube is not None:
            game.actions.extend(_cube_actions(cube, state, mover, where))
    yield match


def _location(text: str, path: str, offset: int) -> Location:
    line_start = text.rfind("\n", 0, offset) + 1
    return Location(path, text.count("\n", 0, offset) + 1, offset - line_start + 1)


def _players(text: str) -> tuple[str, str]:
    """``(O, X)``: gnubg's player 0 is the XGID's O."""
    names = {"X": "X", "O": "O"}
    found = _XG_PLAYERS.search(text)
    if found is not None:
        names = {"X": (found.group(1) or "").strip() or "X", "O": found.group(2).strip() or "O"}
    for side, name in _BGBLITZ_PLAYER.findall(text):
        names[side] = name
    return names["O"], names["X"]


def _level(text: str) -> str:
    """A level as the program writes it, its plies in English (``4-plis`` = ``4-ply``)."""
    plies = _PLIES.match(text)
    return f"{plies.group(1)}-ply" if plies is not None else text


def _xg_plays(text: str) -> RecordedAnalysis | None:
    candidates = []
    for found in _XG_PLAY.finditer(text):
        rank, level, play, equity, diff = found.groups()
        chances = _CHANCES.findall(text, found.end(), found.end() + 400)
        probabilities = None
        if len(chances) >= 2:
            mine, theirs = chances[0], chances[1]
            probabilities = tuple(float(x) / 100 for x in (*mine, *theirs))
        candidates.append(
            Candidate(
                int(rank),
                play.strip(),
                float(equity),
                -float(diff) if diff else 0.0,
                probabilities,
                _level(level.strip()),
            )
        )
    if not candidates:
        return None
    level = candidates[0].level
    return RecordedAnalysis(
        candidates=tuple(candidates), level=level if level.startswith("XG") else f"XG {level}", undecided=True
    )


def _bgblitz_plays(text: str) -> RecordedAnalysis | None:
    candidates = []
    for rank, equity, diff, play, numbers in _BGBLITZ_PLAY.findall(text):
        values = [v for v in numbers.split() if v != "-"]
        probabilities = tuple(float(x) for x in values) if len(values) == 6 else None
        candidates.append(
            Candidate(
                int(rank),
                play.replace(",", " ").replace("  ", " ").strip(),
                float(equity),
                -float(diff) if diff else 0.0,
                probabilities,
                "BGBlitz",
            )
        )
    if not candidates:
        return None
    return RecordedAnalysis(candidates=tuple(candidates), level="BGBlitz", undecided=True)


def _cube_options(options: list[tuple[str, str]]) -> tuple[float, float, float] | None:
    """No double, double/take, double/pass from three labelled equities (any order, any language)."""
    values: dict[str, float] = {}
    options = [(label.strip(), equity) for label, equity in options if any(c.isalpha() for c in label)]
    for label, equity in options:
        key = "nd" if "/" not in label else "dp" if _PASS_WORDS.search(label) else "dt"
        values[key] = float(equity)
    if len(options) != 3 or len(values) != 3:
        return None
    return values["nd"], values["dt"], values["dp"]


def _xg_cube(text: str, state: MatchState) -> CubeAnalysis | None:
    equities = _cube_options(_XG_CUBE.findall(text))
    if equities is None:
        return None
    chances = _CHANCES.findall(text)
    probabilities = tuple(float(x) / 100 for x in (*chances[0], *chances[1])) if len(chances) >= 2 else None
    found = _XG_LEVEL.search(text)
    level = _level(found.group(1)) if found is not None else ""
    level = level if level.startswith("XG") else f"XG {level}".rstrip()
    cube = CubeAnalysis(*equities, level=level, probabilities=probabilities)
    return CubeAnalysis(*equities, proper_cube_action(cube, state.cube_owner is not None), level, probabilities)


def _bgblitz_cube(text: str, state: MatchState) -> CubeAnalysis | None:
    equities = _cube_options(_BGBLITZ_CUBE.findall(text))
    if equities is None:
        return None
    cube = CubeAnalysis(*equities, level="BGBlitz")
    return CubeAnalysis(*equities, proper_cube_action(cube, state.cube_owner is not None), "BGBlitz")


def _cube_actions(cube: CubeAnalysis, state: MatchState, doubler: Player, where: Location) -> list[Action]:
    """The double (made when the XGID says so, else undecided) and the undecided answer."""
    offered = (
        RecordedAnalysis(cube=cube, level=cube.level, cube_action=CubeAction.DOUBLE)
        if state.doubled
        else RecordedAnalysis(cube=cube, level=cube.level, undecided=True)
    )
    answer = RecordedAnalysis(cube=cube, level=cube.level, undecided=True)
    return [
        Action(ActionKind.DOUBLE, doubler, where, analysis=offered),
        Action(ActionKind.TAKE, doubler.other, where, analysis=answer),
    ]


FORMAT = Format("position-text", (".txt",), looks_like_position_text, read_matches, title="XG or BGBlitz position text")
"""This reader in the format registry (:mod:`tabla_cli.formats`)."""
