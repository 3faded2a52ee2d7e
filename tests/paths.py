"""Where the tests find their data: ``tests/data/``, inside the repository.

Paths are computed from this file's location, never hard-coded, so a fresh
clone finds them wherever it is; nothing is read from outside the tree.
``tests/data/README.md`` says what each file is and where it comes from.
"""

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
QRELS_2014 = DATA / "trec2014-web-diversity-qrels.evall.tsv"
RBU_REFERENCE = DATA / "rbu-reference"
