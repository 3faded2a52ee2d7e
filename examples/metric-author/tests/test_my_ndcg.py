"""The nDCG@10 the paper reports beside graded precision computes axiometer's nDCG@10."""

from my_ndcg import ndcg_at_10


def test_ndcg_at_10_agrees_with_the_built_in_when_ties_keep_the_run_order(axiometer_agree):
    """Generated queries (and hand-written awkward ones: float32 ties, empty runs, no relevant
    document) give the same value as axiometer's exact nDCG@10, with equal scores kept in the run's
    order. A bug, or a convention other than the one stated, fails the test with a minimal query."""
    result = axiometer_agree(ndcg_at_10, "nDCG@10", conventions={"ties": "input"})
    assert result.convention.departures() == [("ties", "input")]   # nothing else departs from trec_eval
