"""Exposure of table releases against a count over the released rows in Python."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from helpers.reference import Tree
from helpers.strategies import trees
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql import ParamsError, Store
from setanon_sql.relational import anonymize_table
from setanon_sql.relational.evaluate import table_exposure, table_utility


@st.composite
def tables(draw):
    """A QI column over a random taxonomy's leaves, a sensitive column, and k."""
    edges = draw(trees(max_leaves=6))
    tree = Tree(edges)
    n = draw(st.integers(2, 10))
    qi = [draw(st.sampled_from(sorted(tree.leaf_set))) for _ in range(n)]
    disease = [draw(st.sampled_from(["flu", "cold", "none"])) for _ in range(n)]
    return edges, qi, disease, draw(st.integers(1, min(3, n)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=tables(), threshold=st.sampled_from([0.2, 0.5, 1.0]))
def test_risk_figures_match_the_released_rows(case, threshold) -> None:
    edges, qi, disease, k = case
    store = Store()
    result = anonymize_table(
        store, {"q": qi, "d": disease}, qi=["q"], taxonomies={"q": edges}, k=k, sensitive="d"
    )
    out = table_exposure(store, result.run, sensitive="d", threshold=threshold)
    rows = store.query(f"SELECT q, d FROM {result.run}.table_release")
    size = Counter(q for q, _ in rows)
    per_value = Counter(rows)
    risks = [1 / size[q] for q, _ in rows]
    assert out["rows"] == len(rows) and out["classes"] == len(size)
    assert out["max_risk"] == pytest.approx(max(risks)) and max(risks) <= 1 / k
    assert out["mean_risk"] == pytest.approx(sum(risks) / len(rows))
    assert out["over_threshold"] == pytest.approx(sum(r > threshold for r in risks) / len(rows))
    assert out["max_sensitive_probability"] == pytest.approx(
        max(n / size[q] for (q, _), n in per_value.items())
    )
    store.close()


@st.composite
def two_column_tables(draw):
    """Two QI columns over random taxonomies (leaves renamed apart) and k."""
    trees_ = [draw(trees(max_leaves=5)) for _ in range(2)]
    trees_ = [[(f"{c}{j}", f"{p}{j}") for c, p in edges] for j, edges in enumerate(trees_)]
    leaves = [sorted(Tree(e).leaf_set) for e in trees_]
    n = draw(st.integers(2, 9))
    cols = [[draw(st.sampled_from(leaves[j])) for _ in range(n)] for j in range(2)]
    return trees_, cols, draw(st.integers(1, min(3, n)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=two_column_tables(), seed=st.integers(0, 2))
def test_table_queries_match_the_definitions(case, seed) -> None:
    edges, cols, k = case
    taxes = {"a": edges[0], "b": edges[1]}
    tree = {"a": Tree(edges[0]), "b": Tree(edges[1])}
    store = Store()
    result = anonymize_table(
        store, {"a": cols[0], "b": cols[1]}, qi=["a", "b"], taxonomies=taxes, k=k
    )
    out = table_utility(store, result.run, queries=50, dims=(1, 2, 3), seed=seed)
    source = list(zip(cols[0], cols[1], strict=True))
    released = store.query(f"SELECT a, b FROM {result.run}.table_release ORDER BY rid")
    preds = store.query(
        f"SELECT p.dims, p.qid, list((r.name, n.label)) FROM {result.run}.eval_table_predicates p "
        f"JOIN {result.run}.rel_attr r ON r.attr = p.attr "
        f"JOIN {result.run}.rel_node n ON n.attr = p.attr AND n.id = p.node "
        "GROUP BY p.dims, p.qid"
    )
    scores = {
        (d, q): (act, est)
        for d, q, act, est in store.query(
            f"SELECT size, qid, actual, estimate FROM {result.run}.eval_queries"
        )
    }
    assert len(scores) == len(preds) and {d for d, _, _ in preds} <= {1, 2}
    seen = set()
    for dims, qid, pairs in preds:
        cond = {name: tree[name].leaves_under(label) for name, label in pairs}
        assert len(cond) == dims and frozenset(pairs) not in seen
        seen.add(frozenset(pairs))
        pos = {"a": 0, "b": 1}
        actual = sum(all(row[pos[c]] in leaves for c, leaves in cond.items()) for row in source)
        estimate = sum(
            math.prod(
                len(tree[c].leaves_under(row[pos[c]]) & leaves)
                / len(tree[c].leaves_under(row[pos[c]]))
                for c, leaves in cond.items()
            )
            for row in released
        )
        assert actual > 0  # every query is drawn from a row
        assert scores[(dims, qid)] == (actual, pytest.approx(estimate))
    for fig in out["table_queries"]:
        res = [abs(a - e) / a for (d, _), (a, e) in scores.items() if d == fig["size"]]
        assert fig["queries"] == len(res)
        assert fig["are"] == pytest.approx(sum(res) / len(res))
    store.close()


def test_bad_threshold_and_run() -> None:
    store = Store()
    with pytest.raises(ParamsError, match="threshold"):
        table_exposure(store, "x", threshold=0)
    with pytest.raises(ParamsError, match="no table release"):
        table_exposure(store, "x")


def test_exposure_measures_the_run_it_names(tmp_path) -> None:
    """Issue 26, defect 2: a run's exposure is its own, whichever run the connection read last
    and on a fresh store (it read `rel_attr` wherever the search path pointed)."""
    db = tmp_path / "w.duckdb"
    data = {"q": ["a", "a", "b", "b", "b", "a"], "r": ["x", "y", "x", "y", "x", "y"]}
    taxonomies = {"q": [("a", "*"), ("b", "*")], "r": [("x", "+"), ("y", "+")]}
    with Store(db) as store:
        one = {"q": taxonomies["q"]}
        anonymize_table(store, data, qi=["q"], taxonomies=one, k=2, run_name="r1", drop=["r"])
        alone = table_exposure(store, "r1")
        anonymize_table(store, data, qi=["q", "r"], taxonomies=taxonomies, k=6, run_name="r2")
        assert table_exposure(store, "r2")["classes"] != alone["classes"]
        assert table_exposure(store, "r1") == alone
    with Store(db) as fresh:
        assert table_exposure(fresh, "r1") == alone
