"""The console script's entry: the only code that runs before the command line is imported.

Why a module of its own: Ctrl-C while Python imports typer and the commands (a few tenths of a
second, longer on a loaded machine) would otherwise end in Python's KeyboardInterrupt
traceback, before the command line's own handler exists to answer with one line and exit 130.
"""

from __future__ import annotations

import sys

_INTERRUPTED = 130  # errors.ExitCode.INTERRUPTED, not imported: this module must stay light


def main() -> None:
    """Import the command line, answering an interrupt during the import as the CLI would."""
    try:
        from .cli import main as cli_main
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        sys.exit(_INTERRUPTED)
    cli_main()
