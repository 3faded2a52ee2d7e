"""Tests of the intrinsic (scale) classification: classify, the parametric analysis, Giner's table."""

from axiometer.core import Topic

#: Six documents a .. f of one topic, every one relevant: one-document outputs [a] .. [f] of it are
#: scored by hand-made tables in the classification and parametric tests.
TOPIC6 = Topic.single({d: 1 for d in "abcdef"})
