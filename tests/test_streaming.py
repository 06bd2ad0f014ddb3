"""Files are read match by match: the streamed reading gives what reading the whole text gives."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabla_cli import source
from tabla_cli.check import FileReport, check_file, check_text, check_visitor
from tabla_cli.errors import TranscriptSyntaxError
from tabla_cli.formats import mat
from tabla_cli.formats._mat_stream import match_chunks
from tabla_cli.model import Game, Match
from tabla_cli.pipeline import run
from tabla_cli.replay import replay
from tabla_cli.reports.reading import file_rows, text_rows
from tabla_cli.source import open_stream
from tabla_cli.visitor import BaseVisitor, DecisionState

import helpers

DATA = helpers.DATA
CORPUS = sorted((DATA / "corpus" / "mat").iterdir())[:12]


def joined() -> str:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in CORPUS]
    return "\n".join(t for t in texts if mat.looks_like_mat(t))


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_streamed_matches_equal_whole_text_matches(newline: str) -> None:
    text = joined().replace("\r\n", "\n").replace("\n", newline)
    whole = list(mat.parse_matches(text, path="j.mat"))
    streamed = list(mat.read_matches(io.StringIO(text, newline=""), path="j.mat"))
    assert len(whole) > 5 and streamed == whole
    assert [m.location for m in streamed] == [m.location for m in whole]


class _Trickle(io.StringIO):
    """A text stream that gives at most 7 characters a read: match_chunks cuts it line by line."""

    def read(self, size: int | None = -1) -> str:
        return super().read(7)


_ONE_BLOCK_CASES = [
    "",
    "\n\n",
    "hello\n",
    "; only a comment\n",
    "\ufeff5 point match\n Game 1\n",
    '; [Site "x"]\n\n# c\n 3 point match\n Game 1\n',
    "hello\n3 point match\n Game 1\n",  # a line before the length line: two chunks
    "; 5 point match\n7 point match\n",  # the words twice, once in a comment
    " Game 1 of a 5 point match\n Game 1\n",
    "5 point match\r\n Game 1\r 1) 31: 8/5 6/5",
    "5 POINT\tMATCH\n\n; x\n\n2 point match\n",
    "x\n \ufeff 5 point match\n",
    "x\n3 po\u0131nt match\n",
    "x\n3 Po\u0130nt MATCH\n",
    "x\n3 po\u0130nt\n",  # i without or with a dot
]


@pytest.mark.parametrize("text", _ONE_BLOCK_CASES + [joined(), CORPUS[0].read_text(encoding="utf-8")])
def test_a_stream_read_in_one_block_is_cut_as_line_by_line(text: str) -> None:
    whole = list(match_chunks(io.StringIO(text, newline=""), "t.mat"))
    assert whole == list(match_chunks(_Trickle(text, newline=""), "t.mat"))
    assert "".join(chunk for chunk, _ in whole) == text.replace("\r\n", "\n").replace("\r", "\n")


@pytest.fixture
def small_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files over 1,000 bytes are streamed (the real threshold is megabytes)."""
    monkeypatch.setattr(source, "STREAM_SIZE", 1000)


def test_only_large_regular_files_are_streamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.mat"
    path.write_text(joined(), encoding="utf-8")
    assert open_stream(path) is None
    monkeypatch.setattr(source, "STREAM_SIZE", 1000)
    stream = open_stream(path)
    assert stream is not None and (stream.encoding, stream.guessed) == ("utf-8", False)
    stream.handle.close()
    assert open_stream(path, max_size=1500) is None  # too large: read whole, which reports it
    path.write_bytes("\ufeff".encode("utf-16-le") + joined().encode("utf-16-le"))
    assert open_stream(path) is None  # UTF-16 is decoded whole


def test_findings_of_a_later_match_keep_their_file_lines(tmp_path: Path, small_streams: None) -> None:
    text = joined()
    lines = text.split("\n")
    last = max(i for i, line in enumerate(lines) if line.strip().startswith("Game 1"))
    lines.insert(last + 3, "  1) 31: 8/5 6/5 bogus")
    text = "\n".join(lines)
    path = tmp_path / "j.mat"
    path.write_text(text, encoding="utf-8")
    streamed = check_file(str(path))
    whole = check_text(text, str(path))
    assert streamed.findings == whole.findings and streamed.matches == whole.matches
    assert any(f.location.line == last + 4 for f in streamed.findings)


def test_a_legacy_file_streams_with_a_guessed_code_page(tmp_path: Path, small_streams: None) -> None:
    path = tmp_path / "l.mat"
    text = CORPUS[0].read_text(encoding="utf-8")
    path.write_bytes(('; [Place "Köln"]\n' + text).encode("cp1252", errors="replace"))
    stream = open_stream(path)
    assert stream is not None and stream.guessed
    with stream.handle as handle:
        assert handle.readline() == '; [Place "Köln"]\n'
    report = check_file(str(path))
    assert [f.code for f in report.findings if f.code == "guessed-encoding"] == ["guessed-encoding"]
    assert report.findings[0].location.path == str(path)


# --- a match read game by game ---------------------------------------------------------------


def money_session(games: int = 40) -> str:
    """One money session of ``games`` games (the bodies of the corpus's first match, repeated)."""
    first = mat.parse_matches(CORPUS[0].read_text(encoding="utf-8"), path="c.mat")
    text = CORPUS[0].read_text(encoding="utf-8").replace("\r\n", "\n").split("\n")
    bodies: list[list[str]] = []
    for game in next(first).games[:-1]:  # not the game that ends the match (a capped win)
        start = game.location.line  # the Game line; the score line follows
        lines = text[start + 1 :]
        end = next((i for i, line in enumerate(lines) if line.strip().startswith("Game ")), len(lines))
        bodies.append([line for line in lines[:end] if line.strip()])
    out = ['; [Jacoby "Off"]\n 0 point match\n']
    score = [0, 0]
    for number in range(1, games + 1):
        body = bodies[(number - 1) % len(bodies)]
        out.append(f"\n Game {number}\n {'Ann : ' + str(score[0]):<31}Bob : {score[1]}\n" + "\n".join(body) + "\n")
        for line in body:
            if "Wins" in line:
                value = int(line.split("Wins")[1].split()[0])
                score[line.index("Wins") >= mat.RIGHT_COLUMN] += value
    return "".join(out)


def read_lazily(text: str, errors: list[TranscriptSyntaxError] | None = None) -> list[Match]:
    """The matches of ``text`` read game by game, their games gathered afterwards."""
    matches = []
    for match in mat.read_matches(
        io.StringIO(text), path="j.mat", on_error=errors.append if errors is not None else None, lazy=True
    ):
        assert match.games == []
        games = list(match.iter_games())
        match.game_stream, match.games = None, games
        matches.append(match)
    return matches


@pytest.mark.parametrize("piece", [1, 50, 4000])
def test_a_match_read_game_by_game_equals_the_whole(piece: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mat, "_PIECE_LINES", piece)
    for text in (joined(), money_session()):
        whole = list(mat.parse_matches(text, path="j.mat"))
        assert read_lazily(text) == whole and sum(len(m.games) for m in whole) > 30


def test_a_lazy_match_that_is_not_read_to_its_end_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mat, "_PIECE_LINES", 1)
    text = joined()
    names = [m.players for m in mat.parse_matches(text, path="j.mat")]
    assert [m.players for m in mat.read_matches(io.StringIO(text), path="j.mat", lazy=True)] == names


def test_a_broken_later_game_ends_a_lazy_match_there(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mat, "_PIECE_LINES", 1)
    text = money_session(6) + " Game 7\n"  # no score line: the structure is broken
    errors: list[TranscriptSyntaxError] = []
    matches = read_lazily(text, errors)
    assert [len(m.games) for m in matches] == [6]
    assert [(e.location.line if e.location else 0) for e in errors] == [text.count("\n")]
    with pytest.raises(TranscriptSyntaxError):
        read_lazily(text)


class _Counting(BaseVisitor[int]):
    """How many games the stream had produced, at most, when each game began."""

    def __init__(self, produced: list[int]) -> None:
        self.produced = produced
        self.ahead = 0
        self.games = 0

    def begin_game(self, game: Game, state: DecisionState) -> None:
        self.games += 1
        self.ahead = max(self.ahead, self.produced[0] - self.games)

    def result(self) -> int:
        return self.ahead


def test_the_replay_reads_a_lazy_match_two_games_ahead_at_most() -> None:
    match = read_lazily(money_session(12))[0]
    games, match.games = match.games, []
    produced = [0]

    def stream() -> Iterator[Game]:
        for game in games:
            produced[0] += 1
            yield game

    match.game_stream = stream()
    assert replay(match, _Counting(produced)) == 1  # the one after the game being replayed
    assert produced == [len(games)]


def test_check_and_report_of_a_session_read_game_by_game_equal_reading_it_whole(
    tmp_path: Path, small_streams: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mat, "_PIECE_LINES", 20)
    lines = money_session().split("\n")
    lines.insert(40, "hello there")  # a syntax error in a later game
    text = "\n".join(lines)
    path = tmp_path / "m.mat"
    path.write_text(text, encoding="utf-8")

    streamed = check_file(str(path))
    read_whole = check_visitor(FileReport(str(path)))
    read_whole.lazy_games = False
    whole = run(str(path), read_whole)
    assert sorted(streamed.findings, key=str) == sorted(whole.findings, key=str)
    assert (streamed.games, streamed.plays, streamed.keys) == (whole.games, whole.plays, whole.keys)
    assert streamed.games == 40 and any(f.code == "syntax-error" for f in streamed.findings)
    rows = file_rows(str(path))
    assert [r[1:] for r in rows.rows["games"]] == [r[1:] for r in text_rows(text, str(path)).rows["games"]]
    assert len(rows.rows["findings"]) == len(streamed.findings)
