"""The queries ``agree`` tries: hypothesis strategies for the inputs that break implementations.

Each generated :class:`~axiometer.agreement.query.Query` mixes what the
peers' issue trackers show going wrong: graded and binary judgments,
retrieved documents nobody judged, judged documents never retrieved, queries
with no relevant document, empty runs, runs longer and shorter than the
cutoff, tied scores, scores one or two units in the last place apart in
float64 (equal in float32) or in float32, negative and huge scores, and
document ids that sort differently as strings and as numbers (``9`` and
``10``). Hypothesis shrinks towards few documents, ids ``a``, ``b``, ...,
binary grades and score 1.0, so a minimal case reads at a glance.

:func:`awkward_queries` are hand-written cases every run includes first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

from axiometer.agreement.query import Query

__all__ = ["queries", "awkward_queries", "DOCUMENT_IDS", "ANCHOR_SCORES"]

#: Ids a generated query draws from: letters first (what a shrunk case shows), then ids whose
#: string order is not their numeric order, and ids that differ only in case.
DOCUMENT_IDS: tuple[str, ...] = (*"abcdefghijklmnop", "9", "10", "2", "100", "d2", "d10", "B", "A")
#: Scores a generated score starts from, before it is moved a few units in the last place.
ANCHOR_SCORES: tuple[float, ...] = (1.0, 0.0, 2.0, 0.5, -1.0, 2.243509, 1e300, -1e300, 3.4e38, 1e-300, 17.25)


def _step(value: float, steps: int, grid: str) -> float:
    """``value`` moved ``steps`` representable numbers up (down when negative) in ``grid``."""
    direction = math.inf if steps > 0 else -math.inf
    if grid == "float32":
        with np.errstate(over="ignore"):
            moved = np.float32(value)
            for _ in range(abs(steps)):
                moved = np.nextafter(moved, np.float32(direction))
        return float(moved) if math.isfinite(float(moved)) else value
    for _ in range(abs(steps)):
        value = math.nextafter(value, direction)
    return value


@st.composite
def scores(draw: st.DrawFn) -> float:
    """A score: an anchor moved 0-2 units in the last place of float64 or float32, or any finite double."""
    if draw(st.integers(0, 7)) == 7:
        return draw(st.floats(allow_nan=False, allow_infinity=False))
    anchor = draw(st.sampled_from(ANCHOR_SCORES))
    return _step(anchor, draw(st.integers(-2, 2)), draw(st.sampled_from(("float64", "float32"))))


@st.composite
def queries(draw: st.DrawFn, max_documents: int = 8, max_grade: int = 3) -> Query:
    """One query: up to ``max_documents`` documents, each judged, retrieved or both, grades up to
    ``max_grade`` (or binary), at least one judgment (a qrels file cannot hold a query with none)."""
    graded = draw(st.booleans())
    documents = draw(st.lists(st.sampled_from(DOCUMENT_IDS), min_size=1, max_size=max_documents, unique=True))
    judgments: list[tuple[str, int]] = []
    run: list[tuple[str, float]] = []
    for i, doc in enumerate(documents):
        role = draw(st.sampled_from(("both", "judged", "retrieved"))) if i else draw(st.sampled_from(("both", "judged")))
        if role != "retrieved":
            judgments.append((doc, draw(st.integers(0, max_grade if graded else 1))))
        if role != "judged":
            run.append((doc, draw(scores())))
    return Query(tuple(judgments), tuple(draw(st.permutations(run))) if len(run) > 1 else tuple(run))


def awkward_queries(cutoff: int | None) -> list[Query]:
    """Hand-written inputs every run includes, each one a known way implementations differ."""
    k = cutoff or 5
    deep = tuple((f"d{i}", float(k + 2 - i)) for i in range(k + 2))
    return [
        Query((("a", 1), ("b", 0)), (("a", 2.2435091), ("b", 2.243509))),  # equal in float32
        Query((("a", 1),), ()),                                             # an empty run
        Query((("a", 0), ("b", 0)), (("a", 1.0), ("b", 0.5))),              # no relevant document
        Query((("10", 1), ("9", 0)), (("9", 1.0), ("10", 1.0))),            # "9" > "10" as strings
        Query((("a", 1), ("b", 0)), (("a", 1e300), ("b", 1e299))),          # past float32's range
        Query((("a", 1), ("b", 0)), (("a", -1e-6), ("b", -1e-5))),          # negative scores
        Query((("a", 1), ("c", 2)), (("b", 2.0), ("a", 1.0))),              # unjudged b, unretrieved c
        Query(((f"d{k + 1}", 1), ("d0", 0)), deep),                         # the relevant one past k
        Query((("a", 2), ("b", 1), ("c", 0)), (("c", 3.0), ("b", 2.0), ("a", 1.0))),  # graded, reversed
    ]


def sizes(found: Sequence[Query]) -> list[int]:
    """Each query's number of documents, for picking the smallest."""
    return [query.size for query in found]
