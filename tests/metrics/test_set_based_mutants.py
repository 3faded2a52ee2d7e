"""Set-based measures (issue 14, mutation survivors of metrics/set_based.py): declaring a measure by
its ratio, identity of parametrised measures, and the messages of ``Contingency.of``."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from axiometer.core import Topic, ValidationError
from axiometer.metrics.set_based import (Contingency, ContingencyMeasure, FMeasure, Recall, UserCounts,
                                         UserMeasure, set_measure)

C = Contingency(tp=3, fp=5, fn=2, tn=10)  # N = 20, R = 5, retrieved = 8
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
