"""The intrinsic checks on a relative metric run under one fixed context (definitions §6)."""

from axiometer.intrinsic.classify import classify
from axiometer.core import Context, Ranking, Topic
from axiometer.generators.domains import rankings
from axiometer.metrics import parse
from axiometer.metrics.relative import InContext


def test_a_relative_metric_is_classified_in_a_fixed_context_named_in_the_result():
    domain = rankings(3)
    result = classify(parse("NRG(base=nDCG@10)"), domain)
    # The fixed context: one other system with the relevant documents, last id first, then o1.
    assert result.metric.endswith("| s1 = 1#3 1#2 1#1 o1")
    # NRG sees where the other system ranks each document, so relabelling two documents of
    # the same grade changes the score: not a pseudometric in Giner's sense, with the pair.
    assert result.category == "not a pseudometric"
    pair = result.properties[0].counterexample
    assert pair[0].ranking != pair[1].ranking and pair[0].score != pair[1].score


def test_rareness_is_relabelling_invariant_when_every_relevant_document_is_equally_common():
    # Every relevant document of rankings(3) is in the fixed context's top 3: equal rarity.
    result = classify(parse("RareP(alpha=0.5)@3"), rankings(3))
    assert result.category == "ordinal/pseudometric"


def test_in_context_scores_as_the_metric_does_in_that_context():
    topic = Topic.single({"A": 1, "B": 1})
    context = Context([Ranking(["A", "y1"])])
    metric = parse("NRG(base=nDCG@10)")
    fixed = InContext(metric, context)
    ranking = Ranking(["B", "A"])
    assert fixed.score(ranking, topic) == metric.score(ranking, topic, context)
    assert fixed.exact(ranking, topic) == metric.exact(ranking, topic, context)
    assert not fixed.needs.context and fixed.name == "NRG(base=nDCG@10) | s1 = A y1"
    assert fixed.replace(norm="none").score(ranking, topic) == \
        parse("NRG(base=nDCG@10,norm='none')").score(ranking, topic, context)
