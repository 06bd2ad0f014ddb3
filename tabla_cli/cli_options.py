"""Options shared by several ``tabla`` commands (kept apart so that every command module can import them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def _find_scoring(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from tabla_cli.errors import TablaError
    from tabla_cli.scoring import find_scoring

    try:
        return find_scoring(value).name
    except TablaError as exc:
        raise click.BadParameter(str(exc)) from exc


def scoring_option(func: F) -> F:
    """``--scoring NAME``: the scoring rule set, winning over the transcripts' ``Scoring`` headers."""
    option = click.option(
        "--scoring", metavar="NAME", default=None, callback=_find_scoring,
        help="Score every game by this rule set: standard (1, 2, 3) or 1-2-4-8 (old Bulgarian); "
             "wins over a transcript's Scoring header.",
    )
    return option(func)
