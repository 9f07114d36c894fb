"""A signal that stops DuckDB mid-statement surfaces as the interrupt it is, on every path a
statement takes: a statement DuckDB reports as "Query interrupted" (a RuntimeError) inside
`put_arrow` was an internal error (exit 4) instead of 130/143."""

from __future__ import annotations

import pyarrow as pa
import pytest

from setanon_sql.engine.duckdb import Executor


class Interrupting:
    """A connection whose statements raise what DuckDB raises when a signal stops one."""

    def __init__(self, con):
        self._con = con

    def execute(self, *args, **kwargs):
        raise RuntimeError("Query interrupted")

    def __getattr__(self, name):
        return getattr(self._con, name)


@pytest.mark.parametrize("path", ["execute", "put_arrow"])
def test_an_interrupted_statement_is_a_keyboard_interrupt(path: str) -> None:
    ex = Executor()
    try:
        ex.con = Interrupting(ex.con)  # type: ignore[assignment]
        with pytest.raises(KeyboardInterrupt):
            if path == "execute":
                ex.execute("SELECT 1", step="one")
            else:
                ex.put_arrow("t", pa.table({"a": [1, 2]}))
    finally:
        ex.con = ex.con._con
        ex.close()


def test_another_runtime_error_is_left_as_it_is() -> None:
    ex = Executor()
    real = ex.con
    try:

        class Broken(Interrupting):
            def execute(self, *args, **kwargs):
                raise RuntimeError("something else")

        ex.con = Broken(real)  # type: ignore[assignment]
        with pytest.raises(RuntimeError, match="something else"):
            ex.put_arrow("t", pa.table({"a": [1]}))
    finally:
        ex.con = real
        ex.close()


def test_an_interrupt_raised_inside_an_arrow_scan_is_a_keyboard_interrupt() -> None:
    """Ctrl-C while DuckDB reads a registered Arrow table raises KeyboardInterrupt inside
    pyarrow; DuckDB hands it back as an InvalidInputException naming it (seen in CI as exit 4)."""
    import duckdb

    ex = Executor()
    real = ex.con

    class ArrowInterrupted(Interrupting):
        def execute(self, *args, **kwargs):
            raise duckdb.InvalidInputException(
                "Invalid Input Error: reading the object registered as '_arrow_cut' as Arrow "
                "data failed: KeyboardInterrupt: "
            )

    try:
        ex.con = ArrowInterrupted(real)  # type: ignore[assignment]
        with pytest.raises(KeyboardInterrupt):
            ex.put_arrow("cut", pa.table({"a": [1]}))
        with pytest.raises(KeyboardInterrupt):
            ex.execute("SELECT 1", step="one")
    finally:
        ex.con = real
        ex.close()


def test_another_duckdb_error_is_left_as_it_is() -> None:
    import duckdb

    ex = Executor()
    real = ex.con

    class Bad(Interrupting):
        def execute(self, *args, **kwargs):
            raise duckdb.InvalidInputException("Invalid Input Error: something else")

    try:
        ex.con = Bad(real)  # type: ignore[assignment]
        with pytest.raises(duckdb.InvalidInputException, match="something else"):
            ex.put_arrow("t", pa.table({"a": [1]}))
    finally:
        ex.con = real
        ex.close()
