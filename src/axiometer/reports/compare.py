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

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from axiometer.reports.numbers import DEFAULT_WIDTH, wrap_lines

if TYPE_CHECKING:  # reports only read the result; significance loads numpy
    from axiometer.significance import RunComparison, MetricComparison, PairComparison, RunSummary

__all__ = ["REPORT_FORMATS", "DIGITS", "format_comparison", "p_text"]

REPORT_FORMATS = ("text", "markdown", "latex", "html", "json")

#: Decimals of a mean and of its interval.
DIGITS = 4

#: How the settings line names each test.
_TEST_NAMES = {"randomization": "Fisher's randomization test", "t": "the paired t-test",
               "wilcoxon": "the Wilcoxon signed-rank test"}

#: Short column names of the tests in the pairs table.
_TEST_COLUMNS = {"randomization": "p rand.", "t": "p t-test", "wilcoxon": "p Wilcoxon"}

_SUPERSCRIPT = dict(zip("abcdefghijklmnoprstuvwxyz0123456789",
                        "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ⁰¹²³⁴⁵⁶⁷⁸⁹"))


def format_comparison(comparison: RunComparison, format: str = "text", *, digits: int = DIGITS,
                      width: int = DEFAULT_WIDTH) -> str:
    """``comparison`` as ``text``, ``markdown``, ``latex``, ``html`` or ``json``; text lines that
    explain the tables are wrapped to ``width`` columns."""
    if format not in REPORT_FORMATS:
        raise ValueError(f"unknown report format {format!r}; known: {', '.join(REPORT_FORMATS)}")
    if format == "json":
        return _json(comparison)
    if format == "latex":
        return _latex(comparison, digits)
    if format == "html":
        return _html(comparison, digits)
    return _plain(comparison, digits, width, markdown=format == "markdown")


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


def _superscript(text: str) -> str:
    return "".join(_SUPERSCRIPT.get(char, "·" if char == "," else char) for char in text)


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


# -- text and Markdown ------------------------------------------------------------------

def _plain(comparison: RunComparison, digits: int, width: int, markdown: bool) -> str:
    labels = dict(zip(comparison.runs, comparison.labels))
    table_format = "github" if markdown else "simple"
    title = _title(comparison)
    parts = [f"**{title}**" if markdown else title, "\n".join(_lines(_settings(comparison), markdown, width))]
    rows = []
    for n, run in enumerate(comparison.runs):
        row = [comparison.labels[n], _escape_markdown(run) if markdown else run]
        for metric in comparison.metrics:
            summary = metric.runs[n]
            mean = _fixed(summary.mean, digits)
            marks = _marks(summary, labels)
            if markdown:
                if summary.mean == _best(metric):
                    mean = f"**{mean}**"
                mean += f"<sup>{marks}</sup>" if marks else ""
            else:
                mean += _superscript(marks)
            row.append(f"{mean} [{_fixed(summary.ci_low, digits)}, {_fixed(summary.ci_high, digits)}]")
        rows.append(row)
    headers = ["#", "run", *((_escape_markdown(m.metric) if markdown else m.metric) for m in comparison.metrics)]
    parts.append(tabulate(rows, headers=headers, tablefmt=table_format, disable_numparse=True))
    legend = _legend(comparison)
    if markdown:
        legend[0] += " Bold: the highest mean of the metric."
    parts.append("\n".join(_lines(legend, markdown, width)))
    for metric in comparison.metrics:
        name = _escape_markdown(metric.metric) if markdown else metric.metric
        heading = f"Pairs on {name} ({len(metric.pairs):,})"
        parts.append(f"**{heading}**" if markdown else heading + ":")
        rows = [_pair_row(comparison, pair, digits) for pair in metric.pairs]
        if markdown:
            rows = [[_escape_markdown(cell) for cell in row] for row in rows]
        parts.append(tabulate(rows, headers=_pair_headers(comparison), tablefmt=table_format,
                              disable_numparse=True, colalign=("left", "left") + ("right",) * (len(rows[0]) - 2)))
    notes = _notes(comparison)
    if notes:
        parts.append("\n".join(_lines(notes, markdown, width)))
    return "\n\n".join(parts) + "\n"


def _lines(sentences: Sequence[str], markdown: bool, width: int) -> list[str]:
    if markdown:  # Markdown reflows paragraphs itself
        return [f"- {sentence}" for sentence in sentences]
    return wrap_lines(sentences, width)


def _escape_markdown(text: str) -> str:
    return text.replace("|", "\\|")


# -- LaTeX -------------------------------------------------------------------------------

_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "&": r"\&", "%": r"\%",
                  "$": r"\$", "#": r"\#", "^": r"\^{}", "~": r"\~{}"}


def _tex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def _latex(comparison: RunComparison, digits: int) -> str:
    labels = dict(zip(comparison.runs, comparison.labels))
    pairs = len(comparison.runs) * (len(comparison.runs) - 1) // 2
    test = _TEST_NAMES[comparison.test] + _randomization_settings(comparison, ", {}")
    correction = (f"Holm--Bonferroni across the {pairs:,} pairs of each metric"
                  if comparison.correction == "holm" else "no correction for multiple comparisons")
    confidence = f"{comparison.confidence * 100:g}\\%"
    caption = (f"Mean over the {len(comparison.topics):,} topics, with its {confidence} bootstrap "
               f"percentile interval in brackets ({comparison.resamples:,} resamples of the topics). "
               f"A superscript letter names a run this run is significantly better than ({_tex(test)}, "
               f"two-sided, {correction}, $p \\le {comparison.alpha:g}$). Bold: the highest mean of "
               "each metric.")
    lines = ["% Needs \\usepackage{booktabs}. Made by axiometer compare; "
             f"seed {comparison.seed}.",
             "\\begin{table}[t]", "\\centering",
             f"\\caption{{{caption}}}", "\\label{tab:comparison}",
             "\\begin{tabular}{cl" + "r" * len(comparison.metrics) + "}", "\\toprule",
             " & Run & " + " & ".join(_tex(m.metric) for m in comparison.metrics) + " \\\\", "\\midrule"]
    for n, run in enumerate(comparison.runs):
        cells = []
        for metric in comparison.metrics:
            summary = metric.runs[n]
            mean = _fixed(summary.mean, digits)
            if summary.mean == _best(metric):
                mean = f"\\textbf{{{mean}}}"
            marks = _marks(summary, labels)
            mark = f"$^{{\\mathrm{{{marks}}}}}$" if marks else ""
            cells.append(f"{mean}{mark} {{\\scriptsize [{_fixed(summary.ci_low, digits)}, "
                         f"{_fixed(summary.ci_high, digits)}]}}")
        lines.append(f"{comparison.labels[n]} & {_tex(run)} & " + " & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}", ""]
    # The pairs: one block per metric.
    headers = ["Metric", "A", "B", "$A - B$", "$d_z$",
               *(_tex(_TEST_COLUMNS[t]) for t in _ordered_tests(comparison))]
    if comparison.correction == "holm":
        headers.append("Holm")
    headers.append("Sig.")
    lines += ["\\begin{table}[t]", "\\centering",
              f"\\caption{{Every pair of runs: the difference of the means, Cohen's $d_z$, the two-sided "
              f"p-values of the three tests and the {'Holm-adjusted p-value of the ' if comparison.correction == 'holm' else 'p-value of the '}"
              f"{_tex(_TEST_NAMES[comparison.test])} that decides significance at "
              f"$p \\le {comparison.alpha:g}$.}}",
              "\\label{tab:comparison-pairs}",
              "\\begin{tabular}{lll" + "r" * (len(headers) - 3) + "}", "\\toprule",
              " & ".join(headers) + " \\\\"]
    for metric in comparison.metrics:
        lines.append("\\midrule")
        for k, pair in enumerate(metric.pairs):
            row = _pair_row(comparison, pair, digits)
            first = _tex(metric.metric) if k == 0 else ""
            lines.append(" & ".join([first, *(_tex(cell) for cell in row)]) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    notes = _notes(comparison)
    if notes:
        lines += ["% " + note for note in notes]
    return "\n".join(lines) + "\n"


# -- HTML --------------------------------------------------------------------------------

def _html(comparison: RunComparison, digits: int) -> str:
    from axiometer.reports.html import data_table, escape, page

    labels = dict(zip(comparison.runs, comparison.labels))
    rows = []
    for n, run in enumerate(comparison.runs):
        row = [escape(comparison.labels[n]), escape(run)]
        for metric in comparison.metrics:
            summary = metric.runs[n]
            mean = escape(_fixed(summary.mean, digits))
            if summary.mean == _best(metric):
                mean = f"<strong>{mean}</strong>"
            marks = _marks(summary, labels)
            if marks:
                names = ", ".join(summary.better_than)
                mean += f'<sup title="significantly better than {escape(names)}">{escape(marks)}</sup>'
            row.append(f'{mean} <span class="muted">[{escape(_fixed(summary.ci_low, digits))}, '
                       f'{escape(_fixed(summary.ci_high, digits))}]</span>')
        rows.append(row)
    metrics = range(2, 2 + len(comparison.metrics))
    legend = _legend(comparison)
    legend[0] += " Bold: the highest mean of the metric."
    body = ['<section id="runs"><h2>Runs</h2>',
            data_table(["#", "run", *(m.metric for m in comparison.metrics)], rows, numeric=metrics, raw=True),
            "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in legend) + "</ul>"]
    notes = _notes(comparison)
    if notes:
        body.append("<ul>" + "".join(f"<li>{escape(note)}</li>" for note in notes) + "</ul>")
    body.append("</section>")
    toc = [("runs", "Runs")]
    for index, metric in enumerate(comparison.metrics, 1):
        anchor = f"pairs-{index}"
        toc.append((anchor, f"Pairs: {metric.metric}"))
        headers = _pair_headers(comparison)
        body += [f'<section id="{anchor}"><h2>Pairs: {escape(metric.metric)}</h2>',
                 data_table(headers, [_pair_row(comparison, pair, digits) for pair in metric.pairs],
                            numeric=range(2, len(headers) - 1)),
                 "</section>"]
    return page("Comparison of runs", body, subtitle=[_title(comparison), *_settings(comparison)], toc=toc)


# -- JSON --------------------------------------------------------------------------------

def _json(comparison: RunComparison) -> str:
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
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
