"""benchmarks/rt_partitions.py (issue 41): its floor is below every partition into classes of
at least s rows (brute force over all partitions of small tables), and its Mondrian cuts
make such partitions, measured as the release measures them."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import rt_partitions as rp  # noqa: E402

from setanon_sql.relational.taxonomy import lm_cost  # noqa: E402
from setanon_sql.store.hierarchy import Hierarchy, from_edges  # noqa: E402

SEX = from_edges([("m", "*"), ("f", "*")])
AGE = from_edges([("1", "[1-2]"), ("2", "[1-2]"), ("3", "[3-4]"), ("4", "[3-4]"),
                  ("[1-2]", "*"), ("[3-4]", "*")])  # fmt: skip


def table(rows: list[tuple[str, str]], trees: tuple[Hierarchy, ...] = (SEX, AGE)) -> rp.Table:
    """One combination per row (weight 1), leaves by label."""
    ids = [t.id_of() for t in trees]
    return rp.Table(
        [1] * len(rows), [[ids[a][v] for a, v in enumerate(r)] for r in rows],
        [list(t.last) for t in trees], [list(t.parent) for t in trees],
        [[lm_cost(t, n) for n in range(t.size)] for t in trees],
    )  # fmt: skip


def partitions(items: list[int]):
    """Every set partition of `items`."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for p in partitions(rest):
        yield [[head], *p]
        for i in range(len(p)):
            yield [*p[:i], [head, *p[i]], *p[i + 1 :]]


def best_partition(t: rp.Table, size: int) -> float:
    """The least relational NCP of any partition into classes of >= size rows (brute force)."""
    return min(
        rp.relational_ncp(t, p)
        for p in partitions(list(range(len(t.weight))))
        if all(len(c) >= size for c in p)
    )


def test_hand_worked_example():
    # men aged 1, 1, 2, 3 and women aged 3, 4; classes of >= 2 rows; cost per QI: sex 1 at *,
    # age 1/3 at [1-2] or [3-4], 1 at *; a row's cost is the mean of its two QIs'.
    t = table([("m", "1"), ("m", "1"), ("m", "2"), ("m", "3"), ("f", "3"), ("f", "4")])
    # best: {m1, m1} exact, {m2, m3} at (m, *): 1/2 each, {f3, f4} at (f, [3-4]): 1/6 each;
    # (2 * 1/2 + 2 * 1/6) / 6 = 2/9 ({m1, m1, m2}, {m3, f3, f4} gives (3/6 + 3 * 2/3) / 6).
    assert abs(best_partition(t, 2) - 2 / 9) < 1e-12
    # floor: m1 at (m, 1): 0; m2 at (m, [1-2]): 1/6; m3 at (m, *) or (*, 3): 1/2; f3, f4 at
    # (f, [3-4]): 1/6; (1/6 + 1/2 + 2/6) / 6 = 1/6 <= 2/9 (m2 and m3 cannot both have theirs).
    assert abs(rp.floor(t, 2) - 1 / 6) < 1e-12
    # by gain: sex first (f | m saves 1 on every row's sex), then the men's ages after 1 (the
    # only cut leaving 2 a side: saves 1 on m1, m1's age); here it finds the best partition.
    classes = rp.mondrian(t, 2, rp.by_gain)
    assert sorted(map(sorted, classes)) == [[0, 1], [2, 3], [4, 5]]
    assert abs(rp.relational_ncp(t, classes) - 2 / 9) < 1e-12


ROWS = st.lists(st.tuples(st.sampled_from("mf"), st.sampled_from("1234")), min_size=2, max_size=7)


@settings(max_examples=60, deadline=None)
@given(ROWS, st.integers(1, 3))
def test_floor_is_below_every_partition(rows, size):
    if len(rows) < size:
        return
    t = table(rows)
    assert rp.floor(t, size) <= best_partition(t, size) + 1e-12


@settings(max_examples=60, deadline=None)
@given(ROWS, st.integers(1, 3), st.floats(0.1, 1.0))
def test_lagrangian_floor_is_below_every_partition_and_not_below_the_floor(rows, size, upper):
    if len(rows) < size:
        return
    t = table(rows)
    value = rp.lagrangian_floor(t, size, rounds=40, upper=upper)
    assert rp.floor(t, size) - 1e-9 <= value <= best_partition(t, size) + 1e-9


def test_lagrangian_floor_uses_the_number_of_classes():
    # f3, f4, m1, m3, m4 in classes of >= 2 rows: at most 2 classes. Generalizations holding 2
    # rows or more, per row cost (sex, age averaged): (f, [3-4]) {f3, f4} 1/6, (m, [3-4])
    # {m3, m4} 1/6, (m, *) {m1, m3, m4} 1/2, (*, 3) and (*, 4) 1/2, (*, [3-4]) 2/3, (*, *) 1.
    t = table([("f", "3"), ("f", "4"), ("m", "1"), ("m", "3"), ("m", "4")])
    # floor: f3, f4, m3, m4 at 1/6, m1 at 1/2: (4/6 + 1/2) / 5 = 7/30.
    assert abs(rp.floor(t, 2) - 7 / 30) < 1e-12
    # m1's class is closed by (m, *) or (*, *), f3's by one holding no other man but m3/m4's:
    # two classes leave {f3, f4} at (f, [3-4]) and {m1, m3, m4} at (m, *): (2/6 + 3/2) / 5.
    assert abs(best_partition(t, 2) - 11 / 30) < 1e-12
    # the Lagrangian floor sees the cap of two classes and reaches it.
    assert abs(rp.lagrangian_floor(t, 2, rounds=100) - 11 / 30) < 1e-3


@settings(max_examples=60, deadline=None)
@given(ROWS, st.integers(1, 3), st.sampled_from(sorted(rp.METHODS)))
def test_mondrian_partitions_into_classes_of_size(rows, size, method):
    if len(rows) < size:
        return
    t = table(rows)
    classes = rp.mondrian(t, size, rp.METHODS[method])
    assert sorted(i for c in classes for i in c) == list(range(len(rows)))
    assert all(len(c) >= size for c in classes)
    assert rp.relational_ncp(t, classes) >= best_partition(t, size) - 1e-12


def test_closure_is_the_package_s():
    from setanon_sql.relational.rt_cuts import closure

    for lo in range(AGE.size):
        for hi in range(lo, AGE.size):
            if AGE.is_leaf(lo) and AGE.is_leaf(hi):
                assert rp.closure(AGE.last, AGE.parent, lo, hi) == closure(AGE, lo, hi)


def test_tree_walk_is_the_librarys() -> None:
    """The benchmark's Mondrian cuts walk the QI trees with the library's own preorder walk, so
    the floor it reports is over the same children the release generalizes to (no twin)."""
    from setanon_sql.store import hierarchy

    assert rp.preorder_children is hierarchy.preorder_children
    assert not hasattr(rp, "children")
    assert rp.preorder_children(AGE.last, 0) == AGE.children(0)
