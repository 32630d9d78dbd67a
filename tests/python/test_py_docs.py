"""The docs agree with each other and with the code.

Lists that the docs repeat are read from the code they describe and compared: the venues
whose review mode pith.sty detects (its log names), pith.sty's options (its l3keys), the
kernel floor (its format check), the modules of pith_tex (the tree), and every
``pith-tex`` command line the user docs show (parsed by the click definition; the
synopses list every option).  Every relative link of the Markdown docs resolves, and the
PyPI page has none (PyPI cannot follow one)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

import pytest

from clicheck import command_problems, split_line
from pith_tex.cli.commands import main

ROOT = Path(__file__).resolve().parents[2]
STY = (ROOT / "latex" / "pith.sty").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _manual_text() -> str:
    """The user manual: the documentation part of latex/pith.dtx, without the comment
    character that starts each of its lines."""
    dtx = (ROOT / "latex" / "pith.dtx").read_text(encoding="utf-8")
    part = dtx[dtx.index("% \\begin{documentation}"):dtx.index("% \\begin{implementation}")]
    return "\n".join(re.sub(r"^% ?", "", line) for line in part.splitlines())


MANUAL = _manual_text()


def _read(rel: str) -> str:
    if rel == "latex/pith.dtx":
        return MANUAL
    return (ROOT / rel).read_text(encoding="utf-8")


def _markdown_files() -> List[Path]:
    files = [ROOT / "README.md", ROOT / "README-PyPI.md", ROOT / "latex" / "README-CTAN.md",
             ROOT / "bench" / "README.md", ROOT / "tests" / "vectors" / "README.md"]
    files += sorted((ROOT / "docs").glob("*.md"))
    files += sorted((ROOT / "examples").rglob("README.md"))
    return [f for f in files if f.is_file()]


# --- links -------------------------------------------------------------------------

_LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(md: Path) -> Set[str]:
    out = set()
    in_code = False
    for line in md.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            out.add(_slug(line.lstrip("#")))
    return out


def _links(md: Path) -> Iterator[str]:
    text = re.sub(r"```.*?```", "", md.read_text(encoding="utf-8"), flags=re.S)
    for m in _LINK.finditer(text):
        yield m.group(1)


@pytest.mark.parametrize("md", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(md: Path) -> None:
    bad = []
    for target in _links(md):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = (md.parent / path).resolve() if path else md
        if not dest.exists():
            bad.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            bad.append(target)
    assert not bad, bad


def test_the_pypi_page_has_no_relative_link_nor_placeholder() -> None:
    page = ROOT / "README-PyPI.md"
    assert 'file = "README-PyPI.md"' in _read("pyproject.toml")
    links = list(_links(page))
    assert links and all(re.match(r"https://", t) for t in links), links
    for md in (page, ROOT / "README.md"):
        assert not re.search(r"<(this|your) repo", md.read_text(encoding="utf-8")), md


def test_the_link_checker_sees_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Top\n[x](b.md) [y](a.md#top) [z](a.md#nope)\n")
    assert list(_links(tmp_path / "a.md")) == ["b.md", "a.md#top", "a.md#nope"]
    assert _anchors(tmp_path / "a.md") == {"top"}


# --- command lines -----------------------------------------------------------------

DOCS_WITH_COMMANDS = ["README.md", "README-PyPI.md", "examples/mirror/README.md",
                      "latex/README-CTAN.md"] + sorted(
    str(f.relative_to(ROOT)) for f in (ROOT / "docs").glob("*.md"))


def _command_lines(text: str) -> Iterator[str]:
    """The ``pith-tex ...`` command lines of a Markdown text: in shell/console blocks and
    in inline code.  Synopses (with ``[...]``) are left to the synopsis test."""
    for block in re.findall(r"```(?:sh|console)\n(.*?)```", text, re.S):
        for line in block.splitlines():
            for part in line.split("&&"):
                part = part.strip()
                if part.startswith("$ "):
                    part = part[2:]
                if part.startswith("pith-tex "):
                    yield part
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    for span in re.findall(r"`(pith-tex [^`]*)`", prose):
        yield " ".join(span.split())


def _commands() -> List[Tuple[str, str]]:
    return [(rel, line) for rel in DOCS_WITH_COMMANDS for line in _command_lines(_read(rel))]


@pytest.mark.parametrize("rel,line", _commands())
def test_every_command_line_in_the_docs_is_valid(rel: str, line: str) -> None:
    words = split_line(line)
    if words[0] == "COMMAND":  # `pith-tex COMMAND --help`: for any command
        words = [sorted(main.commands)[0]] + words[1:]
    if words[-1:] == ["..."]:
        words = words[:1]  # `pith-tex check ...`: the command named
    if len(words) == 1 and words[0] in main.commands:
        return  # the command named in prose
    assert command_problems(words) is None


def _synopses(text: str) -> Dict[str, str]:
    """``{command: synopsis}`` from the code block that lists ``pith-tex CMD [...]``."""
    out = {}
    for block in re.findall(r"```\n(pith-tex .*?)```", text, re.S):
        for m in re.finditer(r"^pith-tex (\w+) (.*?)(?=^pith-tex |\Z)", block, re.S | re.M):
            out[m.group(1)] = m.group(2)
    return out


@pytest.mark.parametrize("rel", ["README.md", "docs/cli.md"])
def test_synopses_list_every_command_and_option(rel: str) -> None:
    synopses = _synopses(_read(rel))
    assert sorted(synopses) == sorted(main.commands), rel
    for name, synopsis in synopses.items():
        written = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", synopsis))
        for param in main.commands[name].params:
            if not param.opts[0].startswith("-") or param.name == "help":
                continue
            assert written & set(param.opts), (rel, name, param.opts)
        options = {o for p in main.commands[name].params for o in p.opts}
        assert written <= options, (rel, name, written - options)


def test_the_mirror_readme_commands_run(tmp_path: Path) -> None:
    """examples/mirror/README.md's two commands, run as written, offline."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = {"PITH_TEX_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    block = re.search(r"```sh\n(.*?)```", _read("examples/mirror/README.md"), re.S).group(1)
    assert len(block.splitlines()) == 2, block
    for line in block.splitlines():
        cwd = tmp_path
        command = line.split("#")[0].strip()
        if command.startswith("cd "):
            where, _, command = command[3:].partition("&&")
            cwd = tmp_path / where.strip()
        words = split_line(command.strip())
        r = subprocess.run([sys.executable, "-m", "pith_tex"] + words, cwd=cwd,
                           capture_output=True, text=True, timeout=120,
                           env=dict(env, PYTHONPATH=":".join(sys.path)))
        assert r.returncode == 0, (line, r.stdout, r.stderr)
    assert (tmp_path / "examples" / "paper" / "pith-number.tex").is_file()


# --- the venues whose review mode pith.sty detects ---------------------------------

def _sty_venues() -> Set[str]:
    """The names pith.sty's log line gives for each venue it detects."""
    names = set(re.findall(r"\\__pith_anon:n \{ ([A-Za-z]+) \}", STY))
    # the venue table both of pith.sty's paths read: {SWITCH}{WHEN}{LABEL}{LATEXML}
    table = re.search(r"^\\def\\c__pith_venues_tl\{%\n(.*?)^\}$", STY, re.S | re.M)
    assert table, "pith.sty has no venue table"
    names |= set(re.findall(r"^  \{[^{}]*\}\{[^{}]*\}\{([A-Za-z]+) (?:submission|review|"
                            r"rebuttal|anonymous|mask)\}", table.group(1), re.M))
    names |= set(re.findall(r"\{ ([A-Za-z]+)~(?:submission|review|rebuttal|anonymous|mask) \}",
                            STY))
    names.discard("option")  # option~anonymous: the option, not a venue
    assert len(names) >= 15, names  # the patterns still match pith.sty's code
    return names


# Words that are not venues in the passages below.
NOT_VENUES = {"PDF", "QR", "XMP", "HTML", "LaTeXML", "IJCAI", "LNCS", "Info"}


def _venues_named(passage: str) -> Set[str]:
    words = set(re.findall(r"\b([A-Za-z]*[A-Z][A-Za-z]*[A-Z][A-Za-z]*|acmart|Interspeech)\b", passage))
    return {w for w in words if w not in NOT_VENUES}


def _passage(where: str) -> str:
    """The passage of *where* that lists the venues."""
    if where == "docs/badge.md":
        m = re.search(r"^\| venue \| switch read.*?\n\n", _read(where), re.S | re.M)
        assert m, "no venue table in docs/badge.md"
        return "\n".join(line.split("|")[1] for line in m.group(0).splitlines()[2:]
                         if line.startswith("|"))
    pattern = {
        "README.md": r"switches on by\s+itself in the review modes of(.*?)IJCAI",
        "latex/pith.dtx": r"switched on by itself in the\s+review modes of(.*?)IJCAI",
        "docs/pith-sty.md": r"on by itself in the review modes of([^|]*)",
        "docs/html.md": r"read the same switches as\s+`\\__pith_anon_venue:` \((.*?)\), in",
    }[where]
    m = re.search(pattern, _read(where), re.S)
    assert m, "no list of review venues in %s" % where
    return m.group(1)


@pytest.mark.parametrize("where", ["README.md", "latex/pith.dtx", "docs/pith-sty.md",
                                   "docs/badge.md", "docs/html.md"])
def test_review_venues_are_the_ones_pith_sty_detects(where: str) -> None:
    assert _venues_named(_passage(where)) == _sty_venues(), where


# --- options -----------------------------------------------------------------------

def _sty_options() -> Set[str]:
    """pith.sty's keys, with ``key=value`` for each choice of a choice key."""
    block = re.search(r"\\keys_define:nn \{ pith \}(.*?)\n    \}", STY, re.S).group(1)
    keys = set(re.findall(r"^\s*([a-z][a-z-]*)\s+\.", block, re.M))
    assert {"placement", "qr", "anonymous"} <= keys, keys
    out = set(keys)
    for key, choices in re.findall(r"^\s*([a-z][a-z-]*)\s+\.choices:nn =\s*\{([^}]*)\}",
                                   block, re.M):
        out |= {"%s=%s" % (key, c.strip()) for c in choices.split(",")}
    return out


def _documented_options(rows: List[str]) -> Set[str]:
    out = set()
    for row in rows:
        for m in re.finditer(r"([a-z][a-z-]*)(?:=([a-z|]+))?", row):
            out.add(m.group(1))
            if m.group(2):
                out |= {"%s=%s" % (m.group(1), v) for v in m.group(2).split("|")}
    return out


def test_options_in_the_manual_are_pith_sty_keys() -> None:
    table = re.search(r"\\normalfont option & effect.*?\\endhead(.*?)\\bottomrule", MANUAL,
                      re.S).group(1)
    rows = re.findall(r"^([a-z][a-z-]*(?:=[^ &]*)?) &", table, re.M)
    named = _documented_options([r.replace("\\meta{", "").replace("}", "") for r in rows])
    expected = _sty_options()
    assert {o for o in named if "=" not in o or not o.endswith(("dim", "size", "file"))} \
        - {"include=false"} <= expected | {"include=false"}
    assert {o for o in expected if "=" not in o or o.startswith("placement=")} <= named, \
        expected - named


def test_options_in_pith_sty_md_are_pith_sty_keys() -> None:
    rows = re.findall(r"^\| ((?:`[^`]*`(?: / )?)+) \|", _read("docs/pith-sty.md"), re.M)
    cells = [c.replace("\\|", "|") for r in rows for c in re.findall(r"`([^`]*)`", r)]
    named = _documented_options([c for c in cells if c != "option"])
    expected = _sty_options()
    assert {o for o in expected if "=" not in o or o.startswith(("placement=", "size="))} \
        <= named, expected - named
    assert {o.split("=")[0] for o in named} <= {o.split("=")[0] for o in expected} | {"false"}


# --- the kernel floor --------------------------------------------------------------

def test_one_kernel_floor_everywhere() -> None:
    floor = re.search(r"\\@ifl@t@r\\fmtversion\{(\d{4}-\d{2}-\d{2})\}", STY).group(1)
    assert "pith needs %s or later" % floor in STY
    texts = {p: _read(p) for p in ["README.md", "README-PyPI.md", "latex/pith.dtx",
                                   "latex/README-CTAN.md"] + [
        str(f.relative_to(ROOT)) for f in sorted((ROOT / "docs").glob("*.md"))]}
    patterns = [r"kernel (?:from |of )?(\d{4}-\d{2}(?:-\d{2})?) or (?:newer|later)",
                r"kernel floor[^.]*?(\d{4}-\d{2}(?:-\d{2})?)",
                r"nothing newer than\s+LaTeX (\d{4}-\d{2}(?:-\d{2})?) is required",
                r"pith needs (\d{4}-\d{2}(?:-\d{2})?)"]
    found = [(p, m.group(1)) for p, t in texts.items() for pat in patterns
             for m in re.finditer(pat, " ".join(t.split()))]
    assert len(found) >= 5, found
    assert {d for _, d in found} == {floor}, found


# --- the modules -------------------------------------------------------------------

def test_development_md_names_every_module() -> None:
    """docs/development.md draws the tree: every package as ``NAME/`` and every module by
    its file name, inside the block of its package (the top's modules before the first
    package)."""
    dev = _read("docs/development.md")
    pkg = ROOT / "pyhelper" / "pith_tex"
    tree = dev[dev.index("pyhelper/pith_tex/"):dev.index("\ntests/python/")]
    blocks = re.split(r"\n  (?=[a-z]+/ )", tree)
    drawn = {b.split("/", 1)[0]: b for b in blocks[1:]}
    packages = sorted(p.name for p in pkg.iterdir() if (p / "__init__.py").is_file())
    assert sorted(drawn) == packages
    missing = [f.name for f in sorted(pkg.glob("*.py")) if f.name not in blocks[0]]
    for name in packages:
        missing += [name + "/" + f.name for f in sorted((pkg / name).glob("*.py"))
                    if f.name != "__init__.py" and not re.search(
                        r"\b%s\b" % re.escape(f.name), drawn[name])]
    assert not missing, missing


# --- the documented steps, run as written ------------------------------------------
# Each block runs in bash exactly as the reader copies it, with `pith-tex` on PATH (a shim
# for this interpreter), HOME in the test's directory, and the network replaced by the
# example mirror ($PITH_RESOLVER, which fetch reads when no --resolver is given).

MIRROR = ROOT / "examples" / "mirror"
EXAMPLE_TITLE = ("FlashRecovery: Fast and Low-Cost Recovery from Failures for Large-Scale "
                 "Training of LLMs")
#: An author's own small IEEEtran paper with a citation (BibTeX) and a figure PDF.
IEEE_PAPER = r"""\documentclass[conference]{IEEEtran}
\usepackage{graphicx}
\usepackage{pith}
\pithnumber{O6TNNA4XHFGPSALGBT7UWDA2Z3}
\begin{document}
\title{%s}
\author{\IEEEauthorblockN{A. Author}\IEEEauthorblockA{Some University}}
\maketitle
\begin{abstract}
A short abstract.
\end{abstract}
\section{Introduction}
Checkpoints help~\cite{young}.
\begin{figure}[t]\centering\includegraphics[width=2cm]{fig}\caption{A figure.}\end{figure}
\bibliographystyle{IEEEtran}
\bibliography{refs}
\end{document}
""" % EXAMPLE_TITLE
BIB = """@article{young,
  author = {J. W. Young}, title = {A first order approximation to the optimum checkpoint
  interval}, journal = {Commun. ACM}, volume = {17}, number = {9}, pages = {530--531},
  year = {1974}}
"""
FIGURE = "\\documentclass{standalone}\\begin{document}A figure\\end{document}\n"


def _environment(tmp_path: Path) -> Dict[str, str]:
    shim = tmp_path / "bin"
    shim.mkdir(exist_ok=True)
    (shim / "pith-tex").write_text('#!/bin/sh\nexec "%s" -m pith_tex "$@"\n' % sys.executable)
    (shim / "pith-tex").chmod(0o755)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {"PATH": "%s:/usr/local/bin:/usr/bin:/bin" % shim, "HOME": str(home),
            "PYTHONPATH": ":".join(sys.path), "PITH_RESOLVER": str(MIRROR),
            "PITH_TEX_CACHE_DIR": str(tmp_path / "cache"), "LC_ALL": "C.UTF-8"}


def _bash(script: str, cwd: Path, env: Dict[str, str]) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=900, stdin=subprocess.DEVNULL)


def _shown(block: str) -> List[Tuple[str, str]]:
    """The ``STATUS name`` pairs of the report lines a console block shows."""
    return re.findall(r"^(OK|WARN|FAIL|ERROR) +(\S+)", block, re.M)


def _console(block: str, cwd: Path, env: Dict[str, str]) -> None:
    """Run each ``$ `` line of a console block; every report line shown under it must be
    in the real output with that status."""
    parts = re.split(r"^\$ (.*)$", block, flags=re.M)
    for command, shown in zip(parts[1::2], parts[2::2]):
        r = _bash(command, cwd, env)
        assert r.returncode == 0, (command, r.stdout[-3000:], r.stderr[-3000:])
        real = set(_shown(r.stdout))
        assert set(_shown(shown)) <= real, (command, set(_shown(shown)) - real, r.stdout)


def test_the_manual_quick_start_runs_as_written(tmp_path: Path) -> None:
    section = MANUAL[MANUAL.index("\\section{Quick start}"):MANUAL.index("\\section{Options}")]
    source, console = re.findall(r"\\begin\{verbatim\}\n(.*?)\\end\{verbatim\}", section,
                                 re.S)[:2]
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "main.tex").write_text(source, encoding="utf-8")
    _console(console, paper, _environment(tmp_path))
    assert (paper / "upload.tar.gz").is_file()


def test_the_readme_three_steps_run_as_written(tmp_path: Path) -> None:
    steps = README[README.index("## Three steps"):README.index("### Offline")]
    source = re.search(r"```latex\n(.*?)```", steps, re.S).group(1)
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "main.tex").write_text(source, encoding="utf-8")
    env = _environment(tmp_path)
    fetch, check = re.findall(r"```console\n(.*?)```", steps, re.S)
    _console(fetch, paper, env)
    compile_ = re.search(r"or `(latexmk -pdf main\.tex)`, which runs BibTeX", steps).group(1)
    r = _bash(compile_, paper, env)
    assert r.returncode == 0, r.stdout[-3000:]
    _console(check, paper, env)
    # `pith-tex verify .`, an example of verify's own help, in a paper directory that also
    # holds a figure PDF: the figure is listed as carrying no Pith Number, exit 0.
    assert "pith-tex verify .  " in subprocess.run(
        [sys.executable, "-m", "pith_tex", "verify", "--help"], capture_output=True,
        text=True, env=env, timeout=60).stdout
    (paper / "fig.tex").write_text(FIGURE, encoding="utf-8")
    assert _bash("pdflatex -interaction=nonstopmode fig.tex", paper, env).returncode == 0
    r = _bash("pith-tex verify .", paper, env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"^--    \./fig\.pdf  no Pith Number", r.stdout, re.M), r.stdout
    assert re.search(r"^(OK|WARN) +\./main\.pdf  ", r.stdout, re.M), r.stdout
    assert "2 verified, 0 failed, 0 could not be checked" in r.stdout


def _ieee_paper(where: Path, env: Dict[str, str]) -> None:
    where.mkdir(parents=True)
    (where / "main.tex").write_text(IEEE_PAPER, encoding="utf-8")
    (where / "refs.bib").write_text(BIB, encoding="utf-8")
    (where / "fig.tex").write_text(FIGURE, encoding="utf-8")
    r = _bash("pdflatex -interaction=nonstopmode fig.tex && rm fig.tex fig.aux fig.log",
              where, env)
    assert r.returncode == 0, r.stdout[-2000:]


def test_the_readme_offline_first_try_runs_as_written(tmp_path: Path) -> None:
    """A new author's own IEEEtran paper (BibTeX, a figure) through the README's offline
    route, from the top of the sources to a ready tarball and a verified PDF."""
    section = README[README.index("### Offline"):README.index("## Questions")]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    env = _environment(tmp_path)
    del env["PITH_RESOLVER"]  # the block names its mirror
    sources = tmp_path / "pith-tex"
    shutil.copytree(ROOT / "examples", sources / "examples")
    _ieee_paper(Path(env["HOME"]) / "my-paper", env)
    r = _bash(block, sources, env)
    assert r.returncode == 0, (r.stdout[-4000:], r.stderr[-3000:])
    assert "ready for arXiv" in r.stdout and r.stdout.rstrip().endswith("checked (unsigned)")
    with tarfile.open(Path(env["HOME"]) / "my-paper" / "upload.tar.gz") as tar:
        assert {"main.tex", "main.bbl", "fig.pdf", "pith.sty",
                "pith-number.tex"} <= set(tar.getnames())


def test_the_pypi_three_steps_run_as_written(tmp_path: Path) -> None:
    page = _read("README-PyPI.md")
    steps = page[page.index("## Three steps"):page.index("## Documentation")]
    block = re.search(r"```sh\n(.*?)```", steps, re.S).group(1)
    assert "bibtex" in steps.lower()
    env = _environment(tmp_path)
    paper = tmp_path / "paper"
    _ieee_paper(paper, env)
    r = _bash(block, paper, env)
    assert r.returncode == 0, (r.stdout[-4000:], r.stderr[-3000:])
    later = re.search(r"check the PDF offline: `(pith-tex verify main\.pdf)`", steps).group(1)
    r = _bash(later, paper, env)
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-2000:])


def test_the_readme_install_without_pipx_runs_as_written(tmp_path: Path) -> None:
    """The README's install without pipx, verbatim, in a copy of the sources with HOME in
    the test's directory: a venv, pith-tex installed into it from the sources (as an
    author does, from the package index pip is set up with), and `pith-tex --help` found
    on PATH afterwards in the same shell."""
    install = README[README.index("## Install"):README.index("## Three steps")]
    blocks = re.findall(r"```sh\n(.*?)```", install, re.S)
    (block,) = [b for b in blocks if "python3 -m venv" in b]
    src = tmp_path / "pith-tex"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "README-PyPI.md", "LICENSE", "LICENSE.LPPL"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "pyhelper", src / "pyhelper", symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    (src / "latex").mkdir()
    for name in ("pith.sty", "pith.sty.ltxml"):
        shutil.copy(ROOT / "latex" / name, src / "latex" / name)
    env = _environment(tmp_path)
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"  # no pith-tex before the install
    env.pop("PYTHONPATH")
    r = _bash(block, src, env)
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
    assert "Usage: pith-tex" in r.stdout and "fetch" in r.stdout, r.stdout[-2000:]
    assert (Path(env["HOME"]) / ".pith" / "bin" / "pith-tex").is_file()
