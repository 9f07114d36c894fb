"""Mixed-query estimates of a generalized (k, k^m) release (`rt_eval_estimate`) pinned to a
plain-Python reading of the release: for random small tables, item hierarchies and queries, the
estimate is, summed over the released rows, 1 / leaves of the row's released QI label when it
covers the query's value, times, per query item, 1 / leaves of the deepest released label of
the row above the item (0 when none is). The statement sums telescoping node weights over
tuples of nodes per cluster; this reads row by row, from `table_release`'s labels and the edges."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql.relational.rt import anonymize_rt
from setanon_sql.relational.rt_evaluate import MixedQuery, draw, query_errors
from setanon_sql.store.database import Store
from setanon_sql.store.hierarchy_spec import HierarchySpec
from tests.helpers.rt_brute import ancestors
from tests.helpers.strategies import trees

QI_EDGES = [("0", "01"), ("1", "01"), ("2", "23"), ("3", "23"), ("01", "*"), ("23", "*")]
QI = ("x", "y")


def leaves_under(edges: list[tuple[str, str]], label: str) -> int:
    """How many leaves of the (child, parent) tree lie under `label` (itself, if a leaf)."""
    children = {c for c, _ in edges}
    parents = {p for _, p in edges}
    leaves = (children - parents) | ({label} - parents)
    return sum(label in ancestors(edges, leaf) for leaf in leaves)


def brute_estimate(
    released: list[dict], item_edges: list[tuple[str, str]], attr: str, value: str,
    items: tuple[str, ...],
) -> float:  # fmt: skip
    """The query's estimate, row by row over the released labels."""
    total = 0.0
    for row in released:
        if row[attr] not in ancestors(QI_EDGES, value):
            continue
        p = 1.0 / leaves_under(QI_EDGES, row[attr])
        for item in items:
            above = [n for n in row["items"] if n in ancestors(item_edges, item)]
            if not above:
                p = 0.0
                break
            deepest = max(above, key=lambda n: len(ancestors(item_edges, n)))
            p *= 1.0 / leaves_under(item_edges, deepest)
        total += p
    return total


@st.composite
def tables(draw_):
    """An item tree and 4..16 rows of two QIs over 0..3 and 1..4 of its leaves."""
    edges = draw_(trees(max_leaves=7, max_fanout=3))
    leaves = sorted({c for c, _ in edges} - {p for _, p in edges})
    row = st.tuples(
        st.sampled_from("0123"), st.sampled_from("0123"),
        st.sets(st.sampled_from(leaves), min_size=1, max_size=min(4, len(leaves))),
    )  # fmt: skip
    return edges, draw_(st.lists(row, min_size=4, max_size=16))


def _release(path, edges, data, k, m, search, size):
    store = Store()
    qi_file = path / "qi.csv"
    qi_file.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in QI_EDGES))
    rows = {"x": [r[0] for r in data], "y": [r[1] for r in data],
            "items": [";".join(sorted(r[2])) for r in data]}  # fmt: skip
    result = anonymize_rt(
        store, rows, qi=list(QI), taxonomies={q: str(qi_file) for q in QI}, items="items",
        hierarchy=HierarchySpec(edges=tuple(edges)), k=k, m=m, mine_beam=None,
        item_search=search, class_size=size,
    )  # fmt: skip
    return store, result.run


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    table=tables(), k=st.integers(1, 3), m=st.integers(1, 2),
    search=st.sampled_from(["topdown", "lift"]), grow=st.integers(0, 4), seed=st.integers(0, 99),
)  # fmt: skip
def test_estimates_equal_a_row_by_row_reading_of_the_release(
    tmp_path, table, k, m, search, grow, seed
):
    edges, data = table
    if k > len(data) or m > max(len(r[2]) for r in data):
        return
    store, run = _release(tmp_path, edges, data, k, m, search, min(len(data), k + grow))
    leaves = sorted({c for c, _ in edges} - {p for _, p in edges})
    with store.in_run(run, scratch=True):
        qi_id = {(a, lab): i for a, lab, i in store.execute(
            "SELECT attr, label, id FROM rel_node").rows}  # fmt: skip
        item_id = dict(store.execute("SELECT label, id FROM rt_node").rows)
        released = [
            {"x": x, "y": y, "items": set(s.split(";"))}
            for x, y, s in store.execute("SELECT x, y, items FROM table_release ORDER BY rid").rows
        ]
        rng = random.Random(seed)  # queries from rows, and any value with any leaves
        queries = draw(store, 6, [1, 2, 3, 4], seed)
        for _ in range(8):
            items = rng.sample(leaves, rng.randint(1, min(4, len(leaves))))
            attr = rng.randint(1, 2)
            value = rng.choice([r[attr - 1] for r in data])
            queries.append(MixedQuery(attr, qi_id[(attr, value)],
                                      tuple(item_id[i] for i in items)))  # fmt: skip
        query_errors(store, queries)
        got = store.execute("SELECT estimate FROM eval_rt_estimate ORDER BY qid").rows
    qi_label = {(a, i): lab for (a, lab), i in qi_id.items()}
    item_label = {i: lab for lab, i in item_id.items()}
    expected = [
        brute_estimate(
            released,
            edges,
            QI[q.attr - 1],
            qi_label[(q.attr, q.leaf)],
            tuple(item_label[i] for i in q.items),
        )  # fmt: skip
        for q in queries
    ]
    assert [e for (e,) in got] == pytest.approx(expected, rel=1e-12)


def node_beside_ancestor() -> tuple[Store, str]:
    """One class of (1, b;c;d), (1, a;b;d), (1, b;c;d), k = 2, m = 2, released as {A, B, c},
    {A, B}, {A, B, c}: c beside B, which covers it (also test_rt_eval_brute's worked example)."""
    store = Store()
    rows = {"age": ["1", "1", "1"], "items": ["b;c;d", "a;b;d", "b;c;d"]}
    edges = (("a", "A"), ("b", "A"), ("c", "B"), ("d", "B"), ("A", "*"), ("B", "*"))
    result = anonymize_rt(
        store, rows, qi=["age"], taxonomies={"age": "suppress"}, items="items",
        hierarchy=HierarchySpec(edges=edges), k=2, m=2, mine_beam=None,
    )  # fmt: skip
    with store.in_run(result.run, scratch=True):
        released = store.execute("SELECT items FROM table_release ORDER BY rid").rows
    assert released == [("A;B;c",), ("A;B",), ("A;B;c",)]
    return store, result.run


def probes(store: Store, known: list[str]) -> list[MixedQuery]:
    """Queries of age 1 with each of `known`'s item labels (one string of letters each)."""
    age = dict(store.execute("SELECT label, id FROM rel_node WHERE attr = 1").rows)
    item = dict(store.execute("SELECT label, id FROM rt_node").rows)
    return [MixedQuery(1, age["1"], tuple(item[i] for i in q)) for q in known]


def test_the_deepest_released_node_above_an_item_counts():
    """The release of `node_beside_ancestor`. age 1 with c: 1 + 1/2 + 1 (c itself where
    released, else B, of two leaves); with c and d: 1/2 + 1/4 + 1/2; with a: 3 x 1/2 (A)."""
    store, run = node_beside_ancestor()
    with store.in_run(run, scratch=True):
        found = query_errors(store, probes(store, ["c", "cd", "a"]))
    assert [q["estimate"] for q in found] == pytest.approx([2.5, 1.25, 1.5], rel=1e-12)
    assert [q["actual"] for q in found] == [2, 2, 1]
