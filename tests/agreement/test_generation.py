"""The generated queries hold every kind of input the issue trackers show breaking implementations."""

from __future__ import annotations

import numpy as np

from axiometer.agreement.agree import _generated
from axiometer.agreement.generation import awkward_queries


def _float32_tie(query) -> bool:
    scores = [s for _, s in query.run]
    with np.errstate(over="ignore"):
        return len({float(np.float32(s)) for s in scores}) < len(set(scores))


def test_three_hundred_generated_queries_cover_every_awkward_kind_of_input():
    found = _generated(300, 0, 10)
    kinds = {
        "graded": any(g > 1 for q in found for _, g in q.judgments),
        "binary": any(all(g <= 1 for _, g in q.judgments) for q in found),
        "unjudged retrieved": any({d for d, _ in q.run} - {d for d, _ in q.judgments} for q in found),
        "judged never retrieved": any({d for d, _ in q.judgments} - {d for d, _ in q.run} for q in found),
        "no relevant document": any(q.relevant() == 0 for q in found),
        "empty run": any(not q.run for q in found),
        "longer than the cutoff": any(len(q.run) > 10 for q in found),
        "tied scores": any(len({s for _, s in q.run}) < len(q.run) for q in found),
        "equal only in float32": any(_float32_tie(q) for q in found),
        "negative": any(s < 0 for q in found for _, s in q.run),
        "huge": any(abs(s) > 1e38 for q in found for _, s in q.run),
        "ids ordered differently as numbers": any({"9", "10"} <= {d for d, _ in q.run} for q in found)
        or any(d.isdigit() for q in found for d, _ in q.run),
    }
    assert [kind for kind, seen in kinds.items() if not seen] == []


def test_every_generated_query_has_a_judgment_and_no_document_twice():
    for query in _generated(100, 1, None) + awkward_queries(5):
        assert query.judgments
        assert len({d for d, _ in query.judgments}) == len(query.judgments)
        assert len({d for d, _ in query.run}) == len(query.run)
