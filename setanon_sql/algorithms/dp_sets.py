"""dpsets: a differentially private release of transactions that keeps the frequent itemsets (#44).

Why this shape: DiffPart's top-down partitioning releases almost nothing on sparse basket data
(its first split's noisy count drowns in the noise, see issue 44). What analysts ask of basket
data is the support of small itemsets, so the budget is spent on exactly those, PrivBasis-like:

0. a noisy histogram of transaction lengths (one transaction changes one bin by one): a bin per
   length up to `longest`, then a few bins doubling in width (`length_bins`);
1. each transaction is cut to at most `limit1` items (which ones depends on that transaction's
   items alone, never on its tid: a hash of its items and the item), and every leaf of the
   hierarchy (the public item domain) gets a noisy count, scaled up by the share of item
   occurrences the cut keeps (estimated from the noisy length histogram, its long bins fitted
   to rise, then fall, `fitted_tail`: their clamped noise inflated small data); an item is released
   from the noisy count at which at most `made_up` of the released are expected to be noise
   (`release_floor`: a catalogue of unused leaves would otherwise fill the release);
2. the `pair_items` items of largest noisy count (a data-independent number) are kept, and
   the measured transactions (at most `longest` items) restricted to them; a noisy histogram
   of the restricted lengths;
3. every pair of kept items gets two noisy counts in one measurement: over the transactions of
   2..`limit2` kept items (all their pairs), and over those of more, each cut to `limit2` of
   them. One transaction feeds one half only, so the vector's L1 sensitivity is
   C(limit2, 2). The long half is scaled up by the ratio of pairs to picked pairs in the noisy
   restricted histogram (a Horvitz-Thompson correction of the cut, per length). No threshold:
   every kept pair is estimated, each half clamped at 0 (a made-up pair costs the frequent
   workload nothing; a frequent pair left out costs it its whole support);
4. transactions are synthesized from the noisy answers alone (`dp_synth`): the transactions of
   more than `longest` items are **modeled, not measured** (their pairs would cost C(n, 2) of
   noise each): as many sessions as the noisy histogram's bins past `longest` say, each of its
   bin's length, grown item by item in proportion to the items' estimates and, for the kept
   items, to their lift with the session's items so far in the measured pairs
   (`dp_sessions`); then baskets grown greedily to answer the measured pairs out of what is
   left of each item, and the items' remainders as baskets of one.
   Dense data (mushroom, chess: every record longer than `longest`) is all modeled.

Measured on BMS-WebView-1 and -2 (benchmarks/notes/dp-utility.md, dp-model.md): measuring
triples and thresholding the pairs (the first design) left 94 % ARE on the frequent pairs and
99 % on the triples at epsilon 1; measuring the long transactions' pairs cut and scaled (the
second) 64-68 % and 72-77 %; modeling them (this one) 34-61 % and 40-74 % (dp-model.md).

Each step is one SQL pass over the transactions and one statement over its candidates; the
noise is OpenDP's discrete Laplace (`dp_noise`). Every choice outside a noisy measurement is
data-independent: the limits, the budget's split, the number of kept items, the order of items
and tids. By sequential composition the run spends the sum of the steps' epsilons, recorded in
`dp_budget` and checked by `measure.verify_dp`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..catalog import Algorithm, Option, ReleaseKind, Settings
from ..engine.contract import Workspace
from ..errors import InputError
from ..progress import Progress
from . import dp_noise
from .dp_answers import (
    fitted_tail,
    kept_share,
    length_bins,
    made_up_rows,
    modeled,
    pair_estimate,
    pair_scale,
    release_floor,
    top,
)
from .dp_plan import DEFAULT_SPLIT, Level, check_run, plan

PAIRS_ONLY = "with max_size 2 (the pairs measured)"
"""When the pair options act: with max_size 1 they are refused, never ignored."""


def measures_pairs(options: Mapping[str, Any]) -> bool:
    """The pair options act only when the pairs are measured: with max_size 1 they are refused."""
    return int(options["max_size"]) >= 2


def budget_row(level: Level, noise: dp_noise.Noise) -> dict[str, Any]:
    """One noisy measurement as the budget records it; its epsilon by the noise's privacy map."""
    return {
        "step": f"noisy counts of {level.what}",
        "mechanism": noise.mechanism,
        "sensitivity": level.sensitivity,
        "scale": level.scale,
        "epsilon": noise.epsilon(level.sensitivity, level.scale),
    }


def measure_lengths(
    store: Workspace, statement: str, table: str, level: Level, noise: dp_noise.Noise, top: int
) -> list[int]:
    """A noisy length histogram (bins 1..`top`, the last one `top` or more) kept as `table`."""
    import pyarrow as pa  # here, not at import: the registry loads every algorithm

    counted = store.run_arrow(statement, {"top": top})
    noisy = noise.add(counted.column("support").to_pylist(), level.scale)
    store.put_arrow(table, pa.table({"length": counted.column("length"), "noisy": noisy}))
    return noisy


def measure_length_bins(
    store: Workspace, level: Level, noise: dp_noise.Noise, bins: list[tuple[int, int | None]]
) -> list[int]:
    """The noisy histogram of the transactions' lengths over `bins` (`length_bins`), kept as
    `dp_noisy_lengths(bin, lo, hi, noisy)`: one transaction more or less changes one bin by one."""
    import pyarrow as pa  # here, not at import: the registry loads every algorithm

    ids = pa.array(range(len(bins)), pa.int32())
    los = pa.array([lo for lo, _ in bins], pa.int64())
    his = pa.array([hi for _, hi in bins], pa.int64())
    store.put_arrow("dp_length_bins", pa.table({"bin": ids, "lo": los, "hi": his}))
    store.run("dp_lengths")
    counted = store.run_arrow("dp_count_length_bins")
    noisy = noise.add(counted.column("support").to_pylist(), level.scale)
    table = pa.table({"bin": ids, "lo": los, "hi": his, "noisy": pa.array(noisy, pa.int64())})
    store.put_arrow("dp_noisy_lengths", table)
    return noisy


def measure_items(
    store: Workspace, level: Level, noise: dp_noise.Noise, options: dict[str, Any], share: float
) -> dict[str, Any]:
    """Every leaf's noisy count of the cut transactions: `dp_noisy_l1(a, noisy, estimate,
    released, kept)`. Released from the noisy count `release_floor` sets, estimated as the
    noisy count over the cut's kept share; the `pair_items` largest of those are kept for the
    pairs."""
    import pyarrow as pa  # here, not at import: the registry loads every algorithm

    store.run("dp_bounded_items", {"limit": int(options["limit1"])})
    counted = store.run_arrow("dp_count_l1")
    noisy = noise.add(counted.column("support").to_pylist(), level.scale)
    floor = release_floor(noisy, level.scale, float(options["made_up"]))
    table = pa.table(
        {
            "a": counted.column("a").cast(pa.int32()),
            "noisy": pa.array(noisy, pa.int64()),
            "estimate": pa.array([max(0, round(n / share)) for n in noisy], pa.int64()),
            "released": pa.array([n >= floor for n in noisy], pa.bool_()),
            "kept": pa.array(top(noisy, int(options["pair_items"]), floor), pa.bool_()),
        }
    )
    store.put_arrow("dp_noisy_l1", table)
    return budget_row(level, noise) | {
        "candidates": len(noisy), "kept_share": share, "released": sum(n >= floor for n in noisy),
        "floor": floor
    }  # fmt: skip


def measure_pairs(
    store: Workspace, steps: list[Level], noise: dp_noise.Noise, options: dict[str, Any]
) -> list[dict[str, Any]]:
    """The noisy restricted histogram and the two halves of every kept pair's noisy count, in
    one measurement: `dp_noisy_l2(a, b, short, long, estimate, released)`, the estimate the
    short half plus the long half scaled by `pair_scale`, each clamped at 0 (`pair_estimate`)."""
    import pyarrow as pa  # here, not at import: the registry loads every algorithm

    limit, longest = int(options["limit2"]), int(options["longest"])
    store.run("dp_kept_items_of_l1")
    lengths = measure_lengths(
        store, "dp_count_pair_lengths", "dp_noisy_pair_lengths", steps[2], noise, longest
    )
    scale = pair_scale(lengths, limit, longest)
    store.run("dp_restricted", {"limit": limit, "longest": longest})
    store.run("dp_candidates_l2")
    counted = store.run_arrow("dp_count_l2")
    n = counted.num_rows
    both = noise.add(
        counted.column("short").to_pylist() + counted.column("long").to_pylist(), steps[3].scale
    )
    short, long = both[:n], both[n:]
    estimate = [pair_estimate(s, g, scale) for s, g in zip(short, long, strict=True)]
    table = pa.table(
        {
            "a": counted.column("a").cast(pa.int32()),
            "b": counted.column("b").cast(pa.int32()),
            "short": pa.array(short, pa.int64()),
            "long": pa.array(long, pa.int64()),
            "estimate": pa.array(estimate, pa.int64()),
            "released": pa.array([e >= 1 for e in estimate], pa.bool_()),
        }
    )
    store.put_arrow("dp_noisy_l2", table)
    released = sum(e >= 1 for e in estimate)
    return [
        budget_row(steps[2], noise),
        budget_row(steps[3], noise) | {"candidates": n, "pair_scale": scale, "released": released},
    ]


def synthesize(
    store: Workspace, pairs: bool, sessions: list[tuple[int, int]], measured: int
) -> int:
    """`dp_baskets(basket, item, copies, modeled)` from the estimates: the modeled `sessions`
    (length, how many) grown from the items' estimates and the kept pairs' lift over the
    `measured` transactions first (`dp_sessions`), then baskets grown from the pairs out of
    what is left of each item (`dp_synth`); then the release. Returns the modeled sessions."""
    import numpy as np
    import pyarrow as pa  # here, not at import: the registry loads every algorithm

    from . import dp_sessions, dp_synth

    items = store.run_arrow("dp_estimates_l1")
    ids = items.column("a").to_pylist()
    estimates = np.array(items.column("estimate").to_pylist(), dtype=np.int64)
    found = store.run_arrow("dp_estimates_l2") if pairs else None
    wanted = (
        list(zip(*(found.column(c).to_pylist() for c in ("a", "b", "estimate")), strict=True))
        if found is not None
        else []
    )
    where = {a: i for i, a in enumerate(ids)}
    kept = np.array(sorted({where[a] for a, _, _ in wanted} | {where[b] for _, b, _ in wanted}))
    kept = kept.astype(np.int64)
    lifts = dp_sessions.lift(
        estimates, kept, [(where[a], where[b], e) for a, b, e in wanted], measured
    )
    session, index = dp_sessions.long_sessions(estimates, sessions, kept, lifts)
    left = estimates - np.bincount(index, minlength=len(ids))
    made = dp_synth.baskets(ids, left.tolist(), wanted)
    rows = [(i, item, copies) for i, (basket, copies) in enumerate(made) for item in basket]
    grown = pa.table(
        {
            "basket": pa.array([r[0] for r in rows], pa.int64()),
            "item": pa.array([r[1] for r in rows], pa.int32()),
            "copies": pa.array([r[2] for r in rows], pa.int64()),
            "modeled": pa.array([False] * len(rows), pa.bool_()),
        }
    )
    drawn = pa.table(
        {
            "basket": pa.array(session + len(made), pa.int64()),
            "item": pa.array(np.asarray(ids, dtype=np.int32)[index], pa.int32()),
            "copies": pa.array(np.ones(len(session), dtype=np.int64), pa.int64()),
            "modeled": pa.array(np.ones(len(session), dtype=bool), pa.bool_()),
        }
    )
    store.put_arrow("dp_baskets", pa.concat_tables([grown, drawn]))
    store.run("dp_release")
    return int(len(np.unique(session)))


def run(store: Workspace, params: Settings, progress: Progress) -> dict[str, Any]:
    options = params.options
    check_run(store, options)
    steps = plan(options)
    noise = dp_noise.noise_source()
    if store.count("tids") == 0:
        raise InputError("dpsets needs at least one transaction; the dataset is empty")
    progress("lengths", 0, 3)
    longest = int(options["longest"])
    bins = length_bins(longest)
    lengths = measure_length_bins(store, steps[0], noise, bins)
    spent = [budget_row(steps[0], noise)]
    progress("items", 1, 3)
    share = kept_share(bins, fitted_tail(bins, lengths, longest), int(options["limit1"]))
    spent.append(measure_items(store, steps[1], noise, options, share))
    if len(steps) > 2:
        progress("pairs", 2, 3)
        spent += measure_pairs(store, steps, noise, options)
    progress("release", 3, 3)
    sessions = modeled(bins, lengths, longest) if len(steps) > 2 else []
    measured = sum(max(0, h) for (lo, _), h in zip(bins, lengths, strict=True) if lo <= longest)
    drawn = synthesize(store, len(steps) > 2, sessions, measured)
    write_budget(store, float(options["epsilon"]), spent)
    if not params.keep_intermediate:
        scratch = ["dp_bounded", "dp_kept_items", "dp_baskets", "dp_length_bins", "dp_lengths"]
        scratch += ["dp_candidates_l2"] if len(steps) > 2 else []
        store.drop_tables(*scratch, step="drop_intermediate")
    pairs = spent[-1] if len(steps) > 2 else {"released": 0, "candidates": 0}
    rows = store.count("release")
    made_up = made_up_rows(bins, longest, steps[0].scale) if len(steps) > 2 else 0.0
    return {
        "epsilon": float(options["epsilon"]),
        "epsilon_spent": round(sum(s["epsilon"] for s in spent), 12),
        "mechanism": noise.mechanism,
        "released_l1": spent[1]["released"],
        "release_floor_l1": spent[1]["floor"],
        "released_l2": pairs["released"],
        "candidates_l2": pairs["candidates"],
        "modeled_sessions": drawn,
        "released_rows": rows,
        "made_up_share": round(min(1.0, made_up / rows if rows else made_up), 3),
        "seeded_test": isinstance(noise, dp_noise.SeededNoise),
    }


SMALL_DATA = 0.25
"""The `made_up_share` from which `small_data_note` warns: on WV1's first 10,000 transactions at
epsilon 1 (share about 0.3) frequent pairs scored 1.49, worse than an empty release."""


def small_data_note(info: Mapping[str, Any]) -> str | None:
    """A warning when the long bins' noise alone is expected to make up a large share of the
    release's rows (`made_up_share`, from the run's parameters and its release size, at most 1:
    the expected made-up rows may outnumber those released)."""
    share = info.get("made_up_share")
    small = f"the data is small for epsilon {info.get('epsilon')}"
    if info.get("released_rows") == 0:
        return f'the release is empty: {small} (README, "Not for small data")'
    if not isinstance(share, (int, float)) or share < SMALL_DATA:
        return None
    much = "as many rows as this release holds, or more" if share >= 1 else (
        f"about {share:.0%} of this release's rows"
    )  # fmt: skip
    return (
        f"the length histogram's noise alone is expected to make up {much} (sessions of up to "
        f"hundreds of items): {small}, and its pairs and triples will be overstated (README, "
        '"Not for small data"); a larger epsilon or more transactions help'
    )


LARGE_EPSILON = 10.0
"""From here `epsilon_note` warns: e^10 is about 22,000, a bound on the odds no reader would
call private; larger values are for diagnostics (noise-free runs), not releases."""


def epsilon_note(info: Mapping[str, Any]) -> str | None:
    """A warning when the run's epsilon is too large to promise anything worth the name."""
    epsilon = info.get("epsilon")
    if not isinstance(epsilon, (int, float)) or epsilon <= LARGE_EPSILON:
        return None
    return (
        f"epsilon {epsilon:g} is above {LARGE_EPSILON:g}: one transaction may change the odds of "
        f"a release e^{epsilon:g} times, which promises no privacy worth the name (a diagnostic "
        "setting, not a release)"
    )


def seeded_note(info: Mapping[str, Any]) -> str | None:
    """The line a seeded test run prints, even under --quiet: its release is not private."""
    if not info.get("seeded_test"):
        return None
    return (
        f"a seeded test run ({dp_noise.TEST_SEED_ENV} is set): anyone who knows the seed can "
        "remove the noise, so this release is NOT differentially private and must not be "
        "published"
    )


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
    summary="differentially private baskets from noisy counts of items and pairs",
    options=(
        Option(
            "epsilon",
            float,
            None,
            "the privacy budget the whole run spends (smaller: more noise, more "
            f"privacy; above {LARGE_EPSILON:g}, a warning)",
            minimum=0.001,
        ),
        Option(
            "public_domain",
            bool,
            False,
            "the tree's leaves are public knowledge though every one occurs in the data (a tree "
            "whose leaves are exactly the data's items is refused otherwise: it leaks them)",
        ),
        Option("max_size", int, 2, "largest itemset measured (1: items only, 2: pairs)", minimum=1),
        Option(
            "split",
            str,
            DEFAULT_SPLIT,
            "the budget's shares for the length histogram, the item counts, the kept items' "
            "length histogram and the pair counts (normalized); with max_size 1, the first two",
        ),
        Option(
            "made_up",
            float,
            0.2,
            "the share of released items that may, in expectation, occur nowhere in the data: "
            "sets the noisy count an item is released from (a catalogue of many unused leaves "
            "raises it)",
            minimum=0.0001,
        ),
        Option("limit1", int, 3, "items a transaction contributes to the item counts", minimum=1),
        Option(
            "pair_items",
            int,
            250,
            "the items of largest noisy count whose pairs are all estimated (no threshold)",
            minimum=2,
            acts_when=measures_pairs,
            acts_when_note=PAIRS_ONLY,
        ),
        Option(
            "limit2",
            int,
            4,
            "kept items a transaction contributes to the pair counts (a longer one: a sample)",
            minimum=2,
            acts_when=measures_pairs,
            acts_when_note=PAIRS_ONLY,
        ),
        Option(
            "longest",
            int,
            12,
            "transactions of more items than this are not measured for the pairs but modeled: "
            "released as sessions of their (noisy) lengths drawn from the items' estimates",
            minimum=2,
        ),
        Option(
            "seed",
            int,
            -1,
            "refused: a fixed seed voids the promise (tests set SETANON_DP_TEST_SEED instead)",
        ),
    ),
)
