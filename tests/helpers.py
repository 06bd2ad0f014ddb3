"""What the tests share: paths of the test data, the CLI runner, golden files (see conftest.py for fixtures)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner, Result

from tabla_cli.board import Play, Player, Position
from tabla_cli.evaluation.recorded import RecordedAnalysis
from tabla_cli.model import Action, Match
from tabla_cli.replay import Decision, MatchResult, replay
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants, recorded_at, recorded_unread
from tabla_cli.writers.rolls import replay_rolls

DATA = Path(__file__).resolve().parent / "data"
CORPUS = DATA / "corpus"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def corpus_files(*parts: str, pattern: str = "*") -> list[Path]:
    """The files of a corpus folder (tests/data/corpus), sorted; a missing or empty folder raises."""
    path = CORPUS.joinpath(*parts)
    files = sorted(p for p in path.glob(pattern) if p.is_file())
    if not files:
        raise FileNotFoundError(f"no corpus files match {path / pattern}")
    return files


TRANSCRIPT_SUFFIXES = frozenset({".mat", ".sgf", ".txt", ".json", ".xg", ".bgf"})


def transcript_files() -> list[Path]:
    """Every transcript under tests/data (the copied corpus included) and examples/, sorted; golden files
    (``*.expected.*``, what a writer wrote) are outputs, not inputs, and left out."""
    found = [
        p
        for root in (DATA, EXAMPLES)
        for p in root.rglob("*")
        if p.is_file() and p.suffix.lower() in TRANSCRIPT_SUFFIXES and ".expected." not in p.name
    ]
    return sorted(found)


def replayed_decisions(match: Match) -> tuple[MatchResult, list[list[Decision]]]:
    """The replay of ``match`` and, game by game, the decision of every roll it followed (in order)."""
    result, rolls = replay_rolls(match)
    return result, [[d for d in game if d is not None] for game in rolls]


ROOT = Path(__file__).resolve().parents[1]
"""The repository's root (pyproject.toml, docs/, examples/)."""


def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    """Run ``tabla ARGS`` in-process (click's CliRunner, stdout and stderr apart); the whole result."""
    from tabla_cli.cli import main

    return CliRunner().invoke(main, list(args), input=input, env=env, prog_name="tabla")


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run ``tabla ARGS`` in-process: its exit code, stdout and stderr."""
    result = invoke(*args, input=input, env=env)
    return result.exit_code, result.stdout, result.stderr


def tabla_command(name: str) -> Callable[..., tuple[int, str, str]]:
    """A :func:`run` of one command: ``tabla_command("analyze")("m.mat")`` runs ``tabla analyze m.mat``."""

    def run_command(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> tuple[int, str, str]:
        return run(name, *args, input=input, env=env)

    return run_command


def check_golden(path: Path, actual: str, update: bool) -> None:
    """Assert that ``actual`` is the golden file ``path``'s text; with ``update`` (``--update-golden``), write it first.

    Golden files are named ``<case>.expected.<suffix>`` beside the data they come from.
    """
    assert ".expected." in path.name, f"{path.name}: golden files are named <case>.expected.<suffix>"
    if update:
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


class _ReadAtState(BaseVisitor[dict[int, RecordedAnalysis | None]]):
    """Each visited action's recorded analysis as the consumers read it (:func:`recorded_at`), by ``id``."""

    wants = Wants.ROLL | Wants.CUBE | Wants.RESIGN

    def __init__(self) -> None:
        self.read: dict[int, RecordedAnalysis | None] = {}

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        self.read.setdefault(id(action), recorded_at(state, action))

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        self.read.setdefault(id(action), recorded_at(state, action))

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        self.read.setdefault(id(action), recorded_at(state, action))

    def result(self) -> dict[int, RecordedAnalysis | None]:
        return self.read


def recorded_by_action(match: Match) -> Callable[[Action], RecordedAnalysis | None]:
    """The recorded analysis of each action of ``match`` with its written cube analysis (SGF's ``DA``) read
    at the replay's state, as the consumers read it; an action the replay does not follow has none read."""
    read = replay(match, _ReadAtState())
    return lambda action: read[id(action)] if id(action) in read else recorded_unread(action)
