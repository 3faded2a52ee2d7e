"""axiometer: check information-retrieval evaluation metrics against formal axioms.

The data model lives in :mod:`axiometer.core`, metrics in
:mod:`axiometer.metrics`; :func:`axiometer.metrics.parse` turns a spec string
such as ``"nDCG@10"`` into a metric and :func:`axiometer.metrics.wrap` turns a
plain function into one. :func:`check` checks one metric against the
constraints and returns a :class:`MetricReport`; :func:`agree` compares an
implementation of a metric with the built-in and returns an
:class:`AgreementResult` (see :mod:`axiometer.api`).
"""

from typing import Any

from axiometer import views as _views
from axiometer.core import Context, InputError, Ranking, Topic, ValidationError

__version__ = "0.1.0"

__all__ = ["Topic", "Ranking", "Context", "InputError", "ValidationError", "check", "MetricReport",
           "agree", "Agreement", "AgreementResult", "parameters", "__version__"]


def __getattr__(name: str) -> Any:
    # `check` and `agree` pull in the checker and the agreement engine (hypothesis, sympy,
    # numpy); importing them on first use keeps `import axiometer` and `axiometer --help` fast.
    if name in ("check", "MetricReport", "agree", "Agreement", "AgreementResult"):
        from axiometer import api

        return getattr(api, name)
    if name == "parameters":  # @axiometer.parameters(b=(0, 1)): a function's ranges, declared once
        from axiometer.metrics.resolve import parameters

        return parameters
    raise AttributeError(f"module 'axiometer' has no attribute {name!r}")


def _notebook_views() -> None:
    """Register every result's notebook view (``_repr_html_``) the first time one is asked for.

    Results live below the reports, which they may not import; :mod:`axiometer.views` inverts
    that dependency and the package root, above both, wires it. Importing a result's module
    (``axiometer.scoring``) imports the package root first, so the loader is always installed.
    """
    from axiometer.reports.notebook import register_views

    register_views()


_views.add_loader(_notebook_views)
