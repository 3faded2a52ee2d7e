"""The package a lab depends on and cites (issue 27): one version, a licence, a changelog, a citation.

Building the sdist and the wheel and installing the wheel into a clean environment is
``.ci/package`` (a CI step: it needs the network and a minute of pip); these tests pin what
must stay consistent between the files, so a release cannot say two different things.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import axiometer

ROOT = Path(__file__).resolve().parents[1]


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_is_written_once_and_read_by_the_build_and_by_version():
    project = _project()
    assert "version" not in project["project"], "the version is written in pyproject.toml as well"
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "axiometer.__version__"}
    shown = subprocess.run([sys.executable, "-m", "axiometer", "--version"], capture_output=True,
                           text=True, check=True).stdout
    assert shown.split() == ["axiometer", axiometer.__version__]


def test_the_citation_file_cites_this_version_under_the_package_licence():
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r'^version: "([^"]+)"$', citation, re.M).group(1) == axiometer.__version__
    assert re.search(r"^license: (\S+)$", citation, re.M).group(1) == _project()["project"]["license"]
    assert re.search(r"^cff-version: 1\.2\.0$", citation, re.M)


def test_the_changelog_newest_release_is_this_version():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[(\d[^\]]*)\] - (\d{4}-\d{2}-\d{2})$", changelog, re.M)
    assert releases, "CHANGELOG.md names no release"
    assert releases[0][0] == axiometer.__version__
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r'^date-released: "([^"]+)"$', citation, re.M).group(1) == releases[0][1]


def test_the_licence_file_is_the_licence_the_metadata_names():
    project = _project()["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_the_sdist_takes_what_the_tests_need():
    grafted = set(re.findall(r"^graft (\S+)$", (ROOT / "MANIFEST.in").read_text(encoding="utf-8"), re.M))
    assert {"tests", "docs", "examples", "benchmarks"} <= grafted
    included = re.findall(r"^include (.+)$", (ROOT / "MANIFEST.in").read_text(encoding="utf-8"), re.M)
    assert {"LICENSE", "CHANGELOG.md", "CITATION.cff"} <= set(" ".join(included).split())
