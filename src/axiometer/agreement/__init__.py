"""Is an implementation right? Differential testing against the exact reference (``axiometer agree``).

- :mod:`~axiometer.agreement.agree`: :func:`~axiometer.agreement.agree.agree`, the entry point;
- :mod:`~axiometer.agreement.generation`: the queries tried (hand-written and generated);
- :mod:`~axiometer.agreement.conventions` and :mod:`~axiometer.agreement.reference`: the choices
  implementations differ on, and the built-in put in any of them;
- :mod:`~axiometer.agreement.implementations`: a metric author's function or a peer's measure;
- :mod:`~axiometer.agreement.properties`: what every implementation must satisfy;
- :mod:`~axiometer.agreement.shrink`: minimal cases;
- :mod:`~axiometer.agreement.audit`: every installed peer measure against its built-in;
- :mod:`~axiometer.agreement.result`: the typed results.

Nothing is imported here: the command line reads the conventions without loading hypothesis.
"""
