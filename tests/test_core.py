from fractions import Fraction

import pytest

from axiometer.core import (Context, DuplicateDocumentError, Ranking, Topic, ValidationError,
                            to_fraction)


def test_topic_views_and_R():
    topic = Topic({"a": {"t1": 0.5, "t2": 0.2}, "b": {"t2": 0.1}, "c": {"t1": 0}},
                  {"t1": 0.7, "t2": 0.3})
    assert topic.r("a") == 0.5 and topic.r("a", "t2") == 0.2
    assert topic.r("unjudged") == 0 and topic.r("unjudged", "t1") == 0
    assert topic.rel("b") and not topic.rel("c")
    assert topic.R == 2
    assert topic.single_aspect_view().aspects == ("*",)
    assert topic.single_aspect_view().r("a") == 0.5
    assert topic.binary_view().r("b", "t2") == 1
    assert topic.restrict("t2").r("a") == 0.2
    assert topic.is_judged("c") and not topic.is_judged("zz")


def test_default_weights_are_balanced_and_exact():
    topic = Topic({"a": {"x": 1}, "b": {"y": 1}, "c": {"z": 1}})
    assert topic.weights == (Fraction(1, 3),) * 3
    assert topic.aspects == ("x", "y", "z")


@pytest.mark.parametrize("judgments, weights, message", [
    ({"a": {"t": 1}}, {"t": 0.5}, "sum to"),
    ({"a": {"t": 1.5}}, None, "outside [0, 1]"),
    ({"a": {"t": float("nan")}}, None, "NaN"),
    ({"a": {"u": 1}}, {"t": 1}, "unknown aspect 'u'"),
    ({"a": {"t": 1}}, {"t": 0, "u": 1}, "must be > 0"),
    ({"a": {"t": "1"}}, None, "must be a number"),
])
def test_topic_validation(judgments, weights, message):
    with pytest.raises(ValidationError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Topic(judgments, weights, "q1")


def test_topic_is_immutable_and_hashable():
    a = Topic.single({"d1": 1, "d2": 0.5})
    b = Topic.single({"d2": 0.5, "d1": 1})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.R = 5


def test_ranking_rejects_duplicates_with_positions():
    with pytest.raises(DuplicateDocumentError, match=r"'d1'.*positions 1 and 3"):
        Ranking(["d1", "d2", "d1"])
    ranking = Ranking(["d1", "d2"])
    assert ranking == ("d1", "d2") and hash(ranking) == hash(("d1", "d2"))
    with pytest.raises(ValidationError):
        Ranking([1, 2])


def test_context_labels():
    context = Context((Ranking(["a"]), ["b", "c"]))
    assert context.labels == ("s1", "s2") and isinstance(context.rankings[1], Ranking)
    with pytest.raises(ValidationError):
        Context((Ranking(["a"]),), ("x", "y"))


def test_to_fraction_reads_floats_as_decimals():
    assert to_fraction(0.1) == Fraction(1, 10)
    assert to_fraction(0.8) == Fraction(4, 5)
    assert to_fraction(Fraction(1, 3)) == Fraction(1, 3)
    with pytest.raises(ValidationError):
        to_fraction(float("inf"))


# -- Topic.trusted and the float views (issue 15: generated cases built and scored cheaply) ------

def test_trusted_equals_the_validated_topic_one_aspect_and_several():
    one = {"a": (Fraction(1, 3),), "b": (Fraction(0),), "c": (Fraction(1),)}
    assert Topic.trusted(one, ("*",), (Fraction(1),)) == Topic({d: {"*": v[0]} for d, v in one.items()},
                                                               {"*": 1})
    built = Topic.trusted(one, ("*",), (Fraction(1),))
    assert (built.R, built.r("a"), built.r("b"), built.relevant) == (2, Fraction(1, 3), 0, ("a", "c"))
    two = {"a": (Fraction(1, 3), Fraction(1, 2)), "b": (Fraction(0), Fraction(0)), "c": (Fraction(0), Fraction(1, 5))}
    weights = (Fraction(1, 4), Fraction(3, 4))
    trusted = Topic.trusted(two, ("s", "t"), weights)
    validated = Topic({d: dict(zip("st", v)) for d, v in two.items()}, dict(zip("st", weights)))
    assert trusted == validated
    assert (trusted.R, trusted.r("a"), trusted.r("c"), trusted.r("b")) == (2, Fraction(1, 2), Fraction(1, 5), 0)


def test_float_views_round_each_value_once_and_read_zero_for_unjudged():
    topic = Topic({"a": {"s": Fraction(1, 3), "t": Fraction(2, 3)}, "b": {"s": 0}},
                  {"s": Fraction(1, 3), "t": Fraction(2, 3)})
    assert topic.float_vector("a") == (1 / 3, 2 / 3) and topic.float_vector("b") == (0.0, 0.0)
    assert topic.float_vector("unjudged") == (0.0, 0.0)
    assert (topic.float_r("a"), topic.float_r("b"), topic.float_r("unjudged")) == (2 / 3, 0.0, 0.0)
    assert topic.float_weights == (1 / 3, 2 / 3)
    assert all(type(x) is float for x in topic.float_vector("a") + topic.float_weights)
    single = Topic.single({"x": Fraction(1, 10), "y": 1})
    assert (single.float_r("x"), single.float_vector("y"), single.float_r("z")) == (0.1, (1.0,), 0.0)


def test_a_topic_with_its_float_views_filled_pickles_and_stays_equal():
    import pickle

    topic = Topic({"a": {"s": Fraction(1, 3)}, "b": {"s": 1}}, {"s": 1})
    topic.float_vector("a")  # fills the cache
    hash(topic)
    copy = pickle.loads(pickle.dumps(topic))
    assert copy == topic and hash(copy) == hash(topic) and copy.float_r("a") == 1 / 3
    with pytest.raises(AttributeError):
        copy.R = 3


def test_views_of_a_valid_topic_equal_the_validated_single_aspect_topics():
    topic = Topic({"a": {"s": Fraction(1, 3), "t": Fraction(1, 2)}, "b": {"s": 0, "t": 0}}, {"s": 0.5, "t": 0.5},
                  "q1")
    assert topic.restrict("s") == Topic.single({"a": Fraction(1, 3), "b": 0}, "q1")
    assert topic.restrict("t").R == 1 and topic.restrict("s").r("a") == Fraction(1, 3)
    view = topic.single_aspect_view()
    assert view == Topic.single({"a": Fraction(1, 2), "b": 0}, "q1") and view.R == 1
    assert hash(view) == hash(Topic.single({"a": Fraction(1, 2), "b": 0}, "q1"))


# -- CachedFraction: the generators' relevance values (issue 15) ------------------------------------

def test_cached_fraction_orders_and_equals_exactly_like_fraction():
    import itertools
    import operator

    from hypothesis import given
    from hypothesis import strategies as st

    from axiometer.core import CachedFraction, cached

    third = Fraction(1, 3)
    near = Fraction(6004799503160661, 18014398509481984)  # float(near) == float(1/3), near != 1/3
    assert float(near) == float(third) and near != third
    values = [0, 1, Fraction(0), third, near, Fraction(1, 10), Fraction(-1, 10), Fraction(2, 6), 0.25]
    ops = (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne)
    for x, y in itertools.product(values, repeat=2):
        for cx, cy in ((cached(x), y), (x, cached(y)), (cached(x), cached(y))):
            for op in ops:
                assert op(cx, cy) == op(to_fraction(x), to_fraction(y)), (op, x, y)

    @given(st.fractions(), st.fractions())
    def agrees(x, y):
        cx, cy = CachedFraction(x), CachedFraction(y)
        assert [op(cx, cy) for op in ops] == [op(x, y) for op in ops]
        assert (cx == cy) == (hash(cx) == hash(cy)) or cx != cy
        assert hash(cx) == hash(x) and float(cx) == float(x)

    agrees()


def test_cached_fraction_keeps_its_float_pickles_and_computes_plain_fractions():
    import pickle

    from axiometer.core import CachedFraction, cached

    value = cached(0.1)
    assert value == Fraction(1, 10) and float(value) == 0.1 and type(value) is CachedFraction
    assert cached(value) is value
    again = pickle.loads(pickle.dumps(value))
    assert type(again) is CachedFraction and again == value and float(again) == 0.1
    assert type(value + value) is Fraction and value * 2 == Fraction(1, 5)
    assert str(value) == "1/10" and {value: 1}[Fraction(1, 10)] == 1
    assert max(cached(0), cached(Fraction(1, 2)), cached(Fraction(1, 3))) == Fraction(1, 2)
