"""Mixed queries on a (k, k^m) run (issue 41): counts and estimates worked by hand on a release
known from `test_rt.py`, and `evaluate --run` through the CLI with its refusals."""

from __future__ import annotations

import pytest

from setanon_sql.errors import ExitCode
from setanon_sql.relational.rt import anonymize_rt
from setanon_sql.relational.rt_evaluate import MixedQuery, query_errors
from setanon_sql.store.database import Store
from setanon_sql.store.hierarchy_spec import HierarchySpec
from tests.helpers.cli import cli

EDGES = (("a", "A"), ("b", "A"), ("c", "B"), ("d", "B"), ("A", "*"), ("B", "*"))


def test_counts_and_estimates_by_hand():
    """The release of test_rt's worked example: (1, {A, c}) twice, (2, {*}) twice, from
    (1, a;c), (1, b;c), (2, a), (2, a;d). age = 1 with c: 2 rows, estimated 1 + 1. age = 1 with
    a: 1 row, estimated 1/2 + 1/2 (A covers a and b). age = 2 with a and d: 1 row, estimated
    2 x (1/4 x 1/4) (* covers four leaves), error 7/8."""
    store = Store()
    rows = {"age": ["1", "1", "2", "2"], "items": ["a;c", "b;c", "a", "a;d"]}
    result = anonymize_rt(
        store, rows, qi=["age"], taxonomies={"age": "suppress"}, items="items",
        hierarchy=HierarchySpec(edges=EDGES), k=2, m=2, mine_beam=None,
    )  # fmt: skip
    with store.in_run(result.run, scratch=True):
        age = dict(store.execute("SELECT label, id FROM rel_node WHERE attr = 1").rows)
        item = dict(store.execute("SELECT label, id FROM rt_node").rows)
        found = query_errors(
            store,
            [
                MixedQuery(1, age["1"], (item["c"],)),
                MixedQuery(1, age["1"], (item["a"],)),
                MixedQuery(1, age["2"], (item["a"], item["d"])),
            ],
        )
    assert [q["actual"] for q in found] == [2, 1, 1]
    assert [q["estimate"] for q in found] == pytest.approx([2.0, 1.0, 2 / 16])
    assert [q["relative_error"] for q in found] == pytest.approx([0.0, 0.0, 7 / 8])


@pytest.fixture
def db(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text("sex,items\nF,a;b\nF,a\nF,b\nF,a;b\nM,c\nM,c;d\nM,d\nM,c\n")
    h = tmp_path / "h.csv"
    h.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in EDGES))
    db = tmp_path / "w.duckdb"
    r = cli(
        "anonymize-rt", table, "--qi", "sex", "-t", "sex=suppress", "--items", "items", "-H", h,
        "-k", "2", "-m", "2", "--db", db, "--run", "r", "-q",
    )  # fmt: skip
    assert r.code == 0, r.stderr
    return db


def test_evaluate_a_stored_run(db):
    r = cli("evaluate", "--db", db, "--run", "r", "--queries", "8", "--json")
    assert r.code == 0, r.stderr
    sizes = {row["size"]: row for row in r.json()["mixed_queries"]}
    assert sizes[1]["queries"] == 8 and sizes[2]["queries"] == 3  # 3 rows hold two items
    assert all(row["mean_relative_error"] >= 0 for row in sizes.values())


def test_attacks_by_hand(db):
    """Classes F and M of 4 rows each, k = 2, m = 2. Knowing 1 or 2 items (m = 2) every target
    has at least 2 candidates (the promise); the rows with two items are those of 3 known."""
    r = cli("evaluate", "--db", db, "--run", "r", "--targets", "8", "--queries", "1", "--json")
    assert r.code == 0, r.stderr
    by = {a["known_items"]: a for a in r.json()["attacks"]}
    assert by[1]["targets"] == 8 and by[2]["targets"] == 3 and 3 not in by
    assert by[1]["below_k"] == 0 and by[2]["below_k"] == 0
    assert by[1]["promised"] and by[2]["promised"]
    assert by[1]["fewest"] >= 2 and by[2]["fewest"] >= 2


@pytest.mark.parametrize("extra", [("--risk-threshold", "0.5"), ("--minsup", "0.1")])
def test_evaluate_refuses_what_does_not_apply(db, extra):
    r = cli("evaluate", "--db", db, "--run", "r", *extra)
    assert r.code == ExitCode.USAGE and "table with a set column" in r.stderr


def test_attack_candidates_by_hand():
    """The release of test_rt's worked example: (1, {A, c}) twice, (2, {*}) twice. Knowing the
    first row's age and a: both age-1 rows (A covers a). Knowing the third row's age and a: both
    age-2 rows (* covers a). Knowing the first row's a and c: both age-1 rows."""
    from setanon_sql.relational.rt_evaluate import attacks

    store = Store()
    rows = {"age": ["1", "1", "2", "2"], "items": ["a;c", "b;c", "a", "a;d"]}
    result = anonymize_rt(
        store, rows, qi=["age"], taxonomies={"age": "suppress"}, items="items",
        hierarchy=HierarchySpec(edges=EDGES), k=2, m=2, mine_beam=None,
    )  # fmt: skip
    with store.in_run(result.run, scratch=True):
        age = dict(store.execute("SELECT label, id FROM rel_node WHERE attr = 1").rows)
        item = dict(store.execute("SELECT label, id FROM rt_node").rows)
        rid = [r[0] for r in store.execute("SELECT rid FROM rel_source ORDER BY rid").rows]
        found = attacks(
            store,
            [
                MixedQuery(1, age["1"], (item["a"],)),
                MixedQuery(1, age["2"], (item["a"],)),
                MixedQuery(1, age["1"], (item["a"], item["c"])),
                MixedQuery(1, age["1"], (item["d"],)),  # no row of its class could hold d
            ],
            [rid[0], rid[2], rid[0], rid[0]],
        )
    assert [t["candidates"] for t in found] == [2, 2, 2, 0]
