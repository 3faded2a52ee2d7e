"""Which processes a command left behind: the members of its session, read from ``/proc``."""

from __future__ import annotations

import os
from pathlib import Path


def _members(session: int) -> list[tuple[int, int]]:
    """``(pid, process group)`` of each process of ``session`` still running (zombies excluded)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        if int(fields[3]) == session and fields[0] != b"Z":
            found.append((int(entry), int(fields[2])))
    return found


def session_members(session: int) -> list[int]:
    """The processes of ``session`` still running (zombies excluded); Linux only."""
    return [pid for pid, _ in _members(session)]


def supervised_workers(session: int) -> list[int]:
    """The supervised workers among them: a worker leads a process group of its own (a process the
    command starts otherwise, such as ``ldconfig`` run by an import, stays in the command's group)."""
    return [pid for pid, group in _members(session) if group == pid and pid != session]


def can_see_sessions() -> bool:
    """Whether :func:`session_members` works here."""
    return Path("/proc/self/stat").exists()
