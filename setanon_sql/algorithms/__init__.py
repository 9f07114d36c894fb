"""The algorithm registry. Each algorithm module exposes `run(store, params, progress) -> dict`:
it fills the table `release(tid, node)` in the current run schema (and any intermediate tables
it wants an analyst to see) and returns a dict of figures about the search (cut size, levels...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from ..errors import ParamsError

Progress = Callable[[str, int, "int | None"], None]


def quiet(step: str, done: int, total: int | None) -> None:
    """The library default: report nothing."""


@dataclass(frozen=True)
class Algorithm:
    """How to run one algorithm and which privacy model its release must satisfy."""

    name: str
    module: str
    model: str  # "k" (transactional k-anonymity) or "km" (k^m-anonymity)
    needs_m: bool = False
    multiset: bool = False
    allows_suppression: bool = False
    summary: str = ""

    def runner(self) -> Callable[..., dict[str, Any]]:
        return import_module(self.module, __name__).run


ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in [
        # k^m-anonymity by global recoding over hierarchy cuts (Terrovitis et al. 2008)
        Algorithm("aa", ".km_aa", "km", needs_m=True, summary="Apriori-based cut, level by level"),
        Algorithm("da", ".km_da", "km", needs_m=True, summary="direct cut over expanded itemsets"),
        Algorithm("oa", ".km_oa", "km", needs_m=True, summary="optimal cut, lattice search"),
        # transactional k-anonymity by local recoding (He & Naughton 2009; Kim 2023)
        Algorithm(
            "partition",
            ".partition",
            "k",
            summary="top-down local generalization (He & Naughton 2009)",
        ),
        Algorithm("lgr", ".lgr", "k", summary="Partition plus bottom-up reallocation (Kim 2023)"),
        # clustering with generalization and suppression (Clump, 2010)
        Algorithm(
            "clump", ".clump", "k", multiset=True, allows_suppression=True, summary="GGD clustering"
        ),
    ]
}


def get(name: str) -> Algorithm:
    try:
        return ALGORITHMS[name.lower()]
    except KeyError:
        known = ", ".join(sorted(ALGORITHMS)) or "none registered"
        raise ParamsError(f"unknown algorithm {name!r}; known: {known}") from None
