"""A constraint whose construction cannot fit the window is n/a, not a vacuous 'satisfied'."""

from axiometer.axioms import get
from axiometer.checking import QUICK, check
from axiometer.metrics import parse


def test_cutoff_one_leaves_no_room_for_a_swap_or_a_prefix():
    for constraint in ("Pri", "Red", "MRed", "Sat"):
        result = check(parse("nDCG_IA@1"), get(constraint), budget=QUICK)
        assert result.verdict == "n/a", constraint
        assert result.cases == 0 and result.small_scope == 0
        assert "k = 1" in result.note


def test_the_same_metric_with_room_is_checked():
    result = check(parse("nDCG_IA@2"), get("Pri"), budget=QUICK)
    assert result.verdict == "satisfied" and result.small_scope > 0
