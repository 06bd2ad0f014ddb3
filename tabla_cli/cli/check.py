"""``tabla check``: is every match legal? Findings on stderr (or JSON on stdout) and a summary."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import click

from tabla_cli.cli.options import (
    format_option,
    input_options,
    progress,
    read_options,
    reports_errors,
    scoring_option,
    stdin_source,
)
from tabla_cli.words import plural

if TYPE_CHECKING:
    from tabla_cli.check import FileReport


@click.command("check")
@click.argument("paths", nargs=-1, required=True)
@format_option("text", "json", "jsonl", default="text")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("--notes", "show_notes", is_flag=True, help="Show notes too (by default only counted in the summary).")
@click.option("-v", "--verbose", "show_all", is_flag=True, help="Show every finding: the same as --notes.")
@click.option(
    "--verify",
    is_flag=True,
    help="Check the signatures of OGXM files too: one that does not verify is an error, a match with none a note.",
)
@click.option(
    "--trusted-key",
    "trusted",
    multiple=True,
    metavar="KEY",
    help="With --verify: an Ed25519 public key (base64 or hex) a signature must be by; repeat for several.",
)
@input_options(quiet="No progress bar and no summary.")
@scoring_option
@reports_errors
def check(
    paths: tuple[str, ...],
    fmt: str,
    strict: bool,
    show_notes: bool,
    show_all: bool,
    jobs: int | None,
    scheduler: str | None,
    quiet: bool,
    encoding: str | None,
    max_size: int,
    scoring: str | None,
    verify: bool,
    trusted: tuple[str, ...],
) -> None:
    """Check that every match in PATHS (files or directories, '-' for stdin) is legal.

    Findings go to stderr as FILE:LINE:COL: severity[code]: message (or to
    stdout as JSON with --format json/jsonl, notes included). Text output
    shows errors and warnings; notes are counted in the summary (--notes or
    -v shows them). Below directories, files that are not match transcripts
    are skipped and counted. Exit 0 when no errors, 1 when any error (or
    warning with --strict) or no transcript at all, 2 on usage errors.
    """
    from tabla_cli.check import check_sources
    from tabla_cli.findings import Severity
    from tabla_cli.source import LeftOut, collect_sources

    start = time.perf_counter()
    options = read_options(encoding, max_size, scoring=scoring)
    if verify or trusted:
        options = dataclasses.replace(options, verify=True, trusted_keys=_keys(trusted))
    left_out = LeftOut()
    names = collect_sources((p for p in paths if p != "-"), left_out)
    for message in left_out.messages(verbose=show_all):
        click.echo(message, err=True)
    if not names and "-" not in paths:
        raise click.ClickException(f"no match transcripts found under {', '.join(paths)}")
    with progress(len(names), quiet, "checking") as advance:
        stdin = stdin_source(max_size) if "-" in paths else None
        checked = check_sources(
            names, options, stdin=stdin, jobs=jobs or os.cpu_count() or 1, scheduler=scheduler, progress=advance
        )
        reports, out = _show(checked, fmt, show_notes or show_all)
    if fmt == "json":
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
    counts = Counter(f.code for r in reports for f in r.findings)
    errors = sum(r.count(Severity.ERROR) for r in reports)
    warnings = sum(r.count(Severity.WARNING) for r in reports)
    if not quiet:
        _summary(reports, counts, time.perf_counter() - start)
    if errors or left_out.unreadable or (strict and warnings):
        sys.exit(1)


def _show(checked: Iterable[FileReport], fmt: str, show_notes: bool) -> tuple[list[FileReport], list[dict[str, Any]]]:
    """Render the findings of each report as it comes (text on stderr, JSON Lines on stdout); the reports,
    and with ``--format json`` their findings to write at the end."""
    from tabla_cli.findings import Severity

    reports: list[FileReport] = []
    out: list[dict[str, Any]] = []
    for report in checked:
        reports.append(report)
        for finding in report.findings:
            if fmt == "text":
                if show_notes or finding.severity is not Severity.NOTE:
                    click.echo(finding.render(), err=True)
            elif fmt == "json":
                out.append(finding.to_dict())
            else:
                click.echo(json.dumps(finding.to_dict(), ensure_ascii=False))
    return reports, out


def _keys(texts: tuple[str, ...]) -> tuple[bytes, ...] | None:
    """The raw keys of ``--trusted-key`` (None when none is given); a key that cannot be read is a usage error."""
    from tabla_cli.signatures import parse_key

    if not texts:
        return None
    try:
        return tuple(parse_key(text) for text in texts)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--trusted-key") from None


def _summary(reports: list[FileReport], counts: Counter[str], seconds: float) -> None:
    from tabla_cli.findings import CODES

    matches = sum(r.matches for r in reports)
    games = sum(r.games for r in reports)
    plays = sum(r.plays for r in reports)
    rate = f"{matches / seconds:,.0f} matches/s, {plays / seconds:,.0f} plays/s" if seconds else ""
    counted = ", ".join(
        plural(n, word) for n, word in ((len(reports), "file"), (matches, "match"), (games, "game"), (plays, "play"))
    )
    click.echo(f"checked {counted} in {seconds:.2f} s ({rate})", err=True)
    for severity in ("error", "warning", "note"):
        found = {c: n for c, n in sorted(counts.items()) if CODES[c][0].value == severity}
        if found:
            listed = ", ".join(f"{c} {n}" for c, n in found.items())
            click.echo(f"{severity}s: {sum(found.values())} ({listed})", err=True)
    failed = [r.path for r in reports if any(f.severity.value == "error" for f in r.findings)]
    if failed:
        shown = ", ".join(failed[:_NAMED_FILES])
        more = f" and {len(failed) - _NAMED_FILES} more" if len(failed) > _NAMED_FILES else ""
        click.echo(f"files with errors ({len(failed)}): {shown}{more}", err=True)


_NAMED_FILES = 20
"""Files with errors named in the summary of ``tabla check`` (the rest are counted)."""
