"""Giner's intrinsic framework: is a measure a pseudometric, a metric, an interval scale? (definitions §4).

- :mod:`~axiometer.intrinsic.classify`: :func:`classify` a measure on an
  explicit, finite domain of system outputs, with exact ties and gaps;
- :mod:`~axiometer.intrinsic.parametric`: the parameter values at which a
  parametric measure's classification changes (RBP's ``p``, ...);
- :mod:`~axiometer.intrinsic.giner`: Giner's Tables 2–3 regenerated on the
  canonical domains, each difference explained.

The result objects (:class:`~axiometer.results.IntrinsicResult`,
:class:`~axiometer.results.ParametricResult`, the Giner table's rows) live
in :mod:`axiometer.results`, so the reports import no checking code.
"""
