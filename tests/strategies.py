"""Moved to `helpers.strategies`; kept only for tests/test_spark.py, which imports it by this
name until it imports `helpers.strategies` (then this file goes)."""

from helpers.strategies import databases

__all__ = ["databases"]
