"""Which matches a report is about, said without the frames: :class:`ReportFilter` (the filter options), and
:class:`MatchChoice`, the same filter tested on one match as it begins (from its headers), so that the engine
never sees a match the report leaves out. :mod:`tabla_cli.reports.filters` applies the filter to the frames.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabla_cli.model import Match

__all__ = ["MatchChoice", "ReportFilter"]


@dataclass(frozen=True, slots=True)
class ReportFilter:
    """Which matches a report counts; an empty field selects everything.

    Attributes:
        players: matches with one of these players on either side.
        opponents: matches against one of these (with ``players``: the
            other side of the player; else either side).
        since: first date kept (``YYYY-MM-DD``, inclusive).
        until: last date kept (inclusive). Undated matches are left out by
            both (a date filter cannot say they belong) and counted in
            :attr:`FilterResult.undated`.
        keep_undated: keep the undated matches a date filter meets (still counted).
        site: the Site header, compared without case.
        length: match length in points.
        money: money sessions only.
    """

    players: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    site: str | None = None
    length: int | None = None
    money: bool = False
    keep_undated: bool = False

    @property
    def selects(self) -> bool:
        """Whether the filter leaves anything out at all."""
        return bool(
            self.players
            or self.opponents
            or self.since
            or self.until
            or self.site
            or self.length is not None
            or self.money
        )

    @property
    def dated(self) -> bool:
        """Whether the filter looks at dates."""
        return self.since is not None or self.until is not None

    def describe(self) -> str:
        """The filter in words, for report headings."""
        parts = [f"player {', '.join(self.players)}"] if self.players else []
        if self.opponents:
            parts.append(f"opponent {', '.join(self.opponents)}")
        if self.since:
            parts.append(f"since {self.since}")
        if self.until:
            parts.append(f"until {self.until}")
        if self.site:
            parts.append(f"site {self.site}")
        if self.length is not None:
            parts.append(f"{self.length}-point matches")
        if self.money:
            parts.append("money sessions")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class MatchChoice:
    """Whether one match may be among those a report's filter keeps, from what its headers say: tested as
    the match begins, so that the engine never sees a match the report leaves out (picklable).

    It never leaves out a match the filter keeps (:func:`~tabla_cli.reports.filters.filter_frames`, which
    decides after the replay): names are compared without case, through ``aliases`` either way, and an
    undated match is kept for the dates to judge. It may keep a few more, which the report then drops.

    Attributes:
        filter: the report's filter (its names in any case).
        aliases: ``alias -> player`` names.
    """

    filter: ReportFilter
    aliases: tuple[tuple[str, str], ...] = ()

    def _names(self, name: str) -> set[str]:
        """``name`` and what the aliases make of it, without case."""
        names = {name}
        for alias, player in self.aliases:
            if name.casefold() in (alias.casefold(), player.casefold()):
                names |= {alias, player}
        return {n.casefold() for n in names}

    def _plays(self, name: str, wanted: tuple[str, ...]) -> bool:
        return bool(self._names(name) & {n.casefold() for n in wanted})

    def __call__(self, match: Match) -> bool:
        from tabla_cli.reports.rows import match_date

        flt = self.filter
        first, second = match.players
        if flt.players and flt.opponents:
            if not (
                (self._plays(first, flt.players) and self._plays(second, flt.opponents))
                or (self._plays(second, flt.players) and self._plays(first, flt.opponents))
            ):
                return False
        else:
            wanted = flt.players or flt.opponents
            if wanted and not (self._plays(first, wanted) or self._plays(second, wanted)):
                return False
        date = match_date(match)
        if date is not None and (
            (flt.since is not None and date < flt.since) or (flt.until is not None and date > flt.until)
        ):
            return False
        if flt.site is not None and (match.header("Site") or "").casefold() != flt.site.casefold():
            return False
        if flt.length is not None and match.length != flt.length:
            return False
        return not (flt.money and match.length)
