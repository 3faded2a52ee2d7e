"""The docs site (mkdocs.yml, docs/_build/): what the strict build in .ci/run relies on, checked fast.

``.ci/run`` builds the whole site once with ``mkdocs build --strict``; these tests pin the
parts a reader depends on without building it again: every page of docs/ is in the
navigation, every link that leaves docs/ reaches a page the site publishes, the CLI reference
holds every command and option of the real parser with its help shown literally, and the
gallery draws every kind of picture the reports draw. The build's modules are loaded from
docs/_build/ by path (they are not part of the package).
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import os
import posixpath
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml
from markdown_it import MarkdownIt

from axiometer.cli import _parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BUILD = DOCS / "_build"


def build_module(name: str) -> ModuleType:
    """docs/_build/NAME.py, imported under a name of its own."""
    spec = importlib.util.spec_from_file_location(f"axiometer_docs_build_{name}", BUILD / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


repository_links = build_module("repository_links")
cli_reference = build_module("cli_reference")
gallery = build_module("gallery")


class _ConfigLoader(yaml.SafeLoader):
    """mkdocs.yml as data: its ``!!python/...`` tags (the slugify function) read as ``None``."""


_ConfigLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def nav_pages() -> list[str]:
    """Every page the navigation of mkdocs.yml lists, as a path on the site."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_ConfigLoader)

    def walk(entries: object) -> list[str]:
        if isinstance(entries, str):
            return [entries]
        if isinstance(entries, list):
            return [page for entry in entries for page in walk(entry)]
        if isinstance(entries, dict):
            return [page for value in entries.values() for page in walk(value)]
        raise AssertionError(f"unexpected nav entry {entries!r}")

    return walk(config["nav"])


def docs_pages() -> set[str]:
    """Every Markdown page in docs/ (its build code in docs/_build/ aside), as a path on the site."""
    return {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")
            if BUILD not in path.parents}


# -- the navigation ---------------------------------------------------------------------------------

def test_every_page_of_docs_and_every_published_repository_page_is_in_the_nav_once():
    listed = nav_pages()
    assert len(listed) == len(set(listed)), "a page is listed twice"
    published = set(repository_links.REPOSITORY_PAGES.values())
    missing_from_nav = (docs_pages() | published) - set(listed)
    assert missing_from_nav == set()
    nothing_behind = set(listed) - docs_pages() - published
    assert nothing_behind == set()


def test_every_repository_page_the_site_publishes_exists():
    for repository_path in repository_links.REPOSITORY_PAGES:
        assert (ROOT / repository_path).is_file(), repository_path


# -- links written for the repository ---------------------------------------------------------------

@pytest.mark.parametrize("page, site_uri, link, expected", [
    ("docs/formats.md", "formats.md", "../benchmarks/README.md#speed", "repository/benchmarks/README.md#speed"),
    ("docs/conventions-rbu.md", "conventions-rbu.md", "../tests/data/README.md", "repository/tests/data/README.md"),
    ("docs/pytest-plugin.md", "pytest-plugin.md", "../examples/metric-author/",
     "repository/examples/metric-author/README.md"),
    ("docs/index.md", "index.md", "../README.md", "getting-started.md"),
    ("README.md", "getting-started.md", "docs/proofs.md", "proofs.md"),
    ("README.md", "getting-started.md", "docs/images/report.png", "images/report.png"),
    ("README.md", "getting-started.md", "docs/cli.md#axiometer-score", "cli.md#axiometer-score"),
    ("examples/metric-author/README.md", "repository/examples/metric-author/README.md", "../../README.md",
     "../../../getting-started.md"),
    ("examples/metric-author/README.md", "repository/examples/metric-author/README.md",
     "../../docs/cli.md#x", "../../../cli.md#x"),
    ("tests/data/README.md", "repository/tests/data/README.md", "trec_eval/README.md", "trec_eval/README.md"),
])
def test_a_link_to_a_published_file_points_at_its_page_on_the_site(page, site_uri, link, expected):
    assert repository_links.rewrite_links(f"see [it]({link}).", page, site_uri) == f"see [it]({expected})."


@pytest.mark.parametrize("link", ["https://pypi.org/project/mutmut/", "#end-to-end", "../src/axiometer/core.py",
                                  "/absolute.md", "mailto:someone@example.org"])
def test_links_to_the_web_within_the_page_or_to_unpublished_files_are_left_as_written(link):
    text = f"[a]({link}) and ![b]({link})"
    assert repository_links.rewrite_links(text, "docs/formats.md", "formats.md") == text


def test_links_inside_fenced_code_are_text():
    text = "```markdown\n[the README](../README.md)\n```\n[the README](../README.md)"
    assert repository_links.rewrite_links(text, "docs/index.md", "index.md") == \
        "```markdown\n[the README](../README.md)\n```\n[the README](getting-started.md)"


def published_page_sources() -> dict[str, str]:
    """Every page the site has from a file: site path -> repository path."""
    pages = {page: f"docs/{page}" for page in docs_pages()}
    pages.update({site: repository for repository, site in repository_links.REPOSITORY_PAGES.items()})
    return pages


def test_every_link_that_leaves_docs_reaches_a_page_the_site_publishes():
    # mkdocs --strict fails on such a link too; this names every one at once, without a build.
    link = re.compile(r"\]\(([^)\s#]+)")
    leaving = []
    for site_uri, repository_path in published_page_sources().items():
        text = (ROOT / repository_path).read_text(encoding="utf-8")
        rewritten = repository_links.rewrite_links(text, repository_path, site_uri)
        outside_fences = re.sub(r"^\s*```.*?^\s*```", "", rewritten, flags=re.S | re.M)
        for target in link.findall(outside_fences):
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("/"):
                continue
            if posixpath.normpath(posixpath.join(posixpath.dirname(site_uri), target)).startswith(".."):
                leaving.append(f"{repository_path}: {target}")
    assert leaving == []


# -- the CLI reference ------------------------------------------------------------------------------

def parser_commands(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> dict[str, argparse.ArgumentParser]:
    """Every command of the program, by its words ("axiometer plot threshold"), read from argparse."""
    found = {" ".join(words): parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, subparser in action.choices.items():
                found.update(parser_commands(subparser, (*words, name)))
    return found


def rendered_sections(markdown: str) -> dict[str, str]:
    """The page as a reader sees it (rendered as CommonMark, then as plain text), by section:
    heading -> the text under it."""
    parts = re.split(r"^#{2,6} (.+)$", markdown, flags=re.M)
    renderer = MarkdownIt("commonmark")

    def text(part: str) -> str:
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", renderer.render(part))).split())

    return {heading: text(body) for heading, body in zip(parts[1::2], parts[2::2])}


def test_cli_reference_shows_every_command_and_option_with_its_help_as_written():
    parser = _parser()
    commands = parser_commands(parser, ("axiometer",))
    assert {"axiometer score", "axiometer check", "axiometer plot threshold", "axiometer audit"} <= set(commands)
    sections = rendered_sections(cli_reference.cli_reference(parser))
    assert set(sections) == set(commands)
    for name, command in commands.items():
        shown = sections[name]
        for action in command._actions:
            if action.help == argparse.SUPPRESS or isinstance(action, (argparse._HelpAction,
                                                                       argparse._SubParsersAction)):
                continue
            for word in action.option_strings or [action.metavar or action.dest]:
                assert word in shown, f"{name}: {word}"
            if action.help:
                expected = " ".join((action.help % {**vars(action), "prog": command.prog}).split())
                assert expected in shown, f"{name} {action.option_strings}: the help as written"


def test_cli_reference_leaves_out_hidden_options():
    table = parser_commands(_parser(), ("axiometer",))["axiometer table"]
    hidden = [option for action in table._actions if action.help == argparse.SUPPRESS
              for option in action.option_strings]
    assert hidden, "table has a hidden option (--family) for this test to look for"
    section = rendered_sections(cli_reference.cli_reference(_parser()))["axiometer table"]
    for option in hidden:
        assert option not in section


# -- the gallery ------------------------------------------------------------------------------------

def test_gallery_draws_every_kind_of_picture_the_reports_draw():
    import inspect

    from axiometer.reports import plots

    drawing = {name: getattr(plots, name) for name in plots.__all__ if callable(getattr(plots, name))
               and inspect.signature(getattr(plots, name)).return_annotation in ("Figure", "'Figure'")}
    kinds = {function.__module__ for function in drawing.values()}
    assert len(kinds) >= 6, kinds  # threshold, verdicts, boundaries, attained, scatter, tau
    used = {drawing[name].__module__ for picture in gallery.PICTURES
            for name in re.findall(r"plots\.(\w+)\(", inspect.getsource(picture.draw)) if name in drawing}
    assert kinds - used == set(), "kinds of picture the gallery does not show"


def test_gallery_page_shows_each_picture_once_by_its_file():
    page = gallery.gallery_page()
    for picture in gallery.PICTURES:
        assert page.count(f"]({gallery.FOLDER}/{picture.name}.svg)") == 1
    assert len({picture.name for picture in gallery.PICTURES}) == len(gallery.PICTURES)


# -- the API reference's docstrings -----------------------------------------------------------------

def docs_extra_module(name: str) -> ModuleType:
    """A module of the docs extra; outside CI a machine without it skips, in CI it fails."""
    if importlib.util.find_spec(name) is None:
        reason = f"{name} is not installed (pip install -e '.[docs]')"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {reason}; .ci/run installs it", pytrace=False)
        pytest.skip(reason)
    return importlib.import_module(name)


def test_sphinx_roles_become_links_when_documented_and_code_otherwise():
    docs_extra_module("griffe")
    roles = build_module("sphinx_roles")
    text = roles.markdown_docstring(
        "A :class:`~axiometer.results.Check` from :func:`.check`, see :mod:`axiometer.results`.",
        lambda target: ["axiometer.checking." + target.lstrip(".")] if target.startswith(".") else [target])
    assert text == (
        'A <autoref identifier="axiometer.results.Check" optional><code>Check</code></autoref> from '
        '<autoref identifier="axiometer.checking.check" optional><code>check</code></autoref>, see '
        '<autoref identifier="axiometer.results" optional><code>axiometer.results</code></autoref>.')


def test_doctests_and_literal_blocks_read_as_code_once():
    docs_extra_module("griffe")
    roles = build_module("sphinx_roles")
    text = "Grammar::\n\n    spec := name\n\n>>> 1 + 1\n2\n\nAfter."
    once = roles.markdown_docstring(text, lambda target: [target])
    assert once == "Grammar:\n\n    spec := name\n\n```pycon\n>>> 1 + 1\n2\n```\n\nAfter."
    assert roles.markdown_docstring(once, lambda target: [target]) == once
