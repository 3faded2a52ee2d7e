"""The intrinsic classification guards a metric author's metric as the constraint checks do."""

import time

from axiometer.intrinsic.classify import classify
from axiometer.cli import main
from axiometer.generators.domains import rankings
from axiometer.metrics import wrap


def _none(ranking, topic):
    return None


def _sleeps(ranking, topic):
    time.sleep(30)
    return 0.0


def test_a_metric_returning_none_is_not_a_pseudometric_with_the_output_named():
    result = classify(wrap(_none), rankings(3))
    assert result.category == "not a pseudometric"
    assert "returned None" in result.note and "(0, 0, 0)" in result.note


def test_a_metric_that_hangs_is_stopped_by_the_per_case_limit():
    started = time.monotonic()
    result = classify(wrap(_sleeps), rankings(2))
    assert result.category == "not a pseudometric"
    assert "took longer than" in result.note
    assert time.monotonic() - started < 30  # stopped, not waited out


def test_the_intrinsic_command_takes_a_module_reference(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "intrinsicmod.py").write_text(
        "def top_heavy(ranking, topic):\n"
        "    return sum(topic.r(d) / (i + 1) ** 2 for i, d in enumerate(ranking))\n")
    assert main(["intrinsic", "intrinsicmod:top_heavy", "--domain", "rankings(n=3)"]) == 0
    out = capsys.readouterr().out
    # Weights 1, 1/4, 1/9 on binary gains: every subset of positions has its own sum.
    assert "ordinal/metric" in out and "every value is attained once" in out
