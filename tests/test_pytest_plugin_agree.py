"""The pytest plugin's agreement with a built-in: the ``axiometer_agree`` fixture and the ``agrees`` marker,
run in nested pytest sessions (pytester, in this process, so the worktree's axiometer is the one loaded).

The implementations under test are tests/agreement/implementations.py (copied into each session), written
wrong on purpose or right, and one RR written here whose conventions are known by construction: ties in
the run's order (a stable sort on the score alone) and relevant only from grade 2.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

# Loaded here, before any nested session: pytester drops the modules a session imported when it ends,
# numpy cannot be imported twice in one process, and `from axiometer import api` (the plugin's) would
# keep finding a dropped module as an attribute of the package (see tests/test_pytest_plugin.py).
import axiometer.api  # noqa: F401
import axiometer.reports.agreement  # noqa: F401
from axiometer.agreement.agree import agree  # noqa: F401
from axiometer.agreement.generation import awkward_queries
from tests.nested import run_nested as _run

pytest_plugins = ["pytester"]

IMPLEMENTATIONS = Path(__file__).resolve().parent / "agreement" / "implementations.py"

#: Reciprocal rank with two conventions of its own: equal scores in the run's line order (``ties=input``)
#: and a document relevant only from grade 2 (``relevance=binary@2``).
RR_TWO_CONVENTIONS = '''
def rr(grades, scores):
    for i, d in enumerate(sorted(scores, key=scores.__getitem__, reverse=True), 1):
        if grades.get(d, 0) >= 2:
            return 1 / i
    return 0.0
'''


@pytest.fixture
def session(pytester: pytest.Pytester) -> pytest.Pytester:
    """A nested session with the implementations importable (``implementations``, ``rr_conventions``)."""
    pytester.makepyfile(implementations=IMPLEMENTATIONS.read_text(encoding="utf-8"),
                        rr_conventions=RR_TWO_CONVENTIONS)
    return pytester


def _clean(result: pytest.RunResult) -> None:
    out = result.stdout.str()
    assert "Traceback" not in out and "pytest_plugin.py" not in out and "During handling" not in out


def test_a_right_implementation_passes_and_the_fixture_returns_the_result(session):
    session.makepyfile(test_right="""
        from axiometer import Agreement
        from implementations import ndcg

        def test_ndcg(axiometer_agree):
            result = axiometer_agree(ndcg, "nDCG", queries=40)
            assert result.agree is Agreement.AGREES and result.ok
            assert result.convention.is_reference and result.case is None

        def test_ndcg_must_agree_outright(axiometer_agree):
            axiometer_agree("implementations:ndcg", "nDCG", under_convention=False, queries=40, seed=3)
    """)
    result = _run(session)
    result.assert_outcomes(passed=2)


def test_a_wrong_implementation_fails_with_agrees_report_and_its_minimal_case(session):
    session.makepyfile(test_wrong="""
        from implementations import rr_from_zero

        def test_rr(axiometer_agree):
            axiometer_agree(rr_from_zero, "RR", queries=40, seed=0)
    """)
    result = _run(session)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "axiometer: rr_from_zero against RR: differs: no convention explains it (a bug); "
        "a property fails: defined",
        "  conventions stated: none",
        "  queries: 40 generated; seed 0",
        "",
        "rr_from_zero against RR: differs: no convention explains it (a bug), minimal case below*",
        "Minimal case: *",
        "Judgments:",
        "document  grade",
        "Run, in the order of its lines:",
        "document  score",
        "Values on this query:",
        "implementation: *",
        "reference (RR, its own conventions): *",
        "difference (implementation - reference): *",
        "  ✗ defined: *",
        "*raised ZeroDivisionError: division by zero",
    ])
    _clean(result)


def test_stated_conventions_pass_when_they_are_all_it_needs_and_fail_when_it_needs_more(session):
    session.makepyfile(test_conventions="""
        from rr_conventions import rr

        def test_exactly_its_conventions(axiometer_agree):
            result = axiometer_agree(rr, "RR", ["ties=input", "relevance=binary@2"], queries=40)
            assert dict(result.convention.departures()) == {"ties": "input", "relevance": "binary@2"}

        def test_fewer_than_it_needs(axiometer_agree):
            axiometer_agree(rr, "RR", {"ties": "input"}, queries=40)

        def test_none_stated_any_convention_will_do(axiometer_agree):
            result = axiometer_agree(rr, "RR", queries=40)
            assert result.agree.name == "AGREES_UNDER"

        def test_none_stated_and_none_allowed(axiometer_agree):
            axiometer_agree(rr, "RR", under_convention=False, queries=40)
    """)
    result = _run(session)
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines([
        "*test_fewer_than_it_needs*",
        "axiometer: rr against RR: agrees only under a convention the test does not state: "
        "relevance=binary@2",
        "  conventions stated: ties=input",
        "*Values on this query:*",
        "*test_none_stated_and_none_allowed*",
        # relevance=binary@2 always (a grade-1 document is a hand-written query); ties=input, or
        # ties=docid-asc, or nothing, as the drawn seed's queries tell the tie-breakings apart or not
        "axiometer: rr against RR: agrees only under a convention (*relevance=binary@2), "
        "and under_convention=False asks for the reference's own",
        "  conventions stated: none",
    ])
    _clean(result)


def test_the_marker_compares_the_implementation_the_test_returns_or_names(session):
    session.makepyfile(test_marker="""
        import pytest
        from implementations import ndcg, rr_from_zero

        @pytest.mark.agrees("nDCG", queries=40)
        def test_returned():
            return ndcg

        @pytest.mark.agrees("RR", implementation="rr_conventions:rr", queries=40,
                            conventions={"ties": "input", "relevance": "binary@2"})
        def test_named():
            pass

        @pytest.mark.agrees("RR", queries=40)
        def test_wrong():
            return rr_from_zero
    """)
    result = _run(session, "--strict-markers")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["axiometer: rr_from_zero against RR: differs: *", "*Judgments:*"])
    _clean(result)


def test_misuse_is_one_clear_line(session):
    session.makepyfile(test_misuse="""
        import pytest
        from implementations import ndcg

        @pytest.mark.agrees("nDCG")
        def test_no_implementation():
            pass

        @pytest.mark.agrees("nDCG", implementation="implementations:ndcg")
        def test_two_implementations():
            return ndcg

        @pytest.mark.agrees(queries=40)
        def test_no_metric():
            return ndcg

        @pytest.mark.agrees("nDCG", convention={"ties": "input"})
        def test_typo():
            return ndcg

        def test_bad_convention(axiometer_agree):
            axiometer_agree(ndcg, "nDCG", {"ties": "random"})

        def test_unknown_argument(axiometer_agree):
            axiometer_agree(ndcg, "nDCG", budget="quick")

        def test_not_a_reference(axiometer_agree):
            axiometer_agree(ndcg, "alpha_nDCG@10")

        def test_missing_module(axiometer_agree):
            axiometer_agree("nosuchmodule:f", "nDCG")
    """)
    result = _run(session)
    result.assert_outcomes(failed=8)
    result.stdout.fnmatch_lines_random([
        "axiometer: @pytest.mark.agrees needs an implementation: *",
        "axiometer: the test returns an implementation and @pytest.mark.agrees names one*",
        "axiometer: @pytest.mark.agrees takes one built-in metric, the reference: *, not 0 arguments",
        "axiometer: unknown argument(s) convention to @pytest.mark.agrees; known: implementation, "
        "conventions, *",
        "axiometer: conventions 'ties=random': ties is one of docid-desc, docid-asc, input, reverse-input",
        "axiometer: unknown argument(s) budget to axiometer_agree; known: conventions, under_convention, "
        "queries, seed, tolerance, form",
        "axiometer: *aspects*",
        "axiometer: *nosuchmodule*",
    ])
    _clean(result)


def test_queries_and_seed_follow_the_hypothesis_profile_unless_given(session, restore_profile):
    session.makeconftest("""
        from hypothesis import settings
        settings.register_profile("tiny", max_examples=7, derandomize=True)
        settings.load_profile("tiny")
    """)
    session.makepyfile(test_profile=f"""
        from implementations import ndcg

        HAND_WRITTEN = {len(awkward_queries(None))}

        def test_profile(axiometer_agree):
            result = axiometer_agree(ndcg, "nDCG")
            assert (result.queries, result.seed) == (HAND_WRITTEN + 7, 0)

        def test_given_wins(axiometer_agree):
            result = axiometer_agree(ndcg, "nDCG", queries=12, seed=5)
            assert (result.queries, result.seed) == (HAND_WRITTEN + 12, 5)
    """)
    result = _run(session)
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["axiometer: budget from hypothesis profile 'tiny' (7 random *; "
                                 "agree: 7 generated queries), seed 0 (derandomize)"])


def test_a_drawn_seed_is_printed_with_a_failure_so_that_it_can_be_repeated(session, restore_profile):
    session.makeconftest("""
        from hypothesis import settings
        settings.register_profile("random", max_examples=5, derandomize=False)
        settings.load_profile("random")
    """)
    session.makepyfile(test_seed="""
        from implementations import rr_from_zero

        def test_rr(axiometer_agree):
            axiometer_agree(rr_from_zero, "RR", queries=20)
    """)
    result = _run(session, "--hypothesis-seed=1234")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["  queries: 20 generated; seed 1234"])
    result = _run(session, "--axiometer-seed=random")
    result.assert_outcomes(failed=1)
    header = next(line for line in result.outlines if line.startswith("axiometer: budget"))
    seed = header.split("seed ")[1].split(" ")[0]
    result.stdout.fnmatch_lines([f"  queries: 20 generated; seed {seed} (drawn for this session; "
                                 f"repeat with --axiometer-seed={seed})"])


def test_the_failure_in_docs_pytest_plugin_md_is_real_output(pytester, restore_profile):
    """The docs' files, run as the docs say (hypothesis' default profile, --hypothesis-seed=0), fail
    with the message the docs show, line for line but for the seconds taken."""
    docs = (Path(__file__).resolve().parents[1] / "docs" / "pytest-plugin.md").read_text(encoding="utf-8")
    section = docs[docs.index("## Agreement with a built-in: `axiometer_agree`"):]
    section = section[section.index("### What a failure looks like"):section.index("\n## ")]
    implementation, test = re.findall(r"```python\n(.*?)```", section, re.S)
    (excerpt,) = re.findall(r"```text\n(.*?)```", section, re.S)
    assert "python -m pytest --hypothesis-seed=0" in section
    pytester.makepyfile(mymetrics=implementation, test_mymetrics=test)
    pytester.makeconftest("""
        from hypothesis import settings
        settings.load_profile("default")
    """)
    result = _run(pytester, "--hypothesis-seed=0")
    result.assert_outcomes(failed=1)
    lines = result.outlines
    start = lines.index(excerpt.splitlines()[0])
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("====="))
    seconds = re.compile(r"\d+\.\d seconds")  # the one part that differs between two runs
    assert seconds.sub("N seconds", "\n".join(lines[start:end])) == seconds.sub("N seconds", excerpt.rstrip("\n"))
