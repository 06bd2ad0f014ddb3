"""Where a command that writes one file per input (``convert --out-dir``, ``analyze --out-dir``) puts each.

A file given by name goes straight into the output folder; a file found
under a directory given keeps its folders below that directory. Its suffix
becomes the output format's. Names are unique over the whole run: inputs
that would share a name keep their own suffix (``x.mat.json``,
``x.sgf.json``), and any that still do get ``-2``, ``-3``, ... in input
order, never a name another input has (``c2/a.mat`` does not become
``a.mat-2.json`` when ``c3/a.mat-2.xg`` is ``a.mat-2.json``).

>>> [str(p) for p in unique_names([Path("a.mat"), Path("b/a.mat"), Path("a.sgf")], ".json")]
['a.mat.json', 'b/a.json', 'a.sgf.json']
>>> [str(p) for p in unique_names([Path("a.mat"), Path("a.mat"), Path("a.mat-2.xg")], ".json")]
['a.mat.json', 'a.mat-3.json', 'a.mat-2.json']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tabla_cli.source import LeftOut, collect_paths

__all__ = ["Mirrored", "mirror", "unique_names"]


@dataclass(frozen=True, slots=True)
class Mirrored:
    """One input and where its output goes.

    Attributes:
        source: the input file, as found.
        target: its output, under the output folder.
        found: it was found in a directory given (not named).
    """

    source: str
    target: Path
    found: bool


def unique_names(relative: Sequence[Path], suffix: str) -> list[Path]:
    """The output name of each input path (relative to the output folder), with ``suffix``, all different."""
    first = [path.with_suffix(suffix) for path in relative]
    shared = Counter(first)
    second = [path.with_name(path.name + suffix) if shared[name] > 1 else name for path, name in zip(relative, first)]
    wanted = set(second)
    taken: set[Path] = set()
    out: list[Path] = []
    for name in second:
        if name in taken:
            stem = name.name.removesuffix(suffix)
            number = 2
            while (candidate := name.with_name(f"{stem}-{number}{suffix}")) in taken or candidate in wanted:
                number += 1
            name = candidate
        taken.add(name)
        out.append(name)
    return out


def mirror(
    paths: Iterable[str],
    out_dir: str | Path,
    suffix: str,
    left_out: LeftOut | None = None,
    *,
    outputs: Iterable[str | Path] | None = None,
) -> list[Mirrored]:
    """Every input file of ``paths`` (in :func:`~tabla_cli.source.collect_paths`' order) with its output.

    Directories are walked, never entering ``outputs`` (default: ``out_dir``);
    ``left_out`` is told what the walk left out.
    """
    out_dir = Path(out_dir)
    outputs = [out_dir] if outputs is None else list(outputs)
    found: list[tuple[str, Path, bool]] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += [(f, Path(f).relative_to(path), True) for f in collect_paths([name], left_out, outputs=outputs)]
        else:
            found.append((name, Path(path.name), False))
    names = unique_names([relative for _, relative, _ in found], suffix)
    return [Mirrored(source, out_dir / name, was_found) for (source, _, was_found), name in zip(found, names)]
