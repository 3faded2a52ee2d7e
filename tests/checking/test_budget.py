"""The budget (issue 14): the one-line budget description that heads every table and check report,
and the per-check seeds."""

from __future__ import annotations

from axiometer.checking.budget import QUICK, Budget, cell_seed


def test_the_default_budget_reads_in_one_line():
    assert Budget().describe() == ("1500 random + up to 400 small-scope cases per setting, 10 s, horizon 1024; "
                                   "non-built-ins: 2 s per case, 1024 MB")
    assert QUICK.describe() == ("40 random + up to 120 small-scope cases per setting, 3 s, horizon 256; "
                                "non-built-ins: 2 s per case, 1024 MB")


def test_the_limits_on_metric_authors_metrics_are_said_only_when_set():
    assert Budget(seconds=2.5, case_seconds=None, worker_mb=None).describe() == \
        "1500 random + up to 400 small-scope cases per setting, 2.5 s, horizon 1024"
    assert Budget(case_seconds=0.25, worker_mb=None).describe().endswith(
        "horizon 1024; non-built-ins: 0.25 s per case")
    assert Budget(case_seconds=None, worker_mb=256).describe().endswith("horizon 1024; non-built-ins: 256 MB")


def test_a_cell_seed_is_the_first_8_bytes_of_a_sha256_read_big_endian():
    # The reference digests are coreutils' sha256sum of the parts joined by the unit separator 0x1f:
    #   printf '0\x1fPri\x1fP@2' | sha256sum                            -> 5f2fa834129747bd...
    #   printf '12\x1fCloseTh\x1fRBP(p=0.5)\x1fwindow' | sha256sum      -> 8e465031f4017dab...
    #   printf '0' | sha256sum (no parts)                               -> 5feceb66ffc86f38...
    assert cell_seed(0, "Pri", "P@2") == 0x5f2fa834129747bd
    assert cell_seed(12, "CloseTh", "RBP(p=0.5)", "window") == 0x8e465031f4017dab
    assert cell_seed(0) == 0x5feceb66ffc86f38
