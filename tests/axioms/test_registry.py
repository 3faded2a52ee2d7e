"""The registry of oracles (issue 14): ``get`` finds a constraint or property by its id in any case,
and an unknown id lists every known one."""

from __future__ import annotations

import pytest

from axiometer.axioms import CONSTRAINTS, PROPERTIES, get, oracles
from axiometer.axioms.constraints.deepness_threshold import DEEPNESS_THRESHOLD
from axiometer.axioms.constraints.priority import PRIORITY
from axiometer.axioms.properties.prior_position import PRIOR_SENSITIVITY


def test_get_ignores_case_and_finds_the_exact_id():
    assert get("Pri") is PRIORITY and get("pri") is PRIORITY and get("PRI") is PRIORITY
    assert get("deepth") is DEEPNESS_THRESHOLD          # not Deep, listed before it
    assert get("PriorSens") is PRIOR_SENSITIVITY and get("PRIORSENS") is PRIOR_SENSITIVITY


def test_an_unknown_id_names_every_known_one():
    with pytest.raises(KeyError) as raised:
        get("Nope")
    known = ", ".join(o.id for o in oracles())
    assert raised.value.args == (f"unknown constraint 'Nope'; known: {known}",)
    assert known.startswith("Pri, Deep, DeepTh, CloseTh, Conf, AspDiv, Red, MRed, Sat, AspRel, Rev, Rarity, ")
    assert oracles()[:len(CONSTRAINTS) + len(PROPERTIES)] == (*CONSTRAINTS, *PROPERTIES)
