"""Hypothesis profiles: deterministic and bounded by default, as CI runs them; thorough on request.

The default, locally and in CI, is ``ci``: ``derandomize=True`` and a bounded
number of examples, so the README's test command runs what CI runs and never
flakes. ``HYPOTHESIS_PROFILE=thorough`` runs 400 random examples per test with
a fresh seed each run (the README gives both durations); ``fuzz`` runs 5000 per
test (or ``FUZZ_EXAMPLES=N``).
"""

import os
import signal

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, max_examples=60, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "thorough", max_examples=400, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(  # the fuzz tests at a larger budget (tests/test_fuzz.py)
    "fuzz", max_examples=int(os.environ.get("FUZZ_EXAMPLES", "5000")), deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# hypothesis raises unittest's SkipTest when it is told to run no example ("Hypothesis has been told
# to run no test cases"), also from a find() inside a test's body: a shrink that replays nothing
# would then turn the test into a skip, which passes. No test here skips that way on purpose.
_NOTHING_RUN = "Hypothesis has been told to run no test cases"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and call.when == "call" and _NOTHING_RUN in str(report.longrepr):
        report.outcome = "failed"
        report.longrepr = f"{_NOTHING_RUN}: a hypothesis find() in the test ran no example"


@pytest.fixture
def sigint_raises():
    """Ctrl-C (SIGINT) raises ``KeyboardInterrupt`` in this process while the test runs, as it does
    in a terminal. A suite started as a background job (``setsid pytest &``, ``cmd &`` in a
    script) inherits SIGINT ignored, and a test that interrupts a run by sending it SIGINT would
    then wait for the whole run instead; this sets what such a test depends on."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture
def restore_profile():
    """A conftest inside pytester loads a profile in this process: put ours back afterwards."""
    name = settings.get_current_profile_name()
    yield
    settings.load_profile(name)
