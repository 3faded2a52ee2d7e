"""trec_eval's own test files (usnistgov/trec_eval ``test/``, in tests/data/trec_eval with the NIST
notice), and relevance levels against pytrec_eval (issue 12: the peers' numbers by default).

``axiometer score`` with no ``--grades`` must print trec_eval's values, to the 4 decimals trec_eval
prints: ``out.test`` (``trec_eval qrels.test results.test``), ``out.test.aqc`` (``-m all_trec -q -c``
on ``results.trunc``, whose lines have extra columns) and ``out.test.aql`` (``-l2`` on
``qrels.rel_level``: grades -1..4) through ``P(rel=2)@5`` and its kin.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from axiometer.cli import main
from axiometer.grades import ranking_from_scores, topic_from_grades
from axiometer.metrics import parse
from tests.paths import DATA
from tests.peers.peers import trec_eval
from tests.strategies import grade_tables, scored_run

FILES = DATA / "trec_eval"

#: trec_eval measure -> our spec (at relevance level 1).
NAMES = {"P_5": "P@5", "P_10": "P@10", "recip_rank": "RR", "map": "AP", "Rprec": "Rprec",
         "bpref": "bpref", "ndcg": "nDCG", "ndcg_cut_10": "nDCG@10"}
#: the same at relevance level 2 (nDCG's gains are the grades at any level).
LEVEL_2 = {"P_5": "P(rel=2)@5", "P_10": "P(rel=2)@10", "recip_rank": "RR(rel=2)", "map": "AP(rel=2)",
           "Rprec": "Rprec(rel=2)", "bpref": "bpref(rel=2)", "ndcg": "nDCG", "ndcg_cut_10": "nDCG@10"}


def printed(name: str, measures) -> dict[tuple[str, str], str]:
    """``(measure, topic) -> value`` as trec_eval printed it, for the measures named."""
    values = {}
    for line in (FILES / name).read_text().splitlines():
        measure, topic, value = line.split()
        if measure in measures:
            values[measure, topic] = value
    return values


def scored(capsys, qrels: str, run: str, specs) -> dict[tuple[str, str], float]:
    """``axiometer score`` with no --grades, as JSON with per-topic values: ``(spec, topic|all) -> value``."""
    args = ["score", "--qrels", str(FILES / qrels), "--run", str(FILES / run), "--per-topic",
            "--format", "json"]
    for spec in specs:
        args += ["--metric", spec]
    assert main(args) == 0
    records = json.loads(capsys.readouterr().out)
    return {(r["metric"], r.get("topic", "all")): r["value"] for r in records if "metric" in r}


@pytest.mark.parametrize("name, qrels, run, names", [
    ("out.test", "qrels.test", "results.test", {k: NAMES[k] for k in
                                                ("P_5", "P_10", "recip_rank", "map", "Rprec", "bpref")}),
    ("out.test.aqc", "qrels.test", "results.trunc", NAMES),
    ("out.test.aql", "qrels.rel_level", "results.test", LEVEL_2),
])
def test_score_prints_trec_evals_values_without_any_option(capsys, name, qrels, run, names):
    expected = printed(name, names)
    ours = scored(capsys, qrels, run, list(dict.fromkeys(names.values())))
    assert {m for m, _ in expected} == set(names)
    for (measure, topic), value in expected.items():
        assert f"{ours[names[measure], topic]:.4f}" == value, (name, measure, topic)
    assert len(expected) >= len(names)  # every measure has at least its `all` line


@settings(max_examples=40)
@given(grade_tables(max_grade=4), st.integers(2, 3), st.data())
def test_relevance_levels_agree_with_trec_eval(grades, level, data):
    """P, RR, AP, R-precision and bpref at rel=2 and 3 against trec_eval's -l (pytrec_eval's
    relevance_level), on the topics built as scoring builds them (trec_eval's linear convention)."""
    run = data.draw(scored_run(grades))
    rankings = {qid: ranking_from_scores(run[qid]) for qid in grades}
    measures = {"P_5": f"P(rel={level})@5", "recip_rank": f"RR(rel={level})", "map": f"AP(rel={level})",
                "Rprec": f"Rprec(rel={level})", "bpref": f"bpref(rel={level})"}
    peer = trec_eval(grades, rankings, measures, relevance_level=level)
    for qid, values in peer.items():
        topic = topic_from_grades(qid, grades[qid], mapping="linear")
        for measure, spec in measures.items():
            ours = parse(spec).score(rankings[qid], topic)
            assert ours == pytest.approx(values[measure], abs=1e-9), (qid, spec)


def test_rel_is_left_out_of_names_at_its_default_and_kept_otherwise():
    assert parse("P(rel=1)@10").name == "P@10" and dict(parse("AP").params) == {}
    assert parse("P(rel=2)@10").name == "P(rel=2)@10" and dict(parse("AP(rel=3)").params) == {"rel": 3}
    with pytest.raises(Exception, match="rel=0 is outside its range"):
        parse("P(rel=0)@10")
