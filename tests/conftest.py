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

from helpers.papers import AB_TREE, FIG2_TX, TABLE2_TX  # noqa: E402
from helpers.stores import make_store  # noqa: E402

from setanon_sql import Store  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


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
