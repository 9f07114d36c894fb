"""One frozen, validated parameters object per run, checked against the registry of
algorithms (`algorithms/__init__.py`): it sits above the algorithms, which read their
parameters as `catalog.Settings`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .algorithms import ALGORITHMS, get
from .catalog import MAX_K, MAX_M, check_run_name, check_whole
from .errors import ParamsError


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
        if algo.model == "dp" and self.m is not None:
            raise ParamsError(
                f"{algo.name} promises differential privacy, not k^m-anonymity: m does not apply"
            )
        if not algo.needs_m and self.m is not None:
            raise ParamsError(
                f"{algo.name} gives transactional k-anonymity and takes no m; "
                f"m is for the k^m algorithms ({', '.join(km_algorithms())})"
            )
        object.__setattr__(self, "algorithm", algo.name)
        object.__setattr__(self, "options", algo.resolve(self.options, self.k))


def km_algorithms() -> list[str]:
    """The registry's k^m algorithms, the ones that take m."""
    return [a.name for a in ALGORITHMS.values() if a.needs_m]
