"""Reports of a meta-evaluation (:class:`axiometer.meta.MetaResult`): text, Markdown, LaTeX, HTML, JSON.

- the header: the campaign (runs × topics, where it came from), the
  simulated scenarios if any, and the settings (test, correction,
  permutations, trials, seed);
- one row per metric: Metric Unanimity against the other metrics,
  discriminative power at 95 % and 99 % (count and share of the run
  pairs), stability; every column explained under the table;
- Kendall's tau-b between the metrics' run orderings and tau-AP (row =
  reference), as two matrices whose columns are numbered after the rows
  (the metric names stay in one column, so the matrices fit any width);
- the tau curve, when one was computed: one row per parameter value.

JSON keeps every number at full precision (``null`` where undefined);
text, Markdown and LaTeX print MU, tau and stability with 4 decimals (as
the seed papers' tables), shares as percentages with one decimal; LaTeX
writes the per-metric table and the tau matrices as booktabs tables with
the explanations as their notes; HTML is a page of the text report.
Reports only format; they never compute.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from axiometer.reports.document import (
    Block, BulletList, Document, Group, Inline, Inlines, JsonStyle, Lines, Math, Paragraph, Row, Strong, Table,
    TableCell,
)
from axiometer.reports.numbers import DEFAULT_WIDTH
from axiometer.reports.render import check_format, formats_of, render

if TYPE_CHECKING:
    from axiometer.meta import MetaResult, TauCurve

__all__ = ["REPORT_FORMATS", "format_meta", "meta_document", "TEST_NAMES"]

REPORT_FORMATS = formats_of("meta")
_TEXT = ("text", "markdown")

#: How each test is named in a report.
TEST_NAMES = {"randomization": "Fisher's randomization test", "t": "the paired t-test",
              "wilcoxon": "the Wilcoxon signed-rank test"}


def _percent(count: int, total: int) -> str:
    return "n/a" if not total else f"{100 * count / total:.1f}%"


#: Decimals of MU, tau and stability in text, Markdown and LaTeX (the seed papers print 3 or 4).
DECIMALS = 4


def _fixed(value: float | None) -> str:
    """``value`` with :data:`DECIMALS` decimals (``-0.0000`` printed as ``0.0000``), ``undefined`` for ``None``."""
    if value is None:
        return "undefined"
    text = f"{value:.{DECIMALS}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


_tau = _fixed


def _test_text(result: MetaResult) -> str:
    name = TEST_NAMES.get(result.test, result.test)
    if result.test == "randomization":
        topics = len(result.topics)
        name += (f" (all 2^{topics} = {2 ** topics} sign patterns of the per-topic differences, exact, two-sided)"
                 if result.per_metric[0].power.exhaustive else
                 f" ({result.permutations} random sign flips of the per-topic differences, two-sided)")
    correction = ("p-values adjusted across each metric's pairs with Holm-Bonferroni"
                  if result.correction == "holm" else "no correction for multiple pairs")
    return f"{name}; {correction}"


def _header(result: MetaResult, source: str) -> list[str]:
    runs, topics = len(result.runs), len(result.topics)
    pairs = runs * (runs - 1) // 2
    sample = result.per_metric[0].stability.sample
    lines = [f"Meta-evaluation of {len(result.metrics)} metric{'s' if len(result.metrics) != 1 else ''} on "
             f"{runs} runs × {topics} topics ({pairs} run pairs)" + (f" of {source}" if source else "") + "."]
    if result.simulation is not None:
        lines.append(f"Simulated scenario{'s' if len(result.simulation.scenarios) > 1 else ''} "
                     f"({', '.join(result.simulation.scenarios)}; Amigó et al., SIGIR 2018, section 6.3): "
                     f"{result.simulation.description}.")
    lines.append(f"Significance: {_test_text(result)}. Stability: {result.trials} trials of {sample} of the "
                 f"{topics} topics. Seed {result.seed}.")
    grades = _grades_line(result)
    if grades:
        lines.append(grades)
    return lines


def _grades_line(result: MetaResult) -> str:
    """How each metric read the grades (``ScoreResult.conventions``), metrics grouped by convention."""
    scores = result.scores
    conventions = getattr(scores, "conventions", ()) if scores is not None else ()
    groups: dict[tuple[str, str], list[str]] = {}
    for metric, mapping, reference in conventions:
        if metric in result.metrics:
            groups.setdefault((mapping, reference), []).append(metric)
    if not groups:
        return ""
    if result.simulation is not None and result.simulation.grades is not None:
        return (f"Grades: every metric reads the simulated relevance of the {result.simulation.grades} mapping "
                "(simulated values are no grades a metric's own convention could read).")
    return "Grades: " + "; ".join(f"{', '.join(metrics)} read {mapping} (convention: {_plain(reference)})"
                                  for (mapping, reference), metrics in groups.items()) + "."


def _plain(reference: str) -> str:
    """``ERR (Chapelle et al. 2009)`` -> ``ERR, Chapelle et al. 2009``: no parentheses inside parentheses."""
    head, paren, tail = reference.partition(" (")
    return f"{head}, {tail[:-1]}" if paren and tail.endswith(")") else reference


def _rows(result: MetaResult) -> list[tuple[str, ...]]:
    rows = []
    for m in result.per_metric:
        u = m.unanimity
        mu = "n/a" if u is None else _fixed(u.mu)
        p = m.power
        cells = [f"{p.count(level)} ({_percent(p.count(level), p.pairs)})" for level in p.levels]
        rows.append((m.metric, mu, *cells, "n/a" if m.stability.value is None else _fixed(m.stability.value)))
    return rows


def _level_header(level: float) -> str:
    return f"p <= {level:g}"


def _column_notes(result: MetaResult) -> list[tuple[str, str]]:
    first = result.per_metric[0]
    pairs, levels = first.power.pairs, first.power.levels
    stab = first.stability
    test = {"randomization": "randomization test", "t": "paired t-test",
            "wilcoxon": "Wilcoxon signed-rank test"}.get(result.test, f"{result.test} test")
    notes = [("MU", "Metric Unanimity against the other metrics of the table (Amigó et al., SIGIR 2018, "
                    "section 6.1): log2(P(m,M) / (P(m) P(M))) over ordered pairs of two runs' outputs for "
                    "one topic, pooled over the topics; m: the metric scores the first output higher (a tie "
                    "counts 1/2), M: every other metric scores it at least as high. Higher: the metric "
                    "agrees more with unanimous improvements; n/a with a single metric")]
    for level in levels:
        confidence = f"{100 * (1 - level):g}%"
        notes.append((_level_header(level),
                      f"discriminative power at {confidence} (Türkmen et al. 2023, section 4.3): the run pairs, "
                      f"of {pairs}, whose {test} gives p <= {level:g}, and their share"))
    notes.append(("stability", f"Türkmen et al. 2023, section 4.4: {stab.trials} trials, each drawing "
                               f"{stab.sample} of the {stab.topics} topics without replacement and comparing "
                               "every run pair on its mean over them; a pair's stability is the share of "
                               "trials agreeing with its majority outcome (a tied trial agrees with neither); "
                               "the column is the mean over the pairs (1: every verdict survives every sample)"))
    return notes


def _notes(result: MetaResult) -> list[str]:
    notes = [f"{m.metric}: MU undefined: {m.unanimity.undefined}" for m in result.per_metric
             if m.unanimity is not None and m.unanimity.undefined]
    scores = result.scores
    if scores is not None:
        for run in scores.runs:
            missing = scores.missing.get(run, ())
            if missing:
                notes.append(f"{run}: lacks {len(missing)} of the {len(scores.topics)} topics, scored 0 there")
    return notes


_TAU_B_TEXT = ("Kendall's tau-b between the metrics' run orderings (runs ordered by their mean; symmetric; "
               "ties are equal means; undefined when a metric ties every run).")
_TAU_AP_TEXT = ("tau-AP (Yilmaz, Aslam & Robertson, SIGIR 2008) of the column metric's ordering against the row "
                "metric's as the reference: top-weighted, so a swap among the best runs costs more; runs the column "
                "metric ties are neither right nor wrong (Urbano & Marrero, ICTIR 2017), a pair only the reference "
                "ties counts half right.")


def _matrix(result: MetaResult, which: str) -> tuple[list[str], list[list[str]]]:
    headers = ["", "metric", *(str(i) for i in range(1, len(result.metrics) + 1))]
    rows = []
    for i, a in enumerate(result.metrics, 1):
        row = [str(i), a]
        for b in result.metrics:
            if a == b:
                row.append("–")  # a metric against itself
            else:
                row.append(_tau(getattr(result.correlation(a, b), which)))
        rows.append(row)
    return headers, rows


def _curve_rows(curve: TauCurve) -> list[tuple[str, ...]]:
    return [(f"{p.value:g}", p.metric, _tau(p.tau_b), _tau(p.tau_ap)) for p in curve.points]


def _curve_text(curve: TauCurve) -> str:
    return (f"Kendall's tau between {curve.against} (the reference) and {curve.metric} as {curve.param} varies, "
            f"on the runs' means over {curve.topics} topics (Türkmen et al. 2023, Fig. 2).")


def _text_blocks(result: MetaResult, source: str) -> list[Block]:
    """The header, the per-metric table with its columns explained, the notes, the rank correlation
    matrices and the tau curve, as text, Markdown and the page show them."""
    levels = result.per_metric[0].power.levels
    blocks: list[Block] = [Paragraph(parts=(line,), hang=2, tight=_TEXT if k else ())
                           for k, line in enumerate(_header(result, source))]
    blocks.append(_table(("metric", "MU", *(_level_header(v) for v in levels), "stability"), _rows(result)))
    blocks.append(Paragraph(parts=("Columns:",), formats=("text", "html")))
    blocks.append(BulletList(items=tuple((f"{name}: {text}.",) for name, text in _column_notes(result)),
                             tight=("text",)))
    notes = _notes(result)
    if notes:
        blocks.append(BulletList(items=tuple((n,) for n in notes), marker=""))
    if len(result.metrics) > 1:
        for which, text in (("tau_b", _TAU_B_TEXT), ("tau_ap", _TAU_AP_TEXT)):
            headers, rows = _matrix(result, which)
            blocks += [Paragraph(parts=(Strong((text,)),), hang=2), _table(headers, rows)]
        blocks.append(Paragraph(parts=("Columns 1, 2, ... are the metrics of rows 1, 2, ...; – a metric against "
                                       "itself; tau-AP's row is the reference ordering.",), hang=2))
    if result.curve is not None:
        curve = result.curve
        blocks += [Paragraph(parts=(_curve_text(curve),), hang=2),
                   _table((curve.param, "metric", "tau-b", "tau-AP"), _curve_rows(curve))]
    return [Group(children=tuple(blocks), formats=("text", "markdown", "html"),
                  lines=Lines(open=True, heading=True, between=True, close=True))]


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> Table:
    return Table(headers=tuple(TableCell((h,), header=True) for h in headers), simple=True,
                 rows=tuple(Row(tuple(TableCell((c,)) for c in row)) for row in rows))


def meta_document(result: MetaResult, source: str = "") -> Document:
    """The meta-evaluation's document (see the module docstring)."""
    return Document(title="", page_title="Meta-evaluation", blocks=(*_text_blocks(result, source),
                                                                     *_latex_tables(result, source)),
                    data=lambda: _json(result, source), json=JsonStyle(indent=1, ascii=True, finite=False),
                    preamble=("Generated by axiometer (axiometer meta --format latex).",
                              "Requires \\usepackage{booktabs}."))


def format_meta(result: MetaResult, format: str = "text", source: str = "", width: int = DEFAULT_WIDTH) -> str:
    """``result`` as ``text``, ``markdown``, ``latex``, ``json`` or ``html``; ``source`` says where the
    campaign came from; text lines wrapped to ``width``."""
    check_format("meta", format)
    return render(meta_document(result, source), format, width)


# -- JSON -----------------------------------------------------------------------------------------

def _json(result: MetaResult, source: str) -> dict[str, Any]:
    metrics = []
    for m in result.per_metric:
        u, p, s = m.unanimity, m.power, m.stability
        metrics.append({
            "metric": m.metric,
            "means": dict(zip(result.runs, result.means[m.metric])),
            "unanimity": None if u is None else {
                "mu": u.mu, "ratio": None if u.ratio is None else str(u.ratio), "others": list(u.others),
                "pairs": u.pairs, "unanimous": u.unanimous, "undefined": u.undefined},
            "discriminative_power": {
                "test": p.test, "correction": p.correction, "pairs": p.pairs, "exhaustive": p.exhaustive,
                "levels": [{"alpha": level, "significant": p.count(level), "share": p.share(level)}
                           for level in p.levels]},
            "stability": {"value": s.value, "trials": s.trials, "sample": s.sample, "topics": s.topics},
        })
    record: dict[str, Any] = {
        "source": source, "runs": list(result.runs), "topics": len(result.topics),
        "simulation": None if result.simulation is None else {
            "scenarios": list(result.simulation.scenarios), "description": result.simulation.description},
        "settings": {"test": result.test, "correction": result.correction, "permutations": result.permutations,
                     "trials": result.trials, "seed": result.seed},
        "metrics": metrics,
        "rank_correlations": [{"reference": c.reference, "other": c.other, "tau_b": c.tau_b, "tau_ap": c.tau_ap,
                               "concordant": c.concordant, "discordant": c.discordant,
                               "ties_reference": c.ties_reference, "ties_other": c.ties_other}
                              for c in result.correlations],
        "notes": _notes(result),
    }
    if result.curve is not None:
        c = result.curve
        record["tau_curve"] = {"metric": c.metric, "param": c.param, "against": c.against,
                               "points": [{"value": p.value, "metric": p.metric, "tau_b": p.tau_b,
                                           "tau_ap": p.tau_ap} for p in c.points]}
    return record


# -- LaTeX ----------------------------------------------------------------------------------------

_LATEX = ("latex",)


def _latex_table(caption: Inlines, label: str, columns: str, headers: Sequence[Inline],
                 rows: Sequence[Sequence[str]], note: str) -> Table:
    """A booktabs table with its note (:mod:`axiometer.reports.render.latex` escapes the text)."""
    return Table(headers=tuple(TableCell((h,), header=True) for h in headers),
                 rows=tuple(Row(tuple(TableCell((c,)) for c in row)) for row in rows), caption=caption,
                 label=label, align=columns, note=(Paragraph(parts=(note,)),), formats=_LATEX)


def _latex_tables(result: MetaResult, source: str) -> list[Block]:
    levels = result.per_metric[0].power.levels
    headers: list[Inline] = ["Metric", "MU", *(Math(f"p \\leq {v:g}", f"p <= {v:g}") for v in levels), "Stability"]
    note = (" ".join(_header(result, source)) + " "
            + " ".join(f"{name}: {text}." for name, text in _column_notes(result)))
    notes = _notes(result)
    if notes:
        note += " " + "; ".join(notes) + "."
    tables = [_latex_table(("Meta-evaluation of the metrics: Metric Unanimity, discriminative power and stability.",),
                           "tab:axiometer-meta", "l" + "r" * (2 + len(levels)), headers, _rows(result), note)]
    tau_b, tau_ap = Math("\\tau_b", "tau_b"), Math("\\tau_{AP}", "tau_AP")
    if len(result.metrics) > 1:
        headers_b, matrix = _matrix(result, "tau_b")
        _, matrix_ap = _matrix(result, "tau_ap")
        columns = "rl" + "r" * len(result.metrics)
        tables.append(_latex_table(("Kendall's ", tau_b, " between the metrics' system orderings."),
                                   "tab:axiometer-tau", columns, ["", "Metric", *headers_b[2:]], matrix,
                                   _TAU_B_TEXT + " Columns are the metrics of the numbered rows."))
        tables.append(_latex_table((tau_ap, " of the column metric's system ordering against the row metric's."),
                                   "tab:axiometer-tau-ap", columns, ["", "Reference", *headers_b[2:]], matrix_ap,
                                   _TAU_AP_TEXT))
    if result.curve is not None:
        curve = result.curve
        tables.append(_latex_table((_curve_text(curve),), "tab:axiometer-tau-curve", "rlrr",
                                   [curve.param, "Metric", tau_b, tau_ap], _curve_rows(curve), _TAU_AP_TEXT))
    return list(tables)
