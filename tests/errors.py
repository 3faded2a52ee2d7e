"""The one assertion every bad-input test starts from: the call fails with an ``InputError`` whose
message is a single line (what and where, never a traceback)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from axiometer.core import InputError


def one_line_error(call: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """The message of the ``InputError`` that ``call(*args, **kwargs)`` raises, asserted one line."""
    with pytest.raises(InputError) as raised:
        call(*args, **kwargs)
    message = str(raised.value)
    assert "\n" not in message
    return message
