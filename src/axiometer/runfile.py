"""Reading TREC run files in bulk with numpy: the fast path of :func:`axiometer.readers.read_run`.

A run file is read piece by piece (:class:`RunAssembler`): :func:`axiometer.readers.read_run` cuts it
into spans of whole lines of about a megabyte, and each span of ``N`` lines is read by a few dozen
array operations over its bytes instead of ``N`` Python-level lines (:func:`bulk_chunk`): the
positions of the whitespace give the six fields of every line; each field's bytes are gathered as
64-bit words (an id of ``w`` bytes is ``ceil(w / 8)`` words, zero-padded, so equal words mean equal
ids); scores go through numpy's cast from bytes to float64, which calls Python's ``float`` on each,
so every value is the one the line reader gets. What a span keeps is a few arrays of its data
lines (topic, score, id, a hash of topic and id), so memory follows the data lines, not the file:
the working arrays of one span are freed before the next is read.

The bulk path reads what the line-by-line reader reads *without a remark*: ASCII text; six
fields per data line, separated by spaces or tabs; lines ended by ``\\n`` or ``\\r\\n``; blank
lines and ``#`` comment lines; one tag; finite scores; a UTF-8 byte-order mark at the start.
Anything else in a span -- a byte outside printable ASCII (a control character, a non-ASCII
letter), a line with more or fewer than six fields, a score that is not a finite decimal number,
a second tag -- makes :func:`bulk_chunk` return ``None``, and the line reader reads that span: it
says what is wrong, where (file, line, token), or reads the span's lines into the same columns
(:func:`chunk_from_rows`; ids beyond ASCII kept as UTF-8 bytes). So the bulk path never reports an
error itself and never accepts a line the line reader refuses.

Duplicates (a document twice in a topic) can lie in different spans: :meth:`RunAssembler.duplicate`
finds the first one over every span read so far (hashes first, confirmed byte for byte), and the
reader reports it when it comes before the first bad line, as the line reader always has.

Order: the line reader's (trec_eval's) -- score descending, then docno descending (byte order of
the UTF-8 ids, which is code-point order, as Python compares strings).

:class:`CompactRankings` keeps a run's ranked ids as one numpy byte-string array instead of a
Python string per document (about 10 bytes a document instead of 60); it builds a topic's
:class:`~axiometer.core.Ranking` when asked for it. :class:`JudgedIndex` finds the judged row of
every document of many rankings at once, by hash and exact comparison, for
:meth:`axiometer.metrics.RankingBatch.from_rows`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat

import numpy as np

from axiometer.core import Ranking

__all__ = ["RunColumns", "RunChunk", "RunAssembler", "bulk_chunk", "chunk_from_rows", "parse_run",
           "CompactRankings", "JudgedIndex"]

#: A UTF-8 byte-order mark, as bytes (the line reader drops it from the first line too).
_BOM = b"\xef\xbb\xbf"

#: Which bytes up to 32 may appear: tab, line feed, carriage return, space (others are control
#: characters, which the line reader refuses).
_ALLOWED_LOW = np.zeros(256, dtype=bool)
_ALLOWED_LOW[[9, 10, 13, 32]] = True

#: ``_LOW_BYTES[v]`` keeps the first ``v`` bytes of a little-endian word read from memory.
_LOW_BYTES = np.array([(1 << (8 * v)) - 1 for v in range(9)], dtype=np.uint64)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX = np.uint64(0xBF58476D1CE4E5B9)
_SHIFT = np.uint64(31)


@dataclass(frozen=True)
class RunColumns:
    """One run file read in bulk.

    ``topics`` in file order (of first appearance); topic ``i``'s documents, in ranking order,
    are ``docs[bounds[i]:bounds[i + 1]]`` (a numpy ``S`` array: the ids' UTF-8 bytes).
    """

    tag: str
    topics: tuple[str, ...]
    bounds: np.ndarray
    docs: np.ndarray

    def rankings(self) -> dict[str, Ranking]:
        """Every topic's :class:`Ranking`, as the line reader builds them."""
        ids = _decoded(self.docs)
        edges = self.bounds.tolist()
        return {qid: _trusted(ids[edges[i]:edges[i + 1]]) for i, qid in enumerate(self.topics)}


def _decoded(docs: np.ndarray) -> list[str]:
    """The ids of an ``S`` array as ``str``: one join, one decode, one split (5x faster than
    decoding each id; no id holds a line break)."""
    if not docs.size:
        return []
    return b"\n".join(docs.tolist()).decode("utf-8").split("\n")


def _trusted(ids: list[str]) -> Ranking:
    # Ranking() checks that the ids are distinct strings: the readers have (a duplicate is an
    # error), so the check is not paid again per topic.
    return tuple.__new__(Ranking, ids)


def _words(buffer: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``(n, K)`` words holding the bytes ``buffer[starts[i] : starts[i] + lengths[i]]``, zero-padded.

    ``buffer`` is the file viewed as overlapping little-endian words (``buffer[j]`` = bytes ``j``
    to ``j + 7``), so word ``k`` of field ``i`` is one gather and one mask.
    """
    width = int(lengths.max()) if lengths.size else 0
    count = max(1, (width + 7) // 8)
    out = np.empty((len(starts), count), dtype=np.uint64)
    for k in range(count):
        out[:, k] = buffer[starts + 8 * k] & _LOW_BYTES[np.clip(lengths - 8 * k, 0, 8)]
    return out


def _hash(words: np.ndarray, seed: np.ndarray | None = None) -> np.ndarray:
    """A 64-bit hash of each row of ``words`` (and of ``seed``, the topic, when given): equal rows,
    equal hashes; different rows rarely collide, and every use checks a match exactly.

    All-zero words are skipped: they are padding (an id holds no NUL byte, so each of its own words
    has a non-zero byte), and an id hashes alike whatever the width it was padded to -- spans of a
    file pad to their own longest id."""
    h = np.zeros(len(words), dtype=np.uint64) if seed is None else seed.astype(np.uint64) * _GOLDEN
    for k in range(words.shape[1]):
        word = words[:, k]
        mixed = (h ^ word) * _MIX
        mixed ^= mixed >> _SHIFT
        h = np.where(word != 0, mixed, h)
    return h


def _fields(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None] | None:
    """Start and end offsets ``(n, 6)`` of the six fields of every data line, and each data line's
    line index (from 0; ``None`` when the data lines are all the lines, in order), or ``None``.

    ``a`` is the span's bytes, already known to be printable ASCII, tabs, spaces and line breaks.
    """
    size = len(a)
    cuts = np.flatnonzero(a <= 32)  # whitespace: where fields end
    kinds = a[cuts]
    if not _ALLOWED_LOW[kinds].all():
        return None  # a control character: the line reader names it
    returns = np.flatnonzero(kinds == 13)
    if returns.size:
        # A carriage return is a line break only in the run of them before "\n" or the file's
        # end (the line reader strips "\r\n" characters from a line's end); elsewhere it is a
        # control character.
        following = np.minimum(returns + 1, len(cuts) - 1)
        at_end = returns + 1 == len(cuts)
        fine = np.where(at_end, cuts[returns] == size - 1,
                        (cuts[following] == cuts[returns] + 1)
                        & ((kinds[following] == 10) | (kinds[following] == 13)))
        if not fine.all():
            return None
    regular = _regular(a, cuts, kinds)
    if regular is not None:
        return regular[0], regular[1], None
    return _general(a, cuts, kinds)


def _general(a: np.ndarray, cuts: np.ndarray, kinds: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`_fields` in the general case: any run of spaces and tabs between fields, blank and
    comment lines."""
    size = len(a)
    edges = np.empty(len(cuts) + 2, dtype=np.int64)
    edges[0], edges[1:-1], edges[-1] = -1, cuts, size
    starts, ends = edges[:-1] + 1, edges[1:]
    del edges
    filled = ends > starts
    lines = np.zeros(len(cuts) + 1, dtype=np.int64)
    np.cumsum(kinds == 10, out=lines[1:])
    starts, ends, lines = starts[filled], ends[filled], lines[filled]
    if not starts.size:
        return None  # no data line: the line reader says "empty file"
    first = np.empty(len(lines), dtype=bool)
    first[0] = True
    np.not_equal(lines[1:], lines[:-1], out=first[1:])
    heads = np.flatnonzero(first)
    comment = a[starts[heads]] == ord("#")
    if comment.any():
        owner = np.repeat(np.arange(len(heads)), np.diff(np.append(heads, len(lines))))
        kept = ~comment[owner]
        starts, ends, first, lines = starts[kept], ends[kept], first[kept], lines[kept]
        heads = np.flatnonzero(first)
        if not heads.size:
            return None
    if not (np.diff(np.append(heads, len(starts))) == 6).all():
        return None  # a line with other than six fields: refused, or read with a warning
    return starts.reshape(-1, 6), ends.reshape(-1, 6), lines[heads]


def _regular(a: np.ndarray, cuts: np.ndarray, kinds: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray] | None:
    """The common layout's fields without the general search: one space or tab between fields,
    ``\\n`` after each line (the last may lack it), nothing else; ``None`` if the span differs."""
    if a[-1] != 10:
        cuts, kinds = np.append(cuts, len(a)), np.append(kinds, np.uint8(10))
    if len(cuts) % 6 or not cuts.size:
        return None
    kinds6 = kinds.reshape(-1, 6)
    if not ((kinds6[:, 5] == 10).all() and ((kinds6[:, :5] == 32) | (kinds6[:, :5] == 9)).all()):
        return None
    starts = np.empty(len(cuts), dtype=np.int64)
    starts[0] = 0
    starts[1:] = cuts[:-1] + 1
    if not (cuts > starts).all():
        return None  # an empty field: two separators in a row, or a blank line
    starts6 = starts.reshape(-1, 6)
    if (a[starts6[:, 0]] == ord("#")).any():
        return None  # comment lines: the general search skips them
    return starts6, cuts.reshape(-1, 6)


@dataclass(frozen=True)
class RunChunk:
    """The data lines of one span of a run file, in file order, as columns: each line's ``topic``
    (its position in the reader's topic index), ``score``, ``docs`` (an ``S`` array of the ids'
    UTF-8 bytes) and ``hashes`` (of topic and id, for :meth:`RunAssembler.duplicate`); ``lines``
    their line numbers, or ``None`` when they are the lines ``first_line, first_line + 1, ...``.
    ``tag`` is the lines' one tag."""

    tag: str
    first_line: int
    topic: np.ndarray
    scores: np.ndarray
    docs: np.ndarray
    hashes: np.ndarray
    lines: np.ndarray | None

    def line_numbers(self) -> np.ndarray:
        """Every data line's number."""
        return self.lines if self.lines is not None else self.first_line + np.arange(len(self.topic))


def bulk_chunk(data: bytes, first_line: int, index: dict[str, int]) -> RunChunk | None:
    """Read a span of a run file (whole lines, the first numbered ``first_line``) in bulk; ``None``
    when the line reader must read it (see the module docstring). New topics are added to ``index``
    (qid -> position, in order of first appearance) only when the span is read."""
    if first_line == 1 and data.startswith(_BOM):
        data = data[len(_BOM):]
    if not data or not np.little_endian:  # the word masks assume little-endian memory
        return None
    a = np.frombuffer(data, dtype=np.uint8)
    if a.max() > 126:
        return None  # non-ASCII or DEL: decoded and checked line by line
    found = _fields(a)
    if found is None:
        return None
    starts, ends, row_lines = found
    del a
    lengths = ends - starts
    # Overlapping words over the span, padded so that every gather stays inside the buffer.
    padded = data + bytes(int(lengths.max()) + 8)
    buffer = np.ndarray(shape=(len(padded) - 7,), dtype=np.uint64, buffer=padded, strides=(1,))

    tag_lengths = lengths[:, 5]
    tags = _words(buffer, starts[:, 5], tag_lengths)
    if (tag_lengths != tag_lengths[0]).any() or (tags != tags[0]).any():
        return None  # a second tag: the line reader names its line
    tag = data[starts[0, 5]:ends[0, 5]].decode("ascii")
    scores = _scores(_words(buffer, starts[:, 4], lengths[:, 4]))
    if scores is None:
        return None
    topic = _topics(data, starts[:, 0], ends[:, 0], _words(buffer, starts[:, 0], lengths[:, 0]), index)
    doc_words = _words(buffer, starts[:, 2], lengths[:, 2])
    width = int(lengths[:, 2].max())
    docs = doc_words.view(f"S{8 * doc_words.shape[1]}").ravel().astype(f"S{width}")
    lines = None if row_lines is None else first_line + row_lines
    return RunChunk(tag, first_line, topic, scores, docs, _hash(doc_words, topic), lines)


def _scores(score_words: np.ndarray) -> np.ndarray | None:
    """The score fields (as words) in float64, or ``None`` for any that is not a finite number."""
    if (score_words.view(np.uint8) == ord("_")).any():
        return None  # float() reads "1_0" as 10; a score is a plain number (the line reader refuses it)
    try:
        with np.errstate(all="ignore"):  # "1e999" overflows to inf, refused below, not warned about
            scores = score_words.view(f"S{8 * score_words.shape[1]}").ravel().astype(np.float64)
    except ValueError:
        return None
    return scores if np.isfinite(scores).all() else None


def _topics(data: bytes, starts: np.ndarray, ends: np.ndarray, qid_words: np.ndarray,
            index: dict[str, int]) -> np.ndarray:
    """Each line's topic position in ``index`` (a Python string per run of lines of one topic,
    not per line); topics new to ``index`` are added in order of first appearance."""
    n = len(starts)
    change = np.empty(n, dtype=bool)
    change[0] = True
    np.any(qid_words[1:] != qid_words[:-1], axis=1, out=change[1:])
    heads = np.flatnonzero(change)
    segment_topic = np.array([index.setdefault(data[s:e].decode("ascii"), len(index))
                              for s, e in zip(starts[heads].tolist(), ends[heads].tolist())],
                             dtype=np.int64)
    return np.repeat(segment_topic, np.diff(np.append(heads, n)))


def _id_words(docs: np.ndarray, count: int | None = None) -> np.ndarray:
    """``(n, count)`` words of an ``S`` array's ids (default: as many as its width needs),
    zero-padded as :func:`_words` pads them."""
    width = docs.dtype.itemsize
    count = max(1, (width + 7) // 8) if count is None else count
    raw = np.zeros((len(docs), 8 * count), dtype=np.uint8)
    raw[:, :width] = docs.view(np.uint8).reshape(len(docs), width)
    return raw.view(np.uint64)


def chunk_from_rows(tag: str, first_line: int, qids: Sequence[str], docs: Sequence[str],
                    scores: Sequence[float], lines: Sequence[int], index: dict[str, int]) -> RunChunk:
    """The :class:`RunChunk` of data lines the line reader read: ``qids``, ``docs``, ``scores``
    and ``lines`` per line, in file order; new topics are added to ``index``."""
    topic = np.fromiter((index.setdefault(q, len(index)) for q in qids), dtype=np.int64, count=len(qids))
    ids = np.array([d.encode("utf-8") for d in docs], dtype=bytes) if docs else np.zeros(0, "S1")
    return RunChunk(tag, first_line, topic, np.array(scores, dtype=np.float64), ids,
                    _hash(_id_words(ids), topic), np.array(lines, dtype=np.int64))


@dataclass(frozen=True)
class Duplicate:
    """A document a topic lists twice: ``line`` is the second listing, ``first`` the first."""

    qid: str
    doc: str
    line: int
    first: int


class RunAssembler:
    """The spans of one run file read so far (each a :class:`RunChunk`, added in file order), the
    topic index they share and the file's tag; :meth:`finish` gives the :class:`RunColumns`.

    The spans' columns are kept column by column, each joined into one array when first needed
    whole (the pieces then freed), so that a column is never held twice over beside the others.
    """

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.tag: str | None = None
        self.tag_line = 0
        self._topic: list[np.ndarray] = []  # int32: a topic's position in index
        self._scores: list[np.ndarray] = []
        self._docs: list[np.ndarray] = []
        self._hashes: list[np.ndarray] = []
        self._lines: list[tuple[int, np.ndarray | None]] = []  # per span: first line, its lines' numbers
        self._offsets = [0]  # where each span's lines start in the joined columns
        self._unjoined = 0  # spans added since the columns' last pieces were joined

    def add(self, chunk: RunChunk) -> None:
        """Keep a span's lines (its tag is the file's: the reader sends a span with another tag
        to the line reader, which names the line)."""
        if not len(chunk.topic):
            return
        if self.tag is None:
            self.tag, self.tag_line = chunk.tag, int(chunk.line_numbers()[0])
        self._topic.append(chunk.topic.astype(np.int32))
        self._scores.append(chunk.scores)
        self._docs.append(chunk.docs)
        self._hashes.append(chunk.hashes)
        self._lines.append((chunk.first_line, chunk.lines))
        self._offsets.append(self._offsets[-1] + len(chunk.topic))
        self._unjoined += 1
        if self._unjoined == _PIECES:
            for column in (self._topic, self._scores, self._docs, self._hashes):
                column[-_PIECES:] = [np.concatenate(column[-_PIECES:])]
            self._unjoined = 0

    @property
    def empty(self) -> bool:
        """No data line yet."""
        return self._offsets[-1] == 0

    def duplicate(self) -> Duplicate | None:
        """The first listing, in file order, of a document its topic already listed, over every
        line kept so far; ``None`` if there is none."""
        if self.empty:
            return None
        hashes = _joined(self._hashes)
        ordered = np.sort(hashes)
        shared = ordered[1:] == ordered[:-1]
        if not shared.any():
            return None
        members = np.flatnonzero(np.isin(hashes, ordered[1:][shared]))
        del ordered, shared
        topic, docs = _joined(self._topic)[members], _joined(self._docs)[members]
        lines = self._line_numbers(members)
        # Equal (topic, id) pairs become neighbours, each group in file order.
        order = np.lexsort((lines, docs, topic))
        topic, docs, lines = topic[order], docs[order], lines[order]
        again = np.flatnonzero((topic[1:] == topic[:-1]) & (docs[1:] == docs[:-1])) + 1
        if not again.size:
            return None
        second = again[np.argmin(lines[again])]
        first = second - 1
        while first > 0 and topic[first - 1] == topic[second] and docs[first - 1] == docs[second]:
            first -= 1
        qids = list(self.index)
        return Duplicate(qids[int(topic[second])], docs[second].decode("utf-8"), int(lines[second]),
                         int(lines[first]))

    def _line_numbers(self, rows: np.ndarray) -> np.ndarray:
        """The file line of each of ``rows`` (positions in the joined columns)."""
        span = np.searchsorted(self._offsets, rows, side="right") - 1
        numbers = np.empty(len(rows), dtype=np.int64)
        for k, at in enumerate(rows.tolist()):
            first, lines = self._lines[span[k]]
            offset = at - self._offsets[span[k]]
            numbers[k] = first + offset if lines is None else lines[offset]
        return numbers

    def finish(self) -> RunColumns:
        """Every topic's documents in ranking order (the lines kept must hold no duplicate: see
        :meth:`duplicate`); the spans' columns are released as they are joined."""
        self._hashes.clear()
        topic = _joined(self._topic) if self._topic else np.zeros(0, np.int32)
        scores = _joined(self._scores) if self._scores else np.zeros(0)
        docs = _joined(self._docs) if self._docs else np.zeros(0, "S1")
        self._topic, self._scores, self._docs = [], [], []
        change = np.ones(len(topic), dtype=bool)
        np.not_equal(topic[1:], topic[:-1], out=change[1:])
        order = _ranking_order(topic, scores, docs, change, len(self.index) == int(change.sum()))
        del scores, change
        if order is not None:
            docs = docs[order]
        bounds = np.zeros(len(self.index) + 1, dtype=np.int64)
        np.cumsum(np.bincount(topic, minlength=len(self.index)), out=bounds[1:])
        return RunColumns(self.tag or "", tuple(self.index), bounds, docs)


#: A column's pieces are joined every this many spans: a span's arrays are small (a few hundred
#: kilobytes), and the allocator keeps the heap pages of small arrays once freed, so joining
#: thousands of them at the end held every column twice; joined pieces are large, and freeing one
#: gives its memory back (measured: a 2 GB run peaked at 3.4 GB with every span a piece).
_PIECES = 64


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """The pieces of a column as one array, which then replaces them in ``parts``."""
    if len(parts) > 1:
        parts[:] = [np.concatenate(parts)]
    return parts[0]


def parse_run(data: bytes) -> RunColumns | None:
    """Read a whole run file's bytes in bulk, as one span; ``None`` when the line reader must read
    them (see the module docstring: anything it would refuse or remark on, a duplicate among them,
    and anything not plain ASCII)."""
    assembler = RunAssembler()
    chunk = bulk_chunk(data, 1, assembler.index)
    if chunk is None:
        return None
    assembler.add(chunk)
    if assembler.empty or assembler.duplicate() is not None:
        return None
    return assembler.finish()


def _ranking_order(topic: np.ndarray, scores: np.ndarray, docs: np.ndarray,
                   change: np.ndarray, contiguous: bool) -> np.ndarray | None:
    """Line indices topic by topic (in order of first appearance), each topic by score
    descending, then docno descending: ``sorted(..., key=(score, docno), reverse=True)``;
    ``None`` when the lines are in that order already."""
    n = len(topic)
    if contiguous and ((scores[1:] < scores[:-1]) | change[1:]).all():
        return None  # already in order, no ties: what trec runs usually are
    # Stable: equal scores keep file order for now (-0.0 and 0.0 are equal, as in Python).
    order = np.lexsort((-scores, topic))
    tied = (topic[order][1:] == topic[order][:-1]) & (scores[order][1:] == scores[order][:-1])
    if tied.any():
        member = np.zeros(n, dtype=bool)
        member[1:] |= tied
        member[:-1] |= tied
        members = np.flatnonzero(member)
        # A group starts at a member not tied to the one before it.
        group = np.cumsum(~np.concatenate(([False], tied))[members])
        # Docnos descending: big-endian words compare as the bytes do; inverted, they sort descending.
        keys = ~_id_words(docs[order[members]]).byteswap()
        within = np.lexsort(tuple(keys[:, k] for k in range(keys.shape[1] - 1, -1, -1)) + (group,))
        order[members] = order[members][within]
    return order


class CompactRankings(Mapping[str, Ranking]):
    """A run's rankings kept as one byte-string array (:class:`RunColumns`); a topic's
    :class:`Ranking` is built when first asked for, then kept.

    Compares equal to the ``dict`` the line reader builds for the same file.
    """

    __slots__ = ("_index", "_docs", "_bounds", "_built")

    def __init__(self, columns: RunColumns) -> None:
        self._index = {qid: i for i, qid in enumerate(columns.topics)}
        self._docs = columns.docs
        self._bounds = columns.bounds.tolist()
        self._built: dict[str, Ranking] = {}

    def documents(self, qid: str) -> np.ndarray:
        """Topic ``qid``'s ranked ids as bytes (an ``S`` array), without building a Ranking."""
        i = self._index[qid]
        return self._docs[self._bounds[i]:self._bounds[i + 1]]

    def __getitem__(self, qid: str) -> Ranking:
        ranking = self._built.get(qid)
        if ranking is None:
            ranking = self._built[qid] = _trusted(_decoded(self.documents(qid)))
        return ranking

    def __contains__(self, qid: object) -> bool:
        return qid in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CompactRankings):
            return (list(self._index) == list(other._index) and self._bounds == other._bounds
                    and bool(np.array_equal(self._docs, other._docs)))
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # mutable cache, compared by value like a dict

    def __repr__(self) -> str:
        return repr(dict(self.items()))


#: Fewer ranked ids than this are looked up in a dict: the hash table costs tens of microseconds to
#: build, what a small topic's whole lookup takes (a million one-document topics would pay it a
#: million times).
_DICT_LOOKUP = 256


class JudgedIndex:
    """A topic's judged documents, for looking up many ranked ids at once.

    :meth:`rows` gives each id's row in ``documents`` plus one (0 for an unjudged id), what
    :meth:`axiometer.metrics.RankingBatch.from_rankings` computes with a dict, without a Python
    string per id: an id's hash picks a bucket of the sorted judged hashes (about 8 buckets per
    judged id, so a bucket holds 0 or 1 of them), and every hash match is confirmed byte for byte.
    A few ids are looked up in a dict of the judged ids' bytes instead. Both are built when first
    needed, then kept.
    """

    def __init__(self, documents: Sequence[str]) -> None:
        self._documents = documents
        self._usable: tuple[np.ndarray, np.ndarray] | None = None
        self._lookup: dict[bytes, int] | None = None
        self._by_count: dict[int, _Table | None] = {}

    def _lookups(self) -> dict[bytes, int]:
        """The judged ids a run can hold, as bytes, and their rows: a run's ids are non-empty UTF-8
        without a NUL byte (the readers refuse control characters); another id is never found
        (and an ``S`` array would drop a trailing NUL)."""
        if self._lookup is None:
            lookup = {}
            for i, d in enumerate(self._documents, 1):
                if d and "\x00" not in d:
                    try:
                        lookup[d.encode("utf-8")] = i
                    except UnicodeEncodeError:  # a lone surrogate: not text a file can hold
                        pass
            self._lookup = lookup
        return self._lookup

    def _judged(self) -> tuple[np.ndarray, np.ndarray]:
        """The rows and ``S`` array of :meth:`_lookups`."""
        if self._usable is None:
            lookup = self._lookups()
            self._usable = (np.fromiter(lookup.values(), dtype=np.int64, count=len(lookup)),
                            np.array(list(lookup), dtype=bytes) if lookup else np.zeros(0, "S1"))
        return self._usable

    def _table(self, count: int) -> _Table | None:
        """The lookup table for ids of ``count`` words; ``None`` when two judged ids share a hash
        (then :meth:`rows` looks them up in a dict)."""
        if count not in self._by_count:
            rows, ids = self._judged()
            words = _id_words(ids, count)
            hashes = _hash(words)
            order = np.argsort(hashes, kind="stable")
            hashes = hashes[order]
            table = None
            if not (hashes[1:] == hashes[:-1]).any():
                shift = np.uint64(64 - (len(hashes).bit_length() + 3))
                edges = np.searchsorted(hashes >> shift,
                                        np.arange((1 << (64 - int(shift))) + 1, dtype=np.uint64))
                table = _Table(hashes, words[order], rows[order], shift, edges,
                               int(np.diff(edges).max()))
            self._by_count[count] = table
        return self._by_count[count]

    def _by_dict(self, ids: np.ndarray) -> np.ndarray:
        return np.fromiter(map(self._lookups().get, ids.tolist(), repeat(0)), dtype=np.int64, count=len(ids))

    def rows(self, ids: np.ndarray) -> np.ndarray:
        """The judged row of every id of an ``S`` array (0: unjudged)."""
        if len(ids) < _DICT_LOOKUP:
            return self._by_dict(ids)
        rows, judged = self._judged()
        count = max(1, (ids.dtype.itemsize + 7) // 8, (judged.dtype.itemsize + 7) // 8)
        table = self._table(count) if len(rows) else None
        if table is None:
            return self._by_dict(ids)
        wanted = _id_words(ids, count)
        h = _hash(wanted)
        bucket = (h >> table.shift).astype(np.intp)
        low, high = table.edges[bucket], table.edges[bucket + 1]
        at = np.zeros(len(h), dtype=np.intp)
        for step in range(table.deepest):  # the bucket's judged hashes, one position at a time
            candidate = low + step
            match = (candidate < high) & (table.hashes[np.minimum(candidate, len(table.hashes) - 1)] == h)
            at[match] = candidate[match]
        hit = (table.hashes[at] == h) & (table.words[at] == wanted).all(axis=1)
        return np.where(hit, table.rows[at], 0)


@dataclass(frozen=True)
class _Table:
    """A :class:`JudgedIndex` for ids of one word count: judged ``hashes`` sorted, with their
    ``words`` and ``rows``; bucket ``b`` (a hash's bits above ``shift``) holds positions
    ``edges[b]`` to ``edges[b + 1]``, at most ``deepest`` of them."""

    hashes: np.ndarray
    words: np.ndarray
    rows: np.ndarray
    shift: np.uint64
    edges: np.ndarray
    deepest: int
