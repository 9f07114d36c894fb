"""The anonymization algorithms, one module per family, each a driver that decides in Python
while its named statements count in SQL; and their one list, the registry.

Each module declares itself (`ALGORITHM`: name, model, kind of release, options, engines,
`run`); the registry imports those modules by plain imports, so `setanon algorithms`, the
CLI's choices, `Params`, Spark's refusals and the docs read this one list. Adding an algorithm:
its module, one line here, its tests.
"""

from __future__ import annotations

from ..catalog import Algorithm
from ..errors import ParamsError
from . import clump, disassociation, dp_sets, km_aa, km_da, km_oa, lgr, partition

ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in (
        # k^m-anonymity by global recoding over hierarchy cuts (Terrovitis et al. 2008)
        km_aa.ALGORITHM,
        km_da.ALGORITHM,
        km_oa.ALGORITHM,
        # transactional k-anonymity by local recoding (He & Naughton 2009; Kim 2023)
        partition.ALGORITHM,
        lgr.ALGORITHM,
        # clustering with generalization and suppression (Clump, 2010)
        clump.ALGORITHM,
        # k^m-anonymity by disassociation (Terrovitis et al. 2012; Awad et al. 2019), #28
        disassociation.ALGORITHM,
        # epsilon-differential privacy: noisy itemset counts, synthesized baskets (#44)
        dp_sets.ALGORITHM,
    )
}


def get(name: str) -> Algorithm:
    """The algorithm of this name (any case); an unknown one is refused with the known ones."""
    try:
        return ALGORITHMS[name.lower()]
    except KeyError:
        known = ", ".join(sorted(ALGORITHMS)) or "none registered"
        raise ParamsError(f"unknown algorithm {name!r}; known: {known}") from None


def on_engine(engine: str) -> tuple[str, ...]:
    """The algorithms that run on `engine` ("duckdb" or "spark"), in the registry's order."""
    return tuple(a.name for a in ALGORITHMS.values() if engine in a.engines)
