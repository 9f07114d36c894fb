"""Moved to `helpers.cli`; kept only for tests/test_spark.py, which imports it by this name
until it imports `helpers.cli` (then this file goes)."""

from helpers.cli import EX, cli, interrupt

__all__ = ["EX", "cli", "interrupt"]
