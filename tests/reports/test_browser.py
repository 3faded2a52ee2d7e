"""The HTML report in a real browser: headless Chromium driven by selenium.

A small table with a violated cell, a witness, a parameter-dependent cell
whose boundary was located and a projected cell is rendered and opened:
every link of the page reaches an element that exists, each matrix cell's
link reaches that cell's evidence and opens it (the evidence is folded until
then), the counterexample's two rankings stand side by side with the changed
positions highlighted, the boundaries section shows the boundary's sentence
and picture between the matrix and the evidence, the SVG pictures are drawn
with a non-empty box, a verdict has one colour in the matrix, the verdict
strip and the threshold curve's strip, nothing is fetched from the network
and the console logs no error. The report of the full default table
(``axiometer table --compare amigo2018``, generated once per session) must
open with no console error too, weigh at most 1.5 MB and show its whole
matrix without scrolling in a 1400×900 window; so must the ``check``,
``intrinsic`` and ``score`` pages open.

Chromium comes from Debian's ``chromium`` and ``chromium-driver`` packages
(``.ci/run`` installs them), selenium from the ``test`` extra. Outside CI a
machine without them skips these tests and says why; with ``CI`` set, a
missing browser fails them: CI must never skip the browser silently.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from axiometer.axioms.published import compare_with_published
from axiometer.reports.table import format_table
from axiometer.reports.table.cells import boundary_sentence, evidence_text, parameter_dependent
from axiometer.runner.table import run_table

ROOT = Path(__file__).resolve().parents[2]


def _missing() -> str | None:
    """Why the browser cannot run here, or ``None``."""
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (pip install -e '.[test]')"
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        return "Chromium is not installed (apt-get install chromium chromium-driver)"
    if not shutil.which("chromedriver"):
        return "chromedriver is not installed (apt-get install chromium-driver)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = _missing()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {reason}; .ci/run installs it, and CI must run the browser test",
                        pytrace=False)
        print(f"\nskipping the browser tests: {reason}", file=sys.stderr)
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1600", "--disable-extensions", "--no-first-run"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # An explicit driver: selenium must not look for (or download) one.
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    yield driver
    driver.quit()


def open_page(driver: Any, path: Path) -> list[dict[str, Any]]:
    """Load ``path``; returns the console's errors (SEVERE entries) while loading."""
    driver.get_log("browser")  # drop what an earlier page logged
    driver.get(path.as_uri())
    assert driver.execute_script("return document.readyState") == "complete"
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def assert_self_contained(driver: Any) -> None:
    """Nothing was fetched: no resource (font, script, image, style sheet) but the page itself."""
    assert driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)") == []
    assert driver.execute_script("return document.querySelectorAll('script[src], link[href], img[src], "
                                 "iframe').length") == 0


def assert_links_resolve(driver: Any) -> int:
    """Every link is an in-page anchor to an element that exists; ids are unique. Returns the count."""
    links = driver.execute_script(
        "return [...document.querySelectorAll('a[href]')].map(a => {"
        "  const href = a.getAttribute('href');"
        "  return [href, href.startsWith('#') && document.getElementById(href.slice(1)) !== null]; })")
    broken = [href for href, ok in links if not ok]
    assert broken == [], f"links that reach nothing: {broken[:10]}"
    duplicates = driver.execute_script(
        "const ids = [...document.querySelectorAll('[id]')].map(e => e.id);"
        "return ids.filter((id, i) => ids.indexOf(id) !== i)")
    assert duplicates == [], f"duplicate ids: {duplicates[:10]}"
    return len(links)


def svg_boxes(driver: Any, root: str = "document") -> list[dict[str, Any]]:
    """Each picture under ``root`` (a figure's ``<svg>``, which uses its symbol in the page's sheet): its
    rendered box, how many paths it draws, its label."""
    return driver.execute_script(
        f"return [...{root}.querySelectorAll('figure > svg')].map(s => {{"
        "  const b = s.getBoundingClientRect(), use = s.querySelector('use[href]');"
        "  const drawn = use ? document.getElementById(use.getAttribute('href').slice(1)) : s;"
        "  return {width: b.width, height: b.height, label: s.getAttribute('aria-label') || '',"
        "          paths: [...drawn.querySelectorAll('path')].filter(p => (p.getAttribute('d') || '').length)"
        ".length}; })")


def assert_pictures_drawn(boxes: list[dict[str, Any]]) -> None:
    for box in boxes:
        assert box["width"] > 0 and box["height"] > 0, box
        assert box["paths"] > 0, box


def unfold(driver: Any) -> None:
    """Open every folded part of the page (a cell's evidence), as a reader would one by one."""
    driver.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")


def reveal(driver: Any, target: str) -> str:
    """Follow an in-page link to ``target``, as the matrix does; returns the text of what it opened (a
    cell's evidence with its heading)."""
    driver.execute_script("location.hash = arguments[0]", target)
    return driver.execute_script(
        "const e = document.getElementById(arguments[0]), d = e.closest('details');"
        "if (d !== null && !d.open) return null;"
        "return (d || e).innerText", target) or f"{target} is still folded"


def marked_fills(driver: Any, svg: str) -> list[list[Any]]:
    """Each mark drawn in the picture ``svg`` (a JavaScript expression) with the fill of the box it sits
    in: ``[mark, fill]``. The boxes are the paths of the picture's symbol and the uses of them (a strip's
    runs), located from their path data; a mark outside every box has ``null``."""
    return driver.execute_script(
        f"const svg = {svg}, use = svg.querySelector('use[href]');"
        "const sym = document.getElementById(use.getAttribute('href').slice(1));"
        "const numbers = t => (t || '').match(/-?[0-9.]+/g)?.map(Number) || [];"
        "const boxes = [];"
        "for (const e of sym.querySelectorAll('path, use')) {"
        "  let path = e, dx = 0, dy = 0;"
        "  if (e.tagName === 'use') {"
        "    path = document.getElementById((e.getAttribute('xlink:href') || e.getAttribute('href')).slice(1));"
        "    dx = +(e.getAttribute('x') || 0); dy = +(e.getAttribute('y') || 0); }"
        "  const n = numbers(path.getAttribute('d'));"
        "  if (n.length < 8) continue;"
        "  const xs = n.filter((_, i) => i % 2 === 0).map(x => x + dx);"
        "  const ys = n.filter((_, i) => i % 2 === 1).map(y => y + dy);"
        "  const fill = getComputedStyle(e).fill;"
        "  if (fill === 'none') continue;"
        "  boxes.push({x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys), fill}); }"
        "return [...sym.querySelectorAll('text')].map(t => {"
        "  const at = t.hasAttribute('x') ? [+t.getAttribute('x'), +t.getAttribute('y')]"
        "                                 : numbers(t.getAttribute('transform')).slice(0, 2);"
        "  const under = boxes.filter(b => b.x0 <= at[0] && at[0] <= b.x1 && b.y0 <= at[1] && at[1] <= b.y1)"
        "                     .sort((a, b) => (a.x1 - a.x0) * (a.y1 - a.y0) - (b.x1 - b.x0) * (b.y1 - b.y0));"
        "  return [t.textContent, under.length ? under[0].fill : null]; })")


def matrix_links(driver: Any) -> list[dict[str, Any]]:
    """Each cell of the first matrix: its row and column titles, its mark, and the id it links to."""
    return driver.execute_script(
        "const table = document.querySelector('#matrix table.matrix');"
        "const heads = [...table.querySelectorAll('thead th')].map(th => th.textContent.trim());"
        "const out = [];"
        "for (const tr of table.querySelectorAll('tbody tr')) {"
        "  const row = tr.querySelector('th').textContent.trim();"
        "  [...tr.querySelectorAll('td')].forEach((td, j) => {"
        "    const a = td.querySelector('a');"
        "    if (a) out.push({row: row, column: heads[j + 1], mark: a.textContent.trim(),"
        "                     target: a.getAttribute('href').slice(1), title: td.getAttribute('title')});"
        "  }); }"
        "return out;")


# -- the small table ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    """RBP and P@10 on Pri, CloseTh and AspDiv (quick, boundaries located): P@10 violates Pri,
    CloseTh has witnesses and depends on RBP's p (its boundary located), AspDiv is projected for
    both aspect-blind metrics."""
    result = run_table(["RBP", "P@10"], ["Pri", "CloseTh", "AspDiv"], quick=True, jobs=1, boundaries=True)
    path = tmp_path_factory.mktemp("report") / "small.html"
    path.write_text(format_table(result, "html", compare_with_published(result)), encoding="utf-8")
    return result, path


def test_the_small_table_has_the_four_kinds_of_cell(small):
    result, _ = small
    assert result.cell("P@10", "Pri").verdict == "violated"
    assert result.cell("P@10", "CloseTh").verdict == "witness"
    assert parameter_dependent(result.cell("RBP", "CloseTh"))
    assert [b.param for b in result.cell("RBP", "CloseTh").boundaries] == ["p"]
    assert not any(c.boundaries or c.curves for c in result.cells if c is not result.cell("RBP", "CloseTh"))
    assert result.cell("RBP", "AspDiv").projected and result.cell("P@10", "AspDiv").projected


def test_every_cell_link_reaches_its_evidence(browser, small):
    result, path = small
    assert open_page(browser, path) == []
    assert_self_contained(browser)
    assert assert_links_resolve(browser) > len(result.cells)
    cells = matrix_links(browser)
    assert {(c["row"], c["column"]) for c in cells} == {(c.row, c.constraint) for c in result.cells}
    # The evidence is folded when the page opens: the matrix comes first.
    assert browser.execute_script("return [...document.querySelectorAll('details.cell')].filter(d => d.open)"
                                  ".length") == 0
    for entry in cells:
        # The target is that cell's evidence: the body of a folded part headed by its row and column.
        heading = browser.execute_script(
            "const e = document.getElementById(arguments[0]), d = e.closest('details.cell');"
            "return d && d.querySelector(':scope > summary h3').textContent", entry["target"])
        assert heading is not None and f"{entry['row']} × {entry['column']}" in heading, (entry, heading)
        # Following the link (from the top of the page, where the matrix is) opens the evidence and
        # scrolls to it: shown, not hidden in a closed details, its heading in view.
        browser.execute_script("window.scrollTo(0, 0)")
        browser.find_element("css selector", f'#matrix a[href="#{entry["target"]}"]').click()
        state = browser.execute_script(
            "const t = document.querySelector(':target');"
            "if (!t) return null;"
            "const d = t.closest('details.cell'), h = d.querySelector(':scope > summary');"
            "return [t.id, t.getBoundingClientRect().top, window.innerHeight, d.open, t.checkVisibility(),"
            "        t.getBoundingClientRect().height, h.getBoundingClientRect().top]")
        assert state is not None and state[0] == entry["target"], state
        assert -2 <= state[1] < state[2], f"{entry['target']} is not in view after following its link"
        assert state[3] and state[4] and state[5] > 0, f"{entry['target']} is still folded: {state}"
        assert 0 <= state[6] < state[1], f"{entry['target']}'s heading is not in view: {state}"
    marks = {(c["row"], c["column"]): c["mark"] for c in cells}
    assert marks["P@10", "Pri"].startswith("✗") and marks["P@10", "CloseTh"].startswith("W")
    assert "~" in marks["RBP", "CloseTh"] and "†" in marks["RBP", "AspDiv"]


def test_a_verdict_has_one_colour_in_the_matrix_the_legend_and_the_pictures(browser, small):
    result, path = small
    open_page(browser, path)
    unfold(browser)
    cells = {(c["row"], c["column"]): c["target"] for c in matrix_links(browser)}
    colour = browser.execute_script(
        "const out = {};"
        "for (const [key, target] of Object.entries(arguments[0])) {"
        "  const td = document.querySelector(`#matrix a[href=\"#${target}\"]`).closest('td');"
        "  out[key] = getComputedStyle(td).backgroundColor; }"
        "return out;", {f"{r}|{c}": t for (r, c), t in cells.items()})
    violated, witness, satisfied = colour["P@10|Pri"], colour["P@10|CloseTh"], colour["RBP|Pri"]
    assert result.cell("RBP", "Pri").verdict == "satisfied"
    assert violated != witness and witness == satisfied  # both hold; their marks tell them apart
    # The legend shows each verdict's mark in its colour.
    legend = dict(browser.execute_script(
        "return [...document.querySelectorAll('#legend dt .badge')].map(b => [b.textContent,"
        "        getComputedStyle(b).backgroundColor])"))
    assert legend["✗"] == violated and legend["W"] == witness and legend["✓"] == satisfied
    # The verdict strip of RBP × CloseTh: its ✗ box (p = 0.5) and its W boxes are the matrix's colours.
    strip = marked_fills(browser, f"document.querySelector('#{cells['RBP', 'CloseTh']} figure > svg')")
    boxes = {mark: fill for mark, fill in strip if mark in ("✗", "Wᵖ", "W")}
    assert boxes["✗"] == violated and {boxes.get("Wᵖ"), boxes.get("W")} - {None} == {witness}
    # P@10's D(m) strip: where D < 0 (the sign CloseTh asks for) it holds, in the colour of a witness;
    # where D > 0 it does not, in the colour of a violation (colour by holding, not by sign).
    curve = marked_fills(browser, f"document.querySelector('#{cells['P@10', 'CloseTh']} figure > svg')")
    signs = {mark: fill for mark, fill in curve if mark in ("−", "+")}
    assert signs == {"−": witness, "+": violated}, curve


def test_tooltips_say_each_thing_once_and_headers_say_what_a_column_means(browser, small):
    result, path = small
    open_page(browser, path)
    for entry in matrix_links(browser):
        parts = entry["title"].split(": ", 1)[1].split("; ")
        assert len(parts) == len(set(parts)), entry["title"]
    headers = browser.execute_script(
        "return [...document.querySelectorAll('#matrix thead th[title]')].map(th => "
        "[th.textContent.trim(), th.getAttribute('title')])")
    assert [h for h, _ in headers] == list(result.constraints)
    infos = {info.id: info for info in result.axioms}
    for column, title in headers:
        if column in infos:  # the meaning, not just the id again
            assert infos[column].meaning in title
        assert browser.execute_script("return document.getElementById(arguments[0]) !== null",
                                      f"axiom-{result.constraints.index(column) + 1}")


def test_a_counterexample_is_two_rankings_side_by_side_with_the_changes_highlighted(browser, small):
    result, path = small
    open_page(browser, path)
    target = next(c["target"] for c in matrix_links(browser) if (c["row"], c["column"]) == ("P@10", "Pri"))
    tables = browser.execute_script(
        "return [...document.getElementById(arguments[0]).querySelectorAll('table.ranking')].map(t => {"
        "  const b = t.getBoundingClientRect();"
        "  const rows = [...t.querySelectorAll('tbody tr')];"
        "  return {caption: t.querySelector('caption').textContent, left: b.left, right: b.right, top: b.top,"
        "          docs: rows.map(r => r.children[1].textContent),"
        "          changed: rows.map(r => r.classList.contains('changed')),"
        "          colours: rows.map(r => getComputedStyle(r.children[1]).backgroundColor)}; })", target)
    cx = result.cell("P@10", "Pri").default_check.counterexample
    a, b = tables[0], tables[1]
    assert a["caption"].startswith("a") and b["caption"].startswith("b")
    assert a["docs"] == list(cx.a) and b["docs"] == list(cx.b)
    assert b["left"] >= a["right"] and abs(a["top"] - b["top"]) < 1  # side by side
    changed = [x != y for x, y in zip(cx.a, cx.b)]
    assert a["changed"] == changed == b["changed"] and any(changed)
    plain = [c for c, flag in zip(a["colours"], changed) if not flag]
    highlighted = [c for c, flag in zip(a["colours"], changed) if flag]
    assert all(c not in plain for c in highlighted)  # the highlight is visible


def test_the_pictures_are_drawn(browser, small):
    result, path = small
    open_page(browser, path)
    unfold(browser)
    boxes = svg_boxes(browser)
    assert boxes
    assert_pictures_drawn(boxes)
    cells = {(c["row"], c["column"]): c["target"] for c in matrix_links(browser)}
    # The parameter-dependent threshold cell: its verdict strip and its D(n) curve.
    dependent = svg_boxes(browser, f"document.getElementById('{cells['RBP', 'CloseTh']}')")
    assert any("at each setting of p" in box["label"] for box in dependent)
    assert any(box["label"].startswith("D(m)") for box in dependent)
    # Every threshold check shown has its curve; the other cells draw nothing.
    witness = svg_boxes(browser, f"document.getElementById('{cells['P@10', 'CloseTh']}')")
    assert [box["label"].startswith("D(m)") for box in witness] == [True]
    assert svg_boxes(browser, f"document.getElementById('{cells['P@10', 'Pri']}')") == []


def test_the_boundaries_are_visible_between_the_matrix_and_the_evidence(browser, small):
    result, path = small
    assert open_page(browser, path) == []
    boundary = result.cell("RBP", "CloseTh").boundaries[0]
    state = browser.execute_script(
        "const s = document.getElementById('boundaries');"
        "if (s === null) return null;"
        "const b = s.getBoundingClientRect(), style = getComputedStyle(s);"
        "const follows = (x, y) => !!(x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING);"
        "return {width: b.width, height: b.height, display: style.display, visibility: style.visibility,"
        "        text: s.innerText, heading: s.querySelector('h2').innerText,"
        "        afterMatrix: follows(document.getElementById('legend'), s),"
        "        beforeEvidence: follows(s, document.getElementById('evidence'))}")
    assert state is not None, "no Boundaries section"
    assert state["width"] > 0 and state["height"] > 0
    assert state["display"] != "none" and state["visibility"] == "visible"
    assert state["heading"] == "Boundaries" and state["afterMatrix"] and state["beforeEvidence"]
    # The text report's sentence, as rendered (RBP's CloseTh changes at the root of p^3 + p^2 - 1).
    assert boundary_sentence(boundary) in state["text"]
    assert "p = 0.754878 is the root of p**3 + p**2 - 1" in state["text"]
    # Its picture, drawn: the verdict along p.
    boxes = svg_boxes(browser, "document.getElementById('boundaries')")
    assert [box["label"].startswith("RBP × CloseTh: the located verdict along p") for box in boxes] == [True]
    assert_pictures_drawn(boxes)
    # The contents link scrolls to the section; the sentence is then on screen.
    browser.execute_script("window.scrollTo(0, 0)")
    browser.find_element("css selector", 'nav.toc a[href="#boundaries"]').click()
    shown = browser.execute_script(
        "const li = document.querySelector('#boundaries li'), b = li.getBoundingClientRect();"
        "return [b.top, b.bottom, b.height, window.innerHeight]")
    assert shown[2] > 0 and 0 <= shown[0] and shown[1] <= shown[3], shown
    # The cell's evidence repeats it and links to the picture; a witness states what it rests on.
    cells = {(c["row"], c["column"]): c["target"] for c in matrix_links(browser)}
    rbp = reveal(browser, cells["RBP", "CloseTh"])
    assert boundary_sentence(boundary) in rbp
    assert browser.execute_script("return document.querySelector(arguments[0]) !== null",
                                  f'#{cells["RBP", "CloseTh"]} a[href="#boundaries-{cells["RBP", "CloseTh"]}"]')
    witness = result.cell("P@10", "CloseTh").default_check
    text = reveal(browser, cells["P@10", "CloseTh"])
    assert f"Evidence: {evidence_text(witness.evidence)}." in text


def test_the_published_comparison_is_a_table_saying_what_was_reconstructed(browser, small):
    result, path = small
    open_page(browser, path)
    section = browser.execute_script(
        "const s = document.getElementById('comparison');"
        "return {pre: s.querySelectorAll('pre').length, cells: s.querySelectorAll('table.matrix td').length,"
        "        text: s.textContent}")
    assert section["pre"] == 0 and section["cells"] == len(result.cells)
    assert "reconstructed" in section["text"] and "?" in section["text"]


# -- proved verdicts --------------------------------------------------------------------------------

def test_proved_cells_show_their_mark_tooltip_evidence_and_formula_and_reasons_read_as_written(browser, tmp_path):
    """Hand-built (tests/reports/test_proofs.py): RBP × Pri proved, a metric author's metric whose
    name and reason hold HTML's special characters holding on Pri without a proof."""
    from tests.reports.test_proofs import FORMULA, REASON, USER, proof_table, proved_evidence

    path = tmp_path / "proofs.html"
    path.write_text(format_table(proof_table(), "html"), encoding="utf-8")
    assert open_page(browser, path) == []
    assert_self_contained(browser)
    assert_links_resolve(browser)
    cells = {(c["row"], c["column"]): c for c in matrix_links(browser)}
    # RBP × Deep is proved at its default setting (the mark's); its title names the setting that is not.
    assert cells["RBP", "Pri"]["mark"] == "✓ᵖ" and cells["RBP", "Deep"]["mark"] == "✓ᵖ"
    assert "not proved at RBP(p=0.5)" in cells["RBP", "Deep"]["title"]
    assert cells[USER, "Pri"]["mark"] == "✓"  # the row title reads as written: escaped, not markup
    assert "proved for every case of up to 6 documents and 1 aspect" in cells["RBP", "Pri"]["title"]
    assert cells[USER, "Pri"]["title"].endswith(f"not proved: {REASON}")
    assert "ᵖ" in browser.execute_script("return document.getElementById('legend').innerText")
    rbp = reveal(browser, cells["RBP", "Pri"]["target"])
    assert f"Evidence: {evidence_text(proved_evidence())}." in rbp
    formula = browser.execute_script("return document.getElementById(arguments[0]).querySelector('pre').textContent",
                                     cells["RBP", "Pri"]["target"])
    assert formula == FORMULA
    mine = reveal(browser, cells[USER, "Pri"]["target"])
    assert f"Not proved: {REASON}." in mine and f"{USER} × Pri" in mine


# -- the other pages --------------------------------------------------------------------------

def _axiometer(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "axiometer", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=900)


def test_check_intrinsic_and_score_pages_open_with_their_pictures(browser, tmp_path):
    pages = {
        "check": ["check", "RBP", "--param", "p=0.5,0.8", "--constraints", "CloseTh", "Pri", "--quick"],
        "intrinsic": ["intrinsic", "RBP", "--domain", "rankings(n=3)", "--param", "p"],
        "score": ["score", "--example", "--metric", "nDCG@10", "--metric", "NRG(base=nDCG@10)"],
    }
    for name, args in pages.items():
        path = tmp_path / f"{name}.html"
        done = _axiometer(*args, "--format", "html", "-o", str(path))
        assert done.returncode == 0, done.stderr
        assert open_page(browser, path) == [], name
        assert_self_contained(browser)
        assert_links_resolve(browser)
        unfold(browser)
        boxes = svg_boxes(browser)
        assert boxes, f"the {name} page has no picture"
        assert_pictures_drawn(boxes)


@pytest.fixture(scope="session")
def full_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``axiometer table --compare amigo2018 --format html``: the README's main command, once a session."""
    path = tmp_path_factory.mktemp("full") / "report.html"
    done = _axiometer("table", "--compare", "amigo2018", "--format", "html", "-o", str(path))
    assert done.returncode == 0, done.stderr
    return path


def test_the_full_default_table_is_at_most_one_and_a_half_megabytes(full_report):
    # The pictures write their text as text and are drawn once each (DeepTh's and CloseTh's D(n) of
    # a setting are one picture); 4.8 MB when every glyph was a path and every curve drawn twice.
    assert full_report.stat().st_size <= 1_500_000


def test_the_full_default_table_opens_on_its_whole_matrix(browser, full_report):
    size = browser.get_window_size()
    browser.set_window_size(1400, 900)
    try:
        assert open_page(browser, full_report) == []
        where = browser.execute_script(
            "const t = document.querySelector('#matrix table.matrix'), rows = t.querySelectorAll('tbody tr');"
            "const first = t.querySelector('thead tr').getBoundingClientRect();"
            "const last = rows[rows.length - 1].getBoundingClientRect();"
            "return {scrolled: window.scrollY, top: first.top, bottom: last.bottom, right: t.getBoundingClientRect()"
            ".right, width: window.innerWidth, height: window.innerHeight, rows: rows.length}")
    finally:
        browser.set_window_size(size["width"], size["height"])
    assert where["rows"] == 20 and where["scrolled"] == 0
    # The header row and the last row of marks are within the window, without scrolling.
    assert 0 <= where["top"] and where["bottom"] <= where["height"], where
    assert where["right"] <= where["width"], where


def test_the_full_default_table_opens_with_no_console_error(browser, full_report):
    assert open_page(browser, full_report) == []
    assert_self_contained(browser)
    assert_links_resolve(browser)
    cells = matrix_links(browser)
    assert len(cells) == 200
    evidence = browser.execute_script("return [...document.querySelectorAll('details.cell > div.body')]"
                                      ".map(s => s.id)")
    assert sorted(c["target"] for c in cells) == sorted(evidence)
    unfold(browser)
    assert_pictures_drawn(svg_boxes(browser))
    comparison = browser.execute_script(
        "const s = document.getElementById('comparison');"
        "return [s.querySelectorAll('pre').length, s.querySelectorAll('table.matrix tbody tr').length]")
    assert comparison == [0, 20]
