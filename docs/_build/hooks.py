"""The docs site's build hook (``hooks:`` in mkdocs.yml): what the site has beyond docs/.

- The Markdown files of the repository that the docs link to (the README as the
  getting-started page, the benchmarks' and test data's READMEs, the example repository's)
  are added to the site, and every page's links written for the repository are pointed at
  the site's pages (:mod:`repository_links`).
- Two pages are written at build time, from the code, so they cannot go stale: the CLI
  reference from the program's argument parser (:mod:`cli_reference`) and the gallery of the
  report's pictures, drawn from small real runs (:mod:`gallery`). In docs/ each of them is a
  short page for readers on GitHub, which the build replaces.

mkdocs puts this file's folder on ``sys.path`` while it loads it, so the modules beside it
import by name.
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import Any

import cli_reference
import gallery
import repository_links
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.hooks.axiometer")

#: Pages whose text the build writes: path in docs/ -> what writes it.
GENERATED_PAGES = {
    "cli-reference.md": lambda: cli_reference.cli_reference(_program_parser()),
    "gallery.md": gallery.gallery_page,
}


def _program_parser() -> Any:
    """The ``axiometer`` argument parser, as the program builds it."""
    from axiometer.cli import _parser

    return _parser()


def _root(config: MkDocsConfig) -> Path:
    """The repository's root: the folder of mkdocs.yml."""
    return Path(config.config_file_path).resolve().parent


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Import ``axiometer`` from this checkout's src/ (as mkdocstrings reads it), whichever copy
    the environment has installed: the pages the build writes describe the code being built."""
    source = str(_root(config) / "src")
    if source not in sys.path:
        sys.path.insert(0, source)
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the repository's pages and the gallery's pictures to the site's files."""
    root = _root(config)
    for repository_path, site_uri in repository_links.REPOSITORY_PAGES.items():
        files.append(File.generated(config, site_uri, abs_src_path=str(root / repository_path)))
    drawn_before = gallery.draw_gallery.cache_info().currsize > 0  # mkdocs serve's later builds
    started = time.perf_counter()
    for name, svg in gallery.draw_gallery().items():
        files.append(File.generated(config, f"{gallery.FOLDER}/{name}", content=svg))
    if drawn_before:
        log.info("gallery: %d pictures as first drawn (restart to redraw)", len(gallery.PICTURES))
    else:
        log.info("gallery: %d pictures drawn in %.1f s", len(gallery.PICTURES), time.perf_counter() - started)
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """The page's Markdown as the site shows it: written by the build for a generated page, and
    with its repository links pointing at the site's pages."""
    site_uri = page.file.src_uri
    if site_uri in GENERATED_PAGES:
        return GENERATED_PAGES[site_uri]()
    by_site = {site: repository for repository, site in repository_links.REPOSITORY_PAGES.items()}
    repository_path = by_site.get(site_uri, f"{repository_links.DOCS}/{site_uri}")
    return repository_links.rewrite_links(markdown, repository_path, site_uri)
