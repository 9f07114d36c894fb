"""One frozen, validated parameters object per run."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .errors import ParamsError

_RUN_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


@dataclass(frozen=True, kw_only=True)
class Params:
    """What an anonymization run needs besides the data.

    Example:
        >>> Params(algorithm="aa", k=10, m=2).k
        10
    """

    algorithm: str
    k: int
    m: int | None = None
    l: float | None = None  # noqa: E741 - the papers' name for l-diversity
    seed: int = 0
    max_cuts: int = 100_000
    keep_intermediate: bool = False
    run_name: str | None = None
    replace: bool = False
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.k, int) or isinstance(self.k, bool) or self.k < 1:
            raise ParamsError(f"k must be a whole number >= 1, got {self.k!r}")
        if self.m is not None and (not isinstance(self.m, int) or self.m < 1):
            raise ParamsError(f"m must be a whole number >= 1, got {self.m!r}")
        if self.l is not None and self.l < 1:
            raise ParamsError(f"l must be >= 1, got {self.l!r}")
        if self.max_cuts < 1:
            raise ParamsError(f"max_cuts must be >= 1, got {self.max_cuts!r}")
        if self.run_name is not None and not _RUN_NAME.match(self.run_name):
            raise ParamsError(
                f"run name {self.run_name!r} must be lower-case letters, digits and _ "
                "(it names a DuckDB schema)"
            )
        object.__setattr__(self, "algorithm", self.algorithm.lower())
