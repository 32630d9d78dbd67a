"""Writing to the terminal and turning a command's result into the process exit status.

The bottom of the command line: ``cli`` (the entry point, the click commands) and
``check`` all print through :func:`echo` and run under
:func:`run_guarded`; this module imports none of them, so no import circle runs through
the command line.
"""

from __future__ import annotations

import os
import sys
from typing import Callable, NoReturn


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


def run_guarded(body: Callable[[], int], debug: bool = False) -> NoReturn:
    """Run a command body; map its exit code and errors to the process exit status.
    *debug* (PITH_TEX_DEBUG, read by the command line): an internal error's traceback."""
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
        if debug:
            raise
        echo("error: internal error (%s: %s); please report it, "
             "PITH_TEX_DEBUG=1 shows the traceback" % (type(e).__name__, e), err=True)
        sys.exit(3)
    sys.exit(code)
