"""Hypothesis profiles: deterministic and bounded in CI, thorough locally.

CI (the ``CI`` environment variable set) uses ``ci``: ``derandomize=True`` and
a bounded number of examples, so a CI run never flakes. Locally the default is
``thorough``; choose another with ``HYPOTHESIS_PROFILE=ci`` (or ``fuzz``, 5000 examples
per test, or ``FUZZ_EXAMPLES=N`` of them).
"""

import os

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
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "thorough"))
