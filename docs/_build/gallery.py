"""The gallery page: every kind of picture the reports draw, drawn when the site is built.

Each picture comes from a small real run through the package's public functions (a check, a
table cell over a grid, boundaries located, an intrinsic classification, a scored campaign, a
meta-evaluation), then the drawing function of :mod:`axiometer.reports.plots` the reports use.
So the gallery shows what the current code draws, never a stale screenshot. The runs are
chosen to be fast (about 30 s for all eight on 2 cores, half of it the boundary curve) and
seeded, so every build draws the same pictures; each is the picture the command its caption
names draws (byte for byte where the run is the same).

:data:`PICTURES` lists them; :func:`draw_gallery` runs and draws them; :func:`gallery_page`
writes the page that shows them.
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Where the pictures are on the site, relative to the gallery page.
FOLDER = "gallery"


@dataclass(frozen=True)
class Picture:
    """One picture of the gallery: its file name (without ``.svg``), its title, what it shows,
    where the reports draw it, and ``draw``, which runs the example and returns the figure."""

    name: str
    title: str
    caption: str
    where: str
    draw: Callable[[], Any]


def _threshold() -> Any:
    import axiometer
    from axiometer.reports import plots

    # Proofs change nothing this picture draws (it is byte for byte `axiometer plot threshold`'s).
    report = axiometer.check("RBP(p=0.8)", ["DeepTh", "CloseTh"], proofs=False)
    return plots.threshold_curves([cell.checks[0] for cell in report.cells])


def _verdict_strip() -> Any:
    import axiometer
    from axiometer.reports import plots

    report = axiometer.check("RBP", ["CloseTh"], params={"p": [0.5, 0.6, 0.7, 0.8, 0.9]})
    return plots.verdict_region(report.cell("CloseTh"))


def _verdict_grid() -> Any:
    import axiometer
    from axiometer.reports import plots

    report = axiometer.check("RBU", ["CloseTh"], params={"p": [0.5, 0.7, 0.8, 0.9, 0.99], "e": [0.01, 0.05, 0.1]})
    return plots.verdict_region(report.cell("CloseTh"))


def _boundary_strip() -> Any:
    import axiometer
    from axiometer.reports import plots

    report = axiometer.check("RBP", ["CloseTh"], params={"p": (0.5, 0.99)})
    return plots.boundary_region(report.cell("CloseTh"))


def _boundary_curve() -> Any:
    import axiometer
    from axiometer.reports import plots

    # Without proofs: they would add a superscript p to each witness mark and take another 10 s.
    report = axiometer.check("NRBP", ["CloseTh"], params={"beta": (0.5, 0.99), "alpha": (0.1, 0.9)},
                             proofs=False, jobs=2)
    return plots.boundary_region(report.cell("CloseTh"))


def _attained() -> Any:
    from axiometer.generators.domain_spec import parse_domain
    from axiometer.intrinsic.classify import classify
    from axiometer.metrics.resolve import resolve
    from axiometer.reports import plots

    result = classify(resolve("AP").metric, parse_domain("rankings(n=4,grades=2,R=4)"))
    return plots.attained_values(result)


def _campaign() -> tuple[Any, list[Any]]:
    """The generated campaign ``axiometer unanimity --example`` scores: 10 topics, 12 runs of 100."""
    from axiometer.generators.campaign import generate_campaign
    from axiometer.readers import Qrels, Run

    campaign = generate_campaign(topics=10, runs=12, depth=100, seed=0)
    weights = {qid: dict(zip(topic.aspects, topic.weights)) for qid, topic in campaign.topics.items()}
    qrels = Qrels(campaign.topics, campaign.grades, weights, "trec-diversity", "<generated>", campaign.mapping)
    runs = [Run(tag, rankings, f"<generated {tag}>") for tag, rankings in campaign.runs.items()]
    return qrels, runs


def _scatter() -> Any:
    from axiometer.reports import plots
    from axiometer.scoring import score_runs

    qrels, runs = _campaign()
    result = score_runs(qrels, runs, ["nDCG@10", "NRG(base=nDCG@10)"], prior="all-others")
    return plots.relative_scatter(result, "NRG(base=nDCG@10)", "nDCG@10")


def _tau() -> Any:
    from axiometer.meta import Sweep, meta_evaluate
    from axiometer.reports import plots

    qrels, runs = _campaign()
    alphas = tuple(i / 10 for i in range(11))
    result = meta_evaluate(qrels, runs, ["P@100"], sweep=Sweep("RareP@100", "alpha", alphas, "P@100"),
                           trials=10, permutations=10)
    assert result.curve is not None, "a sweep was given, so the result has its curve"
    return plots.tau_curve_figure(result.curve)


#: The gallery, in the order the page shows it.
PICTURES: tuple[Picture, ...] = (
    Picture("threshold", "Threshold curves: DeepTh and CloseTh",
            "`D(n) = Q(a_n) - Q(b_n)` against `n` on a log scale for `RBP(p=0.8)`, one line per "
            "relevance value `rc`, with the sign changes, the witness (`n = 6` for DeepTh, `m = 2` "
            "for CloseTh) and under each panel a strip of the sign of `D` per `rc` "
            "([definitions §3.5](definitions.md)).",
            "`axiometer plot threshold 'RBP(p=0.8)' -o curve.svg`; the HTML report's evidence of a "
            "DeepTh or CloseTh cell.",
            _threshold),
    Picture("verdict-strip", "Verdicts along one parameter",
            "RBP × CloseTh checked at five values of `p`: one box per setting, coloured and marked by "
            "its verdict; the thick outline is the metric's default setting.",
            "`axiometer plot region RBP CloseTh --param p=0.5,0.6,0.7,0.8,0.9 -o strip.svg`; the HTML "
            "report of a parameter-dependent (`~`) cell.",
            _verdict_strip),
    Picture("verdict-grid", "Verdicts over two parameters",
            "RBU × CloseTh over a grid of `p` and `e`: one box per setting.",
            "`axiometer plot region RBU CloseTh --param p=0.5,0.7,0.8,0.9,0.99 --param e=0.01,0.05,0.1 "
            "-o grid.svg`; the HTML report.",
            _verdict_grid),
    Picture("boundary-strip", "Where a verdict changes along one parameter",
            "RBP × CloseTh with its boundary located in `p` in [0.5, 0.99]: the verdict on each side, "
            "the boundary `p = 0.754878` and its closed form, and the grid's checks under it "
            "([boundaries](boundaries.md)).",
            "`axiometer plot boundaries RBP CloseTh --param p=0.5..0.99 -o boundary.svg`; "
            "`axiometer table --boundaries --format html`.",
            _boundary_strip),
    Picture("boundary-curve", "The boundary of one parameter over another",
            "NRBP × CloseTh: the boundary of `alpha` located at each value of `beta` on the grid, the "
            "regions shaded by verdict, the grid's checks with their marks and the boundary of `beta` "
            "at the default `alpha`. Drawn here without proofs; the command proves the witnesses too, "
            "so its marks read Wᵖ.",
            "`axiometer plot boundaries NRBP CloseTh --param beta=0.5..0.99 --param alpha=0.1..0.9 "
            "-o curve.svg`; `axiometer table --boundaries --format html`.",
            _boundary_curve),
    Picture("attained", "Attained values (intrinsic framework)",
            "AP's distinct values on every binary ranking of 4 documents with R = 4, each a stem as "
            "tall as the number of outputs sharing it (ties), the gaps between neighbours coloured "
            "equal or unequal ([intrinsic](intrinsic.md)).",
            "`axiometer intrinsic AP --domain 'rankings(n=4,grades=2,R=4)' --format html`.",
            _attained),
    Picture("scatter", "A relative metric against its base",
            "NRG(base=nDCG@10) against nDCG@10 on a generated campaign (10 topics, 12 runs): one "
            "point per run, at its means, with Kendall's tau-b of the two run orderings "
            "([relative metrics](relative.md)).",
            "`axiometer score ... --metric 'nDCG@10 NRG(base=nDCG@10)' --format html`.",
            _scatter),
    Picture("tau", "A tau curve",
            "Kendall's tau-b and tau-AP between RareP(alpha)@100 and P@100 as `alpha` goes from 0 to 1, "
            "on the same generated campaign (Türkmen et al., Fig. 2; [meta-evaluation](meta.md)).",
            "`axiometer meta ... --tau-curve 'RareP@100' alpha=0..1:0.1 --against P@100 --plot tau.svg`.",
            _tau),
)


@functools.lru_cache(maxsize=1)
def draw_gallery(pictures: tuple[Picture, ...] = PICTURES) -> dict[str, str]:
    """Run every picture's example and draw it: ``{file name: SVG text}``.

    Each figure is written by :func:`axiometer.reports.plots.save`, the writer ``axiometer plot``
    uses, so a picture here is byte for byte what the command would write. Drawn once per
    process: ``mkdocs serve`` rebuilds the site on every edit without redrawing (restart it to
    redraw after changing the code).
    """
    from axiometer.reports import plots

    drawn: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as folder:
        for picture in pictures:
            path = Path(folder) / f"{picture.name}.svg"
            plots.save(picture.draw(), path)
            drawn[f"{picture.name}.svg"] = path.read_text(encoding="utf-8")
    return drawn


def gallery_page(pictures: tuple[Picture, ...] = PICTURES) -> str:
    """The gallery page as Markdown: one section per picture, its image, what it shows and how
    to draw it yourself."""
    lines = [
        "# The report's pictures",
        "",
        "Every kind of picture axiometer draws, each drawn from a small real run when this site "
        "was built (the code is `docs/_build/gallery.py`). The HTML reports inline them as SVG; "
        "`axiometer plot` and `axiometer meta --plot` write them to a file, SVG or PNG by the "
        "suffix of the file name. The colours and marks are those of the text report: "
        "✓ satisfied, W witness, ✗ violated, E error, n/a not applicable; ᵖ marks a verdict "
        "proved for every real relevance value.",
        "",
    ]
    for picture in pictures:
        lines += [f"## {picture.title}", "",
                  f"![{picture.title}]({FOLDER}/{picture.name}.svg)", "",
                  picture.caption, "",
                  f"Drawn by: {picture.where}", ""]
    return "\n".join(lines)
