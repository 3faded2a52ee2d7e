"""The greedy shrinker reaches a small, plain query from a large failing one."""

from __future__ import annotations

import numpy as np

from axiometer.agreement.query import Query
from axiometer.agreement.shrink import complexity, shrink


def test_a_float32_tie_is_shrunk_to_two_plain_documents_with_small_scores():
    big = Query((("k", 1), ("9", 3), ("d10", 0), ("x", 2)),
                (("9", -1e300), ("d10", 17.25), ("k", 2.2435091), ("q", 2.243509), ("x", 0.5)))

    def float32_tie_above_a_relevant_document(query: Query) -> bool:
        grades = query.grades()
        with np.errstate(over="ignore"):
            scores = [(float(np.float32(s)), s, d) for d, s in query.run]
        return any(a[0] == b[0] and a[1] != b[1] and grades.get(a[2], 0) > 0 for a in scores for b in scores)

    assert float32_tie_above_a_relevant_document(big)
    small = shrink(big, float32_tie_above_a_relevant_document)
    assert float32_tie_above_a_relevant_document(small)
    assert small.size == 2 and len(small.judgments) == 1
    assert {d for d, _ in small.run} == {"a", "b"}
    assert max(abs(s) for _, s in small.run) <= 2.0
    assert complexity(small) < complexity(big)


def test_a_query_that_is_already_minimal_is_returned_as_it_is():
    minimal = Query((("a", 1),), ())
    assert shrink(minimal, lambda q: not q.run and q.relevant() > 0) == minimal
