"""A pytest plugin for metric authors: keep a metric's axioms in its test suite.

Installed with axiometer (the ``pytest11`` entry point ``axiometer``), so a
test suite needs no configuration:

- the marker ``@pytest.mark.axioms("Pri", "Deep", "Conf", expect={"Conf": False})``
  on a test that returns the metric (or names it with ``metric=``): every
  listed id must hold (satisfied or witness) unless ``expect`` says ``False``
  (it must be violated) or ``"proved"`` (it must hold with every check proved
  for every real relevance value, docs/proofs.md);
- the fixture ``axiometer_check(metric, expect=None, constraints=None, **kw)``,
  which runs :func:`axiometer.check` with the same rule and returns the
  :class:`~axiometer.api.MetricReport`;
- ``pytest --axiometer-report=FILE``: the matrix of every metric checked in
  the session, in the format the extension names (``.md``, ``.json``,
  ``.html``, ``.tex``, else text);
- the fixture ``axiometer_agree(implementation, metric, conventions=None, *,
  under_convention=True, **kw)``, which runs :func:`axiometer.agree` and
  fails the test when the implementation differs from the built-in, a
  property fails, or it needs a convention the test does not state, and the
  marker ``@pytest.mark.agrees("nDCG@10", conventions={"ties": "input"})`` on
  a test that returns the implementation (or names it with
  ``implementation=``), which does the same.

A mismatch fails the test with the shrunk counterexample (or the witness, or
the error) in the report, without a traceback into the plugin; a disagreement
fails it with ``agree``'s report (the minimal case). Unless the marker or the
fixture call gives ``budget`` (for an agreement, ``queries``), the budget
comes from the active hypothesis profile (:func:`profile_budget`; an agreement
generates ``max_examples`` queries), and the seed is 0, as ``axiometer``'s
command line uses, unless ``--axiometer-seed N`` (or ``random``: drawn once per
session), ``--hypothesis-seed`` or pytest-randomly's seed gives another; it is
printed after collection and in every failure so a run can be repeated.

A constraint's verdict is its metric's own setting's; over a ``params=`` grid,
``every_setting=True`` (a marker or fixture argument, or ``--axiometer-every-setting``
for the session) makes every expectation hold at every setting checked.

Under pytest-xdist (``-n 2``) the checks run in the workers: each worker sends
what it checked (and the budget and seed it used) to the controller through
xdist's worker output, and the controller writes the one matrix, in collection
order, as a serial run would. A drawn seed is drawn once, by the controller,
and handed to every worker.

This module is imported by every pytest run in an environment where axiometer
is installed, so it imports nothing heavy until a check runs.
"""

from __future__ import annotations

import functools
import pickle
from fractions import Fraction
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # pragma: no cover - imported lazily at run time
    from axiometer.agreement.result import AgreementResult
    from axiometer.api import MetricReport
    from axiometer.checking import Budget
    from axiometer.results import TableResult

__all__ = ["profile_budget", "merge_tables", "report_format", "MARKER", "AGREES_MARKER"]

MARKER = "axioms"
#: The marker of a test whose returned implementation must agree with a built-in metric.
AGREES_MARKER = "agrees"

#: ``--axiometer-report`` formats by file extension; anything else is text.
_FORMATS = {".md": "markdown", ".markdown": "markdown", ".json": "json", ".html": "html",
            ".htm": "html", ".tex": "latex"}

#: Keyword arguments the marker accepts (the rest of ``axiometer.check``'s are
#: run-level settings the session decides: ``jobs`` stays 1 inside a test).
_MARKER_KWARGS = ("expect", "metric", "params", "cutoff", "name", "needs", "budget", "mode", "seed",
                  "every_setting")
#: Keyword arguments ``axiometer_agree`` passes on to :func:`axiometer.agree`, and the marker's.
_AGREE_KWARGS = ("queries", "seed", "tolerance", "form")
_AGREES_KWARGS = ("implementation", "conventions", "under_convention", *_AGREE_KWARGS)


@dataclass
class _Session:
    """What the plugin keeps for one pytest session."""

    drawn: int                       # the seed used when neither derandomize nor an option fixes one
    report_path: Path | None
    checked: list[tuple[str, MetricReport]]
    # Under xdist, on the controller: the budget-and-seed line each worker would have printed
    # after collection, what the workers checked with its place in the collection order
    # (sorted before the report is written), and workers whose results did not arrive.
    # On a worker, ``header`` is that worker's own line.
    header: list[str] = field(default_factory=list)
    gathered: list[tuple[tuple[int, int, str], str, MetricReport]] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    unwritten: str = ""   # why the report could not be written (its file), when it could not


_SESSION = pytest.StashKey[_Session]()


# -- hooks ---------------------------------------------------------------------------

def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("axiometer", "axiometer: metric axioms")
    group.addoption("--axiometer-report", metavar="FILE", default=None,
                    help="write the constraint matrix of every metric checked in this session to FILE "
                         "(.md markdown, .json, .html, .tex LaTeX, else text)")
    group.addoption("--axiometer-seed", metavar="N|random", default=None, type=_seed_option,
                    help="the seed of every check (default 0, as the axiometer command line's; "
                         "'random': one drawn for the session and printed)")
    group.addoption("--axiometer-every-setting", action="store_true", default=False,
                    help="a constraint must meet its expectation at every setting of a params= grid, "
                         "not only at the metric's own (the marker's every_setting=True, for every test)")


def _seed_option(text: str) -> int | str:
    if text == "random":
        return text
    try:
        return int(text)
    except ValueError:
        raise pytest.UsageError(f"--axiometer-seed takes an integer or 'random', not {text!r}") from None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(*ids, expect=None, metric=None, params=None, cutoff=None, budget=None, "
        "every_setting=False): check the metric the test returns (or metric=) against axiometer's "
        "constraints; every id must hold unless expect={id: False} says it must be violated "
        "(every_setting=True: at every setting of the params= grid)")
    config.addinivalue_line(
        "markers",
        f"{AGREES_MARKER}(metric, conventions=None, implementation=None, under_convention=True, queries=None, "
        "seed=None, tolerance=1e-9, form=None): the implementation the test returns (or implementation=) "
        "must agree with the built-in metric, outright under the conventions stated")
    path = config.getoption("axiometer_report", None)
    # An xdist worker takes the seed the controller drew, so that every worker checks with the same one.
    drawn = _worker_input(config).get(_DRAWN_KEY)
    config.stash[_SESSION] = _Session(secrets.randbits(32) if drawn is None else int(drawn),
                                      config.invocation_params.dir / path if path else None, [])
    if config.pluginmanager.hasplugin("xdist") and not _is_worker(config):
        # Registered only where xdist is loaded: its hooks (pytest_configure_node, pytest_testnodedown)
        # are unknown to pytest otherwise. Without -n they are simply never called.
        config.pluginmanager.register(_XdistController(config), "axiometer-xdist")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Say which budget and seed the checks will use, when some collected test checks a metric.

    Printed after collection rather than in the header so that sessions that never use the
    plugin do not import the checker (a third of a second).
    """
    config = session.config
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    worker = _is_worker(config)
    if (reporter is None and not worker) or config.get_verbosity() < 0 \
            or not any(_uses_plugin(i) for i in session.items):
        return
    from hypothesis import settings

    seed, source = _seed(config)
    agreeing = any(_uses_agree(i) for i in session.items)
    queries = f"; agree: {_profile_queries()} generated queries" if agreeing else ""
    line = (f"axiometer: budget from hypothesis profile {_profile_name()!r} "
            f"({profile_budget(settings.default).describe()}{queries}), seed {seed} ({source})")
    if worker:  # nobody sees a worker's terminal: the controller prints the line at the end
        config.stash[_SESSION].header.append(line)
    else:
        assert reporter is not None  # returned above without one, unless on a worker
        reporter.write_line(line)


def _uses_plugin(item: pytest.Item) -> bool:
    return (item.get_closest_marker(MARKER) is not None
            or "axiometer_check" in getattr(item, "fixturenames", ()) or _uses_agree(item))


def _uses_agree(item: pytest.Item) -> bool:
    return (item.get_closest_marker(AGREES_MARKER) is not None
            or "axiometer_agree" in getattr(item, "fixturenames", ()))


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Any:
    """Run a marked test, keep what it returns (pytest would warn about it), then check that metric
    (``axioms``) or compare that implementation with the built-in (``agrees``)."""
    marker = pyfuncitem.get_closest_marker(MARKER)
    agrees = pyfuncitem.get_closest_marker(AGREES_MARKER)
    if marker is None and agrees is None:
        return (yield)
    original = pyfuncitem.obj
    returned: list[Any] = []

    @functools.wraps(original)
    def capture(*args: Any, **kwargs: Any) -> None:
        returned.append(original(*args, **kwargs))

    pyfuncitem.obj = capture
    try:
        outcome = yield
    finally:
        pyfuncitem.obj = original
    if marker is not None:
        _check_marked(pyfuncitem, marker, returned[0] if returned else None)
    if agrees is not None:
        _agree_marked(pyfuncitem, agrees, returned[0] if returned else None)
    return outcome


def pytest_sessionfinish(session: pytest.Session) -> None:
    state = session.config.stash.get(_SESSION, None)
    if state is None:
        return
    if _is_worker(session.config):  # the controller writes the report, from every worker's output
        _send_to_controller(session, state)
        return
    if state.gathered:
        state.gathered.sort(key=lambda entry: entry[0])
        state.checked += [(nodeid, report) for _, nodeid, report in state.gathered]
        state.gathered.clear()
    if state.report_path is None:
        return
    from axiometer.outputs import OutputError, write_atomically
    from axiometer.reports.table import format_table

    text = format_table(merge_tables([report.table for _, report in state.checked]),
                        report_format(state.report_path))
    try:  # a report that cannot be written is said in the summary; the tests' outcome stands
        state.report_path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(state.report_path, text)
    except (OSError, OutputError) as error:
        where = "" if isinstance(error, OutputError) else f"{state.report_path}: "
        state.unwritten = f"axiometer: could not write the report: {where}{error}"


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    state = config.stash.get(_SESSION, None)
    if state is None or _is_worker(config):
        return
    if config.get_verbosity() >= 0:  # under xdist: the workers' budget-and-seed line(s)
        for line in state.header:
            terminalreporter.write_line(line)
    for line in state.lost:
        terminalreporter.write_line(line)
    if state.unwritten:
        terminalreporter.write_line(state.unwritten)
    elif state.report_path is not None:
        metrics = {report.metric for _, report in state.checked}
        terminalreporter.write_line(f"axiometer: wrote the matrix of {len(metrics)} metric(s) "
                                    f"to {state.report_path}")


# -- pytest-xdist -------------------------------------------------------------------------

#: Keys of this plugin in xdist's ``workerinput`` (controller -> worker) and ``workeroutput``
#: (worker -> controller) dicts.
_DRAWN_KEY = "axiometer_drawn_seed"
_OUTPUT_KEY = "axiometer"


def _worker_input(config: pytest.Config) -> dict[str, Any]:
    return getattr(config, "workerinput", None) or {}


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _send_to_controller(session: pytest.Session, state: _Session) -> None:
    """Put what this worker checked into xdist's ``workeroutput``, which xdist sends to the
    controller after this hook (see ``_XdistController.pytest_testnodedown``).

    Each report goes as the pickle of its ``MetricReport``: execnet carries only builtins
    (bytes, str, numbers, lists, dicts), and a pickle rebuilds the result exactly, every
    nested field and float included, which the byte-identical report needs; a dict form
    would be a second serialiser of ``results.py`` to keep in step with it. The workers
    run the same axiometer in the same environment as the controller (a remote ``--tx``
    with another version could fail to unpickle: the controller then says so).
    Each check carries its test's place in the collection order, which every worker
    shares, so that the controller can put them in the order a serial run checks them.
    """
    output = getattr(session.config, "workeroutput", None)
    if output is None:
        return
    order = {item.nodeid: i for i, item in enumerate(session.items)}
    checked = []
    if state.report_path is not None:  # without a report the controller needs only the header
        for nodeid, report in state.checked:
            try:
                payload: bytes | str = pickle.dumps(report, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as error:  # noqa: BLE001 - sent as a message instead of losing the worker
                payload = f"{type(error).__name__}: {error}"
            checked.append([order.get(nodeid, len(order)), nodeid, payload])
    output[_OUTPUT_KEY] = {"header": list(state.header), "checked": checked}


class _XdistController:
    """The controller's side under pytest-xdist: hand the drawn seed to each worker and gather
    what each worker checked. Registered only when xdist is loaded (its hooks exist only then)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[_DRAWN_KEY] = self.config.stash[_SESSION].drawn

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        state = self.config.stash[_SESSION]
        worker = node.workerinput.get("workerid", "?")
        output = (getattr(node, "workeroutput", None) or {}).get(_OUTPUT_KEY)
        if output is None:
            if error is not None and state.report_path is not None:
                state.lost.append(f"axiometer: worker {worker} went down ({error}); whatever it "
                                  "checked is missing from the matrix")
            return
        state.header += [line for line in output["header"] if line not in state.header]
        for seq, (position, nodeid, payload) in enumerate(output["checked"]):
            try:
                if isinstance(payload, str):
                    raise ValueError(payload)
                report = pickle.loads(payload)
            except Exception as problem:  # noqa: BLE001 - one lost check, said in the summary
                state.lost.append(f"axiometer: the check of {nodeid} on worker {worker} could not "
                                  f"be passed to the controller ({problem}); it is missing from the matrix")
                continue
            state.gathered.append(((position, seq, worker), nodeid, report))


# -- the fixture ----------------------------------------------------------------------

@pytest.fixture
def axiometer_check(request: pytest.FixtureRequest) -> Callable[..., MetricReport]:
    """``axiometer_check(metric, expect=None, constraints=None, **kw) -> MetricReport``.

    Runs :func:`axiometer.check` (``kw``: ``params``, ``cutoff``, ``name``,
    ``needs``, ``budget``, ``mode``, ``seed``) and fails the test when an id's
    outcome differs from ``expect`` (ids not in ``expect`` must hold). The
    constraints default to ``expect``'s keys when ``expect`` is given, else
    to :func:`axiometer.check`'s default.
    """

    def run(metric: Any, expect: Mapping[str, bool] | None = None,
            constraints: Iterable[str] | None = None, **kw: Any) -> MetricReport:
        __tracebackhide__ = True
        return _run_and_verify(request.node, metric, _ids(constraints), expect, kw)

    return run


# -- checking ---------------------------------------------------------------------------

def _check_marked(item: pytest.Function, marker: pytest.Mark, returned: Any) -> None:
    __tracebackhide__ = True
    _refuse_unknown(marker.kwargs, _MARKER_KWARGS, f"@pytest.mark.{MARKER}")
    kwargs = dict(marker.kwargs)
    expect = kwargs.pop("expect", None)
    metric = _subject(returned, kwargs.pop("metric", None), MARKER, "a metric", "metric",
                      "(or a spec string, or a callable)")
    _run_and_verify(item, metric, _ids(marker.args), expect, kwargs)


def _refuse_unknown(given: Iterable[str], known: Sequence[str], where: str, also: Sequence[str] = ()) -> None:
    """Fail the test with one line when ``given`` holds a keyword that is neither in ``known`` nor in
    ``also`` (the arguments taken apart, listed first)."""
    unknown = sorted(set(given) - set(known))
    if unknown:
        _usage(f"unknown argument(s) {', '.join(unknown)} to {where}; known: {', '.join([*also, *known])}")


def _subject(returned: Any, named: Any, marker: str, noun: str, keyword: str, forms: str) -> Any:
    """What a marker applies to: the value the test returned or the one the marker names with
    ``keyword=`` (exactly one of them; ``noun`` with its article, ``forms``: what else ``keyword``
    takes besides ``'module:function'``)."""
    if named is not None and returned is not None:
        _usage(f"the test returns {noun} and @pytest.mark.{marker} names one ({keyword}=...); give one of them")
    subject = returned if returned is not None else named
    if subject is None:
        _usage(f"@pytest.mark.{marker} needs {noun}: return it from the test or name it "
               f"with {keyword}='module:function' {forms}")
    return subject


def _ids(given: Any) -> list[Any] | None:
    """Constraint ids from marker args or a ``constraints`` argument (a string or nested lists)."""
    if given is None:
        return None
    if isinstance(given, str) or not isinstance(given, Iterable):
        return [given]  # an id, or a Constraint object
    ids = [c for part in given for c in (_ids(part) or [])]
    return ids or None


def _run_and_verify(item: pytest.Item, metric: Any, constraints: list[str] | None,
                    expect: Mapping[str, bool | str] | None, kw: dict[str, Any]) -> MetricReport:
    __tracebackhide__ = True
    from axiometer import api
    from axiometer.core import AxiometerError

    if expect is not None and not isinstance(expect, Mapping):
        _usage(f"expect must be a dict of constraint id -> True/False, not {type(expect).__name__}")
    for key, value in (expect or {}).items():
        if not isinstance(value, bool) and value != PROVED:
            _usage(f"expect[{key!r}] must be True (holds), {PROVED!r} (holds, proved for every real "
                   f"relevance value) or False (violated), not {value!r}")
    if expect:  # an expectation on an unlisted id checks it too
        constraints = (constraints or []) + [c for c in expect if c not in (constraints or [])]
    state = item.config.stash[_SESSION]
    every_setting = bool(kw.pop("every_setting", None) or item.config.getoption("axiometer_every_setting", False))
    if kw.get("budget") is None:
        from hypothesis import settings

        kw["budget"] = profile_budget(settings.default)
    seed_note = _session_seed(kw, item.config)
    problem: str | None = None
    try:
        report = api.check(metric, constraints, jobs=1, **kw)
    except AxiometerError as error:
        problem = str(error)
    if problem is not None:  # failed outside the except block: no "during handling" chain in the report
        _usage(problem)
    state.checked.append((item.nodeid, report))
    wanted = {c: True for c in report.verdicts}
    wanted.update({report.cell(c).constraint: bool(value) for c, value in (expect or {}).items()})
    failures = report.failures(wanted, every_setting=every_setting)
    failures += [report.cell(c).constraint for c, value in (expect or {}).items()
                 if value == PROVED and report.cell(c).constraint not in failures and not _proved(report, c)]
    if failures:
        pytest.fail(_failure_text(report, wanted, failures, kw, seed_note, every_setting), pytrace=False)
    return report


def _failure_text(report: MetricReport, wanted: Mapping[str, bool], failures: list[str],
                  kw: Mapping[str, Any], seed_note: str, every_setting: bool = False) -> str:
    from axiometer.api import BUDGETS, outcome
    from axiometer.results import HOLDS, Verdict

    lines = [f"axiometer: {report.metric}: {len(failures)} of {len(wanted)} constraint(s) "
             "differ from what the test expects"]
    for c in failures:
        verdict = report.verdicts.get(c, Verdict.NOT_RUN)
        expected = "to hold" if wanted[c] else "a violation"
        missed = [f"{check.verdict} for {check.metric}" for check in report.cell(c).checks
                  if every_setting and outcome(check.verdict) is not wanted[c]]
        if every_setting and missed:
            lines.append(f"  {c}: expected {expected} at every setting, got {'; '.join(missed)}")
        elif wanted[c] and verdict in HOLDS:
            reasons = sorted({check.unproved for check in report.cell(c).checks if check.unproved})
            lines.append(f"  {c}: expected a proof, got {verdict} without one"
                         + (f" ({'; '.join(reasons)})" if reasons else ""))
        else:
            lines.append(f"  {c}: expected {expected}, got {verdict}")
    budget = BUDGETS.get(kw["budget"], kw["budget"]) if isinstance(kw["budget"], str) else kw["budget"]
    budget_text = budget.describe() if hasattr(budget, "describe") else repr(budget)
    lines.append(f"  budget: {budget_text}; seed {kw['seed']}{seed_note}")
    lines.append("")
    lines.append(report.details(failures).rstrip())
    return "\n".join(lines)


#: ``expect={"Pri": "proved"}``: the constraint must hold with every check proved (docs/proofs.md).
PROVED = "proved"


def _proved(report: MetricReport, constraint: str) -> bool:
    """Does every holding check of the cell rest on a proof?"""
    from axiometer.evidence import Strength

    checks = [check for check in report.cell(constraint).checks if check.holds]
    return bool(checks) and all(check.evidence is not None and check.evidence.strength is Strength.PROVED
                                for check in checks)


def _usage(message: str) -> None:
    __tracebackhide__ = True
    pytest.fail(f"axiometer: {message}", pytrace=False)


# -- agreement with a built-in ------------------------------------------------------------

@pytest.fixture
def axiometer_agree(request: pytest.FixtureRequest) -> Callable[..., AgreementResult]:
    """``axiometer_agree(implementation, metric, conventions=None, *, under_convention=True, **kw)
    -> AgreementResult``.

    Runs :func:`axiometer.agree` (``kw``: ``queries``, ``seed``, ``tolerance``, ``form``) and
    fails the test, with agree's report and its minimal case, when the implementation differs
    from the built-in ``metric``, when a property fails, or when it does not agree outright
    under the ``conventions`` stated (``{"ties": "input"}`` or ``["ties=input"]``): it needed
    another convention. Without ``conventions`` it may agree under any convention, unless
    ``under_convention=False``: then it must agree under the reference's own.
    """

    def run(implementation: Any, metric: Any, conventions: Mapping[str, str] | Sequence[str] | None = None,
            *, under_convention: bool = True, **kw: Any) -> AgreementResult:
        __tracebackhide__ = True
        return _agree_and_verify(request.node, implementation, metric, conventions, under_convention, kw)

    return run


def _agree_marked(item: pytest.Function, marker: pytest.Mark, returned: Any) -> None:
    __tracebackhide__ = True
    _refuse_unknown(marker.kwargs, _AGREES_KWARGS, f"@pytest.mark.{AGREES_MARKER}")
    if len(marker.args) != 1:
        _usage(f"@pytest.mark.{AGREES_MARKER} takes one built-in metric, the reference: "
               f"@pytest.mark.{AGREES_MARKER}(\"nDCG@10\"), not {len(marker.args)} arguments")
    kwargs = dict(marker.kwargs)
    conventions = kwargs.pop("conventions", None)
    under_convention = kwargs.pop("under_convention", True)
    implementation = _subject(returned, kwargs.pop("implementation", None), AGREES_MARKER, "an implementation",
                              "implementation", "(or 'ir_measures:MEASURE', or a callable)")
    _agree_and_verify(item, implementation, marker.args[0], conventions, under_convention, kwargs)


def _agree_and_verify(item: pytest.Item, implementation: Any, metric: Any, conventions: Any,
                      under_convention: bool, kw: dict[str, Any]) -> AgreementResult:
    __tracebackhide__ = True
    from axiometer import api
    from axiometer.core import AxiometerError

    _refuse_unknown(kw, _AGREE_KWARGS, "axiometer_agree", also=("conventions", "under_convention"))
    kw = dict(kw)
    if kw.get("queries") is None:
        kw["queries"] = _profile_queries()
    seed_note = _session_seed(kw, item.config)
    problem: str | None = None
    try:
        stated = api.conventions_given(conventions)
        result = api.agree(implementation, metric, conventions=stated or None, **kw)
    except AxiometerError as error:
        problem = str(error)
    if problem is not None:  # failed outside the except block: no "during handling" chain in the report
        _usage(problem)
    problems = _agreement_problems(result, stated, under_convention)
    if problems:
        pytest.fail(_agreement_failure_text(result, problems, stated, kw["queries"], seed_note), pytrace=False)
    return result


def _agreement_problems(result: AgreementResult, stated: Mapping[str, str], under_convention: bool) -> list[str]:
    """Why the test fails, in words (empty: it passes); see :func:`axiometer_agree`."""
    from axiometer.agreement.result import Agreement

    problems = []
    if result.agree is Agreement.DIFFERS:
        problems.append("differs: no convention explains it (a bug)")
    elif result.agree is Agreement.AGREES_UNDER and result.convention is not None \
            and (stated or not under_convention):
        further = [(axis, value) for axis, value in result.convention.departures() if axis not in stated]
        named = ", ".join(f"{axis}={value}" for axis, value in further)
        problems.append(f"agrees only under a convention the test does not state: {named}" if stated else
                        f"agrees only under a convention ({named}), and under_convention=False asks "
                        "for the reference's own")
    failing = [check.name for check in result.properties if not check.holds]
    if failing:
        problems.append(f"{'a property fails' if len(failing) == 1 else 'properties fail'}: {', '.join(failing)}")
    return problems


def _agreement_failure_text(result: AgreementResult, problems: list[str], stated: Mapping[str, str],
                            generated: int, seed_note: str) -> str:
    """Why the test fails, the conventions it states, the queries and seed, then agree's report."""
    from axiometer.reports.agreement import format_agreement

    lines = [f"axiometer: {result.implementation} against {result.metric}: {'; '.join(problems)}",
             "  conventions stated: " + (", ".join(f"{a}={v}" for a, v in stated.items()) or "none"),
             f"  queries: {generated} generated; seed {result.seed}{seed_note}", "",
             format_agreement(result, "text").rstrip()]
    return "\n".join(lines)


def _profile_queries() -> int:
    """The generated queries of an agreement the active hypothesis profile asks for (``max_examples``)."""
    from hypothesis import settings

    profile = settings.default
    return max(1, int(profile.max_examples)) if profile is not None else 300  # agree's default


# -- budget, seed, report ------------------------------------------------------------------

def profile_budget(profile: Any) -> Budget:
    """The check budget a hypothesis settings profile asks for.

    ``max_examples`` becomes the random cases per setting; the small scope
    gets 8/3 small cases per random one (400 per 150, the ratio of the
    budget this plugin was designed with): a thorough profile also searches
    more small cases, and hypothesis's default 100 examples keep a small scope
    of 267 cases rather than the 27 the default budget's ratio (400 per 1,500)
    would leave. Seconds and horizon stay the defaults.
    """
    from axiometer.checking import Budget

    cases = max(1, int(profile.max_examples))
    return Budget(cases=cases, small_scope=max(1, round(cases * SMALL_SCOPE_PER_EXAMPLE)))


#: Small-scope cases per random case of a hypothesis profile's budget (:func:`profile_budget`).
SMALL_SCOPE_PER_EXAMPLE = Fraction(8, 3)


def _profile_name() -> str:
    from hypothesis import settings

    getter = getattr(settings, "get_current_profile_name", None)
    return getter() if getter is not None else "current"


_DRAWN = "drawn for this session"


def _session_seed(kw: dict[str, Any], config: pytest.Config) -> str:
    """Give ``kw`` the session's seed unless the test chose one; the note a drawn seed adds to a
    failure (how to repeat it), else ``""``."""
    if kw.get("seed") is not None:
        return ""
    kw["seed"], source = _seed(config)
    return f" (drawn for this session; repeat with --axiometer-seed={kw['seed']})" if source == _DRAWN else ""


def _seed(config: pytest.Config) -> tuple[int, str]:
    """The seed and where it came from: 0 under derandomize, else --axiometer-seed (``random``: one
    drawn once per session), else --hypothesis-seed / pytest-randomly's, else 0 as the command
    line's default (issue 27: a new seed every session made a passing suite fail later).

    Read at each check, not at configure time: a conftest may load a profile later.
    """
    from hypothesis import settings

    if settings.default is not None and settings.default.derandomize:
        return 0, "derandomize"
    chosen = config.getoption("axiometer_seed", None)
    if chosen == "random":
        return config.stash[_SESSION].drawn, _DRAWN
    if chosen is not None:
        return int(chosen), "--axiometer-seed"
    for option, source in (("hypothesis_seed", "--hypothesis-seed"), ("randomly_seed", "pytest-randomly")):
        value = config.getoption(option, None)
        if value is not None and value != "":
            try:
                return int(value), source
            except (TypeError, ValueError):
                from axiometer.checking import cell_seed

                return cell_seed(0, str(value)) % 2**32, source
    return 0, "the default, as the command line's; --axiometer-seed=random draws one"


def report_format(path: Path | str) -> str:
    """The ``--axiometer-report`` format a file name asks for (text unless the extension says)."""
    return _FORMATS.get(Path(path).suffix.lower(), "text")


def merge_tables(tables: Iterable[TableResult]) -> TableResult:
    """One matrix from several one-row checks: rows and constraints in first-seen order.

    A (row, constraint) cell checked twice keeps its first result; settings
    that differ between checks (seed, budget, mode) are listed together.
    """
    from axiometer.results import TableResult

    tables = list(tables)
    rows: list[str] = []
    constraints: list[str] = []
    cells: dict[tuple[str, str], Any] = {}
    meanings: dict[str, Any] = {}  # constraint id -> what its column means
    for table in tables:
        rows += [r for r in table.rows if r not in rows]
        constraints += [c for c in table.constraints if c not in constraints]
        for cell in table.cells:
            cells.setdefault((cell.row, cell.constraint), cell)
        for info in table.axioms:
            meanings.setdefault(info.id, info)

    def joined(values: Iterable[str]) -> str:
        return "; ".join(dict.fromkeys(values)) or "none"

    seeds = list(dict.fromkeys(t.seed for t in tables))
    return TableResult(
        rows=tuple(rows), constraints=tuple(constraints),
        cells=tuple(cells[(r, c)] for r in rows for c in constraints if (r, c) in cells),
        seed=seeds[0] if seeds else 0, mode=joined(t.mode for t in tables),
        budget=joined(t.budget for t in tables),
        interrupted=any(t.interrupted for t in tables),
        settings=(("source", "pytest session"), ("seeds", ", ".join(map(str, seeds)) or "none")),
        axioms=tuple(meanings[c] for c in constraints if c in meanings),
        small_scope_budget=max((t.small_scope_budget for t in tables if t.small_scope_budget is not None),
                               default=None))
