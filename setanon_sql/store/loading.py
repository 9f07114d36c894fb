"""The one way a source becomes a dataset: transactions (`dataset.load_source`) or a table,
with or without a set-valued column (`tables.load_table_source`), found in the registry when it
was loaded before, else read and registered."""

from __future__ import annotations

from typing import Any

from ..engine.duckdb import Executor
from .dataset import Loaded, load_source
from .registry import Registry
from .sources import Pairs, SourceSpec
from .tables import TableInput, load_table_source

Source = SourceSpec | TableInput | dict[Any, Any] | list[Any] | Pairs
"""Transactions in a file (`SourceSpec`) or held in Python (as baskets, or as (tid, item) rows
of an Arrow table: `Pairs`), or a table (`TableInput`)."""


def load_dataset(ex: Executor, reg: Registry, source: Source) -> Loaded:
    """The dataset of this source, of the kind the source says."""
    if isinstance(source, TableInput):
        return load_table_source(ex, reg, source.source, source.reader, source.kind)
    return load_source(ex, reg, source)
