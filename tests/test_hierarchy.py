"""Hierarchies: reading, building, validating, and the preorder numbering the SQL relies on."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import Tree
from strategies import trees

from setanon_sql import HierarchyError
from setanon_sql import hierarchy as h

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


def test_fanout_build_is_balanced():
    t = h.build_fanout([str(i) for i in range(1, 26)], 5)
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
    supports = {"a": 1, "b": 5, "c": 3, "d": 5, "e": 0}
    t = h.build_fanout(list(supports), 2, supports=supports)
    parent = {c: p for c, p in t.edges()}
    assert parent["b"] == parent["d"] == "b,d"  # the two most frequent, ties by label
    assert parent["c"] == parent["a"] == "c,a"
    assert h.leaf_order(supports, supports) == ["b", "d", "c", "a", "e"]


@given(
    st.dictionaries(st.text("abcxyz", min_size=1, max_size=3), st.integers(0, 9), min_size=1),
    st.integers(2, 4),
)
def test_support_ordered_siblings_are_consecutive_in_support_order(supports, fanout):
    t = h.build_fanout(list(supports), fanout, supports=supports)
    order = h.leaf_order(supports, supports)
    assert sorted(t.labels[i] for i in t.leaves()) == sorted(supports)
    position = {label: i for i, label in enumerate(order)}
    by_parent: dict[int, list[int]] = {}
    for i in t.leaves():
        by_parent.setdefault(t.parent[i], []).append(position[t.labels[i]])
    for members in by_parent.values():
        members.sort()
        assert members == list(range(members[0], members[0] + len(members)))


@given(
    st.dictionaries(st.text("abcxyz0", min_size=1, max_size=3), st.integers(0, 9), min_size=1),
    st.integers(2, 5),
    st.randoms(use_true_random=False),
)
def test_support_order_builds_the_same_tree_whatever_the_input_order(supports, fanout, rnd):
    items = list(supports)
    shuffled = items[:]
    rnd.shuffle(shuffled)
    first = h.build_fanout(items, fanout, supports=supports)
    again = h.build_fanout(shuffled, fanout, supports=dict(reversed(list(supports.items()))))
    assert first == again  # labels, parents and numbering: ties are broken by label
    leaves = [first.labels[i] for i in first.leaves()]
    assert sorted(leaves) == sorted(items) and len(set(first.labels)) == first.size
    for i in range(first.size):  # every internal node groups at most `fanout` children
        assert len(first.children(i)) <= fanout


def test_fanout_builds_by_support_unless_told_id():
    from setanon_sql.api import HierarchySpec

    supports = {"1": 1, "2": 9, "3": 1, "4": 9}
    built = HierarchySpec(fanout=2).build(list(supports), supports)
    assert {c: p for c, p in built.edges()}["2"] == "2,4"  # the two frequent items together
    by_id = HierarchySpec(fanout=2, order="id").build(list(supports))
    assert {c: p for c, p in by_id.edges()}["2"] == "1,2"
    assert HierarchySpec(fanout=2).describe() == "fanout 2 by support"
    HierarchySpec(path="h.csv").check()  # the default order is no --order given
