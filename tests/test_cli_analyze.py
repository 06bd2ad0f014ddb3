"""``tabla analyze``: tables of skill errors, recorded analysis, HTML with boards, exit codes."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tabla_cli.cli import main

from helpers import CORPUS, EXAMPLES, tabla_command

THREE_POINT = str(EXAMPLES / "three-point-match.mat")
EXPORT = CORPUS / "txt" / "bglab-lasse-0-ply-match1788245.txt"
EXPORT_2PLY = str(CORPUS / "txt" / "bglab-lasse-2-ply-match967143.txt")


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own evaluation cache."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("TABLA_CACHE_DIR", str(folder))
    return folder


run = tabla_command("analyze")


def test_one_row_per_match_and_player() -> None:
    code, out, err = run(THREE_POINT, "--level", "1ply", "--format", "json", "-j", "1")
    assert code == 0, err
    rows = json.loads(out)
    assert [(r["player"], r["opponent"]) for r in rows] == [("Petar", "Maria"), ("Maria", "Petar")]
    for row in rows:
        assert row["file"] == THREE_POINT and row["match"] == 1
        assert row["decisions"] > 0 and row["error_rate"] >= 0
        assert row["pr"] == pytest.approx(row["error_rate"] / 2)
    assert re.search(r"analyzed 1 file, 1 match, \d+ decisions at 1ply", err)


def test_decisions_are_consistent() -> None:
    code, out, err = run(THREE_POINT, "--level", "1ply", "--by", "decision", "--format", "json", "-j", "1")
    assert code == 0, err
    rows = json.loads(out)
    kinds = {r["kind"] for r in rows}
    assert kinds == {"checker", "double", "take"}
    for row in rows:
        assert row["source"] == "bgsage 1ply"
        assert row["position_id"] and row["match_id"]
        if row["forced"]:
            assert row["kind"] != "checker" or row["options"] == 1
            continue
        assert row["error"] >= 0
        assert (row["rank"] == 1) == (row["error"] == 0)
        if row["kind"] == "checker":
            assert row["dice"] and row["options"] > 1 and row["luck"] is not None
    checkers = [r for r in rows if r["kind"] == "checker"]
    assert len(checkers) == 16


def test_cache_gives_the_same_numbers(cache_dir: Path) -> None:
    first = run(THREE_POINT, "--level", "1ply", "--by", "decision", "--format", "csv", "-j", "1")
    assert any(cache_dir.iterdir())
    second = run(THREE_POINT, "--level", "1ply", "--by", "decision", "--format", "csv", "-j", "1")
    uncached = run(THREE_POINT, "--level", "1ply", "--by", "decision", "--format", "csv", "--no-cache")
    assert first[1] == second[1] == uncached[1]


def test_recorded_analysis_reproduces_gnubg_error_rates() -> None:
    code, out, err = run(str(EXPORT), "--by", "player", "--format", "json")
    assert code == 0, err
    rows = {r["player"]: r for r in json.loads(out)}
    text = EXPORT.read_text()
    statistics = text[text.index("Game statistics") :]
    header = re.search(r"^Player\s+(\S+)\s+(\S+)", statistics, re.MULTILINE)
    assert header is not None
    # Checker play, cube decisions, then overall: gnubg prints the overall rate last, as a loss (< 0).
    overall = re.findall(r"^Error rate mEMG \(MWC\)\s+([-0-9.]+)\s+\([^)]*\)\s+([-0-9.]+)", statistics, re.MULTILINE)[
        -1
    ]
    for name, value in zip(header.groups(), overall):
        assert rows[name]["error_rate"] == pytest.approx(abs(float(value)), abs=0.5)
        assert rows[name]["decisions"] > 0


def test_engine_instead_of_recorded_analysis() -> None:
    code, out, _ = run(
        str(EXPORT), "--by", "decision", "--format", "json", "--no-recorded", "--level", "1ply", "--no-luck"
    )
    assert code == 0
    assert {r["source"] for r in json.loads(out)} == {"bgsage 1ply"}


def test_html_has_worst_decisions_on_boards(tmp_path: Path) -> None:
    target = tmp_path / "skill.html"
    code, out, err = run(THREE_POINT, "--level", "1ply", "-o", str(target))
    assert code == 0 and out == "", err
    page = target.read_text()
    assert "<h2>Worst decisions</h2>" in page and 'src="data:image/png;base64,' in page
    section = page[page.index("<h2>Worst decisions</h2>") :]
    boards = re.findall(r"<svg.*?</svg>", section, re.DOTALL)
    assert 1 <= len(boards) <= 20
    for board in boards:
        root = ET.fromstring(board)
        assert root.find("{http://www.w3.org/2000/svg}title") is not None
    assert section.count("<figcaption>") == len(boards)
    full = str(Path(THREE_POINT))
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", section, re.DOTALL)
    assert all(f'<span title="{full}">three-point-match.mat</span>' in c for c in captions)


def test_output_is_not_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_text("keep")
    code, _, err = run(THREE_POINT, "--level", "1ply", "-o", str(target))
    assert code == 1 and "--force" in err and target.read_text() == "keep"
    code, _, _ = run(THREE_POINT, "--level", "1ply", "-o", str(target), "--force")
    assert code == 0 and target.read_text().startswith("file,match,player")


def test_findings_of_the_check_come_first() -> None:
    bad = CORPUS / "mat" / "gammonview-5nqfGw9bWG3deTaU.mat"
    code, out, err = run(str(bad), "--level", "1ply", "--no-luck", "--format", "json")
    assert code == 1
    assert "error[illegal-play]" in err
    assert json.loads(out)


def test_quiet_keeps_the_errors_as_check_does() -> None:
    """-q leaves out progress and the summary line, never the reason for exit 1."""
    bad = CORPUS / "mat" / "gammonview-5nqfGw9bWG3deTaU.mat"
    code, out, err = run(str(bad), "--level", "1ply", "--no-luck", "--format", "json", "-q")
    assert code == 1
    assert err.count("error[illegal-play]") == 1
    assert "analyzed" not in err and "analysing" not in err
    assert json.loads(out)


@pytest.mark.parametrize("args", [["--level", "7ply"], ["--by", "game"], ["--format", "xml"], []])
def test_usage_errors(args: list[str]) -> None:
    code, _, _ = run(*args) if args else run()
    assert code == 2


def _decision_rows(*args: str) -> list[dict[str, object]]:
    """The decision rows of ``tabla analyze ARGS``, without the columns naming the file read."""
    code, out, err = run(*args, "--by", "decision", "--format", "json", "-j", "1")
    assert code == 0, err
    rows = json.loads(out)
    for row in rows:
        del row["file"], row["match"]
    return rows


def _no_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the engine was called")

    monkeypatch.setattr("tabla_cli.analysis.file_analysis.analyse_cached", refuse)
    monkeypatch.setattr("tabla_cli.analysis.engine.analyse", refuse)


@pytest.mark.parametrize(
    "source, args", [(THREE_POINT, ["--level", "1ply"]), (str(EXPORT), [])], ids=["engine-1ply", "recorded-gnubg"]
)
def test_out_dir_keeps_the_analysis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, args: list[str]
) -> None:
    out = tmp_path / "analysed"
    first = _decision_rows(source, *args, "--out-dir", str(out))
    target = out / (Path(source).stem + ".json")
    assert [p.name for p in out.iterdir()] == [target.name]
    document = json.loads(target.read_text(encoding="utf-8"))
    actions = [a for g in document["matches"][0]["games"] for a in g["actions"]]
    assert any("checker" in a.get("analysis", {}) for a in actions)
    assert any("cube" in a.get("analysis", {}) for a in actions)
    _no_engine(monkeypatch)
    assert _decision_rows(str(out), *args) == first
    for command in ("check", "report"):
        result = CliRunner().invoke(main, [command, str(out), "-j", "1", "--quiet"])
        assert result.exit_code == 0, result.stderr


def test_out_dir_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    target = out / "three-point-match.json"
    target.write_text("keep")
    code, _, err = run(THREE_POINT, "--level", "1ply", "--out-dir", str(out), "-q")
    assert code == 1 and "--force" in err and target.read_text() == "keep"
    code, _, err = run(THREE_POINT, "--level", "1ply", "--out-dir", str(out), "-q", "--force")
    assert code == 0, err
    assert json.loads(target.read_text())["schema"] == "tabla-match/1"


def test_out_dir_never_replaces_an_input(tmp_path: Path) -> None:
    code, _, err = run(THREE_POINT, "--level", "1ply", "--out-dir", str(tmp_path), "-q")
    assert code == 0, err
    analysed = tmp_path / "three-point-match.json"
    before = analysed.read_bytes()
    code, _, err = run(str(analysed), "--out-dir", str(tmp_path), "--force", "-q")
    assert code == 1 and "it is an input" in err, err
    link = tmp_path / "link"
    link.mkdir()
    (link / "three-point-match.json").hardlink_to(analysed)
    code, _, err = run(str(link / "three-point-match.json"), "--out-dir", str(tmp_path), "--force", "-q")
    assert code == 1 and "it is an input" in err, err
    assert analysed.read_bytes() == before


def test_out_dir_names_are_unique_and_mirror_folders(tmp_path: Path) -> None:
    from tabla_cli.cli.analyze import analysed_json_paths

    text = Path(THREE_POINT).read_text()
    for name in ("in/a/m.mat", "in/b/m.mat", "x.mat", "y/x.sgf", "z/x.mat", "w.mat"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    inputs = tuple(str(tmp_path / n) for n in ("in", "x.mat", "y/x.sgf", "z/x.mat", "w.mat"))
    out = tmp_path / "out"
    assert [p.relative_to(out).as_posix() for p in analysed_json_paths(inputs, out)] == [
        "a/m.json",
        "b/m.json",
        "x.mat.json",
        "x.sgf.json",
        "x.mat-2.json",
        "w.json",
    ]


def test_out_dir_documents_do_not_depend_on_jobs(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    for name in ("a.mat", "b.mat"):
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(Path(THREE_POINT).read_text())
    texts = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        code, _, err = run(str(folder), "--level", "1ply", "--no-luck", "--out-dir", str(out), "-j", jobs, "-q")
        assert code == 0, err
        texts.append([(p.name, p.read_text()) for p in sorted(out.iterdir())])
    assert texts[0] == texts[1] and [name for name, _ in texts[0]] == ["a.json", "b.json"]


def test_the_cli_offers_the_engine_levels() -> None:
    """The CLI names the levels without loading the engine; they are the engine's."""
    from tabla_cli.analysis.engine import LEVELS as ENGINE_LEVELS
    from tabla_cli.cli.options import LEVELS

    assert LEVELS == ENGINE_LEVELS


def _two_matches(tmp_path: Path) -> Path:
    """A folder with the three-point match twice: Petar v Maria, and the same played by Ivan v Maria."""
    folder = tmp_path / "archive"
    folder.mkdir()
    text = Path(THREE_POINT).read_text(encoding="utf-8")
    (folder / "a.mat").write_text(text, encoding="utf-8")
    (folder / "b.mat").write_text(text.replace("Petar", "Ivan"), encoding="utf-8")
    return folder


def _count_engine(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record how many decisions each engine batch gets."""
    from tabla_cli.analysis.cache import analyse_cached

    batches: list[int] = []

    def counting(wanted: Any, *args: Any, **kw: Any) -> Any:
        batches.append(len(wanted))
        return analyse_cached(wanted, *args, **kw)

    monkeypatch.setattr("tabla_cli.analysis.file_analysis.analyse_cached", counting)
    return batches


def test_filters_choose_the_matches_and_the_players_rows_before_the_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _two_matches(tmp_path)
    batches = _count_engine(monkeypatch)
    code, out, err = run(str(folder), "--player", "Ivan", "--level", "1ply", "--format", "json", "-j", "1")
    assert code == 0, err
    assert "analyze: player Ivan: 1 of 2 matches; 1 file of 2 to analyse" in err
    assert {row["player"] for row in json.loads(out)} == {"Ivan"}
    assert len(batches) == 1
    code, out, err = run(str(folder), "--player", "ivan", "--level", "1ply", "--format", "json", "-j", "1")
    assert "1 file of 2" in err and {row["player"] for row in json.loads(out)} == {"Ivan"}
    code, out, err = run(str(folder), "--opponent", "Ivan", "--level", "1ply", "--format", "json", "-j", "1")
    assert code == 0 and {row["player"] for row in json.loads(out)} == {"Ivan", "Maria"}
    for name, hint in (("Ivna", "; did you mean 'Ivan'?"), ("Nobody", "")):
        code, out, err = run(str(folder), "--player", name, "--level", "1ply", "-j", "1")
        assert (code, out) == (1, "")
        assert f"analyze: no match has a player named {name!r}{hint}" in err
    assert len(batches) == 3


def test_a_date_filter_counts_the_undated_matches_it_leaves_out(tmp_path: Path) -> None:
    folder = _two_matches(tmp_path)  # both played on 2025-03-14; b.mat's date taken out
    undated = folder / "b.mat"
    undated.write_text(undated.read_text(encoding="utf-8").replace('; [EventDate "2025.03.14"]\n', ""), "utf-8")
    code, out, err = run(str(folder), "--since", "2025-01-01", "--level", "1ply", "--format", "json", "-j", "1")
    assert code == 0 and {row["player"] for row in json.loads(out)} == {"Petar", "Maria"}
    assert "since 2025-01-01: 1 of 2 matches; 1 undated match left out (--keep-undated keeps them)" in err
    code, out, err = run(
        str(folder), "--since", "2025-01-01", "--keep-undated", "--level", "1ply", "--format", "json", "-j", "1"
    )
    assert (
        code == 0
        and "(1 undated, kept)" in err
        and {row["player"] for row in json.loads(out)}
        == {
            "Petar",
            "Ivan",
            "Maria",
        }
    )


def test_player_means_the_same_in_analyze_and_report(tmp_path: Path) -> None:
    folder = _two_matches(tmp_path)
    code, out, _ = run(str(folder), "--player", "Ivan", "--level", "1ply", "--by", "player", "--format", "json")
    report = CliRunner().invoke(
        main, ["report", str(folder), "--analyze", "--player", "Ivan", "--format", "json", "-j", "1"]
    )
    assert code == report.exit_code == 0, report.stderr
    assert [row["player"] for row in json.loads(out)] == [row["player"] for row in json.loads(report.stdout)]
    for command in (["analyze"], ["report", "--analyze", "1ply"], ["report"]):
        result = CliRunner().invoke(main, [*command, str(folder), "--player", "Ivna", "-j", "1"])
        assert result.exit_code == 1 and "did you mean 'Ivan'?" in result.stderr, command


def test_report_analyze_evaluates_only_the_chosen_matches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _two_matches(tmp_path)
    batches = _count_engine(monkeypatch)
    result = CliRunner().invoke(
        main, ["report", str(folder), "--analyze", "1ply", "--player", "Ivan", "--format", "json", "-j", "1"]
    )
    assert result.exit_code == 0, result.stderr
    assert len(batches) == 1
    assert {row["player"] for row in json.loads(result.stdout)} == {"Ivan"}
    assert re.search(r"analysing: 1/1 file, 1 match, [\d.]+ matches/s", result.stderr)
    assert "report: player Ivan: 1 of 2 files holds a chosen match; analysing those" in result.stderr
    result = CliRunner().invoke(main, ["report", str(folder), "--analyze", "1ply", "--player", "Ivna", "-j", "1"])
    assert "no match has a player named 'Ivna'; did you mean 'Ivan'?" in result.stderr
    assert len(batches) == 1


def test_progress_off_a_terminal_is_a_line_every_few_seconds() -> None:
    code, _, err = run(THREE_POINT, "--level", "1ply", "-j", "1")
    assert code == 0
    assert re.search(r"^analysing: 1/1 file, 1 match, [\d.]+ matches/s, [\d,]+ decisions/s$", err, re.M)
    code, _, err = run(THREE_POINT, "--level", "1ply", "-j", "1", "--quiet")
    assert "analysing" not in err


def test_no_cube_decision_before_a_games_opening_roll() -> None:
    rows = _decision_rows(THREE_POINT, "--level", "1ply", "--no-luck")
    for game in {row["game"] for row in rows}:
        first = next(row for row in rows if row["game"] == game)
        assert first["kind"] == "checker", first


def test_forced_plays_are_not_close() -> None:
    rows = _decision_rows(THREE_POINT, "--level", "1ply", "--no-luck") + _decision_rows(str(EXPORT))
    forced = [row for row in rows if row["kind"] == "checker" and row["forced"]]
    assert forced and not any(row["close"] for row in forced)
    assert all(row["close"] for row in rows if row["kind"] == "checker" and not row["forced"])


def test_summary_names_where_the_numbers_come_from() -> None:
    _, _, err = run(str(EXPORT), "--level", "2ply")
    assert re.search(r"analyzed 1 file, 1 match, \d+ decisions from recorded analysis in", err)
    assert "2ply" not in err


def test_a_missing_rating_is_spelt_one_way() -> None:
    """No luck figures (the export's luck analysis is off) and no analysis at all read the same: null."""
    result = CliRunner().invoke(main, ["report", str(EXPORT), THREE_POINT, "--by", "player", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    rows = {row["player"]: row for row in json.loads(result.stdout)}
    assert {row["luck_rating"] for row in rows.values()} == {None}
    assert rows["Petar"]["skill_rating"] is None and rows["lasse"]["skill_rating"] == "Advanced"


def test_one_process_gives_the_engine_every_core_unless_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tabla_cli.analysis.cache import analyse_cached
    from tabla_cli.analysis.threads import cores as _cores

    threads: list[int] = []

    def recording(wanted: Any, level: str, engine_threads: int, **kw: Any) -> Any:
        threads.append(engine_threads)
        return analyse_cached(wanted, level, engine_threads, **kw)

    monkeypatch.setattr("tabla_cli.analysis.file_analysis.analyse_cached", recording)
    folder = _two_matches(tmp_path)
    for args in ([THREE_POINT], [str(folder), "-j", "1"], [THREE_POINT, "--threads", "1"]):
        code, _, err = run(*args, "--level", "1ply", "--no-luck", "--format", "json")
        assert code == 0, err
    assert threads == [_cores(), _cores(), _cores(), 1]


def test_columns_chooses_and_a_terminal_table_leaves_out_the_all_zero_ones() -> None:
    code, out, err = run(EXPORT_2PLY, "--columns", "pr,player", "-q")
    assert (code, err) == (0, "")
    assert out.splitlines()[0].split() == ["pr", "player"]
    code, out, _ = run(EXPORT_2PLY, "--columns", "player,pr", "--format", "csv", "-q")
    assert out.splitlines()[0] == "player,pr"
    _, table, _ = run(EXPORT_2PLY, "-q")
    _, csv_text, _ = run(EXPORT_2PLY, "--format", "csv", "-q")
    header = csv_text.splitlines()[0].split(",")
    assert "wrong_takes" in header and "wrong_takes" not in table.splitlines()[0].split()
    code, out, err = run(EXPORT_2PLY, "--columns", "player,nope", "-q")
    assert code == 2 and "--columns: no column 'nope'; the table has file, match, player" in err


def test_one_row_per_game_and_player() -> None:
    """``--by game``: each game's decisions, errors and luck per player; they add up to the match's."""
    sgf = CORPUS / "sgf" / "gnubg-bglab-lasse-match8640511.sgf"
    code, out, err = run(str(sgf), "--by", "game", "--format", "json", "-j", "1")
    assert code == 0, err
    assert "analyzed 1 file," in err and out.startswith("[")
    games = json.loads(out)
    code, out, err = run(str(sgf), "--by", "match", "--format", "json", "-j", "1")
    assert code == 0, err
    matches = {row["player"]: row for row in json.loads(out)}
    assert len(games) == 2 * max(row["game"] for row in games)
    assert [(row["match"], row["game"]) for row in games[:2]] == [(1, 1), (1, 1)]
    assert list(games[0])[:4] == ["file", "match", "game", "player"]
    for player, whole in matches.items():
        mine = [row for row in games if row["player"] == player]
        for column in ("decisions", "unforced", "close_cube", "xg_decisions", "blunders"):
            assert sum(row[column] for row in mine) == whole[column], column
        for column in ("error_total", "luck_total", "error_total_mwc", "actual_result", "luck_adjusted_result"):
            assert sum(row[column] for row in mine) == pytest.approx(whole[column], abs=1e-9), column
