"""The conditions constraints assume (definitions §3), as predicates on a case.

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


# -- The diversity-oriented constraints (SIGIR 2018, section 3.3) ----------------
# One predicate per constraint: the case has the constraint's shape and every
# condition it assumes holds (definitions §3), checked from the case alone.

__all__ += ["inside_window", "relevant_aspects", "aspect_diversity_case", "redundancy_case",
            "monotonic_redundancy_case", "saturation_case", "aspect_relevance_case"]


def inside_window(case: Case, scope: Scope) -> bool:
    """Every position the construction changes is ``<= scope.max_position``."""
    return scope.max_position is None or all(p <= scope.max_position for p in case.changed)


def relevant_aspects(topic: Topic, doc: str) -> tuple[int, ...]:
    """Indices of the aspects ``doc`` is relevant to (``r(doc, t) > 0``)."""
    return tuple(j for j, r in enumerate(topic.vector(doc)) if r > 0)


def _replaced_position(case: Case) -> int | None:
    """The one position at which ``a`` and ``b`` (same length) differ, by a document new to ``a``."""
    if len(case.a) != len(case.b):
        return None
    differ = [i for i, (x, y) in enumerate(zip(case.a, case.b), 1) if x != y]
    if len(differ) != 1 or case.b[differ[0] - 1] in case.a:
        return None
    return differ[0]


def _prefix_pair(case: Case) -> tuple[tuple[str, ...], str, str] | None:
    """``(P, x, y)`` if ``a = P + x`` and ``b = P + y`` with ``y`` not in ``a``, else ``None``."""
    if not case.a or len(case.a) != len(case.b) or tuple(case.a[:-1]) != tuple(case.b[:-1]):
        return None
    x, y = case.a[-1], case.b[-1]
    if y in case.a or case.changed != (len(case.a),):
        return None
    return tuple(case.a[:-1]), x, y


def aspect_diversity_case(case: Case, scope: Scope) -> bool:
    """AspDiv (Eq. 6): ``b`` = ``a`` with ``d_i`` replaced by a new ``d'``, ``r(d', t) >= r(d_i, t)``
    for every ``t`` and ``>`` for some; relevance contribution; under ``later_untouched`` no
    later document is relevant to an aspect ``d'`` raised."""
    topic, i = case.topic, _replaced_position(case)
    if i is None or case.changed != (i,) or not inside_window(case, scope):
        return False
    old, new = topic.vector(case.a[i - 1]), topic.vector(case.b[i - 1])
    if not (all(n >= o for n, o in zip(new, old)) and any(n > o for n, o in zip(new, old))):
        return False
    if scope.later_untouched:
        raised = [t for t, (n, o) in enumerate(zip(new, old)) if n > o]
        if any(topic.vector(d)[t] > 0 for d in case.a[i:] for t in raised):
            return False
    return contribution(topic, scope.rho)


def redundancy_case(case: Case, scope: Scope) -> bool:
    """Red (Eq. 7): binary (``rc < 1``), balanced, no overlap; ``a = P + x``, ``b = P + y``,
    ``x`` relevant to ``t`` only, ``y`` to ``t' != t`` only, ``P`` covering ``t`` more often
    than ``t'``."""
    topic, pair = case.topic, _prefix_pair(case)
    if pair is None or not inside_window(case, scope):
        return False
    prefix, x, y = pair
    if not (len(topic.aspects) >= 2 and binary(topic) and balanced(topic) and no_overlap(topic)):
        return False
    on_x, on_y = relevant_aspects(topic, x), relevant_aspects(topic, y)
    if len(on_x) != 1 or len(on_y) != 1 or on_x == on_y or not topic.r(x) < 1:
        return False
    t, t2 = on_x[0], on_y[0]
    covers = [sum(1 for d in prefix if topic.vector(d)[aspect] > 0) for aspect in (t, t2)]
    if not covers[0] > covers[1]:
        return False
    return not scope.values_within_rho or contribution(topic, scope.rho)


def monotonic_redundancy_case(case: Case, scope: Scope) -> bool:
    """MRed (Eq. 8): two balanced aspects, relevance contribution; ``a = P + x``, ``b = P + y``,
    ``P`` non-empty with ``r(d, t) > r(d, t')`` for every ``d`` in ``P``; ``x`` relevant to ``t``
    only, ``y`` to ``t'`` only, ``0 < r(x, t) = r(y, t')``."""
    topic, pair = case.topic, _prefix_pair(case)
    if pair is None or not inside_window(case, scope):
        return False
    prefix, x, y = pair
    if not (prefix and len(topic.aspects) == 2 and balanced(topic) and contribution(topic, scope.rho)):
        return False
    on_x, on_y = relevant_aspects(topic, x), relevant_aspects(topic, y)
    if len(on_x) != 1 or len(on_y) != 1 or on_x == on_y:
        return False
    t, t2 = on_x[0], on_y[0]
    if topic.vector(x)[t] != topic.vector(y)[t2]:
        return False
    return all(topic.vector(d)[t] > topic.vector(d)[t2] for d in prefix)


def saturation_case(case: Case, scope: Scope) -> bool:
    """Sat (Eq. 9): no overlap; ``a`` ends with ``d_n``, ``r(d_n, t) = rmax`` (``scope.rmax``,
    default 1); ``b = a + x`` with ``x`` relevant to ``t`` only."""
    topic, a, b = case.topic, case.a, case.b
    if not a or tuple(b[:-1]) != tuple(a) or len(b) != len(a) + 1 or b[-1] in a:
        return False
    if case.changed != (len(b),) or not inside_window(case, scope) or not no_overlap(topic):
        return False
    rmax = 1 if scope.rmax is None else scope.rmax
    last, x = a[-1], b[-1]
    on_last = relevant_aspects(topic, last)
    if len(on_last) != 1 or topic.vector(last)[on_last[0]] != rmax:
        return False
    if relevant_aspects(topic, x) != on_last:
        return False
    # Under values_within_rho every value but rmax stays at most rho.
    return not scope.values_within_rho or all(
        r <= scope.rho for d in topic.documents if d != last for r in topic.vector(d))


def aspect_relevance_case(case: Case, scope: Scope) -> bool:
    """AspRel (Eq. 10): no overlap; ``b`` = ``a`` with ``x`` (relevant to ``t`` only) replaced
    by ``y`` (relevant to ``t'`` only) at position ``i``, ``r(y, t') = r(x, t)``,
    ``w(t') > w(t)``; no other document is relevant to ``t`` or ``t'``."""
    topic, i = case.topic, _replaced_position(case)
    if i is None or case.changed != (i,) or not inside_window(case, scope) or not no_overlap(topic):
        return False
    x, y = case.a[i - 1], case.b[i - 1]
    on_x, on_y = relevant_aspects(topic, x), relevant_aspects(topic, y)
    if len(on_x) != 1 or len(on_y) != 1 or on_x == on_y:
        return False
    t, t2 = on_x[0], on_y[0]
    if topic.vector(x)[t] != topic.vector(y)[t2] or not topic.weights[t2] > topic.weights[t]:
        return False
    others = (set(topic.documents) | set(case.a) | set(case.b)) - {x, y}
    if any(topic.vector(d)[t] > 0 or topic.vector(d)[t2] > 0 for d in others):
        return False
    return not scope.values_within_rho or contribution(topic, scope.rho)
