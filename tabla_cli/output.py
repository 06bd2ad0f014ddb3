"""Writing output files safely: through a temporary file, never over what must be kept.

Shared by ``tabla report`` and ``tabla convert``. Nothing here knows about
click: errors are :class:`OSError` (from the file system) or
:class:`OutputExistsError`, and the commands turn them into messages.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomic(folder / "a.txt", "hello")
>>> (folder / "a.txt").read_text()
'hello'
>>> [pathlib.Path(p).name for p in existing([folder / "a.txt", folder / "b.txt"])]
['a.txt']
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from tabla_cli.errors import TablaError

__all__ = ["OutputExistsError", "existing", "refuse_existing", "write_atomic"]


class OutputExistsError(TablaError):
    """An output file exists and may not be replaced (no ``--force``)."""


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to a temporary file beside ``path``, then rename it into place.

    Readers of ``path`` see the old file or the whole new one, never a part;
    on any failure the temporary file is removed and ``path`` is untouched.
    The new file gets the usual permissions (0666 less the umask).

    Raises:
        OSError: the file cannot be written.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def existing(paths: Iterable[str | Path]) -> list[str]:
    """The paths among ``paths`` that exist, as strings, in order."""
    return [str(p) for p in paths if Path(p).exists()]


def refuse_existing(paths: Iterable[str | Path], force: bool) -> None:
    """Raise unless ``force`` when any of ``paths`` exists.

    Raises:
        OutputExistsError: naming up to five of them.
    """
    found = existing(paths)
    if found and not force:
        listed = ", ".join(found[:5]) + (f" (+{len(found) - 5} more)" if len(found) > 5 else "")
        raise OutputExistsError(f"not overwriting {listed}: use --force to replace")
