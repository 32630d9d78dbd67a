"""fetch binds the number to the paper: the paper's title (found wherever the author
put it, in the paper's main file) against the record's, over real HTTP from the local
server; on another paper's number fetch fails (exit 1) and writes nothing."""

from __future__ import annotations

import pytest

import recorded as R
import server as S
from standins import PLOS_LIKE

FLASH = "O6TNNA4XHFGPSALGBT7UWDA2Z3"  # FlashRecovery: Fast and Low-Cost Recovery ...
KAM = "OZSQU6PZ6STJ7LG5TIDHTNXEHD"  # KAM \`{a} la R


def _serve(server, number):
    v = R.vector(number)
    server.record(number, S.json_reply(R.resolver_json(v)))
    server.bundle(number, S.json_reply(R.bundle_json(v)))
    return v


def _main(workdir, title, name="main.tex", extra=""):
    (workdir / name).write_text(
        "\\documentclass{article}\n\\usepackage{pith}\n\\pithnumber{%s}\n%s"
        "\\begin{document}\n\\title{%s}\n\\maketitle\n\\end{document}\n"
        % (FLASH, extra, title), encoding="utf-8")


def _fetch(cli, server, *args):
    return cli("fetch", "--resolver", "http://127.0.0.1:%d" % server.port, "-o", "include.tex",
               *args)


def _line(r, name="title"):
    (line,) = [ln for ln in r.out.splitlines() if ln.split()[1:2] == [name]]
    return line


def test_the_papers_own_title_after_begin_document(cli, server, workdir):
    _serve(server, FLASH)
    _main(workdir, "FlashRecovery: Fast and Low-Cost Recovery from Failures\\\\ for "
                   "Large-Scale Training of LLMs\\thanks{Work done at home.}")
    r = _fetch(cli, server, FLASH)
    assert r.rc == 0, r
    assert _line(r).startswith("OK    title       same: main.tex's \\title is the record's")
    assert "title_canon_sha256" in _line(r)  # the strongest same: its hash
    assert (workdir / "include.tex").read_bytes() != S.OLD_INCLUDE


def test_macro_and_punctuation_are_same_up_to_formatting(cli, server, workdir):
    _serve(server, FLASH)
    _main(workdir, "\\flash---Fast and Low-Cost Recovery from Failures for Large-Scale "
                   "Training of \\textsc{LLMs}",
          extra="\\newcommand{\\flash}{\\textsf{FlashRecovery}}\n")
    r = _fetch(cli, server, FLASH)
    assert r.rc == 0, r
    line = _line(r)
    assert line.startswith("OK    title       same up to formatting:"), line
    assert "'-' where the record's title has ':'" in line


def test_another_papers_number_fails_and_writes_nothing(cli, server, workdir):
    v = _serve(server, KAM)
    _main(workdir, "FlashRecovery: Fast and Low-Cost Recovery from Failures for "
                   "Large-Scale Training of LLMs")
    r = _fetch(cli, server, KAM)
    assert r.rc == 1, r
    assert _line(r).startswith("FAIL  title       different: main.tex's \\title is "
                               "'FlashRecovery: Fast")
    err = r.error_line()
    assert "the number is for '%s'" % v["title"] in err
    assert "--accept-title" in err and "include.tex was left untouched" in err
    assert (workdir / "include.tex").read_bytes() == S.OLD_INCLUDE
    assert not (workdir / "pith.sty").exists()  # nothing written at all


def test_a_retitled_paper_with_accept_title(cli, server, workdir):
    _serve(server, FLASH)
    _main(workdir, "Recovering Large Training Jobs in Seconds")
    r = _fetch(cli, server, FLASH, "--accept-title")
    assert r.rc == 0, r
    assert _line(r).startswith("OK    title       different, accepted (fetch --accept-title)")
    text = (workdir / "include.tex").read_text()
    assert "% title accepted: the paper's title differs from the record's" in text
    # the accepted title travels in the include (pith.sty puts it in the PDF)
    from pith_tex.include.include import parse_include

    assert parse_include(text).accepted_title == "Recovering Large Training Jobs in Seconds"
    # and pith-tex reads the include back as valid
    r = cli("verify", "include.tex")
    assert r.rc == 0, r
    # the same paper without --accept-title: refused again, the accepted include kept
    before = (workdir / "include.tex").read_bytes()
    r = _fetch(cli, server, FLASH)
    assert r.rc == 1 and (workdir / "include.tex").read_bytes() == before, r


def test_accept_title_on_the_papers_own_title_writes_no_note(cli, server, workdir):
    _serve(server, FLASH)
    _main(workdir, "FlashRecovery: Fast and Low-Cost Recovery from Failures for "
                   "Large-Scale Training of LLMs")
    r = _fetch(cli, server, FLASH, "--accept-title")
    assert r.rc == 0, r
    assert "title accepted" not in (workdir / "include.tex").read_text()


def test_a_cover_letter_beside_the_paper(cli, server, workdir):
    _serve(server, KAM)
    _main(workdir, "FlashRecovery: Fast and Low-Cost Recovery from Failures for "
                   "Large-Scale Training of LLMs")
    (workdir / "cover.tex").write_text("\\documentclass{letter}\n\\begin{document}\n"
                                       "\\begin{letter}{Editor}KAM \\`{a} la R\\end{letter}\n"
                                       "\\end{document}\n")
    r = _fetch(cli, server, KAM)  # the paper is main.tex (its \pithnumber), not the letter
    assert r.rc == 1 and "main.tex's \\title" in _line(r), r
    r = _fetch(cli, server, KAM, "--main", "cover.tex")  # named: the letter has no title
    assert r.rc == 1, r
    assert _line(r).startswith("FAIL  title       not found: no title found in cover.tex")
    assert (workdir / "include.tex").read_bytes() == S.OLD_INCLUDE


def test_two_papers_need_main(cli, server, workdir):
    _serve(server, FLASH)
    _main(workdir, "FlashRecovery: Fast and Low-Cost Recovery from Failures for "
                   "Large-Scale Training of LLMs")
    _main(workdir, "KAM \\`{a} la R", name="other.tex")
    r = _fetch(cli, server, FLASH)
    assert r.rc == 0, r
    line = _line(r)
    assert line.startswith("WARN  title       not compared: several main files")
    assert "pith-tex fetch --main FILE" in line
    r = _fetch(cli, server, FLASH, "--main", "other.tex")
    assert r.rc == 1, r
    r = _fetch(cli, server, FLASH, "--main", "main.tex")
    assert r.rc == 0 and _line(r).startswith("OK    title       same"), r


def test_a_bad_main_is_a_usage_error_before_the_network(cli, server, workdir):
    _serve(server, FLASH)
    r = _fetch(cli, server, FLASH, "--main", "nothere.tex")
    assert r.rc == 2 and "--main nothere.tex" in r.error_line(), r
    assert server.hits("/pith/%s.json" % FLASH) == []


# A paper without \title: the title forms real templates use (stand-ins of their own).
FLASH_TITLE = ("FlashRecovery: Fast and Low-Cost Recovery from Failures for Large-Scale "
               "Training of LLMs")


def _plos(workdir, number, title, preamble=""):
    (workdir / "main.tex").write_text(PLOS_LIKE % {"number": number, "title": title,
                                                   "preamble": preamble}, encoding="utf-8")


@pytest.mark.parametrize("form", ["macro", "block"])
def test_a_title_macro_in_a_flushleft_block(cli, server, workdir, form):
    # PLOS/bioRxiv: no \title; the title is a macro (or typed) set in \Large in a block
    v = _serve(server, KAM)
    if form == "macro":
        _plos(workdir, KAM, "\\Title", preamble="\\newcommand{\\Title}{%s}" % FLASH_TITLE)
        what = "main.tex's \\Title (a title macro it typesets)"
    else:
        _plos(workdir, KAM, FLASH_TITLE)
        what = "main.tex's title block (text set in \\Large or larger"
    r = _fetch(cli, server, KAM)  # another paper's number: refused, nothing written
    assert r.rc == 1, r
    assert _line(r).startswith("FAIL  title       different: %s" % what), _line(r)
    assert "the number is for '%s'" % v["title"] in r.error_line()
    assert (workdir / "include.tex").read_bytes() == S.OLD_INCLUDE
    _serve(server, FLASH)
    r = _fetch(cli, server, FLASH)  # its own number: the same title
    assert r.rc == 0, r
    assert _line(r).startswith("OK    title       same"), _line(r)


def test_a_papertitle_macro_typeset_in_a_centred_block(cli, server, workdir):
    _serve(server, FLASH)
    (workdir / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{pith}\n\\pithnumber{%s}\n"
        "\\newcommand{\\papertitle}{%s}\n\\begin{document}\n\\begin{center}\n"
        "{\\huge The Journal of Stand-ins}\\\\[1ex]\n{\\LARGE\\bfseries \\papertitle\\par}\n"
        "\\end{center}\n\\section{Introduction}\n\\end{document}\n" % (FLASH, FLASH_TITLE))
    r = _fetch(cli, server, FLASH)
    assert r.rc == 0, r
    assert _line(r).startswith("OK    title       same: main.tex's \\papertitle"), _line(r)


def test_a_title_in_a_set_size_block_after_a_journal_name(cli, server, workdir):
    # the first large text is the journal's name; the title is the next block
    _serve(server, FLASH)
    (workdir / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{pith}\n\\pithnumber{%s}\n"
        "\\begin{document}\n\\begin{center}\n{\\huge The Journal of Stand-ins}\\\\[1ex]\n"
        "\\LARGE\\bfseries %s\\\\\n\\large Ann Author\n\\end{center}\n"
        "\\begin{abstract}x\\end{abstract}\n\\end{document}\n" % (FLASH, FLASH_TITLE))
    r = _fetch(cli, server, FLASH)
    assert r.rc == 0, r
    assert _line(r).startswith("OK    title       same"), _line(r)


def test_no_title_in_any_form_is_refused_unless_accepted(cli, server, workdir):
    _serve(server, KAM)
    (workdir / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{pith}\n\\pithnumber{%s}\n"
        "\\begin{document}\n\\noindent\\textbf{%s}\n\nText.\n\\end{document}\n"
        % (KAM, FLASH_TITLE))
    r = _fetch(cli, server, KAM)
    assert r.rc == 1, r
    line = _line(r)
    assert line.startswith("FAIL  title       not found: no title found in main.tex"), line
    assert "pith-tex fetch --accept-title" in line and "\\title{...}" in line
    assert (workdir / "include.tex").read_bytes() == S.OLD_INCLUDE
    r = _fetch(cli, server, KAM, "--accept-title")  # the author's explicit word
    assert r.rc == 0, r
    assert _line(r).startswith("WARN  title       not compared: no title found in main.tex")
    assert "check and verify compare the title page 1 of the compiled PDF" in _line(r)
    from pith_tex.include.include import parse_include

    data = parse_include((workdir / "include.tex").read_text())
    assert data.title_accepted and data.accepted_title is None
