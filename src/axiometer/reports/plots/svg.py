"""The one writer of the pictures: a figure as an SVG element (standalone, or ready to inline in a
page of many pictures, its ids made unique here and nowhere else) or a ``.svg``/``.png`` file."""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path
from typing import TYPE_CHECKING

from axiometer.core import ValidationError
from axiometer.outputs import write_atomically
from axiometer.reports.plots.style import style
from axiometer.reports.render.text import visible

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn, not with axiometer
    from matplotlib.figure import Figure

__all__ = ["to_svg", "save", "PICTURE_FORMATS"]

#: The file formats :func:`save` writes, by suffix.
PICTURE_FORMATS = (".svg", ".png")

#: An element's id, and a reference to one (``url(#id)``, ``href="#id"``, ``xlink:href="#id"``).
_ID = re.compile(r'\sid="([^"]+)"')
_REFERENCE = re.compile(r'(url\(#|href="#)([^"\)]+)')
#: The characters XML 1.0 does not allow (the C0 controls but tab, line feed and carriage return).
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def to_svg(figure: Figure, prefix: str | None = None) -> str:
    """The figure as an ``<svg>`` element whose ids no other picture shares.

    No XML prolog or DOCTYPE (so it can sit in HTML), no metadata, no
    external reference (the only URIs are the SVG and XLink namespaces);
    glyphs are paths, so no font is needed. The figure's label becomes the
    ``<title>`` (a tooltip, and what a screen reader says). The same figure
    gives the same text.

    Without ``prefix`` (a file of its own), every id keeps its name behind a
    hash of the picture (``ax1a2b3c4d-``), so pictures inlined from files do
    not share ids. With ``prefix`` (one page's unique name for the picture),
    the ids something refers to are renamed ``prefix-0``, ``prefix-1``, ...
    in order of first reference and the others dropped: no two pictures of a
    page share an id even when they are the same picture, and a page of
    dozens of pictures is not mostly long ids (every glyph of a picture's
    text is a reference).
    """
    buffer = io.StringIO()
    with style():
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None, "Format": None,
                                                       "Type": None})
    svg = buffer.getvalue()
    svg = _xml(svg[svg.index("<svg"):])
    svg = _numbered_ids(svg, prefix) if prefix is not None else _hashed_ids(svg)
    label = figure.get_label()
    if isinstance(label, str) and label:
        title = _xml(label.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
        svg = re.sub(r"(<svg\b[^>]*>)", rf'\1\n <title>{_escape_group(title)}</title>', svg, count=1)
    return svg.replace("<svg ", '<svg role="img" ', 1).rstrip() + "\n"


def _xml(svg: str) -> str:
    r"""``svg`` with every character XML does not allow shown as ``\xNN`` (``\uNNNN``), as the text
    reports show it: matplotlib writes each text as a comment beside its glyphs, and a control
    character in a run's name made the picture a file no XML reader opens (issue 29)."""
    return _NOT_XML.sub(lambda match: visible(match.group()) if match.group() < "\x80"
                        else f"\\u{ord(match.group()):04x}", svg)


def _hashed_ids(svg: str) -> str:
    """Every id and reference behind ``ax`` and 8 hex digits of the SVG's SHA-1."""
    prefix = "ax" + hashlib.sha1(svg.encode("utf-8")).hexdigest()[:8] + "-"
    svg = re.sub(r'\bid="', f'id="{prefix}', svg)
    svg = re.sub(r'(href=")#', rf"\1#{prefix}", svg)
    return svg.replace("url(#", f"url(#{prefix}")


def _numbered_ids(svg: str, prefix: str) -> str:
    """Each referenced id renamed ``prefix-N`` (N in hex, in order of first reference), the others
    dropped."""
    names: dict[str, str] = {}
    for _, name in _REFERENCE.findall(svg):
        names.setdefault(name, f"{prefix}-{len(names):x}")
    svg = _ID.sub(lambda m: f' id="{names[m.group(1)]}"' if m.group(1) in names else "", svg)
    return _REFERENCE.sub(lambda m: m.group(1) + names[m.group(2)], svg)


def _escape_group(text: str) -> str:
    return text.replace("\\", r"\\")


def save(figure: Figure, path: str | Path) -> None:
    """Write ``figure`` to ``path``: SVG for ``.svg`` (:func:`to_svg`), PNG (150 dpi) for ``.png``.

    Any other suffix raises :class:`~axiometer.core.ValidationError` (a
    ``ValueError``) naming the formats, before anything is written.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in PICTURE_FORMATS:
        problem = f"unknown picture format {path.suffix!r}" if suffix else "no suffix to choose the format"
        raise ValidationError(f"{path}: {problem}; use {' or '.join(PICTURE_FORMATS)}")
    if suffix == ".svg":
        write_atomically(path, to_svg(figure))
        return
    buffer = io.BytesIO()
    with style():
        figure.savefig(buffer, format="png", dpi=150, metadata={"Software": None})
    write_atomically(path, buffer.getvalue())  # whole or not at all, as every report
