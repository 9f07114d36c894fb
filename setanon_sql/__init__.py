"""setanon-sql: anonymize set-valued data with SQL in DuckDB.

Public API: Store, Params, HierarchySpec, RunOutputs, open_store, anonymize, verify_release,
reconstruct, the errors; on Spark, open_spark with a SparkSource, then the same anonymize.
They are imported on first use, so the command line starts without loading DuckDB.
"""

from importlib import import_module
from typing import Any

_WHERE = {
    "HierarchySpec": "store.hierarchy_spec",
    "Result": "api",
    "anonymize": "api",
    "open_spark": "api",
    "open_store": "api",
    "reconstruct": "api",
    "verify_release": "api",
    "ExitCode": "errors",
    "HierarchyError": "errors",
    "InfeasibleError": "errors",
    "InputError": "errors",
    "ParamsError": "errors",
    "SetAnonError": "errors",
    "TooLargeError": "errors",
    "VerificationError": "errors",
    "Params": "params",
    "RunOutputs": "store.publish",
    "SparkSource": "store.spark_store",
    "Store": "store.database",
}

__all__ = sorted(_WHERE)
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'setanon_sql' has no attribute {name!r}")
    value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value
