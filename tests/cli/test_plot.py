"""``axiometer plot``: the threshold curve, a cell's verdict strip or grid and its boundaries, as SVG or PNG
files."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from axiometer.cli import main
from tests.cli_run import run_cli

PNG = b"\x89PNG\r\n\x1a\n"
GRID = "p=0.5,0.6,0.7,0.8,0.9,0.99"


def texts(svg: str) -> list[str]:
    """The texts drawn in an SVG picture (matplotlib writes each beside its glyph paths as a comment)."""
    return re.findall(r"<!-- (.*?) -->", svg)


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_threshold_writes_both_curves(capsys, tmp_path, suffix):
    target = tmp_path / f"curve{suffix}"
    status, out, err = run_cli(capsys, "plot", "threshold", "RBP(p=0.8)", "-o", str(target))
    assert status == 0 and err == ""
    assert out == f"wrote {target}: RBP(p=0.8): DeepTh witness (n = 6), CloseTh witness (m = 2)\n"
    if suffix == ".png":
        assert target.read_bytes().startswith(PNG)
    else:
        svg = target.read_text(encoding="utf-8")
        assert ET.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"
        # One panel: DeepTh and CloseTh read the same D(n), each labelling its witness.
        assert {"DeepTh witness n = 6", "CloseTh witness m = 2"} <= set(texts(svg))


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_region_writes_the_strip(capsys, tmp_path, suffix):
    target = tmp_path / f"strip{suffix}"
    status, out, err = run_cli(capsys, "plot", "region", "RBP", "CloseTh", "--param", GRID, "--jobs", "1",
                               "-o", str(target))
    assert status == 0
    # By hand: D(m)/rc = (1-p) - x + x^2 with x = p^m, negative for some x in (0, 1) iff 1 - 4(1-p) > 0,
    # i.e. p > 3/4 (and the grid has an m with p^m near 1/2 for 0.8, 0.9 and 0.99).
    assert out == f"wrote {target}: RBP × CloseTh: witness for p >= 0.8; violated for p <= 0.7\n"
    if suffix == ".png":
        assert target.read_bytes().startswith(PNG)
    else:
        drawn = texts(target.read_text(encoding="utf-8"))
        # The witnesses are proved for every rc (ᵖ, explained in the picture's legend).
        assert [t for t in drawn if t in {"✗", "W", "Wᵖ", "✓", "E", "n/a"}] == ["✗"] * 3 + ["Wᵖ"] * 3
        assert [t for t in drawn if re.fullmatch(r"0\.\d+", t)] == ["0.5", "0.6", "0.7", "0.8", "0.9", "0.99"]


def test_region_with_two_parameters_draws_a_grid(capsys, tmp_path):
    target = tmp_path / "grid.svg"
    status, out, err = run_cli(capsys, "plot", "region", "RBU@10", "CloseTh", "--param", "p=0.5,0.9",
                               "--param", "e=0.01,0.05", "--jobs", "1", "-o", str(target))
    assert status == 0, err
    drawn = texts(target.read_text(encoding="utf-8"))
    # p in {0.5, 0.8 (the default), 0.9} x e in {0.01, 0.05}: six boxes, each with its mark.
    assert len([t for t in drawn if t.rstrip("ᵖ") in {"✗", "W", "Wᵗ", "✓", "E", "n/a"}]) == 6
    assert {"p", "e", "0.01", "0.05", "0.5", "0.8", "0.9"} <= set(drawn)


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_boundaries_draws_the_verdict_along_the_range(capsys, tmp_path, suffix):
    target = tmp_path / f"boundary{suffix}"
    status, out, err = run_cli(capsys, "plot", "boundaries", "RBP", "CloseTh", "--param", "p=0.5..0.99",
                               "--jobs", "1", "-o", str(target))
    assert status == 0, err
    # By hand: D(2)/rc = (1-p) - p^2 + p^4 = (1-p)(1 - p^2 - p^3) < 0 iff p^3 + p^2 > 1, so CloseTh holds
    # from the root of p^3 + p^2 - 1 = 0.754877666... on; at the root itself the pair ties and fails.
    assert out == f"wrote {target}: RBP × CloseTh: p = 0.754878 (violated below, witness above)\n"
    if suffix == ".png":
        assert target.read_bytes().startswith(PNG)
    else:
        drawn = texts(target.read_text(encoding="utf-8"))
        assert "p = 0.754878" in drawn and "p" in drawn  # the boundary's label; the axis
        assert "p = 0.754878 is the root of p**3 + p**2 - 1 (on the decisive case m = 2, rc = 1/100; the" in drawn
        # The grid's checks under the band: p = 0.5 violated; 0.8, 0.9, 0.99 witness.
        assert [t for t in drawn if t in {"✗", "W", "Wᵖ"}] == ["✗", "Wᵖ", "Wᵖ", "Wᵖ"]  # proved for every rc


def test_boundaries_of_a_two_parameter_cell_draw_its_curve(capsys, tmp_path):
    target = tmp_path / "curve.svg"
    status, out, err = run_cli(capsys, "plot", "boundaries", "NRBP", "CloseTh", "--param", "alpha=0.1,0.5",
                               "--param", "beta=0.8,0.9", "--jobs", "1", "-o", str(target))
    assert status == 0, err
    assert out.startswith(f"wrote {target}: NRBP × CloseTh: ") and "the boundary of alpha at " in out
    drawn = texts(target.read_text(encoding="utf-8"))
    assert {"alpha", "19/64", "539/729"} <= set(drawn)  # alpha's boundary at beta = 0.8 and 0.9
    assert "the boundary of alpha located at a value of beta" in drawn


@pytest.mark.parametrize("argv, message", [
    (["boundaries", "RBP(p=0.8)", "CloseTh", "-o", "{dir}/b.svg"],
     "RBP(p=0.8) × CloseTh: no boundary to draw: the verdict is witness at every setting checked"),
    (["boundaries", "RBP", "Nope", "-o", "{dir}/b.svg"], "CONSTRAINT: unknown constraint 'Nope'"),
    (["threshold", "Nope", "-o", "{dir}/c.svg"], "metric 'Nope': unknown metric 'Nope'"),
    (["threshold", "F", "-o", "{dir}/c.svg"],
     "metric 'F': F is a set measure: it scores a retrieved set's counts, not a ranking"),
    (["threshold", "RBP(p=0.8)", "-o", "{dir}/c.pdf"], "c.pdf: unknown picture format '.pdf'; use .svg or .png"),
    (["threshold", "RBP(p=0.8)", "-o", "{dir}/curve"], "curve: no suffix to choose the format; use .svg or .png"),
    (["region", "RBP", "Closeness", "--param", GRID, "-o", "{dir}/s.svg"],
     "CONSTRAINT: unknown constraint 'Closeness'; did you mean 'CloseTh'? known: Pri, Deep, DeepTh, CloseTh"),
    (["region", "RBP", "CloseTh", "--param", "q=0.5,0.6", "-o", "{dir}/s.svg"],
     "metric 'RBP': RBP has no parameter 'q' (parameters: p)"),
    (["region", "RBP", "CloseTh", "--param", "p", "-o", "{dir}/s.svg"], "expected NAME=VALUE"),
    (["region", "RBP(p=0.8)", "CloseTh", "-o", "{dir}/s.svg"],
     "RBP(p=0.8) × CloseTh: 0 parameters vary; a picture draws one or two (give a parameter several "
     "values: --param NAME=V1,V2,...)"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, argv, message):
    argv = [a.replace("{dir}", str(tmp_path)) for a in argv]
    status, out, err = run_cli(capsys, "plot", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("axiometer: error: ") and message in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_output_is_required(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["plot", "threshold", "RBP(p=0.8)"])
    assert exited.value.code == 2
    assert "the following arguments are required: -o/--output" in capsys.readouterr().err


def test_help_says_o_is_required(capsys):
    with pytest.raises(SystemExit):
        main(["plot", "region", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "the picture's file (required): FILE.svg or FILE.png" in out
