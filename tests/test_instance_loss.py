"""The instance-level loss (each released copy stands for one original item) against a
brute-force matching, on hand-made and random releases."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pyarrow as pa
import pytest
from helpers.papers import FOOD_TREE
from helpers.reference import Tree
from helpers.stores import make_store
from helpers.strategies import databases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql import Params, anonymize, runs
from setanon_sql.measure.instance_loss import instance_loss
from setanon_sql.measure.metrics import information_loss

FOOD = Tree(FOOD_TREE)


def cheapest(items: set[str], copies: list[str], tree: Tree, cost: Callable[[str], float]) -> float:
    """Least loss of one transaction over every way to give copies distinct items under them:
    a matched copy costs `cost(node)`, an item no copy stands for 1."""

    @cache
    def best(i: int, used: frozenset[str]) -> float:
        if i == len(copies):
            return len(items) - len(used)
        options = [best(i + 1, used)]
        for item in sorted((tree.leaves_under(copies[i]) & items) - used):
            options.append(cost(copies[i]) + best(i + 1, used | {item}))
        return min(options)

    return best(0, frozenset())


def reference(
    original: dict[str, set[str]], release: dict[str, list[str]], tree: Tree
) -> tuple[float, float, int]:
    """(NCP, LM, suppressed) by brute force; suppressed is what a largest matching leaves."""
    instances = sum(len(items) for items in original.values())
    ncp = sum(cheapest(original[t], release.get(t, []), tree, tree.ncp) for t in original)
    lm = sum(cheapest(original[t], release.get(t, []), tree, tree.lm) for t in original)
    suppressed = sum(
        cheapest(original[t], release.get(t, []), tree, lambda _: 0.0) for t in original
    )
    return ncp / instances, lm / instances, round(suppressed)


def measure(store, release: dict[str, list[str]]) -> dict:
    """instance_loss of a hand-given release (tid label -> node labels, repeats allowed)."""
    ids = dict(store.query("SELECT label, tid FROM tids"))
    nodes = dict(store.query("SELECT label, id FROM node"))
    rows = [(ids[t], nodes[n]) for t, labels in release.items() for n in labels]
    with runs.making(store, "hand", replace=True):
        store.put_arrow(
            "release",
            pa.table(
                {
                    "tid": pa.array([r[0] for r in rows], pa.int64()),
                    "node": pa.array([r[1] for r in rows], pa.int32()),
                }
            ),
        )
        return instance_loss(store)


def test_a_set_release_pays_for_the_items_one_node_stands_for():
    store = make_store({"t": ["Orange", "Apple", "Milk"]}, FOOD_TREE)
    figures = measure(store, {"t": ["Fruit", "Milk"]})
    # Fruit stands for one fruit (NCP 3/8), Milk for Milk (0), the other fruit is suppressed
    assert figures["ncp"] == pytest.approx((3 / 8 + 0 + 1) / 3)
    assert figures["suppressed"] == 1
    assert figures["unmatched_copies"] == 0
    store.close()


def test_copies_beyond_the_items_under_them_stand_for_nothing():
    store = make_store({"t": ["Orange", "Beef"]}, FOOD_TREE)
    figures = measure(store, {"t": ["Fruit", "Fruit", "Food"]})
    # one Fruit takes Orange, Food takes Beef; the second Fruit has no fruit left
    assert figures["ncp"] == pytest.approx((3 / 8 + 1) / 2)
    assert figures["suppressed"] == 0
    assert figures["unmatched_copies"] == 1
    store.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(db=databases(max_tx=6), data=st.data())
def test_random_releases_match_the_brute_force(db, data):
    txs, edges = db
    tree = Tree(edges)
    nodes = sorted(tree.nodes)
    original = {str(i): set(t) for i, t in enumerate(txs)}
    release = {t: data.draw(st.lists(st.sampled_from(nodes), max_size=4)) for t in original}
    store = make_store({t: sorted(items) for t, items in original.items()}, edges)
    figures = measure(store, release)
    ncp, lm, suppressed = reference(original, release, tree)
    assert figures["ncp"] == pytest.approx(ncp)
    assert figures["lm"] == pytest.approx(lm)
    assert figures["suppressed"] == suppressed
    store.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(db=databases(max_tx=12), k=st.integers(1, 4))
def test_a_verified_clump_release_is_measured_as_metrics_does(db, k):
    txs, edges = db
    store = make_store(txs, edges)
    result = anonymize(store, Params(algorithm="clump", k=min(k, len(txs))))
    with store.in_run(result.run):
        figures = instance_loss(store)
        expected = information_loss(store, multiset=True)
    assert figures["unmatched_copies"] == 0
    assert figures["suppressed"] == expected["suppressed"]
    assert figures["ncp"] == pytest.approx(expected["ncp"])
    assert figures["lm"] == pytest.approx(expected["lm"])
    store.close()
