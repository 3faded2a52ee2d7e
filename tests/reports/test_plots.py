"""The report's pictures (axiometer.reports.plots) and the data they are drawn from.

Check.curve is compared with D(n) computed by hand from RBP's formula; the
pictures are drawn from hand-built results (so a test reads what it expects
from its own input) and read back through their SVG: in a picture's own
file (``to_svg`` without a page's prefix) matplotlib draws glyphs as paths
and writes each text beside them as a comment, which :func:`texts` collects.
"""

from __future__ import annotations

import dataclasses
import html
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from axiometer.axioms import get
from axiometer.axioms.constraints.threshold import threshold_grid
from axiometer.checking import Budget, check
from axiometer.core import ValidationError
from axiometer.generators.domain_spec import parse_domain
from axiometer.intrinsic.classify import classify
from axiometer.metrics.resolve import resolve
from axiometer.reports import plots
from axiometer.reports.table.cells import MARKS
from axiometer.results import (
    Boundary, BoundaryCurve, Cell, Certain, Check, Evidence, IntrinsicResult, OutputRecord, PropertyVerdict,
    RootForm, Side, Witness,
)
from axiometer.scoring import KendallTau, Mean, ScoreResult

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    """Every text drawn in the picture, in drawing order (one entry per line of a text)."""
    return [html.unescape(t) for t in re.findall(r"<!-- (.*?) -->", svg)]


def assert_inline_svg(svg: str) -> ET.Element:
    """Non-empty, parses as XML, an ``<svg>`` element first, nothing fetched from elsewhere."""
    assert svg.startswith("<svg ") and "<?xml" not in svg and "<!DOCTYPE" not in svg
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert len(root.findall(f".//{SVG}path")) > 10
    # References stay inside the picture: no href or url() to anything but a local #id, no
    # image, no stylesheet import, no font file.
    assert all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', svg))
    assert all(u.startswith("#") for u in re.findall(r"url\(([^)]*)\)", svg))
    assert "<image" not in svg and "@import" not in svg and "@font-face" not in svg
    # The only URIs are the SVG and XLink namespaces.
    assert set(re.findall(r"https?://[^\"'\s)]+", svg)) <= {"http://www.w3.org/2000/svg",
                                                            "http://www.w3.org/1999/xlink"}
    return root


# -- Check.curve, by hand ---------------------------------------------------------------------------

def rbp_d(p: Fraction, rc: Fraction, n: int) -> Fraction:
    """D(n) for RBP = (1-p) sum_i r_i p^(i-1): a_n has rc at position 1, b_n at positions n+1..2n.

    Q(a_n) = (1-p) rc; Q(b_n) = (1-p) rc (p^n + ... + p^(2n-1)) = rc p^n (1 - p^n).
    """
    return (1 - p) * rc - rc * p ** n * (1 - p ** n)


RCS = ("1/100", "1/20", "1/10")


def test_rbp_half_closeth_curve_is_positive_everywhere_for_every_rc():
    # p = 1/2: D(m) = rc (1/2 - 2^-m + 4^-m) >= rc/4 > 0 (x - x^2 <= 1/4), so no m gives
    # Q(b_m) > Q(a_m): violated, and the curve says why.
    result = check(resolve("RBP(p=0.5)").metric, get("CloseTh"))
    assert result.verdict == "violated" and result.note == "fails for rc = 1/100"
    # A violation still records every rc (the later ones for the picture only).
    assert [rc for rc, _ in result.curve] == list(RCS)
    grid = threshold_grid(Budget().horizon)
    for rc, points in result.curve:
        assert [n for n, _ in points] == list(grid)
        for n, d in points:
            assert d > 0
            assert d == pytest.approx(float(rbp_d(Fraction(1, 2), Fraction(rc), n)), rel=1e-12)
    # D(1) at rc = 1/10: Q(a_1) = (1/2)(1/10) = 1/20, Q(b_1) = (1/2)(1/2)(1/10) = 1/40.
    assert dict(dict(result.curve)["1/10"])[1] == pytest.approx(1 / 20 - 1 / 40, rel=1e-15)


def test_rbp_08_curve_has_the_hand_computed_sign_pattern():
    # p = 4/5: D(n)/rc = 1/5 - p^n + p^2n: n = 1: 1/25 > 0; n = 2..5 negative; from n = 6 positive.
    p = Fraction(4, 5)
    deep = check(resolve("RBP(p=0.8)").metric, get("DeepTh"))
    close = check(resolve("RBP(p=0.8)").metric, get("CloseTh"))
    assert (deep.witness.value, close.witness.value) == ("n = 6", "m = 2")
    assert deep.curve == close.curve  # one construction, two rules
    for rc, points in deep.curve:
        signs = [(d > 0) - (d < 0) for _, d in points]
        assert signs == [(rbp_d(p, Fraction(rc), n) > 0) - (rbp_d(p, Fraction(rc), n) < 0) for n, _ in points]
        assert signs[:6] == [1, -1, -1, -1, -1, 1] and set(signs[5:]) == {1}


def test_an_exactly_decided_tie_is_recorded_as_zero():
    # P@10 on the first grid point: a_1 and b_1 each hold one relevant document in the top 10.
    result = check(resolve("P@10").metric, get("CloseTh"))
    for _, points in result.curve:
        assert dict(points)[1] == 0.0


# -- the threshold curve ----------------------------------------------------------------------------

def test_threshold_curve_marks_the_witness():
    checks = [check(resolve("RBP(p=0.8)").metric, get(c)) for c in ("DeepTh", "CloseTh")]
    assert plots.same_curve(checks) == [checks]  # one construction, two rules: one panel
    svg = plots.to_svg(plots.threshold_curves(checks))
    assert_inline_svg(svg)
    drawn = texts(svg)
    assert "DeepTh witness n = 6" in drawn and "CloseTh witness m = 2" in drawn
    assert "RBP(p=0.8) × DeepTh: witness (n = 6)" in drawn and "RBP(p=0.8) × CloseTh: witness (m = 2)" in drawn
    assert {"rc = 1/100", "rc = 1/20", "rc = 1/10"} <= set(drawn)
    # The strip: RBP(p=0.8) has + at n = 1, - on 2..5, + from 6 on for every rc, so the rc share one
    # row per constraint: DeepTh's and CloseTh's.
    assert {"DeepTh, every rc", "CloseTh, every rc"} <= set(drawn)
    assert drawn.count("−") == 2 and drawn.count("+") == 2 * 2
    assert any("$D(n) = Q(a_n) - Q(b_n)$" == t for t in drawn)


def _fills(svg: str, style: str) -> list[str]:
    """The fill of every element whose style ends with ``style`` (its stroke), in drawing order (a strip's
    boxes and runs are drawn left to right)."""
    return re.findall(r'style="fill: (#[0-9a-f]{6}); ' + re.escape(style) + '"', svg)


def test_threshold_strips_are_coloured_by_whether_the_constraint_holds_as_a_verdict_box_is():
    # The colours of a violated and a witness box, as a verdict strip draws them (0.5 violated, 0.8 witness).
    boxes = _fills(plots.to_svg(plots.verdict_strip(strip_cell())), "stroke: #555555; stroke-width: 0.6; "
                                                                     "stroke-linejoin: miter")
    violated, witness = boxes[0], boxes[3]
    assert violated != witness
    # RBP(p=0.8): D > 0 at n = 1, < 0 on 2..5, > 0 from 6 on. DeepTh (asks D > 0) holds where CloseTh
    # (asks D < 0) does not: by what each constraint asks, not by the sign.
    for constraint, runs in (("DeepTh", [witness, violated, witness]), ("CloseTh", [violated, witness, violated])):
        one = check(resolve("RBP(p=0.8)").metric, get(constraint))
        svg = plots.to_svg(plots.threshold_curve(one))
        assert _fills(svg, "stroke: #ffffff; stroke-width: 0.5") == runs, constraint
        # The witness's line is the colour of a holding verdict too.
        assert re.search(r'style="fill: none; stroke-dasharray: [^;]*; stroke-dashoffset: 0; stroke: '
                         + witness + '; stroke-width: 1.4"', svg), constraint


def test_threshold_curve_marks_the_counterexample():
    violated = check(resolve("RBP(p=0.5)").metric, get("CloseTh"))
    svg = plots.to_svg(plots.threshold_curve(violated))
    assert_inline_svg(svg)
    assert "counterexample at rc = 1/100, m = 1 (the first rc that fails)" in texts(svg)


def test_threshold_curve_needs_a_curve():
    with pytest.raises(ValueError, match="no D\\(n\\) curve"):
        plots.threshold_curve(check(resolve("RBP(p=0.8)").metric, get("Pri"), budget=Budget(cases=5)))


# -- verdicts over the grid -------------------------------------------------------------------------

def grid_check(verdict: str, **params: object) -> Check:
    name = "RBU(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")"
    return Check(constraint="CloseTh", metric=name, params=tuple(params.items()), verdict=verdict, mode="truncate",
                 witness=Witness("m = 3", by_truncation=verdict == "witness" and params.get("p") == 0.9))


def strip_cell() -> Cell:
    verdicts = {0.5: "violated", 0.6: "violated", 0.7: "error", 0.8: "witness", 0.9: "witness", 0.99: "n/a"}
    checks = tuple(grid_check(v, p=p, e=0.05) for p, v in verdicts.items())
    return Cell(row="RBU", metric="RBU(p=0.8,e=0.05)", constraint="CloseTh", verdict="witness",
                summary="witness for p in {0.8, 0.9}", checks=checks)


def test_strip_has_one_marked_box_per_setting():
    svg = plots.to_svg(plots.verdict_strip(strip_cell()))
    assert_inline_svg(svg)
    drawn = texts(svg)
    # One mark per box; by truncation at p = 0.9 adds the t.
    assert [t for t in drawn if t in {"✗", "E", "W", "Wᵗ", "n/a", "✓"}] == ["✗", "✗", "E", "W", "Wᵗ", "n/a"]
    assert [t for t in drawn if t in {"0.5", "0.6", "0.7", "0.8", "0.9", "0.99"}] == \
        ["0.5", "0.6", "0.7", "0.8", "0.9", "0.99"]
    # The fixed parameter and the summary are in the title; the legend names every colour.
    assert "RBU × CloseTh (e = 0.05): witness for p in {0.8, 0.9}" in drawn
    for verdict in ("satisfied", "witness", "violated", "error", "n/a"):
        mark, text = plots.VERDICT_STYLE[verdict][1], plots.VERDICT_STYLE[verdict][3]
        assert f"{mark}  {text}" in drawn
    assert "ᵗ  the witness exists only by truncation at the cutoff" in drawn


def test_grid_has_one_box_per_setting_and_marks_the_missing_ones():
    checks = tuple(grid_check("witness" if p >= 0.8 else "violated", p=p, e=e)
                   for p in (0.5, 0.8, 0.9) for e in (Fraction(1, 100), Fraction(1, 20)) if (p, e) != (0.9, Fraction(1, 100)))
    cell = Cell(row="RBU", metric="RBU(p=0.8,e=1/20)", constraint="CloseTh", verdict="witness",
                summary="witness for p >= 0.8", checks=checks)
    svg = plots.to_svg(plots.verdict_region(cell))
    assert_inline_svg(svg)
    drawn = texts(svg)
    assert sorted(t for t in drawn if t in {"✗", "W", "Wᵗ"}) == sorted(["✗", "✗", "W", "W", "Wᵗ"])
    assert {"1/100", "1/20", "p", "e"} <= set(drawn)  # fractions print as fractions
    assert "dotted: a setting the grid does not hold" in drawn


def test_region_needs_one_or_two_varying_parameters():
    cell = strip_cell()
    with pytest.raises(ValueError, match="a grid needs two varying parameters, the cell has 1 \\(p\\)"):
        plots.verdict_grid(cell)
    one = Cell(row="RBP", metric="RBP(p=0.8)", constraint="Pri", verdict="satisfied", summary="satisfied",
               checks=(grid_check("satisfied", p=0.8),))
    with pytest.raises(ValueError, match="a strip needs one varying parameter, the cell has 0"):
        plots.verdict_strip(one)


def test_verdict_marks_are_the_text_reports():
    assert {v: style[1] for v, style in plots.VERDICT_STYLE.items()} == MARKS


# -- intrinsic: attained values ---------------------------------------------------------------------

def test_classifier_records_the_attained_values_with_their_ties():
    # P@10 on the 64 binary rankings of 6 documents: k relevant documents score k/10, C(6, k) rankings each.
    result = classify(resolve("P@10").metric, parse_domain("rankings(n=6)"))
    assert result.values == tuple((k / 10, math.comb(6, k)) for k in range(7))


def record(index: int, score: float, exact: str) -> OutputRecord:
    return OutputRecord(index, f"out{index}", (), score, exact)


def intrinsic_result() -> IntrinsicResult:
    interval = PropertyVerdict("interval", False, True,
                               (record(1, 0.25, "1/4"), record(3, 0.5, "1/2"), record(4, 1.0, "1")),
                               "consecutive values have unequal gaps")
    metric = PropertyVerdict("metric", False, True, (record(1, 0.25, "1/4"), record(2, 0.25, "1/4")), "tie")
    return IntrinsicResult(metric="M", domain="rankings(n=2)", size=5, category="ordinal/pseudometric",
                           properties=(PropertyVerdict("pseudometric", True, True), metric, interval),
                           distinct=4, largest_class_size=2,
                           values=((0.0, 1), (0.25, 2), (0.5, 1), (1.0, 1)))


def test_attained_values_marks_ties_and_unequal_gaps():
    svg = plots.to_svg(plots.attained_values(intrinsic_result()))
    assert_inline_svg(svg)
    drawn = texts(svg)
    assert [t for t in drawn if t.startswith("×")] == ["×2"]
    assert "the first unequal gaps the classifier found: 1/4, 1/2, 1" in drawn
    # The title (wrapped over lines): 0 -> 1/4 -> 1/2 are gaps of 1/4, 1/2 -> 1 one of 1/2.
    assert "M on rankings(n=2): ordinal/pseudometric — 4 distinct values on 5 outputs; the largest tie: " \
           "2 outputs; gaps unequal" in " ".join(drawn)


def test_attained_values_needs_values():
    with pytest.raises(ValueError, match="no attained values recorded"):
        plots.attained_values(IntrinsicResult("M", "d", 1, "not a pseudometric", ()))


# -- relative metrics -------------------------------------------------------------------------------

def scores() -> ScoreResult:
    runs = ("alpha", "beta", "gamma")
    base = {"alpha": 0.5, "beta": 0.25, "gamma": 0.75}
    relative = {"alpha": 0.3, "beta": 0.6, "gamma": 0.9}
    means = tuple(Mean(r, "nDCG@10", base[r]) for r in runs) + \
        tuple(Mean(r, "NRG(base=nDCG@10)", relative[r]) for r in runs)
    # by hand: pairs (a,b) discordant, (a,g) concordant, (b,g) concordant: tau = (2 - 1) / 3.
    tau = KendallTau("NRG(base=nDCG@10)", "nDCG@10", 1 / 3, 2, 1, 0, 0)
    return ScoreResult(runs, ("nDCG@10", "NRG(base=nDCG@10)"), ("t1",), (), means, {}, {},
                       relative=("NRG(base=nDCG@10)",), kendall=(tau,))


def test_relative_scatter_labels_every_run():
    svg = plots.to_svg(plots.relative_scatter(scores(), "NRG(base=nDCG@10)", "nDCG@10"))
    assert_inline_svg(svg)
    drawn = texts(svg)
    assert {"alpha", "beta", "gamma"} <= set(drawn)
    assert "3 runs; Kendall's tau-b of the two run orderings = 0.333333" in drawn
    assert "nDCG@10 (mean over topics)" in drawn


def test_relative_scatter_names_the_known_metrics():
    with pytest.raises(ValueError, match="no metric 'RBP' in the scores; known: nDCG@10, NRG"):
        plots.relative_scatter(scores(), "RBP", "nDCG@10")


# -- output -----------------------------------------------------------------------------------------

def test_svg_ids_are_unique_per_picture_and_deterministic():
    first = plots.to_svg(plots.verdict_strip(strip_cell()))
    second = plots.to_svg(plots.attained_values(intrinsic_result()))
    ids = [set(re.findall(r'\bid="([^"]+)"', svg)) for svg in (first, second)]
    assert ids[0] and ids[1] and not ids[0] & ids[1]
    assert plots.to_svg(plots.verdict_strip(strip_cell())) == first
    # Every local reference points at an id of its own picture.
    for svg, own in zip((first, second), ids):
        assert {h[1:] for h in re.findall(r'href="(#[^"]*)"', svg)} <= own
    assert ET.fromstring(first).find(f"{SVG}title").text.startswith("RBU × CloseTh: verdict for each p")


def test_svg_with_a_page_prefix_numbers_the_referenced_ids_and_drops_the_others():
    # The same picture twice on one page: the prefix alone keeps their ids apart.
    one, two = (plots.to_svg(plots.verdict_strip(strip_cell()), prefix) for prefix in ("c1r", "c2r"))
    assert_inline_svg(one)
    ids = re.findall(r'\bid="([^"]+)"', one)
    references = re.findall(r'(?:href="#|url\(#)([^")]+)', one)
    # Only what something refers to keeps an id, numbered (hex) in order of first reference.
    assert ids and sorted(ids) == sorted(set(references))
    assert list(dict.fromkeys(references)) == [f"c1r-{k:x}" for k in range(len(set(references)))]
    assert one.replace("c1r-", "c2r-") == two
    assert one.startswith('<svg role="img" ') and "<title>RBU × CloseTh: verdict for each p" in one


def test_a_page_picture_writes_its_text_as_text_and_reads_a_name_as_written():
    # Text that looks like what the writer rewrites in attributes (a path's data, an id, a reference,
    # a translation, a style, matplotlib's font) stays as written in the picture's text.
    name = "x d=\"0.123456\" id=\"a\" href=\"#b\" url(#c) translate(1.23456) style=\"fill: red\""
    svg = plots.to_svg(plots.verdict_strip(dataclasses.replace(strip_cell(), row=name)), "c1r")
    root = assert_inline_svg(svg)
    drawn = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert name in " ".join(drawn), drawn  # the title is wrapped at spaces
    assert "<!--" not in svg and "DejaVu Sans'" not in svg.split(">", 1)[1]  # no glyph comments, one font
    assert root.get("font-family").startswith("'DejaVu Sans'")


def test_save_by_suffix(tmp_path):
    figure = plots.verdict_strip(strip_cell())
    plots.save(figure, tmp_path / "strip.svg")
    assert (tmp_path / "strip.svg").read_text(encoding="utf-8") == plots.to_svg(figure)
    plots.save(figure, tmp_path / "strip.PNG")
    assert (tmp_path / "strip.PNG").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    with pytest.raises(ValidationError, match=r"strip.pdf: unknown picture format '.pdf'; use .svg or .png"):
        plots.save(figure, tmp_path / "strip.pdf")
    assert not (tmp_path / "strip.pdf").exists()


def test_matplotlib_is_imported_only_to_draw():
    code = ("import sys, axiometer, axiometer.cli, axiometer.reports.plots; "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# -- boundaries -------------------------------------------------------------------------------------

EXHAUSTIVE = Evidence("exhaustive", "m on the grid 1..32, 64, 128, ..., 1024 for rc in {1/100, 1/20, 1/10}",
                      111, 0, True)


def rbp_boundary() -> Boundary:
    """RBP x CloseTh's boundary as the engine states it: D(2)/rc = (1-p) - p^2 + p^4 changes sign at
    the root of p^3 + p^2 - 1 (divide by 1 - p), about 0.754878."""
    return Boundary(param="p", value=0.7548776662466927, bracket=("0.754877", "0.754878"), below="violated",
                    above="witness", certain=Certain.BOTH, closed_form="root of p**3 + p**2 - 1",
                    closed_value=0.7548776662466927, agrees=True, at_value=Side.BELOW, probes=20,
                    case="m = 2, rc = 1/100", evidence_above=EXHAUSTIVE,
                    root_form=RootForm.IMPLICIT)


def rbp_boundary_cell() -> Cell:
    checks = tuple(Check("CloseTh", f"RBP(p={p})", (("p", p),), "witness" if p >= 0.8 else "violated", "truncate")
                   for p in (0.5, 0.8, 0.9, 0.99))
    return Cell(row="RBP", metric="RBP(p=0.8)", constraint="CloseTh", verdict="witness",
                summary="witness for p >= 0.8; violated for p = 0.5", checks=checks,
                boundaries=(rbp_boundary(),))


def test_boundary_strip_marks_the_boundary_and_its_closed_form(tmp_path):
    figure = plots.boundary_strip(rbp_boundary_cell())
    svg = plots.to_svg(figure)
    assert_inline_svg(svg)
    drawn = texts(svg)
    assert "p = 0.754878" in drawn  # the boundary's label, as the sentences print the value
    # The two regions with their marks, and the grid's four checks under the band.
    assert {"✗ violated", "W witness"} <= set(drawn)
    assert [t for t in drawn if t in {"✗", "W"}] == ["✗", "W", "W", "W"]
    # Each side's values and what it rests on, in the legend (p itself is on the violated side,
    # where the decisive case ties); the closed form under the axes.
    assert "✗ violated for p <= 0.754878: a counterexample at every probe" in drawn
    assert "W witness for p > 0.754878: a witness pair at every probe" in drawn
    assert "p = 0.754878 is the root of p**3 + p**2 - 1 (on the decisive case m = 2, rc = 1/100; the" in drawn
    assert "RBP × CloseTh: the verdict along p" in drawn
    axes = figure.axes[0]
    assert axes.get_xlabel().startswith("p\np = 0.754878 is the root of")
    assert axes.get_xlim()[0] < 0.5 and axes.get_xlim()[1] > 0.99  # the grid's whole range
    plots.save(figure, tmp_path / "strip.png")
    assert (tmp_path / "strip.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_boundary_strip_of_two_boundaries_has_three_regions():
    # Satisfied below 0.2 (the search found nothing, exhaustively), violated in between, satisfied
    # again above 0.6 (a side decided by search only says so).
    low = Boundary("a", 0.2, ("0.199999", "0.2"), "satisfied", "violated", Certain.ABOVE, closed_form="1/5",
                   closed_value=0.2, agrees=True, evidence_below=EXHAUSTIVE,
                   root_form=RootForm.EXPLICIT)
    high = Boundary("a", 0.6, ("0.6", "0.600001"), "violated", "satisfied", Certain.BELOW)
    cell = Cell("M", "M(a=0.5)", "Pri", "violated", "violated", (), boundaries=(high, low))
    drawn = texts(plots.to_svg(plots.boundary_strip(cell)))
    assert [t for t in drawn if t in {"✓ satisfied", "✗ violated"}] == ["✓ satisfied", "✗ violated", "✓ satisfied"]
    # A rational closed form prints as its fraction; a bisection's value as its decimal (issue 27).
    assert {"a = 1/5", "a = 0.6"} <= set(drawn)
    assert "a = 1/5 exactly (the bisection agrees to 1e-6)" in drawn
    assert "a = 0.6: bisection bracket 0.6..0.600001; no closed form" in drawn
    assert "✓ satisfied for a < 1/5: no counterexample found (exhaustive)" in drawn
    assert "✗ violated for 1/5 < a < 0.6: a counterexample at every probe" in drawn
    assert "✓ satisfied for a > 0.6: no counterexample found" in drawn  # no evidence recorded above


def test_a_boundary_alone_draws_without_its_cell():
    drawn = texts(plots.to_svg(plots.boundary_strip(rbp_boundary())))
    assert "p = 0.754878" in drawn and "the boundary of p: the verdict along p" in drawn
    assert not {"✗", "W"} & set(drawn)  # no grid checks without the cell


def nrbp_curve_cell() -> Cell:
    """NRBP x CloseTh as the engine located it: at beta = 0.5 alpha changes nothing (violated
    throughout); at beta = 0.8, 0.9 and 0.99 the witness holds below the boundary of alpha; the
    boundary of beta at alpha = 0.5 crosses the curve."""
    def at(beta: float, value: float) -> Boundary:
        # A rational boundary has its closed form, as the engine finds it; the irrational one its bisection.
        rational = Fraction(value).limit_denominator(1000)
        closed = dict(closed_form=str(rational), closed_value=value, agrees=True, root_form=RootForm.EXPLICIT) \
            if float(rational) == value else {}
        return Boundary("alpha", value, ("0", "1"), "witness", "violated", Certain.BOTH, fixed=(("beta", beta),),
                        **closed)

    curve = BoundaryCurve("alpha", "beta", ((0.5, ()), (0.8, (at(0.8, 19 / 64),)), (0.9, (at(0.9, 539 / 729),)),
                                            (0.99, (at(0.99, 0.9794908579726456),))))
    crossing = Boundary("beta", 0.8392867552141612, ("0.839286", "0.839287"), "violated", "witness", Certain.BOTH,
                        fixed=(("alpha", 0.5),))
    checks = tuple(Check("CloseTh", f"NRBP(alpha={a},beta={b})", (("alpha", a), ("beta", b)),
                         "violated" if b == 0.5 or a > {0.8: 19 / 64, 0.9: 539 / 729, 0.99: 0.98}[b] else "witness",
                         "truncate")
                   for a in (0.1, 0.5) for b in (0.5, 0.8, 0.9, 0.99))
    return Cell("NRBP", "NRBP(alpha=0.5,beta=0.5)", "CloseTh", "violated", "violated for ...; witness otherwise",
                checks, boundaries=(crossing,), curves=(curve,))


def test_boundary_curve_joins_the_located_points_and_shades_the_regions(tmp_path):
    figure = plots.boundary_curve(nrbp_curve_cell())
    svg = plots.to_svg(figure)
    assert_inline_svg(svg)
    drawn = texts(svg)
    # Each located value labelled as the sentences print it; the crossing boundary too.
    assert {"19/64", "539/729", "0.979491", "beta = 0.839287"} <= set(drawn)
    assert "no change in alpha:" in drawn  # beta = 0.5, its checks all violated
    assert {"✗ violated", "W witness"} <= set(drawn)  # the regions, labelled and in the legend
    assert "the boundary of alpha located at a value of beta" in drawn
    assert "the boundary of beta at a fixed alpha" in drawn
    # The eight grid checks: beta = 0.5 violated; alpha = 0.5 above 19/64 at beta = 0.8; witness otherwise.
    assert sorted(t for t in drawn if t in {"✗", "W"}) == ["W"] * 5 + ["✗"] * 3
    assert "NRBP × CloseTh: the boundary of alpha at each beta" in drawn
    axes = figure.axes[0]
    assert axes.get_ylabel() == "alpha" and axes.get_xlabel().startswith("beta\n")
    assert [t.get_text() for t in axes.get_xticklabels()] == ["0.5", "0.8", "0.9", "0.99"]
    plots.save(figure, tmp_path / "curve.png")
    assert (tmp_path / "curve.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert ET.fromstring(svg).find(f"{SVG}title").text == "NRBP × CloseTh: the boundary of alpha over beta"


def test_boundary_region_picks_the_curve_or_the_strip():
    assert plots.boundary_region(nrbp_curve_cell()).axes[0].get_ylabel() == "alpha"
    assert plots.boundary_region(rbp_boundary_cell()).axes[0].get_xlabel().startswith("p\n")


def test_boundary_pictures_need_a_boundary():
    plain = strip_cell()
    with pytest.raises(ValueError, match="RBU × CloseTh: no boundary was located"):
        plots.boundary_strip(plain)
    with pytest.raises(ValueError, match="no boundary of q was located"):
        plots.boundary_strip(rbp_boundary_cell(), "q")
    with pytest.raises(ValueError, match="RBU × CloseTh: no boundary curve"):
        plots.boundary_curve(plain)
    with pytest.raises(ValueError, match="no boundary was located"):
        plots.boundary_region(plain)
