"""The CLI reference page, written from the ``axiometer`` argument parser itself.

:func:`cli_reference` walks the parser the program runs (``axiometer.cli``) and writes one
section per command and subcommand: its one-line help, its usage, its description, every
option and positional argument with its help (grouped as ``--help`` groups them) and the
text ``--help`` prints after the options. Nothing is written by hand, so the page cannot fall
behind the program: an option added to the parser is on the next build's page.

Options and usage read as ``axiometer COMMAND --help`` prints them: argparse's own formatter
writes each option's invocation (``-o FILE, --output FILE``, ``--format {text,json}``) and
expands ``%(default)s`` in its help.
"""

from __future__ import annotations

import argparse
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

#: The width usage lines are wrapped to (a fixed one, so a build never depends on the terminal).
USAGE_WIDTH = 100


@dataclass(frozen=True)
class Command:
    """One command of the program: its words (``("axiometer", "plot", "threshold")``), its
    parser and the one-line help its parent lists it with (``None`` for the program itself)."""

    words: tuple[str, ...]
    parser: argparse.ArgumentParser
    summary: str | None


def commands(parser: argparse.ArgumentParser) -> Iterator[Command]:
    """The program and every command under it, depth first, in the order ``--help`` lists them."""
    yield from _walk(parser, (parser.prog,), None)


def _walk(parser: argparse.ArgumentParser, words: tuple[str, ...], summary: str | None) -> Iterator[Command]:
    yield Command(words, parser, summary)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            seen: set[int] = set()
            for name, subparser in action.choices.items():
                if id(subparser) in seen:  # an alias: the command is written once, under its name
                    continue
                seen.add(id(subparser))
                yield from _walk(subparser, (*words, name), helps.get(name))


def documented_actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options and positional arguments a reader can give ``parser``: every action but the
    hidden ones (``help=argparse.SUPPRESS``), ``-h``/``--help`` (every command has it; the page
    says so once) and the subcommand choice (each subcommand has its own section)."""
    return [action for action in parser._actions
            if action.help != argparse.SUPPRESS
            and not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))]


def cli_reference(parser: argparse.ArgumentParser, guide: str = "cli.md") -> str:
    """The reference page of ``parser`` and every command under it, as Markdown; ``guide`` is the
    hand-written guide the page links to."""
    lines = [
        "# CLI reference",
        "",
        f"Every command of `{parser.prog}`, with its usage and every option, written from the "
        "program's argument parser when this site is built: it is what "
        f"`{parser.prog} COMMAND --help` prints. Every command also takes `-h`/`--help`. "
        f"What the options are for, with examples and the reports they write, is in the guide, "
        f"[The `{parser.prog}` command]({guide}).",
        "",
    ]
    for command in commands(parser):
        lines += _section(command)
    return "\n".join(lines)


def _section(command: Command) -> list[str]:
    parser = command.parser
    level = "#" * max(2, len(command.words))  # the program and its commands: h2; subcommands: h3
    lines = [f"{level} {' '.join(command.words)}", ""]
    if command.summary:
        lines += [_text(_sentence(command.summary)), ""]
    lines += ["```text", _usage(parser).rstrip(), "```", ""]
    if parser.description:
        lines += [_text(parser.description), ""]
    formatter = parser._get_formatter()
    documented = documented_actions(parser)
    for group in parser._action_groups:
        actions = [action for action in group._group_actions if action in documented]
        if not actions:
            continue
        lines += [f"**{_text(group.title or 'options')}**", ""]
        for action in actions:
            invocation = formatter._format_action_invocation(action)
            help_text = formatter._expand_help(action) if action.help else ""
            lines.append(f"- `{invocation}`" + (f": {_text(help_text)}" if help_text else ""))
        lines.append("")
    subcommands = [name for name, _ in _subcommand_helps(parser)]
    if subcommands:
        lines += ["Commands: " + ", ".join(f"`{name}`" for name in subcommands) + " (below).", ""]
    if parser.epilog:
        if parser.formatter_class is argparse.RawDescriptionHelpFormatter:
            lines += ["```text", parser.epilog.rstrip(), "```", ""]
        else:
            lines += [_text(parser.epilog), ""]
    return lines


def _subcommand_helps(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    return [(choice.dest, choice.help) for action in parser._actions
            if isinstance(action, argparse._SubParsersAction) for choice in action._choices_actions]


def _usage(parser: argparse.ArgumentParser) -> str:
    # The base formatter: its subclasses (RawDescriptionHelpFormatter, ...) write usage as it does.
    formatter = argparse.HelpFormatter(prog=parser.prog, width=USAGE_WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help()


def _sentence(text: str) -> str:
    """A help line as a sentence: capitalised, with a full stop."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


#: Characters Markdown would read as markup in a help text: backslash-escaped.
_MARKUP = re.compile(r"([\\`*_\[\]])")


def _text(text: str) -> str:
    """Help or description text as Markdown that shows it literally: one paragraph (argparse
    rewraps it too), markup characters escaped, ``<`` and ``&`` as entities."""
    return _MARKUP.sub(r"\\\1", html.escape(" ".join(text.split()), quote=False))
