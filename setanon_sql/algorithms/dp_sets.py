"""dpsets: a differentially private release of transactions that keeps the frequent itemsets (#44).

Why this shape: DiffPart's top-down partitioning releases almost nothing on sparse basket data
(its first split's noisy count drowns in the noise, see issue 44). What analysts ask of basket
data is the support of small itemsets, so the budget is spent on exactly those, PrivBasis-like:

0. a noisy histogram of transaction lengths (one transaction changes one bin by one);
1. each transaction is cut to at most `limit1` items (which ones depends on that transaction's
   items alone, never on its tid: a hash of its items and the item), and every leaf of the
   hierarchy (the public item domain) gets a noisy count;
2. transactions are restricted to the items whose noisy count passed a threshold and cut to
   `limit2` items; every pair of those items gets a noisy count;
3. the same for the triples whose three pairs passed, transactions cut to `limit3` items;
4. the cut loses the items of long transactions: the items' noisy counts are scaled up by the
   share of item occurrences the cut keeps, estimated from the noisy length histogram alone;
5. transactions are synthesized from the estimates: each released triple as that many
   baskets, each released pair as the baskets its estimate still lacks, then each item.

Each level is one SQL pass over the transactions and one statement over its candidates; the
noise is OpenDP's discrete Laplace (`dp_noise`). Every choice outside a noisy measurement is
data-independent: the limits, the budget's split, the thresholds (functions of the scale and of
the number of candidates, itself a function of earlier noisy answers), the order of items and
tids. By sequential composition the run spends the sum of the steps' epsilons, recorded in
`dp_budget` and checked by `measure.verify_dp`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import comb
from typing import Any

from ..catalog import Algorithm, Option, ReleaseKind, Settings
from ..engine.contract import Workspace
from ..errors import InputError, ParamsError
from ..progress import Progress
from . import dp_noise

LEVEL_COLUMNS = ("a", "b", "c")
LENGTHS = 64
"""Bins of the length histogram: 1..63 items, and 64 or more."""


@dataclass(frozen=True)
class Level:
    """One level's measurement: itemsets of `size` items, each transaction holding at most
    `limit` items, so one transaction changes at most C(limit, size) counts by one each. The
    length histogram is level 0: one bin per transaction."""

    size: int
    limit: int
    epsilon: float

    @property
    def sensitivity(self) -> int:
        return 1 if self.size == 0 else comb(self.limit, self.size)

    @property
    def scale(self) -> float:
        return self.sensitivity / self.epsilon


def plan(options: dict[str, Any]) -> list[Level]:
    """The length histogram and the levels with their budgets, from the options alone (never
    from the data)."""
    epsilon = float(options["epsilon"])
    sizes = int(options["max_size"])
    if sizes > len(LEVEL_COLUMNS):
        raise ParamsError(f"option max_size of dpsets must be 1..3, got {sizes}")
    try:
        shares = [float(s) for s in str(options["split"]).split(",")]
    except ValueError:
        shares = []
    if len(shares) < sizes + 1 or any(not math.isfinite(s) or s <= 0 for s in shares):
        raise ParamsError(
            "option split of dpsets needs positive shares for the lengths, the items, the pairs "
            f"and the triples (the first {sizes + 1} are used), got {options['split']!r}"
        )
    shares = shares[: sizes + 1]
    total = sum(shares)
    limits = [LENGTHS, int(options["limit1"]), int(options["limit2"]), int(options["limit3"])]
    return [Level(size, limits[size], epsilon * share / total) for size, share in enumerate(shares)]


def threshold(scale: float, candidates: int, false_positives: float) -> float:
    """The noisy count an itemset needs to be released: about `false_positives` of
    `candidates` itemsets of support 0 pass it (P[Laplace(b) >= t] = exp(-t/b)/2). A function
    of the scale and of the number of candidates (itself from earlier noisy answers) only."""
    if candidates <= 0:
        return math.inf
    return scale * max(0.0, math.log(candidates / (2.0 * false_positives)))


def most_kept(size: int, cap: int) -> int:
    """How many itemsets of `size` may seed the next level's candidates: n items give n(n-1)/2
    candidate pairs, kept under `cap` (the noisiest first); pairs seed at most `cap` triples."""
    if size == 1:
        return int((1 + math.isqrt(1 + 8 * cap)) // 2)
    return cap


def keep(noisy: list[int], bar: float, limit: int) -> list[bool]:
    """Passing `bar`, at most `limit` of them, the largest noisy counts first (ties by
    position): a choice from noisy answers alone."""
    order = sorted(range(len(noisy)), key=lambda i: (-noisy[i], i))
    chosen = {i for i in order[:limit] if noisy[i] >= bar}
    return [i in chosen for i in range(len(noisy))]


def kept_share(lengths: list[int], limit: int) -> float:
    """The share of the item occurrences the cut to `limit` items keeps, estimated from the
    noisy length histogram (`lengths[n-1]`: transactions of n items, clamped at 0): the items'
    noisy counts are scaled up by its inverse. Post-processing of a noisy answer. Pairs and
    triples are not scaled: measured on BMS-WebView-1, the pairs the cut keeps most of (those
    of short transactions) are the frequent ones, and a global share doubled their estimates.
    """
    bins = [(n, max(0, h)) for n, h in enumerate(lengths, start=1)]
    whole = sum(h * n for n, h in bins)
    kept = sum(h * min(n, limit) for n, h in bins)
    return kept / whole if whole > 0 and kept > 0 else 1.0


def check_run(store: Workspace, options: dict[str, Any]) -> None:
    """Refuse what voids the promise or cannot be released, before any work (and before a
    run is recorded): a seed, a support-ordered tree, a budget's split that does not fit."""
    plan(options)
    if int(options["seed"]) >= 0:
        raise ParamsError(
            "dpsets takes no seed: a fixed seed lets anyone who knows it remove the noise, "
            f"which voids the differential-privacy promise (the test mode {dp_noise.TEST_SEED_ENV}"
            " is for tests only)"
        )
    tree = getattr(store, "hierarchy", None)  # the DuckDB store's registered hierarchy
    if tree is not None and "by support" in str(tree.source):
        raise ParamsError(
            "dpsets refuses a support-ordered hierarchy: its shape depends on the items' "
            "supports, which leaks the data; build it with --order id or give a file"
        )


def budget_row(level: Level, noise: dp_noise.Noise, what: str) -> dict[str, Any]:
    """One noisy measurement as the budget records it; its epsilon by the noise's privacy map."""
    return {
        "step": what,
        "mechanism": noise.mechanism,
        "size": level.size,
        "limit": level.limit,
        "sensitivity": level.sensitivity,
        "scale": level.scale,
        "epsilon": noise.epsilon(level.sensitivity, level.scale),
    }


def measure_lengths(
    store: Workspace, level: Level, noise: dp_noise.Noise
) -> tuple[list[int], dict[str, Any]]:
    """The noisy length histogram, and its budget row."""
    import pyarrow as pa  # here, not at import: the registry loads every algorithm

    counted = store.run_arrow("dp_count_lengths", {"top": LENGTHS})
    noisy = noise.add(counted.column("support").to_pylist(), level.scale)
    store.put_arrow(
        "dp_noisy_lengths", pa.table({"length": counted.column("length"), "noisy": noisy})
    )
    return noisy, budget_row(level, noise, "noisy histogram of transaction lengths")


def measure(
    store: Workspace,
    level: Level,
    noise: dp_noise.Noise,
    options: dict[str, Any],
    lengths: list[int],
) -> dict[str, Any]:
    """Count the level's candidates in one statement, add the noise, and mark which noisy
    counts are released and which seed the next level: `dp_noisy_l{size}(columns..., noisy,
    estimate, released, kept)`. Items are released down to a noisy count of 1; pairs and
    triples from the threshold up; what seeds the next level passes the threshold too. An
    item's estimate is its noisy count scaled up by the share the cut keeps (`kept_share`)."""
    import pyarrow as pa  # here, not at import: the registry loads every algorithm

    counted = store.run_arrow(f"dp_count_l{level.size}")
    columns = LEVEL_COLUMNS[: level.size]
    noisy = noise.add(counted.column("support").to_pylist(), level.scale)
    bar = threshold(level.scale, len(noisy), float(options["false_positives"]))
    released = [n >= (1 if level.size == 1 else max(1.0, bar)) for n in noisy]
    kept = keep(noisy, max(1.0, bar), most_kept(level.size, int(options["max_candidates"])))
    share = kept_share(lengths, level.limit) if level.size == 1 else 1.0
    table = pa.table(
        {
            **{c: counted.column(c).cast(pa.int32()) for c in columns},
            "noisy": pa.array(noisy, pa.int64()),
            "estimate": pa.array([max(0, round(n / share)) for n in noisy], pa.int64()),
            "released": pa.array(released, pa.bool_()),
            "kept": pa.array(kept, pa.bool_()),
        }
    )
    store.put_arrow(f"dp_noisy_l{level.size}", table)
    return budget_row(level, noise, f"noisy counts of {level.size}-itemsets") | {
        "candidates": len(noisy),
        "threshold": bar,
        "kept_share": share,
        "released": sum(released),
    }


def run(store: Workspace, params: Settings, progress: Progress) -> dict[str, Any]:

    options = params.options
    check_run(store, options)
    steps = plan(options)
    noise = dp_noise.noise_source()
    if store.count("tids") == 0:
        raise InputError("dpsets needs at least one transaction; the dataset is empty")
    progress("lengths", 0, len(steps))
    lengths, first = measure_lengths(store, steps[0], noise)
    spent = [first]
    for level in steps[1:]:
        progress(f"level {level.size}", level.size, len(steps))
        if level.size == 1:
            store.run("dp_bounded_items", {"limit": level.limit})
        else:
            store.run(f"dp_candidates_l{level.size}")
            store.run("dp_kept_items_of_l1" if level.size == 2 else "dp_kept_items_of_pairs")
            store.run("dp_bounded_among", {"limit": level.limit})
        spent.append(measure(store, level, noise, options, lengths))
    progress("release", len(steps), len(steps))
    store.run("dp_baskets_new")
    for size in range(len(steps) - 1, 0, -1):
        store.run(f"dp_baskets_l{size}")
    store.run("dp_release")
    write_budget(store, float(options["epsilon"]), spent)
    if not params.keep_intermediate:
        scratch = ["dp_bounded", "dp_kept_items", "dp_baskets"]
        scratch += [f"dp_candidates_l{s}" for s in range(2, len(steps))]
        store.drop_tables(*scratch, step="drop_intermediate")
    levels = spent[1:]
    return {
        "epsilon": float(options["epsilon"]),
        "epsilon_spent": round(sum(s["epsilon"] for s in spent), 12),
        "mechanism": noise.mechanism,
        **{f"released_l{s['size']}": s["released"] for s in levels},
        **{f"candidates_l{s['size']}": s["candidates"] for s in levels},
        "released_rows": store.count("release"),
    }


def write_budget(store: Workspace, epsilon: float, spent: list[dict[str, Any]]) -> None:
    """`dp_budget`: one row per noisy measurement (what it measured, the mechanism, its
    sensitivity, scale and epsilon) and the run's epsilon, which `verify` checks the sum against."""
    import pyarrow as pa  # here, not at import: the registry loads every algorithm

    keys = ("step", "mechanism", "sensitivity", "scale", "epsilon")
    table = pa.table(
        {
            **{k: [s[k] for s in spent] for k in keys},
            "run_epsilon": [epsilon] * len(spent),
        }
    )
    store.put_arrow("dp_budget", table)


ALGORITHM = Algorithm(
    "dpsets",
    "dp",
    ReleaseKind.SYNTHETIC,
    run,
    summary="differentially private baskets from noisy counts of items, pairs, triples",
    options=(
        Option(
            "epsilon",
            float,
            1.0,
            "the privacy budget the whole run spends (smaller: more noise, more privacy)",
            minimum=0.001,
        ),
        Option("max_size", int, 3, "largest itemset measured (1..3)", minimum=1),
        Option(
            "split",
            str,
            "0.05,0.35,0.35,0.25",
            "the budget's shares for the length histogram and the counts of items, pairs, "
            "triples (normalized over those used)",
        ),
        Option("limit1", int, 3, "items a transaction contributes to the item counts", minimum=1),
        Option(
            "limit2", int, 3, "kept items a transaction contributes to the pair counts", minimum=2
        ),
        Option("limit3", int, 3, "items a transaction contributes to the triple counts", minimum=3),
        Option(
            "false_positives",
            float,
            30.0,
            "pairs and triples are released (and items, pairs seed the next level) from the "
            "noisy count about this many of a level's absent candidates would pass",
            minimum=0.001,
        ),
        Option(
            "max_candidates",
            int,
            5_000,
            "at most this many candidate pairs, and triples, are counted (the noisiest seeds "
            "first; 5,000 measured better than 10^6 on BMS-WebView-1 and -2: fewer candidates, "
            "lower threshold)",
            minimum=1,
        ),
        Option(
            "seed",
            int,
            -1,
            "refused: a fixed seed voids the promise (tests set SETANON_DP_TEST_SEED instead)",
        ),
    ),
)
