"""Hierarchies: reading, building, validating, and the preorder numbering the SQL relies on."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import reference
from helpers.reference import Tree
from helpers.strategies import trees
from hypothesis import given, settings
from hypothesis import strategies as st

from setanon_sql import HierarchyError, open_store
from setanon_sql.store import hierarchy as h

DATA = Path(__file__).parent / "data"


def test_bad_cycle():
    with pytest.raises(
        HierarchyError,
        match=r"cycle: 'a' -> 'A' -> 'B' -> 'a'|cycle: 'A' -> 'B' -> 'a' -> 'A'|cycle: 'B' -> 'a' -> 'A' -> 'B'",
    ):
        h.read(DATA / "bad_cycle.csv")


def test_bad_two_parents():
    with pytest.raises(HierarchyError, match=r"node with two parents: 'a' under 'A' and 'B'"):
        h.read(DATA / "bad_two_parents.csv")


def test_bad_two_roots():
    with pytest.raises(HierarchyError, match=r"2 roots \('A', 'B'\); a hierarchy has one root"):
        h.read(DATA / "bad_two_roots.csv")


def test_bad_self_loop():
    with pytest.raises(HierarchyError, match="cycle: node 'a' is its own parent"):
        h.from_edges([("a", "a")])


def test_near_duplicate_labels_warn():
    t = h.read(DATA / "warn_near_duplicates.csv")
    assert t.warnings == ("labels differ only by case or white space: 'A ', 'a'",)


def test_paths_format_collapses_padding(tmp_path):
    p = tmp_path / "p.txt"
    p.write_text("x;X,Y;X,Y;*\ny;X,Y;*\nz;*\n")
    t = h.read(p)
    assert sorted(t.edges()) == [("X,Y", "*"), ("x", "X,Y"), ("y", "X,Y"), ("z", "*")]


def test_shipped_wv2_hierarchy(shared_data):
    t = h.read(shared_data / "bms-webview-2.hierarchy.txt")
    assert t.n_leaves == 3340 and t.labels[0] == "*"
    # SOURCES.md counts 220 distinct names in the fifth column; 12 of them are padding repeats of
    # a node higher up, which collapse onto that node's own depth.
    assert h.describe(t)["internal nodes per level"] == "1 / 4 / 14 / 55 / 208 / 832"
    assert t.size == 3340 + 1 + 4 + 14 + 55 + 208 + 832


def built(supports: dict[str, int], fanout: int, order: str | None = None) -> h.Hierarchy:
    """The fan-out tree the SQL builder makes over data where each item is in `support`
    transactions."""
    from setanon_sql.store.hierarchy_spec import HierarchySpec

    rows = max(supports.values())
    data = [[x for x, s in supports.items() if s > t] for t in range(rows)]
    store, _ = open_store(data)
    try:
        return HierarchySpec(fanout=fanout, order=order).build(store)
    finally:
        store.close()


def test_fanout_build_is_balanced():
    t = built({str(i): 1 for i in range(1, 26)}, 5)
    assert t.height() == 2 and len(t.children(0)) == 5
    assert t.labels[t.children(0)[0]] == "1,5"


def test_code_prefix_collapses_single_child_chains():
    t = h.build_code_prefix(["1201", "1202", "1301", "2"])
    assert sorted(t.edges()) == [
        ("1*", "*"),
        ("120*", "1*"),
        ("1201", "120*"),
        ("1202", "120*"),
        ("1301", "1*"),
        ("2", "*"),
    ]


@given(trees())
def test_preorder_intervals_match_ancestry(edges):
    t = h.from_edges(edges)
    ref = Tree(edges)
    ids = t.id_of()
    for label, i in ids.items():
        for anc in ref.ancestors(label):
            a = ids[anc]
            assert a <= i <= t.last[a]
        assert t.leaf_count[i] == len(ref.leaves_under(label))


def test_support_order_groups_items_of_like_popularity():
    supports = {"a": 1, "b": 5, "c": 3, "d": 5, "e": 1}
    t = built(supports, 2)
    parent = {c: p for c, p in t.edges()}
    assert parent["b"] == parent["d"] == "b,d"  # the two most frequent, ties by label
    assert parent["c"] == parent["a"] == "c,a"


LABELS = st.text("0129-a, (*", min_size=1, max_size=4).filter(str.strip)  # blank items are refused


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(LABELS, st.integers(1, 4), min_size=1, max_size=30),
    st.integers(2, 4),
    st.sampled_from(["support", "id"]),
)
def test_sql_builder_builds_the_reference_tree(supports, fanout, order):
    """Integers of any sign and zero padding, labels that clash with built names (`1,2`, `*`,
    `1,2 (2)`): the SQL builder's tree is the plain reference's, edge for edge."""
    t = built(supports, fanout, order)
    assert set(t.edges()) == reference.fanout_edges(supports, fanout, order == "support")
    for i in range(t.size):  # every internal node groups at most `fanout` children
        assert len(t.children(i)) <= fanout


def test_fanout_builds_by_support_unless_told_id():
    from setanon_sql.store.hierarchy_spec import HierarchySpec

    supports = {"1": 1, "2": 9, "3": 1, "4": 9}
    assert {c: p for c, p in built(supports, 2).edges()}["2"] == "2,4"  # frequent together
    assert {c: p for c, p in built(supports, 2, "id").edges()}["2"] == "1,2"
    assert HierarchySpec(fanout=2).describe() == "fanout 2 by support"
    HierarchySpec(path="h.csv").check()  # the default order is no --order given


def test_integer_labels_sort_numerically_whatever_their_length():
    big = "1" + "0" * 40  # beyond any SQL integer type
    supports = {big: 1, "9": 1, "-12": 1, "-13": 1, "-3": 1, "007": 1, "7": 1, "x": 1, "-": 1}
    order = ["-13", "-12", "-3", "007", "7", "9", big, "-", "x"]
    assert sorted(supports, key=h.natural_key) == order
    parents = {p for _, p in built(supports, 3, "id").edges()}  # siblings: 3 in a row
    assert parents == {"-13,-3", f"007,{'9'}", f"{big},x", "*"}
