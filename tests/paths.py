"""Where the tests find the project's shared data.

``shared/`` sits beside the repository (on CI, beside the fresh clone), so
paths are computed from this file, never hard-coded; ``AXIOMETER_SHARED``
overrides the location.
"""

import os
from pathlib import Path

SHARED = Path(os.environ.get("AXIOMETER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
SHARED_DATA = SHARED / "data"
QRELS_2014 = SHARED_DATA / "trec2014-web-diversity-qrels.evall.tsv"
RBU_REFERENCE = SHARED_DATA / "rbu-reference"
