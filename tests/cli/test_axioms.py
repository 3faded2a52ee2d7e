"""`axiometer axioms [ID]`: every axiom listed with its meaning; one axiom in full with a worked example
whose scores agree with the verdicts the checks give, re-evaluated here independently of the command.

Also: every constraint and property declares a meaning, a source and an expectation (its info()),
and a table's result and JSON carry what each column means."""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from typing import Any

import pytest
import sympy

from axiometer.axioms import CONSTRAINTS, PROPERTIES, get, oracles
from axiometer.axioms.constraints.base import Constraint
from axiometer.axioms.oracle import CONDITIONS
from axiometer.checking import QUICK, check
from axiometer.core import Context, Topic
from axiometer.metrics.base import UndefinedScore
from axiometer.metrics.resolve import resolve
from axiometer.reports.axioms import number_text
from axiometer.reports.table import format_table
from axiometer.results import HOLDS
from axiometer.runner import run_table
from tests.cli_run import flat, run_cli

IDS = [o.id for o in (*CONSTRAINTS, *PROPERTIES)]


# -- every axiom declares what it means ----------------------------------------------------------

def test_there_are_ten_constraints_and_seven_properties():
    assert IDS == ["Pri", "Deep", "DeepTh", "CloseTh", "Conf", "AspDiv", "Red", "MRed", "Sat", "AspRel",
                   "Rev", "Rarity", "PriorSens", "PriorMono", "Bounded", "Unique", "Finite"]


@pytest.mark.parametrize("oracle", [*CONSTRAINTS, *PROPERTIES], ids=IDS)
def test_every_axiom_declares_meaning_source_and_expectation(oracle):
    info = oracle.info()
    assert (info.id, info.name) == (oracle.id, oracle.name)
    assert oracle.meaning and oracle.source and oracle.expectation and oracle.construction
    assert info.meaning == oracle.meaning and info.source == oracle.source
    # One plain sentence saying what a user loses, short enough for one line of a legend.
    assert info.meaning.startswith("A metric that violates it ") and info.meaning.endswith(".")
    assert info.meaning.replace("e.g.", "eg")[:-1].count(". ") == 0
    assert len(info.meaning) <= 120
    assert info.expectation.startswith("should ")
    assert info.relation and "Q" in info.relation
    assert info.conditions and all(c in CONDITIONS for c in info.conditions)
    satisfying, violating = oracle.example_metrics
    assert satisfying is not None


@pytest.mark.parametrize("oracle", CONSTRAINTS, ids=[c.id for c in CONSTRAINTS])
def test_constraint_sources_name_the_paper_and_its_equation(oracle):
    number = CONSTRAINTS.index(oracle) + 1
    assert "SIGIR 2018" in oracle.source
    assert oracle.source.endswith(f"Constraint {number} ({oracle.source.split('(')[1].split(')')[0]}), "
                                  f"Eq. {number}")
    assert oracle.source.split("(")[1].split(")")[0].lower() == oracle.name.lower()


def test_a_constraint_without_a_meaning_falls_back_to_its_wording():
    plain = Constraint(id="TopRel", name="Top relevance", wording="Moving a relevant document up raises "
                       "the score.", conditions=("single aspect",), group="relevance", form="universal")
    info = plain.info()
    assert info.meaning == plain.wording and info.relation == "Q(b) > Q(a)" and info.source == ""


# -- the list ---------------------------------------------------------------------------------------

def test_the_list_names_all_17_axioms_with_their_meanings(capsys):
    status, out, err = run_cli(capsys, "axioms")
    assert status == 0 and err == ""
    assert max(len(line) for line in out.splitlines()) <= 100
    listed = [m.group(1) for m in re.finditer(r"^  (\S+)\s{2,}", out, re.M)]
    assert listed == IDS
    text = flat(out)
    for oracle in oracles():
        meaning = oracle.info().meaning
        assert f"{oracle.name}: {meaning[0].lower()}{meaning[1:]}" in text
    assert text.index("Relevance constraints") < text.index("Pri ") < text.index("Diversity constraints") \
        < text.index("AspDiv ") < text.index("Properties of relative metrics") < text.index("Rev ")


def test_the_list_as_json(capsys):
    status, out, _ = run_cli(capsys, "axioms", "--format", "json")
    entries = json.loads(out)
    assert status == 0 and [e["id"] for e in entries] == IDS
    for entry in entries:
        info = get(entry["id"]).info()
        assert (entry["meaning"], entry["relation"], entry["source"]) == (info.meaning, info.relation,
                                                                           info.source)
        assert entry["conditions"] == list(info.conditions)


# -- one axiom --------------------------------------------------------------------------------------

@pytest.mark.parametrize("axiom", IDS)
def test_each_page_names_relation_source_conditions_and_mode(capsys, axiom):
    oracle = get(axiom)
    status, out, err = run_cli(capsys, "axioms", axiom.lower())  # ids are case-insensitive
    assert status == 0 and err == ""
    assert max(len(line) for line in out.splitlines()) <= 100
    text = flat(out)
    info = oracle.info()
    assert out.startswith(f"{oracle.id} — {oracle.name}\n")
    for part in (info.meaning, info.relation, info.source, oracle.construction):
        assert flat(part) in text
    for condition in info.conditions:
        assert flat(f"{condition}: {CONDITIONS[condition]}") in text
    mode = "none:" if oracle.group == "relative" else f"{oracle.default_mode}:"
    assert re.search(rf"^cutoff mode +{mode}", out, re.M)
    assert "Worked example:" in out
    satisfying, violating = oracle.example_metrics
    assert f"{satisfying} satisfies {oracle.id}." in text
    if violating is not None:
        assert f"{violating} violates {oracle.id}." in text
    else:
        assert f"No built-in metric violates {oracle.id}" in text
    assert not re.search(r"\d\.\d{7,}", out), "float noise"


def test_closeness_threshold_page(capsys):
    """The page the issue names: the definition, and the pair at m = 2 with rc = 1/10 scored by
    RBP(p=0.8) and RBP(p=0.5). RBP = (1-p) sum r_i p^(i-1): a_2 = r1 n1 n2 n3 scores (1-p)/10,
    b_2 = n1 n2 r1 r2 scores (1-p)(p^2 + p^3)/10; so 1/50 < 72/3125 at p = 0.8 and 1/20 > 3/160
    at p = 0.5, worked by hand."""
    status, out, _ = run_cli(capsys, "axioms", "CloseTh")
    text = flat(out)
    assert status == 0
    assert "relation Q(b_m) > Q(a_m) for some m" in text
    assert "Eq. 4" in text and "single aspect:" in text and "binary:" in text
    assert "Worked example: the pair at m = 2 with rc = 1/10" in text
    assert re.search(r"^  a +r1 +n1 +n2 +n3$", out, re.M) and re.search(r"^  b +n1 +n2 +r1 +r2$", out, re.M)
    assert re.search(r"^  r\(d\) +0 +0 +1/10 +1/10$", out, re.M)
    assert ("RBP(p=0.8) satisfies CloseTh. Here Q(a) = 1/50 and Q(b) = 72/3125: Q(b) > Q(a) holds."
            in text)
    assert ("RBP(p=0.5) violates CloseTh. Here Q(a) = 1/20 and Q(b) = 3/160: Q(b) > Q(a) fails "
            "(Q(b) < Q(a))." in text)
    assert "Here b should score higher than a" in text


def test_an_unknown_id_is_one_error_line_listing_the_known_ids(capsys):
    status, out, err = run_cli(capsys, "axioms", "Closeness")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("axiometer: error: unknown axiom 'Closeness'")
    assert all(axiom in err for axiom in IDS)


# -- the worked example agrees with the checks, re-evaluated independently ---------------------------

def _topic(record: dict[str, Any]) -> Topic:
    aspects = record["aspects"]
    judgments = {doc: {t: Fraction(r) for t, r in zip(aspects, values)}
                 for doc, values in record["judgments"].items()}
    return Topic(judgments, {t: Fraction(w) for t, w in zip(aspects, record["weights"])})


def _contexts(example: dict[str, Any]) -> tuple[Context | None, Context | None]:
    """The context ``a`` is scored in and the one ``b`` is (``None``: no context)."""
    by_label = {c["for"]: Context(tuple(tuple(r) for r in c["rankings"])) for c in example["contexts"]}
    if "for a and b" in by_label:
        return by_label["for a and b"], by_label["for a and b"]
    return by_label.get("for a"), by_label.get("for b")


def _value(metric: Any, ranking: list[str], topic: Topic, context: Context | None) -> Any:
    return metric.exact(ranking, topic, context) if context is not None else metric.exact(ranking, topic)


def _sign(value: Any) -> int:
    """The sign of an exact value: a Fraction directly, a sympy expression at 50 digits."""
    if isinstance(value, (int, Fraction)):
        return (value > 0) - (value < 0)
    approx = sympy.N(value, 50)
    return 0 if abs(approx) < 1e-40 else (1 if approx > 0 else -1)


#: A relation between Q(a) and Q(b) -> does it hold, given the sign of Q(b) - Q(a)?
RELATIONS = {"Q(b) > Q(a)": lambda s: s > 0, "Q(a) > Q(b)": lambda s: s < 0,
             "Q(a) >= Q(b)": lambda s: s <= 0, "Q(b) >= Q(a)": lambda s: s >= 0,
             "Q(b) != Q(a)": lambda s: s != 0}


def _holds_here(axiom: str, spec: str, example: dict[str, Any], required: str) -> bool:
    """Does the axiom's relation hold for ``spec`` on the example? Decided here, from the metric's exact
    values (and, for the unary properties, from the papers' claims computed by hand)."""
    metric = resolve(spec).metric
    topic = _topic(example["topic"])
    a, b = example["a"], example["b"]
    context_a, context_b = _contexts(example)
    if required in RELATIONS:
        difference = _value(metric, b, topic, context_b) - _value(metric, a, topic, context_a)
        return RELATIONS[required](_sign(difference))
    context = context_a if context_a is not None else Context()
    k = metric.cutoff
    if axiom == "Finite":
        try:
            value = _value(metric, a, topic, context)
        except UndefinedScore:
            return False
        return math.isfinite(float(value))
    if axiom == "Unique":  # relevant documents in a's top k that no other system has in its top k
        pooled = {d for r in context.rankings for d in r[:k]}
        count = sum(1 for d in a[:k] if topic.rel(d) and d not in pooled)
        return _value(metric, a, topic, context) == count
    if axiom == "Rev":  # alpha = 0 gives P@k
        reverted = resolve(spec.replace("alpha=0.5", "alpha=0")).metric
        return _value(reverted, a, topic, context) == resolve(f"P@{k}").metric.exact(a, topic)
    if axiom == "Bounded":  # Türkmen et al.: P@K_rare < 2 and at most 2(S-1)/S; AP_rare in [0, 2)
        value = _value(metric, a, topic, context)
        systems = len(context) + 1
        if spec.startswith("RareP("):  # P@K_rare = (1/k) sum rel(d) (1 + alpha R(d)), R(d) = 1 - S_d/S
            by_hand = sum(Fraction(1) + Fraction(1, 2) * (1 - Fraction(1 + sum(d in r[:k] for r in context.rankings),
                                                                   systems))
                          for d in a[:k] if topic.rel(d)) / k
            assert value == by_hand
            return 0 <= value <= Fraction(2 * (systems - 1), systems)
        return 0 <= value < 2
    raise AssertionError(f"no independent evaluation for {axiom}: {required}")


@pytest.mark.parametrize("axiom", IDS)
def test_worked_example_agrees_with_the_verdicts(capsys, axiom):
    oracle = get(axiom)
    status, out, _ = run_cli(capsys, "axioms", axiom, "--format", "json")
    page = json.loads(out)
    assert status == 0 and page["id"] == axiom and page["relation"] == oracle.info().relation
    assert page["conditions"] == list(oracle.info().conditions)
    assert page["condition_meanings"] == {c: CONDITIONS[c] for c in page["conditions"]}
    example = page["example"]
    satisfying, violating = oracle.example_metrics
    expected = [(satisfying, "satisfies", True)] + ([(violating, "violates", False)] if violating else [])
    assert [(s["metric"], s["verdict"], s["holds"]) for s in example["scores"]] == expected
    for score in example["scores"]:
        spec = score["metric"]
        # The verdict the checks give the metric (at its own setting) ...
        verdict = check(resolve(spec).metric, oracle, budget=QUICK).verdict
        assert (verdict in HOLDS) == (score["verdict"] == "satisfies"), (spec, verdict)
        # ... and the relation on the example, decided here without the command's code.
        assert _holds_here(axiom, spec, example, score["required"]) == score["holds"], spec
        # Every printed value is exact or rounded, never float noise.
        for value in score["values"]:
            assert value["text"] == "undefined" or re.fullmatch(
                r"-?\d+(/\d+)?|≈ -?[\d.]+(e-?\d+)?|.* ≈ -?[\d.]+", value["text"]), value


@pytest.mark.parametrize("axiom", [c.id for c in CONSTRAINTS if c.form != "threshold"] +
                         ["Rarity", "PriorSens", "PriorMono"])
def test_worked_example_prints_the_exact_values_of_both_rankings(capsys, axiom):
    status, out, _ = run_cli(capsys, "axioms", axiom, "--format", "json")
    example = json.loads(out)["example"]
    topic = _topic(example["topic"])
    context_a, context_b = _contexts(example)
    for score in example["scores"]:
        metric = resolve(score["metric"]).metric
        values = dict((v["label"], v["text"]) for v in score["values"])
        assert values == {"Q(a)": number_text(_value(metric, example["a"], topic, context_a)),
                          "Q(b)": number_text(_value(metric, example["b"], topic, context_b))}


def test_number_text():
    assert number_text(Fraction(72, 3125)) == "72/3125"
    assert number_text(Fraction(1, 3) + Fraction(10**12, 7**20)) == "≈ 0.333346"
    assert number_text(0.12799999999999997) == "0.128"
    assert number_text(None) == "undefined" and number_text(float("nan")) == "undefined"
    assert number_text(sympy.log(2) / sympy.log(3)) == "log(2)/log(3) ≈ 0.63093"
    assert number_text(sympy.Rational(3, 160)) == "3/160"


# -- a table carries what its columns mean -----------------------------------------------------------

def test_table_result_and_json_carry_each_columns_meaning():
    result = run_table(["RBP(p=0.5)"], ["CloseTh", "Pri", "Rev"], budget=QUICK, jobs=1)
    assert result.axioms == tuple(get(c).info() for c in result.constraints)
    assert [a.id for a in result.axioms] == list(result.constraints) == ["CloseTh", "Pri", "Rev"]
    data = json.loads(format_table(result, "json"))
    assert [a["id"] for a in data["axioms"]] == ["CloseTh", "Pri", "Rev"]
    for entry, info in zip(data["axioms"], result.axioms):
        assert entry == {"id": info.id, "name": info.name, "meaning": info.meaning,
                         "relation": info.relation, "conditions": list(info.conditions),
                         "source": info.source, "expectation": info.expectation}
    assert data["axioms"][0]["relation"] == "Q(b_m) > Q(a_m) for some m"
