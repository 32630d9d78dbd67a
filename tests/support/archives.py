"""Tar archives of distinct honest PDFs, as arXiv ships its bulk PDFs, for the tests of
``pith-tex verify ARCHIVE.tar`` and the scale bench (bench/bench_scale.py).

Each PDF with pith carries its own genuine record (:func:`recorded.varied`), compiled by
pdflatex with pith.sty's badge; a PDF without pith is a plain article (most of arXiv).
The hostile members are real tar members: a symbolic link, a hard link, a name that
leaves the archive (``../x.pdf``) and, when asked, a member larger than verify's cap.
"""

from __future__ import annotations

import io
import shutil
import tarfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import List, Tuple

import recorded as R
import texbuild

from pith_tex.include.include import IncludeData, render

#: The cap verify puts on a member (pith_tex.pdf.claims.MAX_PDF_BYTES), written again so
#: that a change of it is seen here.
CAP = 256 * 1024 * 1024


def _compile(out: Path, i: int, pith: bool, vectors) -> Path:
    build = out.parent / ("build-%s-%d" % ("pith" if pith else "plain", i))
    if pith:
        base = next(v for v in vectors if v.get("canonical_record"))
        v = R.varied(base, i)
        include = render(IncludeData(v["number"], v["year"], v["canonical_hash"],
                                     v["canonical_record"], "absent")).decode("ascii")
        source = ("\\documentclass{article}\n\\usepackage{pith}\n\\usepackage{hyperref}\n"
                  "\\pithnumber{%s}\n\\title{Paper %d}\\author{A. Author}\\date{}\n"
                  "\\begin{document}\n\\maketitle\nSome text.\n\\end{document}\n"
                  % (v["number"], i))
    else:
        include = None
        source = ("\\documentclass{article}\n\\title{Plain paper %d}\\author{B. Author}"
                  "\\date{}\n\\begin{document}\n\\maketitle\nText %d.\n\\end{document}\n"
                  % (i, i))
    b = texbuild.compile_tex(build, source, "pdflatex", include=include, max_runs=1)
    if not b.ok:
        raise RuntimeError(b.describe())
    dest = out / ("%s%04d.pdf" % ("pith-" if pith else "plain-", i))
    shutil.copy(b.pdf, dest)
    shutil.rmtree(build, ignore_errors=True)
    return dest


def distinct_pdfs(out: Path, with_pith: int, without: int, workers: int = 2) -> List[Path]:
    """*with_pith* distinct papers with pith's badge and *without* plain ones, in *out*."""
    vectors = R.load_vectors()
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(i, True) for i in range(with_pith)] + [(i, False) for i in range(without)]
    with ThreadPoolExecutor(workers) as pool:
        return sorted(pool.map(lambda j: _compile(out, j[0], j[1], vectors), jobs))


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


class _Zeros(io.RawIOBase):
    def __init__(self, n: int) -> None:
        self.left = n

    def readinto(self, b) -> int:  # type: ignore[override]
        n = min(len(b), self.left)
        b[:n] = bytes(n)
        self.left -= n
        return n


def write_archive(path: Path, pdfs: List[Path], *, hostile: bool = True,
                  oversized: bool = False) -> Tuple[List[str], List[str]]:
    """A tar of *pdfs* under ``YYMM/``, with a README and a directory (no line), and, when
    *hostile*, a symlink, a hard link and ``../x.pdf`` (and with *oversized* a member past
    the cap, whose first bytes are a PDF's).  Returns (the PDF members' names, the hostile
    ones)."""
    mode = "w:gz" if path.name.endswith(".gz") else "w"
    names, bad = [], []
    with tarfile.open(path, mode) as tar:
        d = tarfile.TarInfo("2601")
        d.type = tarfile.DIRTYPE
        tar.addfile(d)
        _add(tar, "2601/README.txt", b"not a PDF: no line\n")
        for p in pdfs:
            name = "2601/" + p.name
            _add(tar, name, p.read_bytes())
            names.append(name)
        if hostile:
            link = tarfile.TarInfo("2601/link.pdf")
            link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
            tar.addfile(link)
            hard = tarfile.TarInfo("2601/hard.pdf")
            hard.type, hard.linkname = tarfile.LNKTYPE, names[0]
            tar.addfile(hard)
            _add(tar, "../x.pdf", pdfs[0].read_bytes())
            bad += ["2601/link.pdf", "2601/hard.pdf", "../x.pdf"]
        if oversized:
            info = tarfile.TarInfo("2601/huge.pdf")
            info.size = CAP + 1
            head = pdfs[0].read_bytes()
            tar.addfile(info, io.BufferedReader(_Concat(head, _Zeros(CAP + 1 - len(head)))))
            bad.append("2601/huge.pdf")
    return names, bad


class _Concat(io.RawIOBase):
    def __init__(self, head: bytes, rest: io.RawIOBase) -> None:
        self.head, self.rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[override]
        if self.head:
            n = min(len(b), len(self.head))
            b[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        return self.rest.readinto(b)
