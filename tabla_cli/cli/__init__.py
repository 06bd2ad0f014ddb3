"""The ``tabla`` command: a thin layer that parses options, calls the library and renders.

Each command lives in its own module of this package; this one holds the
``tabla`` group and registers them.
"""

from __future__ import annotations

import inspect
from typing import Any

import click

from tabla_cli import __version__
from tabla_cli.cli import channels
from tabla_cli.cli.analyze import analyze
from tabla_cli.cli.check import check
from tabla_cli.cli.convert import convert
from tabla_cli.cli.cube import cube
from tabla_cli.cli.index import index
from tabla_cli.cli.options import TRACEBACK
from tabla_cli.cli.positions import positions
from tabla_cli.cli.report import report
from tabla_cli.cli.rollout import rollout
from tabla_cli.cli.show import plays, show

__all__ = ["main"]


class _TablaGroup(click.Group):
    """The ``tabla`` group: ``--help`` lists every command's summary in full, never cut short.

    A command's summary is its ``short_help``, else the first paragraph of its help.
    """

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                first = inspect.cleandoc(command.help or "").split("\n\n")[0]
                rows.append((name, " ".join((command.short_help or first).split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """The command line, its standard streams guarded (:mod:`tabla_cli.cli.channels`) when it exits."""
        if kwargs.get("standalone_mode", True) is False:
            return super().main(*args, **kwargs)
        channels.run(lambda: super(_TablaGroup, self).main(*args, **kwargs))


@click.group(cls=_TablaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="tabla")
@click.option("--traceback", is_flag=True, help="Show the Python traceback of an error (for a bug report).")
@click.option(
    "-v",
    "--verbose",
    "old_traceback",
    is_flag=True,
    help="Deprecated spelling of --traceback before the command (-v belongs to the commands: "
    "'tabla check -v' shows every finding).",
)
@click.pass_context
def main(ctx: click.Context, traceback: bool, old_traceback: bool) -> None:
    """Check, convert and summarise backgammon (tabla) match transcripts.

    Shell completion: see the README (bash, zsh and fish, through
    _TABLA_COMPLETE).
    """
    if old_traceback:
        click.echo("tabla: -v/--verbose before the command is deprecated: use --traceback", err=True)
    ctx.meta[TRACEBACK] = traceback or old_traceback


for _command in (check, show, plays, cube, rollout, analyze, convert, report, index, positions):
    main.add_command(_command)
