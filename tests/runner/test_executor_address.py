"""``--executor`` addresses (issue 29): split by ``urllib.parse``, a well-formed one gives the scheduler's
TCP address and anything malformed one error line, never a traceback and never a silent guess.
No Dask is needed: an address is read before anything connects."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from axiometer.core import InputError
from axiometer.runner.executors import DASK_PORT, scheduler_address
from tests.cli_run import run_cli

EXPECTED = "expected dask://HOST:PORT (a Dask scheduler's address)"


@pytest.mark.parametrize("url, address", [
    ("dask://10.0.0.1:8786", "tcp://10.0.0.1:8786"),
    ("dask://scheduler", f"tcp://scheduler:{DASK_PORT}"),
    ("dask://scheduler:", f"tcp://scheduler:{DASK_PORT}"),
    ("dask://scheduler:1/", "tcp://scheduler:1"),
    ("DASK://Scheduler.Example.ORG:65535", "tcp://scheduler.example.org:65535"),
    ("dask://dask_scheduler:8786", "tcp://dask_scheduler:8786"),  # a container network's service name
    ("dask://höst:8786", "tcp://xn--hst-sna:8786"),
    ("dask://[::1]:8786", "tcp://[::1]:8786"),  # an IPv6 address keeps its brackets
    ("dask://[::1]", f"tcp://[::1]:{DASK_PORT}"),
])
def test_a_scheduler_s_address_is_read_as_a_connection_names_it(url, address):
    assert scheduler_address(url) == address


MALFORMED = [
    ("", EXPECTED),
    ("dask://", EXPECTED),
    ("dask:host:1", EXPECTED),
    ("tcp://host:8786", EXPECTED),
    ("http://host:8786", EXPECTED),
    ("dask://:8786", EXPECTED),
    ("dask://[::1", f"{EXPECTED}; Invalid IPv6 URL"),
    ("dask://host:notaport", "the port is not a number from 1 to 65535"),
    ("dask://host:99999", "the port is not a number from 1 to 65535"),
    ("dask://host:0", "the port is not a number from 1 to 65535"),
    ("dask://host:-1", "the port is not a number from 1 to 65535"),
    ("dask://host:１２", "the port is not a number from 1 to 65535"),
    ("dask://host:8786:1", f"{EXPECTED}; 'host:8786:1' names no host"),
    ("dask://::1:8786", f"{EXPECTED}; '::1:8786' names no host"),
    ("dask://[::1]x:8786", f"{EXPECTED}; '[::1]x:8786' names no host"),
    ("dask://a..b:8786", f"{EXPECTED}; 'a..b:8786' names no host"),
    ("dask://-a:8786", f"{EXPECTED}; '-a:8786' names no host"),
    ("dask://%41:8786", f"{EXPECTED}; '%41:8786' names no host"),
    ("dask://ho st:8786", f"{EXPECTED}, without spaces or control characters"),
    ("dask://host:8786 ", f"{EXPECTED}, without spaces or control characters"),
    ("dask://\nhost:8786", f"{EXPECTED}, without spaces or control characters"),  # urlsplit drops a \n
    ("dask://host\x00:8786", f"{EXPECTED}, without spaces or control characters"),
    ("dask://user:secret@host:8786", f"{EXPECTED}, without a user name or password"),
    ("dask://host:8786/path", f"{EXPECTED}, with nothing after the port"),
    ("dask://host:8786?timeout=1", f"{EXPECTED}, with nothing after the port"),
    ("dask://host:8786#x", f"{EXPECTED}, with nothing after the port"),
]


@pytest.mark.parametrize("url, problem", MALFORMED)
def test_a_malformed_address_says_what_is_wrong_in_one_line(url, problem):
    with pytest.raises(InputError) as raised:
        scheduler_address(url)
    assert str(raised.value).startswith(f"--executor {url!r}: {problem}")
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("url, problem", MALFORMED[::3])
def test_the_cli_refuses_a_malformed_address_in_one_line_before_connecting(capsys, url, problem):
    status, out, err = run_cli(capsys, "check", "P@10", "--quick", "--executor", url)
    assert status == 2 and out == ""
    assert err.strip().startswith(f"axiometer: error: --executor {url!r}: {problem}")
    assert len(err.strip().splitlines()) == 1


@given(st.text(max_size=40) | st.builds("dask://{}".format, st.text(max_size=30)))
def test_any_text_is_an_address_that_reads_back_or_one_error_line(url):
    try:
        address = scheduler_address(url)
    except InputError as error:
        assert "\n" not in str(error)
        return
    parts = urlsplit(address)
    assert parts.scheme == "tcp" and parts.hostname and 1 <= (parts.port or 0) <= 65535
    assert address.isascii() and address.isprintable()
