"""Every citation of ``docs/definitions.md`` names a section that exists.

Code, docs, help text and tests cite the formal definitions as
``definitions §3`` (a section, or ``§3.5`` a subsection) or link them as
``definitions.md#3-the-ten-constraints``. A citation of a heading that does
not exist fails here, and so does a reference to a SPEC file, which is not in
the repository (users cannot follow it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFINITIONS = ROOT / "docs" / "definitions.md"
#: Where citations live: the package (code, help text, data comments), docs, README, tests, benchmarks.
SEARCHED = ("src", "docs", "README.md", "tests", "benchmarks", "examples")
SUFFIXES = {".py", ".md", ".tsv", ".toml", ".txt"}

CITATION = re.compile(r"definitions\s+§\s*([0-9]+(?:\.[0-9]+)?)((?:\s*(?:,|and)\s*§[0-9]+(?:\.[0-9]+)?)*)")
MORE = re.compile(r"§([0-9]+(?:\.[0-9]+)?)")
LINK = re.compile(r"definitions\.md#([A-Za-z0-9_-]+)")
HEADING = re.compile(r"^(#{2,3})\s+([0-9]+(?:\.[0-9]+)?)\.?\s+(.*?)\s*$")
#: A reference to the internal specification file rather than to the definitions.
SPEC_FILE = re.compile(r"SPEC\.md|\bSPEC sections?\b|\bthe SPEC\b|\bSPEC's\b|\(SPEC\s+section|\bSPEC:")


def sections(text: str) -> set[str]:
    """Section numbers of the headings: ``"3"`` for ``## 3. The ten constraints``, ``"3.5"`` for ``### 3.5 ...``."""
    return {m.group(2) for m in map(HEADING.match, text.splitlines()) if m}


def slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading (GitHub's rule)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    return {slug(line.lstrip("#")) for line in text.splitlines() if re.match(r"^#{1,6}\s", line)}


def cited(text: str) -> Iterator[tuple[int, str]]:
    """(line, section) for every ``definitions §N`` (and ``and §M``) in ``text``."""
    for number, line in enumerate(text.splitlines(), 1):
        for match in CITATION.finditer(line):
            yield number, match.group(1)
            for more in MORE.finditer(match.group(2)):
                yield number, more.group(1)


def files() -> Iterator[Path]:
    for name in SEARCHED:
        path = ROOT / name
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        for candidate in candidates:
            if (candidate.suffix in SUFFIXES and candidate.is_file() and "egg-info" not in str(candidate)
                    and candidate != Path(__file__).resolve()):
                yield candidate


def bad_citations(text: str, where: str, known_sections: set[str], known_anchors: set[str]) -> list[str]:
    problems = [f"{where}:{line}: definitions §{section} has no such heading"
                for line, section in cited(text) if section not in known_sections]
    for number, line in enumerate(text.splitlines(), 1):
        problems += [f"{where}:{number}: definitions.md#{a} has no such heading"
                     for a in LINK.findall(line) if a not in known_anchors]
    return problems


def test_definitions_number_their_sections() -> None:
    text = DEFINITIONS.read_text(encoding="utf-8")
    assert {"1", "2", "3", "4", "5", "6", "7", "8", "9"} <= sections(text)


def test_every_citation_names_an_existing_section() -> None:
    text = DEFINITIONS.read_text(encoding="utf-8")
    known_sections, known_anchors = sections(text), anchors(text)
    problems: list[str] = []
    count = 0
    for path in files():
        content = path.read_text(encoding="utf-8", errors="replace")
        count += sum(1 for _ in cited(content)) + len(LINK.findall(content))
        problems += bad_citations(content, str(path.relative_to(ROOT)), known_sections, known_anchors)
    assert problems == []
    assert count > 100  # the code does cite them: a broken pattern must not pass by finding nothing


def test_no_reference_to_a_spec_file() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in files()
             for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if SPEC_FILE.search(line)]
    assert found == []


def test_a_missing_section_is_caught() -> None:
    """The test of the test: citations of headings that do not exist are reported, real ones are not."""
    known = {"3", "3.5"}
    text = "as definitions §3 says\nsee definitions §3.5 and §12\ndefinitions §42\n[x](definitions.md#3-nope)"
    assert bad_citations(text, "f", known, {"3-the-ten-constraints"}) == [
        "f:2: definitions §12 has no such heading", "f:3: definitions §42 has no such heading",
        "f:4: definitions.md#3-nope has no such heading"]
    assert SPEC_FILE.search("see the SPEC's table") and SPEC_FILE.search("(SPEC section 3)")
    assert not SPEC_FILE.search('metavar="SPEC"') and not SPEC_FILE.search("(SPEC and --domain not needed)")
