"""Classes larger than k for the (k, k^m) model (issue 41): the top-down cuts worked by hand,
the pool of small branches, the cost of a lift against a direct sum, every release of both ways
of making classes verified against the brute force with classes of at least the size asked,
and the new options through the CLI with their exit codes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql.errors import ExitCode
from setanon_sql.relational.rt import anonymize_rt
from setanon_sql.relational.rt_cuts import best_cut
from setanon_sql.relational.rt_sets import LiftCost
from setanon_sql.store import hierarchy
from setanon_sql.store.database import Store
from setanon_sql.store.hierarchy_spec import HierarchySpec
from tests.helpers.cli import cli
from tests.helpers.rt_brute import problems

ITEM_EDGES = (("a", "A"), ("b", "A"), ("c", "B"), ("d", "B"), ("A", "*"), ("B", "*"))
TREE = HierarchySpec(edges=ITEM_EDGES)
X_EDGES = [("0", "01"), ("1", "01"), ("2", "23"), ("3", "23"), ("01", "*"), ("23", "*")]
SEX_EDGES = [("F", "*"), ("M", "*")]


def _file(tmp_path, name, edges):
    path = tmp_path / name
    path.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in edges))
    return str(path)


def _released(store, run, columns):
    from sqlglot import exp, select

    from setanon_sql.engine.builders import render

    store.point(run=run)
    sql = render(
        select(*[exp.column(c, quoted=True) for c in columns])
        .from_("table_release")
        .order_by("rid")
    )
    return store.arrow(sql).to_pylist()


def _anonymize(tmp_path, rows, **kw):
    store = Store()
    taxonomies = {
        "sex": _file(tmp_path, "sex.csv", SEX_EDGES),
        "x": _file(tmp_path, "x.csv", X_EDGES),
    }
    result = anonymize_rt(
        store, rows, qi=["sex", "x"], taxonomies=taxonomies, items="items", hierarchy=TREE,
        mine_beam=None, **kw,
    )  # fmt: skip
    return store, result


def test_cuts_by_hand_sex_first_then_x():
    """Cutting by sex saves 8 rows x cost 1, by x 8 x 2/3: sex first; then each half cuts x
    into its leaves (2 rows each): four classes, no relational loss."""
    tree = hierarchy.from_edges(X_EDGES)
    ids = tree.id_of()
    cost = [(tree.leaf_count[i] - 1) / 3 for i in range(tree.size)]
    cut = best_cut(2, tree, {ids["0"]: 2, ids["1"]: 2}, 2, cost, True)
    assert cut is not None and cut.gain == pytest.approx(4 / 3)
    assert sorted(cut.bins) == [(ids["0"],), (ids["1"],)] and cut.pooled == ()
    # a class size of 3: neither leaf stands alone, nothing to cut
    assert best_cut(2, tree, {ids["0"]: 2, ids["1"]: 2}, 3, cost, True) is None
    # one leaf alone closes nothing to cut
    assert best_cut(2, tree, {ids["0"]: 5}, 1, cost, True) is None


def test_small_branches_go_to_the_pool_or_join_the_smallest_bin():
    tree = hierarchy.from_edges(X_EDGES)
    ids = tree.id_of()
    cost = [(tree.leaf_count[i] - 1) / 3 for i in range(tree.size)]
    leaves = {ids["0"]: 3, ids["1"]: 1}
    pooled = best_cut(2, tree, leaves, 3, cost, True)
    assert pooled is not None and pooled.bins == ((ids["0"],),) and pooled.pooled == (ids["1"],)
    assert pooled.gain == pytest.approx(3 * (1 / 3))
    assert best_cut(2, tree, leaves, 3, cost, False) is None  # joined: one bin, no cut


def test_a_cut_release_worked_by_hand(tmp_path):
    rows = {
        "sex": ["M", "M", "M", "M", "F", "F", "F", "F"],
        "x": ["0", "0", "1", "1", "2", "2", "3", "3"],
        "items": ["a", "a", "b", "b", "c", "c", "d", "d"],
    }
    store, result = _anonymize(tmp_path, rows, k=2, m=1, class_size=2, classes="cuts")
    assert result.classes == 4 and result.relational_ncp == 0 and result.report.ok
    assert result.item_ncp == 0  # every class holds its item twice
    store, result = _anonymize(tmp_path, rows, k=2, m=1, class_size=3, classes="cuts")
    got = _released(store, result.run, ["sex", "x", "items"])
    assert [(r["sex"], r["x"]) for r in got] == [("M", "01")] * 4 + [("F", "23")] * 4
    assert result.classes == 2 and result.relational_ncp == pytest.approx(1 / 6)
    assert result.report.ok


def test_the_pool_too_small_joins_the_smallest_class(tmp_path):
    """Size 3: sex cuts M (4) from F (3); M cuts x = 0 (3 rows) and pools its lone x = 1,
    which joins the smallest class (F, the first of the two of 3): (*, *) for those 4."""
    rows = {
        "sex": ["M", "M", "M", "M", "F", "F", "F"],
        "x": ["0", "0", "0", "1", "2", "2", "2"],
        "items": ["a", "a", "a", "a", "c", "c", "c"],
    }
    store, result = _anonymize(tmp_path, rows, k=3, m=1, class_size=3, classes="cuts")
    got = _released(store, result.run, ["sex", "x"])
    assert [(r["sex"], r["x"]) for r in got] == [("M", "0")] * 3 + [("*", "*")] * 4
    assert result.relational_ncp == pytest.approx(4 / 7) and result.report.ok


def test_the_cost_of_a_lift_is_the_direct_sum():
    tree = hierarchy.from_edges(ITEM_EDGES)
    ids = tree.id_of()
    counts = [(0, ids["a"], 3), (0, ids["b"], 2), (0, ids["c"], 1), (1, ids["a"], 7)]
    cost = LiftCost(tree, counts)
    for cluster in (0, 1):
        for node in range(tree.size):
            direct = sum(
                n * (tree.leaf_count[node] - tree.leaf_count[x])
                for c, x, n in counts
                if c == cluster and node <= x <= tree.last[node]
            )
            assert cost.of(cluster, node) == direct


records = st.lists(
    st.tuples(
        st.sampled_from(["F", "M"]),
        st.sampled_from(["0", "1", "2", "3"]),
        st.sets(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=4),
    ),
    min_size=2,
    max_size=16,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=records, k=st.integers(1, 3), m=st.integers(1, 2), extra=st.integers(0, 5),
    classes=st.sampled_from(["cuts", "cover"]),
)  # fmt: skip
def test_every_release_holds_classes_of_the_size_asked(
    tmp_path_factory, data, k, m, extra, classes
):
    size = k + extra
    if size > len(data) or m > max(len(s) for _, _, s in data):
        return
    rows = {
        "sex": [s for s, _, _ in data],
        "x": [x for _, x, _ in data],
        "items": [";".join(sorted(i)) for _, _, i in data],
    }
    store, result = _anonymize(
        tmp_path_factory.mktemp("t"), rows, k=k, m=m, class_size=size, classes=classes
    )
    released = _released(store, result.run, ["cluster", "sex", "x", "items"])
    original = [{"sex": s, "x": x, "items": i} for s, x, i in data]
    rel = [{**r, "items": set(r["items"].split(";"))} for r in released]
    edges = {"sex": SEX_EDGES, "x": X_EDGES}
    assert problems(original, rel, qi=["sex", "x"], qi_edges=edges, items="items",
                    item_edges=ITEM_EDGES, k=k, m=m) == []  # fmt: skip
    sizes: dict[int, int] = {}
    for r in released:
        sizes[r["cluster"]] = sizes.get(r["cluster"], 0) + 1
    assert min(sizes.values()) >= size and result.report.ok


GOOD = "sex,items\nF,a;b\nF,a\nF,b\nM,c\nM,c;d\nM,d\n"


def _rt(tmp_path, *extra):
    table = tmp_path / "t.csv"
    table.write_text(GOOD)
    return cli(
        "anonymize-rt", table, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
        "-H", _file(tmp_path, "h.csv", ITEM_EDGES), "-k", "2", "-m", "1", *extra,
    )  # fmt: skip


@pytest.mark.parametrize("classes", ["cuts", "cover"])
def test_cli_class_size(tmp_path, classes):
    r = _rt(tmp_path, "--class-size", "6", "--classes", classes, "--json")
    assert r.code == 0, r.stderr
    assert r.json()["classes"] == 1 and r.json()["verified"]["ok"]


@pytest.mark.parametrize(
    ("extra", "code", "says"),
    [
        (("--classes", "kmeans"), ExitCode.USAGE, "--classes must be one of"),
        (("--class-size", "1"), ExitCode.USAGE, "--class-size (1) must be at least k"),
        (("--class-size", "7"), ExitCode.INPUT, "class size 7 is larger than the table"),
        (("--classes", "cuts", "--sensitive", "sex", "--l", "2"), ExitCode.USAGE, "l-diversity"),
    ],
)
def test_cli_bad_class_options(tmp_path, extra, code, says):
    out = tmp_path / "rel.csv"
    r = _rt(tmp_path, *extra, "-o", out)
    assert r.code == code, (r.code, r.stderr)
    assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists()
