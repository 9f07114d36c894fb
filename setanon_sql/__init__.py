"""setanon-sql: anonymize set-valued data with SQL in DuckDB.

Public API: Store, Params, HierarchySpec, open_store, anonymize, verify_release, the errors.
"""

from .api import HierarchySpec, Result, anonymize, open_store, verify_release
from .errors import (
    ExitCode,
    HierarchyError,
    InfeasibleError,
    InputError,
    ParamsError,
    SetAnonError,
    TooLargeError,
    VerificationError,
)
from .params import Params
from .store import Store

__all__ = [
    "ExitCode",
    "HierarchyError",
    "HierarchySpec",
    "InfeasibleError",
    "InputError",
    "Params",
    "ParamsError",
    "Result",
    "SetAnonError",
    "Store",
    "TooLargeError",
    "VerificationError",
    "anonymize",
    "open_store",
    "verify_release",
]
__version__ = "0.1.0"
