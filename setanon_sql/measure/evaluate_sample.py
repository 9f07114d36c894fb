"""`setanon evaluate` on a uniform sample of the transactions, each figure with its 95 % interval.

Why: exact counts visit every pair of nodes within every released class and every pair of
items within every transaction (benchmarks/README, "evaluate at scale"); at 10^7 transactions
that alone exceeds the 60 s asked. Every count a figure needs is a sum over transactions, so a
seeded Bernoulli sample of them, split into `GROUPS` replicate groups, answers each count by
the statements of `sql/evaluate.sql` run once per group (on the group's transactions, through
temporary tables that hide `tids`, `tx` and `release`), and the groups add up. The interval is
the delete-a-group jackknife's (`sql/evaluate_sample.sql`), Student's t with G - 1 degrees of
freedom. The probes are drawn from the sample; the intervals say where the figures of those
probes on the whole data lie.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

EXACT_UP_TO = 1_000_000
"""The most transactions `evaluate` counts exactly unless told (--exact, --sample): at 10^6 an
exact evaluation takes about 20-40 s on this project's 2-core machine, at 10^7 over 100 s."""

SAMPLE_TRANSACTIONS = 500_000
"""How many transactions an automatic sample aims at (its share: this over the data's)."""

GROUPS = 10
"""Replicate groups of a sample: the jackknife's G."""

T_975 = 2.262
"""Student's t quantile 0.975 with GROUPS - 1 = 9 degrees of freedom."""

_SHADOWED = ("tids", "tx", "release")


@dataclass(frozen=True)
class Sample:
    """A sample's share of the transactions, seed and replicate groups."""

    share: float
    seed: int
    groups: int = GROUPS


def share_for(transactions: int, asked: float | None) -> float:
    """The share to sample: the one asked (1 = exact), else exact up to `EXACT_UP_TO`
    transactions and above it the share that draws about `SAMPLE_TRANSACTIONS`."""
    if asked is not None:
        return asked
    if transactions <= EXACT_UP_TO:
        return 1.0
    return SAMPLE_TRANSACTIONS / transactions


SCORED, MINED = 3, 4
"""The salts of the sample the probes are scored on and of the one frequent itemsets are mined
from: independent, so a support the mining sample overstates is not scored on itself."""


@contextmanager
def shadowed(
    store: Any, sample: Sample, *, salt: int = SCORED
) -> Iterator[Callable[[int | None], None]]:
    """Draw the sample, and yield a function that makes `tids`, `tx` and `release` those of one
    group (None: the whole sample); the dataset's and the run's are seen again on leaving."""
    params = {"seed": sample.seed, "share": sample.share, "groups": sample.groups, "salt": salt}
    store.run("eval_sample_tids", params)
    store.run("eval_sample_tx")
    store.run("eval_sample_release")

    def show(grp: int | None) -> None:
        for name in _SHADOWED:
            store.run(f"eval_shadow_{name}", {"grp": grp})

    try:
        show(None)
        yield show
    finally:
        for name in _SHADOWED:
            store.run(f"eval_unshadow_{name}")
        store.run("eval_unshadow_probes")


def score_exact(store: Any, score: Callable[[], None]) -> None:
    """On every transaction, before sampling: the attacks' candidates (a sample would blur the
    counts below k that the promise is about) and the random itemsets' supports (most are held
    by a handful of transactions a sample would miss); `score` fills `eval_scores`."""
    store.run("eval_probes_copy")
    try:
        store.run("eval_shadow_probes", {"workloads": ["attack"]})
        score()
        store.run("eval_exact_attacks")
        store.run("eval_shadow_probes", {"workloads": ["random"]})
        store.run("eval_actual_supports")
        store.run("eval_exact_actuals")
    finally:
        store.run("eval_unshadow_probes")


def score_groups(
    store: Any, sample: Sample, show: Callable[[int | None], None], score: Callable[[], None]
) -> None:
    """Score the drawn probes in every group (`score` fills `eval_scores`), then the whole
    sample's `eval_scores` and every replicate's, scaled to the whole data (the attacks' and
    random supports from `score_exact`)."""
    store.run("eval_probes_copy")
    store.run("eval_shadow_probes", {"workloads": ["random", "frequent"]})
    store.run("eval_sample_forget_actuals")
    store.run("eval_group_scores_create")
    for grp in range(sample.groups + 1):  # the last: the transactions counted for certain
        show(grp)
        score()
        store.run("eval_group_scores_add", {"grp": grp})
    show(None)
    store.run("eval_unshadow_probes")
    store.run("eval_replicate_scores", {"share": sample.share, "groups": sample.groups})
    store.run("eval_sample_scores")


def intervals(store: Any, sample: Sample, transactions: int) -> None:
    """Keep `eval_intervals` and `eval_sample` in the run (read by `attach`)."""
    store.run("eval_sample_intervals", {"t": T_975, "share": sample.share})
    params = {"share": sample.share, "seed": sample.seed, "groups": sample.groups}
    store.run("eval_sample_write", params | {"of": transactions})


def drop(store: Any) -> None:
    """The last evaluation's sample and intervals go (a new evaluation is under way)."""
    store.run("eval_sample_drop")
    store.run("eval_intervals_drop")


def attach(store: Any, out: dict[str, Any]) -> dict[str, Any]:
    """The figures with their intervals (`FIGURE_ci`: [low, high]) and the sample's record
    (`"sample"`), read from the tables of a sampled evaluation."""
    sample = store.run("eval_sample_read").one()
    read = store.run("eval_intervals_read").dicts()
    found = {(r["workload"], r["size"], r["figure"]): [r["low"], r["high"]] for r in read}
    values = {(r["workload"], r["size"], r["figure"]): r["value"] for r in read}
    for key, workload, size_key in (
        ("itemset_queries", "random", "size"),
        ("frequent_queries", "frequent", "size"),
    ):
        for row in out.get(key, []):
            for figure in _FIGURES[workload]:
                row[f"{figure}_ci"] = found.get((workload, row[size_key], figure))
            for figure in _FIGURES[workload]:  # noise taken out (sql/evaluate_sample.sql)
                row[figure] = values.get((workload, row[size_key], figure), row[figure])
    return out | {"sample": sample}


_FIGURES = {
    "random": ("are", "over_50"),
    "frequent": ("are", "over_50"),
}
