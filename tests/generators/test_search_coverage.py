"""Coverage of the search (issue 14, item 3): the ground each constraint and relative property talks
about, and that its generators reach it.

Each constraint's module docstring has a "Search coverage" paragraph naming the features its
generator must reach; this file is their specification. For every feature, hypothesis ``find`` over
the constraint's own strategy (deterministic settings) reaches a case with it, and, unless the
docstring says the feature is left to the random search, the constraint's exhaustive small scope
(declared, default scope) contains one. The last section pins AspDiv and Sat reaching unequal
weights and Pri a swap two apart; tests/generators/test_diversity.py pins AspDiv gains a hundred
times smaller, Red prefixes filling both aspects and MRed prefixes relevant to both aspects.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, find, settings

from axiometer.axioms import get
from axiometer.axioms.constraints.threshold import DEFAULT_RCS, threshold_grid
from axiometer.generators.case import DEFAULT_RHO, Case, Scope, cases_of
from axiometer.generators.relevance import priority_cases, priority_small_scope, threshold_pair
import axiometer
from axiometer.generators.diversity import aspect_diversity_cases, saturation_cases

FIND = settings(max_examples=1000, database=None, deadline=None, derandomize=True,
                phases=(Phase.generate,), suppress_health_check=list(HealthCheck))
RHO = DEFAULT_RHO
K = 3  # the window of the relative properties' features (cutoff k = 3)


def r(case: Case, doc: str, aspect: str | None = None) -> Fraction:
    return case.topic.r(doc, aspect)


def aspects_of(case: Case, doc: str) -> list[int]:
    return [t for t, v in enumerate(case.topic.vector(doc)) if v > 0]


# -- relevance constraints ----------------------------------------------------------

def pri(test: Callable[[Case, int, int], bool]) -> Callable[[Case], bool]:
    return lambda c: test(c, *c.changed)


PRI = {
    "an adjacent swap": pri(lambda c, i, j: j == i + 1),
    "a swap three positions apart": pri(lambda c, i, j: j - i >= 3),
    "the top document swapped": pri(lambda c, i, j: i == 1),
    "both swapped documents below the top": pri(lambda c, i, j: i >= 2),
    "graded: the lower swapped document relevant too": pri(lambda c, i, j: r(c, c.a[i - 1]) > 0),
    "a relevant document between the swapped ones": pri(
        lambda c, i, j: any(r(c, d) > 0 for d in c.a[i:j - 1])),
    "a relevant document after the swap": pri(lambda c, i, j: any(r(c, d) > 0 for d in c.a[j:])),
    "three different positive grades in one ranking": lambda c: len({r(c, d) for d in c.a} - {0}) >= 3,
    "the lower swapped level rho/2, the highest below rho": pri(lambda c, i, j: r(c, c.a[i - 1]) == RHO / 2),
    "the higher swapped level below rho": pri(lambda c, i, j: r(c, c.a[j - 1]) < RHO),
}


def deep(test: Callable[[Case, int, int], bool]) -> Callable[[Case], bool]:
    return lambda c: test(c, c.changed[0], c.changed[2])


def base_value(c: Case, position: int) -> Fraction:
    """``r`` at a position of the base ranking ``d1 .. dn``."""
    return r(c, f"d{position}")


DEEP = {
    "the two swaps right after each other (j = i + 2)": deep(lambda c, i, j: j == i + 2),
    "a gap between the two swaps (j > i + 2)": deep(lambda c, i, j: j > i + 2),
    "the first swap at the top (i = 1)": deep(lambda c, i, j: i == 1),
    "both swaps below the top (i >= 2)": deep(lambda c, i, j: i >= 2),
    "graded: the lower level relevant too": deep(lambda c, i, j: base_value(c, i) > 0),
    "a relevant document between the swaps": deep(
        lambda c, i, j: any(base_value(c, m) > 0 for m in range(i + 2, j))),
    "a relevant document after both swaps": deep(
        lambda c, i, j: any(base_value(c, m) > 0 for m in range(j + 2, len(c.a) + 1))),
    "the lower level rho/2, the highest below rho": deep(lambda c, i, j: base_value(c, i) == RHO / 2),
    "the higher level below rho": deep(lambda c, i, j: base_value(c, i + 1) < RHO),
}

CONF = {
    "a empty": lambda c: len(c.a) == 0,
    "a ending with a relevant document": lambda c: len(c.a) > 0 and r(c, c.a[-1]) > 0,
    "a of non-relevant documents only": lambda c: len(c.a) > 0 and not any(r(c, d) for d in c.a),
    "graded: two different positive values in a": lambda c: len({r(c, d) for d in c.a} - {0}) >= 2,
}


# -- diversity constraints ----------------------------------------------------------

def replaced(c: Case) -> tuple[tuple, tuple, int]:
    (i,) = c.changed
    return c.topic.vector(c.a[i - 1]), c.topic.vector(c.b[i - 1]), i


def raised(c: Case) -> list[int]:
    old, new, _ = replaced(c)
    return [t for t, (o, n) in enumerate(zip(old, new)) if n > o]


ASPDIV = {
    "one aspect raised, another left as it was": lambda c: len(raised(c)) == 1,
    "two aspects raised at once": lambda c: len(raised(c)) >= 2,
    "the replaced document already relevant": lambda c: any(replaced(c)[0]),
    "a later document relevant to a raised aspect": lambda c: any(
        c.topic.vector(d)[t] > 0 for d in c.a[replaced(c)[2]:] for t in raised(c)),
    "the replaced document at the top": lambda c: replaced(c)[2] == 1,
    "the replaced document below the top": lambda c: replaced(c)[2] >= 2,
}


def red_counts(c: Case) -> tuple[int, int, int]:
    """Documents of ``P`` relevant to ``t`` (x's aspect), to ``t'`` (y's), to none."""
    (t,), (t2,) = aspects_of(c, "x"), aspects_of(c, "y")
    prefix = c.a[:-1]
    return (sum(t in aspects_of(c, d) for d in prefix), sum(t2 in aspects_of(c, d) for d in prefix),
            sum(not aspects_of(c, d) for d in prefix))


RED = {
    "P with documents relevant to t' too": lambda c: red_counts(c)[1] >= 1,
    "P with a document relevant to no aspect": lambda c: red_counts(c)[2] >= 1,
    "an unretrieved document relevant to t or t'": lambda c: any(
        d.startswith("u") and r(c, d) > 0 for d in c.topic.documents),
    "rc above rho": lambda c: r(c, "x") > RHO,
}

MRED = {
    "P of two or more documents": lambda c: len(c.a) >= 3,
    "r(x, t) below a document of P on t": lambda c: any(
        r(c, d, c.topic.aspects[aspects_of(c, "x")[0]]) > r(c, "x") for d in c.a[:-1]),
    "r(x, t) at least every value of P": lambda c: all(v <= r(c, "x") for d in c.a[:-1]
                                                       for v in c.topic.vector(d)),
    "an unretrieved document relevant to t'": lambda c: any(
        d.startswith("u") and r(c, d, c.topic.aspects[aspects_of(c, "y")[0]]) > 0 for d in c.topic.documents),
}


def sat_aspect(c: Case) -> int:
    return aspects_of(c, "x")[0]


SAT = {
    "a single aspect": lambda c: len(c.topic.aspects) == 1,
    "two or more aspects": lambda c: len(c.topic.aspects) >= 2,
    "a document before d_n relevant to t too": lambda c: any(
        sat_aspect(c) in aspects_of(c, d) for d in c.a[:-1]),
    "a document before d_n relevant to another aspect": lambda c: any(
        set(aspects_of(c, d)) - {sat_aspect(c)} for d in c.a[:-1]),
    "x as relevant as rmax (r(x, t) = 1)": lambda c: r(c, "x") == 1,
    "x less relevant than rmax": lambda c: 0 < r(c, "x") < 1,
}


def asprel_i(c: Case) -> int:
    return c.changed[0]


ASPREL = {
    "x at the top": lambda c: asprel_i(c) == 1,
    "x below the top": lambda c: asprel_i(c) >= 2,
    "documents after x": lambda c: len(c.a) > asprel_i(c),
    "a third aspect, another document relevant to it": lambda c: len(c.topic.aspects) >= 3 and any(
        aspects_of(c, d) for d in c.a if d != "x"),
    "the heavier aspect t' listed first": lambda c: aspects_of(c, "y")[0] < aspects_of(c, "x")[0],
    "the lighter aspect t listed first": lambda c: aspects_of(c, "x")[0] < aspects_of(c, "y")[0],
}


# -- relative properties -------------------------------------------------------------

def within(doc: str, c: Case) -> int:
    return sum(doc in ranking[:K] for ranking in c.context.rankings)


def xy(c: Case) -> tuple[str, str, int]:
    (i,) = c.changed
    return c.a[i - 1], c.b[i - 1], i


RARITY = {
    "y retrieved by no other system (within k)": lambda c: within(xy(c)[1], c) == 0,
    "y retrieved by another system too": lambda c: within(xy(c)[1], c) >= 1,
    "x retrieved by two other systems": lambda c: within(xy(c)[0], c) >= 2,
    "x below the top of a": lambda c: xy(c)[2] >= 2,
    "a prior holding both x and y": lambda c: any(
        xy(c)[0] in p[:K] and xy(c)[1] in p[:K] for p in c.context.rankings),
    "a prior holding y before x": lambda c: any(
        xy(c)[0] in p[:K] and xy(c)[1] in p[:K] and p.index(xy(c)[1]) < p.index(xy(c)[0])
        for p in c.context.rankings),
    "graded: r(x) = 1/2": lambda c: r(c, xy(c)[0]) == Fraction(1, 2),
    "three other systems": lambda c: len(c.context) == 3,
    "x just past the cutoff of a prior not counting it": lambda c: any(
        len(p) == K + 1 and p[K] == xy(c)[0] for p in c.context.rankings),
    "y just past the cutoff of a prior not counting it": lambda c: any(
        len(p) == K + 1 and p[K] == xy(c)[1] for p in c.context.rankings),
}


def move(c: Case) -> tuple[int, int | None, int]:
    """``(p, q, index of the moved prior)``."""
    (i,) = c.changed
    x = c.a[i - 1]
    for index, (u, v) in enumerate(zip(c.context.rankings, c.context_b.rankings)):
        if u != v:
            return u.index(x) + 1, (v.index(x) + 1 if x in v else None), index
    raise AssertionError("no prior moved")


def others(c: Case) -> list[tuple[str, ...]]:
    """The priors that do not move."""
    moved = move(c)[2]
    return [p for j, p in enumerate(c.context.rankings) if j != moved]


def nothing_after_the_move(c: Case) -> bool:
    """The moved prior ends where the move does: at ``x`` before or after it (no further document)."""
    x, moved = c.a[c.changed[0] - 1], move(c)[2]
    return x in (c.context.rankings[moved][-1], c.context_b.rankings[moved][-1])


#: What both prior moves share: the other priors and the documents around the move.
PRIOR_MOVE = {
    "another prior, empty": lambda c: any(len(p) == 0 for p in others(c)),
    "another prior longer than the cutoff": lambda c: any(len(p) > K for p in others(c)),
    "a relevant document outside a in a prior": lambda c: any(
        d not in c.a and r(c, d) > 0 for p in c.context.rankings for d in p),
    "nothing after the move in its prior": nothing_after_the_move,
}

PRIOR_SENS = {
    **PRIOR_MOVE,
    "moved up (q < p)": lambda c: move(c)[1] < move(c)[0],
    "moved down (q > p)": lambda c: move(c)[1] > move(c)[0],
    "moved past two documents": lambda c: abs(move(c)[1] - move(c)[0]) >= 2,
    "another prior besides the moved one": lambda c: len(c.context) >= 2,
    "the moved prior not the first": lambda c: move(c)[2] >= 1,
}

PRIOR_MONO = {
    **PRIOR_MOVE,
    "moved out of the prior": lambda c: move(c)[1] is None,
    "moved deeper within the cutoff": lambda c: move(c)[1] is not None and move(c)[1] <= K,
    "moved past the cutoff": lambda c: move(c)[1] is not None and move(c)[1] > K,
    "x below the top of the prior": lambda c: move(c)[0] >= 2,
    "another prior besides the moved one": lambda c: len(c.context) >= 2,
}

CONTEXTS = {
    "the empty context": lambda c: len(c.context) == 0,
    "an empty prior ranking": lambda c: any(len(p) == 0 for p in c.context.rankings),
    "the evaluated ranking itself as a prior": lambda c: len(c.a) > 0 and c.a in c.context.rankings,
    "a document only another system retrieves": lambda c: any(
        d not in c.a for p in c.context.rankings for d in p),
    "the empty evaluated ranking": lambda c: len(c.a) == 0,
    "a prior longer than the cutoff": lambda c: any(len(p) > K for p in c.context.rankings),
    "three other systems": lambda c: len(c.context) == 3,
    "one other system": lambda c: len(c.context) == 1,
    "a prior of one document": lambda c: any(len(p) == 1 for p in c.context.rankings),
    "a relevant document the others do not retrieve": lambda c: any(
        r(c, d) > 0 and within(d, c) == 0 for d in c.a),
}

#: id -> (scope, features, features left to the random search, not in the small scope)
COVERAGE: dict[str, tuple[Scope, dict[str, Callable[[Case], bool]], set[str]]] = {
    "Pri": (Scope(), PRI, set()),
    "Deep": (Scope(), DEEP, set()),
    "Conf": (Scope(), CONF, set()),
    "AspDiv": (Scope(), ASPDIV, set()),
    "Red": (Scope(), RED, set()),
    "MRed": (Scope(), MRED, set()),
    "Sat": (Scope(), SAT, set()),
    "AspRel": (Scope(), ASPREL, set()),
    "Rarity": (Scope(max_position=K), RARITY, {
        "graded: r(x) = 1/2", "three other systems", "x just past the cutoff of a prior not counting it",
        "y just past the cutoff of a prior not counting it"}),
    # Their small scope's moved prior stands alone or beside a itself, filled with a's documents.
    "PriorSens": (Scope(max_position=K), PRIOR_SENS, {"the moved prior not the first", *PRIOR_MOVE}),
    "PriorMono": (Scope(max_position=K), PRIOR_MONO, set(PRIOR_MOVE)),
    # Their small scope's rankings have at most 3 documents: none longer than a cutoff of 3.
    **{prop: (Scope(max_position=K), CONTEXTS, {"three other systems", "a prior longer than the cutoff"})
       for prop in ("Rev", "Unique")},
    # Finite's and Bounded's small scopes add the extremes, which have three other systems.
    **{prop: (Scope(max_position=K), CONTEXTS, set()) for prop in ("Finite", "Bounded")},
}

FEATURES = [(oracle, feature) for oracle, (_, features, _) in COVERAGE.items() for feature in features]
SMALL = [(oracle, feature) for oracle, feature in FEATURES if feature not in COVERAGE[oracle][2]]


@pytest.mark.parametrize(("oracle", "feature"), FEATURES)
def test_the_search_reaches(oracle, feature):
    scope, features, _ = COVERAGE[oracle]
    assert features[feature](find(get(oracle).strategy(scope), features[feature], settings=FIND))


@pytest.mark.parametrize(("oracle", "feature"), SMALL)
def test_the_small_scope_contains(oracle, feature):
    scope, features, _ = COVERAGE[oracle]
    assert any(features[feature](case) for case in cases_of(get(oracle).small_scope(scope)))


@pytest.mark.parametrize("prop", ["Finite", "Bounded"])
def test_finite_and_bounded_small_scopes_hold_the_extremes(prop):
    """All-relevant rankings filling the window (k, and k + 1), retrieved by nobody else and by
    every other system, for 1..4 systems."""
    cases = list(cases_of(get(prop).small_scope(Scope(max_position=K))))
    for others in range(4):
        full = [c for c in cases if len(c.context) == others and len(c.a) >= K
                and all(r(c, d) == 1 for d in c.a)]
        assert any(all(within(d, c) == 0 for d in c.a) for c in full), others
        assert any(all(within(d, c) == others for d in c.a) for c in full), others
        assert any(len(c.a) == K + 1 for c in full), others


def test_prior_sensitivity_is_searched_at_a_cutoff_of_two():
    """PriorSens needs two positions within the cutoff: k = 2 is the first cutoff with cases."""
    case = find(get("PriorSens").strategy(Scope(max_position=2)), lambda c: True, settings=FIND)
    assert len(case.context) >= 1


# -- DeepTh / CloseTh: the grid and the pair reach both sides of the threshold ---------

def rbp(p: Fraction, ranking, topic) -> Fraction:
    """RBP = (1 - p) sum_i r(d_i) p^(i-1), exactly."""
    total, weight = Fraction(0), Fraction(1)
    for d in ranking:
        total += topic.r(d) * weight
        weight *= p
    return (1 - p) * total


def test_threshold_grid_reaches_both_sides_of_a_late_deepness_threshold():
    # RBP p = 0.99 (definitions §3: DeepTh only turns positive near n = 500). By hand:
    # D(n) = rc ((1 - p) - p^n (1 - p^n)): n = 1: rc (0.01 - 0.0099) > 0; n = 2: 0.01 - 0.9801 * 0.0199
    # < 0; negative while p^n (1 - p^n) > 0.01, i.e. up to n ~ 457; positive at 512 and 1024.
    p = Fraction(99, 100)
    grid = threshold_grid(1024)
    for rc in DEFAULT_RCS:
        assert rc <= RHO  # binary relevance within relevance contribution
        for n in (1, 2, 1024):
            topic, a, b = threshold_pair(n, rc)
            assert sorted(topic.relevant) == sorted(b[n:]) and r_all(topic, b[n:], rc)
            assert len(a) == len(b) == 2 * n and r_all(topic, a[:1], rc) and r_all(topic, b[:n], 0)
    signs = []  # D(n) scales with rc: its sign is the same for every rc
    for n in grid:
        topic, a, b = threshold_pair(n, RHO)
        d = rbp(p, a, topic) - rbp(p, b, topic)
        signs.append((d > 0) - (d < 0))
    assert signs[0] == 1 and signs[grid.index(256)] == -1
    assert signs[grid.index(512):] == [1, 1]


def r_all(topic, docs, rc) -> bool:
    return all(topic.r(d) == rc for d in docs)


def test_threshold_grid_reaches_an_early_closeness_witness():
    # RBP p = 0.8: D(m) = rc (0.2 - 0.8^m (1 - 0.8^m)): m = 1: 0.2 - 0.16 > 0 (a better);
    # m = 2: 0.2 - 0.64 * 0.36 = 0.2 - 0.2304 < 0 (b better): CloseTh's witness is m = 2.
    p = Fraction(4, 5)
    topic1, a1, b1 = threshold_pair(1, RHO)
    topic2, a2, b2 = threshold_pair(2, RHO)
    assert rbp(p, a1, topic1) > rbp(p, b1, topic1)
    assert rbp(p, b2, topic2) > rbp(p, a2, topic2)
    assert threshold_grid(1024)[:2] == (1, 2)


# -- the random search still covers the ground its constraint talks about --------

#: find() settings: deterministic, no database, generation and shrinking only.
_FIND = settings(max_examples=500, database=None, deadline=None, derandomize=True,
                 phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck))


def _unequal_weights(case: Case) -> bool:
    return len(set(case.topic.weights)) > 1


@pytest.mark.parametrize("strategy", [aspect_diversity_cases, saturation_cases], ids=["AspDiv", "Sat"])
def test_aspdiv_and_sat_searches_reach_unequal_aspect_weights(strategy):
    found = find(strategy(Scope()), _unequal_weights, settings=_FIND)
    assert len(found.topic.aspects) >= 2 and sum(found.topic.weights) == 1


def test_the_priority_search_reaches_a_swap_of_positions_two_apart():
    found = find(priority_cases(Scope()), lambda c: c.changed[1] - c.changed[0] >= 2, settings=_FIND)
    i, j = found.changed
    assert (i, j) == (1, 3)  # shrunk: the smallest such swap
    assert found.b == (found.a[2], found.a[1], found.a[0], *found.a[3:])
    # The exhaustive small scope reaches it too.
    assert any(c.changed[1] - c.changed[0] >= 2 for c in cases_of(priority_small_scope(Scope())))


def heaviest_intent_only(ranking, topic) -> Fraction:
    """``sum_i (1/i) sum_{t: w(t) = max w} w(t) r(d_i, t)``: the weighted positional sum over the
    heaviest aspects only. Under balanced weights every aspect is heaviest and this is the
    weighted sum, which satisfies AspDiv; under unequal weights a replacement gaining only on a
    lighter aspect changes nothing, a tie, so AspDiv is violated there and only there."""
    heaviest = max(topic.weights)
    return sum((Fraction(1, i) * w * r for i, d in enumerate(ranking, 1)
                for w, r in zip(topic.weights, topic.vector(d)) if w == heaviest), Fraction(0))


def test_a_metric_failing_aspdiv_only_under_unequal_weights_is_found_violated():
    report = axiometer.check(heaviest_intent_only, ["AspDiv"], budget="quick", name="heaviest")
    assert report.verdicts == {"AspDiv": "violated"}
    ce = report.cell("AspDiv").checks[0].counterexample
    weights = [Fraction(w) for w in ce.topic.weights]
    assert len(set(weights)) > 1  # the counterexample needs unequal weights
    assert ce.score_a == ce.score_b  # a tie: the gain is on a lighter aspect
