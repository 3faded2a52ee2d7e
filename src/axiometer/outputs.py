"""Writing a report, a picture or the plugin's report to a file, never leaving half a file (issue 29).

:func:`write_atomically` writes to a temporary file in the target's directory
and renames it into place (``os.replace``, atomic within one file system): a
write that fails midway (a full disk, a quota, a signal) leaves the previous
file as it was and no temporary file behind, and two processes writing the
same file leave one whole report, never their bytes mixed. A target that is
a symbolic link is written through it; one that is not a regular file (a
terminal, a FIFO, ``/dev/stdout``) is written directly, since nothing can be
renamed onto it. :func:`check_writable` says, before any work starts,
whether the target can be written. Both raise :class:`OutputError`: one line
naming the file.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from axiometer.core import AxiometerError

__all__ = ["OutputError", "check_writable", "write_atomically"]


class OutputError(AxiometerError):
    """A report cannot be written where it was asked for; ``str(error)`` is ``FILE: problem``."""


def _target(path: str | Path) -> Path:
    path = Path(path)
    return path.resolve() if path.is_symlink() else path


def check_writable(path: str | Path) -> Path:
    """The file to write for ``path`` (a symbolic link's target), once it is known writable: not a
    directory, in an existing writable directory, and writable itself if it exists."""
    target = _target(path)
    if target.is_dir():
        raise OutputError(f"{path}: is a directory, not a file to write the report to")
    directory = target.parent
    if not directory.is_dir():
        raise OutputError(f"{path}: there is no directory {directory} to write it in")
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputError(f"{path}: the file is not writable")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: the directory {directory} is not writable")
    return target


def _is_special(target: Path) -> bool:
    """Whether ``target`` exists and is not a regular file (a device, a FIFO, a socket)."""
    with contextlib.suppress(OSError):
        return not stat.S_ISREG(target.stat().st_mode)
    return False


def _mode(target: Path) -> int:
    """The permissions the written file gets: the previous file's, else what the umask allows."""
    with contextlib.suppress(OSError):
        return stat.S_IMODE(target.stat().st_mode)
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomically(path: str | Path, data: str | bytes) -> int:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all (see the module docstring);
    returns the number of bytes written."""
    target = check_writable(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if _is_special(target):
        try:
            with open(target, "wb") as handle:
                handle.write(payload)
        except OSError as error:
            raise OutputError(f"{path}: {error.strerror or error}") from error
        return len(payload)
    try:
        descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise OutputError(f"{path}: {error.strerror or error}") from error
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, _mode(target))
        os.replace(temporary, target)
    except BaseException as error:  # a failed or interrupted write: the previous file stays
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise OutputError(f"{path}: {error.strerror or error}") from error
        raise
    return len(payload)
