"""What relative metrics share (``axiometer.metrics.relative``), issue 14: the default campaign
path ``score_systems`` (a loop over ``score`` with each system's own context), the count of
systems retrieving a document, the ``rarities`` of a metric without rarity, and ``InContext``
(a relative metric with its context fixed, as the intrinsic checks score it)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from axiometer.core import Context, Ranking, Topic
from axiometer.metrics.arithmetic import EXACT
from axiometer.metrics.base import Needs
from axiometer.metrics.fujii import FujiiU
from axiometer.metrics.nrg import NRG
from axiometer.metrics.rareness import RareAP, RareP
from axiometer.metrics import adapt
from axiometer.metrics.relative import InContext, systems_retrieving

# a, b, c relevant (rel = [r > 0]), n judged non-relevant.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": Fraction(1, 3), "n": 0})


def test_systems_retrieving_counts_rankings_within_the_depth():
    context = Context((("a", "b", "n"), ("z", "q", "b"), ("b",)))
    # b: at 2 in s1, 3 in s2, 1 in s3.
    assert systems_retrieving("b", context, None) == 3
    assert systems_retrieving("b", context, 3) == 3
    assert systems_retrieving("b", context, 2) == 2   # s2 has it at 3
    assert systems_retrieving("b", context, 1) == 1   # only s3 at 1
    assert systems_retrieving("a", context, 1) == 1
    assert systems_retrieving("c", context, None) == 0
    assert systems_retrieving("a", Context(), None) == 0


def test_default_score_systems_loops_over_score_with_each_systems_priors():
    # RareAP has no vectorised path: score_systems is RelativeMetric's loop.
    # Systems: s0 = [a, b], s1 = [b, c], s2 = [c, n]; priors: s0 <- {s1}, s1 <- {s0, s2}, s2 <- {}.
    rankings = [["a", "b"], ("b", "c"), Ranking(["c", "n"])]
    priors = [[1], [0, 2], []]
    metric = RareAP(alpha=1)
    got = metric.score_systems(TOPIC, rankings, priors)
    assert isinstance(got, np.ndarray) and got.dtype == np.float64 and got.shape == (3,)
    # s0, S = 2: R(a) = 1 - 1/2 = 1/2 (s1 lacks a), R(b) = 1 - 2/2 = 0 (s1 has b).
    #   P@1 = (1 + 1/2)/1 = 3/2;  P@2 = (3/2 + 1)/2 = 5/4;  AP = (3/2 + 5/4)/R = (11/4)/3 = 11/12.
    # s1, S = 3: R(b) = 1 - 2/3 = 1/3 (s0 has b), R(c) = 1 - 2/3 = 1/3 (s2 has c).
    #   P@1 = 4/3; P@2 = (4/3 + 4/3)/2 = 4/3; AP = (8/3)/3 = 8/9.
    # s2, S = 1: R(c) = 1 - 1/1 = 0; P@1 = 1; n not relevant; AP = 1/3.
    assert got.tolist() == pytest.approx([11 / 12, 8 / 9, 1 / 3], abs=1e-15)
    assert RareAP(alpha=1).exact(["a", "b"], TOPIC, Context((("b", "c"),))) == Fraction(11, 12)
    # No systems: an empty float array.
    empty = metric.score_systems(TOPIC, [], [])
    assert empty.shape == (0,) and empty.dtype == np.float64


def test_rarities_of_a_metric_without_rarity_says_which():
    with pytest.raises(NotImplementedError) as error:
        FujiiU().rarities(["a"], TOPIC, Context((("a",),)), EXACT)
    assert str(error.value) == "FujiiU has no rarity"


def test_in_context_fixes_the_context_and_says_so_in_its_name():
    context = Context((("b", "a"), ()))
    metric = RareP(2, alpha=1)
    fixed = InContext(metric, context)
    assert fixed.name == "RareP(alpha=1)@2 | s1 = b a; s2 = (empty)"
    assert repr(fixed) == fixed.name
    assert fixed.metric is metric and fixed.context is context
    assert fixed.family == "RareP" and fixed.cutoff == 2
    assert fixed.param_info == metric.param_info and fixed.params == metric.params
    # An ordinary metric of (ranking, topic): no context needed any more; the rest as the metric's.
    assert fixed.needs.context is False
    assert fixed.needs.graded == metric.needs.graded and fixed.needs.aspects == metric.needs.aspects
    assert fixed.exact is not None
    # S = 3. [a, c]: R(a) = 1 - 2/3 = 1/3, R(c) = 1 - 1/3 = 2/3: (1/2)(4/3 + 5/3) = 3/2.
    assert fixed.exact(["a", "c"], TOPIC) == Fraction(3, 2)
    assert fixed.score(["a", "c"], TOPIC) == pytest.approx(1.5, abs=1e-15)
    # A context passed at call time is ignored: the fixed one is used.
    other = Context((("a", "c"),))
    assert fixed.exact(["a", "c"], TOPIC, other) == Fraction(3, 2)
    assert fixed.score(["a", "c"], TOPIC, other) == pytest.approx(1.5, abs=1e-15)
    # replace changes the metric's parameters and keeps the context.
    replaced = fixed.replace(alpha=0)
    assert isinstance(replaced, InContext) and replaced.context is context
    assert replaced.name == "RareP(alpha=0)@2 | s1 = b a; s2 = (empty)"
    assert replaced.exact(["a", "c"], TOPIC) == 1


def test_in_context_of_no_other_system_and_of_a_metric_without_exact():
    fixed = InContext(NRG(), Context())
    assert fixed.name == "NRG(base=nDCG@10) | no other system"
    assert fixed.family == "NRG" and fixed.cutoff == 10

    class FloatOnly:  # a metric object with no family and no exact_available
        name = "mine"
        cutoff = None
        param_info = ()
        params: dict = {}
        needs = Needs(aspects=True, graded=False, context=True)

        def score(self, ranking, topic, context=None):
            return float(len(context))

    float_only = InContext(adapt(FloatOnly()), Context((("a",),)))
    assert float_only.family == "mine" and float_only.exact is None
    assert float_only.needs == Needs(aspects=True, graded=False, context=False)
    assert float_only.name == "mine | s1 = a"
    assert float_only.score(["a"], TOPIC) == 1.0


def test_default_score_systems_rejects_a_duplicated_document_of_an_evaluated_ranking():
    # The campaign path reads each ranking as a Ranking: a duplicate is one clear error even
    # where the system has no priors (score alone takes a plain list as it is).
    from axiometer.core import DuplicateDocumentError
    with pytest.raises(DuplicateDocumentError) as error:
        RareAP().score_systems(TOPIC, [["a", "b", "a"]], [[]])
    assert str(error.value) == "duplicate document 'a' in ranking at positions 1 and 3"
