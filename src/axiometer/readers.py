"""Reading judgments (qrels) and system runs from files (definitions §9).

Qrels formats:

- ``trec``: ``qid iter docno grade`` (whitespace separated; ``iter`` is
  ignored). Single-aspect topics, aspect ``"*"``.
- ``trec-diversity``: ``qid subtopic docno grade``. Aspects are the subtopics
  listed for the topic (in file order) with balanced weights ``1/|T|``.
- ``evall``: five tab-separated, double-quoted columns ``topic, docid, grade,
  aspect, aspect weight`` (EvALL's diversification gold). Weights come from
  the file; each aspect must carry one weight throughout and a topic's weights
  must sum to 1 (within 1e-9).

Detection (``format=None``): EvALL when the first data line contains a
double quote or has five tab-separated columns; otherwise TREC, and plain TREC
when every line's second column is ``0`` or ``Q0``, TREC diversity when not.

Integer grades become relevance ``r`` by a mapping of
:mod:`axiometer.grades` (``linear``, ``err`` -- the default --, ``err-aspect``,
``binary``); the scale maximum ``gmax`` defaults to the file's largest grade.

Runs: ``qid Q0 docno rank score tag``. Each topic's documents are ordered by
score descending, then docno descending (trec_eval's rule); the rank column
is ignored, as trec_eval ignores it.

Blank lines and lines whose first non-blank character is ``#`` are skipped;
every other line is read or rejected with an
:class:`~axiometer.core.InputError` naming file, line and problem. Files are
read a megabyte at a time, and a line longer than :data:`MAX_LINE` bytes (a
binary file, ``/dev/zero``) is refused as soon as it is that long: memory
follows what a reader keeps, never the file's size.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from axiometer.core import (SINGLE_ASPECT, WEIGHT_SUM_TOLERANCE, InputError, Number, Ranking,
                            Topic, ValidationError)
from axiometer.grades import GRADE_MAPPINGS, DEFAULT_MAPPING, MAX_GRADE, topic_from_grades
from axiometer.judgments import (CompactGrades, CompactTopics, CompactWeights, Judgments,
                                 shared_shapes)
from axiometer.runfile import (CompactRankings, RunAssembler, RunChunk, RunColumns, bulk_chunk,
                               chunk_from_rows)

__all__ = ["QRELS_FORMATS", "Qrels", "Run", "read_qrels", "read_run", "detect_qrels_format",
           "content_lines", "BOM"]

QRELS_FORMATS = ("trec", "trec-diversity", "evall")

#: Mappings whose scale maximum is fixed per aspect (or irrelevant), so a ``gmax`` means nothing.
_MAPPINGS_WITHOUT_GMAX = ("err-aspect", "binary")


@dataclass(frozen=True)
class Qrels:
    """Judgments read from one file.

    ``topics`` (in file order) are ready for the metrics; ``grades`` keeps the
    integer grades (``qid -> doc -> aspect -> grade``) and ``weights`` the
    aspect weights (``qid -> aspect -> w``; exact ``Fraction(1, |T|)`` where
    the weights are balanced) for peers and reports. Each is a ``dict``, or
    (``read_qrels(..., compact=True)``) a read-only mapping over the file's
    columns that builds a topic's value when asked for (:mod:`axiometer.judgments`).
    """

    topics: Mapping[str, Topic]
    grades: Mapping[str, Mapping[str, Mapping[str, int]]]
    weights: Mapping[str, Mapping[str, Number]]
    format: str
    source: str
    mapping: str


@dataclass(frozen=True)
class Run:
    """One system's rankings, ``qid -> Ranking``, in the file's topic order."""

    tag: str
    #: A ``dict``, or (``read_run(..., compact=True)``) a :class:`~axiometer.runfile.CompactRankings`.
    rankings: Mapping[str, Ranking]
    source: str


#: A UTF-8 byte-order mark, which Windows tools often write at the start of a text file.
BOM = "\ufeff"


def _source(path: Any) -> str:
    """A path as text, or one error line for anything that is not a path (``None``, a number)."""
    try:
        return os.fspath(path)
    except TypeError:
        raise InputError(f"a file path is needed, got {type(path).__name__} {path!r:.60}") from None


#: Control characters other than a tab (C0, DEL and C1).
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def _control_character(text: str) -> str | None:
    """The first control character in ``text`` other than a tab, as ``U+0007``, or ``None``.

    A compiled pattern, not a loop over characters: this runs on every line of every file."""
    found = _CONTROL.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


#: The longest line read, in bytes. Qrels and run lines are tens of bytes (a long URL as a document
#: id, a few hundred); a file with no line break in this many bytes is binary data or no file of
#: lines at all (``/dev/zero`` has none): it is refused there, before more of it is read.
MAX_LINE = 1 << 20


def content_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """``(line number, text without its line break)`` for every line that is
    neither blank nor a ``#`` comment.

    A UTF-8 byte-order mark at the start of the file is dropped (it would
    otherwise become part of the first topic's id); any other control
    character (tabs aside) is refused with the file, line and character, and so
    is a line longer than :data:`MAX_LINE` bytes. The file is read a megabyte
    at a time: the time taken is linear in its size, the memory bounded.
    """
    source = _source(path)
    with _open(source) as handle:
        for first, span in _spans(handle, source):
            yield from _content(span, source, first)


def _open(source: str) -> Any:
    """``source`` opened for reading bytes, or one error line saying why it cannot be."""
    try:
        return open(source, "rb")
    except FileNotFoundError:
        raise InputError("no such file", source=source) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", source=source) from None
    except OSError as error:
        raise InputError(f"cannot open: {error.strerror or error}", source=source) from None


def _read(handle: Any, source: str) -> bytes:
    """Up to :data:`MAX_LINE` bytes more of ``handle``, or one error line (``/proc/self/mem``)."""
    try:
        return handle.read(MAX_LINE)
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", source=source) from None


def _spans(handle: Any, source: str) -> Iterator[tuple[int, bytes]]:
    """The file in spans of whole lines, about :data:`MAX_LINE` bytes each, with the number of each
    span's first line; an error naming the first line longer than :data:`MAX_LINE` bytes.

    Blocks are read :data:`MAX_LINE` bytes at a time, so a line within a block is never too long;
    only the line carried from the blocks before can be, and it is measured as it grows.
    """
    carry, line = b"", 1  # the unfinished line after the last line break, and its number
    while True:
        block = _read(handle, source)
        if not block:
            if carry:
                yield line, carry
            return
        head = block.find(b"\n")
        if head < 0 or len(carry) + head > MAX_LINE:
            carry += block
            if len(carry) > MAX_LINE:
                raise InputError(f"line longer than {MAX_LINE} bytes: not a file of text lines "
                                 "(binary data?)", source=source, line=line)
            continue
        cut = block.rfind(b"\n")
        span, carry = carry + block[:cut + 1], block[cut + 1:]
        yield line, span
        line += span.count(b"\n")


def _blank(span: bytes) -> bool:
    """Whether every line of ``span`` is blank: only spaces, tabs and line feeds (a carriage
    return is looked at line by line: inside a line it is a control character)."""
    return not span.translate(None, b" \t\n")


#: A byte that makes a span's lines go one by one through the checks: a control character other
#: than the tab and the line feed (a carriage return included: it is a line break only at a line's
#: end), or a byte beyond ASCII (UTF-8 to check, a byte-order mark to drop).
_NOT_PLAIN = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f-\xff]")


def _content(span: bytes, source: str, first: int = 1) -> Iterator[tuple[int, str]]:
    """:func:`content_lines` over ``span``, whole lines of a file, the first numbered ``first``."""
    if _blank(span):
        return
    if not _NOT_PLAIN.search(span):  # printable ASCII, tabs and line feeds: nothing to check per line
        for number, line in enumerate(span.decode("ascii").split("\n"), first):
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                yield number, line
        return
    for number, raw in enumerate(span.split(b"\n"), first):
        if not raw.strip(b" \t"):
            continue  # blank: skipped without decoding (a file of blank lines is read fast)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("not UTF-8 text", source=source, line=number) from None
        if number == 1 and line.startswith(BOM):
            line = line[len(BOM):]
        line = line.rstrip("\r\n")
        bad = _control_character(line)
        if bad is not None:
            raise InputError(f"control character {bad} in the line (only tabs and spaces "
                             "separate fields)", source=source, line=number)
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, line


def _data_lines(path: str | os.PathLike[str], nothing: str) -> list[tuple[int, str]]:
    """:func:`content_lines` as a list; an error saying ``nothing`` if it is empty."""
    lines = list(content_lines(path))
    if not lines:
        raise InputError(f"empty file: {nothing}", source=os.fspath(path))
    return lines


_INTEGER = re.compile(r"[-+]?[0-9]+", re.ASCII)


def _grade(text: str, source: str, line: int) -> int:
    """A grade field (ASCII digits only); one above :data:`MAX_GRADE` is refused before any
    arithmetic: a number of more than 12 significant digits is never converted."""
    if len(text) < 3 and text.isascii() and text.isdigit():  # "0" to "99": most grades, no checks
        return int(text)
    if not _INTEGER.fullmatch(text):
        raise InputError("grade must be an integer", source=source, line=line, token=text[:40])
    significant = text.lstrip("+-").lstrip("0")  # "0000000000001" is the grade 1, as trec_eval reads it
    if len(significant) > 12 or int(text) > MAX_GRADE:  # int() of a huge string is slow
        raise InputError(f"grade above {MAX_GRADE}, the largest axiometer accepts", source=source,
                         line=line, token=text[:40])
    return int(text)


def _finite(text: str) -> float:
    """``float(text)``, or NaN for anything that is not a plain decimal number."""
    try:
        return float(text) if "_" not in text else math.nan  # float() would accept "1_0"
    except ValueError:
        return math.nan


def _unquote(field: str, source: str, line: int) -> str:
    field = field.strip()
    if field.startswith('"') or field.endswith('"'):
        if len(field) < 2 or not (field.startswith('"') and field.endswith('"')):
            raise InputError("unbalanced double quote", source=source, line=line, token=field)
        return field[1:-1]
    return field


# -- qrels --------------------------------------------------------------------

_NO_JUDGMENTS = "no judgments"

def detect_qrels_format(path: str | os.PathLike[str]) -> str:
    """The format :func:`read_qrels` would detect for ``path``."""
    return _detect(_data_lines(path, _NO_JUDGMENTS))


def _detect(lines: list[tuple[int, str]]) -> str:
    first = lines[0][1]
    if '"' in first or len(first.split("\t")) == 5:
        return "evall"
    for _, text in lines:
        fields = text.split()
        if len(fields) >= 2 and fields[1] not in ("0", "Q0"):
            return "trec-diversity"
    return "trec"


#: A topic's aspects and their weights.
_Shape = tuple[tuple[str, ...], tuple[Number, ...]]


@dataclass
class _QrelsBuilder:
    """Accumulates one file's judgments as columns (one row per judgment line, in file order),
    checking each line as it comes."""

    source: str
    gmax: int | None
    index: dict[str, int] = field(default_factory=dict)  # qid -> topic position, in file order
    first_line: list[int] = field(default_factory=list)  # per topic: its first line
    topic: array = field(default_factory=lambda: array("q"))  # per row: the topic's position
    docs: list[str] = field(default_factory=list)
    aspect: array = field(default_factory=lambda: array("q"))  # per row: the aspect's position
    grade: array = field(default_factory=lambda: array("q"))
    aspect_names: dict[str, int] = field(default_factory=dict)
    judged_at: dict[tuple[int, int, str], int] = field(default_factory=dict)  # (topic, aspect, doc)
    largest: int = 0

    def add(self, qid: str, doc: str, aspect: str, grade_text: str, line: int) -> int:
        """Check and keep one judgment; the topic's position."""
        grade = _grade(grade_text, self.source, line)
        if self.gmax is not None and grade > self.gmax:
            raise InputError(f"grade {grade} exceeds the scale maximum gmax={self.gmax}",
                             source=self.source, line=line, token=grade_text)
        topic = self.index.get(qid)
        if topic is None:
            topic = self.index[qid] = len(self.first_line)
            self.first_line.append(line)
        named = self.aspect_names.setdefault(aspect, len(self.aspect_names))
        earlier = self.judged_at.setdefault((topic, named, doc), line)
        if earlier != line:
            on_aspect = "" if aspect == SINGLE_ASPECT else f" on aspect {aspect!r}"
            raise InputError(f"duplicate judgment of document {doc!r}{on_aspect} in topic {qid!r}"
                             f" (first at line {earlier})", source=self.source, line=line)
        self.topic.append(topic)
        self.docs.append(doc)
        self.aspect.append(named)
        self.grade.append(grade)
        if grade > self.largest:
            self.largest = grade
        return topic

    def judgments(self, shapes: Sequence[_Shape]) -> Judgments:
        """The columns grouped by topic, each topic's rows in file order (``shapes``: each topic's
        aspects and weights)."""
        topic = np.frombuffer(self.topic, dtype=np.int64) if self.topic else np.zeros(0, np.int64)
        bounds = np.zeros(len(self.index) + 1, dtype=np.int64)
        np.cumsum(np.bincount(topic, minlength=len(self.index)), out=bounds[1:])
        docs, aspect, grade = self.docs, self.aspect.tolist(), self.grade.tolist()
        if not (topic[1:] >= topic[:-1]).all():  # a topic's lines not together: grouped, stably
            order = np.argsort(topic, kind="stable").tolist()
            docs, aspect, grade = [docs[i] for i in order], [aspect[i] for i in order], [grade[i] for i in order]
        shape, shared = shared_shapes(shapes)
        return Judgments(tuple(self.index), self.index, bounds.tolist(), docs, aspect, grade,
                         tuple(self.aspect_names), shape, shared, self.first_line, self.largest)


def read_qrels(path: str | os.PathLike[str], format: str | None = None,
               mapping: str = DEFAULT_MAPPING, gmax: int | None = None, *,
               compact: bool = False) -> Qrels:
    """Read a qrels file (see the module docstring for formats and detection).

    ``mapping`` turns grades into relevance (:mod:`axiometer.grades`);
    ``gmax`` is the scale maximum for ``linear`` and ``err`` (default: the
    file's largest grade). Raises :class:`~axiometer.core.InputError` naming
    file and line for malformed input, :class:`~axiometer.core.ValidationError`
    for bad arguments. ``compact=True`` keeps the judgments as columns
    (:mod:`axiometer.judgments`): ``topics``, ``grades`` and ``weights`` are
    read-only mappings equal to the ``dict``\\ s, building a topic's value
    each time it is asked for; what :func:`axiometer.scoring.score_runs`
    reads, a tenth of the memory for many small topics.
    """
    source = _source(path)
    if format is not None and format not in QRELS_FORMATS:
        raise ValidationError(f"unknown qrels format {format!r}; known: {', '.join(QRELS_FORMATS)}")
    if mapping not in GRADE_MAPPINGS:
        raise ValidationError(f"unknown grade mapping {mapping!r}; known: {', '.join(GRADE_MAPPINGS)}")
    if gmax is not None:
        if isinstance(gmax, bool) or not isinstance(gmax, int) or gmax < 1:
            raise ValidationError(f"gmax must be a positive integer, got {gmax!r}")
        if gmax > MAX_GRADE:
            raise ValidationError(f"gmax={gmax} is above {MAX_GRADE}, the largest grade axiometer accepts")
        if mapping in _MAPPINGS_WITHOUT_GMAX:
            raise ValidationError(f"gmax has no effect under the {mapping!r} mapping")
    lines = _data_lines(source, _NO_JUDGMENTS)
    detected = format or _detect(lines)
    builder = _QrelsBuilder(source, gmax)
    if detected == "evall":
        shapes = _read_evall(lines, builder)
    else:
        shapes = _read_trec(lines, builder, diversity=detected == "trec-diversity")
    del lines
    judgments = builder.judgments(shapes)
    del builder
    scale = gmax if gmax is not None else max(judgments.largest, 1)
    if compact:
        return Qrels(CompactTopics(judgments, mapping, scale), CompactGrades(judgments),
                     CompactWeights(judgments), detected, source, mapping)
    grades = {qid: judgments.table(i) for i, qid in enumerate(judgments.qids)}
    weights = {qid: judgments.weights(i) for i, qid in enumerate(judgments.qids)}
    topics = {}
    for i, (qid, table) in enumerate(grades.items()):
        try:
            topics[qid] = topic_from_grades(qid, table, weights[qid], mapping, scale)
        except ValidationError as error:
            raise InputError(str(error), source=source, line=judgments.first_line[i]) from None
    return Qrels(topics, grades, weights, detected, source, mapping)


def _read_trec(lines: list[tuple[int, str]], builder: _QrelsBuilder, diversity: bool) -> list[_Shape]:
    """Read TREC lines into ``builder``; each topic's aspects (the single aspect, or the subtopics
    in file order) with balanced weights."""
    columns = "qid subtopic docno grade" if diversity else "qid iter docno grade"
    aspects: list[dict[str, None]] = []  # per topic: subtopics in file order (diversity only)
    for line, text in lines:
        fields = text.split()
        if len(fields) != 4:
            raise InputError(f"expected 4 columns ({columns}), found {len(fields)}",
                             source=builder.source, line=line)
        qid, second, doc, grade = fields
        topic = builder.add(qid, doc, second if diversity else SINGLE_ASPECT, grade, line)
        if diversity:
            if topic == len(aspects):
                aspects.append({})
            aspects[topic][second] = None
    if not diversity:
        return [((SINGLE_ASPECT,), (Fraction(1),))] * len(builder.index)
    return [(tuple(named), (Fraction(1, len(named)),) * len(named)) for named in aspects]


def _read_evall(lines: list[tuple[int, str]], builder: _QrelsBuilder) -> list[_Shape]:
    """Read EvALL lines into ``builder``; each topic's aspects and weights, as the file gives them."""
    source = builder.source
    weights: dict[str, dict[str, float]] = {}
    weight_line: dict[tuple[str, str], int] = {}
    for line, text in lines:
        fields = text.split("\t")
        if len(fields) != 5:
            raise InputError(f"expected 5 tab-separated columns (topic, docid, grade, aspect, "
                             f"aspect weight), found {len(fields)}", source=source, line=line)
        qid, doc, grade, aspect, weight_text = (_unquote(f, source, line) for f in fields)
        weight = _finite(weight_text)
        if not (math.isfinite(weight) and weight > 0):
            raise InputError("aspect weight must be a positive number",
                             source=source, line=line, token=weight_text)
        known = weights.setdefault(qid, {}).get(aspect)
        if known is None:
            weights[qid][aspect] = weight
            weight_line[qid, aspect] = line
        elif known != weight:
            raise InputError(f"aspect {aspect!r} of topic {qid!r} has weight {weight!r} here but "
                             f"{known!r} at line {weight_line[qid, aspect]}",
                             source=source, line=line, token=weight_text)
        builder.add(qid, doc, aspect, grade, line)
    shapes = []
    for qid, topic in builder.index.items():
        exact = _exact_weights(qid, weights[qid], source, builder.first_line[topic])
        shapes.append((tuple(exact), tuple(exact.values())))
    return shapes


def _exact_weights(qid: str, weights: dict[str, float], source: str,
                   line: int) -> dict[str, Number]:
    """Check that a topic's weights sum to 1 and read balanced ones exactly.

    A file that writes each weight as the float nearest ``1/|T|`` (``0.2``,
    ``0.16666666666666666``) means ``1/|T|``: those weights become exact
    ``Fraction(1, |T|)``, as the TREC-diversity reader gives, so that exact
    evaluation sees weights summing to exactly 1. Other weights stay as written.
    """
    total = math.fsum(weights.values())
    if abs(total - 1.0) > WEIGHT_SUM_TOLERANCE:
        raise InputError(f"aspect weights of topic {qid!r} sum to {total!r}, not 1",
                         source=source, line=line)
    balanced = Fraction(1, len(weights))
    if all(w == float(balanced) for w in weights.values()):
        return dict.fromkeys(weights, balanced)
    return dict(weights)


# -- runs ---------------------------------------------------------------------

def read_run(path: str | os.PathLike[str], *, compact: bool = False) -> Run:
    """Read a TREC run ``qid Q0 docno rank score tag``.

    Documents of a topic are ordered as trec_eval orders them: score
    descending, then docno descending; the rank column is ignored. A file
    holds one run: every line must carry the same tag. A line with more than
    six whitespace-separated columns is read from its first six, as trec_eval
    reads it (its own test run ``results.trunc`` has such lines); one
    :class:`UserWarning` per file says how many lines had extra columns and
    where the first is. Fewer than six columns is an error.

    The file is read a span of lines (about a megabyte) at a time, each span
    in bulk (:mod:`axiometer.runfile`, numpy); a span the bulk reader does not
    take as it is (see there) goes through the line-by-line reader, which
    reports every problem with file, line and token, at the first bad line of
    the file. Memory follows the data lines kept, not the file's size: blank
    lines cost nothing, and a line longer than :data:`MAX_LINE` bytes (binary
    data, ``/dev/zero``) is refused when it gets that long.
    ``compact=True`` keeps the rankings as one byte array per run
    (:class:`~axiometer.runfile.CompactRankings`, a read-only mapping equal to
    the ``dict``), building each :class:`Ranking` when first asked for:
    what :func:`axiometer.scoring.score_runs` reads without building any.
    """
    source = _source(path)
    assembler = RunAssembler()
    extra, first_extra = 0, 0  # lines with more than six columns, the first of them
    try:
        with _open(source) as handle:
            for first, span in _spans(handle, source):
                more, first_more = _add_span(assembler, span, first, source)
                extra, first_extra = extra + more, first_extra or first_more
    except InputError as error:
        raise _duplicate(assembler, source) or error
    columns = _finish_run(assembler, source)
    if extra:
        lines = "1 line has" if extra == 1 else f"{extra} lines have"
        warnings.warn(f"{source}: {lines} more than 6 columns (the first at line {first_extra}); "
                      "the extra columns are ignored, as trec_eval ignores them", stacklevel=2)
    return Run(columns.tag, CompactRankings(columns) if compact else columns.rankings(), source)


def _add_span(assembler: RunAssembler, span: bytes, first: int, source: str) -> tuple[int, int]:
    """Read one span of whole lines (the first numbered ``first``) into ``assembler``: in bulk,
    else line by line; how many of its lines had more than six columns and the first of them.
    The line reader's error is raised once the lines before it are kept (so that a duplicate
    before it is reported instead)."""
    if _blank(span):
        return 0, 0
    chunk = bulk_chunk(span, first, assembler.index)
    if chunk is not None and (assembler.tag is None or chunk.tag == assembler.tag):
        assembler.add(chunk)
        return 0, 0
    chunk, extra, first_extra, error = _span_lines(span, first, source, assembler)
    assembler.add(chunk)
    if error is not None:
        raise error
    return extra, first_extra


def _span_lines(span: bytes, first: int, source: str, assembler: RunAssembler
                ) -> tuple[RunChunk, int, int, InputError | None]:
    """The line-by-line reader over a span: its data lines up to the first bad one as a
    :class:`RunChunk`, how many had more than six columns, the first of them, and the error at
    the first bad line (``None`` if there is none). Duplicates are the assembler's to find."""
    qids: list[str] = []
    docs: list[str] = []
    scores: list[float] = []
    numbers: list[int] = []
    tag, tag_line = assembler.tag, assembler.tag_line
    extra, first_extra, error = 0, 0, None
    try:
        for line, text in _content(span, source, first):
            fields = text.split()
            if len(fields) < 6:
                raise InputError(f"expected 6 columns (qid Q0 docno rank score tag), found {len(fields)}",
                                 source=source, line=line)
            if len(fields) > 6:
                extra += 1
                first_extra = first_extra or line
            qid, _, doc, _, score_text, line_tag = fields[:6]
            score = _finite(score_text)
            if not math.isfinite(score):
                raise InputError("score must be a finite number", source=source, line=line,
                                 token=score_text)
            if tag is None:
                tag, tag_line = line_tag, line
            elif line_tag != tag:
                raise InputError(f"run tag {line_tag!r} differs from {tag!r} at line {tag_line};"
                                 " a file holds one run", source=source, line=line)
            qids.append(qid)
            docs.append(doc)
            scores.append(score)
            numbers.append(line)
    except InputError as problem:
        error = problem
    chunk = chunk_from_rows(tag or "", first, qids, docs, scores, numbers, assembler.index)
    return chunk, extra, first_extra, error


def _duplicate(assembler: RunAssembler, source: str) -> InputError | None:
    """The error for the first document listed twice in a topic so far, if any."""
    found = assembler.duplicate()
    if found is None:
        return None
    return InputError(f"duplicate document {found.doc!r} in topic {found.qid!r} (first at line {found.first})",
                      source=source, line=found.line)


def _finish_run(assembler: RunAssembler, source: str) -> RunColumns:
    """Every span read: the run's columns, or the error for an empty file or a duplicate."""
    if assembler.empty:
        raise InputError("empty file: no run lines", source=source)
    duplicate = _duplicate(assembler, source)
    if duplicate is not None:
        raise duplicate
    return assembler.finish()


def _read_run_lines(source: str, data: bytes) -> tuple[Run, int, int]:
    """The line-by-line reader over a whole file's bytes (no bulk path, no span): the run (its
    rankings a ``dict``), how many lines had more than six columns and the first of them. Raises
    :class:`InputError` naming file, line (and token) at the first bad line."""
    assembler = RunAssembler()
    chunk, extra, first_extra, error = _span_lines(data, 1, source, assembler)
    assembler.add(chunk)
    if error is not None:
        raise _duplicate(assembler, source) or error
    columns = _finish_run(assembler, source)
    return Run(columns.tag, columns.rankings(), source), extra, first_extra
