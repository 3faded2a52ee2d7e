"""Tests of the intrinsic (scale) classification: classify, the parametric analysis, Giner's table."""

import numpy as np

from axiometer.core import Topic
from axiometer.generators.domains import outputs
from axiometer.metrics import wrap
from axiometer.metrics.rbp import RBP

#: Six documents a .. f of one topic, every one relevant: one-document outputs [a] .. [f] of it are
#: scored by hand-made tables in the classification and parametric tests.
TOPIC6 = Topic.single({d: 1 for d in "abcdef"})
#: The six one-document outputs [a] .. [f] of TOPIC6.
SIX = outputs([([d], TOPIC6) for d in "abcdef"], name="six")


def table_metric(values: dict[str, object], name: str = "table"):
    """A float-only function scoring the output's one document from ``values``."""
    return wrap(lambda ranking, topic: float(values[ranking[0]]), name=name)


def labels(records) -> list[str]:
    """The labels of output records, in order."""
    return [r.label for r in records]


class InfBatchRBP(RBP):
    """RBP whose batched scores are inf when the second document is relevant."""

    def score_batch(self, batch):
        return np.where(batch.single[:, 1] > 0, np.inf, super().score_batch(batch))
