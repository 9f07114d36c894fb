"""AA, DA and OA (Terrovitis, Mamoulis & Kalnis, VLDB 2008) against the paper's example, a
brute-force search over all cuts, and the plain-Python k^m check."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product
from pathlib import Path

import pytest
from helpers.reference import Tree, generalizes, information_loss, is_km_anonymous
from helpers.stores import make_store, original_of, release_of
from helpers.strategies import databases
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from setanon_sql import (
    HierarchySpec,
    InfeasibleError,
    Params,
    TooLargeError,
    anonymize,
    open_store,
    runs,
)
from setanon_sql.algorithms import km_cut, km_specialize
from setanon_sql.engine import km_builders as km_sql
from setanon_sql.engine.builders import render
from setanon_sql.measure.synthetic import SynthSpec, write_baskets

CUT_ALGORITHMS = ["aa", "da", "oa"]
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run(store, algorithm: str, k: int, m: int, **extra):
    return anonymize(store, Params(algorithm=algorithm, k=k, m=m, **extra))


def cut_of(store, result) -> dict[str, str]:
    """The run's cut as item label -> cut node label."""
    with store.in_run(result.run):
        rows = store.query(
            "SELECT i.label, n.label FROM cut c JOIN node i ON i.id = c.item "
            "JOIN node n ON n.id = c.node"
        )
    return dict(rows)


# -- the paper's example -------------------------------------------------------------------------
@pytest.mark.parametrize("algorithm", CUT_ALGORITHMS)
def test_fig2_k2_m2_generalizes_a1_a2_to_a(fig2, algorithm):
    result = run(fig2, algorithm, 2, 2)
    assert cut_of(fig2, result) == {"a1": "A", "a2": "A", "b1": "b1", "b2": "b2"}
    assert release_of(fig2, result.run) == {
        "0": ["A", "b1", "b2"],
        "1": ["A", "b1"],
        "2": ["A", "b1", "b2"],
        "3": ["A", "b2"],
    }
    assert result.loss["ncp"] == pytest.approx(2.5 / 11)
    assert result.info["cut_ncp"] == pytest.approx(2.5 / 11, abs=1e-6)


# -- optimality: OA against every cut ------------------------------------------------------------
def all_cuts(tree: Tree, node: str) -> list[frozenset[str]]:
    """Every cut of the subtree under `node`."""
    kids = tree.children[node]
    if not kids:
        return [frozenset([node])]
    below = [frozenset().union(*parts) for parts in product(*(all_cuts(tree, c) for c in kids))]
    return [frozenset([node]), *below]


def generalize(txs: dict[str, set[str]], tree: Tree, cut: frozenset[str]) -> dict[str, list[str]]:
    return {
        tid: sorted({next(a for a in tree.ancestors(i) if a in cut) for i in items})
        for tid, items in txs.items()
    }


def brute_force_ncp(txs: dict[str, set[str]], tree: Tree, k: int, m: int) -> float:
    """The least NCP of any k^m-anonymous cut, trying them all."""
    costs = [
        information_loss(txs, released, tree)[0]
        for cut in all_cuts(tree, tree.root)
        if is_km_anonymous(released := generalize(txs, tree, cut), k, m)
    ]
    return min(costs)


@SETTINGS
@given(db=databases(max_leaves=8, max_tx=10), k=st.integers(1, 4), m=st.integers(1, 3))
def test_oa_equals_brute_force(db, k, m):
    txs, edges = db
    assume(k <= len(txs))
    with make_store(txs, edges) as store:
        result = run(store, "oa", k, m)
        original = original_of(store)
        assert result.loss["ncp"] == pytest.approx(brute_force_ncp(original, Tree(edges), k, m))


# -- AA and DA: always k^m-anonymous, never cheaper than the optimum ----------------------------
def splittable(txs, tree: Tree, cut: frozenset[str], k: int, m: int) -> list[str]:
    """The generalized cut nodes that could be replaced by their children, k^m still holding."""
    return [
        a
        for a in sorted(cut)
        if tree.children[a]
        and is_km_anonymous(generalize(txs, tree, (cut - {a}) | set(tree.children[a])), k, m)
    ]


@settings(SETTINGS, max_examples=20)
@given(db=databases(max_leaves=8, max_tx=12), k=st.integers(1, 4), m=st.integers(1, 3))
def test_aa_and_da_are_km_anonymous_generalizations(db, k, m):
    txs, edges = db
    assume(k <= len(txs))
    tree = Tree(edges)
    with make_store(txs, edges) as store:
        original = original_of(store)
        optimum = run(store, "oa", k, m).loss["ncp"]
        for algorithm in ("aa", "da"):
            plain = run(store, algorithm, k, m, options={"specialize": False})
            special = run(store, algorithm, k, m, options={"specialize": True})
            for result in (plain, special):  # both verified by the project's verifier
                released = release_of(store, result.run)
                assert is_km_anonymous(released, k, m)
                assert all(generalizes(original[t], released[t], tree) for t in original)
                ncp = information_loss(original, released, tree)[0]
                assert result.loss["ncp"] == pytest.approx(ncp)
            # the pass only splits, and leaves no node that could be split on its own
            assert optimum - 1e-12 <= special.loss["ncp"] <= plain.loss["ncp"] + 1e-12
            cut = frozenset(cut_of(store, special).values())
            assert splittable(original, tree, cut, k, m) == []
            before = special.info["cut_ncp_before_specialize"]
            assert before == pytest.approx(plain.info["cut_ncp"], abs=1e-6)


# -- the specialization pass ----------------------------------------------------------------------
@settings(SETTINGS, max_examples=40)
@given(db=databases(max_leaves=8, max_tx=12), k=st.integers(1, 4), m=st.integers(1, 3))
def test_specializing_the_root_cut_reaches_a_minimal_km_anonymous_cut(db, k, m):
    # the coarsest cut leaves the pass the most to do: every split it makes is checked
    txs, edges = db
    assume(k <= len(txs))
    tree = Tree(edges)
    with make_store(txs, edges) as store:
        with runs.making(store, "specialize"):
            t = km_cut.load_tree(store)
            km_cut.start(store, t, k)
            root = km_cut.Cut(t)
            root.merge((0,))
            cut, splits = km_specialize.specialize(store, root, m, k, lambda *a: None)
            label = dict(store.query("SELECT id, label FROM node"))
        nodes = frozenset(label[a] for a in cut.nodes())
        original = original_of(store)
        assert is_km_anonymous(generalize(original, tree, nodes), k, m)
        assert splittable(original, tree, nodes, k, m) == []
        # every node split lies strictly above the final cut, and each one was split once
        assert splits == len({a for c in nodes for a in tree.ancestors(c)[1:]})


def _needs_of_every_split_violation(store, tree, nodes, candidates, m, k):
    """The pass's count before issue 30 cut it down: every itemset of 1..m nodes of
    split_expanded under k (cut nodes alone and itemsets holding a child under k included),
    each turned into its needs in Python."""
    from sqlglot import exp, select

    from setanon_sql.engine.builders import itemset_supports

    parts = [
        select(*[exp.column(f"item_{j}") for j in range(1, size + 1)]).from_(
            itemset_supports("split_expanded", size, pair_condition=km_sql.not_descendant).subquery(
                f"s{size}"
            )
        )
        for size in range(1, m + 1)
    ]
    km_specialize.put_split_expanded(store, tree, nodes, candidates, k)
    itemsets = [
        tuple(x for x in row if x is not None)
        for q in parts
        for row in store.query(render(q), {"k": k})
    ]
    store.drop_tables("split_node", "split_expanded")
    return km_specialize.needs_of(tree, candidates, itemsets)


@settings(SETTINGS, max_examples=40)
@given(db=databases(max_leaves=8, max_tx=12), k=st.integers(1, 4), m=st.integers(1, 3))
def test_the_pass_counting_only_what_can_change_a_decision_decides_as_counting_all(db, k, m):
    # only itemsets holding a child, beyond size 1 none holding a child of a candidate with a
    # child under k, and their needs not the itemsets: a cut that differs from the one of the
    # full count would mean a decision changed
    txs, edges = db
    assume(k <= len(txs))
    ours = km_specialize._split_needs
    cuts = []
    for count in (ours, _needs_of_every_split_violation):
        km_specialize._split_needs = count  # hypothesis takes no function-scoped monkeypatch
        try:
            with make_store(txs, edges) as store, runs.making(store, "specialize"):
                t = km_cut.load_tree(store)
                km_cut.start(store, t, k)
                root = km_cut.Cut(t)
                root.merge((0,))
                cut, splits = km_specialize.specialize(store, root, m, k, lambda *a: None)
        finally:
            km_specialize._split_needs = ours
        cuts.append((sorted(cut.nodes()), splits))
    assert cuts[0] == cuts[1]


def test_a_split_waits_for_a_node_still_to_be_decided():
    # ALL=0, A=1 (a1=2, a2=3), B=4 (b1=5, b2=6); {a1, B} is under k: splitting A is refused
    # while B may stay whole, and B, saving more, is judged first and taken
    t = km_cut.Tree(
        (-1, 0, 1, 1, 0, 4, 4), (6, 3, 2, 3, 6, 5, 6), (0, 1, 2, 2, 1, 2, 2),
        (0, 10, 0, 0, 12, 0, 0), (4, 4, 2, 3, 4, 3, 3), (), 11, 4,
    )  # fmt: skip
    assert km_specialize.choose_splits(t, [1, 4], [(2, 4)]) == [1, 4]
    assert km_specialize.choose_splits(t, [1, 4], [(2, 4), (2, 5), (2, 6)]) == [4]
    assert km_specialize.choose_splits(t, [1], [(2, 4)]) == []


# -- edge cases ----------------------------------------------------------------------------------
@pytest.mark.parametrize("algorithm", CUT_ALGORITHMS)
def test_m_beyond_the_longest_transaction_changes_nothing(fig2, algorithm):
    assert release_of(fig2, run(fig2, algorithm, 2, 5).run) == release_of(
        fig2, run(fig2, algorithm, 2, 3).run
    )


@pytest.mark.parametrize("algorithm", CUT_ALGORITHMS)
def test_k_above_the_data_is_infeasible(fig2, algorithm):
    with pytest.raises(InfeasibleError, match=r"k = 5 is larger than the data \(4 transactions\)"):
        run(fig2, algorithm, 5, 2)


@pytest.mark.parametrize("algorithm", CUT_ALGORITHMS)
def test_k_1_is_the_identity(fig2, algorithm):
    result = run(fig2, algorithm, 1, 2)
    assert release_of(fig2, result.run) == {
        t: sorted(items) for t, items in original_of(fig2).items()
    }
    assert result.loss["ncp"] == 0
    assert result.info["generalized_nodes"] == 0


UNEVEN_TREE = [("A", "ALL"), ("c", "ALL"), ("B", "A"), ("a3", "A"), ("a1", "B"), ("a2", "B")]


@pytest.mark.parametrize("algorithm", CUT_ALGORITHMS)
def test_uneven_depths(algorithm):
    # a1 occurs once: the cheapest fix is B = {a1, a2}, one level up; c (depth 1) stays.
    with make_store([["a1", "c"], ["a2", "c"], ["a2", "a3"], ["a3"]], UNEVEN_TREE) as store:
        result = run(store, algorithm, 2, 1)
        assert cut_of(store, result) == {"a1": "B", "a2": "B", "a3": "a3", "c": "c"}


def test_oa_refuses_more_cuts_than_max_cuts(fig2):
    # the tree of Fig. 2 has 5 cuts: {ALL}, {A,B}, {A,b1,b2}, {a1,a2,B}, {a1,a2,b1,b2}
    with pytest.raises(TooLargeError, match=r"more than max_cuts = 4 cuts"):
        run(fig2, "oa", 2, 2, options={"max_cuts": 4})
    assert run(fig2, "oa", 2, 2, options={"max_cuts": 5}).info["cuts"] == 5


@pytest.mark.parametrize(
    ("algorithm", "source", "held", "what"),
    # OA: expanded lengths (root aside) 5, 4, 5, 5: 5 + 4 + 5 + 5 singles and 10 + 6 + 10 + 10
    # pairs, counted at once. DA: the itemsets of the transactions generalized by the cut, size
    # by size; the leaves' lengths 3, 2, 3, 3 hold 11 singles, then (no leaf is under k = 2)
    # 3 + 1 + 3 + 3 pairs, then the cut {A, b1, b2} 3 + 1 + 3 + 1
    [("oa", "expanded", 55, "1..2"), ("da", "generalized", 11, "1")],
)
def test_da_and_oa_refuse_too_many_itemsets_to_count(fig2, algorithm, source, held, what):
    with pytest.raises(
        TooLargeError,
        match=rf"the {source} transactions hold {held} itemsets of {what} nodes, more than "
        rf"max_itemsets = {held - 1}",
    ):
        run(fig2, algorithm, 2, 2, options={"max_itemsets": held - 1})
    assert run(fig2, algorithm, 2, 2, options={"max_itemsets": held}).loss["ncp"] > 0


# -- DA counts only what its walk reads (issue 30) --------------------------------------------
class LookedUp:
    """Supports as DA read them before issue 30: a `size`-itemset is under k exactly when it is
    in `under` (every expanded itemset at or above the level's cut under k), a smaller one at
    or above the cut never is; a single node's support is the tree's."""

    def __init__(self, tree: km_cut.Tree, under: set[tuple[int, ...]], size: int, k: int):
        self.tree, self.under, self.size, self.k = tree, under, size, k

    def __getitem__(self, itemset: tuple[int, ...]) -> int:
        if len(itemset) == 1:
            return self.tree.support[itemset[0]]
        if len(itemset) == self.size:
            return 0 if itemset in self.under else self.k
        return self.k


def exhaustive_da_cut(store, k: int, m: int) -> tuple[frozenset[str], int]:
    """DA's cut (no specialization) and its rounds, with every expanded itemset at or above the cut counted up
    front, size by size, and the walk's supports looked up there: the design DA had before
    issue 30, in plain Python, one violation at a time."""
    with runs.making(store, "exhaustive_da"):
        tree = km_cut.load_tree(store)
        label = dict(store.query("SELECT id, label FROM node"))
        rank = {
            x: r
            for r, (x,) in enumerate(
                store.query("SELECT id FROM node ORDER BY leaf_count DESC, id")
            )
        }
        held: dict[int, set[int]] = {}
        for tid, item in store.query("SELECT tid, item FROM tx"):
            held.setdefault(tid, set()).update(tree.ancestors[item])
    cut = km_cut.Cut(tree)
    rounds = 0
    for size in range(1, m + 1):
        above = {a for c in cut.nodes() for a in tree.ancestors[c]}
        counts: Counter[tuple[int, ...]] = Counter(
            itemset
            for nodes in held.values()
            for itemset in combinations(sorted(nodes & above), size)
            if tree.antichain(itemset) == itemset
        )
        under = {itemset for itemset, n in counts.items() if n < k}
        supports = LookedUp(tree, under, size, k)
        while True:
            in_cut = set(cut.nodes())
            walk = sorted(
                (v for v in under if set(v) <= in_cut), key=lambda v: sorted(rank[x] for x in v)
            )
            rounds += 1
            if not walk:
                break
            for v in walk:
                image = cut.image(v)
                if image != v and supports[image] >= k:
                    continue
                cut.merge(km_cut.best_fix(cut, supports, image, k))
    return frozenset(label[a] for a in cut.nodes()), rounds


@settings(SETTINGS, max_examples=60)
@given(
    db=databases(max_leaves=9, max_tx=14),
    k=st.integers(2, 5),
    m=st.integers(1, 3),
    sampled=st.booleans(),
)
def test_da_counting_what_its_walk_reads_finds_the_exhaustive_cut(db, k, m, sampled):
    # DA now counts the cut's violations from the generalized transactions and the walk's
    # images and generalizations when it reads them (on a sample first, or not): the cut is the
    # one of counting every expanded itemset up front and looking supports up
    txs, edges = db
    assume(k <= len(txs))
    with make_store(txs, edges) as store:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(km_cut, "SAMPLE_FROM", 1 if sampled else 10**12)
            result = run(store, "da", k, m, options={"specialize": False})
        assert result.report.ok  # passed the verifier
        cut, rounds = exhaustive_da_cut(store, k, m)
        assert frozenset(cut_of(store, result).values()) == cut
        assert result.info["rounds"] == rounds <= 2 * m  # a size's second round finds none


# -- candidates settled on a sample --------------------------------------------------------------
def sampled_and_full(store, k: int, m: int, growth: int = km_cut.SAMPLE_GROWTH):
    """AA with every candidate counted on the sample first (its share growing every `growth`
    transactions), and with none."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(km_cut, "SAMPLE_FROM", 1)
        mp.setattr(km_cut, "SAMPLE_GROWTH", growth)
        sampled = run(store, "aa", k, m)
        mp.setattr(km_cut, "SAMPLE_FROM", 10**12)
        full = run(store, "aa", k, m)
    return sampled, full


@SETTINGS
@given(
    db=databases(max_leaves=8, max_tx=16),
    k=st.integers(1, 3),
    m=st.integers(1, 3),
    growth=st.sampled_from([km_cut.SAMPLE_GROWTH, 1, 3]),
)
def test_aa_settling_on_a_sample_gives_the_same_release(db, k, m, growth):
    # only a support's comparison with k is read, and one of k or more on the sample is one
    # in the whole data: the search, so the release, is the same whatever the sample's share
    txs, edges = db
    assume(k <= len(txs))
    with make_store(txs, edges) as store:
        sampled, full = sampled_and_full(store, k, m, growth)
        assert sampled.report.ok and full.report.ok  # both passed the verifier
        assert release_of(store, sampled.run) == release_of(store, full.run)
        assert full.info["supports_settled_on_sample"] == 0


@SETTINGS
@given(db=databases(max_leaves=8, max_tx=16), k=st.integers(1, 3), m=st.integers(1, 3))
def test_aa_walk_batch_sizes_give_the_same_release(db, k, m):
    # a batch only decides how often SQL is asked: violations are still walked one by one in
    # order, so one violation a batch and all of them in one give the same release
    txs, edges = db
    assume(k <= len(txs))
    with make_store(txs, edges) as store:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(km_cut, "FIRST_BATCH", 1)
            mp.setattr(km_cut, "LAST_BATCH", 1)
            one = run(store, "aa", k, m)
        whole = run(store, "aa", k, m)
        assert one.report.ok and whole.report.ok  # both passed the verifier
        assert release_of(store, one.run) == release_of(store, whole.run)


def test_aa_settles_candidates_on_a_sample_and_says_which_supports_are_bounds(tmp_path):
    path = tmp_path / "baskets.parquet"
    write_baskets(path, SynthSpec(transactions=4_000, items=300, seed=3))
    store, _ = open_store(path, hierarchy_spec=HierarchySpec(fanout=5, order="id"))
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(km_cut, "SAMPLE_FROM", 1)
            sampled = run(store, "aa", 5, 2, keep_intermediate=True)
            mp.setattr(km_cut, "SAMPLE_GROWTH", 1_000)  # one transaction in 16, not in 4
            smaller = run(store, "aa", 5, 2)
        full = run(store, "aa", 5, 2, keep_intermediate=True)
        assert sampled.info["supports_settled_on_sample"] > 0
        # a smaller sample settles fewer candidates, and the rest are counted in full
        settled = smaller.info["supports_settled_on_sample"]
        assert 0 < settled < sampled.info["supports_settled_on_sample"]
        assert smaller.report.ok and release_of(store, smaller.run) == release_of(store, full.run)
        assert sampled.report.ok and full.report.ok
        assert release_of(store, sampled.run) == release_of(store, full.run)
        with store.in_run(sampled.run):
            bounds = store.query("SELECT itemset, support FROM itemset_supports WHERE NOT exact")
        with store.in_run(full.run):
            rows = store.query("SELECT itemset, support FROM itemset_supports")
            exact = {tuple(s): n for s, n in rows}
            assert store.scalar("SELECT bool_and(exact) FROM itemset_supports")
        assert len(bounds) == sampled.info["supports_settled_on_sample"]
        # the same search asks for the same itemsets; a bound is the count on one in 4 of the
        # transactions: at least k, at most the support
        assert all(5 <= n <= exact[tuple(s)] for s, n in bounds)
    finally:
        store.close()


@pytest.mark.parametrize("algorithm", ["aa", "da"])
def test_the_work_figures_count_what_the_support_statements_found(tmp_path, algorithm):
    # benchmarks/scale.py reads them as the walk's work: support statements, the itemsets they
    # found (each kept once in itemset_supports, beside the single nodes), the rows of
    # `expanded` each statement scans
    path = tmp_path / "baskets.parquet"
    write_baskets(path, SynthSpec(transactions=2_000, items=200, seed=5))
    store, _ = open_store(path, hierarchy_spec=HierarchySpec(fanout=4, order="id"))
    try:
        result = run(store, algorithm, 5, 2, keep_intermediate=True)
        with store.in_run(result.run):
            found = store.scalar("SELECT count(*) FROM itemset_supports WHERE len(itemset) > 1")
            rows = store.scalar("SELECT count(*) FROM expanded")
        assert result.info["support_queries"] > 0
        assert result.info["counted_itemsets"] == found > 0
        assert result.info["expanded_rows"] == rows
    finally:
        store.close()


# -- pairs counted by transaction or from their rarest node --------------------------------------
def choosing(mp: pytest.MonkeyPatch, by_transaction: bool) -> None:
    """Make every pair count go one way, whatever the costs."""
    mp.setattr(km_cut.Supports, "_pairs_by_transaction", lambda self, pairs: by_transaction)


@SETTINGS
@given(db=databases(max_leaves=8, max_tx=16))
def test_pairs_by_transaction_count_what_the_rarest_node_counts(db):
    txs, edges = db
    with make_store(txs, edges) as store:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(km_cut, "SAMPLE_FROM", 1)  # builds `sample_keys` too
            tree = km_cut.load_tree(store)
            supports = km_cut.start(store, tree, 2)
            held = {}
            for tid, node in store.query("SELECT tid, node FROM expanded"):
                held.setdefault(tid, set()).add(node)
            pairs = {
                (a, b)
                for a, b in combinations(range(tree.size), 2)
                if b not in tree.ancestors[a] and a not in tree.ancestors[b]
            }
            assume(pairs)
            want = {p: sum(1 for t in held.values() if set(p) <= t) for p in pairs}
            counted = {}
            for by_transaction in (True, False):
                choosing(mp, by_transaction)
                counted[by_transaction] = {
                    part: supports._count(pairs, part) for part in (None, "sample", "rest")
                }
        for got in counted.values():
            assert got[None] == want
            assert {p: got["sample"][p] + got["rest"][p] for p in pairs} == want
        assert counted[True] == counted[False]


@SETTINGS
@given(db=databases(max_leaves=8, max_tx=16), k=st.integers(1, 3), m=st.integers(2, 3))
def test_aa_counting_pairs_by_transaction_gives_the_same_release(db, k, m):
    txs, edges = db
    assume(k <= len(txs))
    with make_store(txs, edges) as store:
        released = []
        for by_transaction in (True, False):
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(km_cut, "SAMPLE_FROM", 1)
                choosing(mp, by_transaction)
                result = run(store, "aa", k, m)
            assert result.report.ok  # passed the verifier
            released.append(release_of(store, result.run))
        assert released[0] == released[1]


# -- what a run leaves behind --------------------------------------------------------------------
def test_aa_keeps_per_level_tables(fig2):
    kept = run(fig2, "aa", 2, 2, keep_intermediate=True)
    plain = run(fig2, "aa", 2, 2)
    tables = dict(
        fig2.query(
            "SELECT table_schema, list(table_name ORDER BY table_name) "
            "FROM information_schema.tables GROUP BY table_schema"
        )
    )
    for name in ("cut", "release", "violations_l1", "violations_l2"):
        assert name in tables[kept.run] and name in tables[plain.run]
    scratch = {"support_l1", "support_l2", "expanded", "itemset_supports"}
    assert scratch <= set(tables[kept.run])
    assert not scratch & set(tables[plain.run])
    with fig2.in_run(kept.run):
        found = fig2.query(
            "SELECT v.pos, n1.label, n2.label, v.support FROM violations_l2 v "
            "JOIN node n1 ON n1.id = v.item_1 JOIN node n2 ON n2.id = v.item_2 ORDER BY v.pos"
        )
    # in walk order: nodes with more leaves first, leaves (one each) by id: a1 < a2 < b1
    assert found == [(1, "a1", "a2", 1), (2, "a1", "b1", 1)]


# -- the generated SQL against plain Python ------------------------------------------------------
def related(tree: Tree, a: str, b: str) -> bool:
    return a in tree.ancestors(b) or b in tree.ancestors(a)


@SETTINGS
@given(db=databases(max_leaves=8, max_tx=12))
def test_expanded_holds_each_transaction_node_once_in_node_order(db):
    # km_expanded makes an ancestor only above the transaction's previous item: no DISTINCT
    txs, edges = db
    tree = Tree(edges)
    with make_store(txs, edges) as store:
        km_cut.load_tree(store)
        rows = store.query(
            "SELECT CAST(t.label AS VARCHAR), n.label, e.node, e.last = n.last FROM expanded e "
            "JOIN tids t ON t.tid = e.tid JOIN node n ON n.id = e.node"
        )
        got = sorted((tid, node) for tid, node, _, _ in rows)
        want = sorted(
            (tid, a)
            for tid, items in original_of(store).items()
            for a in {a for i in items for a in tree.ancestors(i)}
        )
        assert got == want  # each pair once
        assert all(same_last for *_, same_last in rows)
        in_table = store.query("SELECT node, tid FROM expanded")
        assert in_table == sorted(in_table)  # by node, then transaction: scans skip row groups


@SETTINGS
@given(db=databases(max_leaves=8, max_tx=10), k=st.integers(1, 5), m=st.integers(1, 3))
def test_expanded_violations_match_python(db, k, m):
    txs, edges = db
    tree = Tree(edges)
    with make_store(txs, edges) as store:
        km_cut.load_tree(store)  # builds `expanded`
        store.run("km_node_rank")
        km_cut.count_expanded_violations(store, Params(algorithm="da", k=k, m=m), "da")
        label = dict(store.query("SELECT id, label FROM node"))
        got = {
            frozenset(label[x] for x in itemset if x is not None): support
            for *itemset, support in store.query("SELECT * EXCLUDE (pos) FROM violations_expanded")
        }
        counts: Counter[frozenset[str]] = Counter()
        for items in txs:
            expanded = {a for i in items for a in tree.ancestors(i)}
            for size in range(1, m + 1):
                for itemset in combinations(sorted(expanded), size):
                    if not any(related(tree, a, b) for a, b in combinations(itemset, 2)):
                        counts[frozenset(itemset)] += 1
        want = {s: n for s, n in counts.items() if n < k}
        assert got == want


@SETTINGS
@given(db=databases(max_leaves=8, max_tx=10), k=st.integers(2, 6), m=st.integers(1, 3))
def test_walk_order_compares_sorted_rank_lists(db, k, m):
    # the rank columns walk_1.. (NULLs first) number itemsets as their sorted rank lists sort
    txs, edges = db
    with make_store(txs, edges) as store:
        km_cut.load_tree(store)
        store.run("km_node_rank")
        km_cut.count_expanded_violations(store, Params(algorithm="da", k=k, m=m), "da")
        rank = dict(store.query("SELECT id, rank FROM node_rank"))
        rows = store.query("SELECT * EXCLUDE (support) FROM violations_expanded ORDER BY pos")
        assert [pos for pos, *_ in rows] == list(range(1, len(rows) + 1))
        keys = [sorted(rank[x] for x in items if x is not None) for _, *items in rows]
        assert keys == sorted(keys)


# -- golden SQL of the builders (review a diff here as a change to what analysts read) ----------
GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize(
    ("name", "build"),
    [
        (
            "km_in_walk_order_expanded_m2.sql",
            lambda: km_sql.in_walk_order({s: km_sql.expanded_supports(s) for s in (1, 2)}),
        ),
        ("km_walk_batch_w2.sql", lambda: km_sql.walk_batch("violations_l2", 2)),
        ("km_candidate_supports_2_3.sql", lambda: km_sql.candidate_supports([2, 3])),
        (
            "km_candidate_supports_2_sample.sql",
            lambda: km_sql.candidate_supports([2], part="sample"),
        ),
        ("km_candidate_supports_2_rest.sql", lambda: km_sql.candidate_supports([2], part="rest")),
        (
            "km_candidate_supports_2_by_transaction_3_sample.sql",
            lambda: km_sql.candidate_supports([2, 3], part="sample", by_transaction=frozenset({2})),
        ),
        ("km_split_violations_m2.sql", lambda: km_sql.split_violations(2)),
    ],
)
def test_builders_match_golden_sql(name, build):
    assert render(build()) + "\n" == (GOLDEN / name).read_text(encoding="utf-8")
