"""Reports turn result objects (:mod:`axiometer.results`) into text for people and files.

One package per kind of result: :mod:`~axiometer.reports.table` (the
constraint table of ``axiometer table`` and ``axiometer check``, one module
per format over shared cell text), :mod:`~axiometer.reports.intrinsic` and
:mod:`~axiometer.reports.giner` (Giner's framework), :mod:`~axiometer.reports.scores`
(scored runs) and :mod:`~axiometer.reports.unanimity` (Metric Unanimity).
Reports never run checks themselves and import no checking code.
"""
