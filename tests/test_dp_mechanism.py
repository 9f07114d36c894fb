"""The mechanism of -a dpsets (#44), not only its code path: the noise's distribution, the
budget's sum, no choice from the data outside a noisy measurement, and neighbouring datasets."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import pytest
from helpers.papers import AB_TREE, FIG2_TX
from helpers.stores import make_store
from helpers.strategies import databases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql import Params, anonymize
from setanon_sql.algorithms import dp_noise, dp_sets
from setanon_sql.measure import verify_dp

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHI2_999 = {18: 42.31}
"""The chi-square distribution's 99.9 % quantile by degrees of freedom (tables)."""


def discrete_laplace(k: int, scale: float) -> float:
    """P[X = k] for the discrete Laplace of this scale: (1-p)/(1+p) p^|k|, p = e^(-1/scale)."""
    p = math.exp(-1.0 / scale)
    return (1 - p) / (1 + p) * p ** abs(k)


def chi_square(draws: list[int], scale: float, reach: int = 8) -> float:
    """Pearson's statistic of `draws` against the discrete Laplace of `scale`: bins -reach..reach
    and the two tails (2 reach + 3 bins, 2 reach + 2 degrees of freedom)."""
    seen = Counter(max(-reach - 1, min(reach + 1, d)) for d in draws)
    inner = {k: discrete_laplace(k, scale) for k in range(-reach, reach + 1)}
    tail = (1 - sum(inner.values())) / 2
    expected = inner | {-reach - 1: tail, reach + 1: tail}
    n = len(draws)
    return sum((seen.get(k, 0) - n * q) ** 2 / (n * q) for k, q in expected.items())


@pytest.fixture(scope="module")
def opendp_draws() -> list[int]:
    return dp_noise.OpenDPNoise().add([0] * 40_000, 2.0)


def test_opendp_noise_is_discrete_laplace_of_its_scale(opendp_draws) -> None:
    assert chi_square(opendp_draws, 2.0) < CHI2_999[18]


def test_the_fit_tells_a_wrong_scale(opendp_draws) -> None:
    """The goodness-of-fit test can fail: the same draws are not noise of scale 2.5."""
    assert chi_square(opendp_draws, 2.5) > CHI2_999[18]


def test_the_noise_is_added_to_the_counts() -> None:
    counts = [0, 5, 1000, 7]
    noisy = dp_noise.OpenDPNoise().add(counts, 0.05)  # P[|noise| >= 1] = 2e-9 per count
    assert noisy == counts


def test_epsilon_is_opendps_privacy_map() -> None:
    noise = dp_noise.OpenDPNoise()
    assert noise.epsilon(3, 6.0) == pytest.approx(0.5)
    assert noise.epsilon(1, 20.0) == pytest.approx(0.05)


def test_the_test_mode_is_seeded_and_off_by_default(monkeypatch) -> None:
    monkeypatch.delenv(dp_noise.TEST_SEED_ENV, raising=False)
    assert isinstance(dp_noise.noise_source(), dp_noise.OpenDPNoise)
    monkeypatch.setenv(dp_noise.TEST_SEED_ENV, "7")
    first, second = dp_noise.noise_source(), dp_noise.noise_source()
    assert isinstance(first, dp_noise.SeededNoise)
    assert "no privacy promise" in first.mechanism
    assert first.add([0] * 50, 3.0) == second.add([0] * 50, 3.0)
    assert chi_square(dp_noise.SeededNoise(1).add([0] * 40_000, 2.0), 2.0) < CHI2_999[18]


# -- the budget ------------------------------------------------------------------------------------
@SETTINGS
@given(
    epsilon=st.floats(0.001, 50),
    shares=st.lists(st.floats(0.01, 10), min_size=4, max_size=4),
    limits=st.tuples(st.integers(1, 9), st.integers(2, 9), st.integers(3, 9)),
    sizes=st.integers(1, 3),
)
def test_the_steps_spend_epsilon_and_no_more(epsilon, shares, limits, sizes) -> None:
    options = {
        "epsilon": epsilon,
        "max_size": sizes,
        "split": ",".join(repr(s) for s in shares),
        "limit1": limits[0],
        "limit2": limits[1],
        "limit3": limits[2],
    }
    steps = dp_sets.plan(options)
    assert [s.size for s in steps] == list(range(sizes + 1))
    assert sum(s.epsilon for s in steps) <= epsilon * (1 + 1e-12)
    assert sum(s.epsilon for s in steps) == pytest.approx(epsilon)
    for s in steps[1:]:  # one transaction changes C(limit, size) counts by one
        assert s.sensitivity == math.comb(limits[s.size - 1], s.size)
        assert s.sensitivity / s.scale == pytest.approx(s.epsilon)


def test_a_run_records_its_budget_and_verify_checks_it() -> None:
    store = make_store(FIG2_TX, AB_TREE)
    result = anonymize(store, Params(algorithm="dpsets", k=1, options={"epsilon": 0.7}))
    assert result.report.ok
    with store.in_run(result.run):
        rows = store.query("SELECT step, mechanism, sensitivity, scale, epsilon FROM dp_budget")
        assert len(rows) == 4 and all("OpenDP" in r[1] for r in rows)
        assert sum(r[4] for r in rows) == pytest.approx(0.7)
        store.execute("UPDATE dp_budget SET epsilon = epsilon * 2")
        found = verify_dp.verify(store, epsilon=0.7)
    assert not found.ok and "more than epsilon" in found.problems[0]
    assert "no check of a release can prove" in found.as_dict()["note"]


@SETTINGS
@given(
    rows=st.lists(st.floats(-1, 2, allow_nan=False), min_size=0, max_size=5),
    epsilon=st.floats(0.01, 2),
)
def test_the_budget_verdict_is_the_sum_against_epsilon(rows, epsilon) -> None:
    """`budget_problems` against a brute force over the rows of a budget record."""
    summary = {
        "steps": len(rows),
        "spent": sum(rows),
        "least": min(rows) if rows else None,
        "recorded": epsilon,
        "recorded_values": 1 if rows else 0,
        "malformed": 0,
    }
    problems = verify_dp.budget_problems(summary, epsilon)
    ok = bool(rows) and all(r > 0 for r in rows) and sum(rows) <= epsilon * (1 + 1e-9)
    assert (not problems) == ok


# -- no data-dependent choice outside the noisy measurements ------------------------------------------
class FixedNoise:
    """Noise that replaces every count by a fixed value of its position: what a run does
    then can depend on the data only through the counts, which it never sees."""

    mechanism = "fixed (test)"

    def __init__(self) -> None:
        self.calls = 0

    def add(self, counts, scale):
        self.calls += 1
        return [(37 * i + 11 * self.calls) % 50 for i in range(len(counts))]

    def epsilon(self, sensitivity, scale):
        return sensitivity / scale


class OffsetNoise:
    """Each count plus a fixed offset of its position (the noise held fixed across runs), and
    the raw counts kept, level by level."""

    mechanism = "fixed offsets (test)"

    def __init__(self) -> None:
        self.counts: list[list[int]] = []

    def add(self, counts, scale):
        self.counts.append(list(counts))
        return [c + (5 * i) % 3 - 1 for i, c in enumerate(counts)]

    def epsilon(self, sensitivity, scale):
        return sensitivity / scale


OPTIONS = {"epsilon": 1.0, "false_positives": 0.5, "max_candidates": 50}


def dp_tables(txs, edges, noise) -> dict[str, list[tuple]]:
    """Run dpsets with `noise` and return its noisy tables and release, row by row."""
    store = make_store(txs, edges)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dp_noise, "noise_source", lambda: noise)
        run = anonymize(store, Params(algorithm="dpsets", k=1, options=OPTIONS)).run
        with store.in_run(run):
            names = ["dp_noisy_lengths", "dp_noisy_l1", "dp_noisy_l2", "dp_noisy_l3", "release"]
            tables = {n: store.query(f"SELECT * FROM {n} ORDER BY ALL") for n in names}
    store.close()
    return tables


@SETTINGS
@given(db=databases(max_leaves=6, max_tx=10, max_len=4), other=st.data())
def test_with_the_noisy_values_fixed_the_data_changes_nothing(db, other) -> None:
    """Two datasets over the same items: with noisy values that do not depend on the counts,
    every table that reaches the output (candidates, thresholds, release) is the same."""
    txs, edges = db
    leaves = sorted({c for c, _ in edges} - {p for _, p in edges})
    other_txs = [
        sorted(other.draw(st.sets(st.sampled_from(leaves), min_size=1, max_size=4)))
        for _ in range(other.draw(st.integers(1, 10)))
    ]
    first = dp_tables(txs, edges, FixedNoise())
    assert first == dp_tables(other_txs, edges, FixedNoise())


def check_neighbours(txs, edges) -> None:
    """D and each D minus one transaction, the noise held fixed: wherever the earlier levels'
    noisy answers chose the same itemsets, a level counts the same candidates (the same path),
    and its counts differ by at most its recorded sensitivity in L1."""
    full_noise = OffsetNoise()
    full = dp_tables(txs, edges, full_noise)
    steps = dp_sets.plan({**dp_sets_defaults(), **OPTIONS})
    names = ["dp_noisy_lengths", "dp_noisy_l1", "dp_noisy_l2", "dp_noisy_l3"]
    for drop in range(len(txs)):
        fewer_noise = OffsetNoise()
        less = dp_tables(txs[:drop] + txs[drop + 1 :], edges, fewer_noise)
        for level, (a, b) in enumerate(zip(full_noise.counts, fewer_noise.counts, strict=True)):
            if level >= 2:
                chosen = [
                    {r[: level - 1] for r in t[names[level - 1]] if r[-1]} for t in (full, less)
                ]
                if chosen[0] != chosen[1]:
                    break  # the noisy answers chose differently: another path from here
            keys = [[r[:level] for r in t[names[level]]] for t in (full, less)]
            assert keys[0] == keys[1]  # the same candidates
            assert sum(abs(x - y) for x, y in zip(a, b, strict=True)) <= steps[level].sensitivity


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(db=databases(max_leaves=7, max_tx=6, max_len=6))
def test_neighbours_change_each_level_by_its_sensitivity_at_most(db) -> None:
    txs, edges = db
    if len(txs) >= 2:
        check_neighbours(txs, edges)


def test_a_long_transaction_counts_no_more_than_the_limit() -> None:
    """The worst neighbour: one transaction holding every item, beside short ones."""
    edges = [(f"i{j}", "*") for j in range(7)]
    txs = [[f"i{j}" for j in range(7)], ["i0", "i1"], ["i0", "i1", "i2"], ["i3"], ["i0", "i1"]]
    check_neighbours(txs, edges)


def dp_sets_defaults() -> dict:
    from setanon_sql.algorithms import get

    return get("dpsets").resolve({}, 1)


# -- the release is the estimates ------------------------------------------------------------------
@SETTINGS
@given(db=databases(max_leaves=6, max_tx=12, max_len=4))
def test_the_release_holds_each_released_itemset_as_often_as_estimated(db) -> None:
    """A brute force over the release: a released triple's support is its estimate; a released
    pair's and item's at least theirs, and exactly theirs where the larger itemsets' baskets
    do not already exceed it."""
    txs, edges = db
    t = dp_tables(txs, edges, OffsetNoise())
    baskets: dict[int, set[int]] = {}
    for tid, node in t["release"]:
        baskets.setdefault(tid, set()).add(node)
    assert all(1 <= len(b) <= 3 for b in baskets.values())

    def support(items) -> int:
        return sum(1 for b in baskets.values() if set(items) <= b)

    for a, b, c, _noisy, estimate, released, _kept in t["dp_noisy_l3"]:
        assert support((a, b, c)) == (max(estimate, 0) if released else 0)
    for a, b, _noisy, estimate, released, _kept in t["dp_noisy_l2"]:
        if released:
            assert support((a, b)) >= estimate
        above = sum(1 for x in baskets.values() if len(x) == 3 and {a, b} <= x)
        assert support((a, b)) == max(above, estimate if released else 0)
    for a, _noisy, estimate, released, _kept in t["dp_noisy_l1"]:
        above = sum(1 for x in baskets.values() if len(x) > 1 and a in x)
        assert support((a,)) == max(above, estimate if released else 0)
    pairs = {p for x in baskets.values() for p in combinations(sorted(x), 2)}
    released_pairs = {(a, b) for a, b, *_ in t["dp_noisy_l2"]}
    assert pairs <= released_pairs | {
        p for a, b, c, *_ in t["dp_noisy_l3"] for p in combinations((a, b, c), 2)
    }
