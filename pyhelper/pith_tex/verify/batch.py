"""Verify many files fast: the hot path of ``pith-tex verify DIR``.

Each file becomes its report form: a line (:func:`pith_tex.report.file_line`) or a JSON
dict (:func:`pith_tex.report.file_json`).  Includes (``.tex``) and PDFs (``.pdf``) go to
:func:`pith_tex.verify.files.verify_file`.  For lines, each other file is read and parsed once
(:func:`pith_tex.verify.files.read_file` then :func:`pith_tex.verify.files.decode_json`; a file that
starts as a PDF does goes to ``verify_file`` instead); a resolver JSON record is
first tried with :func:`verified_record_obj`, which builds no check or message when every
check passes (the usual case); any other document, and any record that does not pass,
goes through the full :func:`pith_tex.verify.files.verify_json_obj` with the same parsed
value.  Lines are
handed to the sink in batches (with ``PYTHONUNBUFFERED`` set, every write to stdout is a
system call).

Large batches (>= ``PARALLEL_THRESHOLD`` files, at least ``MIN_WORKERS`` CPUs, Linux for
``fork``) are spread over worker processes in chunks; results always come back in input
order, so the output is the same.  Measured on a (loaded) 2-CPU machine, 10,000 records:
0.35 s sequentially, 0.24 s with two workers, so two CPUs are enough (with the checks and
messages built for every record, as before the lean path, two workers did not pay off).
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple

from ..record import canonical
from ..errors import EXIT_OK, CouldNotCheck
from ..record.documents import RECORD_TYPE
from ..report import file_json, file_line, ok_line
from ..checks import bucket, worst
from ..record.documents import PDF_MAGIC, is_pdf_name
from .files import (decode_json, expected_number, internal_error, read_file, verify_file,
                    verify_json_obj)

PARALLEL_THRESHOLD = 4000
MIN_WORKERS = 2
CHUNK = 512
WRITE_EVERY = 1024  # lines per sink call in text mode


def iter_json_files(directory: str) -> Iterator[str]:
    """Every ``*.json`` under *directory*, recursively, in a stable (sorted) order."""
    stack = [directory]
    while stack:
        d = stack.pop()
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError:
            continue
        subdirs = []
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                subdirs.append(e.path)
            elif e.name.endswith(".json"):
                yield e.path
        stack.extend(reversed(subdirs))


def verified_record_obj(path: str, obj: Any) -> Optional[str]:
    """The number of *path* when its parsed JSON *obj* is resolver JSON whose every check
    passes, else None.

    The same decision as ``verify_file(path).exit_code == 0`` for a record (a record has
    no signature check), made without building checks or messages: the hot path of
    ``verify DIR``.  None says nothing more: the full check then tells what is wrong
    (and whether it is a bundle, an include, ...).
    """
    if type(obj) is not dict or obj.get("record_type") != RECORD_TYPE:
        return None
    pith_number = obj.get("pith_number")
    record = obj.get("canonical_record")
    if type(pith_number) is not str or type(record) is not dict:
        return None
    try:
        fields = canonical.validate_record(record)
    except CouldNotCheck:
        return None
    d = canonical.digest(record)
    if d.hex() != obj.get("canonical_sha256"):  # the digest is always 64 lower-case hex
        return None
    derived = canonical.number_from_digest(d)
    number = expected_number(path) or derived
    # derivation, and year: pith_number is pith:YYYY:NUM for this number and the year
    # of submitted_at (a 4-digit year, so "%04d" spells it as the pattern does)
    if derived != number or pith_number != "pith:%04d:%s" % (fields.year, number):
        return None
    return number


def _run_chunk(args: Tuple[Sequence[str], bool, bool]) -> List[Tuple[int, Any]]:
    paths, require_signature, as_json = args
    return list(_results(paths, require_signature, as_json))


def _results(paths: Sequence[str], require_signature: bool,
             as_json: bool) -> Iterator[Tuple[int, Any]]:
    """``(exit_code, line or JSON dict)`` for every path, in order.  Whatever one file
    does (a parser's RecursionError, a value no report can print, any bug), it gives
    one line of its own: it never takes the other files' lines with it."""
    for p in paths:
        try:
            code, rendered = _result(p, require_signature, as_json)
        except Exception as e:  # noqa: BLE001 -- MemoryError and RecursionError included
            r = internal_error(p, e)
            code, rendered = r.exit_code, file_json(r) if as_json else file_line(r)
        yield code, rendered


def _result(p: str, require_signature: bool, as_json: bool) -> Tuple[int, Any]:
    if as_json:
        r = verify_file(p, require_signature=require_signature)
        return r.exit_code, file_json(r)
    if p.endswith(".tex") or is_pdf_name(p):
        r = verify_file(p, require_signature=require_signature)
    else:  # read and parse once, for the lean check and, if it does not pass, the full one
        data, failed = read_file(p)
        if failed is None and data.startswith(PDF_MAGIC):  # a PDF by another name
            r = verify_file(p, require_signature=require_signature)
        else:
            if failed is None:
                obj, failed = decode_json(p, data)
            if failed is not None:
                r = failed
            else:
                number = verified_record_obj(p, obj)
                if number is not None:
                    return EXIT_OK, ok_line(p, number)
                r = verify_json_obj(p, obj, require_signature=require_signature, data=data)
    return r.exit_code, file_line(r)


def _workers() -> int:
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return min(n, 8)


def _all_results(paths: Sequence[str], require_signature: bool,
                 as_json: bool) -> Iterator[Tuple[int, Any]]:
    workers = _workers()
    if (len(paths) < PARALLEL_THRESHOLD or workers < MIN_WORKERS
            or not sys.platform.startswith("linux")):
        yield from _results(paths, require_signature, as_json)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    chunks = [(paths[i:i + CHUNK], require_signature, as_json)
              for i in range(0, len(paths), CHUNK)]
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        for results in pool.map(_run_chunk, chunks):
            yield from results


def verify_paths(paths: Sequence[str], *, require_signature: bool, as_json: bool,
                 sink: Callable[[Any], Any]) -> Tuple[List[int], int]:
    """Verify every path and hand the reports, in order, to *sink*: the text of a batch
    of lines (each ending with a newline), or a list of JSON dicts.

    Returns ``([verified, failed, could not check], worst exit code)``.
    """
    counts = [0, 0, 0]
    codes = set()
    pending: List[Any] = []
    for code, rendered in _all_results(paths, require_signature, as_json):
        counts[bucket(code)] += 1
        if code != EXIT_OK:
            codes.add(code)
        pending.append(rendered)
        if len(pending) >= WRITE_EVERY:
            sink(pending if as_json else "\n".join(pending) + "\n")
            pending = []
    if pending:
        sink(pending if as_json else "\n".join(pending) + "\n")
    return counts, worst(codes)
