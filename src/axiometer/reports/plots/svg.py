"""The one writer of the pictures: a figure as an SVG element (standalone, or ready to inline in a
page of many pictures, its ids made unique here and nowhere else) or a ``.svg``/``.png`` file."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from axiometer.core import ValidationError
from axiometer.outputs import write_atomically
from axiometer.reports.plots.style import style
from axiometer.reports.render.text import visible

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn, not with axiometer
    from matplotlib.figure import Figure

__all__ = ["to_svg", "save", "PICTURE_FORMATS", "FONTS"]

#: The file formats :func:`save` writes, by suffix.
PICTURE_FORMATS = (".svg", ".png")

#: An element's id, and a reference to one (``url(#id)``, ``href="#id"``, ``xlink:href="#id"``).
_ID = re.compile(r'\sid="([^"]+)"')
_REFERENCE = re.compile(r'(url\(#|href="#)([^"\)]+)')
#: A page's pictures write their text in this sans-serif: matplotlib lays it out with DejaVu Sans (which
#: it bundles), and Verdana is the closest in width where DejaVu Sans is not installed.
FONTS = "'DejaVu Sans', Verdana, 'Bitstream Vera Sans', sans-serif"
#: The family matplotlib writes on every text (the root's :data:`FONTS` says it once instead).
_MATPLOTLIB_FONT = "; font-family: 'DejaVu Sans'"
#: A number; a path's data; coordinates (an attribute's, a translation's: never a glyph's scale); a
#: rotation by zero; a group or a comment; the whitespace between elements.
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_SPACED_COMMAND = re.compile(r"\s*([A-Za-z])\s*")
_PATH_DATA = re.compile(r'(\sd=)"([^"]*)"')
_COORDINATE = re.compile(r'(\s(?:x|y|x1|y1|x2|y2|width|height)="|translate\()([^")]*)(?=[")])')
_NO_ROTATION = re.compile(r'\stransform="rotate\(-?0 [^)]*\)"')
_GROUP_OR_COMMENT = re.compile(r"<!--.*?-->|<(/?)g(\s[^>]*)?>", re.S)
_BETWEEN = re.compile(r">\s+<")
#: An element's opening tag with attributes (whose values never hold "<" or ">": matplotlib escapes
#: them) or a comment (matplotlib writes a text's source in one, unescaped), and a style.
_TAG_OR_COMMENT = re.compile(r"<!--.*?-->|<[\w:-]+\s[^<>]*>", re.S)
_STYLE = re.compile(r'(?<=\s)style="([^"]*)"')
#: The characters XML 1.0 does not allow (the C0 controls but tab, line feed and carriage return).
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def to_svg(figure: Figure, prefix: str | None = None) -> str:
    """The figure as an ``<svg>`` element whose ids no other picture shares.

    No XML prolog or DOCTYPE (so it can sit in HTML), no metadata, no
    external reference (the only URIs are the SVG and XLink namespaces).
    The figure's label becomes the ``<title>`` (a tooltip, and what a screen
    reader says). The same figure gives the same text. Coordinates keep two
    decimals (a hundredth of a point) and groups that say nothing are
    dropped: a page holds dozens of pictures.

    Without ``prefix`` (a file of its own), glyphs are paths, so the file
    needs no font and looks the same wherever it is opened, and every id
    keeps its name behind a hash of the picture (``ax1a2b3c4d-``), so
    pictures inlined from files do not share ids. With ``prefix`` (one
    page's unique name for the picture), text is ``<text>`` in the page's
    sans-serif (:data:`FONTS`; a glyph as a path costs a hundred times its
    letter, and the page's pictures would carry each glyph again), and the
    ids something refers to are renamed ``prefix-0``, ``prefix-1``, ...
    in order of first reference and the others dropped: no two pictures of
    a page share an id even when they are the same picture.
    """
    import matplotlib

    buffer = io.StringIO()
    with style(), matplotlib.rc_context({"svg.fonttype": "path" if prefix is None else "none"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None, "Format": None,
                                                       "Type": None})
    svg = buffer.getvalue()
    svg = _xml(svg[svg.index("<svg"):])
    svg = _numbered_ids(svg, prefix) if prefix is not None else _hashed_ids(svg)
    svg = _compact(svg)
    if prefix is not None:
        svg = _in_tags(svg, lambda tag: tag.replace(_MATPLOTLIB_FONT, ""))
        svg = _classes(svg.replace("<svg ", f'<svg font-family="{FONTS}" ', 1), prefix)
    label = figure.get_label()
    if isinstance(label, str) and label:
        title = _xml(label.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
        svg = re.sub(r"(<svg\b[^>]*>)", rf'\1\n <title>{_escape_group(title)}</title>', svg, count=1)
    return svg.replace("<svg ", '<svg role="img" ', 1).rstrip() + "\n"


def _tags(svg: str) -> list[str]:
    """Every opening tag with attributes: what the rewriting below may read (never a text's content,
    which may say anything a name says, nor a comment)."""
    return [m.group() for m in _TAG_OR_COMMENT.finditer(svg) if not m.group().startswith("<!--")]


def _in_tags(svg: str, rewrite: Callable[[str], str]) -> str:
    """``svg`` with every opening tag with attributes rewritten by ``rewrite`` (nothing else)."""
    return _TAG_OR_COMMENT.sub(lambda m: m.group() if m.group().startswith("<!--") else rewrite(m.group()), svg)


def _number(match: re.Match[str]) -> str:
    """A coordinate to two decimals, trailing zeros dropped (``-0`` is ``0``)."""
    text = f"{float(match.group()):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _path_data(match: re.Match[str]) -> str:
    """A path's ``d``: coordinates to two decimals, no space around a command letter."""
    data = _SPACED_COMMAND.sub(r"\1", _NUMBER.sub(_number, match.group(2)))
    return f'{match.group(1)}"{" ".join(data.split())}"'


def _compact_tag(tag: str) -> str:
    """An opening tag with coordinates to two decimals and no rotation by zero."""
    tag = _PATH_DATA.sub(_path_data, tag)
    tag = _COORDINATE.sub(lambda m: m.group(1) + _NUMBER.sub(_number, m.group(2)), tag)
    return _NO_ROTATION.sub("", tag)


def _compact(svg: str) -> str:
    """``svg`` with coordinates to two decimals, no rotation by zero, no group without an attribute
    (its children in its place) and no whitespace between elements."""
    svg = _in_tags(svg, _compact_tag)
    out: list[str] = []
    kept: list[bool] = []
    start = 0
    for match in _GROUP_OR_COMMENT.finditer(svg):
        out.append(svg[start:match.start()])
        start = match.end()
        if match.group().startswith("<!--"):
            out.append(match.group())
        elif match.group(1):  # </g>: kept when its <g> was
            if kept.pop():
                out.append(match.group())
        else:
            kept.append(bool((match.group(2) or "").strip()))
            if kept[-1]:
                out.append(match.group())
    out.append(svg[start:])
    return _BETWEEN.sub("><", "".join(out))


def _xml(svg: str) -> str:
    r"""``svg`` with every character XML does not allow shown as ``\xNN`` (``\uNNNN``), as the text
    reports show it: matplotlib writes each text as a comment beside its glyphs, and a control
    character in a run's name made the picture a file no XML reader opens (issue 29)."""
    return _NOT_XML.sub(lambda match: visible(match.group()) if match.group() < "\x80"
                        else f"\\u{ord(match.group()):04x}", svg)


def _hashed_ids(svg: str) -> str:
    """Every id and reference behind ``ax`` and 8 hex digits of the SVG's SHA-1."""
    prefix = "ax" + hashlib.sha1(svg.encode("utf-8")).hexdigest()[:8] + "-"

    def hashed(tag: str) -> str:
        tag = re.sub(r'\bid="', f'id="{prefix}', tag)
        tag = re.sub(r'(href=")#', rf"\1#{prefix}", tag)
        return tag.replace("url(#", f"url(#{prefix}")

    return _in_tags(svg, hashed)


def _numbered_ids(svg: str, prefix: str) -> str:
    """Each referenced id renamed ``prefix-N`` (N in hex, in order of first reference), the others
    dropped."""
    names: dict[str, str] = {}
    for tag in _tags(svg):
        for _, name in _REFERENCE.findall(tag):
            names.setdefault(name, f"{prefix}-{len(names):x}")

    def numbered(tag: str) -> str:
        tag = _ID.sub(lambda m: f' id="{names[m.group(1)]}"' if m.group(1) in names else "", tag)
        return _REFERENCE.sub(lambda m: m.group(1) + names[m.group(2)], tag)

    return _in_tags(svg, numbered)


def _classes(svg: str, prefix: str) -> str:
    """Every style the picture repeats as a class ``prefix-sN`` of a style sheet in the picture (a page's
    picture repeats a tick's, a marker's or a label's style dozens of times); the others stay where
    they are. Only the elements' own attributes are read: a text's content is never a style."""
    counts: dict[str, int] = {}
    for tag in _tags(svg):
        for style in _STYLE.findall(tag):
            counts[style] = counts.get(style, 0) + 1
    names = {style: f"{prefix}-s{k:x}" for k, style in enumerate(s for s, n in counts.items() if n > 1)}
    if not names or "</defs>" not in svg:
        return svg

    def classed(tag: str) -> str:
        return _STYLE.sub(lambda m: f'class="{names[m.group(1)]}"' if m.group(1) in names else m.group(), tag)

    rules = "".join(f".{name}{{{style}}}" for style, name in names.items())
    return _in_tags(svg, classed).replace("</defs>", f"</defs><style>{rules}</style>", 1)


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
