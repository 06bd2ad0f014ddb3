from __future__ import annotations

import os
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DATA = Path(__file__).resolve().parent / "data"


def corpus_dir(*parts: str) -> Path:
    """A folder of the shared corpus: skipped if absent, but a failure under CI=true."""
    path = CORPUS.joinpath(*parts)
    if not path.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"the shared corpus is missing: {path}")
        pytest.skip(f"shared corpus not found at {path}")
    return path


def corpus_files(*parts: str) -> list[Path]:
    """Every file of a corpus folder (collected at import: empty when absent)."""
    path = CORPUS.joinpath(*parts)
    return sorted(p for p in path.iterdir() if p.is_file()) if path.is_dir() else []


TRANSCRIPT_SUFFIXES = frozenset({".mat", ".sgf", ".txt", ".json"})


def transcript_files() -> list[Path]:
    """Every transcript under tests/data (the copied corpus included) and examples/, sorted."""
    found = [p for root in (DATA, EXAMPLES) for p in root.rglob("*")
             if p.is_file() and p.suffix.lower() in TRANSCRIPT_SUFFIXES]
    return sorted(found)
