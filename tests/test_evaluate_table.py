"""Exposure of table releases against a count over the released rows in Python."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import Tree
from strategies import trees

from setanon_sql import ParamsError, Store
from setanon_sql.evaluate_table import table_exposure
from setanon_sql.relational import anonymize_table


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


def test_bad_threshold_and_run() -> None:
    store = Store()
    with pytest.raises(ParamsError, match="threshold"):
        table_exposure(store, "x", threshold=0)
    with pytest.raises(ParamsError, match="no table release"):
        table_exposure(store, "x")
