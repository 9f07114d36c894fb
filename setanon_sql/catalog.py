"""The algorithms there are: each one's module, the privacy model its release must satisfy and
its options. Each algorithm module (in `algorithms/`) exposes `run(store, params, progress) -> dict`:
it fills the table `release(tid, node)` in the current run schema (and any intermediate tables
it wants an analyst to see) and returns a dict of figures about the search (cut size, levels...).

Each algorithm declares its options here, once: name, type, default and help. `Params` checks
the options given against these declarations, so an unknown key or an ill-typed value is an
error that lists the valid keys, never a silently ignored typo.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from .errors import ParamsError

MODELS = ("k", "km", "dp")
"""The privacy models: transactional k-anonymity (k), k^m-anonymity (km) and epsilon-differential
privacy (dp, #44: no output check can prove it; verify checks the run's budget record)."""
MAX_K = 2**31 - 1
"""k above this is refused before any data is read (no dataset holds that many records)."""
MAX_M = 8
"""m above this is refused: k^m counts itemsets of m items by m-way joins, and no transaction
data of the literature is attacked with more than a handful of known items."""


@dataclass(frozen=True)
class Option:
    """One declared option of an algorithm.

    `default` is a value, or a function of k for defaults that scale with it (Clump's batch).
    `choices` restricts a text option; `minimum` a number.
    """

    name: str
    kind: type  # int, float, str or bool
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None

    def default_for(self, k: int) -> Any:
        return self.default(k) if callable(self.default) else self.default

    def parse(self, value: Any, algorithm: str) -> Any:
        """The value as this option's type: text from the command line is converted, a wrong
        type or a value out of range is an error naming the option."""
        where = f"option {self.name} of {algorithm}"
        if isinstance(value, str) and self.kind is not str:
            value = _from_text(value, self.kind, where)
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, self.kind) or (self.kind is not bool and isinstance(value, bool)):
            raise ParamsError(f"{where} must be {_kind_name(self.kind)}, got {value!r}")
        if self.choices and value not in self.choices:
            raise ParamsError(f"{where} must be one of {', '.join(self.choices)}; got {value!r}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if self.kind is float and not math.isfinite(value):
                raise ParamsError(f"{where} must be a finite number, got {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise ParamsError(f"{where} must be >= {self.minimum:g}, got {value!r}")
        return value

    def describe(self) -> str:
        what = "|".join(self.choices) if self.choices else _kind_name(self.kind)
        default = "depends on k" if callable(self.default) else repr(self.default)
        return f"{self.name} ({what}, default {default}): {self.help}"


def _kind_name(kind: type) -> str:
    return {int: "a whole number", float: "a number", bool: "true or false", str: "text"}[kind]


def _from_text(text: str, kind: type, where: str) -> Any:
    try:
        if kind is bool:
            lowered = text.strip().lower()
            if lowered in ("true", "1", "yes", "on"):
                return True
            if lowered in ("false", "0", "no", "off"):
                return False
            raise ValueError(text)
        return kind(text.strip())
    except ValueError:
        raise ParamsError(f"{where} must be {_kind_name(kind)}, got {text!r}") from None


@dataclass(frozen=True)
class Algorithm:
    """How to run one algorithm, which privacy model its release must satisfy, its options."""

    name: str
    module: str
    model: str  # "k" (transactional k-anonymity) or "km" (k^m-anonymity)
    needs_m: bool = False
    multiset: bool = False
    allows_suppression: bool = False
    summary: str = ""
    options: tuple[Option, ...] = ()
    # disassociation (#28): no hierarchy, and a release of its own format instead of
    # `release(tid, node)`: verify, metrics and evaluate dispatch on `disassociated`
    needs_hierarchy: bool = True
    disassociated: bool = False

    def runner(self) -> Callable[..., dict[str, Any]]:
        return import_module(self.module, "setanon_sql.algorithms").run

    def resolve(self, given: Mapping[str, Any], k: int) -> dict[str, Any]:
        """Every declared option with its value: the given one parsed, else the default."""
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            valid = ", ".join(known) if known else "none"
            raise ParamsError(
                f"unknown option(s) for {self.name}: {', '.join(unknown)}; valid keys: {valid}"
            )
        return {
            name: opt.parse(given[name], self.name) if name in given else opt.default_for(k)
            for name, opt in known.items()
        }


_MAX_ITEMSETS = Option(
    "max_itemsets",
    int,
    50_000_000,
    "refuse when the transactions to count hold more itemsets than this (OA: the expanded "
    "ones, 1..m nodes; DA: those generalized by the cut, one size at a time); their number "
    "grows as length^m",
    minimum=1,
)


def _specialize(default: bool) -> Option:
    return Option(
        "specialize",
        bool,
        default,
        "after reaching k^m-anonymity, push generalized cut nodes back down to their children "
        "while it still holds (one statement per hierarchy depth)",
    )


_PARTITION = (
    Option(
        "leftover",
        str,
        "split",
        "leftover and rolled-back partitions go on splitting on their other nodes (split) or "
        "stop where they are (final)",
        choices=("split", "final"),
    ),
    Option(
        "gain",
        str,
        "ncp",
        "a node's gain weighs its items by the node's NCP (ncp) or by the NCP drop of one "
        "step down (drop, the paper's reading)",
        choices=("ncp", "drop"),
    ),
    Option(
        "pick",
        str,
        "realized",
        "expand the node whose split realizes the largest gain (realized) or the node of "
        "largest gain over the whole partition (nominal, the paper's)",
        choices=("realized", "nominal"),
    ),
)

_DISASSOCIATION = (
    Option(
        "max_cluster",
        int,
        100,
        "HORPART splits a partition while it holds this many records or more (clusters keep "
        "at least k)",
        minimum=2,
    ),
    Option(
        "min_split",
        int,
        0,
        "HORPART splits off a group of records holding a term only when it has this many "
        "records or more (and k); smaller groups stay with the rest",
        minimum=0,
    ),
    Option(
        "refine",
        bool,
        True,
        "REFINE: join neighbouring clusters and publish their rare terms that reach k over "
        "the joint cluster in shared chunks",
    ),
    Option(
        "joint_size",
        int,
        8,
        "REFINE: clusters per joint cluster (neighbours in HORPART's order; 8 measured best "
        "on BMS-WebView-2 of 2, 8 and 32)",
        minimum=2,
    ),
)

_DP_SETS = (
    Option(
        "epsilon",
        float,
        1.0,
        "the privacy budget the whole run spends (smaller: more noise, more privacy)",
        minimum=0.001,
    ),
    Option("max_size", int, 3, "largest itemset measured (1..3)", choices=(), minimum=1),
    Option(
        "split",
        str,
        "0.05,0.35,0.35,0.25",
        "the budget's shares for the length histogram and the counts of items, pairs, triples "
        "(normalized over those used)",
    ),
    Option("limit1", int, 3, "items a transaction contributes to the item counts", minimum=1),
    Option("limit2", int, 3, "kept items a transaction contributes to the pair counts", minimum=2),
    Option("limit3", int, 3, "items a transaction contributes to the triple counts", minimum=3),
    Option(
        "false_positives",
        float,
        30.0,
        "pairs and triples are released (and items, pairs seed the next level) from the noisy "
        "count about this many of a level's absent candidates would pass",
        minimum=0.001,
    ),
    Option(
        "max_candidates",
        int,
        5_000,
        "at most this many candidate pairs, and triples, are counted (the noisiest seeds first; "
        "5,000 measured better than 10^6 on BMS-WebView-1 and -2: fewer candidates, lower "
        "threshold)",
        minimum=1,
    ),
    Option(
        "seed",
        int,
        -1,
        "refused: a fixed seed voids the promise (tests set SETANON_DP_TEST_SEED instead)",
    ),
)

ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in [
        # k^m-anonymity by global recoding over hierarchy cuts (Terrovitis et al. 2008)
        Algorithm(
            "aa",
            ".km_aa",
            "km",
            needs_m=True,
            summary="Apriori-based cut, level by level",
            options=(_specialize(False),),
        ),
        Algorithm(
            "da",
            ".km_da",
            "km",
            needs_m=True,
            summary="direct cut over expanded itemsets",
            options=(_MAX_ITEMSETS, _specialize(True)),
        ),
        Algorithm(
            "oa",
            ".km_oa",
            "km",
            needs_m=True,
            summary="optimal cut, lattice search",
            options=(
                Option(
                    "max_cuts",
                    int,
                    100_000,
                    "refuse hierarchies with more cuts than this (the search is exponential)",
                    minimum=1,
                ),
                _MAX_ITEMSETS,
            ),
        ),
        # transactional k-anonymity by local recoding (He & Naughton 2009; Kim 2023)
        Algorithm(
            "partition",
            ".partition",
            "k",
            summary="top-down local generalization (He & Naughton 2009)",
            options=_PARTITION,
        ),
        Algorithm(
            "lgr",
            ".lgr",
            "k",
            summary="Partition plus bottom-up reallocation (Kim 2023)",
            options=_PARTITION,
        ),
        # clustering with generalization and suppression (Clump, 2010)
        Algorithm(
            "clump",
            ".clump",
            "k",
            multiset=True,
            allows_suppression=True,
            summary="GGD clustering with generalization and suppression",
            options=(
                Option(
                    "method",
                    str,
                    "runs",
                    "cut the similarity order into the runs of k..2k-1 transactions of least "
                    "total GGD (runs), or grow seeded clusters greedily (greedy)",
                    choices=("runs", "greedy"),
                ),
                Option(
                    "passes",
                    int,
                    3,
                    "runs: passes of exchanges between nearby clusters after the cut (0: none)",
                    minimum=0,
                ),
                Option(
                    "span",
                    int,
                    5,
                    "runs: how many clusters apart in the order two clusters may exchange members",
                    minimum=1,
                ),
                Option(
                    "outs",
                    int,
                    6,
                    "runs: members of a cluster offered for exchange, those whose leaving saves most",
                    minimum=1,
                ),
                Option(
                    "reach",
                    int,
                    15,
                    "greedy: blocks of k transactions on either side a cluster draws candidates from",
                    minimum=1,
                ),
                Option(
                    "batch",
                    int,
                    lambda k: k,
                    "greedy: additions per cluster per round (default k)",
                    minimum=1,
                ),
                Option(
                    "keep",
                    int,
                    lambda k: 2 * k,
                    "greedy: candidates a cluster keeps on its shortlist (default 2k)",
                    minimum=1,
                ),
                Option(
                    "coarse",
                    float,
                    1.35,
                    "order: counts under the top ancestors compared as powers of this ratio, so "
                    "near counts tie and the next ancestor decides (1: exact counts)",
                    minimum=1,
                ),
            ),
        ),
        # k^m-anonymity by disassociation (Terrovitis et al. 2012; Awad et al. 2019), #28
        Algorithm(
            "disassociation",
            ".disassociation",
            "km",
            needs_m=True,
            allows_suppression=True,
            summary="clusters of record chunks and term chunks, cover-safe (no hierarchy)",
            options=_DISASSOCIATION,
            needs_hierarchy=False,
            disassociated=True,
        ),
        # epsilon-differential privacy: noisy itemset counts, synthesized baskets (#44)
        Algorithm(
            "dpsets",
            ".dp_sets",
            "dp",
            summary="differentially private baskets from noisy counts of items, pairs, triples",
            options=_DP_SETS,
        ),
    ]
}


def get(name: str) -> Algorithm:
    try:
        return ALGORITHMS[name.lower()]
    except KeyError:
        known = ", ".join(sorted(ALGORITHMS)) or "none registered"
        raise ParamsError(f"unknown algorithm {name!r}; known: {known}") from None
