"""Fixtures: tiny stores built from the papers' examples, and helpers to read releases back."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# Each example runs SQL on DuckDB: its time depends on the machine's load, not on the code, so
# no example has a deadline (a loaded CI machine made timing flakes of correct code).
settings.register_profile("setanon", deadline=None)
settings.load_profile("setanon")

from setanon_sql import HierarchySpec, Store, open_store  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"

# Terrovitis, Mamoulis & Kalnis (VLDB 2008), Fig. 2
FIG2_TX = [["a1", "b1", "b2"], ["a2", "b1"], ["a2", "b1", "b2"], ["a1", "a2", "b2"]]
AB_TREE = [("A", "ALL"), ("B", "ALL"), ("a1", "A"), ("a2", "A"), ("b1", "B"), ("b2", "B")]

# He & Naughton (VLDB 2009), Table 2
TABLE2_TX = {
    "T1": ["a1"],
    "T2": ["a1", "a2"],
    "T3": ["b1", "b2"],
    "T4": ["b1", "b2"],
    "T5": ["a1", "a2", "b2"],
    "T6": ["a1", "a2", "b2"],
    "T7": ["a1", "a2", "b1", "b2"],
}

# Clump (SECRYPT 2010): Food -> {Fruit, Meat, Dairy}
FOOD_TREE = [
    ("Fruit", "Food"), ("Meat", "Food"), ("Dairy", "Food"),
    ("Orange", "Fruit"), ("Apple", "Fruit"), ("Banana", "Fruit"),
    ("Beef", "Meat"), ("Chicken", "Meat"),
    ("Milk", "Dairy"), ("Cheese", "Dairy"), ("Butter", "Dairy"),
]  # fmt: skip


def make_store(transactions, edges) -> Store:
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


@pytest.fixture
def fig2() -> Store:
    s = make_store(FIG2_TX, AB_TREE)
    yield s
    s.close()


@pytest.fixture
def table2() -> Store:
    s = make_store(TABLE2_TX, AB_TREE)
    yield s
    s.close()


@pytest.fixture
def shared_data() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared/data is not beside the repository")
    return SHARED
