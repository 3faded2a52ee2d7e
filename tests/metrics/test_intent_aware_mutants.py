"""Intent-aware metrics' helpers, issue 14: the identity-keyed LRU cache (its size, its order,
its extra keys), the greedy nERR-IA ideal deciding a float near-tie exactly and stopping at its
depth, and nERR-IA's batched path normalising by the ideal cut at k."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.intent_aware import (NDCGIA, NERRIA, ERRIA, ReciprocalRankIA, _IdentityCache, aspect_topics,
                                           greedy_ideal)

F = Fraction


def test_identity_cache_is_lru_of_128_topics_keyed_on_identity_and_key():
    builds = []

    def build(tag):
        def make():
            builds.append(tag)
            return tag
        return make

    cache = _IdentityCache(maxsize=2)
    t1, t2, t3 = (Topic.single({"a": 1}) for _ in range(3))  # equal, not identical
    assert cache.get(t1, (), build("t1")) == "t1"
    assert cache.get(t1, (), build("again")) == "t1" and builds == ["t1"]
    assert cache.get(t2, (), build("t2")) == "t2"  # an equal topic is another entry
    assert cache.get(t1, (5,), build("t1@5")) == "t1@5"  # another key: another entry, t1 evicted
    assert cache.get(t2, (), build("x")) == "t2"  # t2 used: now the most recent
    cache.get(t3, (), build("t3"))  # evicts the least recently used: t1@5, not t2
    assert cache.get(t2, (), build("x")) == "t2"
    assert cache.get(t1, (5,), build("t1@5 again")) == "t1@5 again"
    assert builds == ["t1", "t2", "t1@5", "t3", "t1@5 again"]
    # The default size: 128 topics are held, the 129th evicts the first.
    cache = _IdentityCache()
    topics = [Topic.single({"a": 1}) for _ in range(129)]
    for i, topic in enumerate(topics[:128]):
        cache.get(topic, (), build(i))
    assert cache.get(topics[0], (), build("lost")) == 0
    cache.get(topics[128], (), build(128))  # topics[1] is now the oldest
    assert cache.get(topics[0], (), build("lost")) == 0
    assert cache.get(topics[1], (), build("rebuilt")) == "rebuilt"


def test_aspect_topics_and_ideals_are_per_topic_object():
    exact = Topic({"a": {"x": F(1, 2)}, "b": {"y": F(1, 2)}})
    floats = Topic({"a": {"x": 0.5}, "b": {"y": 0.5}})
    assert [t.r("a") for t in aspect_topics(exact)] == [F(1, 2), 0]
    assert isinstance(aspect_topics(exact)[0].r("a"), Fraction)
    assert isinstance(aspect_topics(floats)[0].r("a"), float)
    # The depth is part of the ideal's key: the full ideal after the depth-1 one.
    topic = Topic({"d1": {"x": F(1, 2)}, "d2": {"y": F(1, 2)}})
    assert greedy_ideal(topic, 1) == ("d2",)
    assert greedy_ideal(topic) == ("d2", "d1")
    assert greedy_ideal(topic, 1) == ("d2",)


def test_a_float_near_tie_is_decided_exactly():
    # One aspect: a's grade exceeds b's by 10^-20, below float resolution (both are 1/3 in
    # float64). Exactly a adds more, so a comes first although b is the larger id.
    tiny = F(1, 10 ** 20)
    topic = Topic.single({"a": F(1, 3) + tiny, "b": F(1, 3)})
    assert float(topic.r("a")) == float(topic.r("b"))
    assert greedy_ideal(topic) == ("a", "b")
    # Swapped: b exceeds a by 10^-20 -> b first (also by the tie rule, which must not be needed).
    topic = Topic.single({"a": F(1, 3), "b": F(1, 3) + tiny})
    assert greedy_ideal(topic) == ("b", "a")


def test_nerr_ia_batched_normalises_by_the_ideal_at_k():
    # Aspects x (7/10), y (3/10): a {x 1/2}, b {x 1/4, y 1/2}, c {y 3/4}. Greedy ideal a, b, c
    # (test_intent_aware): increments 0.35, 0.2375, 0.1125.
    topic = Topic({"a": {"x": F(1, 2)}, "b": {"x": F(1, 4), "y": F(1, 2)}, "c": {"y": F(3, 4)},
                   "n": {"x": 0, "y": 0}}, {"x": F(7, 10), "y": F(3, 10)})
    # @1: ideal ERR-IA@1 = 7/20. [c]: 3/10 * 3/4 = 9/40 -> 9/14;  [b]: 13/40 -> 13/14.
    assert NERRIA(1).exact(["c"], topic) == F(9, 14)
    batch = RankingBatch.from_rankings([["c"], ["b", "a"], ["n"]], topic)
    assert NERRIA(1).score_batch(batch).tolist() == pytest.approx([9 / 14, 13 / 14, 0.0], abs=1e-15)
    # @2: ideal 0.35 + 0.2375/2 = 0.46875 = 15/32. [b, a]: 0.325 + (7/10 * 1/2 * 3/4)/2
    # = 0.325 + 0.13125 = 0.45625 = 73/160 -> (73/160)/(15/32) = 73/75.
    assert NERRIA(2).exact(["b", "a"], topic) == F(73, 75)
    assert ERRIA(2).exact(["a", "b"], topic) == F(15, 32)
    batch = RankingBatch.from_rankings([["b", "a"], ["a", "b", "c"]], topic)
    assert NERRIA(2).score_batch(batch).tolist() == pytest.approx([73 / 75, 1.0], abs=1e-15)


def test_greedy_increment_uses_what_is_left_of_a_partly_satisfied_aspect():
    # Equal weights 1/2. Step 1: d9 and d1 (x, 1/2) tie at 1/4 over d5 (y, 1/4: 1/8) -> d9.
    # Step 2: d1 adds (1/2)(1/2)(1 - 1/2) = 1/8, d5 adds (1/2)(1/4) = 1/8: a tie -> d5 (larger id).
    topic = Topic({"d9": {"x": F(1, 2)}, "d1": {"x": F(1, 2)}, "d5": {"y": F(1, 4)}})
    assert greedy_ideal(topic) == ("d9", "d5", "d1")


def test_intent_aware_batches_match_the_hand_computed_values():
    # test_intent_aware's topic and ranking: w(x) = 7/10, w(y) = 3/10; [a, u, c, b].
    from axiometer.metrics.intent_aware import (AveragePrecisionIA, PrecisionIA, RBPIA,
                                                ReciprocalRankIA)
    topic = Topic({"a": {"x": F(1, 2)}, "b": {"x": F(1, 4), "y": F(1, 2)}, "c": {"y": F(3, 4)},
                   "n": {"x": 0, "y": 0}}, {"x": F(7, 10), "y": F(3, 10)})
    rankings = [["a", "u", "c", "b"], ["n"], []]
    batch = RankingBatch.from_rankings(rankings, topic)
    for metric, value in ((PrecisionIA(2), F(7, 20)), (ReciprocalRankIA(), F(4, 5)),
                          (AveragePrecisionIA(), F(13, 20)), (ERRIA(), F(73, 160)),
                          (RBPIA(p=0.5), F(143, 640))):
        assert metric.exact(rankings[0], topic) == value
        assert metric.score_batch(batch).tolist() == pytest.approx([float(value), 0.0, 0.0], abs=1e-15)


def test_nerr_ia_takes_no_parameters():
    from axiometer.core import ValidationError
    with pytest.raises(ValidationError) as error:
        NERRIA(p=0.5)
    assert str(error.value) == "nERR_IA: unknown parameter 'p' (parameters: none)"


def test_a_batch_built_without_judged_flags_scores_each_aspect_the_same():
    """RankingBatch's ``judged`` is optional: the per-aspect batches pass on lengths as lengths
    (an aspect without a relevant document scores its zeros, one per ranking)."""
    topic = Topic({"a": {"x": F(1, 2), "y": 0}, "b": {"x": F(1, 4), "y": 0}}, {"x": F(1, 2), "y": F(1, 2)})
    rankings = [["b", "a"], ["u"], []]
    full = RankingBatch.from_rankings(rankings, topic)
    bare = RankingBatch(topic, full.gains, full.lengths)
    for metric in (NDCGIA(10), ReciprocalRankIA()):
        expected = [float(metric.exact(r, topic)) for r in rankings]
        assert metric.score_batch(bare).tolist() == pytest.approx(expected, abs=1e-15)
