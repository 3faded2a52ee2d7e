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
from axiometer.metrics import describe, families, family, parse, registry
from axiometer.metrics.registry import FAMILY_MODULES, SCORES, by_scores, register, scores_of_family
from axiometer.metrics.resolve import resolve
from axiometer.metrics.set_based import SET_MEASURES, FMeasure, Recall, set_measure
from tests.errors import one_line_error
from axiometer.metrics.spec import ParsedSpec
from axiometer.metrics.registry import lookup, read_spec, spelled, suggest

#: The families that score rankings, in the order every unknown-metric message lists them.
RANKING_ORDER = (
    "P", "RR", "AP", "DCG", "nDCG", "ERR", "RBP", "P_IA", "RR_IA", "AP_IA", "nDCG_IA", "ERR_IA",
    "nERR_IA", "RBP_IA", "StRecall", "SRR", "alpha_DCG", "alpha_nDCG", "NRBP", "nNRBP",
    "DSharp_nDCG", "EU", "CT", "RBU", "Rprec", "R", "SR", "MSR", "Rnorm", "Pnorm", "R_measure",
    "Q_measure", "bpref", "ESL", "wRprec", "AWP", "NRG", "Unique", "RareP", "RareAP", "RareP_rev",
    "FujiiU")


def test_families_keep_their_order_and_what_they_score():
    assert families() == RANKING_ORDER
    assert families("relative") == ("NRG", "Unique", "RareP", "RareAP", "RareP_rev", "FujiiU")
    assert families("ranking") == RANKING_ORDER[:-6]
    assert families("set")[:3] == ("recall", "precision", "fallout") and len(families("set")) == 18
    assert {scores_of_family(name) for name in families() + families("set")} == set(SCORES)
    with pytest.raises(ValueError, match="unknown scores"):
        families("sets")


def test_every_family_is_registered_by_its_own_module():
    for name in families() + families("set"):
        module = family(name).__module__
        assert module.rpartition(".")[2] in FAMILY_MODULES, (name, module)


def test_set_measures_are_one_more_scores_of_the_same_registry():
    assert dict(SET_MEASURES) == {name: family(name) for name in families("set")}
    assert SET_MEASURES["recall"] is Recall and dict(by_scores("set")) == dict(SET_MEASURES)
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
    assert resolved.scores == "set" and resolved.metric == set_measure("recall")
    with pytest.raises(InputError, match="recall is a set measure: it scores a retrieved set's counts"):
        resolved.for_rankings()
    assert resolve("nDCG@10").for_rankings().scores == "ranking"
    assert resolve("Unique@10").scores == "relative"


def test_a_name_is_registered_once():
    class Impostor:
        family = "nDCG"

    with pytest.raises(TypeError, match="registered twice"):
        register(Impostor)
    with pytest.raises(TypeError, match="unknown scores"):
        register(Impostor, scores="sets")


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

    @register(scores="relative")
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
    assert not is_builtin(FMeasure())  # registered, but a set measure (scores "set")
    assert not is_builtin(wrap(lambda ranking, topic: 0.0, "mine"))

    class Impostor:
        family = "RBP"

    assert not is_builtin(Impostor()) and not is_builtin(object())


# The registry (`axiometer.metrics.registry`): names as users type them, their registered spelling
# in every report, the family order, loading on first use, and one-line errors with a suggestion.
# Issue 14 (metrics area, m1). Expected texts are the messages the module's docstrings promise.

@pytest.fixture
def scratch_registry(monkeypatch):
    """A copy of the registry to register throw-away families in."""
    families()  # loaded first
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))


def make(name: str, module: str, attribute: str = "family") -> type:
    cls = type(name.capitalize(), (), {attribute: name, "param_info": (),
                                      "__init__": lambda self, cutoff=None, **kw: None})
    cls.__module__ = module
    return cls


# -- lookup and errors ----------------------------------------------------------------------------

def test_lookup_returns_the_registered_spelling():
    assert lookup("nDCG") == "nDCG" and lookup("ndcg") == "nDCG" and lookup("ALPHA_NDCG") == "alpha_nDCG"
    assert lookup("recall") == "recall"   # a set measure, by its name
    with pytest.raises(InputError) as error:
        lookup("NDGC")
    assert str(error.value) == ("metric 'NDGC': unknown metric 'NDGC'; did you mean 'nDCG'? known metrics: "
                                + ", ".join(families()))


def test_an_unknown_name_without_a_close_one_has_no_suggestion():
    with pytest.raises(InputError) as error:
        parse("Qqqqqqqq")
    assert str(error.value) == ("metric 'Qqqqqqqq': unknown metric 'Qqqqqqqq'; known metrics: "
                                + ", ".join(families()))


def test_names_differing_only_by_case_are_ambiguous(scratch_registry):
    register(make("Zeta", "tests.one"), make("zETA", "tests.two"))
    assert family("Zeta").__module__ == "tests.one"           # exact spellings still work
    with pytest.raises(InputError) as error:
        lookup("zeta")
    assert str(error.value) == ("metric 'zeta': metric name 'zeta' matches 'Zeta' and 'zETA', which differ "
                                "only by case; write one as it is spelled")
    assert spelled("zeta@3") == "zeta@3"                      # kept as written: several families


def test_read_spec_spells_the_family_and_suggests_for_paper_names():
    assert read_spec("ndcg@10") == ParsedSpec("nDCG", {}, 10)
    assert read_spec("rbp(p=0.5)") == ParsedSpec("RBP", {"p": 0.5}, None)
    for spec, column, name in [("ERR-IA@10", 4, "ERR_IA"), ("alpha-nDCG@10", 6, "alpha_nDCG"),
                               ("D#-nDCG@10", 2, "DSharp_nDCG")]:
        with pytest.raises(InputError) as error:
            read_spec(spec)
        char = spec[column - 1]
        assert str(error.value) == (f"metric {spec!r}: unexpected character {char!r} at column {column}; "
                                    f"did you mean {name!r}?")
    # A syntax error in a name without '-', '#' or 'α': no suggestion.
    with pytest.raises(InputError) as error:
        read_spec("P$10")
    assert str(error.value) == "metric 'P$10': unexpected character '$' at column 2"
    # A paper's name that is close to nothing: the syntax error alone.
    with pytest.raises(InputError) as error:
        read_spec("Qq-Zz")
    assert str(error.value) == "metric 'Qq-Zz': unexpected character '-' at column 3"
    with pytest.raises(InputError, match=r"^metric 'Nope@3': unknown metric 'Nope'"):
        read_spec("Nope@3")


def test_parse_names_a_parameter_differing_only_by_case():
    with pytest.raises(InputError) as error:
        parse("RBP(P=0.5)")
    assert str(error.value) == ("metric 'RBP(P=0.5)': RBP: unknown parameter 'P'; did you mean 'p'? "
                                "(parameter names are case-sensitive; RBP takes p: float in (0, 1), "
                                "default 0.8; optional cutoff @k)")


def test_parse_builds_every_kind_and_wraps_validation_errors():
    assert parse("ndcg@5").name == "nDCG@5" and parse("rbp(p=0.5)").name == "RBP(p=0.5)"
    assert parse("recall").name == "recall"
    with pytest.raises(InputError) as error:
        parse("RBP(p=2)")
    text = str(error.value)
    assert text.startswith("metric 'RBP(p=2)': RBP: parameter p=2 is outside")
    assert text.endswith("; RBP takes p: float in (0, 1), default 0.8; optional cutoff @k")
    parsed = read_spec("P@3")
    assert parse("ignored, since parsed is given", parsed).name == "P@3"


# -- the spelling of names in reports ---------------------------------------------------------

@pytest.mark.parametrize("spec, expected", [
    ("ndcg@10", "nDCG@10"),
    (" ndcg @ 10 ", "nDCG @ 10"),                          # stripped; the rest untouched
    ("rbp(p=0.5)", "RBP(p=0.5)"),                           # parameter names keep their case
    ("nrg(base=rbp(p=0.5))", "NRG(base=RBP(p=0.5))"),
    ("nrg(base=ndcg)", "NRG(base=nDCG)"),                   # a bare word for a text parameter
    ("nrg(base='ndcg')", "NRG(base='ndcg')"),               # quoted: kept
    ("nrg(base=ndcg,norm=none)", "NRG(base=nDCG,norm=none)"),
    ("rbu(form=p)", "RBU(form=p)"),                         # an option word, even if a family ('P')
    ("nrg(norm=rbu(form=p),base=p)", "NRG(norm=RBU(form=p),base=P)"),   # back in NRG after ')'
    ("foo(base=p)", "foo(base=p)"),                         # no family: nothing declared
    ("foo@3", "foo@3"),
    ("P", "P"), ("p", "P"), ("ap", "AP"),
    ("err_ia@5", "ERR_IA@5"),
])
def test_spelled(spec, expected):
    assert spelled(spec) == expected


# -- order, what families score, and loading -----------------------------------------------------------------------

def test_families_of_other_modules_come_after_the_built_ins_by_module_then_registration(scratch_registry):
    register(make("Late2", "zz.mod"), make("Late1", "zz.mod"))
    register(make("Early", "aa.mod"), scores="relative")
    register(make("Inside", "axiometer.metrics.zz_new"))
    # (len(FAMILY_MODULES), module, number): aa.mod < axiometer.metrics.zz_new < zz.mod, and
    # within zz.mod the registration order Late2, Late1.
    assert families()[-4:] == ("Early", "Inside", "Late2", "Late1")
    assert families("ranking")[-3:] == ("Inside", "Late2", "Late1")
    assert families("relative")[-1] == "Early" and scores_of_family("Early") == "relative"
    assert families()[:3] == ("P", "RR", "AP")


def test_a_users_module_named_like_a_family_module_still_comes_after_the_built_ins(scratch_registry):
    """Only axiometer.metrics' own modules take FAMILY_MODULES' places: a user's 'mine.precision'
    is ordered with the other outside modules."""
    register(make("Mine", "mine.precision"))
    assert families()[-1] == "Mine" and families()[:3] == ("P", "RR", "AP")


def test_built_in_families_follow_family_modules_then_registration():
    # dcg.py registers DCG then nDCG; intent_aware.py P_IA ... RBP_IA in that order.
    names = families()
    assert names.index("DCG") + 1 == names.index("nDCG")
    assert [family(n).__module__.rpartition(".")[2] for n in names[:6]] == [
        "precision", "reciprocal_rank", "average_precision", "dcg", "dcg", "err"]


def test_families_rejects_an_unknown_scores_naming_the_known_ones():
    with pytest.raises(ValueError) as error:
        families("sets")
    assert str(error.value) == "unknown scores='sets'; known: ranking, relative, set"
    with pytest.raises(ValueError) as error:
        by_scores("sets")
    assert str(error.value) == "unknown scores='sets'; known: ranking, relative, set"
    with pytest.raises(TypeError) as error:
        register(make("Whatever", "x"), scores="sets")
    assert str(error.value) == "unknown scores='sets'; known: ranking, relative, set"


def test_a_set_measure_is_registered_by_its_name(scratch_registry):
    cls = make("mymeasure", "tests.sets", attribute="name")
    assert register(cls, scores="set") is cls
    assert families("set")[-1] == "mymeasure" and scores_of_family("mymeasure") == "set"
    assert "mymeasure" not in families()


def test_by_scores_is_a_live_read_only_view(scratch_registry):
    view = by_scores("relative")
    assert len(view) == len(families("relative")) and list(view) == list(families("relative"))
    assert view["NRG"] is family("NRG")
    with pytest.raises(KeyError):
        view["nDCG"]                                # a ranking family is not in the relative view
    assert repr(view) == "<relative families: " + ", ".join(families("relative")) + ">"
    register(make("Later", "tests.view"), scores="relative")
    assert list(view)[-1] == "Later" and len(view) == len(families("relative"))


def test_a_failed_load_is_tried_again(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "FAMILY_MODULES", (*FAMILY_MODULES, "no_such_family_module_m1"))
    with pytest.raises(ModuleNotFoundError):
        families()
    assert registry._loaded is False
    with pytest.raises(ModuleNotFoundError):    # tried again, not taken as loaded
        families()
    monkeypatch.setattr(registry, "FAMILY_MODULES", FAMILY_MODULES)
    assert families()[:2] == ("P", "RR") and registry._loaded is True


def test_suggestions():
    assert suggest("ERR-ia") == "ERR_IA" and suggest("D#-nDCG") == "DSharp_nDCG"
    assert suggest("map") == "AP" and suggest("ndcg_cut_10") == "nDCG@10" and suggest("P_5") == "P@5"
    assert suggest("S-Recall") == "StRecall" and suggest("NDGC") == "nDCG"
    assert suggest("qqqqqqqqqq") is None


def test_describe():
    assert describe("ERR") == "ERR takes no parameters; optional cutoff @k"
    assert describe("P") == "P takes rel: int in [1, inf], default 1; cutoff @k (default 10)"
    assert describe("NRG").endswith("; no cutoff")


def test_table_metrics_are_the_twenty_rows_at_their_default_specs():
    # axiometer.metrics.table_metrics (the package's __init__): (row title, parsed default spec).
    from axiometer.metrics import TABLE_ROWS, table_metrics

    rows = table_metrics()
    assert [title for title, _ in rows] == [title for title, _ in TABLE_ROWS]
    assert [metric.name for _, metric in rows] == [spec for _, spec in TABLE_ROWS]
    assert rows[0][0] == "P@k" and rows[0][1].name == "P@10" and rows[-1][1].name == "RBU(p=0.8,e=0.05)@10"


def test_suggestions_ignore_case_dashes_sharps_and_alphas():
    assert suggest("α-nDCG") == "alpha_nDCG" and suggest("Α-NDCG") == "alpha_nDCG"
    assert suggest("d#ndcg") == "DSharp_nDCG" and suggest("dsharp nDCG") == "DSharp_nDCG"
    assert suggest("rbp ia") == "RBP_IA" and suggest("MAP_IA") == "AP_IA"
    assert suggest("ndcg_cut10") == "nDCG@10" and suggest("map_cut_5") == "AP@5"


def test_a_key_two_families_share_is_no_suggestion_by_key(scratch_registry):
    # 'AbC' and 'Ab_c' share the key 'abc', so neither is suggested by key; difflib's closest to
    # 'ab-c' is 'abc' (ratio 6/7) rather than 'ab_c' (3/4).
    register(make("AbC", "tests.keys"), make("Ab_c", "tests.keys"))
    assert suggest("ab-c") == "AbC"


def test_a_key_one_family_has_is_its_suggestion(scratch_registry):
    register(make("Xy_z", "tests.keys"))
    assert suggest("x-Y-z") == "Xy_z"


def test_sharps_and_titles_in_suggestions(scratch_registry):
    # 'X#-y' is 'XSharp_y' once '#' reads 'sharp' (difflib alone finds nothing that close).
    register(make("XSharp_y", "tests.sharp"))
    assert suggest("X#-y") == "XSharp_y"
    # A family's title (before '@' or '('), compared the same way.
    titled = make("Zq", "tests.title")
    titled.title = "Long-Title(k)@n"
    register(titled)
    assert suggest("long title") == "Zq"


def test_describe_joins_several_parameters_and_the_view_names_the_missing_key():
    assert describe("RBU") == ("RBU takes p: float in (0, 1), default 0.8; e: float in [0, inf], default 0.05; "
                               "form: one of 'paper', 'reference', default 'paper'; optional cutoff @k")
    with pytest.raises(KeyError) as error:
        by_scores("relative")["nDCG"]
    assert error.value.args == ("nDCG",)


def test_spelled_keeps_a_top_level_value_after_an_equals_sign():
    # 'p=ndcg' at the top level: P is the spec's first name (a family); ndcg is no parameter
    # value of any enclosing family, so it stays as written.
    assert spelled("p=ndcg") == "P=ndcg"


def test_spelled_names_the_spec_in_its_syntax_error():
    assert one_line_error(spelled, "ndcg@10 $") == "metric 'ndcg@10 $': unexpected character '$' at column 9"
