"""The ``pith-tex`` entry point.

The command line is defined with click in :mod:`pith_tex.commands`.  Importing click
costs more than verifying a record, so :data:`main` first looks for the plain form
``verify [--json] [--require-signature] PATH...`` (every path an existing, readable file
or directory: resolver JSON, bundles, includes, PDFs) and runs :func:`verify_command`
itself (a PDF imports pypdf then, never click); every other command line (help,
``--version``, ``fetch``, anything click would reject or treat specially) goes to click.
Both paths run the same :func:`verify_command` under the same :func:`run_guarded`, so
their output and exit codes are identical (``tests/python/test_py_cli.py`` checks it).

Every :class:`~pith_tex.errors.PithError` becomes one ``error: ...`` line on stderr and
its exit code; no traceback reaches the user (set ``PITH_TEX_DEBUG=1`` to see one for an
unexpected exception).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Callable, List, NoReturn, Optional, Sequence, Tuple

if TYPE_CHECKING:
    import click


def echo(text: str, err: bool = False) -> None:
    """``click.echo(text, err=err)`` without importing click for plain ASCII text.

    click strips ANSI escapes when the stream is not a terminal and re-wraps a stream
    that is misconfigured as ASCII; neither can change ASCII text without ESC, so only
    other text is handed to click.
    """
    if not text.isascii() or "\x1b" in text:
        import click

        click.echo(text, err=err)
        return
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()


def run_guarded(body: Callable[[], int]) -> NoReturn:
    """Run a command body; map its exit code and errors to the process exit status."""
    from .errors import PithError

    for stream in (sys.stdout, sys.stderr):  # never die on a terminal that is not UTF-8
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass
    try:
        code = body()
    except PithError as e:
        echo("error: %s" % e.message, err=True)
        sys.exit(e.exit_code)
    except BrokenPipeError:  # e.g. `pith-tex verify DIR | head`: stop quietly
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        sys.exit(3)
    except KeyboardInterrupt:
        echo("error: interrupted", err=True)
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as e:  # never a traceback for the user
        click_mod = sys.modules.get("click")  # click's own exits and errors pass through
        if click_mod is not None and isinstance(
                e, (click_mod.exceptions.Exit, click_mod.ClickException)):
            raise
        if os.environ.get("PITH_TEX_DEBUG"):
            raise
        echo("error: internal error (%s: %s); please report it, "
             "PITH_TEX_DEBUG=1 shows the traceback" % (type(e).__name__, e), err=True)
        sys.exit(3)
    sys.exit(code)


def verify_command(paths: Sequence[str], require_signature: bool, as_json: bool) -> int:
    """The body of ``pith-tex verify`` (see :mod:`pith_tex.report` for the output)."""
    from .errors import EXIT_FAILED, EXIT_OK, CouldNotCheck, VerificationFailed, safe_name
    from .checks import BUCKETS, VERDICTS, bucket, decisive

    files: List[str] = []
    compact = len(paths) > 1
    for p in paths:
        if os.path.isdir(p):
            from .batch import iter_json_files

            compact = True
            files.extend(iter_json_files(p))
        else:
            files.append(p)
    if not files:
        raise CouldNotCheck("nothing to verify: no *.json files under %s"
                            % ", ".join(map(safe_name, paths)))
    out = sys.stdout
    results: List[Any] = []
    if compact:
        from .batch import verify_paths

        # One write per batch of lines, not per line: with PYTHONUNBUFFERED every write
        # is a system call.
        counts, code = verify_paths(files, require_signature=require_signature,
                                    as_json=as_json,
                                    sink=results.extend if as_json else out.write)
        summary = "%d of %d files failed verification, %d could not be checked" % (
            counts[1], len(files), counts[2])
    else:  # one file: every check, and the decisive one in the error line
        from .report import file_json, file_result
        from .files import verify_file_guarded

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
        from .report import dumps

        echo(dumps({
            "command": "verify", "exit_code": code, "verdict": VERDICTS[code],
            "summary": {"files": len(files), **dict(zip(BUCKETS, counts))},
            "files": results,
        }))
    elif compact:
        out.write("%d file%s: %d verified, %d failed, %d could not be checked\n"
                  % (len(files), "" if len(files) == 1 else "s", counts[0], counts[1], counts[2]))
    elif code == EXIT_OK:
        out.write("verified\n")
    out.flush()
    if code == EXIT_FAILED:
        raise VerificationFailed("verification failed: " + summary)
    if code != EXIT_OK:
        raise CouldNotCheck("could not check: " + summary)
    return code


_VERIFY_FLAGS = ("--json", "--require-signature")


def plain_verify(argv: Sequence[str]) -> Optional[Tuple[List[str], bool, bool]]:
    """``(paths, require_signature, as_json)`` when *argv* is a plain ``verify`` that
    click would run without a word of its own, else None.

    Plain means: ``verify``, then only the two flags (any order, repeats allowed, as click
    does) and at least one path, each not starting with ``-`` and naming an existing,
    readable file or directory (click's ``Path(exists=True)`` check).  No click shell
    completion may be requested through the environment.
    """
    if len(argv) < 2 or argv[0] != "verify":
        return None
    paths: List[str] = []
    flags = set()
    for a in argv[1:]:
        if a in _VERIFY_FLAGS:
            flags.add(a)
        elif a.startswith("-"):
            return None
        else:
            try:
                os.stat(a)
            except (OSError, ValueError):
                return None
            if not os.access(a, os.R_OK):
                return None
            paths.append(a)
    if not paths or any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ):
        return None
    return paths, "--require-signature" in flags, "--json" in flags


def _click_main() -> "click.Group":
    from .commands import main as group

    return group


#: True once the command line runs (not when pith_tex is used as a library): some imports
#: may then be trimmed to what the command needs (:func:`pith_tex.pdf.import_pypdf`).
COMMAND_LINE = False


class _Main:
    """:data:`main`: call it like the click group (it is one, behind the fast path)."""

    name = "main"

    def __call__(self, args: Optional[Sequence[str]] = None, prog_name: Optional[str] = None,
                 **extra: Any) -> Any:
        return self.main(args, prog_name, **extra)

    def main(self, args: Optional[Sequence[str]] = None, prog_name: Optional[str] = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        global COMMAND_LINE
        COMMAND_LINE = True
        if standalone_mode:
            plain = plain_verify(sys.argv[1:] if args is None else list(args))
            if plain is not None:
                paths, require_signature, as_json = plain
                run_guarded(lambda: verify_command(paths, require_signature, as_json))
        return _click_main().main(args, prog_name, standalone_mode=standalone_mode, **extra)

    def __getattr__(self, name: str) -> Any:  # everything else is the click group's
        return getattr(_click_main(), name)


#: The ``pith-tex`` console script (``pith_tex.cli:main``) and ``python -m pith_tex``.
main = _Main()
