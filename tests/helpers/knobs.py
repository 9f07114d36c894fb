"""Moving an algorithm's hand-over point for the length of a test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from setanon_sql.algorithms import partition_tail


@contextmanager
def tail_rows(rows: int) -> Iterator[None]:
    """Partition and LGR hand their rounds to Python below `rows` rows (0: never)."""
    before = partition_tail.TAIL_ROWS
    partition_tail.TAIL_ROWS = rows
    try:
        yield
    finally:
        partition_tail.TAIL_ROWS = before
