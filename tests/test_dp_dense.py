"""Long transactions under -a dpsets (#44): those of more than `longest` items are modeled, not
measured: released as sessions of their noisy histogram bin's length, items drawn from the
items' estimates (`dp_sessions.long_sessions`). Dense data (every record long: mushroom, chess),
which the measuring design refused, is all modeled and runs."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from helpers.cli import cli
from helpers.stores import make_store
from hypothesis import given, settings
from hypothesis import strategies as st

from setanon_sql import Params, anonymize
from setanon_sql.algorithms import dp_answers, dp_noise, dp_sessions
from setanon_sql.errors import ExitCode


class Exact:
    """No noise: the counts as they are (a test of the path, not of the promise)."""

    mechanism = "none (test)"

    def add(self, counts, scale):
        return list(counts)

    def epsilon(self, sensitivity, scale):
        return sensitivity / scale


EDGES = [(f"i{j}", "*") for j in range(8)]
DENSE = [[f"i{j}" for j in range(8) if j != k] for k in range(8)] * 2
"""Sixteen transactions of 7 items each (of 8): every one longer than longest = 4."""
OPTIONS = {"epsilon": 100.0, "pair_items": 8, "limit2": 2, "longest": 4}


def run_exact(txs, options) -> dict[str, list[tuple]]:
    """dpsets with exact counts: its length histogram, pair counts, baskets and release."""
    store = make_store(txs, EDGES)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(dp_noise, "noise_source", Exact)
            # the tree is the test's own, fixed before the data: public, though all of it occurs
            public = {"public_domain": True, **options}
            params = Params(algorithm="dpsets", k=1, options=public, keep_intermediate=True)
            result = anonymize(store, params)
            assert result.report.ok
        with store.in_run(result.run):
            names = ["dp_noisy_lengths", "dp_noisy_l1", "dp_baskets", "release"]
            names += ["dp_noisy_l2"] if options.get("max_size", 2) == 2 else []
            return {n: store.query(f"SELECT * FROM {n} ORDER BY ALL") for n in names}
    finally:
        store.close()


def test_length_bins_cover_every_length_once() -> None:
    for longest in (2, 4, 12, 20, 300):
        bins = dp_answers.length_bins(longest)
        assert bins[:longest] == [(n, n) for n in range(1, longest + 1)]
        assert bins[-1][1] is None
        for (_, hi), (lo, _) in zip(bins, bins[1:], strict=False):
            assert lo == hi + 1


def test_dense_data_is_modeled_not_refused() -> None:
    """Every record longer than `longest`: no pair is measured, and the release holds sixteen
    sessions of at most the bin 5..8's typical length 6 drawn from the items, each item at its
    estimate (12: the cut's 48 occurrences over the share 3 / 6 the histogram implies, 96 in
    all, what the sessions need: the last ones run short of items)."""
    t = run_exact(DENSE, OPTIONS)
    assert all(short == 0 and long == 0 for _, _, short, long, _, _ in t["dp_noisy_l2"])
    sessions = Counter(b for b, _, _, modeled in t["dp_baskets"] if modeled)
    assert len(sessions) == 16 and max(sessions.values()) == 6
    assert sum(sessions.values()) >= 80  # most of the 96 item occurrences go to sessions
    items = Counter(node for _, node in t["release"])
    assert items == {a: e for a, _, e, released, _ in t["dp_noisy_l1"] if released}
    assert sum(items.values()) == 96


def test_items_alone_draw_no_session() -> None:
    t = run_exact(DENSE, {"epsilon": 100.0, "longest": 4, "max_size": 1})  # no pair option: refused
    assert not any(modeled for *_, modeled in t["dp_baskets"])
    assert all(len(items) == 1 for items in by_tid(t["release"]).values())


def by_tid(release) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for tid, node in release:
        out.setdefault(tid, []).append(node)
    return out


def test_short_transactions_are_measured_long_ones_modeled() -> None:
    """Beside the dense records, short ones: their pairs are measured (exactly, here), the
    long ones' are not; the histogram counts both."""
    short = [["i0", "i1"], ["i2", "i3", "i4"]] * 8
    t = run_exact(short + DENSE, OPTIONS)
    measured = {(a, b): s + g for a, b, s, g, _, _ in t["dp_noisy_l2"] if s + g}
    assert sum(measured.values()) == 8 + 8  # {i0, i1}; {i2, i3, i4} cut to one pair each
    histogram = {lo: noisy for _, lo, _, noisy in t["dp_noisy_lengths"]}
    assert histogram[2] == 8 and histogram[3] == 8 and histogram[5] == 16


@settings(max_examples=60, deadline=None)
@given(
    estimates=st.lists(st.integers(0, 40), min_size=1, max_size=9),
    sessions=st.lists(st.tuples(st.integers(1, 12), st.integers(0, 6)), max_size=4),
)
def test_sessions_hold_distinct_items_within_their_estimates(estimates, sessions) -> None:
    """Against a brute force: each session's items distinct and at most its length, no item
    used more often than its estimate, nothing drawn of an item estimated at 0, and the same
    noisy answers give the same sessions."""
    weights = np.array(estimates, dtype=np.int64)
    session, index = dp_sessions.long_sessions(weights, sessions)
    lengths = [n for n, c in sessions for _ in range(c)]
    assert len(set(zip(session.tolist(), index.tolist(), strict=True))) == len(session)
    per_session = Counter(session.tolist())
    assert all(0 <= s < len(lengths) and per_session[s] <= lengths[s] for s in per_session)
    used = Counter(index.tolist())
    assert all(used[i] <= e for i, e in enumerate(estimates))
    again = dp_sessions.long_sessions(weights, sessions)
    assert np.array_equal(again[0], session) and np.array_equal(again[1], index)


def test_sessions_meet_as_the_estimates_predict() -> None:
    """Many sessions of 3 items of 6, items estimated in ratio 8:4:2:1:1:1 (capacity to
    spare): with no affinity, each item lands in a session, and two items meet, as often as
    successive draws without replacement give (within 5 %)."""
    weights = np.array([8, 4, 2, 1, 1, 1]) * 10_000
    session, index = dp_sessions.long_sessions(weights, [(3, 20_000)])
    p = weights / weights.sum()

    def law() -> tuple[np.ndarray, np.ndarray]:
        """Exact inclusion and pair probabilities of 3 successive draws without replacement."""
        single, pair = np.zeros(6), np.zeros((6, 6))
        for order in permutations3():
            chance, rest = 1.0, 1.0
            for i in order:
                chance *= p[i] / rest
                rest -= p[i]
            for i in order:
                single[i] += chance
            for a, b in combinations(sorted(order), 2):
                pair[a, b] += chance
        return single, pair

    single, pair = law()
    seen = np.bincount(index, minlength=6) / 20_000
    assert np.allclose(seen, single, rtol=0.05)
    members: dict[int, list[int]] = {}
    for s, i in zip(session.tolist(), index.tolist(), strict=True):
        members.setdefault(s, []).append(i)
    met = Counter(p for items in members.values() for p in combinations(sorted(items), 2))
    for (a, b), expected in np.ndenumerate(pair):
        if a < b and expected > 0.05:
            assert met[(a, b)] / 20_000 == pytest.approx(expected, rel=0.05)


def permutations3():
    from itertools import permutations

    return permutations(range(6), 3)


def test_the_command_line_releases_dense_data(tmp_path, monkeypatch) -> None:
    """Dense data, refused by the measuring design, now runs: its release holds sessions as long
    as its records' bin says (30 items of 30, taken as 30..48's typical 39: all 30)."""
    monkeypatch.setenv(dp_noise.TEST_SEED_ENV, "1")
    data = tmp_path / "dense.csv"
    rows = [(t, i) for t in range(40) for i in range(31) if i != t % 31]
    data.write_text("tid,item\n" + "".join(f"{t},{i}\n" for t, i in rows))
    db, tree = tmp_path / "w.duckdb", tmp_path / "catalogue.csv"
    tree.write_text("child,parent\n" + "".join(f"{i},ALL\n" for i in range(40)))  # 31 used
    args = ["anonymize", data, "-H", tree, "-a", "dpsets", "--db", db]
    r = cli(*args, "--epsilon", 100, "--run", "dense", "-q", "--json")
    assert r.code == ExitCode.VIOLATED and "seeded test run" in r.stderr  # written, not private
    assert r.json()["modeled_sessions"] >= 30
