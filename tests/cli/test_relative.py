"""`axiometer score` on a campaign with relative metrics (--runs, --prior, --groups,
--best-by) and `axiometer unanimity`, end to end with files written by
generators.campaign.write_trec; bad input is one stderr line and status 2."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest

from axiometer.cli import main
from axiometer.core import Context
from axiometer.generators.campaign import generate_campaign, write_trec
from axiometer.metrics import Needs, parse, wrap
from axiometer.metrics.resolve import resolve
from axiometer.readers import read_qrels, read_run
from tests.cli_run import run_cli, score_body

needs_relative = pytest.mark.skipif(
    importlib.util.find_spec("axiometer.metrics.nrg") is None
    or importlib.util.find_spec("axiometer.metrics.rareness") is None,
    reason="the NRG and rareness metrics are not built yet")

NRG, RARE = "NRG(base=nDCG@10)", "RareP(alpha=0.5)@10"


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    """4 topics, 6 runs (run001..run006) of depth 30; run006 lacks the last topic."""
    root = tmp_path_factory.mktemp("campaign")
    generated = generate_campaign(topics=4, runs=6, depth=30, judged=(20, 40), seed=3)
    files = write_trec(generated, root)
    run6 = files.runs["run006"]
    run6.write_text("".join(line + "\n" for line in run6.read_text().splitlines()
                            if not line.startswith("q4 ")))
    return files


def novel(ranking, topic, context=None):
    """Relevant documents in the top 10 that no context ranking retrieves in its top 10."""
    seen = {d for r in context.rankings for d in r[:10]}
    return float(sum(1 for d in ranking[:10] if topic.rel(d) and d not in seen))


@pytest.fixture
def novel_spec(monkeypatch):
    """A relative metric named by the spec 'novel' (independent of the built-in ones)."""
    import axiometer.scoring

    metric = wrap(novel, needs=Needs(context=True))
    monkeypatch.setattr(axiometer.scoring, "resolve",
                        lambda ref: resolve(metric if ref == "novel" else ref))
    return metric


def direct_means(files, metric, contexts):
    """Each run's mean of ``metric`` computed here, topic by topic, with the given contexts
    (run -> list of context runs); a missing topic scores 0, a context run lacking it adds
    nothing. The grades are read as scoring reads them for ``metric`` (its reference's convention)."""
    convention = getattr(metric, "grades_convention", None)   # a function reads the qrels' default
    qrels = read_qrels(files.qrels, **({"mapping": convention.mapping} if convention else {}))
    runs = {tag: read_run(path) for tag, path in files.runs.items()}
    means = {}
    for tag in contexts:
        values = []
        for qid, topic in qrels.topics.items():
            if qid not in runs[tag].rankings:
                values.append(0.0)
                continue
            context = Context(tuple(runs[o].rankings[qid] for o in contexts[tag]
                                    if qid in runs[o].rankings))
            values.append(metric.score(runs[tag].rankings[qid], topic, context))
        means[tag] = math.fsum(values) / len(values)
    return means


def json_means(out):
    return {(r["run"], r["metric"]): r["value"] for r in json.loads(out)
            if "run" in r and "topic" not in r}


def test_a_campaign_with_a_relative_metric_all_others(capsys, campaign, novel_spec):
    status, out, err = run_cli(capsys, "score", "--qrels", campaign.qrels, "--runs",
                               campaign.qrels.parent / "runs", "--metric", "P@10", "--metric",
                               "novel", "--format", "json")
    assert status == 0 and err == ""
    records = json.loads(out)
    tags = sorted(campaign.runs)
    contexts = {tag: [o for o in tags if o != tag] for tag in tags}
    expected = direct_means(campaign, novel_spec, contexts)
    means = json_means(out)
    for tag in tags:
        assert means[tag, "novel"] == pytest.approx(expected[tag], abs=1e-12)
    assert records[-2]["priors"]["mode"] == "all-others"
    assert records[-2]["priors"]["contexts"]["run001"] == tags[1:]
    (tau,) = records[-1]["kendall_tau"]
    assert (tau["relative"], tau["metric"]) == ("novel", "P@10")


def test_the_text_table_is_side_by_side_one_row_per_run(capsys, campaign, novel_spec):
    status, out, _ = run_cli(capsys, "score", "--qrels", campaign.qrels, "--runs",
                             campaign.qrels.parent / "runs", "--metric", "P@10", "--metric", "RR",
                             "--metric", "novel", "--prior", "all-others")
    assert status == 0
    lines = score_body(out)
    assert lines[2].split() == ["run", "P@10", "RR", "novel"]
    assert [line.split()[0] for line in lines[4:10]] == sorted(campaign.runs)
    assert ("Relative metrics (novel); prior sets: all-others: each run's prior set is every "
            "other run of the campaign (5 runs).") in lines
    assert [line.split()[:2] for line in lines if line.startswith("novel ")] == [
        ["novel", "P@10"], ["novel", "RR"]]
    assert "run006: missing 1 of the 4 qrels topics, scored 0 (q4)" in lines


def test_best_per_group_with_a_groups_file(capsys, campaign, novel_spec, tmp_path):
    groups = tmp_path / "groups.txt"
    groups.write_text("run001 A\nrun002 A\nrun003 A\nrun004 B\nrun005 B\nrun006 B\n")
    status, out, _ = run_cli(capsys, "score", "--qrels", campaign.qrels, "--runs",
                             campaign.qrels.parent / "runs", "--metric", "novel", "--prior",
                             "best-per-group", "--groups", groups, "--best-by", "P@10",
                             "--format", "json")
    assert status == 0
    priors = json.loads(out)[-2]["priors"]
    # The best of each group by mean P@10, computed here with P@10 itself.
    p10 = parse("P@10")
    qrels = read_qrels(campaign.qrels)
    mean_p10 = {}
    for tag, path in campaign.runs.items():
        run = read_run(path)
        mean_p10[tag] = sum(p10.score(run.rankings[q], t) if q in run.rankings else 0.0
                            for q, t in qrels.topics.items()) / 4
    best = {g: max(sorted(members), key=lambda tag: mean_p10[tag])
            for g, members in (("A", ["run001", "run002", "run003"]),
                               ("B", ["run004", "run005", "run006"]))}
    assert priors["best"] == best and priors["best_by"] == "P@10"
    assert priors["groups_from"] == "file"
    contexts = {tag: [best["B" if tag <= "run003" else "A"]] for tag in sorted(campaign.runs)}
    assert priors["contexts"] == contexts
    expected = direct_means(campaign, novel_spec, contexts)
    means = json_means(out)
    assert means["run001", "P@10"] == pytest.approx(mean_p10["run001"], abs=1e-12)  # shown too
    for tag in contexts:
        assert means[tag, "novel"] == pytest.approx(expected[tag], abs=1e-12)


def test_prior_run_files_are_not_scored(capsys, campaign, novel_spec):
    runs = campaign.runs
    status, out, _ = run_cli(capsys, "score", "--qrels", campaign.qrels, "--run", runs["run001"],
                             "--run", runs["run002"], "--metric", "P@10", "--metric", "novel",
                             "--prior", runs["run002"], runs["run005"], "--format", "json")
    assert status == 0
    means = json_means(out)
    assert {run for run, _ in means} == {"run001", "run002"}
    contexts = {"run001": ["run002", "run005"], "run002": ["run005"]}  # not its own prior
    assert json.loads(out)[-2]["priors"]["contexts"] == contexts
    expected = direct_means(campaign, novel_spec, contexts)
    for tag in contexts:
        assert means[tag, "novel"] == pytest.approx(expected[tag], abs=1e-12)


@needs_relative
@pytest.mark.parametrize("spec", [NRG, RARE])
def test_built_in_relative_metrics_equal_their_single_ranking_scores(capsys, campaign, spec):
    """The campaign path (score_systems, one call per topic) against metric.score in each
    run's own context of all other runs."""
    status, out, _ = run_cli(capsys, "score", "--qrels", campaign.qrels, "--runs",
                             campaign.qrels.parent / "runs", "--metric", "nDCG@10", "--metric",
                             spec, "--format", "json")
    assert status == 0
    tags = sorted(campaign.runs)
    expected = direct_means(campaign, parse(spec), {t: [o for o in tags if o != t] for t in tags})
    means = json_means(out)
    for tag in tags:
        assert means[tag, parse(spec).name] == pytest.approx(expected[tag], abs=1e-12)


@needs_relative
def test_nrg_and_rareness_side_by_side_text(capsys, campaign):
    status, out, _ = run_cli(capsys, "score", "--qrels", campaign.qrels, "--runs",
                             campaign.qrels.parent / "runs", "--metric", "nDCG@10",
                             "--metric", NRG, "--metric", RARE)
    assert status == 0
    lines = score_body(out)
    assert lines[2].split() == ["run", "nDCG@10", NRG, RARE]
    assert [line.split()[:2] for line in lines if line.startswith(("NRG", "RareP"))] == [
        [NRG, "nDCG@10"], [RARE, "nDCG@10"]]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_bad_campaign_input_is_one_line(capsys, campaign, novel_spec, tmp_path):
    runs_dir = campaign.qrels.parent / "runs"
    empty = tmp_path / "empty"
    empty.mkdir()
    bad_dir = tmp_path / "bad"
    bad_dir.mkdir()
    write(bad_dir, "a.run", "q1 Q0 d1 1 2 a\n")
    write(bad_dir, "b.run", "q1 Q0 d1 1 2 b\nq1 Q0 d2 2 x b\n")
    groups = write(tmp_path, "groups.txt", "run001 A\nrun999 B\n")
    base = ["score", "--qrels", campaign.qrels]
    cases = [
        ([*base, "--runs", tmp_path / "nowhere"], f"{tmp_path / 'nowhere'}: no such directory"),
        ([*base, "--runs", empty], f"{empty}: no run files in the directory"),
        ([*base, "--runs", bad_dir, "--metric", "P@1"],
         f"{bad_dir / 'b.run'}:2: score must be a finite number (at 'x')"),
        ([*base, "--runs", runs_dir, "--metric", "novel", "--prior", "best-per-group", "--groups",
          groups], f"{groups}:2: unknown run 'run999' (runs: run001, run002, run003, run004, "
                   "run005, run006)"),
        ([*base, "--run", campaign.runs["run001"], "--metric", "novel"],
         "novel is a relative metric: it needs other systems' rankings as context; give several "
         "runs or a prior set"),
        ([*base, "--runs", runs_dir, "--metric", "novel", "--prior", "best-per-group"],
         "run 'run001' has no prior runs under the best-per-group prior (its group 'run' is the "
         "only group); a relative metric needs other systems' rankings"),
        ([*base, "--runs", runs_dir, "--metric", "novel", "--groups", groups],
         "--groups only matters with --prior best-per-group"),
        ([*base, "--runs", runs_dir, "--metric", "P@10", "--prior", "all-others"],
         "a prior set only matters for relative metrics, and none is given"),
        ([*base, "--runs", runs_dir, "--metric", "novel", "--prior", "all-others", "x.run"],
         "--prior all-others takes no run files with it"),
        ([*base, "--runs", runs_dir, "--metric", "novel", "--prior", tmp_path / "none.run"],
         f"{tmp_path / 'none.run'}: no such file"),
    ]
    for argv, message in cases:
        status, out, err = run_cli(capsys, *argv)
        assert (status, out) == (2, ""), argv
        assert err.splitlines() == ["axiometer: error: " + message], argv


def test_example_and_runs_do_not_mix(capsys, campaign):
    with pytest.raises(SystemExit) as exited:
        main(["score", "--example", "--runs", str(campaign.qrels.parent / "runs")])
    assert exited.value.code == 2
    assert "do not give --qrels, --run or --runs" in capsys.readouterr().err


# -- unanimity ---------------------------------------------------------------------

def test_unanimity_of_the_worked_example_from_a_scores_file(capsys, tmp_path):
    """definitions §8: m1 = (1, .5, .2), m2 = (.8, .3, .4), m3 = (1, .2, .5) for S1..S3 on
    one topic, written as score's per-topic JSON: MU(m1) = log2(4/3) = 0.4150."""
    values = {"m1": (1, 0.5, 0.2), "m2": (0.8, 0.3, 0.4), "m3": (1, 0.2, 0.5)}
    records = [{"run": f"S{i + 1}", "topic": "t", "metric": m, "value": v[i]}
               for i in range(3) for m, v in values.items()]
    records.append({"run": "S1", "metric": "m1", "value": 1})  # a mean: skipped
    scores = write(tmp_path, "scores.json", json.dumps(records))
    status, out, err = run_cli(capsys, "unanimity", "--scores", scores)
    assert status == 0 and err == ""
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.split()[:1] in (["m1"], ["m2"])}
    assert rows["m1"][:3] == ["m1", "0.415037", "4/3"] and rows["m2"][:3] == ["m2", "1", "2"]
    status, out, _ = run_cli(capsys, "unanimity", "--scores", scores, "--metric", "m1",
                             "--metric", "m2", "--format", "json")
    data = json.loads(out)
    assert [m["metric"] for m in data["metrics"]] == ["m1", "m2"]
    assert data["metrics"][0]["others"] == ["m2"]


def test_unanimity_over_score_json_equals_unanimity_over_the_runs(capsys, campaign, tmp_path):
    scores = tmp_path / "scores.json"
    metrics = ["--metric", "P@10", "--metric", "nDCG@10", "--metric", "RR"]
    assert run_cli(capsys, "score", "--qrels", campaign.qrels, "--runs",
                   campaign.qrels.parent / "runs", *metrics, "--per-topic", "--format", "json",
                   "-o", scores)[0] == 0
    _, from_file, _ = run_cli(capsys, "unanimity", "--scores", scores, "--format", "json")
    _, from_runs, _ = run_cli(capsys, "unanimity", "--qrels", campaign.qrels, "--runs",
                              campaign.qrels.parent / "runs", *metrics, "--format", "json")
    file_data, run_data = json.loads(from_file), json.loads(from_runs)
    assert file_data["metrics"] == run_data["metrics"]
    # 6 runs, 4 topics: 4 * 6 * 5 ordered pairs (run006's missing topic is its empty output).
    assert run_data["metrics"][0]["pairs"] == 120


def test_unanimity_example_is_seeded(capsys):
    status, out, err = run_cli(capsys, "unanimity", "--example", "--metric", "P@10", "--metric",
                               "nDCG@10", "--metric", "RBP(p=0.8)")
    assert status == 0 and err == ""
    header = " ".join(out.split("\n\n")[0].split())  # the header, however it wraps
    assert "pooled over 10 topics" in header
    assert "a generated campaign (seed 0: 10 topics, 12 runs, depth 100)" in header
    assert run_cli(capsys, "unanimity", "--example", "--metric", "P@10", "--metric",
                   "nDCG@10", "--metric", "RBP(p=0.8)")[1] == out
    other = run_cli(capsys, "unanimity", "--example", "--seed", "1", "--metric", "P@10",
                    "--metric", "nDCG@10", "--metric", "RBP(p=0.8)")[1]
    assert other != out


def test_bad_unanimity_input_is_one_line(capsys, tmp_path):
    broken = write(tmp_path, "broken.json", '[{"run": "a",\n "topic": }]')
    means_only = write(tmp_path, "means.json", '[{"run": "a", "metric": "P@10", "value": 1}]')
    gap = write(tmp_path, "gap.json", json.dumps([
        {"run": "a", "topic": "t", "metric": "x", "value": 1},
        {"run": "b", "topic": "t", "metric": "y", "value": 1},
        {"run": "a", "topic": "t", "metric": "y", "value": 1}]))
    cases = [
        (["--scores", broken], f"{broken}:2: not JSON: Expecting value"),
        (["--scores", means_only], f"{means_only}: no per-topic records (write them with "
                                   "'axiometer score --per-topic --format json')"),
        (["--scores", gap], f"{gap}: no x score of run 'b' on topic 't'"),
        (["--scores", gap, "--metric", "z", "--metric", "x"],
         f"{gap}: no scores for metric 'z' (the file has: x, y)"),
        (["--scores", tmp_path / "none.json"], f"{tmp_path / 'none.json'}: no such file"),
    ]
    for argv, message in cases:
        status, out, err = run_cli(capsys, "unanimity", *argv)
        assert (status, out) == (2, ""), argv
        assert err.splitlines() == ["axiometer: error: " + message], argv


@needs_relative
def test_nrg_in_best_per_group_contexts_equals_single_ranking_scores(capsys, campaign, tmp_path):
    groups = write(tmp_path, "groups.txt", "".join(f"run00{i} {'AB'[i > 3]}\n" for i in range(1, 7)))
    status, out, _ = run_cli(capsys, "score", "--qrels", campaign.qrels, "--runs",
                             campaign.qrels.parent / "runs", "--metric", NRG, "--prior",
                             "best-per-group", "--groups", groups, "--format", "json")
    assert status == 0
    records = json.loads(out)
    contexts = records[-2]["priors"]["contexts"]
    assert records[-2]["priors"]["best_by"] == "nDCG@10"  # the default without a plain metric
    expected = direct_means(campaign, parse(NRG), contexts)
    means = json_means(out)
    for tag in contexts:
        assert means[tag, NRG] == pytest.approx(expected[tag], abs=1e-12)


def test_per_topic_values_of_a_relative_metric(capsys, campaign, novel_spec):
    status, out, _ = run_cli(capsys, "score", "--qrels", campaign.qrels, "--runs",
                             campaign.qrels.parent / "runs", "--metric", "P@10", "--metric", "novel",
                             "--per-topic", "--format", "json")
    assert status == 0
    records = json.loads(out)
    per_topic = [r for r in records if "topic" in r and r["metric"] == "novel"]
    assert len(per_topic) == 6 * 4
    assert {r["value"] for r in per_topic if r["run"] == "run006" and r["topic"] == "q4"} == {0.0}
    for tag, mean in ((run, value) for (run, metric), value in json_means(out).items()
                      if metric == "novel"):
        values = [r["value"] for r in per_topic if r["run"] == tag]
        assert mean == pytest.approx(sum(values) / 4, abs=1e-12)
    status, text, _ = run_cli(capsys, "score", "--qrels", campaign.qrels, "--runs",
                              campaign.qrels.parent / "runs", "--metric", "novel", "--per-topic")
    assert status == 0 and score_body(text)[0].split() == ["run", "topic", "metric", "value"]
    assert ["run001", "q1", "nDCG@10"] in [line.split()[:3] for line in text.splitlines()]
