"""Constraint 4, Closeness threshold (CloseTh) — Amigó et al., SIGIR 2018, Eq. 4.

Assuming binary relevance (``rc <= rho``): there is an ``m`` small enough that
one relevant document first is worse than ``m`` relevant documents after
``m`` non-relevant ones: some grid ``m`` with ``Q(b_m) > Q(a_m)``; the
witness is the smallest.

Search coverage (tested in tests/generators/test_search_coverage.py): the grid starts at
``m = 1, 2``, so an early witness is found: RBP with ``p = 0.8`` has ``Q(a_1) > Q(b_1)`` but
``Q(b_2) > Q(a_2)``; the pair is the one DeepTh uses (same ``rc`` values, all ``<= rho``).
"""

from axiometer.axioms.constraints.threshold import ThresholdConstraint, ThresholdRule
from axiometer.generators.relevance import threshold_pair

CLOSENESS_THRESHOLD = ThresholdConstraint(
    id="CloseTh",
    name="Closeness threshold",
    wording="Assuming binary relevance, there exists a value m small enough such that retrieving "
            "one relevant document in the first position is worse than m relevant documents "
            "after m non-relevant documents.",
    conditions=("single aspect", "binary"),
    group="relevance",
    form="threshold",
    threshold=ThresholdRule(threshold_pair, "sometimes negative", "m"),
    default_mode="truncate",
    meaning="A metric that violates it always prefers a single relevant document at rank 1 to "
            "several relevant ones just below it.",
    source="Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.2, Constraint 4 "
           "(Closeness Threshold), Eq. 4",
    expectation="should score higher than a: its m relevant documents sit in the short top "
                "area users always read",
    construction="a_m is one relevant document followed by 2m - 1 non-relevant ones; b_m is m "
                 "non-relevant documents followed by m relevant ones; every relevant document "
                 "has r = rc (1/100, 1/20, 1/10); m runs over 1..32, then doubles up to the "
                 "horizon (1024).",
    relation_text="Q(b_m) > Q(a_m) for some m",
    example_metrics=("RBP(p=0.8)", "RBP(p=0.5)"),
)
