"""Start-up cost: ``pith-tex --help`` vs ``python3 -c pass`` (same interpreter, same run).

Target: ``pith-tex --help`` under 150 ms here.  When it is missed, the note lists the
slowest imports (``python -X importtime``) so the cause is visible without re-running.
"""
from __future__ import annotations

import sys

import benchlib as B

RUNS = 21


def run():
    pt = B.pith_tex_cmd()
    t_pass, t_help = B.interleaved_medians([[sys.executable, "-c", "pass"], pt + ["--help"]], n=RUNS)
    row = dict(name="pith-tex --help", value=B.ms(t_help), unit="ms", baseline=B.ms(t_pass),
               baseline_name="python3 -c pass", target="< 150 ms", met=B.ms(t_help) < 150,
               note=f"start-up over bare python: {B.ms(t_help - t_pass):.0f} ms; slowest imports: "
                    + ", ".join(B.import_top(["--help"], k=6)))
    return [row]
