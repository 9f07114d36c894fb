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


@pytest.mark.parametrize("extra", [("--targets", "5"), ("--minsup", "0.1")])
def test_evaluate_refuses_what_does_not_apply(db, extra):
    r = cli("evaluate", "--db", db, "--run", "r", *extra)
    assert r.code == ExitCode.USAGE and "table with a set column" in r.stderr
