"""The body of ``pith-tex verify``, which the click command (:mod:`pith_tex.cli.commands`)
calls: files and directories (:func:`verify_command`), or tar archives of PDFs
(:func:`archive_command`, JSON Lines with ``--json``)."""

from __future__ import annotations

import os
import sys
from typing import Any, List, NoReturn, Optional, Sequence, Tuple

from .. import DEFAULT_INCLUDE_NAME
from ..checks import BUCKETS, VERDICTS, FileOutcome, bucket, decisive
from ..console import echo
from ..errors import (EXIT_FAILED, EXIT_OK, CouldNotCheck, UsageError, VerificationFailed,
                      safe_name)
from ..report import dumps, file_json, file_result
from .batch import cpus, iter_json_files, verify_paths
from .files import verify_file_guarded
from .progress import Progress, Tally
from .archive import json_line, text_line


def paper_files(directory: str) -> List[str]:
    """The PDFs and the include at the top of *directory*: ``verify .`` in a paper's
    directory checks what the author built, not only saved resolver JSON.  Anything so
    named but a directory is listed (a FIFO, a link to a device: refused, and said so,
    when it is verified)."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [os.path.join(directory, n) for n in names
            if (n.lower().endswith(".pdf") or n == DEFAULT_INCLUDE_NAME)
            and not os.path.isdir(os.path.join(directory, n))]


#: The line of a PDF in a directory that carries no Pith Number (it changes no exit code).
NONE_LINE = ("--    %s  no Pith Number: the PDF carries no Pith metadata (a figure, or made "
             "without pith.sty)\n")


def verify_command(paths: Sequence[str], require_signature: bool, as_json: bool,
                   jobs: Optional[int] = None, resume: Optional[str] = None) -> int:
    """The body of ``pith-tex verify`` (see :mod:`pith_tex.report` for the output): tar
    archives (:func:`archive_command`), or files and directories, with at most *jobs*
    worker processes (None: the CPUs)."""
    from .archive import is_archive_name

    archives = [p for p in paths if is_archive_name(p) and not os.path.isdir(p)]
    if archives:
        return archive_command(paths, require_signature, as_json, jobs, resume)
    if resume is not None:
        raise UsageError("--resume continues a run over tar archives (ARCHIVE.tar ...)")
    files, listed, compact = _gather(paths)
    results: List[Any] = []
    none: List[str] = []  # PDFs found in a directory that carry no Pith Number
    if compact:
        files, counts, code, summary = _verify_many(
            files, listed, none, results, require_signature, as_json,
            cpus() if jobs is None else jobs)
        if not files:
            _nothing_to_verify(paths, none)
    elif not files:
        _nothing_to_verify(paths, none)
    else:  # one file: every check, and the decisive one in the error line
        one, code, summary = _verify_one(files[0], results, require_signature, as_json)
        counts = [0, 0, 0]  # verified, failed, could not check
        counts[bucket(code)] += 1
    if as_json:
        echo(dumps({
            "command": "verify", "exit_code": code, "verdict": VERDICTS[code],
            "summary": {"files": len(files), **dict(zip(BUCKETS, counts, strict=True))},
            "files": results,
            "no_pith_number": none,
        }))
    elif compact:
        sys.stdout.write("%d file%s: %d verified, %d failed, %d could not be checked%s\n"
                         % (len(files), "" if len(files) == 1 else "s", counts[0], counts[1],
                            counts[2], "; %d PDF%s with no Pith Number" % (
                                len(none), "" if len(none) == 1 else "s") if none else ""))
    elif code == EXIT_OK:
        # the state in the badge's words: a record without a signed receipt is "checked"
        signature = None if one.outcome is None else one.outcome.signature
        sys.stdout.write("checked (unsigned)\n" if one.kind in ("record", "bundle", "include",
                                                               "pdf")
                         and signature == "absent" else "verified\n")
    sys.stdout.flush()
    if code == EXIT_FAILED:
        raise VerificationFailed("verification failed: " + summary)
    if code != EXIT_OK:
        raise CouldNotCheck("could not check: " + summary)
    return code


def _gather(paths: Sequence[str]) -> Tuple[List[str], List[str], bool]:
    """(The files to verify, the PDFs among them found in a directory, whether the output
    is compact: more than one path, or a directory)."""
    files: List[str] = []
    listed: List[str] = []  # the PDFs found in a directory: those with no claim go apart
    compact = len(paths) > 1
    for p in paths:
        if os.path.isdir(p):
            compact = True
            for f in paper_files(p):
                if f.lower().endswith(".pdf"):
                    listed.append(f)
                files.append(f)
            files.extend(iter_json_files(p))
        else:
            files.append(p)
    return files, listed, compact


def _verify_many(files: List[str], listed: List[str], none: List[str], results: List[Any],
                 require_signature: bool, as_json: bool, jobs: int
                 ) -> Tuple[List[str], List[int], int, str]:
    """Verify *files*, one line each (into *results* with --json); the PDFs of *listed*
    that carry no Pith Number go to *none* instead.  (The files verified, the counts
    verified/failed/could not check, the exit code, the summary.)"""
    out = sys.stdout

    def on_none(path: str) -> None:
        none.append(path)
        if not as_json:
            out.write(NONE_LINE % safe_name(path))

    # One write per batch of lines, not per line: with PYTHONUNBUFFERED every write
    # is a system call.
    counts, code = verify_paths(files, require_signature=require_signature,
                                as_json=as_json, jobs=jobs,
                                sink=results.extend if as_json else out.write,
                                listed=listed, on_none=on_none)
    gone = set(none)
    files = [f for f in files if f not in gone]
    summary = "%d of %d files failed verification, %d could not be checked" % (
        counts[1], len(files), counts[2])
    return files, counts, code, summary


def _verify_one(path: str, results: List[Any], require_signature: bool, as_json: bool
                ) -> Tuple[FileOutcome, int, str]:
    """Verify the one file at *path* with every check shown (into *results* with --json).
    (Its outcome, the exit code, the summary: the decisive check for the error line.)"""
    one = verify_file_guarded(path, require_signature=require_signature)
    if as_json:
        results.append(file_json(one))
    else:
        sys.stdout.write(file_result(one) + "\n")
    if one.outcome is None:
        return one, one.exit_code, "%s: %s" % (safe_name(one.path), one.error)
    bad = decisive(one.outcome.checks)
    name = safe_name(one.path)
    return one, one.exit_code, "%s: %s: %s" % (name, bad.name, bad.detail) if bad else name


def _nothing_to_verify(paths: Sequence[str], none: Sequence[str]) -> NoReturn:
    raise CouldNotCheck("nothing to verify: no *.json, %s or PDF with a Pith Number under "
                        "%s%s" % (DEFAULT_INCLUDE_NAME, ", ".join(map(safe_name, paths)),
                                  " (%d PDF%s none: %s)" % (
                                      len(none), " carries" if len(none) == 1 else "s carry",
                                      " ".join(map(safe_name, none))) if none else ""))


def archive_command(paths: Sequence[str], require_signature: bool, as_json: bool,
                    jobs: Optional[int] = None, resume: Optional[str] = None) -> int:
    """``pith-tex verify [--json] ARCHIVE.tar...``: one line per PDF member, written and
    flushed as it is decided (in the archives' order), with *jobs* worker processes;
    members already in the JSON Lines file *resume* are skipped.  A progress bar on a
    terminal's standard error; the summary on standard error with ``--json`` (standard
    output is JSON Lines only)."""
    from .archive import Listing, archive_results, done_keys, is_archive_name

    others = [p for p in paths if not is_archive_name(p) or os.path.isdir(p)]
    if others:
        raise UsageError("tar archives and other files cannot be verified together: %s"
                         % ", ".join(map(safe_name, others)))
    if resume is not None and not as_json:
        raise UsageError("--resume reads the JSON Lines of an earlier --json run: add --json")
    done = done_keys(resume) if resume is not None else set()
    listing = Listing()
    tally = Tally()
    with Progress(paths) as bar:
        results = archive_results(paths, jobs=cpus() if jobs is None else jobs,
                                  require_signature=require_signature, done=done,
                                  listing=listing, progress=bar.at)
        try:
            for member, out, no_claim in results:
                line = (dumps(json_line(member, out, no_claim)) if as_json
                        else text_line(member, out, no_claim))
                sys.stdout.write(line + "\n")
                sys.stdout.flush()  # a killed run keeps every line it wrote, whole
                tally.add(out.exit_code, no_claim)
                bar.done_one()
        finally:
            results.close()
    echo(tally.summary(listing), err=as_json)
    return tally.finish()
