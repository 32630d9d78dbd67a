"""``pith-tex verify ARCHIVE.tar`` at archive scale (issue 31, item 5).

Two tar archives of distinct honest PDFs (tests/support/archives.py, as the tests build
them): ``PITH_BENCH_PDFS`` (default 200) papers with pith's badge, each with its own genuine
record, and as many plain articles without pith (most of arXiv).  Measured as CPU time
(user + system of every process: the command, its workers, the engines' children, the
poppler tools; all of them are waited for, so all are counted):

1. PDFs per CPU-second, ``--jobs 1`` and ``--jobs 2``, each archive (the pith archive
   also holds the tests' hostile members: a symlink, a hard link, ``../x.pdf`` and a
   member past the 256 MiB cap, each a line refused unread);
2. the Dask path (``bench/dask_verify.py``: a LocalCluster of 2 process workers, one
   thread each, started and stopped in the run, and ``pith_tex.scale.verify_archives``)
   against ``--jobs 2`` on the pith archive: its CPU overhead, cluster start included;
3. that the three give the same lines (sorted: Dask's come in the order tasks end).

Wall times are printed beside them (2 shared cores: information, not a measure).
docs/perf.md extrapolates the figures to arXiv's archive, labelled as such.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchlib as B

N_PDFS = int(os.environ.get("PITH_BENCH_PDFS", "200"))
RUNS = int(os.environ.get("PITH_BENCH_SCALE_RUNS", "1"))
DASK = [sys.executable, str(Path(__file__).resolve().parent / "dask_verify.py")]


def _cpu_wall(cmd, lines_wanted, ok=(0, 3)):
    """Median (CPU seconds of every process the command ran, wall seconds) of RUNS runs,
    and the lines the last run wrote, sorted."""
    cpus, walls = [], []
    for _ in range(RUNS):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=B.bench_env())
        walls.append(time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode not in ok:
            raise RuntimeError("%r exited %d: %s" % (cmd, p.returncode, p.stderr[-2000:]))
        lines = p.stdout.count("\n")
        if lines != lines_wanted:
            raise RuntimeError("%r wrote %d lines, not %d: %s" % (cmd, lines, lines_wanted,
                                                                    p.stderr[-2000:]))
        cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return (sorted(cpus)[len(cpus) // 2], sorted(walls)[len(walls) // 2],
            sorted((json.loads(line) for line in p.stdout.splitlines()),
                   key=lambda x: (x["archive"], x["member"])))


def _rate_row(name: str, cpu: float, wall: float, base_cpu: float = None) -> dict:
    """PDFs per CPU-second (the hostile members' lines cost nothing: not counted)."""
    row = dict(name=name, value=N_PDFS / cpu, unit="PDFs/CPU-s", higher_is_better=True,
               note="%.1f ms CPU a PDF; wall %.1f s for %d PDFs (%.1f PDFs/s)"
                    % (1000 * cpu / N_PDFS, wall, N_PDFS, N_PDFS / wall))
    if base_cpu is not None:
        row.update(baseline=N_PDFS / base_cpu, baseline_name="--jobs 1, same archive")
    return row


def run():
    import archives

    pt = B.pith_tex_cmd()
    rows = []
    with tempfile.TemporaryDirectory(prefix="pith-bench-scale-") as tmp:
        tmp = Path(tmp)
        pith = archives.distinct_pdfs(tmp / "pith", N_PDFS, 0)
        plain = archives.distinct_pdfs(tmp / "plain", 0, N_PDFS)
        tars, lines = {}, {}
        for label, pdfs in (("with pith", pith), ("without pith", plain)):
            tars[label] = tmp / ("arXiv_pdf_%s.tar" % label.replace(" ", "_"))
            # the pith archive also holds the hostile members (issue 31's done-when)
            names, bad = archives.write_archive(tars[label], pdfs, hostile=label == "with pith",
                                                oversized=label == "with pith")
            lines[label] = len(names) + len(bad)
        B.run_once(pt + ["verify", "--json", "--jobs", "1", str(tars["without pith"])],
                   ok_codes=(0, 3))  # the page cache and byte-compiled modules warm
        for label, tar in tars.items():
            one = _cpu_wall(pt + ["verify", "--json", "--jobs", "1", str(tar)], lines[label])
            two = _cpu_wall(pt + ["verify", "--json", "--jobs", "2", str(tar)], lines[label])
            rows.append(_rate_row("verify --jobs 1, %d distinct PDFs %s in a tar"
                                  % (N_PDFS, label), *one[:2]))
            rows.append(_rate_row("verify --jobs 2, %d distinct PDFs %s in a tar"
                                  % (N_PDFS, label), *two[:2], base_cpu=one[0]))
            if label == "with pith":
                dask = _cpu_wall(DASK + ["2", str(tar)], lines[label])
                same = one[2] == two[2] == dask[2]
                rows.append(dict(
                    name="the same JSON line per member through --jobs 1, --jobs 2 and Dask "
                         "(%d PDFs with pith, a symlink, a hard link, ../x.pdf, 256 MiB + 1)"
                         % N_PDFS, value=len(one[2]), unit="lines", target="identical",
                         met=same))
                rows.append(dict(
                    name="Dask LocalCluster (2 process workers), %d PDFs with pith, CPU"
                         % N_PDFS, value=dask[0], unit="s", baseline=two[0],
                    baseline_name="verify --jobs 2, same tar",
                    note="Dask's CPU overhead over --jobs 2: %+.1f%% (%+.1f s, cluster start "
                         "and stop included); wall %.1f s vs %.1f s"
                         % (100 * (dask[0] / two[0] - 1), dask[0] - two[0], dask[1], two[1])))
    return rows
