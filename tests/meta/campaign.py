"""A hand-built campaign for the meta-evaluation tests: 4 runs × 6 topics, written as TREC files.

Every topic judges documents d1..d6 (grade 1 for d1, d2 and d3, grade 2 for d1 on the even
topics); the runs rank them so that ``best`` puts the relevant documents first on every
topic, ``worst`` last, ``mixed`` alternates between the two, and ``twin`` repeats ``worst``.
"""

from __future__ import annotations

from pathlib import Path

TOPICS = tuple(f"t{i}" for i in range(1, 7))
RELEVANT = ("d1", "d2", "d3")
NONRELEVANT = ("d4", "d5", "d6")
GOOD = RELEVANT + NONRELEVANT
BAD = NONRELEVANT + RELEVANT
RUNS = {
    "best": {t: GOOD for t in TOPICS},
    "worst": {t: BAD for t in TOPICS},
    "mixed": {t: GOOD if i % 2 else BAD for i, t in enumerate(TOPICS)},
    "twin": {t: BAD for t in TOPICS},
}


def grade(topic: str, doc: str) -> int:
    if doc not in RELEVANT:
        return 0
    return 2 if doc == "d1" and int(topic[1:]) % 2 == 0 else 1


def write_campaign(directory: Path) -> tuple[Path, list[Path]]:
    """The qrels and the four run files under ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    qrels = directory / "qrels.txt"
    qrels.write_text("".join(f"{t} 0 {d} {grade(t, d)}\n" for t in TOPICS for d in GOOD))
    runs = []
    for tag, rankings in RUNS.items():
        path = directory / f"{tag}.run"
        path.write_text("".join(f"{t} Q0 {d} {rank} {10 - rank} {tag}\n"
                                for t, ranking in rankings.items() for rank, d in enumerate(ranking, 1)))
        runs.append(path)
    return qrels, runs
