"""Regenerate this example from the TREC 2014 Web track diversity judgments.

    python generate.py trec2014-web-diversity-qrels.evall.tsv

Keeps 20 judged documents of each of three topics (every EvALL line of those
documents, so each document keeps its grade on every aspect) and writes three
runs of depth 20 with tied scores and unjudged documents. Deterministic
(seeded); the output is what this folder ships.
"""

from __future__ import annotations

import csv
import random
import sys
from pathlib import Path

TOPICS = ("271", "277", "265")  # 1, 2 and 5 aspects
DOCS_PER_TOPIC = 20
DEPTH = 20
HERE = Path(__file__).parent


def main(source: str) -> None:
    rng = random.Random(2014)
    with open(source, newline="", encoding="utf-8") as handle:
        rows = [row for row in csv.reader(handle, delimiter="\t")]
    grade: dict[tuple[str, str], int] = {}  # (topic, doc) -> the document's best grade over aspects
    for topic, doc, g, _, _ in rows:
        grade[topic, doc] = max(grade.get((topic, doc), 0), int(g))
    kept = {}
    for topic in TOPICS:
        docs = sorted(d for t, d in grade if t == topic)
        relevant = [d for d in docs if grade[topic, d] > 0]
        other = [d for d in docs if grade[topic, d] == 0]
        chosen = rng.sample(relevant, min(12, len(relevant)))
        chosen += rng.sample(other, DOCS_PER_TOPIC - len(chosen))
        kept[topic] = chosen
    with open(HERE / "qrels.evall.tsv", "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out, delimiter="\t", quoting=csv.QUOTE_ALL, lineterminator="\n")
        for topic in TOPICS:
            writer.writerows(row for row in rows if row[0] == topic and row[1] in kept[topic])
    # Unjudged documents: judged for other topics of the full file, not for this one.
    strangers = sorted({d for t, d in grade if t not in TOPICS})
    for tag, skill, topics in (("strong", 0.7, TOPICS), ("random", 0.0, TOPICS),
                               ("partial", 0.4, TOPICS[1:])):
        lines = []
        for topic in topics:
            docs = rng.sample(kept[topic], DEPTH - 5) + rng.sample(strangers, 5)
            # Scores on a coarse grid so that ties are common; skill favours relevant documents.
            scored = [(d, round(rng.random() * 4 + skill * 4 * grade.get((topic, d), 0)) / 2)
                      for d in docs]
            scored.sort(key=lambda pair: (pair[1], pair[0]), reverse=True)
            lines += [f"{topic} Q0 {d} {rank} {score:.1f} {tag}"
                      for rank, (d, score) in enumerate(scored, 1)]
        (HERE / f"{tag}.run").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
