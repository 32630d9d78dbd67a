"""`make docs` (l3build doc) builds the manual, and its pictures of the badge are really there.

The manual, the documentation part of latex/pith.dtx, shows each badge state by including
the PDFs of small demo documents in latex/docs/ that use only pith.sty's public options.
This test runs the real target in the repository and checks the result: the
manual exists, every demo PDF is embedded in it, and the badge text of each
demo can be read back from it (pdftotext extracts text of included PDFs).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path


import pypdf

import texrun

MANUAL = texrun.LATEX_DIR / "pith.pdf"
DEMOS = ["badge-verified", "badge-checked", "badge-unverified", "badge-monochrome",
         "badge-small", "badge-large", "page-title", "page-qr", "page-twocolumn",
         "page-corner", "page-margin", "page-fallback"]


def _embedded_files(reader: pypdf.PdfReader) -> set[str]:
    """File names of the PDFs that pdfTeX's \\includegraphics put in the manual."""
    names = set()
    for page in reader.pages:
        xobjects = page.get("/Resources", {}).get("/XObject", {})
        for ref in xobjects.values():
            name = ref.get_object().get("/PTEX.FileName")
            if name is not None:
                names.add(str(name).rsplit("/", 1)[-1])
    return names


def test_make_docs_builds_manual_with_real_pictures() -> None:
    p = subprocess.run(
        ["make", "-C", str(texrun.ROOT), "docs"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        errors="replace", timeout=600,
    )
    assert p.returncode == 0, p.stdout
    assert MANUAL.is_file(), p.stdout

    reader = pypdf.PdfReader(str(MANUAL))
    assert len(reader.pages) > 2

    # Every demo is included from its real compile, none is missing.
    missing = {f"{d}.pdf" for d in DEMOS} - _embedded_files(reader)
    assert not missing, f"demo PDFs not in the manual: {sorted(missing)}"
    for d in DEMOS:
        assert (texrun.LATEX_DIR / "docs" / f"{d}.pdf").is_file()

    text = subprocess.run(
        [texrun.tool("pdftotext"), "-layout", str(MANUAL), "-"],
        stdout=subprocess.PIPE, check=True, text=True, errors="replace",
    ).stdout
    full = f"pith:{texrun.YEAR}:{texrun.NUM}"
    # The manual's prose never spells the full number out more than once, the
    # pictures (with the year: verified, checked, monochrome, small, large and
    # four pages) and the manual's own two live badges add the rest.
    assert text.count(full) >= 12, text
    # Unverified: no year, only the demo shows the full number this way.
    assert re.search(rf"pith:{texrun.NUM}\b", text), text
    # Each state in words, under its number, in reading order: signed
    # ("verified", the illustration), unsigned ("checked"), no include.
    flow = subprocess.run([texrun.tool("pdftotext"), str(MANUAL), "-"],
                          stdout=subprocess.PIPE, check=True, text=True, errors="replace").stdout
    for state in ("verified", "checked"):
        assert re.search(rf"pith:2025:{texrun.NUM}\s+{state}\b", flow), (state, flow)
    assert re.search(rf"pith:{texrun.NUM}\s+unverified\b", flow), flow
    assert "hash verified" not in text


def toc_problems(pdf: Path) -> list:
    """Each table-of-contents entry whose page number is not the page its heading is on
    (read back with poppler, page by page)."""
    pages = int(re.search(r"^Pages:\s+(\d+)", subprocess.run(
        [texrun.tool("pdfinfo"), str(pdf)], stdout=subprocess.PIPE, check=True,
        text=True).stdout, re.M).group(1))
    text = [subprocess.run([texrun.tool("pdftotext"), "-layout", "-f", str(p), "-l", str(p),
                            str(pdf), "-"], stdout=subprocess.PIPE, check=True, text=True,
                           errors="replace").stdout for p in range(1, pages + 1)]
    toc = text[0].split("Contents", 1)[1]
    entries = re.findall(r"^(\d+) +(\S.*?\S) {2,}(\d+)$", toc, re.M)
    assert len(entries) >= 8, toc
    problems = []
    for num, title, page in entries:
        heading = re.compile(r"^\s*%s +%s" % (num, re.escape(title[:25])), re.M)
        found = [p + 1 for p in range(1, pages) if heading.search(text[p])]
        if found[:1] != [int(page)]:
            problems.append((num, title, page, found))
    return problems


def latex_copy(tmp_path: Path) -> Path:
    """The sources of latex/ (no build output) in *tmp_path*/latex, with the licence beside
    it as in the repository: l3build's doc and ctan write into their directory."""
    work = tmp_path / "latex"
    shutil.copytree(texrun.LATEX_DIR, work, ignore=shutil.ignore_patterns(
        "build", "*.pdf", "*.log", "*.aux", "*.out", "*.toc", "*.idx", "pith.sty",
        "pith.sty.ltxml", "*.zip"))
    shutil.copy(texrun.ROOT / "LICENSE.LPPL", tmp_path / "LICENSE.LPPL")
    return work


def _overfull_in_manual(log: str, dtx: str) -> list:
    """The overfull lines of the manual, the documentation part of pith.dtx (the
    implementation's code is set as written, line for line)."""
    end = dtx.split("\n").index("% \\begin{implementation}") + 1
    return [m.group(0) for m in re.finditer(r"Overfull \\hbox.*?lines? (\d+)", log)
            if int(m.group(1)) < end]


def test_manual_toc_is_right_no_overfull_and_commands_copy_as_typed(tmp_path: Path) -> None:
    """The manual as l3build doc builds it, in a copy of its own: the test above
    rebuilds latex/pith.pdf, and read while it did (run 2 of 3, its table of contents
    a page early), this test failed under xdist."""
    work = latex_copy(tmp_path)
    p = subprocess.run([texrun.tool("l3build"), "doc"], cwd=work, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace", timeout=600)
    assert p.returncode == 0, p.stdout[-4000:]
    manual = work / "pith.pdf"
    assert toc_problems(manual) == []
    log = (work / "build" / "doc" / "pith.log").read_text(errors="replace")
    overfull = _overfull_in_manual(log, (work / "pith.dtx").read_text(encoding="utf-8"))
    assert overfull == [], overfull
    assert not re.findall(r"^! .*", log, re.M)
    flow = subprocess.run([texrun.tool("pdftotext"), str(manual), "-"],
                          stdout=subprocess.PIPE, check=True, text=True).stdout
    # Typewriter text copies as typed: -- stays two hyphens, quotes stay straight.
    assert re.search(r"pith-tex check\s+--tarball upload\.tar\.gz", flow), flow
    assert not re.search(r"\u2013[a-z]", flow), re.findall(r".{20}\u2013[a-z].{10}", flow)
    assert "'FlashRecovery: Fast" in flow and "`pith-tex fetch`" in flow
