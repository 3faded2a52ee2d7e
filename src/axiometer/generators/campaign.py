"""Synthetic evaluation campaigns: multi-aspect graded topics and many runs.

A campaign is what a TREC track hands out after judging: topics with
integer-graded, multi-aspect judgments and, per participating system, one
ranking per topic. :func:`generate_campaign` builds one deterministically from
a seed; its shape defaults to the TREC 2014 Web track diversity task
(definitions §9): 50 topics, 1 to 7 aspects each with balanced weights
``1/|T|``, grades 0 to 4, 175 to 457 judged documents per topic, about half
of them relevant, every judged document judged on every aspect.

Each run mixes judged relevant, judged non-relevant and unjudged documents:
a run ``s`` scores every candidate document ``d`` of a topic with

    quality_s * g(d) / gmax + pooled_s * [d judged] + N(0, 1)

(``g(d)`` the document's largest grade over aspects) and ranks the ``depth``
best. ``quality_s`` spreads systems from weak to strong; ``pooled_s`` lifts
judged documents as pooling does (judged documents are the ones systems
retrieved high). Each topic has ``depth`` unjudged candidates, so every
ranking holds exactly ``depth`` distinct documents.

Generation is seeded with :class:`numpy.random.SeedSequence`, one child
sequence per topic: topic ``i``'s judgments depend only on the seed, ``i`` and
the judgment ranges, so a campaign with more topics (or runs) extends one with
fewer instead of reshuffling it.

:func:`write_trec` writes the campaign as TREC qrels, TREC diversity qrels and
one TREC run file per system, for command-line benchmarks and reader tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from axiometer.core import Ranking, Topic, ValidationError
from axiometer.grades import DEFAULT_MAPPING, topic_from_grades

__all__ = ["Campaign", "CampaignFiles", "generate_campaign", "write_trec"]

GradeTable = dict[str, dict[str, dict[str, int]]]

#: Probability ratio between consecutive positive grades (grade g+1 is this
#: much rarer than g): 0.35 gives 1:0.35:0.12:0.04 for grades 1..4, close to
#: the TREC 2014 Web diversity judgments (7358:2812:424:35).
GRADE_DECAY = 0.35

#: Share of a non-relevant document's judgments that get the scale's negative
#: minimum (TREC's -2 "spam") when the scale has one.
SPAM_FRACTION = 0.05


@dataclass(frozen=True)
class Campaign:
    """Topics, their integer grades, and runs.

    ``topics[qid]`` is the :class:`Topic` under ``mapping`` with scale
    maximum ``gmax``; ``grades[qid][doc][aspect]`` the integer grade it came
    from (feed this to trec_eval/ndeval); ``runs[tag][qid]`` a ranking.
    """

    topics: dict[str, Topic]
    grades: GradeTable
    runs: dict[str, dict[str, Ranking]]
    mapping: str
    gmax: int
    depth: int
    seed: int

    @property
    def qids(self) -> tuple[str, ...]:
        return tuple(self.topics)

    @property
    def run_tags(self) -> tuple[str, ...]:
        return tuple(self.runs)

    def topics_under(self, mapping: str) -> dict[str, Topic]:
        """The same judgments read with another grade mapping (same ``gmax``)."""
        if mapping == self.mapping:
            return self.topics
        return {qid: topic_from_grades(
                    qid, table, dict(zip(self.topics[qid].aspects, self.topics[qid].weights)),
                    mapping=mapping, gmax=self.gmax)
                for qid, table in self.grades.items()}

    def rankings(self, qid: str) -> list[Ranking]:
        """Every run's ranking for ``qid``, in run order (one batch's input)."""
        return [per_topic[qid] for per_topic in self.runs.values()]


def _pair(value: tuple[int, int] | int, what: str) -> tuple[int, int]:
    low, high = (value, value) if isinstance(value, int) else value
    if low > high:
        raise ValidationError(f"{what}: empty range ({low}, {high})")
    return int(low), int(high)


def _grade_probabilities(gmax: int) -> np.ndarray:
    """P(grade = g | relevant) for g = 1..gmax, decaying geometrically."""
    weights = GRADE_DECAY ** np.arange(gmax)
    return weights / weights.sum()


def _judgments(rng: np.random.Generator, n_docs: int, n_aspects: int, gmin: int, gmax: int,
               relevant: float, spread: float) -> np.ndarray:
    """Integer grades, shape ``(n_docs, n_aspects)``.

    A relevant document is relevant to one aspect drawn uniformly and to each
    other aspect with probability ``spread``; its relevant aspects get grades
    from :func:`_grade_probabilities`. Non-relevant documents get 0 (or, on a
    scale with a negative minimum, that minimum for a few "spam" documents).
    """
    is_relevant = rng.random(n_docs) < relevant
    on_aspect = rng.random((n_docs, n_aspects)) < spread
    on_aspect[np.arange(n_docs), rng.integers(0, n_aspects, n_docs)] = True
    on_aspect &= is_relevant[:, None]
    positive = rng.choice(np.arange(1, gmax + 1), size=(n_docs, n_aspects),
                          p=_grade_probabilities(gmax))
    grades = np.where(on_aspect, positive, 0)
    if gmin < 0:
        spam = ~is_relevant & (rng.random(n_docs) < SPAM_FRACTION)
        grades[spam] = gmin
    return grades


def generate_campaign(topics: int = 50, runs: int = 50, depth: int = 1000,
                      judged: tuple[int, int] | int = (175, 457),
                      aspects: tuple[int, int] | int = (1, 7),
                      grades: tuple[int, int] = (0, 4), seed: int = 0, *,
                      relevant: float = 0.45, spread: float = 0.25,
                      mapping: str = DEFAULT_MAPPING) -> Campaign:
    """A deterministic synthetic campaign (see the module docstring).

    ``judged``, ``aspects`` and ``grades`` are inclusive ``(low, high)``
    ranges (an int means exactly that many): judged documents per topic,
    aspects per topic, and the grade scale (``high`` is ``gmax``; a negative
    ``low`` marks a few non-relevant documents with it, like TREC's spam
    grade). ``relevant`` is the share of judged documents that are relevant
    (to at least one aspect); ``spread`` the chance that a relevant document
    is also relevant to each other aspect. Topics use ``mapping`` with the
    scale maximum as ``gmax``.
    """
    j_low, j_high = _pair(judged, "judged")
    a_low, a_high = _pair(aspects, "aspects")
    g_low, g_high = _pair(grades, "grades")
    if topics < 0 or runs < 0 or depth < 0:
        raise ValidationError("topics, runs and depth must be >= 0")
    if j_low < 0 or a_low < 1:
        raise ValidationError("need judged >= 0 documents and aspects >= 1 per topic")
    if not g_low <= 0 < g_high:
        raise ValidationError(f"grades: the scale {grades} must include 0 and a positive grade")
    if not 0 <= relevant <= 1 or not 0 <= spread <= 1:
        raise ValidationError("relevant and spread are probabilities in [0, 1]")

    judgment_seeds, run_seeds = np.random.SeedSequence(seed).spawn(2)
    system_seed, *ranking_seeds = run_seeds.spawn(topics + 1)
    system_rng = np.random.default_rng(system_seed)
    quality = system_rng.uniform(0.2, 3.0, runs)
    pooled = system_rng.uniform(0.0, 2.0, runs)
    tags = [f"run{s + 1:03d}" for s in range(runs)]

    topic_map: dict[str, Topic] = {}
    grade_table: GradeTable = {}
    rankings: dict[str, dict[str, Ranking]] = {tag: {} for tag in tags}
    width = len(str(topics))
    for i, (judge_seed, rank_seed) in enumerate(
            zip(judgment_seeds.spawn(topics), ranking_seeds), 1):
        qid = f"q{i:0{width}d}"
        rng = np.random.default_rng(judge_seed)
        n_aspects = int(rng.integers(a_low, a_high + 1))
        n_judged = int(rng.integers(j_low, j_high + 1))
        names = tuple(str(t) for t in range(1, n_aspects + 1))
        table = _judgments(rng, n_judged, n_aspects, g_low, g_high, relevant, spread)

        # Candidates: judged documents, then `depth` unjudged ones; the doc ids
        # are a shuffled numbering so that an id reveals nothing about its judgment.
        n_candidates = n_judged + depth
        numbers = rng.permutation(n_candidates)
        id_width = len(str(n_candidates))
        docs = np.array([f"{qid}-d{n:0{id_width}d}" for n in numbers], dtype=object)
        per_doc = {str(doc): dict(zip(names, map(int, row)))
                   for doc, row in zip(docs[:n_judged], table)}
        grade_table[qid] = per_doc
        weights = {t: Fraction(1, n_aspects) for t in names}
        topic_map[qid] = topic_from_grades(qid, per_doc, weights, mapping=mapping, gmax=g_high)

        # Runs: score every candidate, keep the `depth` best, best first.
        best = np.zeros(n_candidates)
        best[:n_judged] = np.maximum(table.max(axis=1, initial=0), 0) / g_high
        judged_flag = np.zeros(n_candidates)
        judged_flag[:n_judged] = 1.0
        noise = np.random.default_rng(rank_seed).standard_normal((runs, n_candidates))
        scores = quality[:, None] * best + pooled[:, None] * judged_flag + noise
        n_kept = min(depth, n_candidates)
        top = np.argpartition(-scores, n_kept - 1, axis=1)[:, :n_kept] if n_kept else \
            np.zeros((runs, 0), dtype=np.int64)
        order = np.take_along_axis(
            top, np.argsort(-np.take_along_axis(scores, top, axis=1), axis=1, kind="stable"), axis=1)
        for tag, row in zip(tags, order):
            rankings[tag][qid] = Ranking(docs[row].tolist())

    return Campaign(topic_map, grade_table, rankings, mapping, g_high, depth, seed)


@dataclass(frozen=True)
class CampaignFiles:
    """Where :func:`write_trec` put the campaign."""

    qrels: Path
    diversity_qrels: Path
    runs: dict[str, Path]


def write_trec(campaign: Campaign, directory: str | Path) -> CampaignFiles:
    """Write TREC files (definitions §9) under ``directory``.

    - ``qrels.txt``: ``qid 0 docno grade``, the grade being the document's
      largest over aspects (the single-aspect view trec_eval sees);
    - ``qrels.diversity.txt``: ``qid subtopic docno grade``, one line per
      judged (document, aspect);
    - ``runs/<tag>.run``: ``qid Q0 docno rank score tag`` with strictly
      decreasing integer scores, so every reader's tie rule gives the same order.
    """
    root = Path(directory)
    (root / "runs").mkdir(parents=True, exist_ok=True)
    qrels = root / "qrels.txt"
    diversity = root / "qrels.diversity.txt"
    qrels.write_text("".join(
        f"{qid} 0 {doc} {max(per.values())}\n"
        for qid, table in campaign.grades.items() for doc, per in table.items()))
    diversity.write_text("".join(
        f"{qid} {aspect} {doc} {grade}\n"
        for qid, table in campaign.grades.items()
        for doc, per in table.items() for aspect, grade in per.items()))
    paths = {}
    for tag, per_topic in campaign.runs.items():
        path = root / "runs" / f"{tag}.run"
        path.write_text("".join(
            f"{qid} Q0 {doc} {rank} {len(ranking) - rank + 1} {tag}\n"
            for qid, ranking in per_topic.items()
            for rank, doc in enumerate(ranking, 1)))
        paths[tag] = path
    return CampaignFiles(qrels, diversity, paths)

