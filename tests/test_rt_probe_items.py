"""The items of the (k, k^m) evaluation's probes, queries and attack targets alike, go into
their tables by one function (`rt_evaluate.put_items`, issue 44's copy-paste): one row per
(probe, item), the probe numbered in the order given."""

from __future__ import annotations

from setanon_sql.relational.rt_probes import MixedQuery, put_items
from setanon_sql.store.database import Store


def test_one_row_per_probe_and_item() -> None:
    store = Store()
    probes = [MixedQuery(1, 2, (5, 7)), MixedQuery(2, 3, (9,)), MixedQuery(1, 4, ())]
    put_items(store, "probe_items", "tid", probes)
    rows = store.query("SELECT tid, item FROM probe_items ORDER BY tid, item")
    assert rows == [(0, 5), (0, 7), (1, 9)]
    assert [c for c, *_ in store.query("DESCRIBE probe_items")] == ["tid", "item"]
    store.close()
