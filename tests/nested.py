"""A nested pytest session, as the plugin's tests run one (in this process, with pytester)."""

from __future__ import annotations

import pytest


def run_nested(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """Run pytest in ``pytester``'s directory without the cache, a returned value from a test (which
    the plugin's markers read) being an error rather than a warning."""
    return pytester.runpytest("-p", "no:cacheprovider", "-W", "error::pytest.PytestReturnNotNoneWarning",
                              *args)
