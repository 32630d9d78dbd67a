"""``pith-tex check`` reads the paper once: each directory listed once, each source read
once (issue 30).

The count comes from CPython's audit events (``os.scandir``, ``os.listdir``, ``open``:
raised by the interpreter itself for every listing and every open, ``os.open`` included),
heard by a hook in a child process that runs the real ``check`` on a real paper with real
TeX.  ``--html off``: LaTeXML's own fresh copy of the upload is a copy by design.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, Tuple

from test_py_check import example_paper, statuses
from texbuild import tool

_HOOKED = r"""
import json, os, sys
top = os.path.realpath(sys.argv[1])
listed, opened = {}, {}

def hook(event, args):
    if event in ("os.scandir", "os.listdir", "open") and isinstance(args[0], (str, bytes)):
        path = os.path.realpath(os.fsdecode(args[0]))
        if path == top or path.startswith(top + os.sep):
            into = opened if event == "open" else listed
            rel = os.path.relpath(path, top)
            into[rel] = into.get(rel, 0) + 1

sys.addaudithook(hook)
from pith_tex.cli import main
try:
    main(["check", top, "--json", "--html", "off"], "pith-tex")
except SystemExit:
    pass
sys.stderr.write("\nREADS " + json.dumps({"listed": listed, "opened": opened}) + "\n")
"""


def _check_counted(d: Path) -> Tuple[Dict[str, object], Counter, Counter]:
    """``check --json`` of *d* in a child with the audit hook: the JSON object, how many
    times each directory was listed and each file opened (by name relative to *d*)."""
    r = subprocess.run([sys.executable, "-c", _HOOKED, str(d)], capture_output=True,
                       text=True, timeout=600)
    counts = json.loads(r.stderr.rpartition("\nREADS ")[2])
    return json.loads(r.stdout), Counter(counts["listed"]), Counter(counts["opened"])


def test_check_lists_each_directory_once_and_reads_each_source_once(tmp_path: Path) -> None:
    for name in ("pdflatex", "bibtex"):
        tool(name)
    d = example_paper(tmp_path)
    (d / "sections").mkdir()
    (d / "sections" / "intro.tex").write_text("An introduction, in a file of its own.\n")
    main = (d / "main.tex").read_text()
    (d / "main.tex").write_text(main.replace("\\end{document}",
                                             "\\input{sections/intro}\n\\end{document}"))
    doc, listed, opened = _check_counted(d)
    assert doc["exit_code"] == 0, doc
    assert statuses(doc)["compile"] == "ok" and "sections/intro.tex" in doc["upload"]
    # One listing of DIR and of its subdirectory, for every check together (it was six
    # of DIR: main, shell-escape, the sources, paths, the copy, number).
    assert listed == Counter({".": 1, "sections": 1}), listed
    # Each source: read once as text, and once more by the compile's copy (the bytes
    # compiled), nothing else; it was twelve for main.tex.
    assert opened["main.tex"] == 2, opened
    assert opened["sections/intro.tex"] == 2, opened
