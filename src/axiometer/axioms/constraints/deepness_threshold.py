"""Constraint 3, Deepness threshold (DeepTh) — Amigó et al., SIGIR 2018, Eq. 3.

Assuming binary relevance (``rc <= rho``): there is an ``n`` large enough that
one relevant document at the top beats ``n`` relevant documents after ``n``
non-relevant ones. ``D(n) = Q(a_n) - Q(b_n)`` must be positive on the whole
final stretch of the grid (definitions §3); the witness is where it starts.
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
    family="relevance",
    kind="threshold",
    threshold=ThresholdRule(threshold_pair, "eventually positive", "n"),
    default_mode="truncate",
)
