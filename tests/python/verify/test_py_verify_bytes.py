"""The library entry ``pith_tex.verify.verify_pdf_bytes`` (issue 31, item 1; issue 30,
item 2): bytes in, the dict ``verify --json`` prints out, the process left as it was; and
``verify`` opening each file once (counted with an audit hook, in a child process).

The PDFs are real compiles (pdflatex with pith.sty's badge, and a plain article).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import archives
from pith_tex.verify import verify_pdf_bytes


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory) -> list:
    """Two distinct papers with pith's badge and a plain article."""
    return archives.distinct_pdfs(tmp_path_factory.mktemp("pdfs"), 2, 1)


def _cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pith_tex", *args], capture_output=True,
                          text=True, cwd=cwd)


def test_the_dict_is_the_one_verify_json_prints(pdfs):
    for pdf in pdfs:
        printed = json.loads(_cli("verify", "--json", str(pdf)).stdout)["files"]
        assert verify_pdf_bytes(pdf.read_bytes(), str(pdf)) == printed[0]
    verified = verify_pdf_bytes(pdfs[0].read_bytes(), "any name")
    assert verified["exit_code"] == 0 and verified["path"] == "any name"
    assert verify_pdf_bytes(pdfs[-1].read_bytes(), "plain.pdf")["exit_code"] == 3


def test_not_a_pdf_and_a_cut_pdf_are_lines_not_exceptions(pdfs):
    data = pdfs[0].read_bytes()
    for bad in (b"", b"hello", data[:len(data) // 2], b"%PDF-1.5\n" + bytes(5000)):
        got = verify_pdf_bytes(bad, "bad.pdf")
        assert got["exit_code"] == 3 and got["error"], got


def test_the_deadline_reaches_the_engines(pdfs):
    got = verify_pdf_bytes(pdfs[0].read_bytes(), "late.pdf", deadline=time.monotonic())
    badge = next(c for c in got["checks"] if c["name"] == "badge")
    assert got["exit_code"] == 3 and badge["status"] == "error", got
    assert verify_pdf_bytes(pdfs[0].read_bytes(), "in-time.pdf",
                            deadline=time.monotonic() + 120)["exit_code"] == 0


def test_threads_take_turns_and_get_what_one_thread_gets(pdfs):
    datas = [p.read_bytes() for p in pdfs] * 2
    alone = [verify_pdf_bytes(d, "p%d.pdf" % i) for i, d in enumerate(datas)]
    together: dict = {}
    threads = [threading.Thread(target=lambda i=i, d=d: together.__setitem__(
        i, verify_pdf_bytes(d, "p%d.pdf" % i))) for i, d in enumerate(datas)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [together[i] for i in range(len(datas))] == alone


_STATE = """
import gc, logging, os, resource, signal, sys, warnings
def state():
    log = logging.getLogger("pypdf")
    return dict(
        pypdf=(log.level, log.propagate, log.disabled, list(log.handlers)),
        root=(logging.getLogger().level, list(logging.getLogger().handlers)),
        filters=list(warnings.filters), showwarning=warnings.showwarning,
        gc=(gc.isenabled(), gc.get_threshold()), recursion=sys.getrecursionlimit(),
        signals={s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM,
                                                  signal.SIGCHLD, signal.SIGPIPE)},
        limits={r: resource.getrlimit(r) for r in (resource.RLIMIT_AS, resource.RLIMIT_CPU)},
        environ=dict(os.environ), cwd=os.getcwd(),
        blocked=[m for m, v in sys.modules.items() if v is None],
    )
"""


def test_the_process_is_left_as_it_was(pdfs, tmp_path):
    """Every switch a reading sets (pypdf's logger, warning filters, the collector,
    sys.modules) is as it was after each call, for an honest PDF, a plain one and one
    that pypdf repairs (its warnings on); and the engines' child is started once for
    all of them (their imports and versions looked up once in the process)."""
    data = pdfs[0].read_bytes()
    repaired = data.replace(b"startxref", b"startxref\n0\n%", 1)  # pypdf repairs it
    (tmp_path / "repaired.pdf").write_bytes(repaired)
    code = _STATE + textwrap.dedent("""
        import json, sys
        from pith_tex.verify import verify_pdf_bytes
        starts = []
        sys.addaudithook(lambda e, a: starts.append(a) if e == "subprocess.Popen" else None)
        verify_pdf_bytes(open(sys.argv[1], "rb").read(), "warm.pdf")  # first imports
        before = state()
        n = len(starts)
        verdicts = []
        for path in sys.argv[1:]:
            verdicts.append(verify_pdf_bytes(open(path, "rb").read(), path)["exit_code"])
            after = state()
            for k in before:
                assert after[k] == before[k], (path, k, before[k], after[k])
        print(json.dumps([verdicts, len(starts) - n]))
    """)
    r = subprocess.run([sys.executable, "-c", code, str(pdfs[0]), str(pdfs[1]), str(pdfs[2]),
                        str(tmp_path / "repaired.pdf")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    verdicts, started = json.loads(r.stdout)
    assert verdicts == [0, 0, 3, 3] and started == 0


_OPENS = textwrap.dedent("""
    import json, os, sys
    root = os.path.realpath(sys.argv[1])
    opened = []
    def hook(event, args):
        if event == "open" and isinstance(args[0], str) and \\
                os.path.realpath(args[0]).startswith(root + os.sep):
            opened.append(os.path.relpath(os.path.realpath(args[0]), root))
    sys.addaudithook(hook)
    from pith_tex.cli import main
    try:
        main(["verify", *sys.argv[2:]])
    except SystemExit as e:
        code = e.code
    sys.stdout.flush()
    print(json.dumps([code, opened]), file=sys.stderr)
""")


def _opens(root: Path, *args: str):
    r = subprocess.run([sys.executable, "-c", _OPENS, str(root), *args],
                       capture_output=True, text=True)
    code, opened = json.loads(r.stderr.strip().splitlines()[-1])
    return code, sorted(opened), r.stdout


def test_verify_opens_each_file_once(pdfs, tmp_path):
    paper = tmp_path / "paper"
    paper.mkdir()
    for p in pdfs:
        (paper / p.name).write_bytes(p.read_bytes())
    (paper / "copy.bin").write_bytes(pdfs[0].read_bytes())  # a PDF by another name
    code, opened, out = _opens(paper, str(paper))  # a directory: PDFs with and without pith
    assert code == 0, out
    assert opened == sorted(p.name for p in pdfs), opened
    assert "no Pith Number" in out
    code, opened, out = _opens(paper, str(paper / pdfs[0].name), str(paper / "copy.bin"))
    assert code == 0 and opened == sorted([pdfs[0].name, "copy.bin"]), (opened, out)


_XMP = ('<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description '
        'rdf:about="" xmlns:pith="https://pith.science/ns/pith/1.0/"><pith:number>%s'
        '</pith:number></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>')


def test_a_claim_in_the_xmp_only_is_verified_not_listed_apart(pdfs, tmp_path):
    """verify DIR decides "carries no Pith Number" from the one reading it verifies: a
    plain article whose only Pith claim is an XMP property is verified (and says why it
    cannot be), as f9ecfa8 decided; the plain article itself is listed apart."""
    from pypdf.generic import NameObject, StreamObject

    import pdfclaims

    def add_xmp(w) -> None:
        s = StreamObject()
        s.set_data((_XMP % "pith:2025:O6TNNA4XHFGPSALGBT7UWDA2Z3").encode("ascii"))
        s[NameObject("/Type")] = NameObject("/Metadata")
        s[NameObject("/Subtype")] = NameObject("/XML")
        w._root_object[NameObject("/Metadata")] = w._add_object(s)

    paper = tmp_path / "paper"
    paper.mkdir()
    plain = pdfs[-1]
    (paper / "a-figure.pdf").write_bytes(plain.read_bytes())
    pdfclaims.tampered(plain, paper / "b-xmp-only.pdf", add_xmp)
    r = _cli("verify", str(paper))
    assert r.returncode == 3, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("--") and "a-figure.pdf" in lines[0], lines
    assert lines[1].startswith("ERROR") and "b-xmp-only.pdf" in lines[1], lines
