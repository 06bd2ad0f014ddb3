"""tabla index and tabla positions: the index (SQLite here; tests/test_study_postgres.py for a server),
its incremental updates, concurrent writers, the tags, the filters and every output format."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sqlite3
import subprocess
import sys
import threading
import warnings
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.board import Position, Step
from tabla_cli.cli import main
from tabla_cli.ids import parse_xgid
from tabla_cli.study.export import render_positions
from tabla_cli.study.index import IndexOptions, index_paths, index_source
from tabla_cli.study.query import NAMES, SORTS, PositionFilter, Positions, find_positions
from tabla_cli.study.store import StoreError, open_store
from tabla_cli.study.tags import play_tags, position_tags, score_tags, tag_words

DATA = Path(__file__).parent / "data" / "generated"
FILES = (
    "gnubg_5pt_05100.txt",
    "gnubg_5pt_05100_002.txt",
    "gnubg_5pt_05103.txt",
    "gnubg_5pt_05103_002.txt",
    "gnubg_5pt_05101.mat",
)
"""Four analysed gnubg text exports (undated) and a dated .mat match without analysis."""


def tabla(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """The files of :data:`FILES`, copied where a test may change them."""
    folder = tmp_path / "archive"
    folder.mkdir()
    for name in FILES:
        shutil.copy(DATA / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of :data:`FILES`, made once for the read-only tests."""
    folder = tmp_path_factory.mktemp("study")
    for name in FILES:
        shutil.copy(DATA / name, folder / name)
    db = folder / "index.sqlite"
    index_paths([str(folder)], str(db))
    return db


def counts(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as connection:
        return {
            table: connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            for table in ("files", "matches", "decisions")
        }


# --- the index ---------------------------------------------------------------


def test_index_holds_every_decision_of_the_analysis(indexed: Path) -> None:
    from tabla_cli.analysis.decisions import AnalysisOptions
    from tabla_cli.analysis.file_analysis import analyse_file

    folder = indexed.parent
    expected = sum(len(analyse_file(str(folder / name), AnalysisOptions(level="1ply")).rows) for name in FILES)
    with sqlite3.connect(indexed) as connection:
        total, judged, tagged = connection.execute(
            "SELECT COUNT(*), COUNT(error), COUNT(phase) FROM decisions"
        ).fetchone()
        by_file = dict(connection.execute("SELECT path, decisions FROM files").fetchall())
        per_file = dict(connection.execute("SELECT path, COUNT(*) FROM decisions GROUP BY path").fetchall())
        sources = {
            row[0] for row in connection.execute("SELECT DISTINCT source FROM decisions WHERE error IS NOT NULL")
        }
    assert total == expected > 100
    assert tagged == total and judged > total // 3
    assert by_file == per_file
    assert sources and all(s.startswith("recorded") for s in sources)
    with sqlite3.connect(indexed) as connection:
        games = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        written = connection.execute("SELECT SUM(games) FROM matches").fetchone()[0]
        players = connection.execute("SELECT SUM(decisions) FROM players").fetchone()[0]
    assert games == written >= len(FILES) and players == total


def test_cli_index_again_skips_unchanged_then_rereads_a_changed_file_alone(archive: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "i.sqlite")
    code, out, err = tabla("index", str(archive), "--db", db)
    assert (code, out) == (0, "")
    assert "indexed 5 of 5 files" in err
    before = counts(Path(db))
    code, out, err = tabla("index", str(archive), "--db", db)
    assert code == 0 and "indexed 0 of 5 files (0 decisions), 5 unchanged" in err
    assert counts(Path(db)) == before
    changed = archive / FILES[1]
    changed.write_text(changed.read_text() + "\n")
    code, _, err = tabla("index", str(archive), "--db", db)
    assert code == 0 and "indexed 1 of 5 files" in err and "4 unchanged" in err
    assert counts(Path(db)) == before  # the same content: its rows replaced, not added


def test_prune_forgets_files_that_are_gone(archive: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "i.sqlite")
    index_paths([str(archive)], db)
    gone = str(archive / FILES[0])
    Path(gone).unlink()
    kept = index_paths([str(archive)], db)
    assert kept.pruned == 0 and counts(Path(db))["files"] == 5
    summary = index_paths([str(archive)], db, prune=True)
    assert summary.pruned == 1 and summary.skipped == 4
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM decisions WHERE path = ?", (gone,)).fetchone() == (0,)
        assert connection.execute("SELECT COUNT(*) FROM matches WHERE path = ?", (gone,)).fetchone() == (0,)


def consistent(db: Path) -> None:
    """Each indexed file's decisions are there once, as many as ``files`` says."""
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        mismatched = connection.execute(
            "SELECT f.path FROM files f LEFT JOIN (SELECT path, COUNT(*) n FROM decisions GROUP BY path) d "
            "ON d.path = f.path WHERE COALESCE(d.n, 0) != f.decisions"
        ).fetchall()
    assert mismatched == []


def test_two_index_runs_at_once_in_threads_leave_a_consistent_index(archive: Path, tmp_path: Path) -> None:
    for name in FILES[2:]:
        (archive / name).unlink()
    db = tmp_path / "i.sqlite"
    alone = tmp_path / "alone.sqlite"
    index_paths([str(archive)], str(alone))
    changed = archive / FILES[0]
    summaries = []

    def run() -> None:
        summaries.append(index_paths([str(archive)], str(db)))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(summaries) == 2
    assert counts(db) == counts(alone)
    assert sum(s.indexed for s in summaries) >= 2  # each file written by one run, or by both in turn
    consistent(db)
    changed.write_text(changed.read_text() + "\n")
    assert index_paths([str(archive)], str(db)).indexed == 1
    consistent(db)


@pytest.mark.slow
def test_two_concurrent_index_processes_leave_a_consistent_index(archive: Path, tmp_path: Path) -> None:
    for name in FILES[2:]:
        (archive / name).unlink()  # two files: each run writes both, one waits for the other's transaction
    db = tmp_path / "i.sqlite"
    alone = tmp_path / "alone.sqlite"
    index_paths([str(archive)], str(alone))
    command = [
        sys.executable,
        "-c",
        "from tabla_cli.cli import main; main()",
        "index",
        str(archive),
        "--db",
        str(db),
        "-q",
        "-j",
        "1",
    ]
    runs = [subprocess.Popen(command, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
    assert counts(db) == counts(alone)
    consistent(db)


def test_a_bad_file_is_indexed_with_its_finding_and_the_rest_go_on(archive: Path, tmp_path: Path) -> None:
    (archive / "broken.mat").write_text("5 point match\n\n Game 1\n Ann : 0  Bob : 0\n  1) 99: 8/1\n")
    code, _, err = tabla("index", str(archive), "--db", str(tmp_path / "i.sqlite"))
    assert code == 1
    assert "broken.mat" in err and "indexed 6 of 6 files" in err
    with sqlite3.connect(tmp_path / "i.sqlite") as connection:
        assert connection.execute("SELECT COUNT(*) FROM findings WHERE path LIKE '%broken.mat'").fetchone()[0] >= 1


def test_an_index_that_is_not_one_is_an_error_not_a_traceback(tmp_path: Path, archive: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all, just text that is long enough to be read" * 20)
    code, out, err = tabla("index", str(archive), "--db", str(junk))
    assert code == 1 and out == "" and "junk.sqlite" in err and "Traceback" not in err
    code, out, err = tabla("positions", "--db", str(tmp_path / "missing.sqlite"))
    assert code == 1 and "no such index" in err
    with pytest.raises(StoreError):
        open_store(str(tmp_path / "missing.sqlite"), create=False)


def test_unreachable_server_is_an_error(archive: Path) -> None:
    code, _, err = tabla("index", str(archive), "--db", "postgresql://nobody@127.0.0.1:1/none")
    assert code == 1 and "cannot connect" in err


def test_index_source_of_an_unreadable_file_keeps_no_hash(tmp_path: Path) -> None:
    found = index_source(str(tmp_path / "nothing.mat"), IndexOptions())
    assert found.stored.hash == "" and found.findings and found.findings[0].code == "unreadable-file"


# --- tags ----------------------------------------------------------------------


def test_phases() -> None:
    assert position_tags(Position.start(), rolls=1, classify=False)["phase"] == "opening"
    assert position_tags(Position.start(), rolls=9, classify=False)["phase"] == "middle"
    race = Position.from_points({8: 10, 3: 5}, {6: 15})
    assert position_tags(race, rolls=30, classify=False)["phase"] == "race"
    bearoff = Position.from_points({6: 10, 3: 5}, {6: 15})
    assert position_tags(bearoff, rolls=30, classify=False)["phase"] == "bearoff"


def test_plans_categories_and_pips_from_bgsage() -> None:
    tags = position_tags(Position.start(), rolls=1)
    assert tags["plan_player"] in {"purerace", "racing", "attacking", "priming", "anchoring"}
    assert tags["backgame"] is None and tags["containment"] is False
    primed = Position.from_points({8: 2, 7: 2, 6: 3, 5: 2, 4: 2, 13: 4}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert position_tags(primed, rolls=20)["prime_player"] == 5
    blitz = Position.from_points({6: 3, 5: 2, 4: 2, 3: 2, 2: 2, 13: 4}, {25: 2, 13: 5, 8: 3, 6: 5})
    assert position_tags(blitz, rolls=8, classify=False)["blitz"] is True


def test_events_hit_missed_closed_out_anchored() -> None:
    before = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 4, 24: 2, 20: 1})
    play = (Step(13, 9), Step(9, 5, True))
    hit = play_tags(before, (4, 4), play, before.apply(play), classify=False)
    assert hit["hit"] is True and hit["missed_hit"] is False
    closing = Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 8: 1, 7: 1, 13: 3}, {25: 1, 24: 14})
    play = (Step(8, 6), Step(7, 6))
    closed = play_tags(closing, (2, 1), play, closing.apply(play), classify=False)
    assert closed["closed_out"] is True
    back = Position.from_points({24: 1, 23: 1, 13: 13}, {6: 15})
    play = (Step(24, 20), Step(23, 20))
    assert play_tags(back, (4, 3), play, back.apply(play), classify=False)["anchored"] is True


def test_score_names() -> None:
    assert score_tags(0, (3, 9), 0, False, False)["score"] == "money"
    assert score_tags(5, (4, 4), 1, False, True)["score"] == "DMP"
    assert score_tags(5, (4, 2), 1, True, False)["score"] == "Crawford"
    assert score_tags(5, (4, 2), 1, False, True)["score"] == "post-Crawford"
    assert tag_words({"phase": "bearoff", "score": "GS", "closed_out": True}) == " bearoff gs closed-out "


# --- positions -------------------------------------------------------------------


def test_filters_choose_what_they_say(indexed: Path) -> None:
    with open_store(str(indexed), create=False) as store:
        every = find_positions(store, PositionFilter(sort="order"))
        takes = find_positions(store, PositionFilter(kind="take"))
        big = find_positions(store, PositionFilter(min_error=0.05, max_error=0.2))
        blunders = find_positions(store, PositionFilter(rating="blunder", kind="checker"))
        player = every[0]["player"]
        mine = find_positions(store, PositionFilter(players=(player.upper(),)))
        rolls = find_positions(store, PositionFilter(dice=("31",)))
        races = find_positions(store, PositionFilter(tags=("race",)))
        unlucky = find_positions(store, PositionFilter(sort="unlucky", limit=3, kind="checker"))
        dated = find_positions(store, PositionFilter(since="2026-01-01", until="2026-01-01"))
        later = find_positions(store, PositionFilter(since="2026-01-02"))
    assert takes and {r["kind"] for r in takes} == {"take"}
    assert big and all(0.05 <= r["error"] <= 0.2 for r in big)
    assert [r["error"] for r in big] == sorted((r["error"] for r in big), reverse=True)
    assert all(r["error"] > 0.12 and r["kind"] == "checker" for r in blunders)
    assert mine and {r["player"] for r in mine} == {player} and len(mine) < len(every)
    assert rolls and {r["dice"] for r in rolls} <= {"31", "13"}
    assert races and all("race" in r["tags"] for r in races)
    assert len(unlucky) == 3 and unlucky[0]["luck"] is None or unlucky[0]["luck"] <= unlucky[-1]["luck"]
    undated = [r for r in every if r["date"] is None]
    assert dated and undated and len(dated) + len(undated) == len(every) and later == []


def test_cli_positions_formats(indexed: Path, tmp_path: Path) -> None:
    db = str(indexed)
    code, out, err = tabla("positions", "--db", db, "--kind", "checker", "--limit", "5")
    assert code == 0 and out.splitlines()[0].split()[:3] == ["player", "kind", "dice"] and len(out.splitlines()) == 6
    assert err == "positions: 5 decisions\n"
    code, out, _ = tabla("positions", "--db", db, "--rating", "error", "--format", "json", "-q")
    rows = json.loads(out)
    assert rows and all(row["error"] > 0.06 for row in rows)
    code, out, _ = tabla("positions", "--db", db, "--limit", "4", "--format", "csv", "-q")
    table = list(csv.DictReader(io.StringIO(out)))
    assert len(table) == 4 and table[0]["xgid"].startswith("XGID=")
    code, out, _ = tabla("positions", "--db", db, "--limit", "4", "--kind", "checker", "--format", "xgid", "-q")
    xgids = out.splitlines()
    assert len(xgids) == 4
    for text in xgids:
        parse_xgid(text)
    code, out, _ = tabla("positions", "--db", db, "--limit", "3", "--format", "ids", "-q")
    ids = out.split()
    code, shown, err = tabla("show", *ids)
    assert code == 0 and shown.count("Position ID") == 3, err
    target = tmp_path / "worst.csv"
    assert tabla("positions", "--db", db, "--limit", "2", "-o", str(target), "-q")[0] == 0
    assert target.read_text().startswith("path,")
    code, _, err = tabla("positions", "--db", db, "-o", str(target))
    assert code == 1 and "use --force" in err


def sqlite_indexes(db: Path) -> set[str]:
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'decisions'")
        return {name for (name,) in rows if not name.startswith("sqlite_")}


def test_the_worst_decisions_are_read_off_an_index_in_error_order(archive: Path, tmp_path: Path) -> None:
    db = tmp_path / "i.sqlite"
    index_paths([str(archive)], str(db))
    assert sqlite_indexes(db) == {"decisions_player", "decisions_by_error"}
    with open_store(str(db), create=False) as store:
        condition, params = PositionFilter(kind="checker").where()
        plan = store.query(
            f"EXPLAIN QUERY PLAN SELECT * FROM decisions d WHERE {condition} ORDER BY {SORTS['error']}", params
        )
        worst = find_positions(store, PositionFilter(kind="checker", limit=5))
        every = find_positions(store, PositionFilter(kind="checker"))
    assert any("decisions_by_error" in row[-1] for row in plan)
    assert worst == every[:5] and [r["error"] for r in every if r["error"] is not None] == sorted(
        (r["error"] for r in every if r["error"] is not None), reverse=True
    )
    # an index made before decisions_by_error gets it (and loses the index it replaces) when next written
    with sqlite3.connect(db) as connection:
        connection.execute("DROP INDEX decisions_by_error")
        connection.execute("CREATE INDEX decisions_error ON decisions (error)")
    before = counts(db)
    index_paths([str(archive)], str(db))
    assert sqlite_indexes(db) == {"decisions_player", "decisions_by_error"} and counts(db) == before


def test_formats_of_the_stored_rows_are_the_formats_of_their_dicts(indexed: Path) -> None:
    with open_store(str(indexed), create=False) as store:
        rows = find_positions(store, PositionFilter(sort="order"))
    dicts = list(rows)
    assert isinstance(rows, Positions) and len(dicts) == len(rows) > 100 and rows == dicts and rows[:2] == dicts[:2]
    assert any(row["alternatives"] for row in dicts) and any(row["rolled_out"] is False for row in dicts)
    for fmt in ("table", "json", "csv", "xgid", "ids"):
        assert render_positions(rows, fmt) == render_positions(dicts, fmt), fmt
    assert json.loads(render_positions(rows, "json")) == dicts
    assert render_positions(Positions([]), "json") == "[]\n" and render_positions(Positions([]), "csv").count("\n") == 1


AWKWARD = {
    "path": 'a "quoted" \\ path\n with\x00 NUL, %s and ünïcödé ☃',
    "action": "",
    "equity": -0.0,
    "best_equity": float("nan"),
    "error": float("inf"),
    "luck": 1e-300,
    "seq": 2**70,
    "move": None,
    "rolled_out": 1,
    "tags": "",
}
"""Values that JSON, CSV and the table write in their own ways."""

ALTERNATIVES = (
    None,
    "[]",
    "{}",
    '[["8/5 6/5", 0.1, 0.0], ["13/10 6/5", -0.06931799999999999, 0.169318]]',
    '{"no double": 0.5, "double/take": 0.4, "double/pass": 1.0}',
    "[[], [1, [2, {}]], [[3]]]",
    '{"a": [1, {"b": []}], "c": {"d": [1, 2]}}',
    '[1, "x", [2]]',
    "[[1, [2]], [3]]",
    '["\\u2603", [null, true]]',
)


def test_json_of_stored_rows_is_json_dumps_for_awkward_values(indexed: Path) -> None:
    with open_store(str(indexed), create=False) as store:
        first = find_positions(store, PositionFilter(sort="order", limit=1)).stored[0]
    stored = []
    for number, alternatives in enumerate(ALTERNATIVES):
        row = list(first)
        for name, value in AWKWARD.items():
            row[NAMES.index(name)] = value
        row[NAMES.index("alternatives")] = alternatives
        row[NAMES.index("tags")] = " middle  hit " if number % 2 else None
        stored.append(tuple(row))
    zero = list(first)
    zero[NAMES.index("equity")] = 0.0  # equal to -0.0, written otherwise
    stored += [tuple(zero)] * 40  # columns of few values
    rows = Positions(stored)
    dicts = list(rows)
    assert render_positions(rows, "json") == json.dumps(dicts, indent=1, ensure_ascii=False) + "\n"
    for fmt in ("table", "csv", "xgid", "ids"):
        assert render_positions(rows, fmt) == render_positions(dicts, fmt), fmt


def test_cli_positions_player_means_what_it_means_in_report(indexed: Path) -> None:
    db = str(indexed)
    with open_store(db, create=False) as store:
        player = find_positions(store, PositionFilter(sort="order"))[0]["player"]
    wrong = player[:-1] + ("x" if player[-1] != "x" else "y")
    for source in (("--db", db), (str(indexed.parent),)):
        code, out, err = tabla("positions", *source, "--player", wrong)
        assert code == 1 and out == "", err
        assert f"positions: no match has a player named {wrong!r}; did you mean {player!r}" in err
    # any case by default, only the written one with --exact-case; an unknown name in that case exits 1
    code, out, err = tabla("positions", "--db", db, "--player", player.upper(), "--format", "json", "-q")
    assert code == 0 and json.loads(out) and {r["player"] for r in json.loads(out)} == {player}, err
    if player.upper() != player:
        code, out, err = tabla("positions", "--db", db, "--player", player.upper(), "--exact-case")
        assert code == 1 and "did you mean" in err
    code, out, err = tabla("positions", "--db", db, "--length", "999", "--format", "json", "-q")
    assert code == 0 and json.loads(out) == [], err
    code, _, err = tabla("positions", "--db", db, "--length", "3", "--money")
    assert code == 2 and "exclude each other" in err


def test_cli_positions_over_files_equals_over_the_index(indexed: Path) -> None:
    args = ("--kind", "checker", "--min-error", "0.02", "--format", "json", "-q")
    _, from_index, _ = tabla("positions", "--db", str(indexed), *args)
    code, from_files, err = tabla("positions", str(indexed.parent), *args)
    assert code == 0, err
    assert json.loads(from_files) == json.loads(from_index)


def test_cli_positions_usage_errors(indexed: Path) -> None:
    assert tabla("positions")[0] == 2
    assert tabla("positions", "--db", str(indexed), "x.mat")[0] == 2
    code, _, err = tabla("positions", "--db", str(indexed), "--dice", "71")
    assert code == 2 and "--dice" in err
    assert tabla("positions", "--db", str(indexed), "--format", "anki")[0] == 2


def test_anki_deck_passes_genanki_checks_and_opens(indexed: Path, tmp_path: Path) -> None:
    deck = tmp_path / "drill.apkg"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # genanki warns on invalid HTML in a field
        code, out, err = tabla("positions", "--db", str(indexed), "--rating", "error", "-o", str(deck))
    assert code == 0 and out == "", err
    wanted = int(err.split()[1])
    with zipfile.ZipFile(deck) as package:
        assert {"collection.anki2", "media"} <= set(package.namelist())
        (tmp_path / "collection.anki2").write_bytes(package.read("collection.anki2"))
    with sqlite3.connect(tmp_path / "collection.anki2") as connection:
        notes = connection.execute("SELECT flds FROM notes").fetchall()
        cards = connection.execute("SELECT COUNT(*) FROM cards").fetchone()[0]
        decks = connection.execute("SELECT decks FROM col").fetchone()[0]
    assert len(notes) == cards == wanted > 0
    fields = notes[0][0].split("\x1f")
    assert len(fields) == 4 and fields[1].startswith("<svg") and "Best:" in fields[3]
    assert all("<ol class='options'><li>" in note[0] for note in notes)  # the ranked plays or the cube equities
    assert "tabla positions" in decks


def test_quiz_page_holds_a_card_per_position(indexed: Path, tmp_path: Path) -> None:
    page = tmp_path / "quiz.html"
    code, _, err = tabla("positions", "--db", str(indexed), "--limit", "3", "--kind", "checker", "-o", str(page))
    assert code == 0, err
    text = page.read_text()
    assert text.count("<section class='card'") == 3 and text.count("<svg") == 3 and "Best:" in text
    rows = json.loads(
        tabla("positions", "--db", str(indexed), "--limit", "3", "--kind", "checker", "--format", "json")[1]
    )
    for row in rows:
        best_play, best_equity, no_loss = row["alternatives"][0]
        assert (best_play, best_equity, no_loss) == (row["best"], row["best_equity"], 0.0)


def test_analyze_db_writes_the_engine_results_into_the_index(tmp_path: Path) -> None:
    source = tmp_path / "m.mat"
    shutil.copy(DATA / "gnubg_5pt_05101.mat", source)
    db = str(tmp_path / "i.sqlite")
    index_paths([str(source)], db)
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(error) FROM decisions").fetchone() == (0,)
    code, _, err = tabla("analyze", str(source), "--level", "1ply", "--no-luck", "--db", db, "-q", "--format", "csv")
    assert code == 0, err
    with sqlite3.connect(db) as connection:
        total, judged, tagged, sources = connection.execute(
            "SELECT COUNT(*), COUNT(error), COUNT(phase), MIN(source) FROM decisions"
        ).fetchone()
        matches = connection.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    assert total == judged == tagged > 0 and sources == "bgsage 1ply" and matches == 1
    again = index_paths([str(source)], db)
    assert again.skipped == 1  # the analysis kept the file's hash: index does not read it again


# --- report --db -------------------------------------------------------------------


def same_reports(indexed: Path, tables: tuple[str, ...]) -> None:
    """``report --db`` prints what ``report PATH`` prints, table by table (as CSV)."""
    from tabla_cli.reports.options import PLAYER_TABLES

    folder = str(indexed.parent)
    with sqlite3.connect(indexed) as connection:
        player = connection.execute("SELECT player0 FROM matches ORDER BY path LIMIT 1").fetchone()[0]
    for table in tables:
        extra = ("--player", player) if table in PLAYER_TABLES else ()
        args = ("--by", table, "--format", "csv", "-q", *extra)
        code, from_files, err = tabla("report", folder, *args)
        assert code == 0, err
        code, from_index, err = tabla("report", "--db", str(indexed), *args)
        assert code == 0, err
        assert from_files.count("\n") > 1, table
        assert from_index == from_files, table


def test_report_from_the_index_equals_the_report_from_the_files(indexed: Path) -> None:
    same_reports(indexed, ("player", "match", "decisions"))


@pytest.mark.slow
def test_report_from_the_index_equals_the_report_from_the_files_on_every_table(indexed: Path) -> None:
    from tabla_cli.reports.options import TABLE_NAMES

    same_reports(indexed, TABLE_NAMES)


def test_report_db_usage(indexed: Path) -> None:
    assert tabla("report")[0] == 2
    assert tabla("report", "--db", str(indexed), "x.mat")[0] == 2
    assert tabla("report", "--db", str(indexed), "--analyze", "1ply")[0] == 2


@pytest.mark.slow
def test_index_level_evaluates_what_no_analysis_judges(tmp_path: Path) -> None:
    source = tmp_path / "m.mat"
    shutil.copy(DATA / "gnubg_5pt_05101.mat", source)
    db = str(tmp_path / "i.sqlite")
    code, _, err = tabla("index", str(source), "--db", db, "--level", "1ply", "-j", "1")
    assert code == 0, err
    with open_store(db, create=False) as store:
        rows = find_positions(store, PositionFilter(kind="checker", sort="order"))
    assert rows and all(row["source"] == "bgsage 1ply" and row["error"] is not None for row in rows)
    assert all(row["luck"] is not None for row in rows if row["dice"])
