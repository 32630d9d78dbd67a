"""``pith-tex verify`` against the baselines it must beat.

1. One saved resolver JSON: ``pith-tex verify NUM.json`` (hash + derivation + year) vs the
   Pith page's own recipe run as a shell pipeline in the same run::

       jq -c .canonical_record FILE | python3 -c "...json.dumps(sort_keys...)...sha256..."

   (``python3`` is this interpreter, so neither side pays for a pyenv shim.)  The recipe
   only hashes; pith-tex also checks the derivation and the year.  Target: pith-tex faster.
2. One saved bundle with a receipt: ``pith-tex verify NUM/bundle.json`` (adds the bundle
   cross-check and an Ed25519 verification).  No published vector has both a canonical
   record and a signature, so the receipt is a real signature of *another* record: the
   Ed25519 check runs in full and fails, and the command exits 1 (that is expected here).
3. ``pith-tex verify paper.pdf`` is measured against its floor in ``bench_floor.py``.
4. ``pith-tex verify DIR`` over 10,000 valid resolver JSON records generated from the real
   vectors (``recorded.varied``: a field varied, hash and number recomputed) -> records/s (target >= 20,000/s),
   and the ratio against an in-process loop that only reads, json.loads and hashes the
   same files (no process start-up, no checks: an upper bound, not a competitor).
"""
from __future__ import annotations

import contextlib
import json
import os
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

import benchlib as B
import recorded as R  # tests/support (on sys.path through benchlib): the tests' builders

N_RECORDS = int(os.environ.get("PITH_BENCH_RECORDS", "10000"))
RUNS = int(os.environ.get("PITH_BENCH_RUNS", "21"))
DIR_ROUNDS = 5

RECIPE = ("import sys,hashlib; d=dict((k,v.strip()) for k,_,v in (l.partition(':') for l "
              "in sys.stdin)); print(hashlib.sha256(d['PithRecord'].encode()).hexdigest() == "
              "d['PithSHA256'])")
PDF_TARGET = 3.0  # times the recipe, wall and CPU

RECIPE = ("import sys,json,hashlib; b=json.dumps(json.loads(sys.stdin.read()), sort_keys=True, "
          "separators=(',',':'), ensure_ascii=False).encode(); print(hashlib.sha256(b).hexdigest())")


def generate(vectors, n: int, out: Path) -> None:
    """*n* valid resolver documents named NUM.json, varied from the real ones."""
    full = [v for v in vectors if v.get("canonical_record")]
    for i in range(n):
        v = R.varied(full[i % len(full)], i)
        (out / f"{v['number']}.json").write_bytes(R.encode(R.resolver_json(v)))


def baseline_loop(directory: Path) -> float:
    """Seconds for read + json.loads + canonical sha256 of every file, in-process."""
    paths = sorted(directory.iterdir())
    t0 = time.perf_counter()
    for p in paths:
        R.sha256_hex(json.loads(p.read_bytes())["canonical_record"])
    return time.perf_counter() - t0


@contextlib.contextmanager
def _stdout_to_devnull():
    """Send file descriptor 1 to /dev/null (the CLI writes its report there)."""
    sys.stdout.flush()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def _cli_verify(directory: Path) -> None:
    """``pith-tex verify DIR`` in-process, through the CLI's own entry point."""
    from pith_tex.cli import main

    with _stdout_to_devnull():
        try:
            main(["verify", str(directory)], prog_name="pith-tex")
        except SystemExit as e:
            if e.code not in (0, None):
                raise RuntimeError(f"pith-tex verify {directory} exited {e.code}") from None


def per_record_profile(vectors, tmp: Path, k: int = 6) -> str:
    """Where a record's time goes in ``pith-tex verify DIR``: the CLI's entry point run
    in-process under cProfile, on a directory small enough to stay in one process (a
    large one is split over forked workers, each running this same sequential path,
    which cProfile in the parent would only see waiting)."""
    import cProfile
    import pstats

    small = tmp / "profiled"
    small.mkdir()
    generate(vectors, 2000, small)
    n = len(list(small.iterdir()))

    def timed() -> float:
        t0 = time.perf_counter()
        _cli_verify(small)
        return time.perf_counter() - t0

    per = min(timed() for _ in range(3)) / n * 1e6
    base = min(baseline_loop(small) for _ in range(3)) / n * 1e6
    prof = cProfile.Profile()
    prof.enable()
    _cli_verify(small)
    prof.disable()
    st = pstats.Stats(prof)
    top = sorted(st.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:k]
    items = ", ".join(f"{os.path.basename(f)}:{fn} {tt / n * 1e6:.1f}"
                      for (f, _ln, fn), (_cc, _nc, tt, _ct, _callers) in top)
    return (f"in-process `pith-tex verify DIR` ({n} records, one process) {per:.1f} us/record "
            f"vs loop {base:.1f} us/record; top own time (us/record, under cProfile): {items}")


def run():
    if not B.have("jq"):
        raise RuntimeError("jq is not installed: the page-recipe baseline needs it")
    vectors = R.load_vectors()
    a = next(v for v in vectors if v.get("canonical_record"))
    s = next(v for v in vectors if v.get("signature_b64"))
    pt = B.pith_tex_cmd()
    rows = []
    with tempfile.TemporaryDirectory(prefix="pith-bench-") as tmp:
        tmp = Path(tmp)
        rec = tmp / f"{a['number']}.json"
        rec.write_bytes(R.encode(R.resolver_json(a)))
        bdir = tmp / a["number"]
        bdir.mkdir()
        bundle = bdir / "bundle.json"
        bundle.write_bytes(R.encode(R.bundle_json(a, receipt=R.receipt(s["signature_b64"]))))

        recipe = f"jq -c .canonical_record {shlex.quote(str(rec))} | {shlex.quote(sys.executable)} -c {shlex.quote(RECIPE)}"
        got = B.run_once(recipe).stdout.strip()
        assert got == a["canonical_hash"], f"recipe printed {got!r}"
        out = B.run_once(pt + ["verify", str(rec)])
        assert "derivation" in out.stdout + out.stderr, "verify did not report the derivation check"
        B.run_once(pt + ["verify", str(bundle)], ok_codes=(1,))

        (t_recipe, c_recipe), (t_rec, c_rec), (t_bundle, c_bundle) = B.interleaved_stats(
            [recipe, pt + ["verify", str(rec)], pt + ["verify", str(bundle)]],
            n=RUNS, ok_codes=[(0,), (0,), (1,)],
        )
        for name, path, t, c, what in (
                ("verify NUM.json", rec, t_rec, c_rec, "hash+derivation+year"),
                ("verify NUM/bundle.json", bundle, t_bundle, c_bundle, "+ bundle + Ed25519")):
            row = dict(name=f"pith-tex {name} ({what})", value=B.ms(t), unit="ms",
                       baseline=B.ms(t_recipe), baseline_name="jq | python3 page recipe",
                       target="faster than recipe", met=t < t_recipe)
            if not row["met"]:
                row["note"] = "slowest imports (-X importtime, cumulative): " + ", ".join(
                    B.import_top(["verify", str(path)], k=6))
            rows.append(row)
            rows.append(dict(name=f"pith-tex {name}, CPU time", value=B.ms(c), unit="ms",
                             baseline=B.ms(c_recipe), baseline_name="recipe, both processes",
                             target="less than recipe", met=c < c_recipe))

        d = tmp / "records"
        d.mkdir()
        t0 = time.perf_counter()
        generate(vectors, N_RECORDS, d)
        gen_s = time.perf_counter() - t0
        n = len(list(d.iterdir()))
        assert n == N_RECORDS, f"generated {n} distinct records, wanted {N_RECORDS}"
        B.run_once(pt + ["verify", str(d)])  # warm the page cache, and all must verify
        # PYTHONUNBUFFERED (set by many CI and container images) makes every line of the
        # report a write(2): measured as found, and also without it when it is set.
        unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
        env_buffered = {k: v for k, v in B.bench_env().items() if k != "PYTHONUNBUFFERED"}
        t_cli, t_loop, t_buf = [], [], []
        for _ in range(DIR_ROUNDS):  # alternate, so machine noise hits all alike
            t0 = time.perf_counter()
            B.run_once(pt + ["verify", str(d)])
            t_cli.append(time.perf_counter() - t0)
            t_loop.append(baseline_loop(d))
            if unbuffered:
                t0 = time.perf_counter()
                B.run_once(pt + ["verify", str(d)], env=env_buffered)
                t_buf.append(time.perf_counter() - t0)
        t_dir, t_base = statistics.median(t_cli), statistics.median(t_loop)
        rate, base_rate = n / t_dir, n / t_base
        row = dict(name=f"pith-tex verify DIR ({n} records)", value=rate, unit="records/s",
                   baseline=base_rate, baseline_name="in-process loads+sha256 loop",
                   higher_is_better=True, target=">= 20,000 records/s", met=rate >= 20000,
                   note=f"{t_dir:.2f} s for the CLI vs {t_base:.3f} s for the loop, medians of "
                        f"{DIR_ROUNDS} (records generated in {gen_s:.1f} s)")
        if unbuffered:
            row["note"] += (f"; PYTHONUNBUFFERED is set here: without it the CLI does "
                            f"{n / statistics.median(t_buf):,.0f} records/s")
        if not row["met"]:
            row["note"] += "; " + per_record_profile(vectors, tmp)
        rows.append(row)
    return rows
