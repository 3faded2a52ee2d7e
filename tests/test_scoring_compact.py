"""Scoring runs read in bulk and kept compact (issue 15 item 4): ``score_runs`` on
``read_run(..., compact=True)`` runs gives, float for float, what it gives on the line reader's runs
(every grade mapping, the per-ranking fallbacks, a user's metric, a relative metric, a campaign
mixing compact and dict runs), and the batched metrics build no :class:`Ranking` to get there."""

from __future__ import annotations

import numpy as np
import pytest

from axiometer.cli import main
from axiometer.generators.campaign import generate_campaign, write_trec
from axiometer.metrics import RankingBatch, wrap
from axiometer.readers import _read_run_lines, read_qrels, read_run
from axiometer.runfile import CompactRankings
from axiometer.scoring import score_runs

#: Metrics reading the grades four ways (linear, err, binary, err-aspect), single- and multi-aspect,
#: with cutoffs and without, and two that take the per-ranking path: P(rel=2)@10 (its batched path
#: reads relevance level 1 only) and a user's function.
METRICS = ["nDCG@10", "AP", "P@10", "RR", "ERR@10", "RBP(p=0.8)", "nDCG_IA@10", "ERR_IA@10",
           "alpha_nDCG(alpha=0.5)@10", "RBU(p=0.8,e=0.05)@10", "P(rel=2)@10",
           wrap(lambda ranking, topic: float(sum(topic.r(d) for d in ranking[:3])), "top3")]


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    root = tmp_path_factory.mktemp("campaign")
    files = write_trec(generate_campaign(topics=6, runs=5, depth=120, seed=7), root)
    paths = list(files.runs.values())
    # One run with ties, shuffled lines and a topic the qrels lack; one lacking a qrels topic.
    lines = paths[0].read_text().splitlines(keepends=True)
    rng = np.random.default_rng(1)
    tied = [" ".join(line.split()[:4] + [str(int(line.split()[4]) // 7), "tied"]) + "\n"
            for line in lines]
    extra = root / "runs" / "tied.run"
    extra.write_text("".join(rng.permutation(tied)) + "q99 Q0 doc 1 1 tied\n")
    short = root / "runs" / "short.run"
    short.write_text("".join(line for line in paths[1].read_text().splitlines(keepends=True)
                             if not line.startswith("q2 ")).replace(" run002\n", " short\n"))
    return files, paths + [extra, short]


def line_runs(paths):
    return [_read_run_lines(str(p), p.read_bytes())[0] for p in paths]


@pytest.mark.parametrize("qrels_file", ["qrels", "diversity_qrels"])
def test_compact_runs_score_exactly_as_the_line_readers_runs(campaign, qrels_file):
    files, paths = campaign
    qrels = read_qrels(getattr(files, qrels_file))
    expected = score_runs(qrels, line_runs(paths), METRICS)
    compact = [read_run(p, compact=True) for p in paths]
    assert all(isinstance(run.rankings, CompactRankings) for run in compact)
    assert score_runs(qrels, compact, METRICS) == expected
    mixed = [run if i % 2 else read_run(p) for i, (p, run) in enumerate(zip(paths, compact))]
    assert score_runs(qrels, mixed, METRICS) == expected
    assert expected.missing["short"] == ("q2",) and expected.ignored["tied"] == ("q99",)


def test_a_relative_metric_scores_compact_runs_as_before(campaign):
    files, paths = campaign
    qrels = read_qrels(files.qrels)
    metrics = ["NRG(base=nDCG@10)", "nDCG@10"]
    expected = score_runs(qrels, line_runs(paths), metrics, prior="all-others")
    assert score_runs(qrels, [read_run(p, compact=True) for p in paths], metrics,
                      prior="all-others") == expected


def test_batched_metrics_build_no_ranking(campaign, monkeypatch):
    """Compact runs are scored from their bytes: no Python string, no Ranking per document."""
    files, paths = campaign
    qrels = read_qrels(files.diversity_qrels)
    runs = [read_run(p, compact=True) for p in paths]

    def refuse(self, qid):
        raise AssertionError(f"a Ranking was built for topic {qid}")

    monkeypatch.setattr(CompactRankings, "__getitem__", refuse)
    result = score_runs(qrels, runs, ["nDCG@10", "AP", "ERR_IA@10", "RBP(p=0.8)"])
    monkeypatch.undo()
    assert result == score_runs(qrels, line_runs(paths), ["nDCG@10", "AP", "ERR_IA@10", "RBP(p=0.8)"])


def test_a_batch_from_rows_is_the_batch_from_rankings(campaign):
    files, paths = campaign
    qrels = read_qrels(files.diversity_qrels)
    runs = [read_run(p) for p in paths]
    for qid, topic in qrels.topics.items():
        rankings = [run.rankings[qid] for run in runs if qid in run.rankings]
        expected = RankingBatch.from_rankings(rankings, topic)
        row_of = {d: i for i, d in enumerate(topic.documents, 1)}
        found = np.array([row_of.get(d, 0) for r in rankings for d in r], dtype=np.int64)
        batch = RankingBatch.from_rows(found, [len(r) for r in rankings], topic)
        for name in ("gains", "lengths", "judged", "single", "judged_gains", "judged_single", "weights"):
            assert np.array_equal(getattr(batch, name), getattr(expected, name)), name


def test_the_score_command_prints_the_same_with_a_file_the_line_reader_reads(campaign, tmp_path, capsys):
    """A campaign where one file falls back to the line reader (a non-ASCII comment) prints what the
    same campaign prints without it."""
    files, paths = campaign
    plain, mixed = tmp_path / "plain", tmp_path / "mixed"
    for folder in (plain, mixed):
        folder.mkdir()
        for p in paths:
            (folder / p.name).write_bytes(p.read_bytes())
    (mixed / paths[0].name).write_bytes("# r\u00e9sum\u00e9\n".encode() + paths[0].read_bytes())
    outputs = []
    for folder in (plain, mixed):
        assert main(["score", "--qrels", str(files.qrels), "--runs", str(folder), "--metric",
                     "nDCG@10 AP P(rel=2)@10", "--per-topic", "--format", "trec"]) == 0
        outputs.append(capsys.readouterr().out.replace(str(folder), ""))
    assert outputs[0] == outputs[1] and "nDCG@10" in outputs[0]


def test_the_judged_index_follows_the_topics_document_order(tmp_path):
    """The bulk lookup is shared between a topic's views only while they list the same documents in
    the same order; a view listing them otherwise gets rows of its own."""
    from axiometer.core import Topic
    from axiometer.scoring import _TopicRankings

    path = tmp_path / "r.run"
    path.write_text("q1 Q0 a 1 3 t\nq1 Q0 x 2 2 t\nq1 Q0 b 3 1 t\n", encoding="utf-8")
    run = read_run(path, compact=True)
    forward = Topic.single({"a": 1, "b": 0.5}, "q1")
    backward = Topic.single({"b": 0.5, "a": 1}, "q1")
    rankings = _TopicRankings("q1", [run.rankings], {})
    for topic in (forward, backward, forward):
        batch = rankings.batch(topic)
        expected = RankingBatch.from_rankings([("a", "x", "b")], topic)
        assert np.array_equal(batch.gains, expected.gains) and batch.gains[0, :, 0].tolist() == [1, 0, 0.5]
