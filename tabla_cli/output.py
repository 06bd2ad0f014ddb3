"""Writing output files safely: through a temporary file, never over an input.

One implementation for every command that writes files (``report -o``,
``report --frames/--plots``, ``convert``, ``show -o``):

* :class:`Inputs` knows the files a command reads, by device and inode, so an
  output that *is* an input (any spelling, through any link) is refused,
  ``--force`` or not (:func:`check_targets`);
* :func:`write_atomic` writes a temporary file beside the target and
  publishes it: without ``force`` with :func:`os.link`, which fails when the
  target appeared meanwhile (another process wrote it first), with ``force``
  with :func:`os.replace`;
* only a regular file is ever replaced: a target that is a device, a FIFO or
  a socket is written to as a stream (as the shell's ``>`` does, with or
  without ``force``), and a symbolic link is left pointing where it points
  while the file it names is the one written (:func:`replaces` tells which
  targets ``force`` is needed for);
* :func:`staged_folder` builds a whole folder of outputs in a temporary folder
  and moves it into place at the end (a failure leaves nothing behind);
* temporary names start with :data:`TEMP_PREFIX` and carry the process id;
  :func:`clean_stale` removes those of processes that are gone (killed with
  ``kill -9``, for instance) whenever a later run writes into the same folder.

Nothing here knows about click: errors are :class:`OSError` (from the file
system), :class:`OutputExistsError` or :class:`OutputIsInputError`, and the
commands turn them into messages.

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
import re
import secrets
import shutil
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from tabla_cli.errors import TablaError

__all__ = [
    "TEMP_PREFIX",
    "Inputs",
    "OutputExistsError",
    "OutputIsInputError",
    "check_targets",
    "clean_stale",
    "existing",
    "make_folder",
    "refuse_existing",
    "remove_created",
    "replaces",
    "staged_folder",
    "temp_path",
    "write_atomic",
]

TEMP_PREFIX = ".tabla-tmp-"
"""How every temporary file or folder tabla makes is named: ``.tabla-tmp-<pid>-<random>[.name]``."""

_TEMP = re.compile(re.escape(TEMP_PREFIX) + r"([0-9]{1,10})-[0-9a-f]{8}(?:\..*)?\Z", re.DOTALL)
_cleaned: set[Path] = set()


class OutputExistsError(TablaError):
    """An output file exists and may not be replaced (no ``--force``)."""


class OutputIsInputError(TablaError):
    """An output would replace one of the command's inputs (refused even with ``--force``)."""


class Inputs:
    """The files a command reads, to tell whether an output would be one of them.

    Files are compared by device and inode, so another spelling of the path,
    a symbolic or a hard link are all recognised.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> (folder / "m.mat").write_text("x")
    1
    >>> (folder / "link.mat").symlink_to(folder / "m.mat")
    >>> inputs = Inputs([folder / "m.mat"])
    >>> inputs.holds(folder / "link.mat"), inputs.holds(folder / "other.mat")
    (True, False)
    """

    def __init__(self, paths: Iterable[str | Path] = ()) -> None:
        self.files: set[tuple[int, int]] = set()
        for path in paths:
            self.add(path)

    def add(self, path: str | Path) -> None:
        """Count ``path`` (a file, or a link to one) as an input; one that does not exist is ignored."""
        with suppress(OSError, ValueError):
            info = os.stat(path)
            self.files.add((info.st_dev, info.st_ino))

    def holds(self, path: str | Path) -> bool:
        """Whether ``path`` is (a link to) one of the inputs."""
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return False
        return (info.st_dev, info.st_ino) in self.files


def _is_stream(path: str | Path) -> bool:
    """Whether ``path`` (through any links) is a device, a FIFO or a socket: written to, never replaced."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def replaces(path: str | Path) -> bool:
    """Whether writing ``path`` would replace a file that exists (what ``--force`` allows).

    A path that does not exist, a symbolic link that names nothing yet, a
    device and a FIFO replace nothing: the first two are created, the others
    written to as streams.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> os.mkfifo(folder / "pipe")
    >>> (folder / "link").symlink_to(folder / "absent")
    >>> replaces(folder / "pipe"), replaces(folder / "link"), replaces(folder)
    (False, False, True)
    """
    return os.path.exists(path) and not _is_stream(path)


def existing(paths: Iterable[str | Path]) -> list[str]:
    """The paths among ``paths`` that writing would replace (see :func:`replaces`), as strings, in order."""
    return [str(p) for p in paths if replaces(p)]


def _listed(paths: list[str]) -> str:
    return ", ".join(paths[:5]) + (f" (+{len(paths) - 5} more)" if len(paths) > 5 else "")


def refuse_existing(paths: Iterable[str | Path], force: bool) -> None:
    """Raise unless ``force`` when any of ``paths`` exists.

    Raises:
        OutputExistsError: naming up to five of them.
    """
    found = existing(paths)
    if found and not force:
        raise OutputExistsError(f"not overwriting {_listed(found)}: use --force to replace")


def check_targets(paths: Iterable[str | Path], inputs: Inputs, force: bool) -> None:
    """Refuse outputs that are inputs (always) or that exist (unless ``force``).

    Raises:
        OutputIsInputError: an output is one of ``inputs``.
        OutputExistsError: an output exists and ``force`` is false.
    """
    paths = list(paths)
    clash = [str(p) for p in paths if inputs.holds(p)]
    if clash:
        raise OutputIsInputError(f"not writing over {_listed(clash)}: it is an input")
    refuse_existing(paths, force)


def temp_path(folder: str | Path, name: str = "") -> Path:
    """A new temporary name in ``folder``: ``.tabla-tmp-<pid>-<random>[.name]``."""
    suffix = f".{name}" if name else ""
    return Path(folder) / f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(4)}{suffix}"


def _started(pid: int) -> float | None:
    """When process ``pid`` started (seconds since the epoch); None when unknown (not Linux)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
        boot = next(
            line for line in Path("/proc/stat").read_text(encoding="ascii").splitlines() if line.startswith("btime ")
        )
        ticks = int(stat[stat.rindex(")") + 2 :].split()[19])
        return int(boot.split()[1]) + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, StopIteration, IndexError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid < 2**31
    return True


def _stale(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` is a temporary of a process that is gone (or of an earlier process with its id)."""
    found = _TEMP.match(entry.name)
    if found is None:
        return False
    pid = int(found.group(1))
    if not _alive(pid):
        return True
    started = _started(pid)
    try:
        made = entry.stat(follow_symlinks=False).st_mtime
    except OSError:
        return False
    return started is not None and made < started - 1


def clean_stale(folder: str | Path) -> list[Path]:
    """Remove the stale temporary files and folders tabla left in ``folder``; returns them.

    A temporary is stale when the process named in it no longer runs, or runs
    but started after the temporary was made (its id was reused). Each folder
    is looked at once per process. Errors are ignored (cleaning is a courtesy).
    """
    folder = Path(folder)
    try:
        key = folder.resolve()
    except (OSError, RuntimeError):
        return []
    if key in _cleaned:
        return []
    _cleaned.add(key)
    removed = []
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(TEMP_PREFIX)]
    except OSError:
        return []
    for entry in entries:
        if not _stale(entry):
            continue
        with suppress(OSError):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed.append(Path(entry.path))
    return removed


def make_folder(folder: str | Path) -> list[Path]:
    """Create ``folder`` and any missing parents; returns those created, outermost first.

    Raises:
        OSError: a folder cannot be made (those made before are removed).
    """
    missing: list[Path] = []
    path = Path(folder)
    while not path.exists():
        missing.append(path)
        if path.parent == path:
            break
        path = path.parent
    missing.reverse()
    made: list[Path] = []
    try:
        for path in missing:
            try:
                path.mkdir()
            except FileExistsError:
                continue
            made.append(path)
    except OSError:
        remove_created(made)
        raise
    return made


def remove_created(folders: list[Path]) -> None:
    """Remove the folders :func:`make_folder` made, innermost first, when they are empty."""
    for path in reversed(folders):
        with suppress(OSError):
            path.rmdir()


def _permissions(path: Path) -> None:
    """Give ``path`` the usual permissions of a new file (0666 less the umask)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def _final(path: Path) -> Path:
    """The file that writing ``path`` writes: ``path``, or where the symbolic link ``path`` leads."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _stream(path: Path, data: bytes) -> bool:
    """Write ``data`` to the device or FIFO ``path`` as a stream; False (nothing written) if it is a regular file now."""
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "wb") as handle:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        handle.write(data)
    return True


def _publish(tmp: Path, path: Path, force: bool) -> None:
    """Move the finished file ``tmp`` to ``path``: replace only with ``force``.

    Raises:
        OutputExistsError: ``path`` exists (it appeared while ``tmp`` was written).
        OSError: the file system refused.
    """
    if force:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise OutputExistsError(
            f"{path} appeared while it was being written (another process?); not replacing it: use --force to replace"
        ) from None
    except OSError:
        # No hard links here (some network or FAT file systems): claim the name exclusively.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        os.close(fd)
        os.replace(tmp, path)
        return
    os.unlink(tmp)


def write_atomic(path: str | Path, data: str | bytes, *, force: bool = True, inputs: Inputs | None = None) -> None:
    """Write ``data`` (text as UTF-8) to a temporary file beside ``path``, then publish it.

    Readers of ``path`` see the old file or the whole new one, never a part;
    on any failure the temporary file is removed and ``path`` is untouched.
    Stale temporaries of killed runs in the same folder are removed first.
    A device or FIFO is written to instead (it is never replaced); through a
    symbolic link, the file it leads to is the one replaced, not the link.

    Args:
        path: the file to write; its folder must exist.
        data: what to write.
        force: replace ``path`` if it exists; without it the write fails if
            ``path`` exists, also when it appeared while the data was written.
        inputs: files that may never be replaced (checked again just before).

    Raises:
        OutputIsInputError: ``path`` is one of ``inputs``.
        OutputExistsError: ``path`` exists and ``force`` is false.
        OSError: the file cannot be written.
    """
    path = Path(path)
    if inputs is not None and inputs.holds(path):
        raise OutputIsInputError(f"not writing over {path}: it is an input")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if _is_stream(path) and _stream(path, raw):
        return
    if not force and replaces(path):
        raise OutputExistsError(f"not overwriting {path}: use --force to replace")
    path = _final(path)
    clean_stale(path.parent)
    tmp = temp_path(path.parent, path.name)
    try:
        with open(tmp, "xb") as handle:
            handle.write(raw)
        _permissions(tmp)
        _publish(tmp, path, force)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise


@contextmanager
def staged_folder(
    folder: str | Path, names: Iterable[str], *, force: bool = True, inputs: Inputs | None = None
) -> Iterator[Path]:
    """A temporary folder to write the files ``names`` in; they are moved into ``folder`` at the end.

    When ``folder`` does not exist the temporary folder is made beside it and
    renamed to ``folder`` as a whole; otherwise it is made inside ``folder``
    and each file is published like :func:`write_atomic` does. On any failure
    (or a kill) nothing but a recognisable temporary is left, and no folder
    is created; a later run removes the temporary.

    Raises:
        OutputIsInputError, OutputExistsError: as :func:`write_atomic`, for a file of ``names``.
        OSError: the folder or a file cannot be written.
    """
    folder = Path(folder)
    names = list(names)
    targets = [folder / name for name in names]
    check_targets(targets, inputs or Inputs(), force)
    whole = not os.path.lexists(folder)
    made = make_folder(folder.parent) if whole else []
    try:
        clean_stale(folder.parent if whole else folder)
        tmp = temp_path(folder.parent if whole else folder, folder.name if whole else "")
        tmp.mkdir()
    except BaseException:
        remove_created(made)
        raise
    try:
        yield tmp
        if whole:
            try:
                os.rename(tmp, folder)
                return
            except OSError:
                if not os.path.lexists(folder):
                    raise
                # The folder appeared meanwhile: publish file by file into it.
        for name in names:
            target = folder / name
            if inputs is not None and inputs.holds(target):
                raise OutputIsInputError(f"not writing over {target}: it is an input")
            if not (_is_stream(target) and _stream(target, (tmp / name).read_bytes())):
                _publish(tmp / name, _final(target), force)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        remove_created(made)
        raise
    shutil.rmtree(tmp, ignore_errors=True)
