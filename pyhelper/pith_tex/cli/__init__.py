"""The ``pith-tex`` entry point.

The command line is defined with click in :mod:`pith_tex.cli.commands`.  Importing click
costs more than verifying a record, so :data:`main` first looks for the plain form
``verify [--json] [--require-signature] PATH...`` (every path an existing, readable file
or directory: resolver JSON, bundles, includes, PDFs) and runs :func:`verify_command`
itself (a PDF imports pypdf then, never click); every other command line (help,
``--version``, ``fetch``, anything click would reject or treat specially) goes to click.
Both paths run the same :func:`verify_command` under the same :func:`run_guarded`, so
their output and exit codes are identical (``tests/python/test_py_cli.py`` checks it).

``pith-tex --help`` alone is printed from :mod:`pith_tex.cli.helptext`, also without click; this
module imports nothing at start-up (not even ``typing``) for that, and loads the verify
body only for the plain ``verify``.

Every :class:`~pith_tex.errors.PithError` becomes one ``error: ...`` line on stderr and
its exit code; no traceback reaches the user (set ``PITH_TEX_DEBUG=1`` to see one for an
unexpected exception).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a third of --help)
if TYPE_CHECKING:
    from typing import Any, List, Optional, Sequence, Tuple

    import click


def __getattr__(name: str) -> "Any":
    """``echo``, ``run_guarded`` and ``verify_command``, re-exported for old imports,
    loaded when first asked for."""
    if name == "echo":
        from click import echo

        return echo
    if name == "run_guarded":
        from ..console import run_guarded

        return run_guarded
    if name == "verify_command":
        from .verify import verify_command

        return verify_command
    raise AttributeError(name)


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
#: may then be trimmed to what the command needs (:func:`pith_tex.pdf.verify.import_pypdf`).
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
            argv = sys.argv[1:] if args is None else list(args)
            # The text names the program "pith-tex": as click would, unless run otherwise
            # (python -m pith_tex), which click then names itself.
            name = prog_name or os.path.basename(sys.argv[0] if sys.argv else "")
            if argv in (["--help"], ["-h"]) and name == "pith-tex":
                from .helptext import top_help

                text = top_help()
                if text is not None:  # else click lays it out for a narrow terminal
                    sys.stdout.write(text)
                    sys.stdout.flush()
                    sys.exit(0)
            plain = plain_verify(argv)
            if plain is not None:
                from ..console import run_guarded
                from .verify import verify_command

                paths, require_signature, as_json = plain
                run_guarded(lambda: verify_command(paths, require_signature, as_json))
        return _click_main().main(args, prog_name, standalone_mode=standalone_mode, **extra)

    def __getattr__(self, name: str) -> Any:  # everything else is the click group's
        return getattr(_click_main(), name)


#: The ``pith-tex`` console script (``pith_tex.cli:main``) and ``python -m pith_tex``.
main = _Main()
