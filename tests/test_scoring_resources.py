"""Scoring with bounded resources (issue 29, item 2): qrels kept as columns
(``read_qrels(..., compact=True)``, :mod:`axiometer.judgments`) are the qrels the reader always gave,
topic for topic and field for field, and score exactly alike; scoring keeps only the topic it is
scoring (a million one-document topics kept every topic, view and judged index to the end: 6 GB);
and the small topics' dict lookup of judged rows agrees with the hash table."""

from __future__ import annotations

import gc
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from axiometer import runfile
from axiometer.core import Topic
from axiometer.generators.campaign import generate_campaign, write_trec
from axiometer.grades import GRADE_MAPPINGS, topic_from_grades
from axiometer.grades import scale_for
from axiometer.judgments import CompactGrades, CompactTopics, CompactWeights
from axiometer.readers import read_qrels, read_run
from axiometer.runfile import JudgedIndex
from axiometer.scoring import score_runs
from tests.test_scoring_compact import METRICS

#: Every field of a Topic that says what it is (the caches _ordinal, _floats and _hash aside).
_FIELDS = ("topic_id", "aspects", "weights", "_aspect_index", "_vectors", "_single", "R", "_grades",
           "_aspect_grades")


def assert_same_topic(got: Topic, expected: Topic) -> None:
    """Field for field, and value for value with the same types (0 is not Fraction(0) here)."""
    for name in _FIELDS:
        mine, theirs = getattr(got, name), getattr(expected, name)
        assert mine == theirs, name
        if isinstance(theirs, dict):
            assert list(mine) == list(theirs), f"{name}: order"
            assert [_types(v) for v in mine.values()] == [_types(v) for v in theirs.values()], f"{name}: types"
        else:
            assert _types(mine) == _types(theirs), f"{name}: types"
    for attribute in ("_ordinal", "_floats", "_hash"):
        assert getattr(got, attribute) is None


def _types(value: object) -> object:
    if isinstance(value, (tuple, list)):
        return tuple(_types(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, _types(v)) for k, v in value.items())
    return type(value)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    root = tmp_path_factory.mktemp("campaign")
    files = write_trec(generate_campaign(topics=6, runs=4, depth=80, seed=3), root)
    # Topics' lines interleaved, an EvALL file with float weights and balanced ones.
    lines = files.diversity_qrels.read_text().splitlines(keepends=True)
    interleaved = root / "interleaved.txt"
    interleaved.write_text("".join(lines[::2] + lines[1::2]))
    evall = root / "qrels.evall.tsv"
    evall.write_text('"q1"\t"a"\t2\t"x"\t0.25\n"q1"\t"b"\t1\t"y"\t0.75\n"q1"\t"a"\t0\t"y"\t0.75\n'
                     '"q2"\t"c"\t3\t"x"\t0.5\n"q2"\t"d"\t0\t"z"\t0.5\n"q3"\t"c"\t-2\t"w"\t1\n')
    return files, [files.qrels, files.diversity_qrels, interleaved, evall]


def _qrels_files(campaign):
    return campaign[1]


@pytest.mark.parametrize("mapping", GRADE_MAPPINGS)
def test_compact_qrels_are_the_qrels_read_as_dicts(campaign, mapping):
    for path in _qrels_files(campaign):
        plain = read_qrels(path, mapping=mapping)
        compact = read_qrels(path, mapping=mapping, compact=True)
        assert isinstance(compact.topics, CompactTopics) and isinstance(compact.grades, CompactGrades)
        assert isinstance(compact.weights, CompactWeights)
        assert compact == plain and plain == compact  # every field, mappings against dicts
        assert list(compact.topics) == list(plain.topics) and len(compact.topics) == len(plain.topics)
        for qid, topic in plain.topics.items():
            assert_same_topic(compact.topics[qid], topic)
            assert list(compact.grades[qid]) == list(plain.grades[qid])  # documents in file order
            assert [_types(w) for w in compact.weights[qid].values()] == \
                [_types(w) for w in plain.weights[qid].values()]  # exact Fractions stay Fractions
        assert "q-none" not in compact.topics and qid in compact.topics
        with pytest.raises(KeyError):
            compact.topics["q-none"]


@pytest.mark.parametrize("mapping", GRADE_MAPPINGS)
def test_every_grade_view_is_the_topic_topic_from_grades_builds(campaign, mapping):
    """What scoring reads for a metric's own grade mapping: the columns' topic is the reference
    builder's, whatever mapping the file was read with."""
    for path in _qrels_files(campaign):
        plain = read_qrels(path)
        judgments = read_qrels(path, compact=True).grades.judgments
        for gmax in (None, 7):
            scale = scale_for(mapping, gmax, judgments.largest)
            for qid in plain.topics:
                assert_same_topic(judgments.topic(qid, mapping, scale),
                                  topic_from_grades(qid, plain.grades[qid], plain.weights[qid], mapping, scale))


@st.composite
def diversity_qrels(draw) -> str:
    """TREC diversity lines: topics with one to three subtopics, documents judged on some of them
    (grades from -2 to 5), topics' lines in any order."""
    lines = []
    for topic in range(draw(st.integers(1, 4))):
        subtopics = draw(st.lists(st.sampled_from(["1", "2", "3", "x"]), min_size=1, max_size=3, unique=True))
        for doc in range(draw(st.integers(1, 5))):
            for subtopic in draw(st.lists(st.sampled_from(subtopics), min_size=1, unique=True)):
                lines.append(f"q{topic} {subtopic} d{doc} {draw(st.integers(-2, 5))}\n")
    return "".join(draw(st.permutations(lines)))


@settings(max_examples=60, deadline=None)
@given(text=diversity_qrels(), mapping=st.sampled_from(GRADE_MAPPINGS), gmax=st.sampled_from([None, 5, 9]))
def test_random_qrels_read_compact_are_the_dict_qrels(tmp_path_factory, text, mapping, gmax):
    path = tmp_path_factory.mktemp("qrels") / "q.txt"
    path.write_text(text)
    plain = read_qrels(path, "trec-diversity")
    judgments = read_qrels(path, "trec-diversity", compact=True).grades.judgments
    scale = scale_for(mapping, gmax, judgments.largest)
    for qid in plain.topics:
        assert_same_topic(judgments.topic(qid, mapping, scale),
                          topic_from_grades(qid, plain.grades[qid], plain.weights[qid], mapping, scale))


def test_compact_qrels_score_exactly_as_the_dict_qrels(campaign):
    files, _ = campaign
    runs = [read_run(p, compact=True) for p in files.runs.values()]
    for path in _qrels_files(campaign)[:3]:
        for gmax in (None, 9):
            expected = score_runs(read_qrels(path), runs, METRICS, gmax=gmax)
            assert score_runs(read_qrels(path, compact=True), runs, METRICS, gmax=gmax) == expected
    relative = ["NRG(base=nDCG@10)", "nDCG@10"]
    expected = score_runs(read_qrels(files.qrels), runs, relative, prior="all-others")
    assert score_runs(read_qrels(files.qrels, compact=True), runs, relative, prior="all-others") == expected


def test_a_gmax_below_a_grade_is_still_refused_when_scoring(campaign):
    from axiometer.core import ValidationError

    files, _ = campaign
    runs = [read_run(p, compact=True) for p in files.runs.values()]
    for compact in (False, True):
        with pytest.raises(ValidationError, match="exceeds the scale maximum 1"):
            score_runs(read_qrels(files.qrels, compact=compact), runs, ["nDCG@10"], gmax=1)


def _alive(kind: type) -> int:
    return sum(1 for o in gc.get_objects() if type(o) is kind)


def test_scoring_keeps_only_the_topic_it_is_scoring(tmp_path):
    """A million one-document topics kept every topic of every grade view and every judged index
    until the end (6 GB): after each topic, what scoring holds does not grow with the topics done."""
    count = 12  # enough for growth to show (it would reach 24 views), few full collections: each walks the heap
    qrels = tmp_path / "q.txt"
    qrels.write_text("".join(f"q{i} 0 d{i} {i % 3}\nq{i} 0 e{i} 1\n" for i in range(count)))
    run = tmp_path / "r.run"
    run.write_text("".join(f"q{i} Q0 d{i} 1 2 r\nq{i} Q0 x{i} 2 1 r\n" for i in range(count)))
    seen: list[tuple[int, int]] = []
    gc.collect()
    before = (_alive(Topic), _alive(JudgedIndex))

    def watch(phase: str, done: int, total: int) -> None:
        gc.collect()
        seen.append((_alive(Topic) - before[0], _alive(JudgedIndex) - before[1]))

    # nDCG@10 reads grades linearly, ERR@10 as ERR does (err): two views per topic.
    result = score_runs(read_qrels(qrels, compact=True), [read_run(run, compact=True)], ["nDCG@10", "ERR@10"],
                        progress=watch)
    assert len(seen) == count and result.mean("r", "nDCG@10") > 0
    assert max(topics for topics, _ in seen) <= 2 and max(indexes for _, indexes in seen) <= 1, seen


@pytest.mark.parametrize("size", [1, 5, 300, 1000])
def test_small_and_large_lookups_of_judged_rows_agree(monkeypatch, size):
    """A few ranked ids are looked up in a dict, many in the hash table: the same rows, ids beyond
    ASCII included (a run's span the line reader read keeps them as UTF-8 bytes)."""
    rng = np.random.default_rng(size)
    pool = [f"doc-{i}" for i in range(2 * size)] + ["caf\u00e9", "na\u00efve-\u4e2d", "x" * 40]
    judged = list(dict.fromkeys(rng.choice(pool, size=size).tolist())) + ["caf\u00e9", "nul\x00", ""]
    ranked = np.array([d.encode() for d in dict.fromkeys(rng.choice(pool, size=size).tolist() + ["x" * 40])],
                      dtype=bytes)
    row_of = {d: i for i, d in enumerate(judged, 1)}
    expected = [row_of.get(d.decode(), 0) for d in ranked.tolist()]
    by_dict = JudgedIndex(judged).rows(ranked)
    monkeypatch.setattr(runfile, "_DICT_LOOKUP", 0)
    by_table = JudgedIndex(judged).rows(ranked)
    assert by_dict.tolist() == by_table.tolist() == expected and by_table.dtype == by_dict.dtype == np.int64
    assert JudgedIndex(["nul\x00"]).rows(np.array([b"nul"])).tolist() == [0]  # a NUL never matches


def test_exact_weights_are_shared_between_topics_not_confused(tmp_path):
    """Topics with the same aspects and weights share one tuple; 0.5 and Fraction(1, 2) stay apart."""
    path = tmp_path / "q.tsv"
    path.write_text('"q1"\t"a"\t1\t"x"\t0.5\n"q1"\t"a"\t1\t"y"\t0.5\n'
                    '"q2"\t"b"\t1\t"x"\t0.5\n"q2"\t"b"\t1\t"y"\t0.5\n'
                    '"q3"\t"c"\t1\t"x"\t0.25\n"q3"\t"c"\t1\t"y"\t0.75\n')
    compact = read_qrels(path, compact=True)
    judgments = compact.grades.judgments
    assert judgments.shape == [0, 0, 1] and len(judgments.shapes) == 2
    assert compact.weights["q1"] == {"x": Fraction(1, 2), "y": Fraction(1, 2)}
    assert type(compact.weights["q1"]["x"]) is Fraction and type(compact.weights["q3"]["x"]) is float
    assert compact.weights == read_qrels(path).weights
    assert Path(compact.source) == path
