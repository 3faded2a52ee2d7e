"""The checking engine: how an axiom is checked on a metric.

- :mod:`~axiometer.checking.check`: :func:`check`, the single entry point;
- :mod:`~axiometer.checking.search`: the small scope and the shrinking random
  search (the engine's side of :mod:`axiometer.axioms.oracle`);
- :mod:`~axiometer.checking.budget`: :class:`Budget`, :data:`QUICK` and the
  per-check seeds;
- :mod:`~axiometer.checking.guard`: a metric author's metric behind a guard;
- :mod:`~axiometer.checking.explain`: the nearby readings that explain a
  violated cell, and how a verdict depends on the parameters.

What a verdict means (a universal relation, a threshold, Sat's ``rmax``, a
property's claims) is each oracle's own, in :mod:`axiometer.axioms`; the exact
decision of one comparison is :mod:`axiometer.metrics.decide`.
"""

from axiometer.checking.budget import QUICK, Budget, cell_seed, run_budget
from axiometer.checking.check import check

__all__ = ["Budget", "QUICK", "cell_seed", "check", "run_budget"]
