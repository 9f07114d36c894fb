"""One frozen, validated parameters object per run."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .errors import ParamsError

_RUN_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


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
        from .algorithms import get

        if not isinstance(self.k, int) or isinstance(self.k, bool) or self.k < 1:
            raise ParamsError(f"k must be a whole number >= 1, got {self.k!r}")
        if self.m is not None and (
            not isinstance(self.m, int) or isinstance(self.m, bool) or self.m < 1
        ):
            raise ParamsError(f"m must be a whole number >= 1, got {self.m!r}")
        if self.run_name is not None and not _RUN_NAME.match(self.run_name):
            raise ParamsError(
                f"run name {self.run_name!r} must be lower-case letters, digits and _ "
                "(it names a DuckDB schema)"
            )
        algo = get(self.algorithm)
        if algo.needs_m and self.m is None:
            raise ParamsError(f"{algo.name} needs m (the adversary's number of known items)")
        if not algo.needs_m and self.m is not None:
            raise ParamsError(
                f"{algo.name} gives transactional k-anonymity and takes no m; "
                "m is for the k^m algorithms (aa, da, oa, disassociation)"
            )
        object.__setattr__(self, "algorithm", algo.name)
        object.__setattr__(self, "options", algo.resolve(self.options, self.k))
