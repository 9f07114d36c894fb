"""The exact counts (`rt_eval_actual`) and the attacks' candidates (`rt_eval_attack`) of a
generalized (k, k^m) run's evaluate pinned to a plain-Python reading, row by row: a query's
count is the original rows with its QI value holding all its items; a target's candidates are
the released rows of its class (same released QI labels) with, for every known item, a
released label at or above it. The statements work from the rarest item's rows and from
patterns of top released nodes; this reads the table and `table_release` directly."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql.relational.rt_evaluate import MixedQuery, attacks, draw, query_errors
from tests.helpers.rt_brute import ancestors
from tests.test_rt_estimate_brute import _release, node_beside_ancestor, probes, tables

SETTINGS = settings(
    max_examples=30, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)  # fmt: skip


def brute_actual(data: list[tuple], attr: int, value: str, items: tuple[str, ...]) -> int:
    """Original rows with `value` at QI `attr` (1-based) holding every item."""
    return sum(row[attr - 1] == value and set(items) <= row[2] for row in data)


def brute_candidates(released: list[dict], edges, rid: int, items: set[str]) -> int:
    """Released rows of `rid`'s class with a label at or above each of `items`."""
    me = released[rid]
    return sum(
        (r["x"], r["y"]) == (me["x"], me["y"])
        and all(r["items"] & ancestors(edges, i) for i in items)
        for r in released
    )


def _read(store):
    """The QI and item ids by label, and the released rows (rid order: 0, 1, ...)."""
    qi_id = {(a, lab): i for a, lab, i in store.execute(
        "SELECT attr, label, id FROM rel_node").rows}  # fmt: skip
    item_id = dict(store.execute("SELECT label, id FROM rt_node").rows)
    rows = store.execute("SELECT rid, x, y, items FROM table_release ORDER BY rid").rows
    assert [r[0] for r in rows] == list(range(len(rows)))
    released = [{"x": x, "y": y, "items": set(s.split(";"))} for _, x, y, s in rows]
    return qi_id, item_id, released


def _case(tmp_path, table, k: int, m: int, search: str, grow: int, seed: int):  # type: ignore[no-untyped-def]
    """A release of the drawn table, its rows, item leaves and the probes' generator; None
    where k or m cannot be met."""
    edges, data = table
    if k > len(data) or m > max(len(r[2]) for r in data):
        return None
    store, run = _release(tmp_path, edges, data, k, m, search, min(len(data), k + grow))
    leaves = sorted({c for c, _ in edges} - {p for _, p in edges})
    return data, store, run, leaves, random.Random(seed)


def cases(test):  # type: ignore[no-untyped-def]
    """What both tests draw: a random table's release parameters and a seed for the probes."""
    return SETTINGS(
        given(
            table=tables(), k=st.integers(1, 3), m=st.integers(1, 2),
            search=st.sampled_from(["topdown", "lift"]), grow=st.integers(0, 4),
            seed=st.integers(0, 99),
        )(test)
    )  # fmt: skip


@cases
def test_actual_counts_equal_a_row_by_row_count(tmp_path, table, k, m, search, grow, seed):
    made = _case(tmp_path, table, k, m, search, grow, seed)
    if made is None:
        return
    data, store, run, leaves, rng = made
    with store.in_run(run, scratch=True):
        qi_id, item_id, _ = _read(store)
        queries = draw(store, 6, [1, 2, 3, 4], seed)  # from rows, and any value with any leaves
        for _ in range(8):
            items = rng.sample(leaves, rng.randint(1, min(4, len(leaves))))
            if rng.random() < 0.2:
                items.append(items[0])  # an item named twice counts once
            attr, value = rng.randint(1, 2), rng.choice("0123")
            queries.append(MixedQuery(attr, qi_id[(attr, value)],
                                      tuple(item_id[i] for i in items)))  # fmt: skip
        got = [q["actual"] for q in query_errors(store, queries)]
    qi_label = {(a, i): lab for (a, lab), i in qi_id.items()}
    item_label = {i: lab for lab, i in item_id.items()}
    expected = [
        brute_actual(
            data, q.attr, qi_label[(q.attr, q.leaf)], tuple(item_label[i] for i in q.items)
        )
        for q in queries
    ]
    assert got == expected


@cases
def test_attack_candidates_equal_a_row_by_row_count(tmp_path, table, k, m, search, grow, seed):
    made = _case(tmp_path, table, k, m, search, grow, seed)
    if made is None:
        return
    data, store, run, leaves, rng = made
    targets: list[tuple[int, list[str]]] = []
    for _ in range(12):  # a row's own items, or any leaves (maybe none of its class holds)
        rid = rng.randrange(len(data))
        pool = sorted(data[rid][2]) if rng.random() < 0.7 else leaves
        targets.append((rid, rng.sample(pool, rng.randint(1, min(3, len(pool))))))
    with store.in_run(run, scratch=True):
        qi_id, item_id, released = _read(store)
        probes = [
            MixedQuery(1, qi_id[(1, data[rid][0])], tuple(item_id[i] for i in items))
            for rid, items in targets
        ]
        found = attacks(store, probes, [rid for rid, _ in targets])
    assert [t["size"] for t in found] == [len(items) for _, items in targets]
    expected = [brute_candidates(released, table[0], rid, set(items)) for rid, items in targets]
    assert [t["candidates"] for t in found] == expected


def test_a_row_with_a_node_beside_its_ancestor_is_one_candidate():
    """test_rt_estimate_brute's release {A, B, c}, {A, B}, {A, B, c} of (1, b;c;d), (1, a;b;d),
    (1, b;c;d): in rows 1 and 3 both B and c cover c, and the row counts once. Knowing c, c and
    d (B covers both), a and c (A, B), or b, c and d: all three rows. Counting covering nodes
    instead of covered items would see rows 1 and 3 cover c and d three times, not twice."""
    store, run = node_beside_ancestor()
    with store.in_run(run, scratch=True):
        found = attacks(store, probes(store, ["c", "cd", "ac", "bcd"]), [0, 0, 0, 0])
    assert [t["candidates"] for t in found] == [3, 3, 3, 3]
