"""The include's values are checked by pith.sty as the README's patterns say.

pith.sty checks each value without regular expressions: each character by its class (an
expandable test of its code, mapped over the string with l3str), finds
'.', '/' and the licence's '//' by delimited arguments, and counts lengths.  Here one
pdflatex run decides ~190 values built to sit on the edges of those patterns (lengths
one off, each character kind outside its class, separators doubled or missing, letters
in the wrong case), and every decision must agree with the Python helper's own patterns
(pith_tex.record.canonical, which ``pith-tex fetch`` and ``verify`` use).  The values reach
TeX the way the include's do: read from a file as strings.
"""

from __future__ import annotations

import re
from pathlib import Path

from pith_tex.record import canonical

import texrun

SHA = "77a6d68397394cf901660cff4b0c1acee4353488d83c25f073b40c97fa194f23"


def cross_cats_ok(value: str) -> bool:
    if value == "":
        return True
    cats = value.split(" ")
    return len(cats) <= canonical.MAX_CROSS_CATS and all(
        canonical.CATEGORY_RE.match(c) for c in cats)


PATTERNS = {
    "number": canonical.NUMBER_RE.match,
    "year": canonical.YEAR_RE.match,
    "sha256": canonical.SHA256_RE.match,
    "title-sha256": canonical.SHA256_RE.match,
    "abstract-sha256": canonical.SHA256_RE.match,
    "signature-hex": canonical.SIGNATURE_HEX_RE.match,
    "arxiv-id": canonical.ARXIV_ID_RE.match,
    "arxiv-version": canonical.ARXIV_VERSION_RE.match,
    "key-id": canonical.KEY_ID_RE.match,
    "submitted-at": canonical.SUBMITTED_AT_RE.match,
    "license": canonical.LICENSE_RE.match,
    "primary-cat": canonical.CATEGORY_RE.match,
    "cross-cats": cross_cats_ok,
    "signature": lambda v: v in ("verified", "absent"),
    # the record's title (docs/include-format.md): feff and UTF-16BE, lower-case hex
    "title-utf16": re.compile(r"feff(?:[0-9a-f]{4}){1,1000}\Z").match,
}

VALUES: dict[str, list[str]] = {
    "number": [texrun.NUM, texrun.NUM[:-1], texrun.NUM + "3", "o" + texrun.NUM[1:],
               texrun.NUM[:-1] + "1", texrun.NUM[:-1] + "8", texrun.NUM[:-1] + "M",
               texrun.NUM[:-1] + "m", texrun.NUM[:11] + " " + texrun.NUM[12:], "",
               "M" * 26, "m" * 26, "A" * 24 + "!A", "A" * 24 + "_A", "A" * 24 + "-A",
               "2" * 26, "7" * 26, "A" * 25 + "\u00e9"],
    "year": ["2025", "0000", "9999", "202", "20255", "202a", "20-5", "2O25", " 2025", "mmmm",
             "MMMM", "2 25"],
    "sha256": [SHA, SHA[:-1], SHA + "3", "77A" + SHA[3:], "77g" + SHA[3:], "m" * 64,
               "0" * 64, "f" * 64, "a" * 63 + "-"],
    "title-sha256": [SHA[::-1], SHA[:12] + " " + SHA[13:]],
    "abstract-sha256": [SHA, SHA[:-1] + "G"],
    "signature-hex": ["ab" * 64, "ab" * 63 + "a", "ab" * 64 + "a", "aB" * 64, "m" * 128],
    "arxiv-version": ["1", "9", "10", "1000", "9999", "10000", "0", "01", "a", "1a", "",
                      "-1", "m", "M"],
    "key-id": ["a", "pith-2026", "a" * 64, "a" * 65, "", "A", "a_b", "a.b", "a b", "0-9",
               "---", "m", "M", "z9"],
    "submitted-at": ["2025-09-03T06:19:59Z", "2025-09-03t06:19:59Z", "2025-09-03T06:19:59z",
                     "2025-09-03T06:19:5Z", "2025-09-03 06:19:59Z", "2025-09-03T06-19:59Z",
                     "mmmm-mm-mmTmm:mm:mmZ", "2025-09-03T06:19:59ZZ", "a025-09-03T06:19:59Z"],
    "license": ["", "http://creativecommons.org/licenses/by-nc-nd/4.0/",
                "https://creativecommons.org/licenses/by/4.0/", "http://", "https://",
                "http:", "http", "https:/x", "ftp://x", "http://a b", "http://a_b.c/~x", "http://a_b.c/x", "https://A-Z.09/x_y",
                "http://" + "a" * 200, "http://" + "a" * 201, "https://" + "a" * 200,
                "https://" + "a" * 201, "HTTP://x", "http://x://y", "http:///",
                "http://x//", "https//x", "http:/x", "xhttp://x", "http://X.Y/Z", "http://m",
                "http://a?b", "http://a:80/", "http://a//", "https://a//b", "http:////",
                "https:///x"],
    "primary-cat": ["cs.DC", "cs", "cs.", ".DC", "cs.D.C", "a" * 20, "a" * 21,
                    "a" * 20 + "." + "B" * 20, "a." + "B" * 21, "CS.DC", "cs-x.dc-Y",
                    "cs.D_C", "cs.D1", "c s", "cs..DC", "-", "-.-", "m.M", "a.b.c"],
    "cross-cats": ["", "cs.AI", "cs.AI cs.LG", "cs.AI  cs.LG", "cs.AI,cs.LG",
                   " ".join(["cs.AI"] * 16), " ".join(["cs.AI"] * 17), "cs.A.I",
                   "math.NA hep-th", "X.y", "cs.AI cs."],
    "arxiv-id": ["2509.03047", "2509.3047", "2509.030471", "250.03047", "2509.0304",
                 "2509.03047.1", "hep-th/9901001", "hep-th/990100", "hep-th/99010011",
                 "math.NA/0101001", "math.N/0101001", "math.NAA/0101001", "math.na/0101001",
                 "/0101001", "-/0101001", "hep_th/9901001", "hep-th/9901001/1",
                 "hep-th.NA.X/9901001", "2509/03047", "a.b", "2509.O3047", "HEP-th/9901001",
                 "abc", "", "m/0101001", "a/1234567", "a.BC/1234567", "a.B/1234567",
                 "2509.03047/"],
    "signature": ["verified", "absent", "Verified", "", "none"],
    "title-utf16": ["feff0046", "feff0046006c006100730068", "feff" + "00e4" * 1000,
                    "feff" + "00e4" * 1001, "feff", "feff004", "feff00460", "0046006c",
                    "FEFF0046", "feff004G", "feff004g", "fefe0046", "feffmmmm",
                    "feff0046 006c", "feff-046", "ffeff0046"],
}

# One value a line; \__pith_valid:nnTF is the record's check of one key.
DOC = r"""\documentclass{article}
\usepackage{pith}
\ExplSyntaxOn
\iow_new:N \g__test_iow
\iow_open:Nn \g__test_iow { decisions.txt }
\ior_new:N \g__test_ior
\ior_open:Nn \g__test_ior { values.txt }
\cs_new_protected:Npn \__test_do:w #1 = #2 \q_stop
  {
    \group_begin:
      \str_set:Nn \l_tmpa_str {#2}
      \exp_args:Nnv \__pith_valid:nnTF {#1} { l_tmpa_str }
        { \iow_now:Nn \g__test_iow { T } }
        { \iow_now:Nn \g__test_iow { F } }
    \group_end:
  }
\ior_str_map_inline:Nn \g__test_ior { \__test_do:w #1 \q_stop }
\iow_close:N \g__test_iow
\ExplSyntaxOff
\begin{document}
x
\end{document}
"""


def decide(tmp_path: Path, doc: str, out: str) -> tuple[list[tuple[str, str]], list[str],
                                                         list[str]]:
    """Every value of VALUES as *doc* decides it (T or F a line in *out*), beside the
    decision of the patterns: (pairs, decisions, expected)."""
    pairs = [(key, value) for key, values in VALUES.items() for value in values]
    # TeX drops a line's trailing spaces: no value may end with one.
    assert not [v for _, v in pairs if v.endswith(" ")]
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "values.txt").write_text(
        "".join(f"{k}={v}\n" for k, v in pairs), encoding="utf-8")
    build = texrun.compile_tex(tmp_path, doc, max_runs=1)
    assert build.ok, build.describe()
    decisions = (tmp_path / out).read_text().split()
    assert len(decisions) == len(pairs)
    return pairs, decisions, ["T" if PATTERNS[k](v) else "F" for k, v in pairs]


def test_values_decided_as_the_patterns(tmp_path: Path) -> None:
    pairs, decisions, expected = decide(tmp_path, DOC, "decisions.txt")
    wrong = [(k, v, d) for (k, v), d, e in zip(pairs, decisions, expected) if d != e]
    assert not wrong, f"pith.sty decided against the pattern: {wrong}"
    # Both outcomes occur for every key: the values do probe each pattern's edges.
    for key in VALUES:
        seen = {e for (k, _), e in zip(pairs, expected) if k == key}
        assert seen == {"T", "F"}, key
