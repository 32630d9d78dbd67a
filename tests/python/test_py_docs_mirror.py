"""What examples/mirror/README.md says the commands print for its unsigned record, against
what they print: a new author trying the offline route reads it next to the output."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MIRROR = ROOT / "examples" / "mirror"
N = "O6TNNA4XHFGPSALGBT7UWDA2Z3"


def test_the_mirror_readme_names_the_signature_line_verify_prints(tmp_path: Path) -> None:
    include = tmp_path / "pith-number.tex"
    r = subprocess.run([sys.executable, "-m", "pith_tex", "fetch", "--offline", "--resolver",
                        str(MIRROR), N, "-o", str(include)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(include)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    (signature,) = [c for c in json.loads(r.stdout)["files"][0]["checks"]
                    if c["name"] == "signature"]
    readme = " ".join((MIRROR / "README.md").read_text(encoding="utf-8").split())
    said = re.findall(r"`(OK|WARN|FAIL) signature", readme)
    assert said, "the README no longer says what the signature line is"
    assert set(said) == {signature["status"].upper()}, (said, signature)
