"""Verifying a Paper Citation Record is dominated by interpreter start-up (issue 11).

A record of 200 observations (180 outbound, 20 inbound; shaped like the seed's, every
digest computed with the spec's recipe by ``tests/support/citation_records.py``, about
265 KB) is verified by ``pith-tex verify FILE`` (every observation digest, the context
digest, repeated keys, the paper, the counts).  The baseline is what any check of the file
must pay anyway, measured in the same run: ``python3 -c "import json; json.load(...)"``
(interpreter start-up plus parsing the file).  Target: within 1.5x of it.  Rows also
give ``python3 -c pass`` alone, the CPU times, ``pith-tex citations FILE`` (the verified
report), and the in-process cost of the verification itself.
"""
from __future__ import annotations

import shlex
import sys
import tempfile
import time
from pathlib import Path

import benchlib as B
import citation_records as C  # tests/support (on sys.path through benchlib)

RUNS = 21
N_OUT, N_IN = 180, 20


def _in_process_ms(path: Path, rounds: int = 30) -> float:
    """Median ms of ``files.verify_file`` (read, parse, verify) in this process."""
    from pith_tex.verify.files import verify_file

    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        r = verify_file(str(path))
        times.append(time.perf_counter() - t0)
        assert r.exit_code == 0, r
    times.sort()
    return B.ms(times[len(times) // 2])


def run():
    pt = B.pith_tex_cmd()
    rows = []
    with tempfile.TemporaryDirectory(prefix="pith-bench-cit-") as tmp:
        rec = C.generate(N_OUT, N_IN)
        path = Path(tmp) / "citation-record.json"
        path.write_bytes(C.encode(rec))
        size_kb = path.stat().st_size / 1000
        load = [sys.executable, "-c", "import json; json.load(open(%r, 'rb'))" % str(path)]
        verify = pt + ["verify", str(path)]
        report = pt + ["citations", str(path)]
        out = B.run_once(verify).stdout
        assert "%d of %d observation digests match" % (N_OUT + N_IN, N_OUT + N_IN) in out, out
        B.run_once(report)
        stats = B.interleaved_stats([[sys.executable, "-c", "pass"], load, verify, report],
                                    n=RUNS)
        (t_pass, c_pass), (t_load, c_load), (t_ver, c_ver), (t_rep, c_rep) = stats
        limit = 1.5 * t_load
        row = dict(name="pith-tex verify FILE (200 observations, %.0f KB)" % size_kb,
                   value=B.ms(t_ver), unit="ms", baseline=B.ms(t_load),
                   baseline_name="python3 -c pass + json.load", target="<= 1.5x baseline",
                   met=t_ver <= limit,
                   note="python3 -c pass alone %.1f ms; verification in-process %.2f ms "
                        "(read + parse + every digest)" % (B.ms(t_pass), _in_process_ms(path)))
        if not row["met"]:
            row["note"] += "; slowest imports: " + ", ".join(
                B.import_top(["verify", str(path)], k=6))
        rows.append(row)
        rows.append(dict(name="pith-tex verify FILE (200 observations), CPU time",
                         value=B.ms(c_ver), unit="ms", baseline=B.ms(c_load),
                         baseline_name="python3 -c pass + json.load, CPU",
                         target="<= 1.5x baseline", met=c_ver <= 1.5 * c_load))
        rows.append(dict(name="pith-tex citations FILE (200 observations, report)",
                         value=B.ms(t_rep), unit="ms", baseline=B.ms(t_load),
                         baseline_name="python3 -c pass + json.load",
                         note="imports click for the command line: %s" % shlex.join(report[-2:])))
    return rows
