"""What a release is worth and what it exposes, measured on the release itself in SQL.

Utility: itemset-support COUNT queries (a random and a frequent workload) answered from the
release under the uniform assumption of Loukides et al. (COAT, KAIS 2011) and Gkoulalas-Divanis
& Loukides (PCTA, CIKM 2011), scored by relative error. Exposure: an adversary who knows p items
of a target counts the released transactions that could be it. Each workload and each attack
size is drawn and scored by a fixed number of statements (`sql/evaluate.sql`), never one per
query; the probes and their scores stay in the run's schema as `eval_*` tables.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import runs
from ..errors import InputError, ParamsError
from ..runs import Promise
from ..store.database import Store
from . import evaluate_sample as es
from . import metrics, sanity
from .estimate import ESTIMATORS, GENERALIZED_ESTIMATOR
from .kinds import Route, kind_of, promise_of, route, unhandled

# salts keep the random workload and the attacks' draws independent under one seed
_SALT_QUERIES = 1
_SALT_ATTACKS = 2


MAX_QUERY_SIZE = 8
"""The largest itemset a query asks about: the frequent workload mines every size up to it."""


FREQUENT_CAP = 10_000
"""Frequent itemsets kept per size from 2 on (or --queries, if larger): see `frequent_itemsets`."""


TOP_CAP = 999_999
"""The most transactions `eval_subsets` draws per size with a top-n aggregate (DuckDB's limit
for min_by's count); beyond, it orders them all with a window: the same draws, slower."""


@dataclass(frozen=True)
class Workload:
    """How many probes of which sizes, and the seed that draws them."""

    queries: int = 2000
    targets: int = 2000
    sizes: tuple[int, ...] = (1, 2, 3)
    minsup: float = 0.001  # frequent itemsets: support >= this share of the transactions
    seed: int = 0
    sample: float | None = None  # share of the transactions; None: exact up to a size, 1: exact
    sanity: float | None = None  # ARE's denominator at least this share of |D| (`sanity.py`)

    def __post_init__(self) -> None:
        if self.queries < 0 or self.targets < 0:
            raise ParamsError("the numbers of queries and targets must be >= 0")
        if not self.sizes or min(self.sizes) < 1 or max(self.sizes) > MAX_QUERY_SIZE:
            raise ParamsError(f"query sizes must lie in 1..{MAX_QUERY_SIZE}, got {self.sizes}")
        if not 0 < self.minsup <= 1:
            raise ParamsError(f"minsup is a share of the transactions in (0, 1], got {self.minsup}")
        if self.sample is not None and not 0 < self.sample <= 1:
            raise ParamsError(
                f"--sample is a share of the transactions in (0, 1], got {self.sample}"
            )
        sanity.check(self.sanity)


DEFAULT_WORKLOAD = Workload()


def evaluate(
    store: Store, run: str, *, model: Promise | None = None, workload: Workload = DEFAULT_WORKLOAD
) -> dict[str, Any]:
    """Evaluate a stored run's release: query error per size, attacks per known-item count.

    Returns plain figures (the keys of `setanon evaluate --json`) and leaves `eval_probes`,
    `eval_queries`, `eval_attacks`, `eval_frequent`, `eval_classes` and `eval_info` (the
    workload and promise they answer, see `stored_evaluation`) in the run's schema.
    """
    model = model or promise_of(store, run)
    started = time.perf_counter()
    match route("evaluate", kind_of(store, run), f"run {run!r}"):
        case Route.TABLE | Route.TABLE_SETS:
            raise ParamsError(
                f"run {run!r} is a table run; `setanon evaluate --run {run}` measures it"
            )
        case Route.DISASSOCIATED:  # its own release format (#28)
            disassociated = True
        case Route.GENERALIZED | Route.SYNTHETIC:
            disassociated = False
        case unknown:
            unhandled(unknown)
    writable = not store.ex.read_only
    with store.in_run(run), store.unordered():
        floor = sanity.floor_of(store, workload.sanity)
        if writable:
            store.run("eval_info_drop")
            es.drop(store)
        if disassociated:
            from . import evaluate_disassociation as de

            if workload.sample not in (None, 1.0):
                raise ParamsError("a disassociated release is evaluated exactly: drop --sample")
            de.prepare(store)
            draw_probes(store, model, workload)
            de.score(store, model)
            out = figures(store, model)
            out["loss"] = de.loss(store)
            out["ncp"], out["lm"] = None, None
            out["estimator"] = ESTIMATORS["disassociation"]
            out["sample"] = None
        else:
            store.require_hierarchy()
            out = _generalized(store, model, workload)
            out["estimator"] = ESTIMATORS["generalized"]
        out = sanity.attach(store, out, floor)
        seconds = round(time.perf_counter() - started, 3)
        # a disassociated release is evaluated afresh
        if writable and not disassociated:
            store.run("eval_info_write", _info(model, workload, out["ncp"], out["lm"], seconds))
    return out | _head(run, seconds, model, workload)


def _generalized(store: Store, model: Promise, workload: Workload) -> dict[str, Any]:
    """A generalized release's figures: exact, or on a sample with intervals (see
    `evaluate_sample`) when the data is larger than exact counting allows or --sample asks."""
    transactions = store.count("tids")
    share = es.share_for(transactions, workload.sample)
    if model.model == "dp":  # its transactions are its own: a sample of the original's tids
        if workload.sample not in (None, 1.0):  # says nothing of them (#44)
            raise ParamsError(
                "a differentially private release is evaluated exactly: drop --sample"
            )
        share = 1.0
    if share >= 1:
        draw_probes(store, model, workload)
        score(store, model)
        out = figures(store, model)
        out["ncp"], out["lm"] = _loss(store, model)
        return out | {"sample": None}
    sample = es.Sample(share=share, seed=workload.seed)
    draw_drawn(store, model, workload)  # from every transaction: a few cheap statements
    es.score_exact(store, lambda: score_counts(store, model))
    with es.shadowed(store, sample, salt=es.MINED):
        draw_frequent(store, workload)  # mined from a sample of its own
    with es.shadowed(store, sample) as show:
        es.score_groups(store, sample, show, lambda: score_counts(store, model))
        score_tables(store, model, classes=True)  # eval_classes of the whole sample
        out = figures(store, model)
        out["ncp"], out["lm"] = _loss(store, model)  # of the sampled transactions
        es.intervals(store, sample, transactions)
    return es.attach(store, out)


def stored_evaluation(
    store: Store, run: str, *, model: Promise | None = None, workload: Workload = DEFAULT_WORKLOAD
) -> dict[str, Any] | None:
    """The figures of the run's last evaluation, read from its eval_* tables, when it answered
    this workload and promise (a replaced run has none: its tables went with it); else None.
    Why: `report` and `compare` after `evaluate` need not pay the evaluation again."""
    model = model or promise_of(store, run)
    with store.in_run(run):
        if not store.has_table("eval_info", schema=run):
            return None
        info = store.run("eval_info_read").one()
        wanted = _info(model, workload, 0.0, 0.0, 0.0)
        if (info["workload"], info["model"]) != (wanted["workload"], wanted["model"]):
            return None
        out = figures(store, model) | {"ncp": info["ncp"], "lm": info["lm"]}
        out["estimator"] = ESTIMATORS["generalized"]  # only those are stored
        out = (
            es.attach(store, out)
            if store.has_table("eval_sample", schema=run)
            else out | {"sample": None}
        )
        out = sanity.attach(store, out, sanity.floor_of(store, workload.sanity))
    return out | _head(run, info["seconds"], model, workload)


def evaluation(
    store: Store, run: str, *, model: Promise | None = None, workload: Workload = DEFAULT_WORKLOAD
) -> dict[str, Any]:
    """The run's stored evaluation of this workload, or a fresh one."""
    model = model or promise_of(store, run)
    found = stored_evaluation(store, run, model=model, workload=workload)
    return found if found is not None else evaluate(store, run, model=model, workload=workload)


def _info(
    model: Promise, workload: Workload, ncp: float, lm: float, seconds: float
) -> dict[str, Any]:
    scored = {k: v for k, v in asdict(workload).items() if k != "sanity"}  # a view of the scores
    return {
        "workload": json.dumps(scored, sort_keys=True),
        "model": json.dumps(model.as_dict(), sort_keys=True),
        "ncp": ncp,
        "lm": lm,
        "seconds": seconds,
    }


def _head(run: str, seconds: float, model: Promise, workload: Workload) -> dict[str, Any]:
    return {"run": run, "seconds": seconds, "model": model.as_dict(), "workload": asdict(workload)}


def evaluate_release_file(
    store: Store, release: str | Path, *, model: Promise, workload: Workload = DEFAULT_WORKLOAD
) -> dict[str, Any]:
    """Evaluate a release file against the store's dataset, in a run schema of its own."""
    from ..store import release_io as rel

    store.require_hierarchy()
    name = runs.name_for(store, None, "evaluate")
    params = {"k": model.k, "m": model.m, "release": str(release)}
    with runs.making(store, name, algorithm="release-file", params=params):
        if model.model == "dp":  # synthesized: transactions of its own (#44)
            read_synthesized(store, release)
        else:
            rel.read_release(store, release)
    return evaluate(store, name, model=model, workload=workload)


def read_synthesized(store: Store, release: str | Path) -> None:
    """A synthesized release file (differentially private, e.g. DiffPart's): its transactions
    are its own, not the data's, so its tid labels are numbered afresh and only its items must
    be the data's. Why: matched to the data's tids (as a k^m release is), a release with more
    transactions than the data, or other tids, could not be read, nor scored as it is."""
    from ..store import release_io as rel

    rel.read_source(store, release)
    unknown = store.run("release_unknown_labels").tuples("kind", "label")
    items = [label for kind, label in unknown if kind == "item"]
    if items:
        shown = ", ".join(repr(label) for label in items)
        raise InputError(f"{release}: items not in the data or its hierarchy: {shown}")
    store.run("eval_release_synthesized")


def draw_probes(store: Store, model: Promise, workload: Workload) -> None:
    """Fill `eval_probes` with the random and frequent workloads and the attacks."""
    draw_drawn(store, model, workload)
    draw_frequent(store, workload)


def draw_drawn(store: Store, model: Promise, workload: Workload) -> None:
    """`eval_probes` with the random workload and the attacks: drawn from transactions."""
    sizes, seed = list(workload.sizes), workload.seed
    store.run("eval_probes_create")
    if workload.queries or workload.targets:
        store.run("eval_lengths")
    if workload.queries:
        draw_subsets(store, sizes, seed, _SALT_QUERIES, workload.queries, distinct=True)
        store.run("eval_pick_random", {"n": workload.queries})
    if workload.targets:
        attack_sizes = list(model.attack_sizes)
        draw_subsets(store, attack_sizes, seed, _SALT_ATTACKS, workload.targets, distinct=False)
        store.run("eval_pick_targets", {"n": workload.targets})


def draw_frequent(store: Store, workload: Workload) -> None:
    """The frequent workload joins `eval_probes`: mined from `tx` as it stands."""
    sizes, seed = list(workload.sizes), workload.seed
    frequent_itemsets(
        store,
        max(sizes) if workload.queries else 1,  # no frequent query: the items suffice
        min_support(store, workload.minsup),
        cap=max(workload.queries, FREQUENT_CAP),
        seed=seed,
    )
    store.run("eval_pick_frequent", {"n": workload.queries, "seed": seed, "sizes": sizes})


def draw_subsets(
    store: Store, sizes: list[int], seed: int, salt: int, n: int, *, distinct: bool
) -> None:
    """`eval_subsets`: per size, random subsets of the first transactions in a random order,
    enough of them for `n` probes. Targets need `n` transactions; queries `n` distinct itemsets,
    so while a size has fewer and more transactions are left, four times as many are drawn:
    the picks are those a draw from every transaction would give, at the cost of a few."""
    limit = 2 * n if distinct else n
    while True:
        params = {"sizes": sizes, "seed": seed, "salt": salt, "limit": limit, "top_cap": TOP_CAP}
        store.run("eval_subsets", params)
        if not distinct or not store.run("eval_subsets_short", {"n": n, "limit": limit}).rows:
            return
        limit *= 4


def min_support(store: Store, share: float) -> int:
    """The least support (in transactions, at least 1) a frequent itemset needs."""
    n = store.count("tids")
    return max(1, math.ceil(share * n - 1e-9))


def frequent_itemsets(store: Store, max_size: int, minsup: int, *, cap: int, seed: int) -> None:
    """`eval_frequent(size, itemset, support)`: the original's itemsets of 1..max_size items
    with support >= minsup, mined level by level (Apriori), a fixed few statements per level.

    Every frequent item is kept; from size 2 on, at most `cap` itemsets per size: the first in
    the seeded random order the frequent workload draws in (`eval_pick_frequent`), and the next
    size grows from the kept ones only. While no smaller size reached the cap, a size holds
    every frequent itemset; past it, a sample of those whose prefix was kept. Memory stays
    bounded by `cap` itemsets and their transactions per level, whatever the data's density.
    """
    store.run("eval_frequent_items", {"minsup": minsup})
    if max_size < 2:
        return
    store.run("eval_frequent_first")
    store.run("eval_frequent_tx")
    store.run("eval_frequent_first_holders")
    for size in range(2, max_size + 1):
        store.run("eval_frequent_extend", {"minsup": minsup, "cap": cap, "seed": seed})
        store.run("eval_frequent_keep")
        if size == max_size or not store.count("eval_frequent_level"):
            return
        store.run("eval_frequent_holders")


def score(store: Store, model: Promise) -> None:
    """Answer every probe from the release: `eval_queries` (actual, estimate, relative error)
    and `eval_attacks` (candidates)."""
    score_counts(store, model)
    score_tables(store, model)


def score_counts(store: Store, model: Promise) -> None:
    """`eval_scores`: every probe's support in `tx`, estimate from `release` and candidates
    among its released transactions (all three sums over transactions)."""
    store.run(classes_statement(model))
    store.run("eval_classes")
    for step in GENERALIZED_ESTIMATOR:  # the estimator `setanon estimate` runs (#42)
        store.run(step, {"multiset": model.multiset} if step == "est_gen_class_nodes" else None)
    store.run("eval_actual_supports")
    store.run("eval_scores")


def classes_statement(model: Promise) -> str:
    """The released transactions' classes: through the original's tids, or (a differentially
    private release, #44) the release's own synthesized transactions."""
    return "dp_release_classes" if model.model == "dp" else "k_anonymity_classes"


def score_tables(store: Store, model: Promise, *, classes: bool = False) -> None:
    """The kept tables of the scores: `eval_queries`, `eval_attacks` (and, with `classes`,
    `eval_classes` of the transactions now in use)."""
    if classes:
        store.run(classes_statement(model))
        store.run("eval_classes")
    store.run("eval_queries")
    store.run("eval_attacks")


def figures(store: Store, model: Promise) -> dict[str, Any]:
    """The per-size figures of the scored probes, and whether the model's promise holds (None
    for differential privacy: its promise is the mechanism's, see `runs.DP_CHECKED`)."""
    per_size = store.run("eval_query_figures").dicts()
    attacks = store.run("eval_attack_figures", {"k": model.k}).dicts()
    dp = model.model == "dp"  # no k: nothing to hold below it, nothing the output can prove
    for row in attacks:
        row["promised"] = model.promised(row["known"])
        if dp:
            row["below_k"] = None
    return {
        "itemset_queries": [_query_row(r) for r in per_size if r["workload"] == "random"],
        "frequent_queries": [_query_row(r) for r in per_size if r["workload"] == "frequent"],
        "attacks": attacks,
        "promise_holds": None if dp else promise_holds(attacks),
    }


def promise_holds(attacks: list[dict[str, Any]]) -> bool:
    """No promised attack (p <= m, or any p for transactional k) leaves 1..k-1 candidates.

    An attack with no candidate at all (the target's known items were suppressed) re-identifies
    nobody, so it does not break the promise; it is counted as `no_match`.
    """
    return all(r["below_k"] == 0 for r in attacks if r["promised"])


def _query_row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != "workload"}


def _loss(store: Store, model: Promise) -> tuple[float, float]:
    if model.model == "dp":  # original items, no generalization; its transactions are new (#44)
        return 0.0, 0.0
    loss = metrics.information_loss(store, multiset=model.multiset)
    return float(loss["ncp"]), float(loss["lm"])
