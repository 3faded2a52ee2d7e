"""`axiometer metrics [NAME]` (issue 12, item 4): every registered family listed with its spec
syntax, parameters (defaults, declared ranges), kind and source, fitting 80 to 120 columns with
every mark and abbreviation explained under the table; JSON that matches the registry; one family
in full; an unknown name is one error line with a suggestion."""

from __future__ import annotations

import json
import re

import pytest

from axiometer.metrics.registry import SCORES, families, family, scores_of_family
from axiometer.reports.metric_list import (KIND_TITLES, VENUES, family_entry, format_family,
                                           format_metric_list, metric_list)
from tests.cli_run import flat, run_cli, wrote

ALL = tuple(name for k in SCORES for name in families(k))


@pytest.fixture(scope="module")
def listing():
    return metric_list()


def test_every_family_is_listed_once_grouped_by_scores(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    status, out, err = run_cli(capsys, "metrics")
    assert status == 0 and err == ""
    rows = re.findall(r"^  (\S+?)(?:\[@k(?:=\d+)?\])?  ", out, re.M)
    listed = [r for r in rows if r not in ("spec", "-" * len(r))]
    assert sorted(listed) == sorted(ALL) and len(listed) == len(set(listed))
    titles = [line for line in out.splitlines() if line and not line.startswith(" ")]
    headings = [t for t in titles if any(t.startswith(k.split(":")[0]) for k in KIND_TITLES.values())]
    assert [h.split(":")[0] for h in headings] == [t.split(":")[0] for t in KIND_TITLES.values()]
    assert out.startswith(f"axiometer has {len(ALL)} metric families")


def test_the_syntax_says_whether_a_cutoff_may_follow(listing):
    syntax = {e.name: e.syntax for e in listing.families}
    assert syntax["nDCG"] == "nDCG[@k]" and syntax["P"] == "P[@k=10]" and syntax["Rprec"] == "Rprec"
    assert syntax["recall"] == "recall" and syntax["NRG"] == "NRG" and syntax["RareP"] == "RareP[@k=10]"
    kinds = {e.name: e.kind for e in listing.families}
    assert (kinds["nDCG"], kinds["ERR_IA"], kinds["nERR_IA"], kinds["alpha_nDCG"], kinds["NRG"],
            kinds["F"]) == ("single-aspect", "intent-aware", "intent-aware", "novelty/diversity",
                            "relative", "set")


@pytest.mark.parametrize("width", [80, 100, 120])
def test_the_text_fits_the_terminal(capsys, monkeypatch, width):
    monkeypatch.setenv("COLUMNS", str(width))
    for argv in (["metrics"], ["metrics", "RBU"], ["metrics", "FujiiU"], ["metrics", "utility"]):
        status, out, _ = run_cli(capsys, *argv)
        assert status == 0
        assert max(len(line) for line in out.splitlines()) <= width, argv
    monkeypatch.setenv("COLUMNS", "300")  # wider terminals get 120 columns at most
    _, out, _ = run_cli(capsys, "metrics")
    assert max(len(line) for line in out.splitlines()) <= 120


def test_every_mark_and_abbreviation_is_explained_under_the_table(listing):
    text = format_metric_list(listing, "text", 100)
    table, legend = text.split("\nSpec: ", 1)
    legend = flat("Spec: " + legend)
    for mark in ("NAME[@k]", "NAME[@k=10]", "[ ]", "( )", "∞", "int:", "a|b", "str:", "– none"):
        assert mark in legend, mark
    cited = {a for a in VENUES if re.search(rf"(?<![\w-]){re.escape(a)}(?![\w-])", table)}
    assert cited >= {"SIGIR", "TOIS", "WSDM", "ECIR", "SIGIR-AP"}
    venues = legend.split("Venues: ", 1)[1]
    assert all(f"{a} = {VENUES[a]}" in venues for a in cited)
    assert "definitions §N is section N of docs/definitions.md" in legend


def test_json_parses_and_matches_the_registry(capsys):
    status, out, _ = run_cli(capsys, "metrics", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert sorted(f["name"] for f in data["families"]) == sorted(ALL)
    assert set(data["kinds"]) == set(KIND_TITLES)
    for entry in data["families"]:
        cls = family(entry["name"])
        assert entry["registry_kind"] == scores_of_family(entry["name"])
        rule = "none" if entry["registry_kind"] == "set" else cls.cutoff_rule
        assert entry["cutoff"] == rule
        assert entry["default_cutoff"] == (cls.default_cutoff if rule == "required" else None)
        declared = cls.param_info
        assert [p["name"] for p in entry["params"]] == [p.name for p in declared]
        for shown, param in zip(entry["params"], declared):
            assert (shown["default"], shown["low"], shown["high"]) == (param.default, param.low, param.high)
            assert (shown["low_open"], shown["high_open"]) == (param.low_open, param.high_open)
            assert shown["choices"] == (list(param.choices) if param.choices is not None else None)
            assert shown["grid"] == list(param.grid) and shown["description"] == param.description
        assert entry["source"] and entry["formula"]
        doc = re.sub(r"``|\*", "", " ".join((cls.__doc__ or "").split()))
        assert "Source: " + entry["source"] in doc  # the docstring's sentence, markup removed
        assert entry["pydoc"].startswith("axiometer.metrics.")


def test_one_family_in_full(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    status, out, err = run_cli(capsys, "metrics", "nDCG")
    assert status == 0 and err == ""
    assert out.startswith("nDCG — nDCG@k (single-aspect metric)\n"
                          "  nDCG@k = DCG@k(d) / DCG@k(ideal); 0 when the topic has no relevant document.")
    text = flat(out)
    for part in ("spec nDCG[@k], e.g. nDCG, nDCG@10", "cutoff optional @k; without one the whole ranking",
                 "reads graded relevance", "parameters none",
                 "source Järvelin & Kekäläinen, TOIS 2002; Amigó et al., SIGIR 2018, Table 1.",
                 "more pydoc axiometer.metrics.dcg.NDCG", "TOIS = ACM Transactions on Information Systems"):
        assert part in text, part
    assert run_cli(capsys, "metrics", "ndcg")[1] == out  # any case
    assert run_cli(capsys, "metrics", "NDCG@10")[1] == out  # a spec: its family


def test_a_family_page_gives_every_parameter_with_its_range_default_and_grid(capsys):
    status, out, _ = run_cli(capsys, "metrics", "RBU", "--format", "text")
    text = flat(out)
    assert status == 0 and "RBU@k = sum_{i<=k} p^i" in text
    assert "parameters p default 0.8; (0, 1); the paper's grid 0.8, 0.9, 0.99." in text
    assert "e default 0.05; [0, ∞)" in text and "form default 'paper'; paper|reference" in text
    assert "source Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018." in text
    page = json.loads(run_cli(capsys, "metrics", "rbu", "--format", "json")[1])
    assert page["name"] == "RBU" and [p["name"] for p in page["params"]] == ["p", "e", "form"]
    markdown = run_cli(capsys, "metrics", "RBU", "--format", "markdown")[1]
    assert markdown.startswith("# RBU — RBU@k") and "- **source**: Amigó, Spina" in markdown


def test_markdown_lists_every_family_in_a_table(listing):
    text = format_metric_list(listing, "markdown")
    rows = re.findall(r"^\| `([^`\[]+)(?:\[@k(?:=\d+)?\])?` \|", text, re.M)
    assert sorted(rows) == sorted(ALL)
    assert "paper\\|reference" in text  # a choice's bar does not split the cell


@pytest.mark.parametrize("argv, line", [
    (["metrics", "NDGC"], "axiometer: error: metric 'NDGC': unknown metric 'NDGC'; did you mean 'nDCG'? "
                          "known metrics: P, RR"),
    (["metrics", "ERR-ia"], "axiometer: error: metric 'ERR-ia': unexpected character '-' at column 4; "
                            "did you mean 'ERR_IA'?"),
    (["metrics", "map"], "axiometer: error: metric 'map': unknown metric 'map'; did you mean 'AP'?"),
])
def test_an_unknown_name_is_one_error_line_with_a_suggestion(capsys, argv, line):
    status, out, err = run_cli(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(line)


def test_output_file_and_formats(capsys, tmp_path):
    target = tmp_path / "metrics.md"
    status, out, _ = run_cli(capsys, "metrics", "--format", "markdown", "-o", str(target))
    assert status == 0 and out == wrote(target)
    assert target.read_text(encoding="utf-8") == format_metric_list(metric_list(), "markdown")
    with pytest.raises(ValueError, match="unknown format"):
        format_family(family_entry("nDCG"), "latex")


def test_the_excerpts_in_docs_cli_md_are_real_output(capsys, monkeypatch):
    from pathlib import Path

    monkeypatch.setenv("COLUMNS", "100")
    docs = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    section = docs[docs.index("## `axiometer metrics [NAME]`"):]
    blocks = re.findall(r"```text\n(.*?)```", section[:section.index("\n## ", 10)], re.S)
    listing, page = blocks
    _, out, _ = run_cli(capsys, "metrics")
    for part in listing.split("...\n"):
        assert part in out, part
    assert run_cli(capsys, "metrics", "rbp")[1] == page
