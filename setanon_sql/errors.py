"""The project's error hierarchy and the CLI exit codes that go with it."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Process exit codes: one per kind of failure, so scripts can tell them apart."""

    OK = 0
    VIOLATED = 1  # a verification found offending rows
    USAGE = 2  # typer/click's own code for bad options
    INPUT = 3
    HIERARCHY = 4
    INFEASIBLE = 5
    PARAMS = 6
    TOO_LARGE = 7
    INTERNAL = 8  # an algorithm's own output failed the verifier


class SetAnonError(Exception):
    """Base of every error the library raises on purpose."""

    exit_code: ExitCode = ExitCode.INTERNAL


class InputError(SetAnonError):
    """The data given is not what it claims (format, columns, empty transactions...)."""

    exit_code = ExitCode.INPUT


class HierarchyError(InputError):
    """The item hierarchy is not a proper tree over the data's items."""

    exit_code = ExitCode.HIERARCHY


class ParamsError(SetAnonError):
    """A parameter is out of range or does not fit the data (e.g. k > |D|)."""

    exit_code = ExitCode.PARAMS


class InfeasibleError(SetAnonError):
    """No release satisfies the privacy model for these parameters."""

    exit_code = ExitCode.INFEASIBLE


class TooLargeError(SetAnonError):
    """The search space is above the configured limit (e.g. OA's number of cuts)."""

    exit_code = ExitCode.TOO_LARGE


class VerificationError(SetAnonError):
    """An algorithm produced a release that the verifier rejects: a bug, never shipped."""

    exit_code = ExitCode.INTERNAL
