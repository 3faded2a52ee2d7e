"""Discounted graded precision: its values, and the axioms it should (and should not) satisfy."""

import pytest
from axiometer import Ranking, Topic

from graded_precision import discounted_graded_precision

K = 10


def test_value_by_hand():
    topic = Topic.single({"d1": 1, "d2": 0.5, "d3": 0})
    # positions 1..3 weigh 10/10, 9/10, 8/10; the sum is divided by k = 10
    assert discounted_graded_precision(Ranking(["d2", "d3", "d1"]), topic) == pytest.approx(
        (0.5 * 1.0 + 0 * 0.9 + 1 * 0.8) / 10)


@pytest.mark.axioms("Pri", "CloseTh", expect={"Deep": False}, cutoff=K)
def test_priority_holds_deepness_does_not():
    """Swapping a more relevant document up always helps (Pri), and two relevant documents
    just below the top beat one at the top (CloseTh). But a linear discount rewards a swap at
    the top exactly as much as the same swap further down, so Deep is violated (a tie)."""
    return discounted_graded_precision


def test_appending_noise_goes_unpunished(axiometer_check):
    """A non-relevant document appended within the cutoff changes nothing: Conf is violated."""
    report = axiometer_check("graded_precision:discounted_graded_precision", cutoff=K,
                             expect={"Conf": False})
    counterexample = report.cells[0].default_check.counterexample
    assert counterexample.score_a == counterexample.score_b    # unchanged, not lower
