"""ESL (issue 14, mutation survivors of metrics/expected_search_length.py): unjudged documents in
the ranking and the final weak level, relevance levels, and the batched path by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.expected_search_length import ExpectedSearchLength as ESL

# R = 2 (a, b); judged non-relevant c, n; u, v unjudged. Grades: b (1/2) 1, a (1) 2.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0, "n": 0})


def test_unjudged_documents_count_above_but_not_in_the_final_level():
    # s = 1, [u, c]: j = 2 (u, c); level: r = 2 (a, b), i = 2 judged non-relevant - 1 retrieved (c) = 1,
    # s' = 1: 2 + 1 * 1 / 3 = 7/3.
    assert ESL().exact(["u", "c"], TOPIC) == Fraction(7, 3)
    # s = 2, [a, u, v]: found 1; j = 2 (u, v); level: r = 1 (b), i = 2 (c, n), s' = 1: 2 + 2/2 = 3.
    assert ESL(s=2).exact(["a", "u", "v"], TOPIC) == 3
    # s = 2, [u, a, c, b]: non-relevant u and c before b: 2.
    assert ESL(s=2).exact(["u", "a", "c", "b"], TOPIC) == 2
    rankings = [["u", "c"], ["a", "u", "v"], ["u", "a", "c", "b"], ["b"], ["n", "c", "u"]]
    # [b], s = 2: j = 0, r = 1 (a), i = 2, s' = 1: 2/2 = 1. [n, c, u], s = 2: j = 3, r = 2, i = 0: 3.
    batch = RankingBatch.from_rankings(rankings, TOPIC)
    # [u, c], s = 2: j = 2, r = 2, i = 1, s' = 2: 2 + 1 * 2 / 3 = 8/3.
    assert [ESL(s=2).exact(r, TOPIC) for r in rankings] == [Fraction(8, 3), 3, 2, 1, 3]
    assert ESL(s=2).score_batch(batch).tolist() == pytest.approx([8 / 3, 3.0, 2.0, 1.0, 3.0], abs=1e-15)
    # s = 1: [u, c] 7/3, [a, ...] 0, [u, a, ...] 1, [b] 0, [n, c, u]: j = 3, r = 2, i = 0: 3.
    assert ESL().score_batch(batch).tolist() == pytest.approx([7 / 3, 0.0, 1.0, 0.0, 3.0], abs=1e-15)


def test_relevance_level_two():
    # At rel = 2 only a is relevant (R = 1); b counts as non-relevant.
    metric = parse("ESL(rel=2)")
    assert metric.exact(["b", "c", "a"], TOPIC) == 2
    # [b]: j = 1; level: r = 1 (a), i = 3 (b, c, n not relevant at 2) - 1 retrieved = 2, s' = 1: 1 + 2/2 = 2.
    assert metric.exact(["b"], TOPIC) == 2
    with pytest.raises(NotImplementedError):
        metric.score_batch(RankingBatch.from_rankings([["b"]], TOPIC))
