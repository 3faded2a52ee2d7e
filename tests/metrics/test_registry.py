"""The one registry of metric families (`axiometer.metrics.registry`): every family, ranking,
relative or set-based, registers itself in its own module; the registry imports those modules
on the first lookup only; one parse builds any of them; the unknown-metric message is the one
it has always been."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import axiometer
from axiometer.core import InputError
from axiometer.metrics import describe, families, family, parse
from axiometer.metrics.registry import FAMILY_MODULES, KINDS, by_kind, kind, register
from axiometer.metrics.resolve import resolve
from axiometer.metrics.set_based import SET_MEASURES, FMeasure, Recall, set_measure

#: The families that score rankings, in the order every unknown-metric message lists them.
RANKING_ORDER = (
    "P", "RR", "AP", "DCG", "nDCG", "ERR", "RBP", "P_IA", "RR_IA", "AP_IA", "nDCG_IA", "ERR_IA",
    "nERR_IA", "RBP_IA", "StRecall", "SRR", "alpha_DCG", "alpha_nDCG", "NRBP", "nNRBP",
    "DSharp_nDCG", "EU", "CT", "RBU", "Rprec", "SR", "MSR", "Rnorm", "Pnorm", "R_measure",
    "Q_measure", "bpref", "ESL", "wRprec", "AWP", "NRG", "Unique", "RareP", "RareAP", "RareP_rev",
    "FujiiU")


def test_families_keep_their_order_and_kinds():
    assert families() == RANKING_ORDER
    assert families("relative") == ("NRG", "Unique", "RareP", "RareAP", "RareP_rev", "FujiiU")
    assert families("ranking") == RANKING_ORDER[:-6]
    assert families("set")[:3] == ("recall", "precision", "fallout") and len(families("set")) == 18
    assert {kind(name) for name in families() + families("set")} == set(KINDS)
    with pytest.raises(ValueError, match="unknown kind"):
        families("sets")


def test_every_family_is_registered_by_its_own_module():
    for name in families() + families("set"):
        module = family(name).__module__
        assert module.rpartition(".")[2] in FAMILY_MODULES, (name, module)


def test_set_measures_are_one_more_kind_of_the_same_registry():
    assert dict(SET_MEASURES) == {name: family(name) for name in families("set")}
    assert SET_MEASURES["recall"] is Recall and dict(by_kind("set")) == dict(SET_MEASURES)
    assert parse("F(beta=2)") == set_measure("F", beta=2) and isinstance(parse("F"), FMeasure)
    assert describe("recall") == "recall takes no parameters; no cutoff"
    assert describe("F").startswith("F takes beta: ")
    with pytest.raises(InputError, match=r"^metric 'recall@3': a set measure takes no cutoff '@3'$"):
        parse("recall@3")
    with pytest.raises(InputError, match=r"^metric 'F\(beta=-1\)': F: parameter beta=-1 is outside"):
        parse("F(beta=-1)")


def test_the_unknown_metric_message_is_unchanged():
    # 'NDCG@10' was the example here; it is nDCG@10 now (names are case-insensitive,
    # tests/test_metric_names.py), so a misspelling.
    with pytest.raises(InputError) as error:
        parse("NDGC@10")
    assert str(error.value) == ("metric 'NDGC@10': unknown metric 'NDGC'; did you mean 'nDCG'? known "
                                "metrics: " + ", ".join(RANKING_ORDER))


def test_a_set_measure_is_refused_where_rankings_are_scored():
    resolved = resolve("recall")
    assert resolved.kind == "set" and resolved.metric == set_measure("recall")
    with pytest.raises(InputError, match="recall is a set measure: it scores a retrieved set's counts"):
        resolved.for_rankings()
    assert resolve("nDCG@10").for_rankings().kind == "ranking"
    assert resolve("Unique@10").kind == "relative"


def test_a_name_is_registered_once():
    class Impostor:
        family = "nDCG"

    with pytest.raises(TypeError, match="registered twice"):
        register(Impostor)
    with pytest.raises(TypeError, match="unknown kind"):
        register(Impostor, kind="sets")


def test_importing_the_metrics_imports_no_family_module():
    code = ("import sys, axiometer.metrics\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('axiometer.metrics.'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert not {f"axiometer.metrics.{m}" for m in FAMILY_MODULES} & set(loaded), loaded
    assert "axiometer.metrics.registry" in loaded


TOP_HEAVY = '''
"""A throw-away family in a new module: nothing else is edited."""

from axiometer.metrics.base import BuiltinMetric, Needs
from axiometer.metrics.registry import register


@register
class TopHeavy(BuiltinMetric):
    """TopHeavy@k = r(d_1): the first document's relevance."""

    family = "TopHeavy"
    title = "TopHeavy@k"
    cutoff_rule = "required"
    default_cutoff = 10
    needs = Needs(aspects=False, graded=True)

    def compute(self, ranking, topic, A, context=None):
        return A.num(topic.r(ranking[0])) if ranking else A.zero
'''


def test_a_family_in_a_new_module_is_found_without_editing_the_registry(tmp_path):
    source = Path(axiometer.__file__).parent
    copy = tmp_path / "axiometer"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "metrics" / "top_heavy.py").write_text(TOP_HEAVY, encoding="utf-8")
    code = ("from axiometer.metrics import families, parse\n"
            "from axiometer.metrics.resolve import resolve\n"
            "print(parse('TopHeavy@3').name, families()[-1], families()[:3], resolve('TopHeavy').name)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)}, check=True).stdout
    assert out.split(" ", 2)[:2] == ["TopHeavy@3", "TopHeavy"] and "('P', 'RR', 'AP')" in out


def test_register_is_also_a_class_decorator(monkeypatch):
    from axiometer.metrics import registry

    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))

    @register(kind="relative")
    class Echo:
        family = "EchoRel"
        param_info = ()

        def __init__(self, cutoff=None):
            self.cutoff = cutoff

    assert families("relative")[-1] == "EchoRel" and family("EchoRel") is Echo
    assert isinstance(parse("EchoRel@4"), Echo) and parse("EchoRel@4").cutoff == 4


def test_is_builtin_only_for_exactly_a_registered_ranking_or_relative_class():
    from axiometer.metrics import parse, wrap
    from axiometer.metrics.registry import is_builtin
    from axiometer.metrics.set_based import FMeasure

    rbp = parse("RBP(p=0.8)")
    assert is_builtin(rbp) and is_builtin(parse("NRG")) and is_builtin(parse("nDCG@10"))

    class MyRBP(type(rbp)):  # a metric author's subclass: not the registered class
        pass

    assert not is_builtin(MyRBP(p=0.8))
    assert not is_builtin(FMeasure())  # registered, but a set measure (kind "set")
    assert not is_builtin(wrap(lambda ranking, topic: 0.0, "mine"))

    class Impostor:
        family = "RBP"

    assert not is_builtin(Impostor()) and not is_builtin(object())
