"""The case a supervised metric is scoring, kept where the supervising process can read it.

A metric author's metric runs in a worker process the runner watches
(:mod:`axiometer.runner.supervisor`). If the metric ends that process
(``os._exit``, a crash, a signal) or runs past the time limit with the alarm
ignored, the worker cannot say on which input: the :class:`CaseSlot` says it
for it. It is an anonymous shared memory map created before the worker is
forked, so both processes see it; the worker's guard
(:mod:`axiometer.checking.guard`) writes every input into it before calling
the metric (:meth:`CaseSlot.enter`) and clears the start time after
(:meth:`CaseSlot.leave`); the supervisor reads the start time while the worker
runs (:attr:`CaseSlot.started`) and the input once the worker is gone
(:meth:`CaseSlot.case`).

Layout: the start time (``time.monotonic()``, 0 when no case is in progress,
8 bytes), the lengths of the topic and of the rest (4 bytes each), the pickled
topic, the pickled ``(ranking, context)``. A topic is pickled again only when
the metric is given another topic object (topics are immutable; the guard
restores one a metric changed), so the cost per call is the pickling of the
ranking, a few microseconds.
"""

from __future__ import annotations

import mmap
import pickle
import struct
import time
from collections.abc import Sequence
from typing import Any

__all__ = ["CaseSlot", "SLOT_BYTES"]

#: The slot's size: room for a topic and a ranking far larger than any checked case.
SLOT_BYTES = 1 << 20
_HEADER = struct.Struct("<dII")


class CaseSlot:
    """Shared memory holding the input a worker's metric is scoring (see the module docstring)."""

    def __init__(self, size: int = SLOT_BYTES) -> None:
        self.size = size
        self.memory = mmap.mmap(-1, size)   # anonymous and shared: forked workers write into it
        self._topic: Any = None             # the topic object whose pickle is in the slot
        self._topic_length = 0

    def enter(self, ranking: Sequence[str], topic: Any, context: Any) -> None:
        """Record the input of the call about to start, and the time it starts."""
        memory = self.memory
        start = _HEADER.size
        _HEADER.pack_into(memory, 0, 0.0, 0, 0)  # a worker dying mid-write leaves no half-written case
        if topic is not self._topic:
            data = pickle.dumps(topic, pickle.HIGHEST_PROTOCOL)
            if start + len(data) > self.size:
                data = b""  # too large to keep: the error will show the ranking alone
            memory[start:start + len(data)] = data
            self._topic, self._topic_length = topic, len(data)
        # What fits, best first: the whole input; beside the topic, the ranking's first 1000 ids
        # without the context; then the same two without the topic; then nothing.
        whole = pickle.dumps((tuple(ranking), context), pickle.HIGHEST_PROTOCOL)
        offset, rest = start + self._topic_length, whole
        if offset + len(rest) > self.size:
            short = pickle.dumps((tuple(ranking)[:1000], None), pickle.HIGHEST_PROTOCOL)
            offset, rest = next(((at, data) for at, data in ((offset, short), (start, whole), (start, short))
                                 if at + len(data) <= self.size), (start, b""))
            if offset == start and self._topic_length:  # the topic gave way
                self._topic, self._topic_length = None, 0
        memory[offset:offset + len(rest)] = rest
        _HEADER.pack_into(memory, 0, time.monotonic(), self._topic_length, len(rest))

    def leave(self) -> None:
        """The call returned: no case is in progress (the input stays, for a crash just after)."""
        struct.pack_into("<d", self.memory, 0, 0.0)

    @property
    def started(self) -> float:
        """``time.monotonic()`` when the call in progress started; 0.0 when none is."""
        return struct.unpack_from("<d", self.memory, 0)[0]

    def case(self) -> tuple[tuple[str, ...], Any, Any] | None:
        """The last input recorded, ``(ranking, topic, context)`` (topic ``None`` if too large), or ``None``."""
        _, topic_length, rest_length = _HEADER.unpack_from(self.memory, 0)
        if not rest_length:
            return None
        start = _HEADER.size
        try:
            topic = pickle.loads(self.memory[start:start + topic_length]) if topic_length else None
            ranking, context = pickle.loads(self.memory[start + topic_length:start + topic_length + rest_length])
        except Exception:  # written halfway when the worker died: say nothing rather than something wrong
            return None
        return ranking, topic, context

    def close(self) -> None:
        self.memory.close()
