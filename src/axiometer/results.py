"""Result objects: what crosses from the checker to the reports.

Plain, immutable data (strings, numbers, tuples) so that reports format them
without importing metrics or running anything, and so that a result turns
into JSON (``to_dict``) the same way every time: same seed, same bytes.

- :class:`Check`: one constraint checked on one metric at one parameter
  setting — its verdict, counts, and the counterexample or witness.
- :class:`Cell`: one metric x constraint cell of the table, summarising the
  checks over the metric's parameter grid.
- :class:`TableResult`: the whole matrix, with the run's settings.
- :class:`Outcome`: what judging one generated case gave (holds, a
  counterexample, or an error), the unit a constraint or property and the
  checking engine hand each other.
- :class:`Verdict` and :class:`Strength`: what a check concluded and how
  strongly; string enums, so the JSON writes their values.

Some fields restate a display text as data (a witness's threshold beside its
``value`` "n = 6"); they are left out of the JSON (:func:`record`), whose
shape stays as it was, and reports read them instead of parsing the text.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from axiometer.core import Context, TextEnum, Topic, to_fraction
from axiometer.evidence import NOT_IN_JSON, STRENGTHS, Evidence, Proof, Strength
from axiometer.views import Rows, Tabular, param_columns

__all__ = ["Verdict", "Strength", "Decided", "NearbyReading", "Explanation", "Side", "Certain", "RootForm", "record", "VERDICTS", "Outcome", "AxiomInfo", "Evidence", "Boundary", "BoundaryCurve", "STRENGTHS", "Proof", "record_topic", "context_record", "TopicRecord", "Counterexample", "Witness", "ErrorInfo", "Check", "Cell",
           "TableResult", "HOLDS", "OutputRecord", "PropertyVerdict", "IntrinsicResult",
           "ParametricResult", "Difference", "PublishedComparison", "GinerEntry", "GinerRow",
           "GinerTable"]

_Text = TextEnum  # the results' string enums print as their value


class Verdict(_Text):
    """What a check concluded (definitions §3); ``NOT_RUN`` marks cells an interrupted run did
    not reach. A ``str``: it equals its value (``Verdict.NA == "n/a"``) and the JSON writes it."""

    SATISFIED = "satisfied"
    VIOLATED = "violated"
    WITNESS = "witness"
    ERROR = "error"
    NA = "n/a"
    NOT_RUN = "not run"


#: The verdicts a check can reach, in the order the definitions list them.
VERDICTS: tuple[Verdict, ...] = tuple(Verdict)

#: Verdicts that count as "the metric satisfies the constraint".
HOLDS: frozenset[Verdict] = frozenset({Verdict.SATISFIED, Verdict.WITNESS})


class Decided(_Text):
    """How a counterexample's comparison was decided: in exact arithmetic, or on floats with the
    check's tolerance."""

    EXACT = "exact"
    FLOAT = "float"


class NearbyReading(Enum):
    """Which nearby reading makes a violated cell hold (definitions §3, "Explaining a violation";
    the steps of :func:`axiometer.checking.explain.explain`, nearest first)."""

    OTHER_MODE = "the other cutoff mode"
    DISJOINT_CONTEXT = "other systems retrieve none of the case's documents"
    CONSTRAINT = "one of the constraint's declared readings"
    TIGHTER_RHO = "a tighter relevance contribution"
    LONGER_HORIZON = "a doubled horizon"
    SINGLE_RC = "some rc on its own"
    PARAMETERS = "other parameter values of the metric"


@dataclass(frozen=True)
class Explanation:
    """Why a violated cell holds nearby: ``text`` completes "violated; ..." (``"holds for p >= 0.8"``)
    and ``reading`` says which reading it is. With ``reading`` ``None`` there is no such reading and
    ``text`` says why (``"(no explanation: ...)"``, the search failed)."""

    text: str
    reading: NearbyReading | None


class Side(_Text):
    """A side of a boundary: the parameter's values below it, or above it."""

    BELOW = "below"
    ABOVE = "above"


class Certain(_Text):
    """Which sides of a boundary a concrete case decided at every probe (:attr:`Boundary.certain`)."""

    BELOW = "below"
    ABOVE = "above"
    BOTH = "both"
    NEITHER = "neither"

    @classmethod
    def of(cls, below: bool, above: bool) -> Certain:
        """The member for "the side below is certain" and "the side above is certain"."""
        return {(True, True): cls.BOTH, (True, False): cls.BELOW, (False, True): cls.ABOVE,
                (False, False): cls.NEITHER}[below, above]

    @property
    def sides(self) -> frozenset[Side]:
        """The sides this names: none, one, or both."""
        return {Certain.BELOW: frozenset({Side.BELOW}), Certain.ABOVE: frozenset({Side.ABOVE}),
                Certain.BOTH: frozenset(Side), Certain.NEITHER: frozenset()}[self]


class RootForm(Enum):
    """How a boundary's closed form names its value: ``EXPLICIT``, the value itself (a rational or
    radicals, ``"1/5"``, ``"-1/2 + sqrt(5)/2"``); ``IMPLICIT``, an equation it is the root of
    (``"root of p**3 + p**2 - 1"``)."""

    EXPLICIT = "explicit"
    IMPLICIT = "implicit"


@dataclass(frozen=True)
class TopicRecord:
    """A topic as text: aspects, weights and relevance values as exact strings (``"1/10"``)."""

    aspects: tuple[str, ...]
    weights: tuple[str, ...]
    judgments: tuple[tuple[str, tuple[str, ...]], ...]  # (doc, r per aspect), judged docs only

    def relevance(self, doc: str) -> tuple[str, ...]:
        for d, values in self.judgments:
            if d == doc:
                return values
        return ("0",) * len(self.aspects)


@dataclass(frozen=True)
class Counterexample:
    """A concrete input on which the relation fails: a topic, two rankings, two scores."""

    topic: TopicRecord
    a: tuple[str, ...]
    b: tuple[str, ...]
    score_a: float
    score_b: float
    relation: str          # what should hold, e.g. "Q(b) > Q(a)"
    note: str              # how b was built from a, e.g. "b = a with positions 1 and 2 swapped"
    decided: Decided       # exact, or on floats (with the tolerance in Check)
    extra: tuple[tuple[str, str], ...] = ()  # shown as "label = text", e.g. (("rc", "1/10"),)
    # Relative metrics: the other systems' rankings a (and b) were scored against.
    context_a: tuple[tuple[str, ...], ...] | None = None
    context_b: tuple[tuple[str, ...], ...] | None = None
    # What ``extra`` shows, as data (not in the JSON): DeepTh/CloseTh's rc, the grid point (n or m)
    # of the pair and the sign of D(n) along the grid (as ``Witness.signs`` words it); Sat's rmax.
    rc: Fraction | None = field(default=None, metadata=NOT_IN_JSON)
    threshold: int | None = field(default=None, metadata=NOT_IN_JSON)
    rmax: Fraction | None = field(default=None, metadata=NOT_IN_JSON)
    signs: str | None = field(default=None, metadata=NOT_IN_JSON)


@dataclass(frozen=True)
class Witness:
    """Why an existential constraint holds (DeepTh/CloseTh threshold, Sat's rmax).

    ``value`` says it for display; the typed fields say it as data (they are
    not in the JSON): ``threshold``, DeepTh's ``n`` or CloseTh's ``m`` (one
    that serves every ``rc`` in ``rcs``); ``rmax``, Sat's; ``scores``, a
    property's witness case's ``(Q(a), Q(b))``; ``signs_by_rc``, ``signs``
    one ``rc`` at a time.
    """

    value: str                       # e.g. "n = 12", "m = 3", "rmax = 1"
    note: str = ""
    signs: str | None = None         # DeepTh/CloseTh: the sign of D(n) along the grid, "; " between rc
    by_truncation: bool = False      # reached only because documents fell past the cutoff
    threshold: int | None = field(default=None, metadata=NOT_IN_JSON)
    rcs: tuple[Fraction, ...] = field(default=(), metadata=NOT_IN_JSON)
    rmax: Fraction | None = field(default=None, metadata=NOT_IN_JSON)
    scores: tuple[float, float] | None = field(default=None, metadata=NOT_IN_JSON)
    # ``signs`` one rc at a time (``"rc = 1/100: n=1..5: -, n=6..64: +"``), in the order of ``rcs``.
    signs_by_rc: tuple[str, ...] = field(default=(), metadata=NOT_IN_JSON)


@dataclass(frozen=True)
class ErrorInfo:
    """The metric misbehaved: what it did and on which input."""

    message: str
    topic: TopicRecord | None = None
    ranking: tuple[str, ...] | None = None


class Outcome:
    """What judging one case gave: it holds, a counterexample, or an error.

    ``final`` marks an outcome that ends the check at once (a metric author's
    metric that ran past the per-case time limit).
    """

    __slots__ = ("holds", "counterexample", "error", "final")

    def __init__(self, holds: bool, counterexample: Counterexample | None = None,
                 error: ErrorInfo | None = None, final: bool = False) -> None:
        self.holds, self.counterexample, self.error, self.final = holds, counterexample, error, final


def record_topic(topic: Topic) -> TopicRecord:
    """A topic as exact strings, for reports."""
    return TopicRecord(
        aspects=topic.aspects,
        weights=tuple(str(to_fraction(w)) for w in topic.weights),
        judgments=tuple((d, tuple(str(to_fraction(r)) for r in topic.vector(d))) for d in topic.documents),
    )


def context_record(context: Context | None) -> tuple[tuple[str, ...], ...] | None:
    """A context as plain tuples of document ids, for reports (``None`` without a context)."""
    return None if context is None else tuple(tuple(r) for r in context.rankings)


@dataclass(frozen=True)
class Boundary:
    """Where a cell's verdict changes along one numeric parameter (definitions §3, boundaries).

    ``value`` is the boundary (the closed form's root when it agrees with
    the bisection, else the bisection's midpoint); ``bracket`` the last
    bisection interval ``(low, high)``, at most 1e-6 wide, whose ends were
    decided (``below`` at ``low``, ``above`` at ``high``); ``closed_form``
    the equation's root as sympy prints it (``"root of p**3 + p**2 - 1"``),
    or ``None``; ``closed_value`` its float and ``agrees`` whether it lies
    within 1e-6 of the bisection (``None`` without a closed form).
    ``certain``: which side was decided by a concrete case at every probe
    (a :class:`Certain`); a side that is not certain rests on "no
    counterexample found" (its ``evidence``). ``at_value``: the
    :class:`Side` the boundary value itself belongs to (the decisive case
    ties there), when known. ``root_form``: whether ``closed_form`` is the
    value itself or an equation's root (not in the JSON). ``fixed``: the other
    parameters' values; ``probes``: checks run to locate it.
    ``counterexample``: the case that decided the violated end of the
    bracket, so the violated side can be re-verified by anyone (``None``
    when neither side is violated).
    """

    param: str
    value: float
    bracket: tuple[str, str]         # exact decimals, e.g. ("0.754877", "0.754878")
    below: Verdict
    above: Verdict
    certain: Certain
    closed_form: str | None = None
    closed_value: float | None = None
    agrees: bool | None = None
    at_value: Side | None = None
    fixed: tuple[tuple[str, Any], ...] = ()
    probes: int = 0
    case: str = ""                   # the decisive case the closed form was solved on, in words
    evidence_below: Evidence | None = None
    evidence_above: Evidence | None = None
    note: str = ""
    counterexample: Counterexample | None = None
    root_form: RootForm | None = field(default=None, metadata=NOT_IN_JSON)


@dataclass(frozen=True)
class BoundaryCurve:
    """A two-parameter cell's boundary curve: the boundaries of ``param`` at each value of ``over``."""

    param: str
    over: str
    points: tuple[tuple[Any, tuple[Boundary, ...]], ...]   # (value of ``over``, boundaries of ``param``)
    fixed: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Check:
    """One constraint on one metric at one parameter setting."""

    constraint: str
    metric: str                      # the metric's full name at this setting, e.g. "RBP(p=0.5)"
    params: tuple[tuple[str, Any], ...]
    verdict: Verdict
    mode: str                        # "window" or "truncate"
    cases: int = 0                   # generated cases evaluated (random search)
    small_scope: int = 0             # exhaustive small-scope cases evaluated
    counterexample: Counterexample | None = None
    witness: Witness | None = None
    error: ErrorInfo | None = None
    exact: bool = True               # ties decided exactly (False: float with ``tolerance``)
    tolerance: float | None = None
    note: str = ""                   # e.g. "projected", "budget reached after 2.0 s"
    # DeepTh/CloseTh: D(n) = Q(a_n) - Q(b_n) along the grid, per rc tried: ((rc, ((n, D), ...)), ...).
    curve: tuple[tuple[str, tuple[tuple[int, float], ...]], ...] = ()
    evidence: Evidence | None = None  # satisfied and witness checks: what the verdict rests on
    output: str = ""                 # what a metric author's metric printed: its first characters
    output_chars: int = 0            # how many characters it printed in all
    proof_seconds: float | None = None  # the proof's time (None: no proof was tried)
    unproved: str = ""               # a holding verdict that is not proved: why not
    # What ``note`` says of the small scope, as data (not in the JSON): the case was found in it, or
    # the time budget stopped it.
    small_scope_noted: bool = field(default=False, metadata=NOT_IN_JSON)

    @property
    def holds(self) -> bool:
        return self.verdict in HOLDS


@dataclass(frozen=True)
class Cell:
    """A metric x constraint cell: the verdict at the default setting and the grid summary."""

    row: str                         # the table's row title, e.g. "RBP"
    metric: str                      # the metric's name at its default setting
    constraint: str
    verdict: Verdict                 # verdict at the default setting
    summary: str                     # e.g. "satisfied for p >= 0.8"
    checks: tuple[Check, ...]
    projected: bool = False          # an aspect-blind metric on a diversity constraint
    explanation: str | None = None   # for a violated cell: the nearby reading that makes it hold
    other_mode: Verdict | None = None  # the verdict in the other cutoff mode, when computed
    boundaries: tuple[Boundary, ...] = ()   # where the verdict changes (asked for: ranges, --boundaries)
    curves: tuple[BoundaryCurve, ...] = ()  # two-parameter cells: boundary curves
    # Which nearby reading ``explanation`` states (None: none, or it says why there is none).
    reading: NearbyReading | None = field(default=None, metadata=NOT_IN_JSON)

    @property
    def evidence(self) -> Evidence | None:
        """The default setting's evidence (satisfied and witness verdicts)."""
        default = self.default_check
        return default.evidence if default is not None else None

    @property
    def default_check(self) -> Check | None:
        for check in self.checks:
            if check.metric == self.metric:
                return check
        return self.checks[0] if self.checks else None


@dataclass(frozen=True)
class AxiomInfo:
    """What one column of a table means: an axiom's name, meaning, relation, conditions and source.

    ``meaning`` is one plain sentence saying what a user loses when a metric
    violates the axiom; ``expectation`` completes "b ..." in the sentence that
    instantiates a counterexample (e.g. "should score higher than a").
    """

    id: str
    name: str
    meaning: str
    relation: str                    # the formal relation, e.g. "Q(b) > Q(a)"
    conditions: tuple[str, ...]
    source: str                      # paper and equation
    expectation: str = ""


def _check_row(cell: Cell, check: Check) -> dict[str, Any]:
    """One check of a cell as a tidy row: the cell, the setting (a column per parameter, after
    ``default``), what it found; a parameter named like a column is ``param_NAME``."""
    cx, witness, evidence = check.counterexample, check.witness, check.evidence
    head = {"metric": cell.row, "constraint": cell.constraint, "setting": check.metric,
            "default": check.metric == cell.metric}
    tail = {"verdict": str(check.verdict), "strength": str(evidence.strength) if evidence else None,
            "mode": check.mode, "cases": check.cases, "small_scope": check.small_scope,
            "counterexample": cx.note if cx else None, "relation": cx.relation if cx else None,
            "score_a": cx.score_a if cx else None, "score_b": cx.score_b if cx else None,
            "witness": witness.value if witness else None, "error": check.error.message if check.error else None,
            "cell_verdict": str(cell.verdict), "summary": cell.summary, "projected": cell.projected}
    return {**head, **param_columns(check.params, head.keys() | tail.keys()), **tail}


@dataclass(frozen=True)
class TableResult(Tabular):
    """The matrix: rows (metrics) x constraints, with the run's settings (in a notebook: the matrix
    with its legend, and :meth:`to_rows` one row per metric x constraint x setting)."""

    rows: tuple[str, ...]
    constraints: tuple[str, ...]
    cells: tuple[Cell, ...]
    seed: int
    mode: str                        # "default" (window / truncate per constraint), "window" or "truncate"
    budget: str                      # e.g. "200 cases per setting, 2.0 s"
    interrupted: bool = False
    settings: tuple[tuple[str, Any], ...] = field(default=())
    axioms: tuple[AxiomInfo, ...] = ()   # what each column means, in column order
    # The small-scope cases per setting that ``budget`` states, as data (not in the JSON; None: it states none).
    small_scope_budget: int | None = field(default=None, metadata=NOT_IN_JSON)

    def cell(self, row: str, constraint: str) -> Cell | None:
        for cell in self.cells:
            if cell.row == row and cell.constraint == constraint:
                return cell
        return None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: deterministic for a given seed (no timings)."""
        return record(self)

    def to_rows(self) -> Rows:
        """One row per metric x constraint x setting (each check of each cell): the setting's
        parameters a column each, its verdict, strength, counts, and counterexample, witness or error
        in brief; the cell's verdict (the default setting's) and summary beside it."""
        return [_check_row(cell, check) for cell in self.cells for check in cell.checks]


def record(value: Any) -> Any:
    """``value`` as JSON-ready data: a result object as a dict of its fields (those marked
    :data:`NOT_IN_JSON` left out), tuples as lists, an enum as its value, a ``Fraction`` as its
    exact string.

    ``dataclasses.asdict`` with lists for tuples, except that the typed restatements of a
    display text stay out, so the JSON keeps one shape.
    """
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: record(getattr(value, f.name)) for f in fields(value)
                if f.metadata.get("json", True)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {record(k): record(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [record(v) for v in value]
    if isinstance(value, Fraction):
        return str(value)  # exact, as the reports write it ("1/10")
    return value


@dataclass(frozen=True)
class OutputRecord:
    """One output of an intrinsic domain: its label (a grade sequence), ranking and score.

    ``exact`` is the exact score as text (``"1/2"``, or a sympy expression)
    when an exact evaluation was made, else ``None``.
    """

    index: int
    label: str
    ranking: tuple[str, ...]
    score: float
    exact: str | None = None


@dataclass(frozen=True)
class PropertyVerdict:
    """One of Giner's properties on a domain: whether it holds, how it was decided, a counterexample.

    ``name`` is ``"pseudometric"``, ``"metric"`` or ``"interval"``;
    ``exact``: every decision it rests on was exact (rational or sympy);
    ``counterexample``: the outputs that break it (two equal-scoring outputs
    for "metric", three consecutive values with unequal gaps for "interval",
    the offending input for "pseudometric"); ``note`` says what happened.
    """

    name: str
    holds: bool
    exact: bool
    counterexample: tuple[OutputRecord, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class IntrinsicResult(Tabular):
    """A metric classified on a domain (definitions §4).

    ``category`` is ``"interval/metric"``, ``"ordinal/metric"``,
    ``"ordinal/pseudometric"`` or ``"not a pseudometric"``. ``distinct`` and
    ``resolution`` (= distinct / size) count the distinct attained values;
    ``largest_class`` lists (up to five) outputs of the largest set of
    outputs with one value, of ``largest_class_size`` members. ``tolerance``
    is the tie band used for a float-only metric (``None`` when decisions
    were exact). ``values``: the distinct attained values, ascending, each
    with how many outputs attain it (float of one member; the classes are
    the metric property's), for the number-line picture; empty when the
    domain was not classified that far or has more than
    :data:`~axiometer.intrinsic.classify.VALUES_KEPT` distinct values.
    """

    metric: str
    domain: str
    size: int
    category: str
    properties: tuple[PropertyVerdict, ...]
    distinct: int | None = None
    resolution: float | None = None
    largest_class_size: int = 0
    largest_class: tuple[OutputRecord, ...] = ()
    exact: bool = True
    tolerance: float | None = None
    note: str = ""
    values: tuple[tuple[float, int], ...] = ()

    def property(self, name: str) -> PropertyVerdict | None:
        for verdict in self.properties:
            if verdict.name == name:
                return verdict
        return None

    def to_dict(self) -> dict[str, Any]:
        return record(self)

    def to_rows(self) -> Rows:
        """One row per property: whether it holds, how it was decided, the outputs that break it."""
        return [{"metric": self.metric, "domain": self.domain, "category": self.category, "property": p.name,
                 "holds": p.holds, "exact": p.exact, "counterexample": [o.label for o in p.counterexample],
                 "note": p.note} for p in self.properties]


@dataclass(frozen=True)
class ParametricResult(Tabular):
    """Where a metric's intrinsic classification changes with one parameter (definitions §4).

    Values of the parameter are exact sympy text (``"(-1 + sqrt(5))/2"``,
    ``"1/2"``; ``sympy.sympify`` reads them back) with a decimal.

    - ``exceptional``: ``(exact, decimal, output_a, output_b)`` per parameter
      value in range at which two outputs with different score expressions
      tie (the metric is not injective there), ascending, with the first such
      pair of outputs (labels, by domain order) as witness.
    - ``always_tied``: two outputs whose scores are the same expression,
      tied for every value (then the metric is injective for no value);
      empty when there is none.
    - ``interval``: ``(exact, decimal)`` per value at which the metric is
      injective and its distinct values equally spaced (``interval/metric``);
      ``interval_ranges``: open sub-ranges (text) on which that holds
      throughout. Both empty, and ``interval_analysed`` false, when the
      interval analysis was not asked for or outputs are ``always_tied``.
    - ``summary``: one line, e.g. ``"metric for every p in (0, 1) except
      {(-1 + sqrt(5))/2 ≈ 0.618034}; interval only at p = 1/2"``.
    """

    metric: str
    parameter: str
    range: str
    domain: str
    size: int
    distinct_expressions: int
    exceptional: tuple[tuple[str, float, str, str], ...]
    always_tied: tuple[str, ...] = ()
    interval: tuple[tuple[str, float], ...] = ()
    interval_ranges: tuple[str, ...] = ()
    interval_analysed: bool = True
    summary: str = ""

    def to_dict(self) -> dict[str, Any]:
        return record(self)

    def to_rows(self) -> Rows:
        """One row per value of the parameter where the class changes: two outputs tie (``kind``
        ``"tie"``, not a metric there) or the values are equally spaced (``"interval"``)."""
        head = {"metric": self.metric, "parameter": self.parameter, "domain": self.domain}
        return ([{**head, "kind": "tie", "value": v, "exact": e, "tied": [a, b]} for e, v, a, b in self.exceptional]
                + [{**head, "kind": "interval", "value": v, "exact": e, "tied": []} for e, v in self.interval])


# -- the published SIGIR 2018 table, compared (axiometer.axioms.published) ----------------------

@dataclass(frozen=True)
class Difference:
    """A cell where our verdict and the published mark disagree, or the paper is silent (``?``)."""

    row: str                  # our row title
    published_row: str        # the published row it was matched with
    constraint: str
    published: str            # "1", "0" or "?"
    ours: Verdict             # our verdict at the default setting
    cell: Cell


@dataclass(frozen=True)
class PublishedComparison:
    """Agreement of a regenerated table with a published one.

    ``agree`` of ``total`` decided cells agree (both sides decided: a ``1``
    or ``0`` mark, and a verdict of ours in ``satisfied/witness/violated/n/a``);
    ``differences`` lists the disagreements, ``undecided`` the cells the
    paper marks ``?``, ``not_compared`` our cells whose check gave ``error``
    or did not run, and ``unmatched`` our rows the published table has no row for.
    """

    table: str
    agree: int
    total: int
    differences: tuple[Difference, ...]
    undecided: tuple[Difference, ...]
    not_compared: tuple[Difference, ...]
    unmatched: tuple[str, ...]

    @property
    def rate(self) -> float:
        return self.agree / self.total if self.total else 0.0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (cells included)."""
        data: dict[str, Any] = record(self)
        data["rate"] = self.rate
        return data


# -- Giner's tables, regenerated (axiometer.intrinsic.giner) ----------------------------------------

@dataclass(frozen=True)
class GinerEntry:
    """One row of ``giner.tsv``: a measure, its axiometer spec, Giner's category.

    ``published`` is ``None`` where Giner's text states no category;
    ``condition`` the case it is stated for (``"binary"``), else ``None``.
    """

    measure: str
    scores: str               # "set", "user" or "rank": what it scores, so the domains it is classified on
    spec: str
    published: str | None
    condition: str | None


@dataclass(frozen=True)
class GinerRow:
    """A measure of Giner's tables, classified on each canonical domain of what it scores.

    ``results`` has one :class:`~axiometer.results.IntrinsicResult` per
    domain evaluated (empty when ``skipped`` says why none was);
    ``reproduced_by`` names the domains whose category is the published one;
    ``explanation`` (when none is and a category was published) says, domain
    by domain, why ours differs, with the counterexample.
    """

    entry: GinerEntry
    results: tuple[IntrinsicResult, ...]
    reproduced_by: tuple[str, ...]
    explanation: tuple[str, ...] = ()
    skipped: str | None = None

    @property
    def measure(self) -> str:
        return self.entry.measure

    @property
    def published(self) -> str | None:
        return self.entry.published

    def category_on(self, domain: str) -> str | None:
        """Our category on the domain named ``domain``, or ``None`` if not evaluated there."""
        for result in self.results:
            if result.domain == domain:
                return result.category
        return None

    def result_on(self, domain: str) -> IntrinsicResult | None:
        for result in self.results:
            if result.domain == domain:
                return result
        return None


@dataclass(frozen=True)
class GinerTable:
    """The comparison: the domains used (by kind) and one row per measure.

    ``set_domains`` lists every domain of counts — the ``sets(...)`` domains,
    then the ``users(...)`` domains, which ``user_domains`` lists again on
    their own (the report gives count domains one column group).
    """

    set_domains: tuple[str, ...]
    rank_domains: tuple[str, ...]
    rows: tuple[GinerRow, ...]
    user_domains: tuple[str, ...] = ()

    def row(self, measure: str) -> GinerRow:
        for row in self.rows:
            if row.measure == measure:
                return row
        raise KeyError(measure)

    @property
    def differences(self) -> tuple[GinerRow, ...]:
        """Rows with a published category that no domain reproduces."""
        return tuple(r for r in self.rows if r.published and r.results and not r.reproduced_by)
