"""Is a command line written in the docs or the help a valid ``pith-tex`` command line?

:func:`command_problems` parses it with the real click definition
(:data:`pith_tex.cli.commands.main`), as far as parsing goes without touching the disk or the
network: the command exists, every option is one of its options (or a unique prefix, as
click takes it), a choice is one of its choices, and no argument is missing or extra.
Paths are not looked up (the docs name files the reader has, not the test)."""

from __future__ import annotations

import shlex
from typing import List, Optional

import click

from pith_tex.cli.commands import main


def split_line(line: str) -> List[str]:
    """The words of *line* after ``pith-tex``, without a trailing ``# comment``."""
    words = shlex.split(line, comments=True)
    assert words and words[0] == "pith-tex", line
    return words[1:]


def command_problems(words: List[str]) -> Optional[str]:
    """None when click accepts *words* as arguments of ``pith-tex``, else why not."""
    if words in (["--help"], ["-h"], ["--version"]):
        return None
    if not words or words[0] not in main.commands:
        return "no command %r" % (words[:1],)
    cmd = main.commands[words[0]]
    rest = words[1:]
    if rest in (["--help"], ["-h"]):
        return None
    # Validate without Path(exists=True) looking at the disk: copy the parameters with
    # plain string types for paths.
    params = []
    for p in cmd.params:
        if isinstance(p.type, click.Path):
            if isinstance(p, click.Argument):
                p = click.Argument(p.opts, nargs=p.nargs, required=p.required)
            else:
                p = click.Option(p.opts, is_flag=False)
        params.append(p)
    probe = click.Command(cmd.name, params=params, callback=lambda **kw: None)
    try:
        probe.main(rest, prog_name="pith-tex " + cmd.name, standalone_mode=False)
    except click.ClickException as e:
        return "%s: %s" % (" ".join(words), e.format_message())
    return None
