"""`evaluate`'s promise check (`promise_holds`) rejects a release that breaks the promise by
one record (issue 44), and decides as the definition does on random releases: a promised
attack (p <= m known items for k^m, any p for transactional k) left with 1..k-1 candidates
breaks it, an attack matching nobody does not."""

from __future__ import annotations

from itertools import combinations

import pytest
from helpers.papers import AB_TREE
from helpers.reference import Tree
from helpers.stores import make_store, put_release
from helpers.strategies import databases, random_release
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql import Store, runs
from setanon_sql.measure.evaluate import Workload, evaluate, promise_holds
from setanon_sql.runs import Promise

EVERY_TARGET = Workload(queries=2, targets=10_000, minsup=0.5)  # small data: every target
# three records of a1, three of b1/b2 generalized to B: every class holds k = 3 records
DATA = [["a1"], ["a1"], ["a1"], ["b1"], ["b1"], ["b2"]]
SAFE = {"0": ["a1"], "1": ["a1"], "2": ["a1"], "3": ["B"], "4": ["B"], "5": ["B"]}
# one record (t5) released as its leaf: the two b1 records now hide among 2 = k - 1
ONE_SHORT = {**SAFE, "5": ["b2"]}
MODELS = [Promise(k=3, model="k"), Promise(k=3, m=1, model="km"), Promise(k=3, m=2, model="km")]


def evaluated(store: Store, run: str, release: dict, model: Promise) -> dict:
    with runs.making(store, run):
        put_release(store, release)
    return evaluate(store, run, model=model, workload=EVERY_TARGET)


@pytest.mark.parametrize("model", MODELS, ids=lambda p: f"{p.model}{p.m or ''}")
def test_a_release_one_record_short_is_rejected(model: Promise) -> None:
    store = make_store(DATA, AB_TREE)
    assert evaluated(store, "safe", SAFE, model)["promise_holds"]
    out = evaluated(store, "short", ONE_SHORT, model)
    assert not out["promise_holds"]
    (one,) = [a for a in out["attacks"] if a["known"] == 1]
    assert one["below_k"] == pytest.approx(2 / 6) and one["min_candidates"] == 2
    store.close()


def test_the_rule_on_figures() -> None:
    """Any promised size with an attack below k rejects; an unpromised one, or attacks that
    match nobody, do not."""
    row = {"known": 1, "promised": True, "below_k": 0.0, "no_match": 0.0}
    assert promise_holds([row])
    assert not promise_holds([row, {**row, "known": 2, "below_k": 1e-4}])
    assert promise_holds([row, {**row, "known": 3, "promised": False, "below_k": 1.0}])
    assert promise_holds([{**row, "no_match": 1.0}])


# -- against a brute force ------------------------------------------------------------------
def covers(tree: Tree, released: list[str], known: tuple[str, ...]) -> bool:
    """Could a released transaction be the target: each known item under one of its nodes."""
    return all(any(q in tree.leaves_under(n) for n in released) for q in known)


def candidates(tree: Tree, release: dict, known: tuple[str, ...]) -> int:
    return sum(covers(tree, nodes, known) for nodes in release.values())


def broken(tree: Tree, release: dict, model: Promise, attacks) -> bool:
    """The definition: some promised attack has 1..k-1 candidates."""
    return any(
        model.promised(len(known)) and 0 < candidates(tree, release, known) < model.k
        for known in attacks
    )


def drawn_attacks(store: Store, run: str) -> list[tuple[tuple[str, ...], int]]:
    """Every attack `evaluate` drew: the items known (labels) and its candidates."""
    with store.in_run(run):
        rows = store.query(
            "SELECT a.attack, a.known, list(n.label ORDER BY n.label), any_value(a.candidates) "
            "FROM (SELECT attack, known, candidates, unnest(known_items) AS id FROM eval_attacks) a "
            "JOIN node n ON n.id = a.id GROUP BY a.attack, a.known"
        )
    return [(tuple(items), cands) for _, _, items, cands in rows]


@st.composite
def cases(draw):
    txs, edges = draw(databases(max_leaves=6, max_tx=8, max_len=3))
    release = random_release(draw, txs, Tree(edges))
    if draw(st.booleans()):  # make some release short of k: one transaction as its leaves
        tid = draw(st.sampled_from(sorted(release)))
        release[tid] = sorted(txs[int(tid)])
    k = draw(st.integers(2, 4))
    model = draw(st.sampled_from([Promise(k=k, model="k"), Promise(k=k, m=1, model="km"),
                                  Promise(k=k, m=2, model="km")]))  # fmt: skip
    return txs, edges, release, model


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_promise_holds_as_the_brute_force_decides(case) -> None:
    """On the attacks drawn, the verdict is the definition's (candidates counted in Python);
    and a release the brute force finds safe for every subset of every record is never
    rejected."""
    txs, edges, release, model = case
    tree = Tree(edges)
    store = make_store(txs, edges)
    out = evaluated(store, "r", release, model)
    drawn = drawn_attacks(store, "r")
    store.close()
    for known, cands in drawn:
        assert cands == candidates(tree, release, known), known
    assert out["promise_holds"] == (not broken(tree, release, model, [k for k, _ in drawn]))
    every = [c for t in txs for p in model.attack_sizes for c in combinations(t, p)]
    if not broken(tree, release, model, every):
        assert out["promise_holds"]
