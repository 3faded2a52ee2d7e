"""Reports of a :class:`~axiometer.significance.RunComparison`: text, Markdown, LaTeX, HTML, JSON.

Two tables, as a paper prints them:

- **the runs**: one row per run (its label ``a``, ``b``, ... and its name),
  one column per metric; a cell holds the run's mean over the topics, a
  superscript letter for every run it is significantly better than on that
  metric (as ranx's comparison report marks them) and the bootstrap
  interval of the mean in brackets. Markdown, LaTeX and HTML print the
  highest mean of each metric in bold.
- **the pairs**, per metric: the difference of the means, Cohen's d_z, each
  test's p-value, the chosen test's adjusted p-value and whether the pair
  is significant.

Under the tables every mark and column is explained, with the settings
(test, permutations, correction, alpha, resamples, seeds) and the runs that
lack topics. Means and intervals print with ``digits`` decimals (default
4), so that a column compares at a glance and no float noise shows; a
p-value prints with 3 significant digits, or more where 3 would put it on
the other side of alpha (``0.05005`` is not ``0.05``). JSON keeps every
number at full precision.

Reports only format; they never compute a test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from axiometer.reports.document import (
    Block, BulletList, Document, Group, Inline, Inlines, JsonStyle, Math, Paragraph, Row, Section, Span, Strong,
    Sup, Table, TableCell,
)
from axiometer.reports.numbers import DEFAULT_WIDTH
from axiometer.reports.render import check_format, formats_of, render

if TYPE_CHECKING:  # reports only read the result; significance loads numpy
    from axiometer.significance import RunComparison, MetricComparison, PairComparison, RunSummary

__all__ = ["REPORT_FORMATS", "DIGITS", "format_comparison", "comparison_document", "p_text"]

REPORT_FORMATS = formats_of("compare")
_TEXT, _LATEX, _HTML = ("text", "markdown"), ("latex",), ("html",)

#: Decimals of a mean and of its interval.
DIGITS = 4

#: How the settings line names each test.
_TEST_NAMES = {"randomization": "Fisher's randomization test", "t": "the paired t-test",
               "wilcoxon": "the Wilcoxon signed-rank test"}

#: Short column names of the tests in the pairs table.
_TEST_COLUMNS = {"randomization": "p rand.", "t": "p t-test", "wilcoxon": "p Wilcoxon"}

def format_comparison(comparison: RunComparison, format: str = "text", *, digits: int = DIGITS,
                      width: int = DEFAULT_WIDTH) -> str:
    """``comparison`` as ``text``, ``markdown``, ``latex``, ``html`` or ``json``; text lines that
    explain the tables are wrapped to ``width`` columns."""
    check_format("compare", format)
    return render(comparison_document(comparison, digits), format, width)


# -- numbers and words ------------------------------------------------------------------

def _fixed(value: float, digits: int) -> str:
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text  # no "-0.0000"


def p_text(p: float, alpha: float) -> str:
    """``p`` with 3 significant digits, or as many more as keep it on its side of ``alpha``."""
    for digits in range(3, 18):
        text = f"{p:.{digits}g}"
        if (float(text) <= alpha) == (p <= alpha):
            return text
    return repr(p)


def _effect(value: float | None) -> str:
    return "undefined" if value is None else _fixed(value, 2)


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _marks(summary: RunSummary, labels: dict[str, str]) -> str:
    """The labels of the runs ``summary``'s run is significantly better than, ``,``-joined when
    the labels are numbers (more than 25 runs)."""
    marks = [labels[run] for run in summary.better_than]
    return ("," if any(len(mark) > 1 or mark.isdigit() for mark in marks) else "").join(marks)


def _best(metric: MetricComparison) -> float:
    return max(summary.mean for summary in metric.runs)


def _settings(comparison: RunComparison) -> list[str]:
    """The sentences that say how the marks and intervals were made."""
    pairs = len(comparison.runs) * (len(comparison.runs) - 1) // 2
    test = _TEST_NAMES[comparison.test] + _randomization_settings(comparison, " ({})")
    correction = (f"Holm–Bonferroni across the {_plural(pairs, 'pair')} of each metric"
                  if comparison.correction == "holm" else "no correction for multiple comparisons")
    confidence = f"{comparison.confidence * 100:g}%"
    return [f"Marks: {test}, two-sided, {correction}, alpha = {comparison.alpha:g}.",
            f"Intervals: {confidence} bootstrap percentile intervals of the mean "
            f"({_plural(comparison.resamples, 'resample')} of the topics, seed {comparison.seed})."]


def _randomization_settings(comparison: RunComparison, template: str) -> str:
    """How the randomization test drew its sign patterns, in ``template``; empty for other tests."""
    from axiometer.significance import enumerates

    if comparison.test != "randomization":
        return ""
    topics = len(comparison.topics)
    if enumerates(topics, comparison.permutations):
        return template.format(f"exact: all {2 ** topics:,} sign patterns of the {topics} topics")
    return template.format(f"{_plural(comparison.permutations, 'permutation')}, seed {comparison.seed}")


def _legend(comparison: RunComparison) -> list[str]:
    """What the marks and columns of both tables mean."""
    test = _TEST_NAMES[comparison.test]
    adjusted = "Holm-adjusted " if comparison.correction == "holm" else ""
    topics = _plural(len(comparison.topics), "topic")
    return [
        f"Each cell: the run's mean over the {topics}, then [low, high], the bootstrap interval of "
        "the mean.",
        f"A superscript label after a mean names a run (column #) that this run is significantly "
        f"better than on that metric: its mean is higher and the {adjusted}p-value of {test} is at "
        f"most {comparison.alpha:g}.",
        "Pairs: A − B is mean(A) − mean(B); d_z is Cohen's effect size for paired samples, the mean "
        "of the per-topic differences over their standard deviation (undefined when every topic "
        "differs by the same amount); p rand., p t-test and p Wilcoxon are the two-sided p-values "
        "of Fisher's randomization test, the paired t-test and the Wilcoxon signed-rank test; "
        + ("Holm is the chosen test's p-value after Holm–Bonferroni across the pairs of the metric; "
           if comparison.correction == "holm" else "")
        + f"significant: that p-value is at most {comparison.alpha:g}.",
    ]


def _notes(comparison: RunComparison) -> list[str]:
    notes = []
    for run in comparison.runs:
        missing = comparison.missing.get(run, ())
        if missing:
            shown = ", ".join(missing[:10]) + (", ..." if len(missing) > 10 else "")
            notes.append(f"{run}: missing {len(missing)} of the {len(comparison.topics)} topics, scored 0 "
                         f"({shown}).")
    from axiometer.significance import smallest_p_value, topics_to_reach

    smallest = smallest_p_value(comparison)
    if smallest is not None and smallest > comparison.alpha:
        topics = len(comparison.topics)
        held = " after Holm's correction" if comparison.correction == "holm" and len(comparison.runs) > 2 else ""
        notes.append(f"With {topics} topic{'s' if topics != 1 else ''} the randomization test cannot give a "
                     f"p-value below {smallest:.4g}{held}, above alpha = {comparison.alpha:g}: no "
                     f"difference can be significant here; {topics_to_reach(comparison)} topics could reach it.")
    return notes


def _title(comparison: RunComparison) -> str:
    return (f"Comparison of {_plural(len(comparison.runs), 'run')} on "
            f"{_plural(len(comparison.metrics), 'metric')} over {_plural(len(comparison.topics), 'topic')}")


def _pair_headers(comparison: RunComparison) -> list[str]:
    headers = ["A", "B", "A − B", "d_z", *(_TEST_COLUMNS[test] for test in _ordered_tests(comparison))]
    if comparison.correction == "holm":
        headers.append("Holm")
    return headers + ["significant"]


def _ordered_tests(comparison: RunComparison) -> list[str]:
    """The chosen test first, then the others in their usual order."""
    return [comparison.test, *(t for t in ("randomization", "t", "wilcoxon") if t != comparison.test)]


def _pair_row(comparison: RunComparison, pair: PairComparison, digits: int) -> list[str]:
    alpha = comparison.alpha
    row = [pair.a, pair.b, _fixed(pair.mean_difference, digits), _effect(pair.effect_size),
           *(p_text(pair.p_values[test], alpha) for test in _ordered_tests(comparison))]
    if comparison.correction == "holm":
        row.append(p_text(pair.adjusted[comparison.test], alpha))
    return row + ["yes" if pair.significant else "no"]


# -- the document ------------------------------------------------------------------------------

def _mean_cell(comparison: RunComparison, metric: MetricComparison, n: int, digits: int) -> TableCell:
    """A run's mean on a metric (bold when highest; the runs it beats as a superscript) and its
    interval."""
    labels = dict(zip(comparison.runs, comparison.labels))
    summary = metric.runs[n]
    mean = _fixed(summary.mean, digits)
    parts: list[Inline] = [Strong((mean,)) if summary.mean == _best(metric) else mean]
    marks = _marks(summary, labels)
    if marks:
        parts.append(Sup(marks, f"significantly better than {', '.join(summary.better_than)}"))
    interval = f"[{_fixed(summary.ci_low, digits)}, {_fixed(summary.ci_high, digits)}]"
    return TableCell((*parts, " ", Span((interval,), "muted")))


def _runs_table(comparison: RunComparison, digits: int) -> Table:
    rows = tuple(Row((TableCell((comparison.labels[n],)), TableCell((run,)),
                      *(_mean_cell(comparison, metric, n, digits) for metric in comparison.metrics)))
                 for n, run in enumerate(comparison.runs))
    names = ("#", "run", *(m.metric for m in comparison.metrics))
    return Table(headers=tuple(TableCell((h,), header=True) for h in names),
                 rows=rows, simple=True, numeric=tuple(range(2, 2 + len(comparison.metrics))), read_numbers=False)


def _pairs_table(comparison: RunComparison, metric: MetricComparison, digits: int) -> Table:
    headers = _pair_headers(comparison)
    return Table(headers=tuple(TableCell((h,), header=True) for h in headers), simple=True,
                 rows=tuple(Row(tuple(TableCell((c,)) for c in _pair_row(comparison, pair, digits)))
                            for pair in metric.pairs),
                 align="ll" + "r" * (len(headers) - 2), numeric=tuple(range(2, len(headers) - 1)), read_numbers=False)


def _text_blocks(comparison: RunComparison, digits: int) -> list[Block]:
    """Text and Markdown: the title, the settings, the runs, the legend, the pairs of each metric."""
    md = ("markdown",)
    legend = _legend(comparison)
    blocks: list[Block] = [
        Paragraph(parts=(Strong((_title(comparison),)),), nowrap=_TEXT),
        BulletList(items=tuple((line,) for line in _settings(comparison)), marker="", nowrap=md),
        _runs_table(comparison, digits),
        BulletList(items=tuple((line,) for line in legend), marker="", formats=("text",)),
        BulletList(items=((legend[0] + _BOLD,), *((line,) for line in legend[1:])), nowrap=md, formats=md)]
    for metric in comparison.metrics:
        heading = f"Pairs on {metric.metric} ({len(metric.pairs):,})"
        blocks += [Paragraph(parts=(Strong((heading,)),), nowrap=_TEXT, formats=md),
                   Paragraph(parts=(heading + ":",), nowrap=_TEXT, formats=("text",)),
                   _pairs_table(comparison, metric, digits)]
    notes = _notes(comparison)
    if notes:
        blocks.append(BulletList(items=tuple((note,) for note in notes), marker="", nowrap=md))
    return [Group(children=tuple(blocks), formats=_TEXT)]


#: Said after the first legend line where means can be bold (not in plain text).
_BOLD = " Bold: the highest mean of the metric."


def _latex_tables(comparison: RunComparison, digits: int) -> list[Block]:
    """The runs and the pairs as a paper's two tables."""
    pairs = len(comparison.runs) * (len(comparison.runs) - 1) // 2
    test = _TEST_NAMES[comparison.test] + _randomization_settings(comparison, ", {}")
    correction = (f"Holm–Bonferroni across the {pairs:,} pairs of each metric"
                  if comparison.correction == "holm" else "no correction for multiple comparisons")
    p_at_most = Math(f"p \\le {comparison.alpha:g}", f"p <= {comparison.alpha:g}")
    runs = _runs_table(comparison, digits)
    runs_caption: Inlines = (
        f"Mean over the {len(comparison.topics):,} topics, with its {comparison.confidence * 100:g}% bootstrap "
        f"percentile interval in brackets ({comparison.resamples:,} resamples of the topics). A superscript "
        f"letter names a run this run is significantly better than ({test}, two-sided, {correction}, ", p_at_most,
        "). Bold: the highest mean of each metric.")
    headers: list[Inline] = ["Metric", "A", "B", Math("A - B", "A - B"), Math("d_z", "d_z"),
               *(_TEST_COLUMNS[t] for t in _ordered_tests(comparison)),
               *(["Holm"] if comparison.correction == "holm" else []), "Sig."]
    rows = [Row((TableCell((metric.metric if k == 0 else "",)),
                 *(TableCell((c,)) for c in _pair_row(comparison, pair, digits))), group=k == 0)
            for metric in comparison.metrics for k, pair in enumerate(metric.pairs)]
    adjusted = "Holm-adjusted p-value of the " if comparison.correction == "holm" else "p-value of the "
    pairs_caption: Inlines = ("Every pair of runs: the difference of the means, Cohen's ", Math("d_z", "d_z"),
                              f", the two-sided p-values of the three tests and the {adjusted}"
                              f"{_TEST_NAMES[comparison.test]} that decides significance at ", p_at_most, ".")
    return [Table(headers=(TableCell(("",), header=True), TableCell(("Run",), header=True), *runs.headers[2:]),
                  rows=runs.rows, caption=runs_caption, label="tab:comparison",
                  align="cl" + "r" * len(comparison.metrics), formats=_LATEX),
            Table(headers=tuple(TableCell((h,), header=True) for h in headers), rows=tuple(rows),
                  caption=pairs_caption, label="tab:comparison-pairs", align="lll" + "r" * (len(headers) - 3),
                  formats=_LATEX)]


def _page_blocks(comparison: RunComparison, digits: int) -> list[Block]:
    """The page: the runs with the legend and the notes, then a section of pairs per metric."""
    legend = _legend(comparison)
    notes = _notes(comparison)
    runs = Section(title=("Runs",), level=2, id="runs", toc="Runs", formats=_HTML, children=(
        _runs_table(comparison, digits),
        BulletList(items=((legend[0] + _BOLD,), *((line,) for line in legend[1:]))),
        *([BulletList(items=tuple((note,) for note in notes))] if notes else [])))
    return [runs, *(Section(title=(f"Pairs: {metric.metric}",), level=2, id=f"pairs-{index}",
                            toc=f"Pairs: {metric.metric}", formats=_HTML,
                            children=(_pairs_table(comparison, metric, digits),))
                    for index, metric in enumerate(comparison.metrics, 1))]


def comparison_document(comparison: RunComparison, digits: int = DIGITS) -> Document:
    """The comparison's document: its text, its paper's tables and its page."""
    return Document(title="", page_title="Comparison of runs",
                    page_subtitle=(_title(comparison), *_settings(comparison)),
                    blocks=(*_text_blocks(comparison, digits), *_latex_tables(comparison, digits),
                            *_page_blocks(comparison, digits)),
                    preamble=(f"Needs \\usepackage{{booktabs}}. Made by axiometer compare; seed {comparison.seed}.",),
                    epilogue=tuple(_notes(comparison)),
                    data=lambda: _json(comparison), json=JsonStyle(indent=1, ascii=False, finite=False))


# -- JSON --------------------------------------------------------------------------------

def _json(comparison: RunComparison) -> dict[str, Any]:
    document: dict[str, Any] = {
        "settings": {"test": comparison.test, "alpha": comparison.alpha,
                     "correction": comparison.correction, "permutations": comparison.permutations,
                     "resamples": comparison.resamples, "confidence": comparison.confidence,
                     "seed": comparison.seed},
        "runs": [{"run": run, "label": label, "missing_topics": list(comparison.missing.get(run, ()))}
                 for run, label in zip(comparison.runs, comparison.labels)],
        "topics": list(comparison.topics),
        "metrics": [{
            "metric": metric.metric,
            "runs": [{"run": s.run, "label": s.label, "mean": s.mean, "ci": [s.ci_low, s.ci_high],
                      "better_than": list(s.better_than)} for s in metric.runs],
            "pairs": [{"a": p.a, "b": p.b, "mean_difference": p.mean_difference,
                       "effect_size": p.effect_size, "p_values": dict(p.p_values),
                       "adjusted_p_values": dict(p.adjusted), "significant": p.significant,
                       "better": p.better} for p in metric.pairs],
        } for metric in comparison.metrics],
    }
    return document
