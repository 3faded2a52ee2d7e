"""Constraint 4, Closeness threshold (CloseTh) — Amigó et al., SIGIR 2018, Eq. 4.

Assuming binary relevance (``rc <= rho``): there is an ``m`` small enough that
one relevant document first is worse than ``m`` relevant documents after
``m`` non-relevant ones: some grid ``m`` with ``Q(b_m) > Q(a_m)``; the
witness is the smallest.
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
    family="relevance",
    kind="threshold",
    threshold=ThresholdRule(threshold_pair, "sometimes negative", "m"),
    default_mode="truncate",
)
