"""Which processes a command left behind: the members of its session, read from ``/proc``."""

from __future__ import annotations

import os
from pathlib import Path


def session_members(session: int) -> list[int]:
    """The processes of ``session`` still running (zombies excluded); Linux only."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        if int(fields[3]) == session and fields[0] != b"Z":
            found.append(int(entry))
    return found


def can_see_sessions() -> bool:
    """Whether :func:`session_members` works here."""
    return Path("/proc/self/stat").exists()
