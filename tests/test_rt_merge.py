"""Merging the QI classes of a (k, k^m) run under a relational bound delta (issue 41, RTMERGE):
a table worked by hand, the plan's budget on random classes, every merged release against the
brute-force check, and the option through the CLI with its exit codes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql.errors import ExitCode
from setanon_sql.relational.rt import anonymize_rt
from setanon_sql.relational.rt_merge import Costs, Span, plan_merges, union
from setanon_sql.store.database import Store
from setanon_sql.store.hierarchy import from_edges
from setanon_sql.store.hierarchy_spec import HierarchySpec
from tests.helpers.cli import cli
from tests.helpers.rt_brute import problems

ITEMS = (("a", "A"), ("b", "A"), ("c", "B"), ("d", "B"), ("A", "*"), ("B", "*"))
QI = (("x1", "X"), ("x2", "X"), ("X", "*"), ("y", "*"))


def _run(qs, items, *, k, m, delta, size=None):
    store = Store()
    result = anonymize_rt(
        store, {"q": qs, "items": items}, qi=["q"], taxonomies={"q": list(QI)}, items="items",
        hierarchy=HierarchySpec(edges=ITEMS), k=k, m=m, mine_beam=None, class_size=size,
        delta=delta,
    )  # fmt: skip
    store.point(run=result.run)
    rows = store.execute('SELECT "q", "items" FROM table_release ORDER BY rid').rows
    return result, rows


QS = ["x1", "x1", "x2", "x2", "y", "y"]
SETS = ["a", "a;c", "b", "b;c", "c", "d"]


def test_merges_by_hand():
    """k=2: three classes of cost 0 ({x1}, {x2}, {y}, two rows each). Merging x1's and x2's
    releases 4 rows as X (LM 1/2 on 3 leaves): relational NCP 4 x 1/2 / 6 = 1/3. Merging
    either with y's releases 4 rows as * (4/6). delta 0.4 allows the first only; 0.2 none;
    1 all three (every row at *, NCP 1). (The item loss need not fall with every merge: the
    level-wise lifts of a larger class may lift further.)"""
    none, rows = _run(QS, SETS, k=2, m=1, delta=0.2)
    assert none.classes == 3 and none.relational_ncp == 0 and [q for q, _ in rows] == QS
    one, rows = _run(QS, SETS, k=2, m=1, delta=0.4)
    assert one.classes == 2 and one.relational_ncp == pytest.approx(1 / 3)
    assert [q for q, _ in rows] == ["X", "X", "X", "X", "y", "y"] and one.report.ok
    assert one.info["classes_before_merge"] == 3
    every, rows = _run(QS, SETS, k=2, m=1, delta=1.0)
    assert every.classes == 1 and every.relational_ncp == pytest.approx(1.0)
    assert [q for q, _ in rows] == ["*"] * 6 and every.report.ok
    # k=2, m=1 in the merged classes: a, b, c twice each in the first (kept); c and d once
    # in y's, both lifted to B (1/3 each): 2/3 over 8 instances.
    assert one.item_ncp == pytest.approx(1 / 12)


TREE = from_edges(QI)
LEAVES = sorted(TREE.id_of()[x] for x in ("x1", "x2", "y"))
spans = st.lists(
    st.tuples(st.integers(1, 9), st.integers(1, 30), st.sampled_from(LEAVES),
              st.sampled_from(LEAVES)),
    min_size=1, max_size=8,
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(given_spans=spans, budget=st.floats(0, 40))
def test_the_plan_stays_within_the_budget(given_spans, budget):
    """Whatever the classes, the merged classes' relational loss (computed afresh from the
    groups) stays within the budget, or at the start's when that is already above it; every
    class joins a class that stays."""
    costs = Costs([TREE], lambda t, n: (t.leaf_count[n] - 1) / 2)
    classes = {
        i: Span(r, r + extra, (min(a, b),), (max(a, b),))
        for i, (r, extra, a, b) in enumerate(given_spans)
    }
    start = sum(costs.relational(s) for s in classes.values())
    plan = plan_merges(classes, costs, budget)
    assert all(into not in plan and into < c for c, into in plan.items())
    groups: dict[int, Span] = {}
    for c, s in classes.items():
        into = plan.get(c, c)
        groups[into] = union(groups[into], s) if into in groups else s
    after = sum(costs.relational(s) for s in groups.values())
    assert after <= max(budget, start) + 1e-9
    if start > budget:
        assert plan == {}


records = st.lists(
    st.tuples(st.sampled_from(["x1", "x2", "y"]), st.sets(st.sampled_from("abcd"), min_size=1)),
    min_size=2,
    max_size=14,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=records, k=st.integers(1, 3), m=st.integers(1, 2),
       delta=st.sampled_from([0.1, 0.3, 0.5, 1.0]))  # fmt: skip
def test_every_merged_release_passes_the_brute_force(data, k, m, delta):
    if k > len(data) or m > max(len(s) for _, s in data):
        return
    qs, items = [q for q, _ in data], [";".join(sorted(s)) for _, s in data]
    result, rows = _run(qs, items, k=k, m=m, delta=delta)
    assert result.report.ok
    start = result.info["classes_before_merge"]
    assert result.classes <= start
    plain, _ = _run(qs, items, k=k, m=m, delta=None)
    assert result.relational_ncp <= max(delta, plain.relational_ncp) + 1e-9
    original = [{"q": q, "items": s} for q, s in data]
    released = [{"q": q, "items": set(g.split(";"))} for q, g in rows]
    assert problems(original, released, qi=["q"], qi_edges={"q": list(QI)}, items="items",
                    item_edges=ITEMS, k=k, m=m) == []  # fmt: skip


def _cli_files(tmp_path):
    table, qi, h = tmp_path / "t.csv", tmp_path / "q.csv", tmp_path / "h.csv"
    table.write_text("q,items\n" + "".join(f"{q},{s}\n" for q, s in zip(QS, SETS, strict=True)))
    qi.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in QI))
    h.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in ITEMS))
    return ("anonymize-rt", table, "--qi", "q", "-t", f"q={qi}", "--items", "items", "-H", h,
            "-k", "2", "-m", "1")  # fmt: skip


def test_cli_delta(tmp_path):
    base = _cli_files(tmp_path)
    r = cli(*base, "--delta", "0.4", "--json")
    assert r.code == 0, r.stderr
    assert r.json()["classes"] == 2 and r.json()["relational_ncp"] == pytest.approx(1 / 3)
    out = tmp_path / "rel.csv"
    for extra, says in [
        (("--delta", "1.5"), "delta must be a relational NCP in (0, 1]"),
        (("--delta", "0"), "delta must be a relational NCP in (0, 1]"),
        (("--delta", "nan"), "delta must be a relational NCP in (0, 1]"),
        (("--delta", "0.5", "--sensitive", "q", "--l", "1"), "cannot be combined with l-div"),
    ]:
        r = cli(*base, *extra, "-o", out)
        assert r.code == ExitCode.USAGE and says in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and not out.exists()
