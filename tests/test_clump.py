"""LCG, GGD and Clump against the SECRYPT 2010 examples and a plain-Python reference."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from helpers.papers import FOOD_TREE
from helpers.reference import Tree, generalizes, is_k_anonymous
from helpers.stores import make_store, original_of, release_of
from helpers.strategies import databases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql import Params, ParamsError, anonymize, runs
from setanon_sql.algorithms import lcg
from setanon_sql.algorithms.clump import best_cost, best_runs, improve
from setanon_sql.measure.verify import verify

FOOD = Tree(FOOD_TREE)


# -- plain-Python reference ----------------------------------------------------------------------
def lcg_reference(cluster: list[set[str]], tree: Tree) -> Counter[str]:
    """LCG by its definition: c(p) = min over t of |t under p|; p holds c(p) - sum c(children)."""
    c = {p: min(len(t & tree.leaves_under(p)) for t in cluster) for p in tree.nodes}
    copies = {p: c[p] - sum(c[q] for q in tree.children[p]) for p in tree.nodes}
    return Counter({p: n for p, n in copies.items() if n > 0})


def ggd_reference(cluster: list[set[str]], tree: Tree) -> float:
    """|S| * LM summed over LCG(S) + the item occurrences no copy represents."""
    released = lcg_reference(cluster, tree)
    kept = sum(released.values())
    lm = sum(tree.lm(p) * n for p, n in released.items())
    return len(cluster) * lm + sum(len(t) - kept for t in cluster)


def one_item_per_copy(original: set[str], released: list[str], tree: Tree) -> bool:
    """A matching that gives every released copy its own original item under it."""
    owner: dict[str, int] = {}

    def place(copy: int, seen: set[str]) -> bool:
        for item in sorted(tree.leaves_under(released[copy]) & original):
            if item not in seen:
                seen.add(item)
                if item not in owner or place(owner[item], seen):
                    owner[item] = copy
                    return True
        return False

    return all(place(i, set()) for i in range(len(released)))


# -- LCG and GGD of a given cluster (paper, Example 2) -------------------------------------------
def lcg_of_one_cluster(transactions: list[list[str]]) -> tuple[list[str], float]:
    store = make_store(transactions, FOOD_TREE)
    with runs.making(store, "one"):
        store.execute("CREATE TABLE cluster_of AS SELECT tid, 0 AS cluster FROM tids")
        total = lcg.release(store)
        rows = store.query(
            "SELECT n.label, l.copies FROM lcg AS l JOIN node AS n ON n.id = l.node ORDER BY 1"
        )
        assert verify(
            store, k=len(transactions), model="k", multiset=True, allow_suppression=True
        ).ok
    store.close()
    return sorted(label for label, copies in rows for _ in range(copies)), total


@pytest.mark.parametrize(
    ("cluster", "expected"),
    [
        ([["Orange", "Beef"], ["Apple", "Chicken", "Beef"]], ["Beef", "Fruit"]),
        ([["Orange", "Milk"], ["Apple", "Cheese", "Butter"]], ["Dairy", "Fruit"]),
        (
            [["Orange", "Apple"], ["Orange", "Banana", "Milk"], ["Banana", "Apple", "Beef"]],
            ["Fruit", "Fruit"],
        ),
        ([["Orange", "Beef"], ["Apple", "Milk"]], ["Food", "Fruit"]),
    ],
)
def test_lcg_of_the_papers_examples(cluster, expected):
    released, total = lcg_of_one_cluster(cluster)
    assert released == expected
    assert total == pytest.approx(ggd_reference([set(t) for t in cluster], FOOD))


def test_ggd_of_example_s1_is_11_over_7():
    _, total = lcg_of_one_cluster([["Orange", "Beef"], ["Apple", "Chicken", "Beef"]])
    assert Fraction(total).limit_denominator(100) == Fraction(11, 7)


# -- Clump ---------------------------------------------------------------------------------------
def clustering_of(store, run: str) -> dict[int, list[str]]:
    with store.in_run(run):
        rows = store.query(
            "SELECT co.cluster, list(CAST(t.label AS VARCHAR) ORDER BY t.label) FROM cluster_of AS co "
            "JOIN tids AS t ON t.tid = co.tid GROUP BY co.cluster"
        )
    return dict(rows)


def check_run(store, result, k: int, tree: Tree) -> None:
    """Everything a Clump release must satisfy, checked in plain Python."""
    original = original_of(store)
    released = release_of(store, result.run)
    clusters = clustering_of(store, result.run)
    assert sorted(t for members in clusters.values() for t in members) == sorted(original)
    assert all(len(members) >= k for members in clusters.values())
    assert is_k_anonymous(released, k)
    with store.in_run(result.run):
        ggd_rows = dict(store.query("SELECT cluster, ggd FROM ggd"))
    total = 0.0
    for cluster, members in clusters.items():
        expected = sorted(lcg_reference([original[t] for t in members], tree).elements())
        for t in members:
            assert released[t] == expected
            assert generalizes(original[t], released[t], tree, allow_suppression=True)
            assert one_item_per_copy(original[t], released[t], tree)
        ggd = ggd_reference([original[t] for t in members], tree)
        assert ggd_rows[cluster] == pytest.approx(ggd)
        total += ggd
    assert result.info["ggd"] == pytest.approx(total, abs=1e-4)


def test_clump_on_the_papers_transactions():
    txs = [
        ["Orange", "Beef"], ["Apple", "Chicken", "Beef"], ["Orange", "Milk"],
        ["Apple", "Cheese", "Butter"], ["Orange", "Apple"], ["Orange", "Banana", "Milk"],
        ["Banana", "Apple", "Beef"], ["Apple", "Milk"],
    ]  # fmt: skip
    store = make_store(txs, FOOD_TREE)
    for k in (1, 2, 3, 8):
        check_run(store, anonymize(store, Params(algorithm="clump", k=k)), k, FOOD)
    store.close()


def test_clump_groups_identical_transactions_at_no_cost():
    kinds = [["Orange", "Beef"], ["Orange", "Milk"], ["Apple", "Milk"]]
    store = make_store([kinds[i % 3] for i in range(9)], FOOD_TREE)
    result = anonymize(store, Params(algorithm="clump", k=3))
    assert result.info["ggd"] == 0
    assert sorted(map(sorted, release_of(store, result.run).values())) == sorted(
        sorted(t) for t in [kinds[i % 3] for i in range(9)]
    )
    store.close()


def test_clump_is_deterministic():
    db = [["Orange", "Beef"], ["Apple", "Chicken"], ["Milk"], ["Cheese", "Butter"], ["Banana"]]
    store = make_store(db * 3, FOOD_TREE)
    for options in ({"method": "greedy", "reach": 1}, {"method": "runs"}):
        first = anonymize(store, Params(algorithm="clump", k=2, options=options))
        second = anonymize(store, Params(algorithm="clump", k=2, options=options))
        assert clustering_of(store, first.run) == clustering_of(store, second.run)
    store.close()


def random_food_store(seed: int, n: int):
    """A store of n random transactions of 1..4 foods."""
    rng = random.Random(seed)
    leaves = sorted(FOOD.leaf_set)
    return make_store([rng.sample(leaves, rng.randint(1, 4)) for _ in range(n)], FOOD_TREE)


@pytest.mark.parametrize("k", [3, 5])
def test_clump_dissolves_stuck_clusters_and_places_their_members(k):
    dissolved = 0
    for seed in range(4):
        store = random_food_store(seed, 40)
        options = {"method": "greedy", "reach": 1, "batch": 1}
        result = anonymize(store, Params(algorithm="clump", k=k, options=options))
        dissolved += result.info["dissolved"]
        check_run(store, result, k, FOOD)
        store.close()
    assert dissolved > 0  # the random databases do make the greedy dissolve clusters


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(db=databases(max_tx=14), k=st.integers(1, 4), reach=st.sampled_from([None, 1, 2]))
def test_greedy_releases_verify_and_match_the_reference(db, k, reach):
    txs, edges = db
    k = min(k, len(txs))
    options = {"method": "greedy"} | (
        {} if reach is None else {"reach": reach, "batch": 1 + k // 3}
    )
    store = make_store(txs, edges)
    params = Params(algorithm="clump", k=k, options=options, keep_intermediate=True)
    result = anonymize(store, params)
    assert result.report.ok
    check_run(store, result, k, Tree(edges))
    with store.in_run(result.run):  # the greedy's running GGD, as its costs assume it
        running = store.query(
            "SELECT s.cluster, (s.items * (m.leaves - 1) - s.size * s.gain) / (m.leaves - 1), g.ggd "
            "FROM clump_cluster AS s JOIN ggd AS g USING (cluster), "
            "(SELECT max(leaf_count) AS leaves FROM node) AS m"
        )
    assert len(running) == result.info["clusters"]
    assert all(mine == pytest.approx(final) for _, mine, final in running)
    store.close()


def tilings(n: int, k: int) -> list[list[int]]:
    """Every cut of 0..n-1 into runs of k to 2k - 1 positions, as run starts."""
    if n == 0:
        return [[]]
    return [
        [*head, n - size]
        for size in range(k, min(2 * k - 1, n) + 1)
        for head in tilings(n - size, k)
    ]


@given(data=st.data(), k=st.integers(1, 4), extra=st.integers(0, 9))
def test_best_runs_is_the_cheapest_tiling(data, k, extra):
    n = k + extra
    costs = [
        data.draw(st.integers(0, 30)) if pos + size <= n else None
        for pos in range(n)
        for size in range(k, 2 * k)
    ]
    starts = best_runs(costs, n=n, k=k)
    assert starts in tilings(n, k)
    assert best_cost(costs, starts, n=n, k=k) == min(
        best_cost(costs, t, n=n, k=k) for t in tilings(n, k)
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(db=databases(max_tx=14), k=st.integers(1, 4))
def test_runs_release_verifies_and_every_run_is_costed_as_its_ggd(db, k):
    txs, edges = db
    k = min(k, len(txs))
    tree = Tree(edges)
    store = make_store(txs, edges)
    params = Params(algorithm="clump", k=k, keep_intermediate=True)
    result = anonymize(store, params)
    assert result.report.ok
    check_run(store, result, k, tree)
    original = original_of(store)
    with store.in_run(result.run):
        order = [
            t
            for (t,) in store.query(
                "SELECT CAST(t.label AS VARCHAR) FROM clump_order AS o JOIN tids AS t USING (tid) "
                "ORDER BY o.pos"
            )
        ]
        runs = store.query("SELECT pos, size, cost FROM clump_segment")
        scale = store.scalar("SELECT max(leaf_count) - 1 FROM node")
    expected = {
        (pos, size)
        for pos in range(len(order))
        for size in range(k, 2 * k)
        if pos + size <= len(order)
    }
    assert {(pos, size) for pos, size, _ in runs} == expected
    for pos, size, cost in runs:
        members = [original[t] for t in order[pos : pos + size]]
        assert cost == pytest.approx(ggd_reference(members, tree) * scale)
    # the exchanges after the cut saved exactly what they were costed to save
    saving = result.info["exchange_saving"]
    assert saving >= 0
    assert result.info["ggd"] == pytest.approx(result.info["runs_ggd"] - saving, abs=1e-3)
    store.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(db=databases(max_tx=14), k=st.integers(2, 3))
def test_the_cut_alone_gives_runs_of_k_to_2k_minus_1(db, k):
    txs, edges = db
    k = min(k, len(txs))
    store = make_store(txs, edges)
    result = anonymize(store, Params(algorithm="clump", k=k, options={"passes": 0}))
    check_run(store, result, k, Tree(edges))
    sizes = [len(m) for m in clustering_of(store, result.run).values()]
    assert all(k <= size < 2 * k for size in sizes)
    assert result.info["runs_ggd"] == pytest.approx(result.info["ggd"], abs=1e-3)
    store.close()


def coarse_key(items: set[str], tree: Tree, ids: dict[str, int], coarse: float) -> list:
    """The order's first key by its definition: per top ancestor (a child of the root) its id
    and its count coarsened to a power of `coarse`, most items first, then id."""
    levels = []
    for top in tree.children[tree.root]:
        cnt = len(items & tree.leaves_under(top))
        if cnt:
            levels.append(
                (math.floor(math.log(cnt) / math.log(coarse)) if coarse > 1 else cnt, ids[top])
            )
    return [(node, -level) for level, node in sorted(levels, key=lambda x: (-x[0], x[1]))]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    db=databases(max_leaves=12, max_tx=14, max_len=8),
    k=st.integers(1, 3),
    coarse=st.sampled_from([1.0, 1.35, 2.0]),
)
def test_the_order_follows_coarsened_top_counts_then_length(db, k, coarse):
    """Transactions whose counts under the top ancestors fall in the same powers of `coarse`
    are neighbours in the order, shorter first; and the release still verifies."""
    txs, edges = db
    k = min(k, len(txs))
    tree = Tree(edges)
    store = make_store(txs, edges)
    params = Params(algorithm="clump", k=k, keep_intermediate=True, options={"coarse": coarse})
    result = anonymize(store, params)
    assert result.report.ok
    check_run(store, result, k, tree)
    original = original_of(store)
    with store.in_run(result.run):
        ids = dict(store.query("SELECT label, id FROM node"))
        order = store.query(
            "SELECT CAST(t.label AS VARCHAR), o.len FROM clump_order AS o "
            "JOIN tids AS t USING (tid) ORDER BY o.pos"
        )
    keys = [(coarse_key(original[t], tree, ids, coarse), length) for t, length in order]
    assert keys == sorted(keys)
    store.close()


@pytest.mark.parametrize(("coarse", "first"), [(1.0, ["0", "1"]), (2.0, ["1", "0"])])
def test_near_top_counts_tie_and_the_shorter_comes_first(coarse, first):
    """3 and 2 fruits, 1 meat: exact counts put the 3 fruits first; as powers of 2 the two
    tie, and the shorter transaction comes first."""
    txs = [["Orange", "Apple", "Banana", "Beef"], ["Orange", "Apple", "Beef"], ["Milk"], ["Milk"]]
    store = make_store(txs, FOOD_TREE)
    params = Params(algorithm="clump", k=2, keep_intermediate=True, options={"coarse": coarse})
    result = anonymize(store, params)
    check_run(store, result, 2, FOOD)
    with store.in_run(result.run):
        order = store.query(
            "SELECT CAST(t.label AS VARCHAR) FROM clump_order AS o JOIN tids AS t USING (tid) "
            "ORDER BY o.pos"
        )
    assert [t for (t,) in order if t in first] == first
    store.close()


def test_exchanges_lower_ggd_by_what_they_were_costed():
    exchanges = 0
    for seed in range(6):
        store = random_food_store(seed, 30)
        cut = anonymize(store, Params(algorithm="clump", k=3, options={"passes": 0}))
        improved = anonymize(store, Params(algorithm="clump", k=3, options={"passes": 3}))
        check_run(store, improved, 3, FOOD)
        saving = improved.info["exchange_saving"]
        # all three figures are rounded to 4 decimals
        assert improved.info["ggd"] == pytest.approx(cut.info["ggd"] - saving, abs=2e-4)
        assert saving > 0 or improved.info["exchanges"] == 0
        exchanges += improved.info["exchanges"]
        store.close()
    assert exchanges > 0  # these databases do leave exchanges worth making


def test_passes_skip_only_pairs_that_would_find_no_exchange():
    """Passes after the first retry only pairs with a changed cluster; once they converge, a
    fresh pass that tries every pair must find nothing left to exchange. (One misfit a side
    leaves a pair that just exchanged more to do, which skipping it would miss.)"""
    options = {"passes": 30, "span": 2, "outs": 1}
    for seed in range(8):
        store = random_food_store(seed, 60)
        params = Params(algorithm="clump", k=3, keep_intermediate=True, options=options)
        result = anonymize(store, params)
        check_run(store, result, 3, FOOD)
        assert result.info["passes"] < 30  # converged
        with store.in_run(result.run):
            scale = int(store.scalar("SELECT max(leaf_count) - 1 FROM node"))
            again = improve(store, k=3, scale=scale, opts={**options, "passes": 1})
        assert again["exchanges"] == 0
        assert again["pairs_tried"] * result.info["passes"] >= result.info["pairs_tried"]
        store.close()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"method": "best"}, "option method of clump must be one of runs, greedy; got 'best'"),
        ({"reach": 0}, "option reach of clump must be >= 1, got 0"),
        ({"batch": "five"}, "option batch of clump must be a whole number, got 'five'"),
        ({"keep": True}, "option keep of clump must be a whole number, got True"),
        ({"batch": 2.5}, "option batch of clump must be a whole number, got 2.5"),
        (
            {"reach": 3},
            "option(s) of clump that do not act here: reach acts only with method=greedy",
        ),
        (
            {"method": "greedy", "passes": 2, "keep": 3},
            "option(s) of clump that do not act here: passes acts only with method=runs",
        ),
        (
            {"passes": 0, "outs": 2},
            "option(s) of clump that do not act here: "
            "outs acts only with method=runs and passes of at least 1",
        ),
        (
            {"window": 3},
            "unknown option(s) for clump: window; valid keys: method, passes, span, outs, reach, batch, keep, coarse",
        ),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ParamsError) as err:
        Params(algorithm="clump", k=2, options=options)
    assert str(err.value) == message


def test_options_from_text_are_typed():
    given = {"method": "greedy", "reach": "8"}
    assert Params(algorithm="clump", k=4, options=given).options == {
        "method": "greedy",
        "passes": 3,
        "span": 5,
        "outs": 6,
        "reach": 8,
        "batch": 4,
        "keep": 8,
        "coarse": 1.35,
    }
