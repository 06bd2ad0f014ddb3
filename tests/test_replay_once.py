"""Each command replays each match once: one replay feeds every visitor a command needs.

The replay's games are counted where the replay walks them (``_GameReplay.run``), keyed by where each
game starts in its file, while a command runs in this process (``--jobs 1``) over files of several
matches each. A command that read and replayed a file twice (``report --analyze --player``, which
first chose the files) counts two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabla_cli import replay as replay_module

import helpers
from helpers import EXAMPLES

Walks = Counter[tuple[str, int]]


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> Iterator[Walks]:
    """Every game the replay walks while the test runs: (file, line of the game) -> how often."""
    counted: Walks = Counter()
    walk = replay_module._GameReplay.run

    def counting(self: replay_module._GameReplay) -> None:
        counted[(Path(self.game.location.path).name, self.game.location.line)] += 1
        walk(self)

    monkeypatch.setattr(replay_module._GameReplay, "run", counting)
    yield counted


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLA_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """Three matches in two files: Petar v Maria and Olga v Maria in a.mat, Ivan v Maria in b.mat."""
    folder = tmp_path / "archive"
    folder.mkdir()
    text = (EXAMPLES / "three-point-match.mat").read_text(encoding="utf-8")
    (folder / "a.mat").write_text(text + "\n\n" + text.replace("Petar", "Olga"), encoding="utf-8")
    (folder / "b.mat").write_text(text.replace("Petar", "Ivan"), encoding="utf-8")
    return folder


def _games(walks: Walks, name: str) -> set[tuple[str, int]]:
    return {key for key in walks if key[0] == name}


def _run(*args: str) -> None:
    result = helpers.invoke(*args)
    assert result.exit_code in (0, 1), result.stderr
    assert "Traceback" not in result.stderr


def _every_game(archive: Path, walks: Walks) -> set[tuple[str, int]]:
    """The games of the archive, as ``tabla check`` walks them (each once)."""
    _run("check", str(archive), "--jobs", "1")
    games = set(walks)
    assert set(walks.values()) == {1}
    assert len(_games(walks, "a.mat")) == 2 * len(_games(walks, "b.mat")) > 0
    walks.clear()
    return games


@pytest.mark.parametrize(
    "command",
    [
        ["convert", "--to", "json", "--out-dir", "{out}"],
        ["report", "--format", "json", "--jobs", "1"],
        ["report", "--by", "cube", "--format", "json", "--jobs", "1", "--frames", "{out}"],
        ["analyze", "--level", "1ply", "--no-luck", "--format", "json", "--jobs", "1"],
        ["index", "--db", "{out}/index.db", "--jobs", "1"],
    ],
    ids=["convert", "report", "report-frames", "analyze", "index"],
)
def test_each_command_replays_each_match_once(command: list[str], archive: Path, walks: Walks, tmp_path: Path) -> None:
    games = _every_game(archive, walks)
    out = tmp_path / "out"
    out.mkdir()
    _run(command[0], str(archive), *(arg.replace("{out}", str(out)) for arg in command[1:]))
    assert walks == Counter(dict.fromkeys(games, 1))


@pytest.mark.parametrize(
    ("command", "others"),
    [
        (["report", "--analyze", "1ply", "--player", "Ivan", "--format", "json", "--jobs", "1"], False),
        (["analyze", "--level", "1ply", "--no-luck", "--player", "Ivan", "--format", "json", "--jobs", "1"], False),
        (["report", "--player", "Ivan", "--format", "json", "--jobs", "1"], True),
    ],
    ids=["report-analyze", "analyze", "report"],
)
def test_a_filter_replays_the_chosen_matches_once(
    command: list[str], others: bool, archive: Path, walks: Walks
) -> None:
    """The engine's commands choose the files by the headers alone (no replay), then replay the chosen ones
    once; a report without the engine replays every file once and chooses after."""
    games = _every_game(archive, walks)
    _run(command[0], str(archive), *command[1:])
    assert max(walks.values()) == 1
    assert _games(walks, "b.mat") == {game for game in games if game[0] == "b.mat"}
    assert _games(walks, "a.mat") == ({game for game in games if game[0] == "a.mat"} if others else set())


@pytest.mark.parametrize("command", [["report", "--analyze", "1ply"], ["analyze", "--level", "1ply", "--no-luck"]])
def test_the_engine_sees_only_the_chosen_matches_of_a_file(
    command: list[str], archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """a.mat holds Petar's match and Olga's (the same games): asked about Olga, the engine gets one match's
    decisions, as many as Ivan's match alone in b.mat gives."""
    from tabla_cli.analysis.cache import analyse_cached

    sent: list[int] = []

    def counting(wanted: Any, *args: Any, **kw: Any) -> Any:
        sent.append(len(wanted))
        return analyse_cached(wanted, *args, **kw)

    monkeypatch.setattr("tabla_cli.analysis.file_analysis.analyse_cached", counting)
    _run(*command, str(archive / "b.mat"), "--format", "json", "--jobs", "1")
    alone = sum(sent)
    sent.clear()
    _run(*command, str(archive), "--player", "Olga", "--format", "json", "--jobs", "1")
    assert alone > 0 and sum(sent) == alone


@pytest.mark.parametrize(
    "flt",
    [
        {"players": ("lasse",)},
        {"players": ("Lasse",), "opponents": ("nobody",)},
        {"since": "2024-01-01"},
        {"until": "2023-12-31", "keep_undated": True},
        {"length": 5},
        {"money": True},
        {"site": "BACKGAMMON STUDIO"},
    ],
)
def test_the_choice_as_a_match_begins_keeps_every_match_the_filter_keeps(flt: dict[str, Any]) -> None:
    from tabla_cli.reader import read_path_matches
    from tabla_cli.reports.build import ReportOptions, _choice, build_report
    from tabla_cli.reports.filters import ReportFilter
    from tabla_cli.source import collect_sources

    sources = collect_sources([str(helpers.DATA / "players"), str(EXAMPLES)])
    options = ReportOptions(filter=ReportFilter(**flt), aliases={"Lasse Madsen": "lasse"})
    kept = build_report(sources, options).frames.matches
    choose = _choice(options)
    chosen = {
        (Path(source.path).name, index)
        for source in sources
        for index, match in enumerate(read_path_matches(source.path), start=1)
        if choose(match)
    }
    assert {(Path(file).name, int(index)) for file, index in zip(kept["file"], kept["index"])} <= chosen
