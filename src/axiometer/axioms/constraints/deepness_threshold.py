"""Constraint 3, Deepness threshold (DeepTh) — Amigó et al., SIGIR 2018, Eq. 3.

Assuming binary relevance (``rc <= rho``): there is an ``n`` large enough that
one relevant document at the top beats ``n`` relevant documents after ``n``
non-relevant ones. ``D(n) = Q(a_n) - Q(b_n)`` must be positive on the whole
final stretch of the grid (definitions §3); the witness is where it starts.

Search coverage (tested in tests/generators/test_search_coverage.py): both sides of the
threshold. The grid runs from ``n = 1`` to the horizon 1024, so a late threshold is reached: RBP
with ``p = 0.99`` has ``D(1) > 0``, ``D(n) < 0`` up to ``n = 256`` and ``D > 0`` at 512 and 1024;
the pair is ``2n`` documents with exactly ``n`` relevant of value ``rc`` for every default ``rc``
(all ``<= rho``).
"""

from axiometer.axioms.constraints.threshold import ThresholdConstraint, ThresholdRule
from axiometer.generators.relevance import threshold_pair

DEEPNESS_THRESHOLD = ThresholdConstraint(
    id="DeepTh",
    name="Deepness threshold",
    wording="Assuming binary relevance, there exists a value n large enough such that retrieving "
            "only one relevant document at the top of the ranking is better than retrieving n "
            "relevant documents after n non-relevant documents.",
    conditions=("single aspect", "binary"),
    group="relevance",
    form="threshold",
    threshold=ThresholdRule(threshold_pair, "eventually positive", "n"),
    default_mode="truncate",
    meaning="A metric that violates it rewards relevant documents however deep they lie, as if "
            "users read without end.",
    source="Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.2, Constraint 3 "
           "(Deepness Threshold), Eq. 3",
    expectation="should score lower than a: its n relevant documents lie after n non-relevant "
                "ones, deeper than users read",
    construction="a_n is one relevant document followed by 2n - 1 non-relevant ones; b_n is n "
                 "non-relevant documents followed by n relevant ones; every relevant document "
                 "has r = rc (1/100, 1/20, 1/10); n runs over 1..32, then doubles up to the "
                 "horizon (1024).",
    relation_text="Q(a_n) > Q(b_n) for every n from some N on",
    example_metrics=("RR", "AP"),
)
