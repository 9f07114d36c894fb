"""The project's error hierarchy and the CLI exit codes that go with it."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Process exit codes: one per kind of outcome, so scripts can tell them apart."""

    OK = 0
    VIOLATED = 1  # a verification found offending rows
    USAGE = 2  # a bad option or parameter (click's own code for a bad command line)
    INPUT = 3  # bad input: a file, column, hierarchy or database, or k beyond the data
    INTERNAL = 4  # a bug: an unexpected error, or a release that failed the verifier
    RESOURCES = 5  # the machine: too little memory (under --memory-limit) or disk space
    INTERRUPTED = 130  # Ctrl-C (SIGINT)
    TERMINATED = 143  # SIGTERM


class SetAnonError(Exception):
    """Base of every error the library raises on purpose."""

    exit_code: ExitCode = ExitCode.INTERNAL


class InputError(SetAnonError):
    """The data given is not what it claims (format, columns, empty transactions...)."""

    exit_code = ExitCode.INPUT


class HierarchyError(InputError):
    """The item hierarchy is not a proper tree over the data's items."""


class ParamsError(SetAnonError):
    """A parameter or option is unknown, ill-typed or out of range."""

    exit_code = ExitCode.USAGE


class SourceTypeError(ParamsError, TypeError):
    """A source of a kind the library does not read (a `TypeError` too, as Python's own)."""


class InfeasibleError(SetAnonError):
    """No release satisfies the privacy model for these parameters on this data (k > |D|)."""

    exit_code = ExitCode.INPUT


class TooLargeError(SetAnonError):
    """The data's search space is above the configured limit (e.g. OA's number of cuts)."""

    exit_code = ExitCode.INPUT


class ResourceError(SetAnonError):
    """The machine ran short: memory under the limit DuckDB was given, or disk space for spill
    files or an output. Not the data's fault nor ours: the message says what to give more of."""

    exit_code = ExitCode.RESOURCES


class VerificationError(SetAnonError):
    """An algorithm produced a release that the verifier rejects: a bug, never shipped."""

    exit_code = ExitCode.INTERNAL


class Terminated(KeyboardInterrupt):
    """SIGTERM: handled like Ctrl-C (every cleanup runs), with its own exit code."""


def first_line(e: BaseException) -> str:
    """The first line of an error's message (DuckDB's carry a long hint after it)."""
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
