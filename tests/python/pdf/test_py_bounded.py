"""The engines' bounds (pith_tex.pdf.bounded, pith_tex.pdf.structure's form draws): a PDF built to
exhaust memory or time costs ``verify`` a known amount and gets exit 3 with a message
that says so.  The engines are real: PDFium renders the fan-outs until a bound stops it."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict

import pytest

import hostile_pdfs as H
import recorded
from pith_tex.pdf import bounded
from pith_tex.pdf.bounded import EngineLimited
from pith_tex.pdf.structure import MAX_DRAWS

V = recorded.vectors_with_record()[0]
GB = 1 << 30


def fan_out_objects(levels: int, first: int, fanout: int = 8) -> Dict[int, bytes]:
    """Forms *first*.. : form first+k draws form first+k+1 *fanout* times, *levels* deep."""
    objs = {}
    for k in range(levels):
        objs[first + k] = H.stream(b"/Fm Do " * fanout, b"/Type /XObject /Subtype /Form "
                                   b"/BBox [0 0 9 9] /Resources << /XObject << /Fm %d 0 R "
                                   b">> >> " % (first + k + 1))
    objs[first + levels] = H.stream(b"0 0 1 1 re f", b"/Type /XObject /Subtype /Form "
                                    b"/BBox [0 0 9 9] ")
    return objs


def fan_out(levels: int) -> bytes:
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
            2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
               b"/Resources << /XObject << /Fm 10 0 R >> >> >>",
            4: H.stream(b"/Fm Do")}
    objs.update(fan_out_objects(levels, 10))
    return H.raw_pdf(objs)


def paper_with_fan_out(tmp_path: Path, levels: int) -> Path:
    """An honest paper whose page 1 also draws a form fan-out of *levels* levels."""
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject
    from pypdf.generic import StreamObject

    honest = H.paper(tmp_path / "honest", V)

    def edit(w: Any) -> None:
        ref = None
        for k in reversed(range(levels + 1)):
            form = StreamObject()
            form._data = b"/Fm Do " * 8 if k < levels else b"0 0 1 1 re f"
            form.update({NameObject("/Type"): NameObject("/XObject"),
                         NameObject("/Subtype"): NameObject("/Form"),
                         NameObject("/BBox"): ArrayObject([NumberObject(0)] * 2
                                                          + [NumberObject(9)] * 2)})
            if ref is not None:
                form[NameObject("/Resources")] = DictionaryObject({
                    NameObject("/XObject"): DictionaryObject({NameObject("/Fm"): ref})})
            ref = w._add_object(form)
        res = w.pages[0]["/Resources"].get_object()
        if "/XObject" not in res:
            res[NameObject("/XObject")] = DictionaryObject()
        res["/XObject"].get_object()[NameObject("/FmFan")] = ref

    return H.rewritten(honest, tmp_path / "fan.pdf",
                       [H.content(honest) + b"\nq 1 0 0 1 0 0 cm /FmFan Do Q\n"], edit)


def test_the_fan_out_of_8_to_the_12_gets_exit_3_within_2_gb(tmp_path):
    pdf = paper_with_fan_out(tmp_path, 12)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(pdf)],
                       capture_output=True, text=True, timeout=300)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert r.returncode == 3, (r.stdout[-2000:], r.stderr)
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    assert "draws its forms more than %d times" % MAX_DRAWS in r.stderr, r.stderr
    doc = json.loads(r.stdout)
    checks = {c["name"]: c for c in doc["files"][0]["checks"]}
    assert checks["structure"]["status"] == "error", checks
    assert "not read by the engines" in checks["badge"]["detail"], checks["badge"]
    # ru_maxrss of the children is the largest any of them (TeX included) reached
    assert after.ru_maxrss * 1024 < 2 * GB
    print("fan-out 8^12: %d bytes, exit %d in %.2f s wall, %.2f s CPU, children's peak RSS "
          "%d MB" % (pdf.stat().st_size, r.returncode, wall,
                     after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
                     after.ru_maxrss >> 10))


def test_pdfium_is_stopped_at_the_memory_bound():
    # 8^7 draws: PDFium grows to 3.4 GB rendering it; the gate is not asked here
    with pytest.raises(EngineLimited) as e:
        bounded.page_one(fan_out(7), memory=GB // 2)
    assert str(e.value) == ("PDFium used more than 0.5 GB reading page 1; the PDF may be "
                            "built to exhaust memory")
    # the next PDF gets a new child
    assert bounded.page_one(fan_out(1), memory=GB // 2).views[0].engine == "pdfium"


def test_pdfium_is_stopped_at_the_cpu_bound():
    # room enough in memory that the CPU bound is the one met (with 2 GB, a PDFium that
    # grows fast on a loaded machine could meet the memory bound first)
    with pytest.raises(EngineLimited) as e:
        bounded.page_one(fan_out(7), cpu_seconds=1, memory=8 * GB)
    assert "more than 1 s of CPU time reading page 1" in str(e.value), str(e.value)


def test_pdfium_is_stopped_at_the_deadline():
    with pytest.raises(EngineLimited) as e:
        bounded.page_one(fan_out(7), deadline=time.monotonic() + 1.0, memory=8 * GB)
    assert "took longer than 1 s reading page 1" in str(e.value), str(e.value)


def test_an_honest_paper_reads_the_same_in_the_child(tmp_path):
    from pith_tex.pdf.pageview import page_one

    data = H.paper(tmp_path / "p", V).read_bytes()
    here, there = page_one(data), bounded.page_one(data)
    assert there == here._replace(views=tuple(
        v._replace(version=w.version) for v, w in zip(here.views, there.views)))
    assert there.views[0].codes  # the QR code came back


def test_verify_dir_reads_each_page_one_once(tmp_path):
    """``verify DIR`` asks the engines for page 1 of each PDF with a Pith Number once, and
    not at all for a figure: the poppler tools run through a logging shim (the real tools
    still run), and each PDF's ``pdftotext -bbox-layout`` is counted.  (It was asked twice
    a PDF: once to tell a figure from a paper, once to verify.)"""
    papers = tmp_path / "papers"
    papers.mkdir()
    for name in ("a", "b"):
        (papers / (name + ".pdf")).write_bytes(H.paper(tmp_path / name, V).read_bytes())
    (papers / "fig.pdf").write_bytes(fan_out(0))
    shims, log = tmp_path / "shims", tmp_path / "calls.log"
    shims.mkdir()
    for tool in ("pdftotext", "pdftoppm", "pdfinfo"):
        real = subprocess.run(["which", tool], capture_output=True, text=True,
                              check=True).stdout.strip()
        shim = shims / tool
        shim.write_text('#!/bin/sh\necho "%s $*" >> "%s"\nexec %s "$@"\n' % (tool, log, real))
        shim.chmod(0o755)
    env = dict(os.environ, PATH="%s:%s" % (shims, os.environ["PATH"]))
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", str(papers)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "fig.pdf  no Pith Number" in r.stdout, r.stdout
    layouts = [c for c in log.read_text().splitlines() if "-bbox-layout" in c]
    assert len(layouts) == 2, layouts
