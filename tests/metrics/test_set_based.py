"""Set-based and user-oriented measures (Giner's Tables 2–3): hand-computed
values, the 0/0 rule, float vs exact vs vectorised, ``Contingency.of``, and the
interval-scale facts definitions §4 states for the ``sets`` domains."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from axiometer.core import Topic, ValidationError
from axiometer.metrics.set_based import (
    SET_MEASURES,
    Contingency,
    FMeasure,
    InverseRecall,
    Specificity,
    UserCounts,
    Utility,
    set_measure,
)
from axiometer.metrics.set_based import ContingencyMeasure, Recall, UserMeasure

TOLERANCE = 1e-12

CONTINGENCY_NAMES = [n for n, cls in SET_MEASURES.items() if cls.counts is Contingency]
USER_NAMES = [n for n, cls in SET_MEASURES.items() if cls.counts is UserCounts]

# TP = 3, FP = 5, FN = 2, TN = 10: N = 20, R = 5, retrieved = 8.
C = Contingency(tp=3, fp=5, fn=2, tn=10)
HAND = {
    "recall": Fraction(3, 5),             # 3 / (3 + 2)
    "precision": Fraction(3, 8),          # 3 / (3 + 5)
    "fallout": Fraction(1, 3),            # 5 / (5 + 10)
    "miss_rate": Fraction(2, 5),          # 2 / (3 + 2)
    "accuracy": Fraction(13, 20),         # (3 + 10) / 20
    "error_rate": Fraction(7, 20),        # (5 + 2) / 20
    "inverse_recall": Fraction(2, 3),     # 10 / (5 + 10)
    "specificity": Fraction(2, 3),        # 10 / (5 + 10)
    "inverse_precision": Fraction(5, 6),  # 10 / (10 + 2)
    "FDR": Fraction(5, 8),                # 5 / (3 + 5)
    "FOR": Fraction(1, 6),                # 2 / (10 + 2)
    "F": Fraction(6, 13),                 # 2*3 / (2*3 + 5 + 2)
    "generality": Fraction(1, 4),         # 5 / 20
    "utility": Fraction(-2),              # 1*3 - 1*5 - 0*2 + 0*10
}

# U = 4 known relevant, Rk = 2 of them retrieved, Ru = 3 new relevant retrieved;
# the user wanted 2 relevant documents and examined 7 to find them.
UC = UserCounts(U=4, Rk=2, Ru=3, wanted=2, examined=7)
USER_HAND = {
    "coverage_ratio": Fraction(1, 2),     # 2 / 4
    "novelty_ratio": Fraction(3, 5),      # 3 / (2 + 3)
    "relative_recall": Fraction(5, 7),    # (2 + 3) / (4 + 3)
    "recall_effort": Fraction(2, 7),      # 2 / 7
}


def test_registry_names():
    assert set(SET_MEASURES) == {
        "recall", "precision", "fallout", "miss_rate", "accuracy", "error_rate",
        "inverse_recall", "specificity", "inverse_precision", "FDR", "FOR", "F",
        "generality", "utility", "coverage_ratio", "novelty_ratio", "relative_recall",
        "recall_effort"}
    assert set(HAND) | set(USER_HAND) == set(SET_MEASURES)
    for name, cls in SET_MEASURES.items():
        assert cls.name == name
        assert cls.__doc__ and "Source" in cls.__doc__, name
        if cls is not Utility:
            assert "0/0" in cls.__doc__, name


@pytest.mark.parametrize("name", CONTINGENCY_NAMES)
def test_hand_computed_contingency(name):
    measure = set_measure(name)
    assert measure.exact(C) == HAND[name]
    assert isinstance(measure.exact(C), Fraction)
    assert measure.score(C) == pytest.approx(float(HAND[name]), abs=TOLERANCE)


@pytest.mark.parametrize("name", USER_NAMES)
def test_hand_computed_user(name):
    measure = set_measure(name)
    assert measure.exact(UC) == USER_HAND[name]
    assert measure.score(UC) == pytest.approx(float(USER_HAND[name]), abs=TOLERANCE)


def test_parameters():
    # F_2 = 5 TP / (5 TP + 4 FN + FP) = 15 / (15 + 8 + 5) = 15/28.
    assert set_measure("F", beta=2).exact(C) == Fraction(15, 28)
    # F_0.5 = 1.25 TP / (1.25 TP + 0.25 FN + FP) = 3.75 / (3.75 + 0.5 + 5) = 15/37.
    assert FMeasure(beta=0.5).exact(C) == Fraction(15, 37)
    assert FMeasure(beta=0.5).score(C) == pytest.approx(15 / 37, abs=TOLERANCE)
    # beta = 0.1 is read exactly as 1/10: F = 1.01*3 / (1.01*3 + 0.01*2 + 5) = 3.03/8.05 = 303/805.
    assert FMeasure(beta=0.1).exact(C) == Fraction(303, 805)
    # 2 TP - 0.5 FP - 1 FN + 0.1 TN = 6 - 2.5 - 2 + 1 = 5/2.
    utility = Utility(a=2, b=0.5, c=1, d=0.1)
    assert utility.exact(C) == Fraction(5, 2)
    assert utility.score(C) == pytest.approx(2.5, abs=TOLERANCE)
    assert utility.spec == "utility(a=2,b=0.5,c=1,d=0.1)"
    assert FMeasure().params == {"beta": 1}
    with pytest.raises(ValidationError, match="beta"):
        FMeasure(beta=0)
    with pytest.raises(ValidationError, match="unknown parameter"):
        set_measure("recall", beta=2)
    with pytest.raises(ValidationError, match="unknown set measure"):
        set_measure("R-prec")
    assert set_measure("specificity") != set_measure("inverse_recall")
    assert issubclass(Specificity, InverseRecall)


def test_zero_over_zero_is_zero():
    # Empty output in a collection with no relevant document: TP = FP = FN = 0.
    empty = Contingency(0, 0, 0, 7)
    for name in ["recall", "precision", "miss_rate", "FDR", "F"]:
        assert set_measure(name).exact(empty) == 0, name
        assert set_measure(name).score(empty) == 0.0, name
    # Everything retrieved: TN = FN = 0 -> inverse precision and FOR are 0/0.
    everything = Contingency(2, 3, 0, 0)
    assert set_measure("inverse_precision").exact(everything) == 0
    assert set_measure("FOR").exact(everything) == 0
    # No non-relevant document: FP = TN = 0 -> fallout, specificity are 0/0.
    all_relevant = Contingency(1, 0, 2, 0)
    for name in ["fallout", "inverse_recall", "specificity"]:
        assert set_measure(name).exact(all_relevant) == 0, name
    nothing = Contingency(0, 0, 0, 0)
    for name in ["accuracy", "error_rate", "generality"]:
        assert set_measure(name).exact(nothing) == 0, name
    user = UserCounts(0, 0, 0)
    for name in USER_NAMES:
        assert set_measure(name).exact(user) == 0, name
    # ... and the vectorised path follows the same rule without warnings.
    with np.errstate(all="raise"):
        zeros = np.zeros(3, dtype=int)
        for name in CONTINGENCY_NAMES:
            assert set_measure(name).score_counts(zeros, zeros, zeros, zeros).tolist() == [0.0] * 3


def test_counts_validation():
    with pytest.raises(ValidationError, match="FP = -1 is negative"):
        Contingency(1, -1, 0, 0)
    with pytest.raises(ValidationError, match="integer"):
        Contingency(1.5, 0, 0, 0)
    with pytest.raises(ValidationError, match="Rk"):
        UserCounts(U=1, Rk=2, Ru=0)
    with pytest.raises(ValidationError, match="examined"):
        UserCounts(U=1, Rk=1, Ru=0, wanted=3, examined=2)
    with pytest.raises(ValidationError, match="negative"):
        set_measure("recall").score_counts(np.array([1]), np.array([-1]), np.array([0]), np.array([0]))
    with pytest.raises(ValidationError, match="integer array"):
        set_measure("recall").score_counts(np.array([0.5]), 0, 0, 0)
    with pytest.raises(ValidationError, match="Rk exceeds U"):
        set_measure("coverage_ratio").score_counts(np.array([1]), np.array([2]), np.array([0]))
    with pytest.raises(ValidationError, match="scores Contingency"):
        set_measure("recall").exact(UC)
    c = Contingency(3, 5, 2, 10)
    assert (c.N, c.R, c.retrieved) == (20, 5, 8)
    assert Contingency.from_counts(N=20, R=5, tp=3, fp=5) == c


def test_contingency_of_topic():
    # Relevant: a, b (r > 0), c judged 0. Retrieved {a, c, x}: TP = 1 (a),
    # FP = 2 (c, x), FN = 1 (b), TN = 10 - 1 - 2 - 1 = 6.
    topic = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0})
    assert Contingency.of({"a", "c", "x"}, topic, 10) == Contingency(1, 2, 1, 6)
    assert Contingency.of([], topic, 2) == Contingency(0, 0, 2, 0)
    assert set_measure("precision").exact(Contingency.of(["a", "c", "x"], topic, 10)) == Fraction(1, 3)
    with pytest.raises(ValidationError, match="too small"):
        Contingency.of({"a", "c", "x"}, topic, 3)  # needs N >= TP + FP + FN = 4
    with pytest.raises(ValidationError, match="twice"):
        Contingency.of(["a", "a"], topic, 10)


contingencies = st.builds(Contingency, *(st.integers(0, 30) for _ in range(4)))


@st.composite
def user_count_lists(draw):
    rows = []
    for _ in range(draw(st.integers(1, 8))):
        U = draw(st.integers(0, 20))
        examined = draw(st.integers(0, 20))
        rows.append(UserCounts(U, draw(st.integers(0, U)), draw(st.integers(0, 20)),
                               draw(st.integers(0, examined)), examined))
    return rows


PARAMETRISED = [set_measure(n) for n in SET_MEASURES] + [
    FMeasure(beta=0.5), FMeasure(beta=3), Utility(a=2, b=0.3, c=1.5, d=0.1)]


@given(st.lists(contingencies, min_size=1, max_size=8))
def test_float_exact_vectorised_agree_contingency(rows):
    columns = [np.array([getattr(c, k) for c in rows]) for k in ("tp", "fp", "fn", "tn")]
    for measure in PARAMETRISED:
        if measure.counts is not Contingency:
            continue
        batch = measure.score_counts(*columns)
        assert batch.shape == (len(rows),)
        for c, value in zip(rows, batch):
            score = measure.score(c)
            assert abs(score - float(measure.exact(c))) <= TOLERANCE * max(1, abs(score)), (measure, c)
            assert abs(value - score) <= TOLERANCE * max(1, abs(score)), (measure, c)


@given(user_count_lists())
def test_float_exact_vectorised_agree_user(rows):
    columns = [np.array([getattr(u, k) for u in rows]) for k in ("U", "Rk", "Ru", "wanted", "examined")]
    for name in USER_NAMES:
        measure = set_measure(name)
        batch = measure.score_counts(*columns)
        for u, value in zip(rows, batch):
            score = measure.score(u)
            assert abs(score - float(measure.exact(u))) <= TOLERANCE, (name, u)
            assert abs(value - score) <= TOLERANCE, (name, u)


# -- definitions §4's measured facts on the sets(N=20, R=5, ...) domains -------
N, R = 20, 5


def _distinct(name: str, outputs: list[Contingency]) -> list[Fraction]:
    return sorted({set_measure(name).exact(c) for c in outputs})


def _equally_spaced(values: list[Fraction]) -> bool:
    return len({b - a for a, b in itertools.pairwise(values)}) <= 1


@pytest.mark.parametrize("name", ["recall", "precision", "F", "fallout", "accuracy"])
def test_fixed_size_outputs_are_interval_metric(name):
    # size = 8: TP in 0..5, FP = 8 - TP. Six outputs, six equally spaced values
    # (e.g. F1 = 2TP / (2TP + (8-TP) + (5-TP)) = 2TP/13; accuracy = (2TP + 7)/20).
    outputs = [Contingency.from_counts(N, R, tp, 8 - tp) for tp in range(R + 1)]
    values = _distinct(name, outputs)
    assert len(values) == len(outputs)  # injective: a metric
    assert _equally_spaced(values)      # interval


def test_growing_by_relevant_documents():
    # nonrel = 0: FP = 0, TP in 0..5.
    outputs = [Contingency.from_counts(N, R, tp, 0) for tp in range(R + 1)]
    recall = _distinct("recall", outputs)
    assert recall == [Fraction(tp, 5) for tp in range(6)] and _equally_spaced(recall)
    # F1 = 2TP/(TP + 5): 0, 1/3, 4/7, 3/4, 8/9, 1 — distinct but gaps 1/3, 5/21, ...
    f1 = _distinct("F", outputs)
    assert f1 == [Fraction(2 * tp, tp + 5) for tp in range(6)]
    assert len(f1) == 6 and not _equally_spaced(f1)
    # Precision TP/TP = 1 on every non-empty output; the empty one is 0/0 = 0.
    assert _distinct("precision", outputs[1:]) == [1]
    assert set_measure("precision").exact(outputs[0]) == 0
    # Fallout 0/15 = 0 everywhere; accuracy (TP + 15)/20 is interval.
    assert _distinct("fallout", outputs) == [0]
    assert _equally_spaced(_distinct("accuracy", outputs))


@pytest.mark.parametrize("name", ["recall", "precision", "F", "fallout", "accuracy"])
def test_all_subsets_not_injective(name):
    # All (TP, FP) with 0 <= TP <= 5, 0 <= FP <= 15: 96 outputs, fewer values.
    outputs = [Contingency.from_counts(N, R, tp, fp) for tp in range(R + 1) for fp in range(N - R + 1)]
    assert len(_distinct(name, outputs)) < len(outputs)


def test_vectorised_domain_enumeration_matches_exact():
    tp, fp = np.meshgrid(np.arange(R + 1), np.arange(N - R + 1), indexing="ij")
    tp, fp = tp.ravel(), fp.ravel()
    scores = set_measure("F").score_counts(tp, fp, R - tp, N - R - fp)
    # F1 = 2TP / (2TP + FP + 5 - TP) = 2TP / (TP + FP + 5)
    expected = [2 * t / (t + f + 5) for t, f in zip(tp.tolist(), fp.tolist())]
    assert np.allclose(scores, expected, rtol=0, atol=TOLERANCE)


# Set-based measures (issue 14): declaring a measure by its ratio, identity of parametrised
# measures, and the messages of ``Contingency.of``.

TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0})


def test_a_measure_declared_by_its_ratio():
    class Retrieved(ContingencyMeasure, name="retrieved_share", title="Retrieved share",
                    ratio=("tp +fp", "tp + fp + fn + tn")):
        """(TP + FP) / N: the spaces around ``+`` do not matter."""

    assert (Retrieved.name, Retrieved.title) == ("retrieved_share", "Retrieved share")
    assert Retrieved.ratio == ("tp +fp", "tp + fp + fn + tn")
    assert Retrieved().exact(C) == Fraction(8, 20)  # (3 + 5) / 20
    assert Retrieved().score(C) == 0.4
    assert Retrieved().spec == "retrieved_share"

    class Again(Retrieved):
        """No keywords: name, title and ratio are inherited."""

    assert (Again.name, Again.title, Again.ratio) == (
        "retrieved_share", "Retrieved share", ("tp +fp", "tp + fp + fn + tn"))
    assert Again().exact(C) == Fraction(2, 5)

    class Known(UserMeasure, name="known_share", title="Known share", ratio=("U", "U + Ru")):
        """U / (U + Ru) over Korfhage's counts."""

    assert Known().exact(UserCounts(U=4, Rk=2, Ru=3)) == Fraction(4, 7)


@pytest.mark.parametrize("ratio", [("tp", "tp + nope"), ("tp", "fp", "fn"), ("tp",), ("tp - fp", "tn")])
def test_a_ratio_of_unknown_counts_or_not_two_sides_is_refused_at_declaration(ratio):
    with pytest.raises(TypeError) as error:
        class Bad(ContingencyMeasure, name="bad", title="Bad", ratio=ratio):
            pass
    assert str(error.value) == ("Bad: ratio must be (numerator, denominator), sums of the Contingency "
                                f"counts tp, fp, fn, tn; got {ratio!r}")


def test_parametrised_measures_are_equal_and_hash_by_their_spec():
    assert FMeasure(beta=2) == FMeasure(beta=2) and hash(FMeasure(beta=2)) == hash(FMeasure(beta=2))
    assert FMeasure(beta=2) != FMeasure(beta=1)
    assert FMeasure() != Recall() and FMeasure() != "F"
    assert len({FMeasure(beta=2), FMeasure(beta=2), FMeasure(), set_measure("F")}) == 2
    assert hash(FMeasure(beta=2)) != hash(FMeasure(beta=1))


def test_contingency_of_names_the_repeated_document_and_the_needed_size():
    with pytest.raises(ValidationError) as error:
        Contingency.of(["c", "b", "a", "b"], TOPIC, 10)
    assert str(error.value) == "retrieved set lists document 'b' twice"
    # Relevant a, b; retrieved {a, c, x}: TP = 1, FP = 2, FN = 1, so N >= 4.
    with pytest.raises(ValidationError) as error:
        Contingency.of(["a", "c", "x"], TOPIC, 3)
    assert str(error.value) == ("collection_size 3 is too small: the topic has 2 relevant documents "
                                "and 2 non-relevant ones were retrieved (N >= 4)")
    with pytest.raises(ValidationError) as error:
        Contingency.of([], TOPIC, -1)
    assert str(error.value) == "collection_size = -1 is negative; counts must be >= 0"
    with pytest.raises(ValidationError) as error:
        Contingency.of([], TOPIC, 2.0)
    assert str(error.value) == "collection_size must be an integer count, got 2.0"


def test_user_counts_default_to_no_recall_effort_and_say_what_is_wrong():
    # wanted and examined default to 0: Korfhage's other ratios need only U, Rk, Ru.
    coverage = set_measure("coverage_ratio")
    assert coverage.score_counts(np.array([4, 0]), np.array([2, 0]), np.array([3, 1])).tolist() == [0.5, 0.0]
    effort = set_measure("recall_effort")
    assert effort.score_counts(np.array([4]), np.array([2]), np.array([3])).tolist() == [0.0]  # 0/0 rule
    assert effort.score_counts(np.array([4]), np.array([2]), np.array([3]), np.array([2]),
                               np.array([8])).tolist() == [0.25]
    with pytest.raises(ValidationError) as error:
        effort.score_counts(np.array([4]), np.array([2]), np.array([3]), wanted=np.array([1]))
    assert str(error.value) == "recall_effort: some wanted exceeds examined"
    with pytest.raises(ValidationError) as error:
        UserCounts(U=-1, Rk=0, Ru=0)
    assert str(error.value) == "U = -1 is negative; counts must be >= 0"
    with pytest.raises(ValidationError) as error:
        UserCounts(U=2, Rk=1, Ru=0, wanted=0, examined=1.5)
    assert str(error.value) == "examined must be an integer count, got 1.5"


def test_parameter_and_count_errors_say_which_measure_and_what():
    cases = [
        (lambda: set_measure("recall", beta=1), "recall: unknown parameter 'beta' (parameters: none)"),
        (lambda: FMeasure(zeta=1, gamma=2), "F: unknown parameter 'gamma' (parameters: beta)"),
        (lambda: FMeasure(beta=0), "F: parameter beta=0 is outside its range, float in (0, inf]"),
        (lambda: set_measure("utility", e=1), "utility: unknown parameter 'e' (parameters: a, b, c, d)"),
        (lambda: set_measure("recall").exact(UserCounts(1, 0, 0)), "recall scores Contingency, got UserCounts"),
        (lambda: set_measure("recall").score_counts(np.array([0.5]), 0, 0, 0),
         "Recall: tp must be an integer array, got dtype float64"),
        (lambda: set_measure("recall").score_counts(np.array([1]), np.array([3, -2]), 0, 0),
         "Recall: fp has a negative count (-2)"),
        (lambda: Contingency(0, 0, True, 0), "FN must be an integer count, got True"),
    ]
    for build, message in cases:
        with pytest.raises(ValidationError) as error:
            build()
        assert str(error.value) == message
    with pytest.raises(ValidationError) as error:
        set_measure("recall").score_counts(np.array([1, 2]), np.array([1, 2, 3]), 0, 0)
    assert str(error.value).startswith("recall: count arrays do not broadcast (")
    with pytest.raises(ValidationError) as error:
        set_measure("nope")
    assert str(error.value).startswith("unknown set measure 'nope'; known: recall, precision, ")
    assert FMeasure(beta=2).spec == "F(beta=2)" and repr(FMeasure(beta=2)) == "F(beta=2)"
    assert set_measure("utility", a=2).spec == "utility(a=2,b=1,c=0,d=0)"


def test_zero_counts_are_counts_and_empty_arrays_score_empty():
    assert Contingency(0, 0, 0, 0).N == 0
    empty = np.array([], dtype=int)
    assert set_measure("recall").score_counts(empty, empty, empty, empty).tolist() == []
    zeros = np.zeros(2, dtype=np.uint8)  # unsigned counts are counts too
    assert set_measure("F").score_counts(zeros + 1, zeros, zeros + 1, zeros).tolist() == [2 / 3, 2 / 3]
    # Broadcasting: one scalar count against arrays. precision = tp / (tp + fp).
    assert set_measure("precision").score_counts(np.array([1, 3]), 1, 0, 0).tolist() == [0.5, 0.75]


def test_a_large_unsigned_count_keeps_its_sign():
    # utility = TP - FP with TP = 2**63 (a uint64 count), FP = 0: 2**63, not -2**63.
    big = np.array([2 ** 63], dtype=np.uint64)
    assert set_measure("utility").score_counts(big, 0, 0, 0).tolist() == [float(2 ** 63)]


def test_counts_are_compared_exactly_past_float_precision():
    """Cross-count checks run on the integers: Rk = 2**60 + 1 exceeds U = 2**60, which float64
    (one value for both) would not see. Counts from 126 up too."""
    U, Rk = np.array([2 ** 60]), np.array([2 ** 60 + 1])
    with pytest.raises(ValidationError, match="some Rk exceeds U"):
        set_measure("coverage_ratio").score_counts(U, Rk, 0)
    assert set_measure("coverage_ratio").score_counts(np.array([200]), np.array([150]), 0).tolist() == [0.75]
    with pytest.raises(ValidationError, match="some Rk exceeds U"):
        set_measure("coverage_ratio").score_counts(np.array([2 ** 60]), np.array([2 ** 60 + 2 ** 7]), 0)
