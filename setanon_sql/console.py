"""The console script's entry: the only code that runs before the command line is imported.

Why a module of its own: Ctrl-C or SIGTERM while Python imports typer and the commands (a few
tenths of a second, longer on a loaded machine) would otherwise end in Python's
KeyboardInterrupt traceback, or kill the process without a word, before the command line's own
handlers exist to answer with one line and exit 130 or 143.
"""

from __future__ import annotations

import signal
import sys

# errors.ExitCode.INTERRUPTED and TERMINATED, not imported: this module must stay light
_INTERRUPTED = 130
_TERMINATED = 143


class _Terminated(BaseException):
    """SIGTERM during the imports (a BaseException: no `except Exception` of a module swallows
    it)."""


def _terminate(signum: int, frame: object) -> None:
    raise _Terminated


def main() -> None:
    """Import the command line, answering an interrupt during the import as the CLI would;
    the CLI's `interrupts.guard` then takes SIGTERM over."""
    signal.signal(signal.SIGTERM, _terminate)
    try:
        from .cli import main as cli_main
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        sys.exit(_INTERRUPTED)
    except _Terminated:
        sys.stderr.write("error: terminated\n")
        sys.exit(_TERMINATED)
    cli_main()
