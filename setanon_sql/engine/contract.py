"""The contract every engine meets, and the one a store meets for the drivers.

`Engine` is an executor: DuckDB's `engine.duckdb.Executor` and Spark's `engine.spark.
SparkExecutor`. `Workspace` is what the algorithms, the verifier and the metrics are typed
against: the statement methods plus the data in use. DuckDB's `store.database.Store` and Spark's
`store.spark_store.SparkStore` are workspaces; both take their statement methods from
`Forwarding`, written once.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

from . import ddl, sqlfiles
from .log import Answer, Logged, Rows

if TYPE_CHECKING:
    import pyarrow as pa


Params = Mapping[str, Any] | None


class Statements(Protocol):
    """The statement methods every engine and every workspace offers."""

    def execute(self, sql: str, params: Params = None, *, step: str = "sql") -> Answer: ...

    def run(self, name: str, params: Params = None) -> Answer: ...

    def query(self, sql: str, params: Params = None, *, step: str = "sql") -> list[tuple]: ...

    def scalar(self, sql: str, params: Params = None, *, step: str = "sql") -> Any: ...

    def arrow(self, sql: str, params: Params = None, *, step: str = "sql") -> pa.Table: ...

    def put_arrow(self, name: str, table: pa.Table, *, temp: bool = False) -> None: ...

    def put_rows(self, name: str, rows: Rows, *, temp: bool = False) -> None: ...

    def unordered(self) -> AbstractContextManager[None]: ...


class Engine(Statements, Protocol):
    """An executor: every statement through `execute`, logged; named statements by `run`."""

    log: list[Logged]


class Workspace(Statements, Protocol):
    """What drivers see: an engine's statement methods and the data in use (unqualified names
    resolve to the run's tables, then the hierarchy's, then the dataset's)."""

    @property
    def log(self) -> list[Logged]: ...

    def run_all(self, name: str, params: Params = None) -> list[tuple]: ...

    def run_arrow(self, name: str, params: Params = None) -> pa.Table: ...

    def count(self, table: str, *, temp: bool = False) -> int: ...

    def drop_tables(self, *tables: str, temp: bool = False, step: str = "drop") -> None: ...

    def current_schema(self) -> str: ...

    def require_hierarchy(self) -> None: ...

    def require_data(self) -> None: ...

    def item_labels(self) -> list[str]: ...


class Forwarding:
    """The statement methods of a workspace, passed to its engine `ex`: written once for the
    DuckDB and the Spark store, so an algorithm runs on both."""

    ex: Engine

    @property
    def log(self) -> list[Logged]:
        return self.ex.log

    def execute(self, sql: str, params: Params = None, *, step: str = "sql") -> Answer:
        return self.ex.execute(sql, params, step=step)

    def run(self, name: str, params: Params = None) -> Answer:
        """Run the named statement from `sql/` (its variant for the engine, if it has one)."""
        return self.ex.run(name, params)

    def run_all(self, name: str, params: Params = None) -> list[tuple]:
        return self.ex.run(name, params).rows

    def run_arrow(self, name: str, params: Params = None) -> pa.Table:
        """The named statement's result as an Arrow table (for large results; DuckDB only)."""
        return self.ex.arrow(sqlfiles.statement(name).sql, params, step=name)

    def query(self, sql: str, params: Params = None, *, step: str = "sql") -> list[tuple]:
        return self.ex.query(sql, params, step=step)

    def count(self, table: str, *, temp: bool = False) -> int:
        """How many rows a table of the run (or a temp table) holds."""
        return int(
            self.ex.execute(ddl.count_rows(table, temp=temp), step=f"count_{table}").one()["rows"]
        )

    def drop_tables(self, *tables: str, temp: bool = False, step: str = "drop") -> None:
        """Drop these tables of the run (or temp tables) where they exist."""
        for table in tables:
            self.ex.execute(ddl.drop_table(table, temp=temp), step=step)

    def scalar(self, sql: str, params: Params = None, *, step: str = "sql") -> Any:
        return self.ex.scalar(sql, params, step=step)

    def arrow(self, sql: str, params: Params = None, *, step: str = "sql") -> pa.Table:
        return self.ex.arrow(sql, params, step=step)

    def put_arrow(self, name: str, table: pa.Table, *, temp: bool = False) -> None:
        self.ex.put_arrow(name, table, temp=temp)

    def put_rows(self, name: str, rows: Rows, *, temp: bool = False) -> None:
        self.ex.put_rows(name, rows, temp=temp)

    def unordered(self) -> AbstractContextManager[None]:
        return self.ex.unordered()
