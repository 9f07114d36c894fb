"""The DuckDB store: connection, the dataset's schema, run schemas, and a log of all SQL run."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from . import sqlfiles
from .errors import HierarchyError, InputError, ParamsError
from .hierarchy import Hierarchy

_SCHEMA = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


@dataclass
class Logged:
    step: str
    sql: str
    params: dict[str, Any] | None = None


@dataclass
class Result:
    """A statement's whole result: column names and rows."""

    columns: list[str]
    rows: list[tuple]

    def one(self) -> dict[str, Any]:
        return dict(zip(self.columns, self.rows[0], strict=True)) if self.rows else {}

    def dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, r, strict=True)) for r in self.rows]


@dataclass
class Run:
    """A run's own schema: its intermediate tables, its `release`, and the SQL it ran."""

    schema: str
    log: list[Logged] = field(default_factory=list)

    def table(self, name: str) -> str:
        return f"{quote(self.schema)}.{quote(name)}"


def quote(name: str) -> str:
    """The one way identifiers are quoted (sqlglot, DuckDB dialect)."""
    from sqlglot import exp

    return exp.to_identifier(name, quoted=True).sql("duckdb")


def literal(value: str) -> str:
    """A string literal for places DuckDB takes no bound parameter (COPY TO, ATTACH)."""
    from sqlglot import exp

    return exp.Literal.string(str(value)).sql("duckdb")


class Store:
    """A DuckDB database holding one dataset (schema `setanon`) and the schemas of its runs.

    Example:
        >>> s = Store()  # in-memory
        >>> s.query("SELECT 1 + 1")[0][0]
        2
    """

    def __init__(self, db: str | Path | None = None, *, schema: str = "setanon") -> None:
        if not _SCHEMA.match(schema):
            raise ParamsError(f"schema name {schema!r} must be lower-case letters, digits, _")
        self.path = Path(db) if db else None
        try:
            self.con = duckdb.connect(str(db) if db else ":memory:")
        except duckdb.Error as e:
            raise InputError(f"cannot open DuckDB database {db}: {e}") from e
        self.schema = schema
        self.log: list[Logged] = []
        self.run_ctx: Run | None = None
        self.con.execute("SET enable_progress_bar = false").fetchall()
        if not db:  # an in-memory store would spill into ./.tmp of wherever it was started
            self._spill = tempfile.TemporaryDirectory(prefix="setanon-duckdb-")
            self.con.execute(f"SET temp_directory = {literal(self._spill.name)}").fetchall()
        self.con.execute(f"CREATE SCHEMA IF NOT EXISTS {quote(schema)}").fetchall()
        self._search(None)

    # -- executing ------------------------------------------------------------------------------
    def _search(self, run: str | None) -> None:
        path = f"{run},{self.schema}" if run else self.schema
        self.con.execute(f"SET search_path = {literal(path)}").fetchall()

    def _logged(self, sql: str, params: Mapping[str, Any] | None, step: str) -> None:
        entry = Logged(step, sql, dict(params) if params else None)
        self.log.append(entry)
        if self.run_ctx is not None:
            self.run_ctx.log.append(entry)

    def _cursor(self, sql: str, params: Mapping[str, Any] | None, step: str):
        self._logged(sql, params, step)
        return self.con.execute(sql, dict(params) if params else None)

    def execute(
        self, sql: str, params: Mapping[str, Any] | None = None, *, step: str = "sql"
    ) -> Result:
        """Run one statement in the current schema context, log it, fetch its whole result."""
        cur = self._cursor(sql, params, step)
        columns = [d[0] for d in cur.description] if cur.description else []
        return Result(columns, cur.fetchall() if columns else [])

    def arrow(self, sql: str, params: Mapping[str, Any] | None = None, *, step: str = "sql"):
        """Run a query and hand its result to Python as an Arrow table (for large results)."""
        # DuckDB 2.0 has no fetch_arrow_table on a DB-API result; a relation hands Arrow over
        # without the extra copy a DB-API result would make.
        self._logged(sql, params, step)
        return self.con.sql(sql, params=dict(params) if params else None).to_arrow_table()

    def query(self, sql: str, params: Mapping[str, Any] | None = None, *, step: str = "sql"):
        return self.execute(sql, params, step=step).rows

    def run(self, name: str, params: Mapping[str, Any] | None = None) -> Result:
        """Run the named statement from `sql/`."""
        return self.execute(sqlfiles.statement(name).sql, params, step=name)

    def run_all(self, name: str, params: Mapping[str, Any] | None = None) -> list[tuple]:
        return self.run(name, params).rows

    def scalar(self, sql: str, params: Mapping[str, Any] | None = None, *, step: str = "sql"):
        rows = self.execute(sql, params, step=step).rows
        return rows[0][0] if rows else None

    def has_table(self, name: str, schema: str | None = None) -> bool:
        return bool(
            self.con.execute(
                "SELECT count(*) FROM information_schema.tables "
                "WHERE table_schema = $s AND table_name = $t",
                {"s": schema or self.schema, "t": name},
            ).fetchall()[0][0]
        )

    def current_schema(self) -> str:
        """The schema unqualified names resolve to first: the run's, inside a run context."""
        return str(self.scalar("SELECT current_setting('search_path')")).split(",")[0]

    def schemas(self) -> list[str]:
        rows = self.con.execute(
            "SELECT DISTINCT schema_name FROM information_schema.schemata "
            "WHERE catalog_name = current_database() ORDER BY 1"
        ).fetchall()
        return [r[0] for r in rows]

    def put_arrow(self, name: str, table: pa.Table, *, temp: bool = False) -> None:
        """Copy an Arrow table into a DuckDB table of the current schema context."""
        view = f"_arrow_{name}"
        self.con.register(view, table)
        try:
            kind = "TEMP TABLE" if temp else "TABLE"
            self.execute(
                f"CREATE OR REPLACE {kind} {quote(name)} AS SELECT * FROM {quote(view)}",
                step=f"put_{name}",
            )
        finally:
            self.con.unregister(view)

    # -- runs -----------------------------------------------------------------------------------
    def new_run_name(self, base: str) -> str:
        base = re.sub(r"[^a-z0-9_]", "_", base.lower())[:50]
        taken = set(self.schemas())
        if base not in taken:
            return base
        i = 2
        while f"{base}_{i}" in taken:
            i += 1
        return f"{base}_{i}"

    @contextmanager
    def run_schema(
        self, name: str, *, replace: bool = False, keep_on_error: bool = False
    ) -> Iterator[Run]:
        """Create the run's schema and make it the default for unqualified names.

        On an error the schema is dropped, so a failed run leaves nothing half-written.
        """
        if not _SCHEMA.match(name) or name == self.schema:
            raise ParamsError(f"invalid run name {name!r}")
        if name in self.schemas():
            if not replace:
                raise ParamsError(f"run {name!r} exists already in this database (use --replace)")
            self.con.execute(f"DROP SCHEMA {quote(name)} CASCADE").fetchall()
        self.con.execute(f"CREATE SCHEMA {quote(name)}").fetchall()
        outer = self.run_ctx
        run = Run(name)
        self.run_ctx = run
        self._search(name)
        try:
            yield run
            self._save_log(run)
        except BaseException:
            self._search(None)
            if not keep_on_error:
                self.con.execute(f"DROP SCHEMA IF EXISTS {quote(name)} CASCADE").fetchall()
            raise
        finally:
            self.run_ctx = outer
            self._search(outer.schema if outer else None)

    @contextmanager
    def in_run(self, name: str) -> Iterator[None]:
        """Resolve unqualified names in an existing run schema (e.g. to verify its release)."""
        if name not in self.schemas():
            raise ParamsError(f"no run named {name!r} in this database")
        self._search(name)
        try:
            yield
        finally:
            self._search(self.run_ctx.schema if self.run_ctx else None)

    @contextmanager
    def unordered(self) -> Iterator[None]:
        """Let DuckDB write tables in any row order (faster, and parallel), for steps whose SQL
        orders everything it depends on explicitly; the setting comes back afterwards."""
        before = self.con.execute("SELECT current_setting('preserve_insertion_order')").fetchone()
        self.con.execute("SET preserve_insertion_order = false").fetchall()
        try:
            yield
        finally:
            flag = "true" if before and before[0] else "false"
            self.con.execute(f"SET preserve_insertion_order = {flag}").fetchall()

    def _save_log(self, run: Run) -> None:
        rows = pa.table(
            {
                "seq": list(range(1, len(run.log) + 1)),
                "step": [e.step for e in run.log],
                "sql": [e.sql for e in run.log],
                "params": [repr(e.params) if e.params else None for e in run.log],
            },
            schema=pa.schema(
                [
                    ("seq", pa.int32()),
                    ("step", pa.string()),
                    ("sql", pa.string()),
                    ("params", pa.string()),
                ]
            ),
        )
        self.con.register("_sql_log", rows)
        try:
            self.con.execute(
                f"CREATE OR REPLACE TABLE {run.table('sql_log')} AS SELECT * FROM _sql_log"
            ).fetchall()
        finally:
            self.con.unregister("_sql_log")

    def write_sql_log(self, path: str | Path, entries: list[Logged] | None = None) -> None:
        """Write the SQL that ran, step by step, to a .sql file an analyst can re-read."""
        out = []
        for e in entries if entries is not None else self.log:
            head = f"-- step: {e.step}" + (f"\n-- params: {e.params}" if e.params else "")
            out.append(f"{head}\n{e.sql.rstrip().rstrip(';')};\n")
        Path(path).write_text("\n".join(out), encoding="utf-8")

    # -- the dataset ----------------------------------------------------------------------------
    @property
    def has_data(self) -> bool:
        return self.has_table("tx_raw")

    @property
    def has_hierarchy(self) -> bool:
        return self.has_table("node") and self.has_table("tx")

    def require_data(self) -> None:
        if not self.has_data:
            raise InputError(
                "no transactions loaded: give an INPUT file or a --db holding a dataset"
            )

    def require_hierarchy(self) -> None:
        self.require_data()
        if not self.has_hierarchy:
            raise HierarchyError("no hierarchy: give --hierarchy FILE, --fanout F or --code-prefix")

    def item_labels(self) -> list[str]:
        self.require_data()
        return [r[0] for r in self.query("SELECT DISTINCT label FROM tx_raw ORDER BY label")]

    def use_hierarchy(self, h: Hierarchy) -> None:
        """Store the hierarchy as `node`/`closure` and encode the transactions' items to leaf ids."""
        self.require_data()
        n_leaves = h.n_leaves
        ids = list(range(h.size))
        table = pa.table(
            {
                "id": pa.array(ids, pa.int32()),
                "label": pa.array(h.labels, pa.string()),
                "parent": pa.array([p if p >= 0 else None for p in h.parent], pa.int32()),
                "depth": pa.array(h.depth, pa.int32()),
                "last": pa.array(h.last, pa.int32()),
                "leaf_count": pa.array(h.leaf_count, pa.int32()),
                "is_leaf": pa.array([h.is_leaf(i) for i in ids], pa.bool_()),
                "ncp": pa.array(
                    [0.0 if h.is_leaf(i) else h.leaf_count[i] / n_leaves for i in ids], pa.float64()
                ),
                "lm": pa.array(
                    [(h.leaf_count[i] - 1) / (n_leaves - 1) if n_leaves > 1 else 0.0 for i in ids],
                    pa.float64(),
                ),
            }
        )
        self.put_arrow("node", table)
        missing = self.run_all("items_missing_from_hierarchy")
        if missing:
            total = self.scalar(
                "SELECT count(DISTINCT label) FROM tx_raw ANTI JOIN node USING (label)"
            )
            shown = ", ".join(repr(r[0]) for r in missing)
            raise HierarchyError(
                f"{total} item(s) of the data are missing from the hierarchy: {shown}"
            )
        internal = self.run_all("items_not_leaves")
        if internal:
            shown = ", ".join(repr(r[0]) for r in internal)
            raise HierarchyError(f"items of the data are internal nodes of the hierarchy: {shown}")
        self.run("closure")
        self.run("encode_transactions")

    def hierarchy_from_db(self) -> Hierarchy:
        """Rebuild the Hierarchy object from the stored `node` table."""
        from .hierarchy import from_edges

        self.require_hierarchy()
        rows = self.query(
            "SELECT c.label, p.label FROM node c JOIN node p ON p.id = c.parent ORDER BY c.id"
        )
        return from_edges(rows, source="stored hierarchy")

    def stats(self) -> dict[str, Any]:
        self.require_data()
        return self.run("dataset_stats").one()

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
