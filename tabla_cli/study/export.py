"""What ``tabla positions`` writes: a table, JSON, CSV, XGIDs, IDs for ``tabla show``, an Anki deck, an HTML quiz.

Each renderer takes the decisions :func:`~tabla_cli.study.query.find_positions`
found and returns the output's text or bytes (the command writes them
atomically). The Anki deck (genanki, the ``anki`` extra) and the quiz draw
each position's board with :mod:`tabla_cli.svg`; the quiz is one HTML page
with no outside resources, worked from the keyboard.
"""

from __future__ import annotations

import csv
import functools
import html
import io
import json
from collections.abc import Callable, Sequence
from typing import Any

from tabla_cli.errors import TablaError
from tabla_cli.study.query import NAMES, Positions

__all__ = ["BINARY_FORMATS", "FORMATS", "board_of", "render_positions"]

FORMATS = ("table", "json", "csv", "xgid", "ids", "anki", "html")
BINARY_FORMATS = frozenset({"anki"})

_TABLE = (
    ("player", "player"),
    ("kind", "kind"),
    ("dice", "dice"),
    ("played", "action"),
    ("best", "best"),
    ("error", "error"),
    ("luck", "luck"),
    ("score", "score"),
    ("phase", "phase"),
    ("where", "where"),
)

_CSV = (
    "path",
    "match_no",
    "game",
    "move",
    "player",
    "opponent",
    "kind",
    "date",
    "dice",
    "action",
    "best",
    "equity",
    "best_equity",
    "error",
    "error_mwc",
    "luck",
    "skill",
    "source",
    "rolled_out",
    "cube",
    "cube_state",
    "score",
    "phase",
    "plan_player",
    "plan_opponent",
    "pips_player",
    "pips_opponent",
    "race_lead",
    "position_id",
    "match_id",
    "xgid",
    "tags",
)


def _where(row: dict[str, Any]) -> str:
    return f"{row['path']} game {row['game']} move {row['move'] if row['move'] is not None else '-'}"


def _number(value: Any, digits: int = 3) -> str:
    return "" if value is None else f"{float(value):.{digits}f}"


def _reader(rows: Sequence[dict[str, Any]], names: Sequence[str]) -> tuple[Sequence[Any], Callable[[Any], list[Any]]]:
    """The rows to walk and a function giving the values of ``names`` of one of them (None where missing):
    the stored rows of :class:`Positions` (no dict made of each), or the dicts themselves."""
    if isinstance(rows, Positions):
        return rows.stored, Positions.reader(names)
    return rows, lambda row: [row.get(name) for name in names]


_TABLE_KEYS = ("player", "kind", "dice", "action", "best", "error", "luck", "score", "phase", "path", "game", "move")


def render_table(rows: Sequence[dict[str, Any]]) -> str:
    """An aligned text table, one decision a line.

    >>> print(render_table([{"player": "Ann", "kind": "checker", "dice": "31", "action": "8/5 6/5",
    ...     "best": "8/5 6/5", "error": 0.0, "luck": None, "score": "money", "phase": "opening",
    ...     "path": "a.mat", "game": 1, "move": 1}]), end="")
    player  kind     dice  played   best     error  luck  score  phase    where
    Ann     checker  31    8/5 6/5  8/5 6/5  0.000        money  opening  a.mat game 1 move 1
    """
    stored, read = _reader(rows, _TABLE_KEYS)
    lines = [[title for title, _ in _TABLE]]
    for player, kind, dice, action, best, error, luck, score, phase, path, game, move in map(read, stored):
        lines.append(
            [
                "" if value is None else str(value)
                for value in (player, kind, dice, action, best, _number(error), _number(luck), score, phase)
            ]
            + [f"{path} game {game} move {move if move is not None else '-'}"]
        )
    widths = [max(map(len, cells)) for cells in zip(*lines)]
    line = "  ".join(f"%-{width}s" for width in widths)
    return "".join((line % tuple(cells)).rstrip() + "\n" for cells in lines)


@functools.cache
def _encoder(separator: str) -> Callable[[Any], str]:
    """JSON text with ``separator`` between items (C-accelerated: no ``indent``)."""
    return json.JSONEncoder(ensure_ascii=False, separators=(separator, ": ")).encode


def _nested(value: Any) -> bool:
    return isinstance(value, (list, dict)) and bool(value)


def _indented(value: Any, depth: int) -> str:
    """``value`` as ``json.dumps(..., indent=1)`` writes it inside an object at ``depth`` (its items a level deeper)."""
    if not _nested(value):
        return _encoder(",")(value)
    pad = "\n" + " " * (depth + 1)
    close = "\n" + " " * depth
    items = list(value.values()) if isinstance(value, dict) else value
    if not any(map(_nested, items)):
        text = _encoder("," + pad)(value)
        return text[0] + pad + text[1:-1] + close + text[-1]
    if isinstance(value, list) and all(_nested(item) and isinstance(item, list) for item in value):
        if not any(_nested(leaf) for item in value for leaf in item):
            # a list of lists of values (a checker play's ranking): one encoding, the rows' seams indented
            inner = pad + " "
            text = _encoder("," + inner)(value)
            middle = text[2:-2].replace("]," + inner + "[", pad + "]," + pad + "[" + inner)
            return "[" + pad + "[" + inner + middle + pad + "]" + close + "]"
        return "[" + pad + ("," + pad).join(_indented(item, depth + 1) for item in value) + close + "]"
    return json.dumps(value, indent=1, ensure_ascii=False).replace("\n", close)


def _json_values(values: Sequence[Any]) -> list[str]:
    """Each of ``values`` (no lists or dicts) as JSON, a column at a time."""
    distinct = set(values)
    if len(distinct) * 4 < len(values) and all(type(v) is str or v is None for v in distinct):
        known = {value: _encoder(",")(value) for value in distinct}  # a name, a phase: few, many times over
        return [known[value] for value in values]
    # no value's JSON holds a NUL (strings escape it): the items split apart on it
    return _encoder("\x00")(list(values))[1:-1].split("\x00")


def _json_positions(rows: Positions) -> str:
    """:func:`render_json` of :class:`Positions`, a column at a time (the same text)."""
    if not rows:
        return "[]\n"
    columns: list[list[str]] = []
    for name, values in zip(NAMES, zip(*rows.stored)):
        if name == "tags":
            words = {text: _indented(Positions.decode(name, text), 2) for text in set(values)}
            columns.append([words[text] for text in values])
        elif name == "alternatives":
            columns.append(["null" if text is None else _indented(json.loads(text), 2) for text in values])
        elif name == "rolled_out":
            columns.append(_json_values([Positions.decode(name, value) for value in values]))
        else:
            columns.append(_json_values(values))
    keys = ",\n  ".join(_encoder(",")(name).replace("%", "%%") + ": %s" for name in NAMES)
    template = "{\n  " + keys + "\n }"
    return "[\n " + ",\n ".join(template % values for values in zip(*columns)) + "\n]\n"


def render_json(rows: Sequence[dict[str, Any]]) -> str:
    """The decisions as a JSON array of objects."""
    if isinstance(rows, Positions):
        return _json_positions(rows)
    return json.dumps(list(rows), indent=1, ensure_ascii=False) + "\n"


def render_csv(rows: Sequence[dict[str, Any]]) -> str:
    """The decisions as CSV, a header first; the tags as one space-separated cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_CSV)
    stored, read = _reader(rows, _CSV)
    tags = _CSV.index("tags")

    def cells(row: Any) -> list[Any]:
        values = read(row)
        values[tags] = " ".join(values[tags])
        return values

    writer.writerows(map(cells, stored))
    return out.getvalue()


def render_xgids(rows: Sequence[dict[str, Any]]) -> str:
    """One XGID a line (to paste into eXtreme Gammon); decisions without one are left out."""
    stored, read = _reader(rows, ("xgid",))
    return "".join(f"{xgid}\n" for (xgid,) in map(read, stored) if xgid)


def render_ids(rows: Sequence[dict[str, Any]]) -> str:
    """One ``POSITION:MATCH`` ID a line, as ``tabla show`` reads them (``xargs tabla show < FILE``)."""
    stored, read = _reader(rows, ("position_id", "match_id"))
    return "".join(f"{position}:{match}\n" for position, match in map(read, stored) if position and match)


def board_of(row: dict[str, Any]) -> str:
    """The decision's board as an SVG diagram (from its Position and Match IDs)."""
    from tabla_cli.show import position_svg, read_position

    return position_svg(read_position(f"{row['position_id']}:{row['match_id']}"))


def _question(row: dict[str, Any]) -> str:
    on_roll = html.escape(str(row["player"]))
    if row["kind"] == "checker":
        ask = f"{on_roll} to play {html.escape(str(row['dice']))}"
    elif row["kind"] == "take":
        ask = f"{on_roll}: take or pass?"
    else:
        ask = f"{on_roll}: double or not?"
    return f"{ask} ({html.escape(str(row['score']))}, cube {row['cube']})"


def _options(row: dict[str, Any]) -> str:
    """The ranked plays (or the cube equities) a decision was judged among, as an HTML list; "" if unknown."""
    options = row.get("alternatives")
    if not options:
        return ""
    if isinstance(options, dict):
        items = [f"<li>{html.escape(name)}: {_number(equity)}</li>" for name, equity in options.items()]
    else:
        items = [
            f"<li>{html.escape(play or 'no move')}: {_number(equity)} ({'-' + _number(error) if error else 'best'})</li>"
            for play, equity, error in options
        ]
    return f"<ol class='options'>{''.join(items)}</ol>"


def _answer(row: dict[str, Any]) -> str:
    parts = [
        f"<div><b>Best:</b> {html.escape(str(row['best'] or '?'))}</div>",
        f"<div><b>Played:</b> {html.escape(str(row['action'] or '?'))}</div>",
        f"<div><b>Error:</b> {_number(row['error'])} "
        f"(equity {_number(row['equity'])} against {_number(row['best_equity'])})</div>",
        _options(row),
        f"<div class='source'>{html.escape(str(row['source'] or 'not analysed'))}; {html.escape(_where(row))}</div>",
    ]
    return "".join(parts)


def _drawable(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [row for row in rows if row.get("position_id") and row.get("match_id")]


_MODEL_ID = 1_735_200_001
_DECK_ID = 1_735_200_002


def render_anki(rows: Sequence[dict[str, Any]], title: str = "tabla positions") -> bytes:
    """An Anki deck (``.apkg``): a card per decision, the board and the roll, the answer on the back.

    Raises:
        TablaError: genanki is not installed (``pip install 'tabla-cli[anki]'``).
    """
    try:
        import genanki
    except ImportError as exc:
        raise TablaError("an Anki deck needs genanki: pip install 'tabla-cli[anki]'") from exc
    model = genanki.Model(
        _MODEL_ID,
        "tabla position",
        fields=[{"name": "Key"}, {"name": "Board"}, {"name": "Question"}, {"name": "Answer"}],
        templates=[
            {
                "name": "Decision",
                "qfmt": "{{Board}}<div class='question'>{{Question}}</div>",
                "afmt": "{{FrontSide}}<hr id='answer'>{{Answer}}",
            }
        ],
        css=".card { font-family: sans-serif; text-align: center; } svg { max-width: 100%; height: auto; }",
    )
    deck = genanki.Deck(_DECK_ID, title)
    for row in _drawable(rows):
        key = f"{row['path']}#{row['seq']}"
        note = genanki.Note(
            model=model,
            fields=[html.escape(key), board_of(row), _question(row), _answer(row)],
            guid=genanki.guid_for(key, row["position_id"], row["match_id"], row["kind"]),
            tags=["tabla", str(row["kind"])] + [str(word) for word in row["tags"]],
        )
        deck.add_note(note)
    out = io.BytesIO()
    genanki.Package(deck).write_to_file(out, timestamp=0)
    return out.getvalue()


_QUIZ_STYLE = """
body { font-family: sans-serif; margin: 1em auto; max-width: 46em; }
.card { display: none; } .card.current { display: block; }
.answer { display: none; margin-top: 1em; } .card.shown .answer { display: block; }
.question { font-size: 1.2em; margin: .5em 0; } .source { color: #555; font-size: .9em; }
svg { max-width: 100%; height: auto; } kbd { border: 1px solid #999; border-radius: 3px; padding: 0 .3em; }
"""

_QUIZ_SCRIPT = """
(function () {
  var cards = document.querySelectorAll('.card');
  var at = 0;
  var counter = document.getElementById('counter');
  function show(i) {
    if (!cards.length) { return; }
    cards[at].classList.remove('current');
    at = (i + cards.length) % cards.length;
    cards[at].classList.add('current');
    counter.textContent = (at + 1) + ' / ' + cards.length;
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === ' ' || e.key === 'Enter') { cards[at].classList.toggle('shown'); e.preventDefault(); }
    else if (e.key === 'ArrowRight' || e.key === 'n') { show(at + 1); }
    else if (e.key === 'ArrowLeft' || e.key === 'p') { show(at - 1); }
  });
  show(0);
})();
"""


def render_quiz(rows: Sequence[dict[str, Any]], title: str = "tabla positions") -> str:
    """An HTML quiz: one position at a time, its board and roll; Space or Enter shows the answer
    (best play, the play made, the error and the equities), the arrow keys (or n, p) move on and back."""
    cards = []
    for number, row in enumerate(_drawable(rows), 1):
        cards.append(
            f"<section class='card' id='card-{number}'>{board_of(row)}"
            f"<div class='question'>{_question(row)}</div>"
            f"<div class='answer'>{_answer(row)}</div></section>"
        )
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_QUIZ_STYLE}</style></head><body>"
        f"<h1>{html.escape(title)}</h1>"
        "<p><kbd>Space</kbd> or <kbd>Enter</kbd>: the answer; <kbd>&rarr;</kbd> <kbd>n</kbd>: next; "
        "<kbd>&larr;</kbd> <kbd>p</kbd>: back. <span id='counter'>0 / 0</span></p>"
        + "".join(cards)
        + f"<script>{_QUIZ_SCRIPT}</script></body></html>\n"
    )


_RENDERERS: dict[str, Callable[[Sequence[dict[str, Any]]], str | bytes]] = {
    "table": render_table,
    "json": render_json,
    "csv": render_csv,
    "xgid": render_xgids,
    "ids": render_ids,
    "anki": render_anki,
    "html": render_quiz,
}


def render_positions(rows: Sequence[dict[str, Any]], fmt: str) -> str | bytes:
    """The decisions ``rows`` in the format ``fmt`` (:data:`FORMATS`)."""
    return _RENDERERS[fmt](rows)
