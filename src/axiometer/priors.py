"""The contexts of relative metrics: which other runs form each evaluated run's prior set.

A relative metric (NRG, rareness, Fujii's U; ``metric.needs.context``) scores a run against other
systems' rankings of the same topic. :func:`choose_priors` chooses them for every evaluated run
(Amigó, Spina and Carrillo-de-Albornoz, SIGIR 2018, score a run against the others of its
campaign; Sakai's TREC practice takes the best run of every other group):

- ``all-others``: every other run of the campaign;
- ``best-per-group``: the best run of each other group, by a reference metric's mean; groups come
  from a groups file (:func:`read_groups`) or from the run tags (:func:`group_of`);
- a list of prior runs (files): the same for every run, less the run itself.

:mod:`axiometer.scoring` scores the metrics in these contexts.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from axiometer.core import InputError, ValidationError
from axiometer.readers import Run, content_lines

__all__ = ["Priors", "ContextRuns", "PRIOR_MODES", "choose_priors", "group_of", "read_groups", "run_labels"]

#: The named ways of choosing a run's context; a list of runs is the third way.
PRIOR_MODES = ("all-others", "best-per-group")


@dataclass(frozen=True)
class Priors:
    """How each evaluated run's context (prior set) was chosen.

    ``mode``: ``"all-others"``, ``"best-per-group"`` or ``"files"``;
    ``contexts[run]`` the labels of the runs forming ``run``'s context (for
    ``files``, the prior runs' labels). For ``best-per-group``: ``groups``
    maps each run to its group, ``best`` each group to its best run,
    ``best_by`` names the metric whose mean chose it and ``groups_from`` says
    where the groups came from.
    """

    mode: str
    description: str
    contexts: Mapping[str, tuple[str, ...]]
    groups: Mapping[str, str] = field(default_factory=dict)
    best: Mapping[str, str] = field(default_factory=dict)
    best_by: str | None = None
    groups_from: str | None = None


def run_labels(runs: Sequence[Run]) -> list[str]:
    """A name per run: its tag, or its file where several runs share a tag."""
    tags = [run.tag for run in runs]
    labels = [run.tag if tags.count(run.tag) == 1 else run.source for run in runs]
    for i, (label, run) in enumerate(zip(labels, runs)):
        if labels.index(label) != i:
            raise ValidationError(f"run {run.tag!r} from {run.source} is given twice")
    return labels


# -- groups --------------------------------------------------------------------

_GROUP_SEPARATOR = re.compile(r"[_-]")


def group_of(tag: str) -> str:
    """The group of a run tag: the part before the first ``_`` or ``-``, else
    the tag without its trailing digits (``uog_a`` -> ``uog``, ``ICT-2`` ->
    ``ICT``, ``run003`` -> ``run``); a tag that the rule would empty is its own group."""
    head = _GROUP_SEPARATOR.split(tag, maxsplit=1)[0]
    if head and head != tag:
        return head
    return tag.rstrip("0123456789") or tag


def read_groups(path: str | os.PathLike[str], runs: Sequence[str] | None = None) -> dict[str, str]:
    """Read a groups file: lines ``run_tag group`` (blank and ``#`` lines skipped).

    With ``runs`` (the run labels), a tag that names no run is an error. Every
    error names file and line.
    """
    source = os.fspath(path)
    groups: dict[str, str] = {}
    first: dict[str, int] = {}
    for line, text in content_lines(source):
        fields = text.split()
        if len(fields) != 2:
            raise InputError(f"expected 2 columns (run_tag group), found {len(fields)}",
                             source=source, line=line)
        tag, group = fields
        if tag in groups:
            raise InputError(f"run {tag!r} is given a group twice (first at line {first[tag]})",
                             source=source, line=line)
        if runs is not None and tag not in runs:
            raise InputError(f"unknown run {tag!r} (runs: {', '.join(runs)})", source=source,
                             line=line)
        groups[tag], first[tag] = group, line
    if not groups:
        raise InputError("empty file: no run groups", source=source)
    return groups


# -- contexts ------------------------------------------------------------------

def _same_run(a: Run, b: Run) -> bool:
    if a.source == b.source:
        return True
    try:
        if os.path.samefile(a.source, b.source):
            return True
    except OSError:  # in-memory runs have no file
        pass
    return a.tag == b.tag and a.rankings == b.rankings


def _best_per_group(labels: list[str], groups: Mapping[str, str], reference: str,
                    means: Mapping[tuple[str, str], float]) -> dict[str, str]:
    """Each group's best run by the reference metric's mean; ties go to the smallest label."""
    best: dict[str, str] = {}
    for label in sorted(labels):
        group = groups[label]
        if group not in best or means[label, reference] > means[best[group], reference]:
            best[group] = label
    return dict(sorted(best.items()))


def _group_map(labels: list[str], groups: Mapping[str, str] | None) -> dict[str, str]:
    if groups is None:
        return {label: group_of(label) for label in labels}
    unknown = [tag for tag in groups if tag not in labels]
    if unknown:
        raise ValidationError(f"groups name unknown run {unknown[0]!r} (runs: {', '.join(labels)})")
    lacking = [label for label in labels if label not in groups]
    if lacking:
        raise ValidationError(f"run {lacking[0]!r} has no group")
    return {label: groups[label] for label in labels}


#: A context source: (label, run) pairs per evaluated run label.
ContextRuns = dict[str, list[tuple[str, Run]]]


def choose_priors(prior: str | Sequence[Run], runs: Sequence[Run], labels: list[str],
            groups: Mapping[str, str] | None, reference: str,
            mean: Callable[[str, str], float]) -> tuple[Priors, ContextRuns]:
    """Each evaluated run's context under ``prior`` (a mode of :data:`PRIOR_MODES`, or prior
    runs), with how it was chosen; ``mean(label, metric)`` ranks runs for ``best-per-group`` by the
    ``reference`` metric. A run left with an empty context is a :class:`ValidationError`."""
    by_label = dict(zip(labels, runs))
    if isinstance(prior, str):
        if prior not in PRIOR_MODES:
            raise ValidationError(f"unknown prior {prior!r}; give {' or '.join(PRIOR_MODES)} "
                                  "or prior run files")
        if prior == "all-others":
            contexts = {label: tuple(o for o in labels if o != label) for label in labels}
            description = ("all-others: each run's prior set is every other run of the campaign "
                           f"({len(labels) - 1} runs)")
            info = Priors(prior, description, contexts)
        else:
            from_file = groups is not None
            group_map = _group_map(labels, groups)
            best = _best_per_group(labels, group_map, reference,
                                   {(label, reference): mean(label, reference) for label in labels})
            contexts = {label: tuple(run for group, run in best.items() if group != group_map[label])
                        for label in labels}
            source = ("the groups file" if from_file else
                      "the run tags (the part before the first '_' or '-', else the tag without "
                      "trailing digits)")
            description = (f"best-per-group: each run's prior set is the best run of every other "
                           f"group, by mean {reference} (ties to the first tag in sorted order); "
                           f"{len(best)} groups from {source}")
            info = Priors(prior, description, contexts, group_map, best, reference,
                          "file" if from_file else "tags")
        context_runs = {label: [(o, by_label[o]) for o in contexts[label]] for label in labels}
    else:
        if groups is not None:
            raise ValidationError("groups only matter for the best-per-group prior")
        prior_runs = list(prior)
        prior_labels = run_labels(prior_runs)
        for p, run in zip(prior_labels, prior_runs):
            for label, evaluated in zip(labels, runs):
                if run.tag == evaluated.tag and not _same_run(run, evaluated):
                    raise ValidationError(
                        f"prior run {p!r} from {run.source} has the tag of evaluated run "
                        f"{label!r} from {evaluated.source} but other rankings")
        context_runs = {label: [(p, run) for p, run in zip(prior_labels, prior_runs)
                                if not _same_run(run, evaluated)]
                        for label, evaluated in zip(labels, runs)}
        contexts = {label: tuple(p for p, _ in pairs) for label, pairs in context_runs.items()}
        description = (f"files: every run's prior set is the {len(prior_runs)} prior run(s) "
                       f"{', '.join(prior_labels)} (a run is left out of its own prior set)")
        info = Priors("files", description, contexts)
    empty = [label for label in labels if not info.contexts[label]]
    if empty:
        why = {"all-others": "it is the only run",
               "best-per-group": f"its group {info.groups.get(empty[0])!r} is the only group",
               "files": "the prior runs are this run itself"}[info.mode]
        raise ValidationError(f"run {empty[0]!r} has no prior runs under the {info.mode} prior "
                              f"({why}); a relative metric needs other systems' rankings")
    return info, context_runs
