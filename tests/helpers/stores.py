"""Tiny in-memory stores and reading their releases back as labels."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pyarrow as pa

from setanon_sql import HierarchySpec, Store, open_store


def make_store(transactions, edges: Iterable[tuple[str, str]]) -> Store:
    """An in-memory store holding these transactions (list or dict tid -> items) and tree."""
    store, _ = open_store(transactions, hierarchy_spec=HierarchySpec(edges=tuple(edges)))
    return store


def release_of(store: Store, run: str) -> dict[str, list[str]]:
    """A run's release as tid label -> sorted item labels (every original tid present)."""
    with store.in_run(run):
        rows = store.query(
            "SELECT CAST(t.label AS VARCHAR), list(n.label ORDER BY n.label) FILTER (WHERE n.label IS NOT NULL) "
            "FROM tids t LEFT JOIN release r ON r.tid = t.tid LEFT JOIN node n ON n.id = r.node "
            "GROUP BY t.label"
        )
    return {tid: items or [] for tid, items in rows}


def original_of(store: Store) -> dict[str, set[str]]:
    rows = store.query(
        "SELECT CAST(t.label AS VARCHAR), list(r.label) FROM tids t JOIN tx_raw r ON r.tid = t.tid "
        "GROUP BY t.label"
    )
    return {tid: set(items) for tid, items in rows}


def put_release(store: Store, release: Mapping[str, list[str]]) -> None:
    """Write a release given as tid label -> node labels into the current run's `release`."""
    rows = [(str(t), n) for t, nodes in release.items() for n in nodes]
    given = pa.table(
        {"tid_label": [t for t, _ in rows], "label": [n for _, n in rows]},
        schema=pa.schema([("tid_label", pa.string()), ("label", pa.string())]),
    )
    store.put_arrow("given", given, temp=True)
    store.execute(
        "CREATE OR REPLACE TABLE release AS SELECT t.tid, n.id AS node FROM given g "
        "JOIN tids t ON CAST(t.label AS VARCHAR) = g.tid_label JOIN node n ON n.label = g.label"
    )
