"""The case slot (issue 14): what a supervised worker's guard records before each call, and what the
supervisor reads back.

Everything is exercised in the test process: the slot is plain shared memory, and what a forked
worker would write is exactly what :meth:`CaseSlot.enter` writes here.
"""

from __future__ import annotations

import pickle
import struct
import time

import pytest

from axiometer.checking.case_slot import SLOT_BYTES, CaseSlot
from axiometer.core import Context, Topic

HEADER = 16  # "<dII": the start time (8 bytes), the two lengths (4 bytes each)


def small_topic() -> Topic:
    return Topic.single({"d1": 1, "d2": 0.5})


def test_a_new_slot_is_empty_and_a_megabyte_by_default():
    slot = CaseSlot()
    assert slot.size == SLOT_BYTES == 1 << 20 == len(slot.memory)
    assert slot.started == 0.0
    assert slot.case() is None
    slot.close()
    assert slot.memory.closed


def test_enter_records_the_input_and_the_start_time_leave_clears_only_the_time():
    slot = CaseSlot(4096)
    topic = small_topic()
    context = Context((("d2", "d1"),))
    before = time.monotonic()
    slot.enter(["d2", "d1"], topic, context)   # a list: recorded as the tuple it was at the call
    after = time.monotonic()
    assert before <= slot.started <= after
    assert slot.case() == (("d2", "d1"), topic, context)
    slot.leave()
    assert slot.started == 0.0
    # The input stays readable after leave (a crash just after the call still names it).
    assert slot.case() == (("d2", "d1"), topic, context)
    # The header is the documented layout: start time 0, then the two pickles' lengths.
    _, topic_length, rest_length = struct.unpack_from("<dII", slot.memory, 0)
    assert topic_length == len(pickle.dumps(topic, pickle.HIGHEST_PROTOCOL))
    assert rest_length == len(pickle.dumps((("d2", "d1"), context), pickle.HIGHEST_PROTOCOL))


def test_the_same_topic_object_is_kept_and_another_one_replaces_it():
    slot = CaseSlot(4096)
    topic = small_topic()
    slot.enter(("d1",), topic, None)
    slot.leave()
    slot.enter(("d2", "d1", "d3"), topic, None)  # same topic object: not pickled again, still read back
    assert slot.case() == (("d2", "d1", "d3"), topic, None)
    other = Topic.single({"x": 1, "y": 0.25, "z": 0.75})
    slot.enter(("x",), other, None)
    assert slot.case() == (("x",), other, None)
    slot.enter(("d1", "d2"), topic, None)        # back to the first topic: pickled again
    assert slot.case() == (("d1", "d2"), topic, None)


def test_a_topic_too_large_for_the_slot_is_left_out_and_the_ranking_kept():
    big = Topic.single({f"doc{i}": 1 for i in range(200)})
    assert HEADER + len(pickle.dumps(big, pickle.HIGHEST_PROTOCOL)) > 1024
    slot = CaseSlot(1024)
    context = Context((("doc1",),))
    slot.enter(("doc1", "doc2"), big, context)
    assert slot.case() == (("doc1", "doc2"), None, context)


def test_a_rest_that_fits_exactly_is_kept_whole():
    topic = small_topic()
    context = Context((("d1", "d2"),))
    ranking = ("d1", "d2")
    size = (HEADER + len(pickle.dumps(topic, pickle.HIGHEST_PROTOCOL))
            + len(pickle.dumps((ranking, context), pickle.HIGHEST_PROTOCOL)))
    slot = CaseSlot(size)  # not one byte to spare: the context still fits
    slot.enter(ranking, topic, context)
    assert slot.case() == (ranking, topic, context)


def test_a_ranking_too_large_keeps_its_first_thousand_documents_without_the_context():
    topic = small_topic()
    ranking = tuple(f"d{i}" for i in range(1, 3001))
    slot = CaseSlot(1 << 14)  # 3000 ids (~21 kB pickled) do not fit; 1000 (~7 kB) do
    assert HEADER + len(pickle.dumps((ranking, None), pickle.HIGHEST_PROTOCOL)) > 1 << 14
    slot.enter(ranking, topic, Context((("d1",),)))
    assert slot.case() == (ranking[:1000], topic, None)


def test_an_unpicklable_context_leaves_no_half_written_case():
    slot = CaseSlot(4096)
    topic = small_topic()
    slot.enter(("d1",), topic, None)
    with pytest.raises(Exception):
        slot.enter(("d2",), topic, lambda: None)  # a lambda cannot be pickled: enter stops halfway
    assert slot.started == 0.0   # the header was cleared before anything was written
    assert slot.case() is None   # so no earlier case is passed off as this one


def test_garbage_in_the_slot_reads_as_no_case():
    slot = CaseSlot(256)
    struct.pack_into("<dII", slot.memory, 0, 1.0, 5, 7)
    slot.memory[HEADER:HEADER + 12] = b"\x00not pickled"
    assert slot.case() is None


def test_a_topic_that_fills_the_slot_leaves_room_for_the_ranking():
    # (enter raised "mmap slice assignment is wrong size" here, outside the guard's try)
    topic = small_topic()
    slot = CaseSlot(HEADER + len(pickle.dumps(topic, pickle.HIGHEST_PROTOCOL)))  # the topic fits exactly
    slot.enter(("d1", "d2"), topic, None)
    assert slot.case() == (("d1", "d2"), None, None)


def test_a_case_without_a_topic_and_falsy_topics_are_recorded_as_given():
    slot = CaseSlot(4096)
    slot.enter(("d1",), None, Context((("d2",),)))  # the first call may come without a topic
    assert slot.case() == (("d1",), None, Context((("d2",),)))
    slot = CaseSlot(4096)
    slot.enter(("d1",), "", None)                    # any picklable value is kept, a falsy one too
    assert slot.case() == (("d1",), "", None)


def _lengths(topic, ranking, context):
    whole = len(pickle.dumps((tuple(ranking), context), pickle.HIGHEST_PROTOCOL))
    short = len(pickle.dumps((tuple(ranking)[:1000], None), pickle.HIGHEST_PROTOCOL))
    return len(pickle.dumps(topic, pickle.HIGHEST_PROTOCOL)), whole, short


LONG = tuple(f"d{i}" for i in range(1, 1201))  # longer than the 1000 ids kept when space runs out
CONTEXT = Context((("d1", "d2"),))


@pytest.mark.parametrize("spare", [0, 1])
def test_what_the_slot_keeps_best_first_at_each_exact_fit(spare):
    """Exactly enough room (``spare`` = 0) or one byte more for each choice, best first: the whole
    input; the topic with the first 1000 ids (no context); the whole input without the topic (a
    topic too large for that); the first 1000 ids alone; nothing (no error: the case reads as
    unknown)."""
    small, big = small_topic(), Topic.single({f"doc{i}": 1 for i in range(2000)})
    t, whole, short = _lengths(small, LONG, CONTEXT)
    t_big = _lengths(big, LONG, CONTEXT)[0]
    assert t + short < whole < t_big + short  # so that each size below picks a different choice
    for topic, size, case in [
        (small, HEADER + t + whole, (LONG, small, CONTEXT)),
        (small, HEADER + t + short, (LONG[:1000], small, None)),
        (big, HEADER + whole, (LONG, None, CONTEXT)),
        (small, HEADER + short, (LONG[:1000], None, None)),
    ]:
        slot = CaseSlot(size + spare)
        slot.enter(LONG, topic, CONTEXT)
        assert slot.case() == case, size - HEADER
    slot = CaseSlot(HEADER + short - 1)
    slot.enter(LONG, small, CONTEXT)
    assert slot.case() is None and slot.started > 0
