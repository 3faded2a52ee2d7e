"""A griffe extension for the API reference: the docstrings' Sphinx markup, read as Markdown.

axiometer's docstrings are prose in reStructuredText's habits: cross-references are Sphinx
roles (``:class:`~axiometer.results.Check```, ``:func:`check```, ``:mod:`.threshold```) and a
paragraph ending in ``::`` introduces an indented literal block. mkdocstrings renders
docstrings as Markdown, where a role would show as ``:class:`` before a code span. This
extension, run by griffe on every object once the package is loaded, rewrites

- each role as an optional cross-reference (mkdocs-autorefs' ``<autoref optional>``): a link
  when the target is documented on the site, the name in code when it is not (a private
  helper, a module the reference leaves out), so a role never breaks the build;
- a closing ``::`` as ``:``; the indented block after it is already a Markdown code block;
- a doctest block (``>>>`` lines and their output, up to a blank line) as a fenced ``pycon``
  code block, which Markdown would otherwise read as nested block quotes.

Targets are read as Sphinx reads them: ``~`` shows the last name only; a leading ``.`` is
relative to the object's module; a bare name is looked up in the object's class, then in its
module, and a name they import points to where it is defined. Each rewrite leaves rewritten
text as it is, so a docstring seen twice is rewritten once.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import griffe

#: A Sphinx cross-reference role: ``:class:`target```, ``:py:func:`~target```.
_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|exc|obj|const):`([^`]+)`")
#: A paragraph's closing ``::`` (reStructuredText's "a literal block follows").
_LITERAL_INTRO = re.compile(r"(?<=\S)::$", re.M)
#: A doctest block: a ``>>>`` line and the lines after it, up to a blank line or the end.
_DOCTEST = re.compile(r"^([ \t]*)(>>> .*(?:\n(?![ \t]*$).*)*)", re.M)


class SphinxRoles(griffe.Extension):
    """Rewrites every docstring's Sphinx roles, literal-block markers and doctests once griffe has
    loaded the whole package (so a name the module imports resolves to where it is defined)."""

    def on_object(self, *, obj: griffe.Object, loader: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value, lambda target: _candidates(target, obj))


def markdown_docstring(text: str, resolve: Callable[[str], list[str]]) -> str:
    """``text`` with its roles as optional cross-references, its ``::`` as ``:`` and its doctest
    blocks fenced; ``resolve`` gives a role's target (``~`` stripped) as the identifiers to try,
    best first."""
    text = _DOCTEST.sub(_fenced, text)
    text = _ROLE.sub(lambda match: _autoref(match.group(1), resolve), text)
    return _LITERAL_INTRO.sub(":", text)


def _fenced(match: re.Match[str]) -> str:
    indent, block = match.group(1), match.group(2)
    if match.string[:match.start()].endswith(f"{indent}```pycon\n"):  # fenced already
        return match.group(0)
    return f"{indent}```pycon\n{indent}{block}\n{indent}```"


def _autoref(target: str, resolve: Callable[[str], list[str]]) -> str:
    short = target.startswith("~")
    target = target.lstrip("~")
    title = target.rsplit(".", 1)[-1] if short else target.lstrip(".")
    identifier, *fallback = resolve(target)
    slug = f' slug="{html.escape(fallback[0])}"' if fallback else ""
    return (f'<autoref identifier="{html.escape(identifier)}"{slug} optional>'
            f"<code>{html.escape(title)}</code></autoref>")


def _candidates(target: str, obj: griffe.Object) -> list[str]:
    """The identifiers ``target`` may mean in ``obj``'s docstring, best first: a leading ``.`` is
    relative to the module; a name the class or the module has (defined or imported) is where it
    is defined; anything else is tried in the module, then as written."""
    module = obj if obj.is_module else obj.module
    if target.startswith("."):
        return [f"{module.path}.{target.lstrip('.')}"]
    head, dot, rest = target.partition(".")
    cls = obj if obj.is_class else (obj.parent if obj.parent is not None and obj.parent.is_class else None)
    for scope in (cls, module):
        if scope is not None and head in scope.members:
            member = scope.members[head]
            path = member.target_path if isinstance(member, griffe.Alias) else member.path
            return [f"{path}{dot}{rest}"]
    return [f"{module.path}.{target}", target]
