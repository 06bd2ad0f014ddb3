from __future__ import annotations

from pathlib import Path

from tabla_cli.model import Match
from tabla_cli.replay import Decision, MatchResult
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
    """Every transcript under tests/data (the copied corpus included) and examples/, sorted."""
    found = [
        p
        for root in (DATA, EXAMPLES)
        for p in root.rglob("*")
        if p.is_file() and p.suffix.lower() in TRANSCRIPT_SUFFIXES
    ]
    return sorted(found)


def replayed_decisions(match: Match) -> tuple[MatchResult, list[list[Decision]]]:
    """The replay of ``match`` and, game by game, the decision of every roll it followed (in order)."""
    result, rolls = replay_rolls(match)
    return result, [[d for d in game if d is not None] for game in rolls]
