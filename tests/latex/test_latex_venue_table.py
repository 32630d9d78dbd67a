"""One venue table: the review switches pith.sty reads are the rows of ``\\c__pith_venues_tl``
in pith.dtx, which both of pith.sty's paths read (the expl3 code and the LaTeXML path).
What is written elsewhere must follow it: the Perl binding (latex/pith.sty.ltxml) reads
every switch of the table, and docs/badge.md's table ("Anonymous") has a row for each
with the same sense.  The behaviour is tested by the anonymous l3build test,
test_latex_badge.py's venues and test_latex_html_anon.py (raw read and binding)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parents[2]


def venue_rows() -> List[Tuple[str, str, str, str]]:
    """(SWITCH, WHEN, LABEL, LATEXML) of each row of pith.dtx's table, in order."""
    dtx = (ROOT / "latex" / "pith.dtx").read_text(encoding="ascii")
    body = re.search(r"^\\def\\c_@@_venues_tl\{%\n(.*?)^\}$", dtx, re.S | re.M)
    assert body, "no \\c_@@_venues_tl in pith.dtx"
    lines = [line for line in body.group(1).splitlines() if not line.startswith("%")]
    rows = re.findall(r"^  \{([^{}]*)\}\{([^{}]*)\}\{([^{}]*)\}\{(.*)\}%$", "\n".join(lines),
                      re.M)
    assert len(rows) == len(lines), "a row not read"
    return rows


def test_the_table_is_read_by_both_paths_of_the_generated_pith_sty() -> None:
    sty = (ROOT / "latex" / "pith.sty").read_text(encoding="ascii")
    tex, latexml = sty.split("\n\\file_input_stop:\n!\n")
    top = tex[:tex.index("\\__pith_lx_if")]
    assert "\\def\\c__pith_venues_tl{" in top  # where LaTeXML's raw read sees it too
    assert "\\c__pith_venues_tl" in tex[len(top):] and "\\c__pith_venues_tl" in latexml
    rows = venue_rows()
    assert len(rows) >= 20
    kinds = {w for _, w, _, _ in rows} - {"true", "false"}
    for kind in kinds:  # every kind has its expl3 code
        assert "\\__pith_venue_%s:nnn" % kind in tex, kind
    # the review switches are read nowhere else in the TeX part
    for switch, _, _, _ in rows:
        assert not re.search(r"\\__pith_if_switch:nTFU \{ %s \}" % re.escape(switch), tex), \
            switch


#: Switches of the table the Perl binding does not read (none: elsarticle's double-blind
#: mode was the last, its review copy showed the badge with the binding).  Stays empty.
NOT_IN_BINDING: set = set()


def test_the_perl_binding_reads_every_switch() -> None:
    """The binding (generated from pith.dtx too) carries the table's rows, the same lines,
    and reads the one-switch rows from them; the others by name."""
    perl = (ROOT / "latex" / "pith.sty.ltxml").read_text(encoding="utf-8")
    table = re.search(r"^my \$pith_venue_table = <<'PITH_VENUES';\n(.*?)^PITH_VENUES$", perl,
                      re.S | re.M)
    assert table, "the binding carries no venue table"
    rows = venue_rows()
    assert table.group(1).splitlines() == [
        "  {%s}{%s}{%s}{%s}%%" % row for row in rows]
    code = perl[perl.index("sub pith_venue_anonymous"):perl.index("DefPrimitive('\\pith@endpreamble'")]
    assert "foreach my $row (pith_venue_rows())" in code
    named = {s for s, w, _, fb in rows if w in ("true", "false", "icml") and fb == ""}
    named |= set(re.findall(r"pith_switch\('([^']+)'\)", code))
    named |= {w for q in re.findall(r"qw\(([^)]*)\)", code) for w in q.split()}
    named |= set(re.findall(r"IsDefined\('\\([^']+)'\)", code))
    named |= set(re.findall(r"\$classopt\{(\w+)\}", code))
    missing = [s for s, w, _, _ in rows
               if w not in ("cameraready", "aaai") and s not in named | NOT_IN_BINDING]
    # Interspeech 2026's \ifcameraready and AAAI (by its packages' names) are read in
    # Perl otherwise or not at all.
    assert not missing, "switches of pith.dtx's table the binding does not read: %s" % missing


def test_docs_badge_md_has_a_row_for_each_switch_with_its_sense() -> None:
    text = (ROOT / "docs" / "badge.md").read_text(encoding="utf-8")
    table = re.search(r"^\| venue \| switch read \| anonymous when \|\n\|---.*?\n\n", text,
                      re.S | re.M)
    assert table, "no venue table in docs/badge.md"
    lines = [line.split(" | ") for line in table.group(0).splitlines()[2:]
             if line.startswith("|")]
    problems = []
    for switch, when, _label, _ in venue_rows():
        names = ["\\if%s" % switch, "\\%s" % switch, "`%s`" % switch, "`aaaiYY"]
        row = [cells for cells in lines if any(n in cells[1] for n in names[:3])
               or (when == "aaai" and names[3] in cells[1])]
        if not row:
            problems.append((switch, "no row"))
        elif when in ("true", "false") and not re.search(r"\b%s\b" % when, row[0][2]):
            problems.append((switch, when, row[0][2]))
    assert not problems, problems
