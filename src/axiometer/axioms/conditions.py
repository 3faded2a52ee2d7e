"""The conditions constraints assume (SPEC section 3), as predicates on a case.

Generators build cases that satisfy their constraint's conditions by
construction; the tests use these predicates to confirm it.
"""

from __future__ import annotations

from axiometer.core import Topic
from axiometer.generators.case import Case, Scope

__all__ = ["single_aspect", "contribution", "binary", "balanced", "no_overlap",
           "single_aspect_contribution"]


def single_aspect(topic: Topic) -> bool:
    return len(topic.aspects) == 1


def contribution(topic: Topic, rho) -> bool:
    """Relevance contribution: every non-zero ``r(d, t)`` is at most ``rho``."""
    return all(0 <= r <= rho for d in topic.documents for r in topic.vector(d))


def binary(topic: Topic) -> bool:
    """Every judged non-zero value is one common constant ``rc``."""
    return topic.is_binary


def balanced(topic: Topic) -> bool:
    return len(set(topic.weights)) == 1


def no_overlap(topic: Topic) -> bool:
    """Every document is relevant to at most one aspect."""
    return all(sum(1 for r in topic.vector(d) if r > 0) <= 1 for d in topic.documents)


def single_aspect_contribution(case: Case, scope: Scope) -> bool:
    """Pri/Deep/Conf: single aspect and ``r <= rho``, and changes inside the window."""
    inside = scope.max_position is None or all(p <= scope.max_position for p in case.changed)
    return single_aspect(case.topic) and contribution(case.topic, scope.rho) and inside
