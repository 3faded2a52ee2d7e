"""axiometer: check information-retrieval evaluation metrics against formal axioms.

The data model lives in :mod:`axiometer.core`, metrics in
:mod:`axiometer.metrics`; :func:`axiometer.metrics.parse` turns a spec string
such as ``"nDCG@10"`` into a metric and :func:`axiometer.metrics.wrap` turns a
plain function into one.
"""

from axiometer.core import Context, InputError, Ranking, Topic, ValidationError

__version__ = "0.1.0"

__all__ = ["Topic", "Ranking", "Context", "InputError", "ValidationError", "__version__"]
