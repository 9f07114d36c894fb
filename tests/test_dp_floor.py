"""The noisy count dpsets releases an item from (#44): a leaf that never occurs still gets a
noisy count of at least 1 about half the time, so a public catalogue of many unused leaves (what
README advises giving, since a tree built from the data reveals which items occur) made up most
of the release and of its modeled sessions. `dp_answers.release_floor` raises the floor until the
items the noise alone lifts over it are expected to be at most `made_up` of those released."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest
from helpers.cli import EX, cli
from hypothesis import given, settings
from hypothesis import strategies as st

from setanon_sql.algorithms import dp_answers, dp_noise
from setanon_sql.errors import ExitCode


def reference_floor(noisy: list[int], scale: float, rate: float) -> int:
    """The floor by its definition, one candidate at a time."""
    q = math.exp(-1.0 / scale)
    zero = sum(v <= 0 for v in noisy) * (1 + q)
    floor = 1
    while zero * q**floor / (1 + q) > rate * max(1, sum(v >= floor for v in noisy)):
        floor += 1
    return floor


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(-60, 400), min_size=1, max_size=300),
    st.sampled_from([1e-5, 0.5, 1.0, 3.3, 10.0, 40.0]),
    st.sampled_from([0.001, 0.05, 0.2, 0.5, 1.0]),
)
def test_the_floor_is_the_least_count_that_meets_its_rate(noisy, scale, rate) -> None:
    assert dp_answers.release_floor(noisy, scale, rate) == reference_floor(noisy, scale, rate)


def test_with_no_count_at_or_below_zero_every_positive_count_is_released() -> None:
    assert dp_answers.release_floor([1, 5, 300], 10.0, 0.2) == 1


def test_a_noise_too_small_to_lift_a_leaf_releases_from_1() -> None:
    """At epsilon 10^6 the items' scale is 10^-5 and e^(-1/scale) is 0 in floating point: the
    floor is 1, not a math domain error (exit 4 before this test)."""
    assert dp_answers.release_floor([0, 0, 0, 1, 7], 1e-5, 0.2) == 1
    assert dp_answers.release_floor([0] * 1000 + [1], 0.01, 0.2) == 1


@pytest.mark.parametrize("rate", [0.05, 0.2, 0.5])
def test_made_up_items_stay_within_their_rate(rate) -> None:
    """5,000 leaves that never occur beside 100 items of 60..600: over 200 draws of the noise
    (discrete Laplace, scale 10), the share of released items that never occur is at most the
    rate on average; a floor of 1 (before) released about 97 % made-up items."""
    true = np.concatenate([np.zeros(5000, dtype=np.int64), np.linspace(60, 600, 100).astype(int)])
    shares, found = [], []
    for seed in range(200):
        noisy = dp_noise.SeededNoise(seed).add(true.tolist(), 10.0)
        floor = dp_answers.release_floor(noisy, 10.0, rate)
        released = np.asarray(noisy) >= floor
        shares.append(released[:5000].sum() / max(1, released.sum()))
        found.append(released[5000:].mean())
        if seed == 0:
            assert (np.asarray(noisy) >= 1)[:5000].sum() / (np.asarray(noisy) >= 1).sum() > 0.9
    assert np.mean(shares) <= rate * 1.1
    assert np.mean(found) > 0.8  # the real items, most of them near the floor or above it


def write_rows(path, header, rows) -> None:
    with path.open("w", newline="") as f:
        csv.writer(f).writerows([header, *rows])


def test_a_catalogue_of_unused_leaves_is_not_released(tmp_path, monkeypatch) -> None:
    """Ten items in the data, 3,000 leaves in the tree: the release holds few made-up items,
    and the run says from which noisy count it released them."""
    monkeypatch.setenv(dp_noise.TEST_SEED_ENV, "7")
    used = [f"p{i}" for i in range(10)]
    data, tree = tmp_path / "d.csv", tmp_path / "h.csv"
    write_rows(
        data, ["tid", "item"], [(t, used[(t + j) % 10]) for t in range(400) for j in range(3)]
    )
    leaves = used + [f"x{i}" for i in range(2990)]
    write_rows(tree, ["child", "parent"], [(x, "ALL") for x in leaves])
    db = tmp_path / "w.duckdb"
    r = cli("anonymize", data, "-H", tree, "-a", "dpsets", "--epsilon", 1, "--db", db,
            "--run", "dp", "--json", "-o", tmp_path / "rel.csv")  # fmt: skip
    assert r.code == ExitCode.VIOLATED and "seeded test run" in r.stderr  # written, not private
    assert r.json()["release_floor_l1"] > 1
    with (tmp_path / "rel.csv").open() as f:
        items = {row["item"] for row in csv.DictReader(f)}
    assert set(used) <= items  # each held by 120 transactions: far above any floor here
    assert len(items - set(used)) <= 0.5 * len(items)


def test_a_huge_epsilon_runs_and_says_it_promises_nothing(tmp_path) -> None:
    """The noise-free end of the scale (benchmarks/dp_diagnose.py runs epsilon 10^6): it runs,
    with one line, even under --quiet, saying such an epsilon is no privacy; 10 has none."""
    args = ["anonymize", EX / "fig2.csv", "-H", EX / "fig2_catalogue.csv", "-a", "dpsets"]
    r = cli(*args, "--epsilon", 1e6, "--db", tmp_path / "w.duckdb", "--json")
    assert r.code == 0, r.stderr
    assert r.json()["release_floor_l1"] == 1
    for epsilon in (1e9, 10.5):
        r = cli(*args, "--epsilon", epsilon, "-q")
        assert r.code == 0, r.stderr
        assert [x for x in r.stderr.splitlines() if f"epsilon {epsilon:g} is above 10" in x]
    assert "is above" not in cli(*args, "--epsilon", 10, "-q").stderr
