"""Turning a command's result into the process exit status.

The bottom of the command line: ``cli`` (the entry point, the click commands) and
``check`` run under :func:`run_guarded`; this module imports none of them, so no import
circle runs through the command line.  Commands print with ``click.echo``.
"""

from __future__ import annotations

import os
import sys
from typing import Callable, NoReturn

import click
from click import echo as echo  # click's own, for the commands that print through console

from .errors import PithError


def run_guarded(body: Callable[[], int], debug: bool = False) -> NoReturn:
    """Run a command body; map its exit code and errors to the process exit status.
    *debug* (PITH_TEX_DEBUG, read by the command line): an internal error's traceback."""
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
    except (click.exceptions.Exit, click.ClickException):  # click's own: they pass through
        raise
    except Exception as e:  # noqa: BLE001 -- never a traceback for the user
        if debug:
            raise
        echo("error: internal error (%s: %s); please report it, "
             "PITH_TEX_DEBUG=1 shows the traceback" % (type(e).__name__, e), err=True)
        sys.exit(3)
    sys.exit(code)
