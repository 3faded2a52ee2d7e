"""Metric names as ir_measures users type them (issue 12, item 4): a family's name in any case is
that family, spelled as registered in every report; two families differing only by case would
make a name ambiguous (refused, naming both); an unknown name gets one suggestion, found ignoring
case, '-', '_' and '#' first, then among trec_eval's and ir_measures' names, then by difflib;
parameter names stay case-sensitive, with the declared spelling suggested."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from axiometer.core import InputError
from axiometer.metrics import registry
from axiometer.metrics.registry import SCORES, families, family, lookup, parse, read_spec, spelled, suggest
from axiometer.metrics.resolve import resolve
from tests.errors import one_line_error

ALL = tuple(name for scored in SCORES for name in families(scored))


def error_of(spec: str) -> str:
    return one_line_error(resolve, spec)


# -- any case is the family, spelled as registered ------------------------------------------------

@pytest.mark.parametrize("typed", ["ndcg@10", "NDCG@10", "Ndcg@10", "nDcG@10", "nDCG@10"])
def test_ndcg_at_10_in_any_case_is_ndcg_at_10(typed):
    resolved = resolve(typed)
    assert resolved.name == resolved.spec == "nDCG@10"
    assert resolved.metric.name == "nDCG@10" and type(resolved.metric) is family("nDCG")
    assert parse(typed).name == "nDCG@10"
    assert read_spec(typed).family == "nDCG" and lookup(typed.split("@")[0]) == "nDCG"


@pytest.mark.parametrize("typed, name", [
    ("rbp(p=0.5)", "RBP(p=0.5)"),
    ("err_ia@20", "ERR_IA@20"),
    ("ALPHA_NDCG(alpha=0.5)@10", "alpha_nDCG(alpha=0.5)@10"),
    ("nrg(base=ndcg@10)", "NRG(base=nDCG@10)"),               # a nested metric
    ("NRG(base=rbp(p=0.8), norm=none)", "NRG(base=RBP(p=0.8), norm=none)"),
    ("nrg(base=ndcg)", "NRG(base=nDCG)"),                     # a bare word given to a metric parameter
    ("rbu(p=0.8,form=reference)@10", "RBU(p=0.8,form=reference)@10"),  # an option word is kept
    ("Recall", "recall"),                                     # a set measure
    ("f(beta=2)", "F(beta=2)"),
    ("rprec", "Rprec"),                                       # ir_measures' RPrec
    ("BPREF", "bpref"),                                       # ir_measures' BPref
])
def test_a_report_names_the_family_as_registered(typed, name):
    resolved = resolve(typed)
    assert resolved.name == name
    assert resolved.metric.name == resolve(name).metric.name


def test_a_resolved_name_with_parameters_given_apart_is_spelled_as_registered():
    assert resolve("rbp", params={"p": 0.5}).name == "RBP(p=0.5)"
    assert resolve("ndcg", cutoff=5).name == "nDCG@5"


def test_scores_are_reported_under_the_registered_name():
    from axiometer.cli.campaign_options import example_files
    from axiometer.readers import read_qrels, read_run
    from axiometer.scoring import score_runs

    with example_files() as (qrels_path, run_paths):
        qrels, runs = read_qrels(qrels_path), [read_run(p) for p in run_paths[:1]]
        typed = score_runs(qrels, runs, ["ndcg@10"], per_topic=False)
        exact = score_runs(qrels, runs, ["nDCG@10"], per_topic=False)
        assert typed.metrics == ("nDCG@10",) and typed.means == exact.means
        with pytest.raises(Exception, match="nDCG@10 is given twice"):
            score_runs(qrels, runs, ["nDCG@10", "NDCG@10"], per_topic=False)


@st.composite
def case_flipped(draw) -> tuple[str, str]:
    """A registered family name with the case of some of its letters flipped."""
    name = draw(st.sampled_from(ALL))
    flips = draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
    return name, "".join(c.swapcase() if flip else c for c, flip in zip(name, flips))


@given(case_flipped())
def test_every_family_in_any_case_resolves_to_the_same_metric(pair):
    name, typed = pair
    assert lookup(typed) == name
    canonical = resolve(name)
    resolved = resolve(typed)
    assert resolved.name == name and resolved.scores == canonical.scores
    assert type(resolved.metric) is family(name) and resolved.metric.name == canonical.metric.name


def test_exact_names_are_unchanged():
    for name in ALL:
        assert lookup(name) == name and spelled(name) == name
        assert resolve(name).name == name and read_spec(name).family == name


def test_spelled_keeps_everything_but_the_names():
    assert spelled("  ndcg @ 10 ") == "nDCG @ 10"
    assert spelled("NRG(base='ndcg@10')") == "NRG(base='ndcg@10')"  # a quoted string is the user's
    assert spelled("nope@3") == "nope@3"


# -- two families that differ only by case ------------------------------------------------------

def test_a_name_two_families_share_ignoring_case_is_refused_naming_both(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))

    class Lower:
        family, title, param_info = "FooBar", "FooBar", ()

        def __init__(self, cutoff=None):
            self.name = self.family

    class Upper(Lower):
        family = "FOOBAR"

    registry.register(Lower, Upper)
    assert parse("FooBar").name == "FooBar" and parse("FOOBAR").name == "FOOBAR"  # exact names
    with pytest.raises(InputError) as error:
        parse("foobar@3")
    assert str(error.value) == ("metric 'foobar@3': metric name 'foobar' matches 'FooBar' and 'FOOBAR', "
                                "which differ only by case; write one as it is spelled")
    assert lookup("nDCG") == "nDCG" and resolve("ndcg").name == "nDCG"  # the others are unaffected


def test_no_two_built_in_families_differ_only_by_case():
    lowered = [name.lower() for name in ALL]
    assert len(set(lowered)) == len(lowered)


# -- an unknown name gets one suggestion ---------------------------------------------------------

@pytest.mark.parametrize("typed, suggested", [
    ("ERR-ia@10", "ERR_IA"),                        # the papers' hyphen: a syntax error, and a hint
    ("ERR-IA@10", "ERR_IA"),
    ("nERR-IA@20", "nERR_IA"),
    ("alpha-nDCG(alpha=0.5)@10", "alpha_nDCG"),
    ("α-nDCG@10", "alpha_nDCG"),
    ("D#-nDCG@10", "DSharp_nDCG"),
    ("S-Recall@10", "StRecall"),                    # a family's title
    ("P-IA@10", "P_IA"),
    ("R-prec", "Rprec"),                            # trec_eval's R-prec
    ("MAP-IA", "AP_IA"),                            # ndeval's MAP-IA
    ("ERRIA@10", "ERR_IA"),                         # ignoring '_'
    ("map", "AP"), ("MAP", "AP"),                   # trec_eval, ir_measures
    ("MRR@10", "RR"), ("recip_rank", "RR"),
    ("P_10", "P@10"), ("ndcg_cut_10", "nDCG@10"), ("map_cut_100", "AP@100"),
    ("strec@10", "StRecall"),                       # ndeval's strec@k
    ("NDGC@10", "nDCG"), ("ndgc", "nDCG"),          # difflib, ignoring case
    ("Recal", "recall"),                            # a set measure
])
def test_an_unknown_name_suggests_the_family_it_means(typed, suggested):
    message = error_of(typed)
    assert message.startswith(f"metric {typed!r}: ")
    assert f"did you mean {suggested!r}?" in message
    assert message.count("did you mean") == 1


def test_the_suggestion_for_an_unknown_name_keeps_the_message_as_it_was():
    message = error_of("NDGC@10")
    assert message == ("metric 'NDGC@10': unknown metric 'NDGC'; did you mean 'nDCG'? known metrics: "
                       + ", ".join(families()))
    message = error_of("Bogus@3")
    assert message.startswith("metric 'Bogus@3': unknown metric 'Bogus'; known metrics: P, RR")


def test_what_ndcg_at_10_suggested_before_is_now_accepted():
    # 'NDCG@10' suggested 'DCG' and 'ndcg@10' nothing; both are nDCG@10 now.
    assert resolve("NDCG@10").name == resolve("ndcg@10").name == "nDCG@10"
    assert suggest("NDCG") == suggest("ndcg") == "nDCG"


def test_a_long_unknown_name_is_cut():
    message = error_of("x" * 5000 + "@10")
    assert re.search(r"unknown metric 'x{59}…'", message) and len(message) < 1200


def test_a_syntax_error_without_a_close_family_is_unchanged():
    assert error_of("nDCG@x") == ("metric 'nDCG@x': expected a positive integer cutoff after '@' at column 6, "
                                  "found 'x'")
    assert "did you mean" not in error_of("zz-top@10")


# -- parameter names are case-sensitive -----------------------------------------------------------

def test_a_parameter_name_in_the_wrong_case_is_refused_with_its_spelling():
    message = error_of("RBP(P=0.5)")
    assert message.startswith("metric 'RBP(P=0.5)': RBP: unknown parameter 'P'; did you mean 'p'? "
                              "(parameter names are case-sensitive; RBP takes p: ")
    assert "did you mean 'alpha'" in error_of("alpha_ndcg(ALPHA=0.5)@10")
    assert "did you mean 'N'" in error_of("Rnorm(n=5)")
    assert resolve("rbp(p=0.5)").metric.params == {"p": 0.5}
    assert "unknown parameter 'q'" in error_of("nDCG(q=1)@10")  # no parameter close: as before
