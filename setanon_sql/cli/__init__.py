"""The `setanon` command line: each command parses its options, refuses those that do not
apply, makes one library call and prints. The commands live one family a module; this module
registers them and maps every outcome to one line and a documented exit code.

Heavy modules (DuckDB, pyarrow, sqlglot, rich) are imported inside the commands, so `--help`
and a mistyped option answer at once.
"""

from __future__ import annotations

import errno
import functools
import os
import sys

import typer

from . import (  # noqa: F401 - registers
    anonymize,
    data,
    estimate,
    hierarchy,
    inspect,
    judge,
    reconstruct,
    rt,
    rt_sweep,
    table,
)
from .app import app

__all__ = ["app", "main", "run_cli"]

# what the machine, not the data or the tool, ran out of
_SHORT = {
    errno.ENOSPC: "disk space",
    errno.EDQUOT: "disk quota",
    errno.EFBIG: "room under the file size limit",
    errno.ENOMEM: "memory",
}


def _say(message: str) -> None:
    typer.echo(f"error: {message}", err=True)


def _interrupted() -> int:
    from ..engine.interrupts import was_terminated
    from ..errors import ExitCode

    if was_terminated():
        _say("terminated")
        return int(ExitCode.TERMINATED)
    _say("interrupted")
    return int(ExitCode.INTERRUPTED)


def _traceback(debug: bool) -> None:
    if debug:
        import traceback

        traceback.print_exc()


def _usage_error(e: Exception) -> None:
    """A bad command line in one line, naming the help to read; a command given without its
    arguments prints its help, as asked."""
    show = getattr(e, "show", None)
    if type(e).__name__ == "NoArgsIsHelpError" and show is not None:
        show()
        return
    format_message = getattr(e, "format_message", None)
    message = format_message() if format_message else str(e)
    ctx = getattr(e, "ctx", None)
    where = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
    _say(" ".join(message.split()) + where)


def run_cli(args: list[str] | None = None) -> int:
    """Run the command line and return its exit code: one line per error, a traceback only
    with --debug, a documented code for every outcome. With --debug the engines say what they
    say by default (Spark's start-up lines, sqlglot's warnings): SETANON_DEBUG is set for the
    command's length only, so a library user's process is left as it was."""
    debug = "--debug" in (sys.argv[1:] if args is None else args)
    before = os.environ.get(DEBUG_ENV)
    if debug:
        os.environ[DEBUG_ENV] = "1"
    try:
        return _run(args, debug)
    finally:
        if before is None:
            os.environ.pop(DEBUG_ENV, None)
        else:
            os.environ[DEBUG_ENV] = before


DEBUG_ENV = "SETANON_DEBUG"


@functools.cache
def _command() -> typer.core.TyperGroup:
    """The click command, built from the app once per process, each of its commands only when
    asked for (`lazy`: a process runs one command; typer would make all 19, about 55 ms of
    CPU, issue 43). `app(...)` builds everything anew on every call, which in-process callers
    such as the tests' `cli` helper paid per command; the app is complete once this module has
    imported its commands. (With pretty exceptions off, `app(...)`'s own exception hook adds
    nothing.)"""
    from .lazy import lazy_group

    return lazy_group(app)


def _run(args: list[str] | None, debug: bool) -> int:
    from ..errors import ExitCode, SetAnonError

    try:
        code = int(_command().main(args=args, prog_name="setanon", standalone_mode=False) or 0)
        # typer turns Ctrl-C (and our SIGTERM) into exit code 130 after every cleanup ran
        return _interrupted() if code == int(ExitCode.INTERRUPTED) else code
    except typer.Abort:
        return _interrupted()
    except typer.exceptions.TyperException as e:  # click's usage errors
        _usage_error(e)
        return int(ExitCode.USAGE)
    except SetAnonError as e:
        _traceback(debug)
        _say(str(e))
        return int(e.exit_code)
    except KeyboardInterrupt:
        return _interrupted()
    except MemoryError:
        _traceback(debug)
        _say("out of memory in Python (give --memory-limit a lower value, or use a larger machine)")
        return int(ExitCode.RESOURCES)
    except OSError as e:
        _traceback(debug)
        if e.errno in _SHORT:
            where = f" writing {e.filename}" if e.filename else ""
            _say(f"no {_SHORT[e.errno]} left{where}: {e.strerror}")
            return int(ExitCode.RESOURCES)
        _say(f"cannot use {e.filename or 'a file'}: {e.strerror or e}")
        return int(ExitCode.INPUT)
    except Exception as e:  # noqa: BLE001 - a bug still gets one line and a code
        _traceback(debug)
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        _say(f"internal error ({type(e).__name__}): {first} (run with --debug for the traceback)")
        return int(ExitCode.INTERNAL)


def main() -> None:
    """Console entry: route SIGTERM first (before any DuckDB connection), then run."""
    from ..engine.interrupts import guard

    guard()
    sys.exit(run_cli())
