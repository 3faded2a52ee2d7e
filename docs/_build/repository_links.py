"""Links written for the repository, made to work on the site.

The docs are read on GitHub too, so their links are relative links between the repository's
files: ``docs/formats.md`` links ``../benchmarks/README.md``, README.md links
``docs/proofs.md``. The site publishes docs/ at its root and a few Markdown files from
elsewhere in the repository (:data:`REPOSITORY_PAGES`: the README as the getting-started
page, the benchmarks' and the test data's READMEs, the example repository's); a link to one
of those is rewritten to where the site has it (:func:`rewrite_links`). A link to any other
file outside docs/ is left as written, and mkdocs reports it as a link to a missing page,
which fails ``mkdocs build --strict``: the site never links to a file it does not have.
"""

from __future__ import annotations

import posixpath
import re

#: The folder the site publishes at its root.
DOCS = "docs"

#: Markdown files outside docs/ that the site publishes: repository path -> path on the site.
REPOSITORY_PAGES: dict[str, str] = {
    "README.md": "getting-started.md",
    "benchmarks/README.md": "repository/benchmarks/README.md",
    "tests/data/README.md": "repository/tests/data/README.md",
    "tests/data/trec_eval/README.md": "repository/tests/data/trec_eval/README.md",
    "examples/metric-author/README.md": "repository/examples/metric-author/README.md",
}

#: An inline Markdown link or image target: ``](target)`` or ``](target "title")``.
_LINK = re.compile(r'(\]\()([^)\s]+)((?:\s+"[^"]*")?\))')
#: A fenced code block's opening or closing line (links inside code blocks are text, not links).
_FENCE = re.compile(r"^\s*(```|~~~)")


def site_path(repository_path: str) -> str | None:
    """Where the site has the repository file (or folder, by its README) at ``repository_path``
    (relative to the repository's root, ``/``-separated); ``None`` when the site does not publish it."""
    path = posixpath.normpath(repository_path)
    if path.startswith(DOCS + "/"):
        return path[len(DOCS) + 1:]
    for candidate in (path, posixpath.join(path, "README.md")):
        if candidate in REPOSITORY_PAGES:
            return REPOSITORY_PAGES[candidate]
    return None


def rewrite_links(markdown: str, repository_path: str, site_uri: str) -> str:
    """``markdown``, the text of the repository file ``repository_path``, with each relative link
    to a file the site publishes pointing to it from the page's place on the site, ``site_uri``.

    Links to the web, absolute links, anchors within the page, links the site does not publish
    and anything inside a fenced code block are left as they are.
    """
    here = posixpath.dirname(repository_path)
    page_folder = posixpath.dirname(site_uri)

    def rewritten(match: re.Match[str]) -> str:
        target = match.group(2)
        path, hash_mark, fragment = target.partition("#")
        if not path or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", path) or path.startswith("/"):
            return match.group(0)
        published = site_path(posixpath.join(here, path))
        if published is None:
            return match.group(0)
        relative = posixpath.relpath(published, page_folder or ".")
        return f"{match.group(1)}{relative}{hash_mark}{fragment}{match.group(3)}"

    lines, in_fence = [], False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        lines.append(line if in_fence else _LINK.sub(rewritten, line))
    return "\n".join(lines)
