"""One estimator for generalized releases (#42): `evaluate` on a stored run and `estimate` on the
release file it wrote run the same statements and give the same answers; an attack's
candidates are the upper bound `estimate` proves; `evaluate` and `report` say which estimator
answered."""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from setanon_sql import HierarchySpec, open_store
from setanon_sql.measure import estimate as est
from setanon_sql.measure.evaluate import Workload, evaluate
from setanon_sql.measure.report import render_html, run_report
from setanon_sql.sweep import sweep
from tests.helpers.cli import EX, cli
from tests.helpers.reference import Tree
from tests.helpers.strategies import databases

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))


def labelled(db: Path, run: str, table: str, columns: str, items: str) -> list[tuple]:
    """Rows of the run's eval table, its item ids as their labels (sorted)."""
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(
            f"SELECT {columns}, list(n.label ORDER BY n.label) FROM {run}.{table} AS q, "
            f"unnest(q.{items}) AS u(item) JOIN setanon_d1_h1.node AS n ON n.id = u.item "
            "GROUP BY ALL"
        ).fetchall()


def ask(release: Path, hierarchy: Path, itemsets: list[list[str]], tmp: Path) -> dict:
    qfile = tmp / "queries.txt"
    qfile.write_text("\n".join(" ".join(i) for i in itemsets) + "\n")
    r = cli("estimate", release, "-H", hierarchy, "--queries", qfile, "--json")
    assert r.code == 0, r.stderr
    out = r.json()
    assert out["estimator"] == est.ESTIMATORS["generalized"]
    return {" ".join(a["itemset"]): a for a in out["answers"]}


@SETTINGS
@given(
    db=databases(max_leaves=7, max_tx=16, max_len=3),
    algorithm=st.sampled_from(["aa", "partition", "clump"]),
)
def test_estimate_on_the_file_answers_as_evaluate_on_the_run(tmp_path_factory, db, algorithm):
    txs, edges = db
    tmp = tmp_path_factory.mktemp("g")
    data, hier, rel, store = tmp / "tx.csv", tmp / "h.csv", tmp / "rel.csv", tmp / "w.duckdb"
    with open(data, "w", newline="") as f:
        csv.writer(f).writerows([("tid", "item")] + [(i, x) for i, t in enumerate(txs) for x in t])
    with open(hier, "w", newline="") as f:
        csv.writer(f).writerows([("child", "parent"), *edges])
    m = ["-m", 2] if algorithm == "aa" else []
    r = cli(
        "anonymize", data, "-H", hier, "-a", algorithm, "-k", 2, *m, "-o", rel,
        "--db", store, "--run", "g", "-q",
    )  # fmt: skip
    assume(r.code != 3)  # k beyond what the data allows
    assert r.code == 0, r.stderr
    ev = cli("evaluate", "--db", store, "--run", "g", "--queries", 30, "--targets", 10, "--json")
    assert ev.code == 0, ev.stderr
    assert ev.json()["estimator"] == est.ESTIMATORS["generalized"]
    queries = labelled(
        store, "g", "eval_queries", "q.workload, q.size, q.qid, any_value(q.estimate)", "itemset"
    )
    attacks = labelled(
        store, "g", "eval_attacks", "q.known, q.attack, any_value(q.candidates)", "known_items"
    )
    assume(queries)
    got = ask(rel, hier, [q[-1] for q in queries] + [a[-1] for a in attacks], tmp)
    for *_, estimate, items in queries:
        answer = got[" ".join(items)]
        assert answer["estimate"] == pytest.approx(estimate, abs=1e-5), (items, answer)
        assert answer["lower"] - 1e-9 <= estimate <= answer["upper"] + 1e-9, (items, answer)
    for *_, candidates, items in attacks:
        assert got[" ".join(items)]["upper"] == candidates, items


def test_evaluate_and_estimate_run_the_same_statements(tmp_path):
    """Structural: the generalized estimator is one list of named statements, run by both."""
    assert set(est.GENERALIZED_ESTIMATOR) <= set(est.GENERALIZED_STEPS)
    store, _ = open_store(
        EX / "fig2.csv", hierarchy_spec=HierarchySpec(path=EX / "fig2_hierarchy.csv")
    )
    try:
        sweep(store, algorithm_names=["aa"], ks=[2], workload=Workload(queries=5, targets=5))
        log: list = []
        with store.ex.recording(log):
            out = evaluate(store, "run_aa_k2_m2", workload=Workload(queries=10, targets=10))
        ran = {e.step for e in log}
        assert set(est.GENERALIZED_ESTIMATOR) <= ran
        assert out["estimator"] == est.ESTIMATORS["generalized"]
        page = render_html(
            run_report(store, "run_aa_k2_m2", workload=Workload(queries=10, targets=10))
        )
        assert est.ESTIMATORS["generalized"].split(":")[0] in page and "setanon estimate" in page
    finally:
        store.close()


def test_a_hierarchy_with_a_node_over_one_leaf_proves_its_leaf(tmp_path):
    # C has one leaf, c: a transaction releasing C surely holds c (lower bound 1, not 0).
    hier, rel = tmp_path / "h.csv", tmp_path / "rel.csv"
    hier.write_text("child,parent\na,AB\nb,AB\nAB,R\nc,C\nC,R\n")
    rel.write_text("tid,item\n1,AB\n1,C\n2,a\n2,C\n3,b\n")
    got = ask(rel, hier, [["c"], ["a", "c"], ["a"], ["b"], ["zz"]], tmp_path)
    assert (got["c"]["estimate"], got["c"]["lower"], got["c"]["upper"]) == (2.0, 2, 2)
    assert (got["a c"]["estimate"], got["a c"]["lower"], got["a c"]["upper"]) == (1.5, 1, 2)
    assert (got["a"]["estimate"], got["a"]["lower"], got["a"]["upper"]) == (1.5, 1, 2)
    assert (got["b"]["estimate"], got["b"]["lower"], got["b"]["upper"]) == (1.5, 1, 2)
    assert (got["zz"]["estimate"], got["zz"]["upper"], got["zz"]["unknown"]) == (0.0, 0, ["zz"])


def uniform(release: dict[str, list[str]], tree: Tree, query: tuple[str, ...]) -> tuple:
    """Plain Python: the uniform estimate and the bounds of `query` on a release (tid -> nodes,
    copies repeated): per transaction, each item's chance is the sum over its released nodes at
    or above it of copies / leaves, capped at 1; proven when a node over it alone is released;
    possible when any node over it is."""
    estimate, lower, upper = 0.0, 0, 0
    for nodes in release.values():
        chances, proven = [], True
        for item in query:
            over = [n for n in nodes if n in tree.ancestors(item)]
            chances.append(min(1.0, sum(1 / len(tree.leaves_under(n)) for n in over)))
            proven = proven and any(len(tree.leaves_under(n)) == 1 for n in over)
        if all(chances):
            upper += 1
            lower += proven
            product = 1.0
            for c in chances:
                product *= c
            estimate += product
    return estimate, lower, upper


@SETTINGS
@given(db=databases(max_leaves=7, max_tx=10, max_len=3), data=st.data())
def test_estimate_matches_a_plain_python_uniform_estimator(tmp_path_factory, db, data):
    # Hand-made releases with what the algorithms above may not make: a node and one below it
    # in one transaction (an open node), copies of a node, a node over one leaf.
    txs, edges = db
    tree = Tree(edges)
    release: dict[str, list[str]] = {}
    for i, t in enumerate(txs):
        nodes = [data.draw(st.sampled_from(tree.ancestors(x))) for x in t]
        nodes += data.draw(st.lists(st.sampled_from(nodes), max_size=2))  # copies, nesting
        release[str(i)] = nodes
    tmp = tmp_path_factory.mktemp("u")
    hier, rel = tmp / "h.csv", tmp / "rel.csv"
    with open(hier, "w", newline="") as f:
        csv.writer(f).writerows([("child", "parent"), *edges])
    with open(rel, "w", newline="") as f:
        csv.writer(f).writerows(
            [("tid", "item")] + [(t, n) for t, ns in release.items() for n in ns]
        )
    leaves = sorted({c for c, _ in edges} - {p for _, p in edges})
    queries = [q for size in (1, 2, 3) for q in itertools.combinations(leaves, size)]
    got = ask(rel, hier, [list(q) for q in queries], tmp)
    for q in queries:
        a = got[" ".join(q)]
        estimate, lower, upper = uniform(release, tree, q)
        assert (a["lower"], a["upper"]) == (lower, upper), (q, a, release)
        assert a["estimate"] == pytest.approx(estimate, abs=1e-5), (q, a, release)
