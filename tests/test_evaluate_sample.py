"""`evaluate` on a sample of the transactions: figures with 95 % intervals that hold the exact
figures of the same probes at the rate they claim, seeded and recorded; --exact and --sample."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from helpers.cli import cli, fig2

from setanon_sql import HierarchySpec, Params, Store, anonymize, open_store
from setanon_sql.errors import ExitCode, ParamsError
from setanon_sql.measure import evaluate_sample as es
from setanon_sql.measure.evaluate import Workload, evaluate, evaluation, figures, score
from setanon_sql.measure.kinds import promise_of
from setanon_sql.measure.synthetic import SynthSpec, write_baskets

SHARE = 0.3
SEEDS = range(12)
LEVEL = 0.95
FIGURES = ("are", "over_50")
KEYS = ("itemset_queries", "frequent_queries")


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> tuple[Store, str]:
    """10,000 synthetic baskets of 300 items, AA k = 5, m = 2 (fan-out 5)."""
    path = tmp_path_factory.mktemp("sample") / "baskets.parquet"
    write_baskets(path, SynthSpec(transactions=10_000, items=300, seed=1))
    store, _ = open_store(path, hierarchy_spec=HierarchySpec(fanout=5))
    return store, anonymize(store, Params(algorithm="aa", k=5, m=2)).run


def workload(seed: int, share: float | None = SHARE) -> Workload:
    return Workload(queries=100, targets=30, minsup=0.01, seed=seed, sample=share)


def exact_figures(store: Store, run: str) -> dict:
    """The figures of the probes the last evaluation drew, counted on every transaction."""
    model = promise_of(store, run)
    with store.in_run(run):
        store.run("eval_sample_forget_actuals")
        score(store, model)
        return figures(store, model)


def intervals_and_exact(store: Store, run: str, seed: int) -> list[tuple[float, list, float]]:
    """(sampled figure, its interval, the exact figure) of every query figure of one seed."""
    sampled = evaluate(store, run, workload=workload(seed))
    exact = exact_figures(store, run)
    out = []
    for key in KEYS:
        truth = {r["size"]: r for r in exact[key]}
        for row in sampled[key]:
            out += [(row[f], row[f"{f}_ci"], truth[row["size"]][f]) for f in FIGURES]
    return out


def rounded(value):
    """Figures to 9 digits: DuckDB's threads may sum in another order."""
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


def least_covered(trials: int, level: float = LEVEL, tail: float = 1e-3) -> int:
    """The fewest covered figures of `trials` that intervals of `level` give with chance at
    least `tail` (the binomial's lower tail): below it the intervals claim too much."""
    total = 0.0
    for covered in range(trials + 1):
        total += math.comb(trials, covered) * level**covered * (1 - level) ** (trials - covered)
        if total >= tail:
            return covered
    return trials


def covered(found: list[tuple[float, list, float]], scale: float = 1.0) -> int:
    """How many exact figures lie in their interval, its two sides scaled about the figure."""
    hits = 0
    for value, (low, high), exact in found:
        lo, hi = value - scale * (value - low), value + scale * (high - value)
        hits += lo - 1e-9 <= exact <= hi + 1e-9
    return hits


def test_intervals_hold_the_exact_figures_at_the_rate_they_claim(synthetic) -> None:
    """12 seeds x 2 workloads x 3 sizes x 2 figures: at least the binomial's 1e-3 lower bound
    of 95 % coverage; halved intervals fall below it, so the test tells a narrow interval."""
    store, run = synthetic
    found = [f for seed in SEEDS for f in intervals_and_exact(store, run, seed)]
    assert len(found) == len(SEEDS) * 12
    bound = least_covered(len(found))
    print("covered", covered(found), "halved", covered(found, 0.5), "bound", bound, len(found))
    assert covered(found) >= bound, (covered(found), bound, len(found))
    assert covered(found, scale=0.5) < bound, (covered(found, 0.5), bound)


def test_a_sample_is_seeded_recorded_and_leaves_the_data_as_it_was(synthetic) -> None:
    store, run = synthetic
    with store.in_run(run):
        before = (store.count("tx"), store.count("tids"), store.count("release"))
    first = evaluate(store, run, workload=workload(7))
    again = evaluate(store, run, workload=workload(7))
    other = evaluate(store, run, workload=workload(8))
    keys = ("itemset_queries", "frequent_queries", "attacks", "sample")
    assert rounded([first[k] for k in keys]) == rounded([again[k] for k in keys])
    assert first["itemset_queries"] != other["itemset_queries"]
    sample = first["sample"]
    assert sample["share"] == SHARE and sample["seed"] == 7 and sample["groups"] == es.GROUPS
    assert sample["of_transactions"] == 10_000
    assert 2_500 < sample["transactions"] < 3_500  # about 30 %, plus the drawn transactions
    with store.in_run(run):
        assert (store.count("tx"), store.count("tids"), store.count("release")) == before
        assert store.run("eval_sample_read").one()["seed"] == 8  # the last evaluation's
    for row in first["itemset_queries"] + first["frequent_queries"]:
        low, high = row["are_ci"]
        assert 0 <= low <= row["are"] <= high
        assert "underestimated_ci" not in row  # a sample cannot tell an error's sign


def test_attacks_and_random_supports_are_exact_in_a_sampled_evaluation(synthetic) -> None:
    store, run = synthetic
    sampled = evaluate(store, run, workload=workload(3))
    with store.in_run(run):
        drawn = store.query(
            "SELECT size, qid, actual FROM eval_queries WHERE workload = 'random' ORDER BY ALL"
        )
    exact = evaluate(store, run, workload=workload(3, share=1.0))
    with store.in_run(run):
        counted = store.query(
            "SELECT size, qid, actual FROM eval_queries WHERE workload = 'random' ORDER BY ALL"
        )
    assert sampled["attacks"] == exact["attacks"]
    assert [(s, q, float(a)) for s, q, a in drawn] == [(s, q, float(a)) for s, q, a in counted]
    assert exact["sample"] is None and "are_ci" not in exact["itemset_queries"][0]


def test_an_exact_evaluation_drops_the_last_samples_record(synthetic) -> None:
    store, run = synthetic
    evaluate(store, run, workload=workload(1))
    stored = evaluation(store, run, workload=workload(1))
    assert stored["sample"]["seed"] == 1 and stored["itemset_queries"][0]["are_ci"]
    evaluate(store, run, workload=workload(1, share=1.0))
    assert not store.has_table("eval_sample", schema=run)
    assert not store.has_table("eval_intervals", schema=run)


def test_the_share_is_exact_up_to_a_size_then_a_fixed_number() -> None:
    assert es.share_for(es.EXACT_UP_TO, None) == 1.0
    assert es.share_for(10**7, None) == es.SAMPLE_TRANSACTIONS / 10**7
    assert es.share_for(10**7, 1.0) == 1.0 and es.share_for(100, 0.25) == 0.25
    for bad in (0.0, -0.1, 1.5):
        with pytest.raises(ParamsError, match="--sample"):
            Workload(sample=bad)


def test_sample_and_exact_through_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    run = fig2("anonymize", "-a", "aa", "-k", 2, "-m", 2, "--db", db, "--json", "-q").json()["run"]
    r = cli("evaluate", "--db", db, "--run", run, "--sample", 0.5, "--json")
    assert r.code == 0, r.stderr
    out = r.json()
    assert out["sample"]["share"] == 0.5 and out["workload"]["sample"] == 0.5
    assert all("are_ci" in row for row in out["itemset_queries"])
    page = tmp_path / "r.html"
    assert cli("report", "--db", db, "--run", run, "--sample", 0.5, "-o", page).code == 0
    assert "replicate groups" in page.read_text()
    exact = cli("evaluate", "--db", db, "--run", run, "--exact", "--json").json()
    assert exact["sample"] is None and exact["workload"]["sample"] == 1.0
    for bad in (("--exact", "--sample", 0.5), ("--sample", 0), ("--sample", 2)):
        r = cli("evaluate", "--db", db, "--run", run, *bad)
        assert r.code == ExitCode.USAGE and "Traceback" not in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_a_disassociated_release_refuses_a_sample(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    r = fig2("anonymize", "-a", "disassociation", "-k", 2, "-m", 2, "--db", db, "--json", "-q")
    assert r.code == 0, r.stderr
    bad = cli("evaluate", "--db", db, "--run", r.json()["run"], "--sample", 0.5)
    assert bad.code == ExitCode.USAGE and "evaluated exactly" in bad.stderr
