"""One frozen, validated parameters object per run."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .catalog import MAX_K, MAX_M, get
from .errors import ParamsError

_RUN_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
# schema names DuckDB keeps for itself, and the tool's registry
RESERVED = ("information_schema", "pg_catalog", "main", "temp", "system", "memory", "setanon")


def check_whole(name: str, value: object, low: int, high: int) -> None:
    """A whole-number parameter within [low, high], said by name when it is not."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ParamsError(f"{name} must be a whole number in {low}..{high}, got {value!r}")


def check_run_name(name: str) -> None:
    """A run names a DuckDB schema: lower-case letters, digits and _, none DuckDB reserves."""
    if not _RUN_NAME.match(name):
        raise ParamsError(
            f"run name {name!r} must be lower-case letters, digits and _ (it names a DuckDB schema)"
        )
    if name in RESERVED:
        raise ParamsError(f"run name {name!r} is reserved by DuckDB or by the tool; choose another")


@dataclass(frozen=True, kw_only=True)
class Params:
    """What an anonymization run needs besides the data, checked on construction.

    `options` are checked against the algorithm's declared options and hold every one of them
    afterwards (the defaults filled in), so a run records exactly what it ran with.

    Example:
        >>> Params(algorithm="aa", k=10, m=2).k
        10
        >>> Params(algorithm="partition", k=5).options["gain"]
        'ncp'
    """

    algorithm: str
    k: int
    m: int | None = None
    keep_intermediate: bool = False
    run_name: str | None = None
    replace: bool = False
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:

        check_whole("k", self.k, 1, MAX_K)
        if self.m is not None:
            check_whole("m", self.m, 1, MAX_M)
        if self.run_name is not None:
            check_run_name(self.run_name)
        algo = get(self.algorithm)
        if algo.needs_m and self.m is None:
            raise ParamsError(f"{algo.name} needs m (the adversary's number of known items)")
        if not algo.needs_m and self.m is not None:
            raise ParamsError(
                f"{algo.name} gives transactional k-anonymity and takes no m; "
                "m is for the k^m algorithms (aa, da, oa)"
            )
        object.__setattr__(self, "algorithm", algo.name)
        object.__setattr__(self, "options", algo.resolve(self.options, self.k))
