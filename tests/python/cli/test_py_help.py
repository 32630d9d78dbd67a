"""``--help``: every command says what it writes, shows examples that are valid command
lines, and states its exit codes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clicheck import command_problems, split_line
from pith_tex.cli.commands import EPILOGS, JSON_HELP, MAIN_EPILOG, SUMMARIES, main

ROOT = Path(__file__).resolve().parents[3]
COMMANDS = sorted(main.commands)


def _run(code: str, columns: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS=columns)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60)


CLICK = ("from pith_tex.cli.commands import main\n"
         "main.main(['--help'], prog_name='pith-tex')")


def test_every_command_has_a_summary_and_an_epilog() -> None:
    assert sorted(SUMMARIES) == COMMANDS == sorted(EPILOGS)
    top = _run(CLICK, "80").stdout
    for name in COMMANDS:
        # Shown whole in the command list, not cut with "...".
        assert re.search(r"^  %s +%s$" % (name, re.escape(SUMMARIES[name])), top,
                         re.M), (name, top)


@pytest.mark.parametrize("name", COMMANDS)
def test_command_help_names_files_examples_exit_codes(name: str) -> None:
    r = _run(CLICK.replace("['--help']", "[%r, '--help']" % name), "80")
    assert r.returncode == 0, r.stderr
    text = r.stdout
    assert "Writes:" in text and "Examples:" in text and "Exit codes:" in text, text
    codes = text.split("Exit codes:", 1)[1]
    for code in "0123":
        assert re.search(r"(^|[;:]) *%s [a-z]" % code, codes.strip(), re.M), (code, codes)
    assert max(len(line) for line in text.splitlines()) <= 78, text
    # Help speaks to users: no pointer into the Python sources.
    assert "pith_tex." not in text and "docstring" not in text, text
    if "--json" in text:  # its fields named, not a file the wheel does not install
        json_help = text.split("--json", 1)[1].split("\n  -", 1)[0]
        assert "docs/" not in json_help and "exit_code" in json_help, text


def _example_lines():
    for text in [MAIN_EPILOG] + [EPILOGS[n] for n in sorted(EPILOGS)]:
        for line in text.splitlines():
            if line.strip().startswith("pith-tex "):
                yield line.strip()


@pytest.mark.parametrize("line", list(_example_lines()))
def test_every_example_is_a_valid_command_line(line: str) -> None:
    words = split_line(line)
    if words[0] == "COMMAND":
        return
    assert command_problems(words) is None


def test_the_checker_refuses_what_click_refuses() -> None:
    assert command_problems(["fetch", "--no-such-option"])
    assert command_problems(["check", "--route", "lualatex"])
    assert command_problems(["frobnicate"])
    assert command_problems(["citations"])  # the argument is required
    assert command_problems(["verify", "no-such-file.pdf"]) is None  # paths not looked up


def test_json_fields_are_documented_where_the_help_points() -> None:
    # The help names the fields itself: the wheel installs no docs/ to point to.
    assert "docs/" not in JSON_HELP and "http" not in JSON_HELP
    for field in ("command", "exit_code", "verdict", "status", "detail"):
        assert field in JSON_HELP, field
    cli_md = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = re.search(r"^## .*`--json`.*$", cli_md, re.M)
    assert section, "docs/cli.md has no --json section"
    rest = cli_md[section.end():]
    for command in ("fetch", "verify", "check"):
        assert '"command": "%s"' % command in rest, command
