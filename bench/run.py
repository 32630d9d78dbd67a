#!/usr/bin/env python3
"""Run the pith-tex benchmarks and print ratios against baselines measured in the same run.

Usage::

    python bench/run.py              # every bench/bench_*.py
    python bench/run.py verify       # only bench/bench_verify.py (several names allowed)
    python bench/run.py --list       # the benchmarks that exist

Protocol (all a benchmark module has to know)
---------------------------------------------
A benchmark is a module ``bench/bench_NAME.py`` with a function ``run()`` that returns a
list of rows.  A row is a plain ``dict``:

=================== ======================================================================
``name``            what was measured, e.g. ``"pith-tex verify FILE"`` (required)
``value``           the measurement, a number (required)
``unit``            ``"ms"``, ``"s"``, ``"records/s"``, ... (required)
``baseline``        the same quantity for the baseline, measured in the same run, same unit
``baseline_name``   what the baseline is, e.g. ``"jq | python3 recipe"``
``higher_is_better`` ``True`` for throughputs; default ``False`` (times)
``target``          a human-readable target, e.g. ``"< 150 ms"`` or ``"faster than baseline"``
``met``             ``True``/``False`` when the module judged the target, else absent
``note``            one line of extra information (printed under the table)
=================== ======================================================================

``run.py`` prints, per row, the value, the baseline and the ratio *baseline/value* for
times or *value/baseline* for throughputs, so a ratio above 1 always means "better than
the baseline".  It never fails because of a number: benchmarks are reports, and absolute
times on a shared machine are information, not assertions.  It exits 1 only when a
module raises (the traceback is printed) or a row is malformed.

``bench/benchlib.py`` has small helpers (``interleaved_medians`` and ``interleaved_stats`` of commands, ``ms``); modules
may use them or not.  The module directory is on ``sys.path``.
"""
from __future__ import annotations

import importlib
import sys
import time
import traceback
from pathlib import Path
from typing import Iterable

HERE = Path(__file__).resolve().parent


def discover():
    return sorted(p.stem[len("bench_"):] for p in HERE.glob("bench_*.py"))


def fmt(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:,.1f}" if abs(x) >= 100 else f"{x:.3g}"
    return str(x)


def ratio(row):
    b, v = row.get("baseline"), row["value"]
    if not b or not v:
        return None
    return v / b if row.get("higher_is_better") else b / v


def print_table(rows) -> None:
    head = ["benchmark", "measurement", "value", "baseline", "ratio (>1 better)", "target", "met"]
    body = []
    for mod, r in rows:
        q = ratio(r)
        met = r.get("met")
        body.append([
            mod,
            r["name"],
            f"{fmt(r['value'])} {r['unit']}",
            f"{fmt(r.get('baseline'))} {r['unit']}" + (f" ({r['baseline_name']})" if r.get("baseline_name") else "")
            if r.get("baseline") is not None else "-",
            f"{q:.2f}x" if q is not None else "-",
            r.get("target") or "-",
            {True: "yes", False: "NO", None: "-"}[met],
        ])
    widths = [max(len(str(c)) for c in col) for col in zip(head, *body)]

    def line(cells: Iterable[object]) -> str:
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()

    print(line(head))
    print(line("-" * w for w in widths))
    for b in body:
        print(line(b))
    notes = [(mod, r["name"], r["note"]) for mod, r in rows if r.get("note")]
    if notes:
        print()
        for mod, name, note in notes:
            print(f"note [{mod}] {name}: {note}")


def byte_compile_package() -> None:
    """Measure pith-tex as installed, not as an editable checkout.

    A regular ``pip install`` byte-compiles the package; an editable install under
    ``PYTHONDONTWRITEBYTECODE=1`` (set on the project's machines) never does, and then
    every run recompiles pith_tex's source, which the jq|python recipe does not pay.
    ``py_compile`` writes the caches whatever that variable says.
    """
    import compileall

    import pith_tex

    compileall.compile_dir(str(Path(pith_tex.__file__).parent), quiet=1)


def main(argv) -> int:
    if "--list" in argv:
        print("\n".join(discover()))
        return 0
    wanted = [a for a in argv if not a.startswith("-")] or discover()
    unknown = [w for w in wanted if w not in discover()]
    if unknown:
        print(f"error: no benchmark named {', '.join(unknown)} (have: {', '.join(discover())})", file=sys.stderr)
        return 2
    sys.path.insert(0, str(HERE))
    byte_compile_package()
    rows, status = [], 0
    for name in wanted:
        t0 = time.monotonic()
        print(f"running bench_{name} ...", file=sys.stderr, flush=True)
        try:
            got = importlib.import_module(f"bench_{name}").run()
            for r in got:
                missing = {"name", "value", "unit"} - set(r)
                if missing:
                    raise ValueError(f"row {r!r} lacks {sorted(missing)}")
                rows.append((name, r))
        except Exception:  # noqa: BLE001 -- one bench failing still prints the others' rows
            traceback.print_exc()
            status = 1
        print(f"  bench_{name}: {time.monotonic() - t0:.1f} s", file=sys.stderr, flush=True)
    print()
    print_table(rows)
    missed = [f"{m}: {r['name']}" for m, r in rows if r.get("met") is False]
    if missed:
        print("\ntargets missed: " + "; ".join(missed))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
