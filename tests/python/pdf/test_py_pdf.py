"""``pith-tex verify paper.pdf``: real PDFs compiled with pith.sty and a format-2 include,
and copies of them altered with pypdf (the metadata edited, the signature flipped, the
keys removed, ...).

The PDFs are compiled from the real vectors (``tests/vectors/pith-numbers.jsonl``) with
the shared build helper (``tests/support/texbuild.py``: a private copy of
``latex/pith.sty`` beside the document); a missing TeX program is a failure, never a
skip.  Command-line tests run the installed ``pith-tex`` console script in a subprocess.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Optional

import pytest

import recorded
from pdfclaims import blank_pdf, claims, tampered, xmp_edited
import texbuild
from pith_tex.include.include import IncludeData, render
from pith_tex.record.keys import Keyring
from pith_tex.pdf.claims import verify_pdf, visible_numbers
from pith_tex.checks import ERROR, FAIL, OK, WARN

VECTORS = recorded.vectors_with_record()
V = VECTORS[0]  # arXiv:2509.03047, 2025
N = V["number"]
V2 = next(v for v in VECTORS[1:] if v["number"] != N)
N2 = V2["number"]
# Real receipts whose records are not published: a genuine signature by the pinned key,
# over another digest.
SIGNED_ELSEWHERE = [v for v in recorded.load_vectors()
                    if v.get("signature_b64") and v.get("canonical_hash")]

# (issue 9) canonical: PithRecord byte-canonical; info: one value per key in every Info
# dictionary; qr: these papers draw no QR code, and the author asked for none: an OK;
# badge: shown and, without hyperref too, a link to its Pith page (issue 8).
UNSIGNED_CHECKS = {"pdf": OK, "canonical": OK, "record": OK, "hash": OK, "derivation": OK,
                   "year": OK, "signature": OK, "url": OK, "arxiv": OK, "state": OK,
                   "info": OK, "viewers": OK, "badge": OK, "qr": OK, "print": OK,
                   "pith-title": OK, "title": OK}
ORDER = ["pdf", "canonical", "record", "hash", "derivation", "year", "signature", "url",
         "arxiv", "state", "info", "viewers", "badge", "qr", "print", "pith-title", "title"]


def _console_script() -> str:
    beside = os.path.join(os.path.dirname(sys.executable), "pith-tex")
    found = beside if os.path.exists(beside) else shutil.which("pith-tex")
    assert found, "the pith-tex console script is not installed (pip install -e .)"
    return found


PITH_TEX = _console_script()


def cli(*args: Any) -> subprocess.CompletedProcess:
    return subprocess.run([PITH_TEX, *map(str, args)], capture_output=True, text=True)


def cli_json(path: Any, *flags: str):
    """(exit code, the file's JSON report, stderr) of ``pith-tex verify --json PATH``."""
    r = cli("verify", "--json", *flags, path)
    doc = json.loads(r.stdout)
    assert doc["exit_code"] == r.returncode and len(doc["files"]) == 1
    return r.returncode, doc["files"][0], r.stderr


def statuses(checks) -> Dict[str, str]:
    if checks and isinstance(checks[0], dict):
        return {c["name"]: c["status"] for c in checks}
    return {c.name: c.status for c in checks}


def one_error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    return lines[0]


# -- building the PDFs ------------------------------------------------------------------

def include_text(v: Dict[str, Any], key_id: Optional[str] = None,
                 signature_hex: Optional[str] = None) -> str:
    data = IncludeData(v["number"], v["year"], v["canonical_hash"], v["canonical_record"],
                       "verified" if key_id else "absent", key_id, signature_hex,
                       title=v.get("title"))  # the record's title, as fetch writes it
    return render(data).decode("ascii")


def article(number: str, options: str = "") -> str:
    return (
        "\\documentclass{article}\n"
        "\\usepackage%s{pith}\n"
        "\\pithnumber{%s}\n"
        "\\title{%s}\\author{A. Author}\\date{}\n"
        "\\begin{document}\n\\maketitle\nSome text.\n\\end{document}\n"
        % ("[%s]" % options if options else "", number,
           recorded.vector(number).get("title") or "A Paper"))


def info(path: Path) -> Dict[str, str]:
    from pypdf import PdfReader

    meta = PdfReader(str(path)).metadata or {}
    return {k: str(meta[k]) for k in meta}


def altered(src: Path, dst: Path, change: Callable[[Dict[str, str]], Any]) -> Path:
    """A copy of *src* (pypdf clone) whose Info dictionary *change* has edited."""
    meta = info(src)
    change(meta)

    def edit(w: Any) -> None:
        w.metadata = meta

    return tampered(src, dst, edit)


class Papers:
    """Compiled PDFs, built on first use (once per module and worker)."""

    def __init__(self, root: Path, key) -> None:
        self.root = root
        self.priv, raw = key
        self.ring = Keyring({"test-key": raw})
        self.sig_hex = self.priv.sign(bytes.fromhex(V["canonical_hash"])).hex()
        self._built: Dict[str, Path] = {}

    def get(self, name: str) -> Path:
        if name not in self._built:
            route, number, options, include = {
                "pdflatex": ("pdflatex", N, "", include_text(V)),
                "xelatex": ("xelatex", N, "", include_text(V)),
                "dvips": ("dvips", N, "", include_text(V)),
                "signed": ("pdflatex", N, "", include_text(V, "test-key", self.sig_hex)),
                "hide": ("pdflatex", N, "hide", include_text(V)),
                "anonymous": ("pdflatex", N, "anonymous", include_text(V)),
                "corner": ("pdflatex", N, "placement=corner", include_text(V)),
                "noinclude": ("pdflatex", N, "", None),
                "docmeta": ("pdflatex", N, "", include_text(V)),  # + XMP, see below
                "docmeta-signed": ("pdflatex", N, "", include_text(V, "test-key",
                                                                   self.sig_hex)),
            }[name]
            source = article(number, options)
            if name.startswith("docmeta"):  # the kernel's pdfmanagement writes XMP
                source = "\\DocumentMetadata{}\n" + source
            b = texbuild.compile_tex(self.root / name, source, route, include=include)
            assert b.ok, b.describe()
            self._built[name] = b.pdf
        return self._built[name]


@pytest.fixture(scope="module")
def papers(tmp_path_factory, throwaway_key) -> Papers:
    return Papers(tmp_path_factory.mktemp("papers"), throwaway_key)


# -- genuine compiled PDFs ----------------------------------------------------------------

@pytest.mark.parametrize("route", ["pdflatex", "xelatex", "dvips"])
def test_compiled_pdf_verifies(papers, route):
    pdf = papers.get(route)
    meta = info(pdf)
    for k, v in claims(V).items():  # the contract, as read back by pypdf
        assert meta[k] == v, k
    r = cli("verify", pdf)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert [(l[:6].strip(), l[6:18].strip()) for l in lines[:-1]] == [
        (UNSIGNED_CHECKS[n].upper(), n) for n in ORDER]
    assert lines[-1] == "checked (unsigned)" and r.stderr == ""
    badge = next(l for l in lines if l.startswith("OK    badge "))
    assert badge.startswith("OK    badge       page 1 shows pith:2025:%s (visible: at least "
                            "4 pt, painted, inside the crop box, in PDFium " % N), badge
    assert badge.endswith("), linked to https://pith.science/pith/%s" % N), badge
    assert "OK    derivation  base32(sha256)[:26] = %s" % N in lines
    code, f, _ = cli_json(pdf)
    assert code == 0 and f["kind"] == "pdf" and f["number"] == N
    assert [c["name"] for c in f["checks"]] == ORDER
    assert statuses(f["checks"]) == UNSIGNED_CHECKS
    r = cli("verify", "--require-signature", pdf)
    assert r.returncode == 1
    assert one_error_line(r.stderr).startswith(
        "error: verification failed: %s: signature: the PDF carries no receipt signature" % pdf)


def test_corner_placement_badge_is_found(papers):
    code, f, _ = cli_json(papers.get("corner"))
    assert code == 0 and statuses(f["checks"]) == UNSIGNED_CHECKS


def test_badge_whose_link_was_removed_warns(papers, tmp_path):
    """The badge shown but no link over it (its annotation taken out): a warning that
    says so, not a failure, as nothing false is shown."""
    from pypdf.generic import NameObject

    def edit(w):
        del w.pages[0][NameObject("/Annots")]

    code, f, _ = cli_json(tampered(papers.get("pdflatex"), tmp_path / "n.pdf", edit))
    assert code == 0 and statuses(f["checks"]) == dict(UNSIGNED_CHECKS, badge=WARN)
    badge = next(c for c in f["checks"] if c["name"] == "badge")
    assert badge["detail"].startswith(
        "page 1 shows pith:2025:%s (visible: at least 4 pt, painted, inside the crop box, in "
        "PDFium " % N), badge
    assert badge["detail"].endswith(
        "), but it is not a link to its Pith page (pith.sty links it on every route, with or "
        "without hyperref, unless the document turns hyperref's links off)"), badge


@pytest.mark.parametrize("route", ["pdflatex", "xelatex", "dvips"])
@pytest.mark.parametrize("before, options, after", [
    ("", "qr", "\\usepackage[colorlinks,urlcolor=magenta]{hyperref}\n"),
    ("\\usepackage[hidelinks]{hyperref}\n", "qr,placement=corner", ""),
], ids=["colorlinks-title", "hidelinks-corner"])
def test_linked_badges_verify_on_every_route(tmp_path, route, before, options, after):
    """With hyperref (loaded before or after pith, with its colour options) pith.sty links
    the badge and the code to the Pith page on each route, each its own way (pdfTeX's
    and hyperref's dvips driver's annotations, xdvipdfmx's pdf:ann): every link over
    them opens exactly that page, so both are OK, not only shown (issue 8)."""
    source = article(N, options).replace("\\usepackage[", before + "\\usepackage[", 1)
    source = source.replace("\\pithnumber", after + "\\pithnumber", 1)
    b = texbuild.compile_tex(tmp_path / route, source, route, include=include_text(V))
    assert b.ok, b.describe()
    code, f, _ = cli_json(b.pdf)
    assert code == 0, f
    checks = {c["name"]: c for c in f["checks"]}
    assert checks["badge"]["status"] == OK and checks["badge"]["detail"].endswith(
        ", linked to https://pith.science/pith/%s" % N), checks["badge"]
    assert checks["qr"]["status"] == OK, checks["qr"]


def test_signed_pdf_with_library_keyring(papers):
    pdf = papers.get("signed")
    meta = info(pdf)
    assert meta["/PithKeyID"] == "test-key" and meta["/PithSignature"] == papers.sig_hex
    assert meta["/PithVerification"] == "verified"
    for req in (False, True):
        out = verify_pdf(str(pdf), require_signature=req, keyring=papers.ring)
        assert out.kind == "pdf" and out.exit_code == 0, out
        assert statuses(out.outcome.checks) == dict(UNSIGNED_CHECKS, signature=OK)
        assert out.outcome.signature == "verified" and out.outcome.key_id == "test-key"
    # The command line knows only the pinned key: test-key cannot be checked.
    assert verify_pdf(str(pdf)).exit_code == 3
    code, f, err = cli_json(pdf)
    assert code == 3
    assert statuses(f["checks"])["signature"] == ERROR
    assert "unknown key id 'test-key'" in one_error_line(err)


def test_signature_flipped(papers, tmp_path):
    pdf = papers.get("signed")
    for i in (0, 77, 127):
        def flip(m, i=i):
            s = m["/PithSignature"]
            m["/PithSignature"] = s[:i] + ("0" if s[i] != "0" else "1") + s[i + 1:]

        bad = altered(pdf, tmp_path / ("flip%d.pdf" % i), flip)
        out = verify_pdf(str(bad), keyring=papers.ring)
        assert out.exit_code == 1
        assert statuses(out.outcome.checks)["signature"] == FAIL
        assert statuses(out.outcome.checks)["hash"] == OK


def test_real_signature_of_another_record(papers, tmp_path):
    import base64

    assert SIGNED_ELSEWHERE
    for k, sv in enumerate(SIGNED_ELSEWHERE[:3]):
        sig_hex = base64.b64decode(sv["signature_b64"]).hex()

        def put(m, sig_hex=sig_hex):
            m.update({"/PithKeyID": "pith-v1-2026-05", "/PithSignature": sig_hex,
                      "/PithVerification": "verified"})

        bad = altered(papers.get("pdflatex"), tmp_path / ("other%d.pdf" % k), put)
        code, f, err = cli_json(bad)
        assert code == 1, f
        st = statuses(f["checks"])
        assert st["signature"] == FAIL and st["hash"] == OK and st["derivation"] == OK
        assert "signature: the Ed25519 receipt by pith-v1-2026-05 does not verify" in \
            one_error_line(err)


def test_record_edited(papers, tmp_path):
    def edit(m):
        rec = json.loads(m["/PithRecord"])
        rec["metadata"]["license"] = "http://creativecommons.org/licenses/by/4.0/"
        m["/PithRecord"] = recorded.canonical_bytes(rec).decode("ascii")

    bad = altered(papers.get("pdflatex"), tmp_path / "edited.pdf", edit)
    code, f, err = cli_json(bad)
    assert code == 1
    st = statuses(f["checks"])
    assert st["record"] == OK and st["hash"] == FAIL and st["derivation"] == FAIL
    assert ": hash: canonical_record hashes to " in one_error_line(err)


def test_record_version_edited_with_hash_recomputed(papers, tmp_path):
    """The digest claimed follows the edited record: now the number does not."""
    def edit(m):
        rec = json.loads(m["/PithRecord"])
        rec["source"]["version"] = 2
        m["/PithRecord"] = recorded.canonical_bytes(rec).decode("ascii")
        m["/PithSHA256"] = recorded.sha256_hex(rec)
        m["/PithArXiv"] = "2509.03047v2"

    code, f, _ = cli_json(altered(papers.get("pdflatex"), tmp_path / "v2.pdf", edit))
    assert code == 1
    st = statuses(f["checks"])
    assert st["hash"] == OK and st["derivation"] == FAIL and st["arxiv"] == OK


def test_record_must_be_byte_canonical(papers, tmp_path):
    # Stricter since issue 9: the README promises sha256(PithRecord) = PithSHA256 for the
    # bytes in the PDF, so a re-ordered, indented record (same JSON value, same digest
    # after re-serialisation) now fails, naming the canonical check.
    def reorder(m):
        rec = json.loads(m["/PithRecord"])
        m["/PithRecord"] = json.dumps(dict(reversed(list(rec.items()))), indent=1)

    bad = altered(papers.get("pdflatex"), tmp_path / "reordered.pdf", reorder)
    code, f, err = cli_json(bad)
    assert code == 1 and statuses(f["checks"]) == dict(UNSIGNED_CHECKS, canonical=FAIL)
    assert "PithRecord is not byte-canonical JSON (other formatting" in err


def test_number_swapped(papers, tmp_path):
    def swap(m):
        m["/PithNumber"] = "pith:%d:%s" % (V2["year"], N2)
        m["/PithURL"] = "https://pith.science/pith/" + N2

    code, f, err = cli_json(altered(papers.get("pdflatex"), tmp_path / "swap.pdf", swap))
    assert code == 1 and f["number"] == N2
    st = statuses(f["checks"])
    assert st["hash"] == OK and st["derivation"] == FAIL and st["url"] == OK
    assert st["badge"] == FAIL  # page 1 still shows N
    assert "derivation: base32(sha256)[:26] = %s, not %s" % (N, N2) in one_error_line(err)


def test_only_the_url_or_arxiv_changed(papers, tmp_path):
    pdf = papers.get("pdflatex")
    bad = altered(pdf, tmp_path / "url.pdf",
                  lambda m: m.update({"/PithURL": "https://example.org/pith/" + N}))
    code, f, _ = cli_json(bad)
    assert code == 1 and statuses(f["checks"]) == dict(UNSIGNED_CHECKS, url=FAIL)
    bad = altered(pdf, tmp_path / "arxiv.pdf", lambda m: m.update({"/PithArXiv": "2509.03047v2"}))
    code, f, _ = cli_json(bad)
    assert code == 1 and statuses(f["checks"]) == dict(UNSIGNED_CHECKS, arxiv=FAIL)


def test_metadata_of_another_record_under_the_original_badge(papers, tmp_path):
    def replace(m):
        for k in list(m):
            if k.startswith("/Pith"):
                del m[k]
        m.update(claims(V2))

    code, f, err = cli_json(altered(papers.get("pdflatex"), tmp_path / "other.pdf", replace))
    assert code == 1 and f["number"] == N2
    assert statuses(f["checks"]) == dict(UNSIGNED_CHECKS, badge=FAIL,
                                         **{"pith-title": WARN, "title": WARN})
    line = one_error_line(err)
    assert "badge: page 1 shows pith:2025:%s (as PDFium" % N in line, line
    assert line.endswith("but the metadata says pith:%d:%s" % (V2["year"], N2)), line


def test_verification_state_must_match_the_signature(papers, tmp_path):
    bad = altered(papers.get("pdflatex"), tmp_path / "claims-signed.pdf",
                  lambda m: m.update({"/PithVerification": "verified"}))
    code, f, _ = cli_json(bad)
    assert code == 1 and statuses(f["checks"]) == dict(UNSIGNED_CHECKS, state=FAIL)
    bad = altered(papers.get("signed"), tmp_path / "claims-unsigned.pdf",
                  lambda m: m.update({"/PithVerification": "verified-unsigned"}))
    out = verify_pdf(str(bad), keyring=papers.ring)
    assert out.exit_code == 1
    assert statuses(out.outcome.checks) == dict(UNSIGNED_CHECKS, signature=OK, state=FAIL)


def test_hidden_badge_warns(papers):
    r = cli("verify", papers.get("hide"))
    assert r.returncode == 0 and r.stderr == ""
    assert "WARN  badge       page 1 shows no pith:NUMBER badge" in r.stdout
    code, f, _ = cli_json(papers.get("hide"))
    assert statuses(f["checks"]) == dict(UNSIGNED_CHECKS, badge=WARN)


# -- PDFs that cannot be checked ------------------------------------------------------------

def test_anonymous_pdf_says_why_it_carries_nothing(papers):
    # An author who built the double-blind version and runs verify on it must learn that
    # carrying nothing is what anonymous does, not only "was it compiled with pith?".
    r = cli("verify", papers.get("anonymous"))
    assert r.returncode == 3
    assert r.stdout.startswith("ERROR pdf         the PDF carries no Pith metadata")
    line = one_error_line(r.stderr)
    assert "was it compiled with \\usepackage{pith}?" in line
    assert "anonymous option" in line and "review mode" in line  # not only the file name


def test_all_pith_keys_removed(papers, tmp_path):
    def strip(m):
        for k in list(m):
            if k.startswith("/Pith"):
                del m[k]

    bad = altered(papers.get("pdflatex"), tmp_path / "stripped.pdf", strip)
    r = cli("verify", bad)
    assert r.returncode == 3
    assert r.stdout.startswith("ERROR pdf         the PDF carries no Pith metadata")
    assert "was it compiled with \\usepackage{pith}?" in one_error_line(r.stderr)
    code, f, _ = cli_json(bad)
    assert code == 3 and statuses(f["checks"]) == {"pdf": ERROR}


def test_compiled_without_include(papers):
    pdf = papers.get("noinclude")
    assert info(pdf)["/PithVerification"] == "unverified"
    r = cli("verify", pdf)
    assert r.returncode == 3
    line = one_error_line(r.stderr)
    assert "PithVerification is unverified" in line and "run pith-tex fetch and recompile" in line
    code, f, _ = cli_json(pdf)
    assert code == 3 and f["number"] == N and statuses(f["checks"]) == {"pdf": ERROR}


@pytest.mark.parametrize("case", ["no record", "no sha", "record not json", "bad state",
                                  "record not a dict"])
def test_malformed_metadata(papers, tmp_path, case):
    change = {
        "no record": lambda m: m.pop("/PithRecord"),
        "no sha": lambda m: m.pop("/PithSHA256"),
        "record not json": lambda m: m.update({"/PithRecord": m["/PithRecord"][:-1]}),
        "bad state": lambda m: m.update({"/PithVerification": "trust-me"}),
        "record not a dict": lambda m: m.update({"/PithRecord": "[1, 2]"}),
    }[case]
    bad = altered(papers.get("pdflatex"), tmp_path / "bad.pdf", change)
    code, f, err = cli_json(bad)
    assert code == 3, f
    one_error_line(err)
    if case == "no record":
        assert "no PithRecord" in err and "run pith-tex fetch and recompile" in err
    if case == "no sha":
        assert "lacks the Pith key PithSHA256" in err
    if case == "record not a dict":
        assert "PithRecord is not a JSON object" in err


def test_not_a_pdf_truncated_encrypted(papers, tmp_path):
    from pypdf import PdfWriter

    good = papers.get("pdflatex").read_bytes()
    fake = tmp_path / "x.pdf"
    fake.write_bytes(b"<html>not a pdf</html>\n")
    half = tmp_path / "half.pdf"
    half.write_bytes(good[: len(good) // 2])
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    enc = tmp_path / "enc.pdf"
    w = PdfWriter(clone_from=str(papers.get("pdflatex")))
    w.encrypt("owner-and-user", algorithm="RC4-128")
    with open(enc, "wb") as f:
        w.write(f)
    for path, why in [(fake, "not a PDF"), (half, "truncated"), (empty, "not a PDF"),
                      (enc, "encrypted")]:
        r = cli("verify", path)
        assert r.returncode == 3, (path, r.stdout, r.stderr)
        assert why in one_error_line(r.stderr), r.stderr
        assert "Traceback" not in r.stderr
        code, f, _ = cli_json(path)
        assert code == 3 and f["kind"] == "pdf" and f["checks"] == [] and why in f["error"]


def test_garbage_inside_a_pdf_is_could_not_check(tmp_path, papers):
    good = papers.get("pdflatex").read_bytes()
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(good[:9] + b"\x00" * (len(good) - 20) + good[-11:])
    r = cli("verify", broken)
    assert r.returncode == 3 and "Traceback" not in r.stderr
    one_error_line(r.stderr)


# -- dispatch: suffix, magic, several paths ----------------------------------------------

def test_pdf_by_another_name_and_mixed_paths(papers, tmp_path, mirror):
    pdf = papers.get("pdflatex")
    renamed = tmp_path / "paper.bin"
    shutil.copy(pdf, renamed)
    upper = tmp_path / "PAPER.PDF"
    shutil.copy(pdf, upper)
    for p in (renamed, upper):
        code, f, _ = cli_json(p)
        assert code == 0 and f["kind"] == "pdf"
    rec = os.path.join(mirror, "pith", N + ".json")
    tex = tmp_path / "pith-number.tex"
    tex.write_text(include_text(V), encoding="ascii")
    stripped = altered(pdf, tmp_path / "stripped.pdf", lambda m: m.pop("/PithRecord"))
    r = cli("verify", rec, pdf, renamed, tex)
    assert r.returncode == 0, r.stdout + r.stderr
    # unsigned is the state checked, an OK in every command (docs/verification.md); the
    # QR code these PDFs do not draw was not asked for (no warning, issue 28)
    assert r.stdout.splitlines() == [
        "OK    %s  %s" % (rec, N),
        "OK    %s  %s" % (pdf, N),
        "OK    %s  %s" % (renamed, N),
        "OK    %s  %s" % (tex, N),
        "4 files: 4 verified, 0 failed, 0 could not be checked"]
    r = cli("verify", rec, pdf, stripped)
    assert r.returncode == 3
    assert r.stdout.splitlines()[2].startswith("ERROR %s  pdf: the PDF has no PithRecord"
                                               % stripped)
    r = cli("verify", "--json", "--require-signature", rec, pdf)
    doc = json.loads(r.stdout)
    assert r.returncode == 1 and [f["kind"] for f in doc["files"]] == ["record", "pdf"]
    assert [f["exit_code"] for f in doc["files"]] == [0, 1]


def test_library_verify_file_dispatches(papers):
    from pith_tex.verify.files import verify_file

    f = verify_file(str(papers.get("pdflatex")))
    assert f.kind == "pdf" and f.exit_code == 0 and f.outcome.number == N


# -- without TeX: pypdf-made PDFs and the badge finder -----------------------------------

def test_blank_page_pdf_with_the_contract_keys(tmp_path):
    pdf = blank_pdf(tmp_path / "blank.pdf", claims(V))
    out = verify_pdf(str(pdf))
    assert out.exit_code == 0
    # no PithTitle among these keys, and no text on the page: the title is not checked
    assert statuses(out.outcome.checks) == dict(UNSIGNED_CHECKS, badge=WARN,
                                                **{"pith-title": WARN, "title": WARN})
    for v in VECTORS:  # every real record with a record verifies the same way
        out = verify_pdf(str(blank_pdf(tmp_path / (v["number"] + ".pdf"), claims(v))))
        assert out.exit_code == 0 and out.outcome.number == v["number"], out


def test_blank_page_pdf_signed_with_a_throwaway_key(tmp_path, throwaway_key):
    priv, raw = throwaway_key
    sig = priv.sign(bytes.fromhex(V["canonical_hash"])).hex()
    pdf = blank_pdf(tmp_path / "s.pdf", claims(V, "test-key", sig))
    out = verify_pdf(str(pdf), require_signature=True, keyring=Keyring({"test-key": raw}))
    assert out.exit_code == 0 and statuses(out.outcome.checks)["signature"] == OK
    other = priv.sign(bytes.fromhex(V2["canonical_hash"])).hex()
    pdf = blank_pdf(tmp_path / "o.pdf", claims(V, "test-key", other))
    out = verify_pdf(str(pdf), keyring=Keyring({"test-key": raw}))
    assert out.exit_code == 1 and statuses(out.outcome.checks)["signature"] == FAIL


@pytest.mark.parametrize("text, found", [
    ("pith:2025:%s" % N, [(2025, N)]),
    ("pith:%s" % N, [(None, N)]),
    ("Title\npith:2025:%s \u221a hash verified\nAbstract" % N, [(2025, N)]),
    ("pith:2025:%s\n%s" % (N[:13], N[13:]), [(2025, N)]),  # split by the extractor
    ("p i t h : 2 0 2 5 : " + " ".join(N), [(2025, N)]),
    ("pith:2025:%s and pith:%s" % (N, N2), [(2025, N), (None, N2)]),
    ("pith:2025:%s" % N.lower(), []),
    ("pith:%s" % N[:8], []),  # a short form is not a badge
    ("no badge here", []),
])
def test_visible_numbers(text, found):
    assert visible_numbers(text) == found


# -- XMP (under \DocumentMetadata pith.sty also writes its values into the XMP packet) ----

def test_xmp_agrees_with_info(papers):
    code, f, _ = cli_json(papers.get("docmeta"))
    assert code == 0 and statuses(f["checks"])["xmp"] == "ok"
    out = verify_pdf(str(papers.get("docmeta-signed")), keyring=papers.ring)
    assert out.exit_code == 0 and statuses(out.outcome.checks)["xmp"] == OK
    # no \DocumentMetadata, no XMP packet: no xmp line at all
    assert "xmp" not in statuses(verify_pdf(str(papers.get("pdflatex"))).outcome.checks)


@pytest.mark.parametrize("edit, prop", [
    # another record in the XMP than in the Info dictionary
    (lambda x: x.replace(b'"version":1}', b'"version":2}'), "record"),
    (lambda x: x.replace(b"<pith:sha256>77a6", b"<pith:sha256>88a6"), "sha256"),
    (lambda x: x.replace(b"verified-unsigned</pith:verification>",
                         b"verified</pith:verification>"), "verification"),
    (lambda x: x.replace(b"<pith:number>pith:2025:", b"<pith:number>pith:2024:"), "number"),
])
def test_xmp_that_disagrees_fails(papers, tmp_path, edit, prop):
    src = papers.get("docmeta")
    dst = xmp_edited(src, tmp_path / "x.pdf", edit)
    code, f, err = cli_json(dst)
    assert code == 1, f
    assert statuses(f["checks"])["xmp"] == "fail"
    assert "pith:%s" % prop in [c for c in f["checks"] if c["name"] == "xmp"][0]["detail"]


def test_xmp_missing_a_property_fails(papers, tmp_path):
    dst = xmp_edited(papers.get("docmeta"), tmp_path / "x.pdf",
                      lambda x: x.replace(b"<pith:url>", b"<pith:urlx>")
                      .replace(b"</pith:url>", b"</pith:urlx>"))
    code, f, _ = cli_json(dst)
    assert code == 1 and statuses(f["checks"])["xmp"] == "fail"


def test_broken_xmp_could_not_be_checked(papers, tmp_path):
    # Since issue 9 an XMP packet that cannot be parsed is "could not check" (exit 3), not
    # a failure: nothing in it was shown to disagree, but nothing was checked either.
    dst = xmp_edited(papers.get("docmeta"), tmp_path / "x.pdf",
                      lambda x: x.replace(b"</pith:record>", b"</pith:recor>"))
    code, f, err = cli_json(dst)
    assert code == 3 and statuses(f["checks"])["xmp"] == "error"
    assert "xmp: not checked: the XMP packet is not well-formed XML" in err
