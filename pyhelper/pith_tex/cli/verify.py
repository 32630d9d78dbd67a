"""The body of ``pith-tex verify``, shared by the fast entry point (:mod:`pith_tex.cli`)
and the click command line (:mod:`pith_tex.cli.commands`), so neither imports the other's
module for it."""

from __future__ import annotations

import os
import sys
from typing import Any, List, Sequence

from click import echo


def paper_files(directory: str) -> List[str]:
    """The PDFs and the include at the top of *directory*: ``verify .`` in a paper's
    directory checks what the author built, not only saved resolver JSON.  Anything so
    named but a directory is listed (a FIFO, a link to a device: refused, and said so,
    when it is verified)."""
    from .. import DEFAULT_INCLUDE_NAME

    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [os.path.join(directory, n) for n in names
            if (n.lower().endswith(".pdf") or n == DEFAULT_INCLUDE_NAME)
            and not os.path.isdir(os.path.join(directory, n))]


def carries_no_pith(path: str) -> bool:
    """Is the PDF at *path* one that makes no Pith claim at all: no Pith key in any Info
    dictionary of the file (the raw scan too: not hidden in an earlier revision) and no
    ``pith:`` property in its XMP?  A figure, or a PDF made without pith.sty.  A file that
    cannot be read as a PDF is not: the verifier says what it is."""
    from ..pdf.verify import read_claims
    from ..safeio import check_regular

    try:  # pypdf opens the path itself: not a FIFO or a device (verify_file says what it is)
        check_regular(path)
        claims = read_claims(path, engines=False)  # what it claims, not what it shows
    except Exception:  # noqa: BLE001 -- UnreadablePdf and the like: verify_file reports it
        return False
    return (not claims.info and not claims.not_text and claims.info_all == {}
            and claims.xmp is None)


#: The line of a PDF in a directory that carries no Pith Number (it changes no exit code).
NONE_LINE = ("--    %s  no Pith Number: the PDF carries no Pith metadata (a figure, or made "
             "without pith.sty)\n")


def verify_command(paths: Sequence[str], require_signature: bool, as_json: bool) -> int:
    """The body of ``pith-tex verify`` (see :mod:`pith_tex.report` for the output)."""
    from ..errors import EXIT_FAILED, EXIT_OK, CouldNotCheck, VerificationFailed, safe_name
    from ..checks import BUCKETS, VERDICTS, bucket, decisive

    files: List[str] = []
    none: List[str] = []  # PDFs found in a directory that carry no Pith Number
    compact = len(paths) > 1
    for p in paths:
        if os.path.isdir(p):
            from ..verify.batch import iter_json_files

            compact = True
            for f in paper_files(p):
                pdf = f.lower().endswith(".pdf")
                (none if pdf and carries_no_pith(f) else files).append(f)
            files.extend(iter_json_files(p))
        else:
            files.append(p)
    if not files:
        from .. import DEFAULT_INCLUDE_NAME

        raise CouldNotCheck("nothing to verify: no *.json, %s or PDF with a Pith Number under "
                            "%s%s" % (DEFAULT_INCLUDE_NAME, ", ".join(map(safe_name, paths)),
                                      " (%d PDF%s none: %s)" % (
                                          len(none), " carries" if len(none) == 1 else "s carry",
                                          " ".join(map(safe_name, none))) if none else ""))
    if none and not as_json:
        sys.stdout.write("".join(NONE_LINE % safe_name(f) for f in none))
    out = sys.stdout
    results: List[Any] = []
    if compact:
        from ..verify.batch import verify_paths

        # One write per batch of lines, not per line: with PYTHONUNBUFFERED every write
        # is a system call.
        counts, code = verify_paths(files, require_signature=require_signature,
                                    as_json=as_json,
                                    sink=results.extend if as_json else out.write)
        summary = "%d of %d files failed verification, %d could not be checked" % (
            counts[1], len(files), counts[2])
    else:  # one file: every check, and the decisive one in the error line
        from ..report import file_json, file_result
        from ..verify.files import verify_file_guarded

        one = verify_file_guarded(files[0], require_signature=require_signature)
        counts = [0, 0, 0]  # verified, failed, could not check
        counts[bucket(one.exit_code)] += 1
        code = one.exit_code
        if as_json:
            results.append(file_json(one))
        else:
            out.write(file_result(one) + "\n")
        if one.outcome is None:
            summary = "%s: %s" % (safe_name(one.path), one.error)
        else:
            bad = decisive(one.outcome.checks)
            name = safe_name(one.path)
            summary = "%s: %s: %s" % (name, bad.name, bad.detail) if bad else name
    if as_json:
        from ..report import dumps

        echo(dumps({
            "command": "verify", "exit_code": code, "verdict": VERDICTS[code],
            "summary": {"files": len(files), **dict(zip(BUCKETS, counts, strict=False))},
            "files": results,
            "no_pith_number": none,
        }))
    elif compact:
        out.write("%d file%s: %d verified, %d failed, %d could not be checked%s\n"
                  % (len(files), "" if len(files) == 1 else "s", counts[0], counts[1], counts[2],
                     "; %d PDF%s with no Pith Number" % (len(none), "" if len(none) == 1
                                                        else "s") if none else ""))
    elif code == EXIT_OK:
        # the state in the badge's words: a record without a signed receipt is "checked"
        signature = None if one.outcome is None else one.outcome.signature
        out.write("checked (unsigned)\n" if one.kind in ("record", "bundle", "include", "pdf")
                  and signature == "absent" else "verified\n")
    out.flush()
    if code == EXIT_FAILED:
        raise VerificationFailed("verification failed: " + summary)
    if code != EXIT_OK:
        raise CouldNotCheck("could not check: " + summary)
    return code
