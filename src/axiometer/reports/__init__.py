"""Reports turn result objects (:mod:`axiometer.results`) into text for people and files.

A result's report is one document (:mod:`~axiometer.reports.document`) that
one renderer per format writes (:mod:`~axiometer.reports.render`; the
formats of each result: :data:`~axiometer.reports.render.REPORT_FORMATS`).
One package per kind of result: :mod:`~axiometer.reports.table` (the
constraint table of ``axiometer table`` and ``axiometer check``), :mod:`~axiometer.reports.intrinsic` and
:mod:`~axiometer.reports.giner` (Giner's framework), :mod:`~axiometer.reports.scores`
(scored runs) and :mod:`~axiometer.reports.unanimity` (Metric Unanimity).
Reports never run checks themselves and import no checking code.
"""
