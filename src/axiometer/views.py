"""How a result shows in a notebook: its HTML view (``_repr_html_``) and its tidy rows (``to_pandas``).

Every result object (a constraint table, scores, a comparison of runs, a meta-evaluation, an
intrinsic classification, the evidence behind a verdict, an agreement) mixes in :class:`Tabular`:

- ``to_rows()``: the result as tidy rows, one ``dict`` per observation (one per metric ×
  constraint × setting, per run × metric × topic, ...), values typed (numbers as numbers,
  verdicts as their strings); each result class defines it from its own data, no report needed;
- ``to_pandas()``: those rows as a ``pandas.DataFrame``; pandas is imported only then, and its
  absence is one :class:`ImportError` that says how to install it;
- ``_repr_html_()``: what Jupyter shows, a compact HTML fragment (the matrix with its legend).

The HTML is written by :mod:`axiometer.reports.notebook`, a layer above the results, which they
may not import (tests/test_layout.py). The dependency is inverted here: reports *register* the
view of each result type (:func:`register`), and the package root installs a *loader*
(:func:`add_loader`) that imports those views the first time one is asked for, so a result shows
in HTML however it was made (``axiometer.check``, or ``axiometer.scoring`` imported alone).
A type with no view shows a short message saying so, never a traceback. This module imports
nothing of the package.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is optional: imported only by to_pandas()
    import pandas

__all__ = ["Tabular", "Rows", "register", "add_loader", "html_view", "frame", "param_columns", "PANDAS_MISSING",
           "CSS_CLASS"]

#: Tidy rows: one mapping per observation, a key per variable.
Rows = list[dict[str, Any]]

#: A view: the result -> an HTML fragment.
View = Callable[[Any], str]

#: The class of every fragment's outer element; the fragment's style applies inside it only.
CSS_CLASS = "axiometer-nb"

#: The error to_pandas() raises without pandas: what is missing, how to get it, what works without it.
PANDAS_MISSING = ("to_pandas() needs pandas, which is not installed: pip install pandas "
                  "(to_rows() gives the same rows as a list of dicts without it)")

_VIEWS: dict[type, View] = {}
_LOADERS: list[Callable[[], None]] = []


def register(kind: type, view: View) -> None:
    """Show results of ``kind`` (and of its subclasses) with ``view``."""
    _VIEWS[kind] = view


def add_loader(loader: Callable[[], None]) -> None:
    """Call ``loader`` (once) the first time a view is missing: it imports the module that registers
    the views."""
    _LOADERS.append(loader)


def _find(kind: type) -> View | None:
    return next((_VIEWS[k] for k in kind.__mro__ if k in _VIEWS), None)


def html_view(value: Any) -> str:
    """``value``'s HTML fragment: its registered view's, else a short message that none is registered."""
    view = _find(type(value))
    while view is None and _LOADERS:
        _LOADERS.pop(0)()
        view = _find(type(value))
    if view is None:
        name = type(value).__name__
        return (f'<div class="{CSS_CLASS}"><p>No HTML view is registered for {html.escape(name)} '
                "(axiometer.reports.notebook registers the package's result types). Its text:</p>"
                f"<pre>{html.escape(repr(value))}</pre></div>")
    return view(value)


def frame(rows: Sequence[Mapping[str, Any]]) -> pandas.DataFrame:
    """``rows`` as a ``pandas.DataFrame``, a column per key (in the order keys first appear; a row
    without one has a missing value there); one :class:`ImportError` (:data:`PANDAS_MISSING`) when
    pandas is not installed."""
    try:
        import pandas
    except ImportError:
        raise ImportError(PANDAS_MISSING) from None
    return pandas.DataFrame.from_records(list(rows))


def param_columns(params: Sequence[tuple[str, Any]], taken: Collection[str]) -> dict[str, Any]:
    """One column per parameter, named after it (``param_NAME`` when ``taken`` already holds the
    name: a parameter called ``metric``): tidy rows filter on ``p`` directly."""
    return {(name if name not in taken else f"param_{name}"): value for name, value in params}


class Tabular:
    """A result a notebook shows: :meth:`to_rows`, :meth:`to_pandas` and ``_repr_html_``."""

    __slots__ = ()

    def to_rows(self) -> Rows:
        """The result as tidy rows (each class says which observations a row is)."""
        raise NotImplementedError(f"{type(self).__name__} has no tidy rows")

    def to_pandas(self) -> pandas.DataFrame:
        """:meth:`to_rows` as a ``pandas.DataFrame``; needs pandas (one clear error without it)."""
        return frame(self.to_rows())

    def _repr_html_(self) -> str:
        """The compact HTML fragment Jupyter shows (the matrix with its legend)."""
        return html_view(self)
