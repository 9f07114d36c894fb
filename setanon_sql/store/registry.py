"""What the tool created in a database: datasets, hierarchies, runs; the only place that drops.

The registry lives in schema `setanon` (tables `meta`, `datasets`, `hierarchies`, `runs`,
`objects`, `files`: the files read that the others do not name; SQL in `sql/registry.sql`).
Every schema and table the tool makes is recorded in `objects` before or as it is made; a schema is dropped only when it is recorded as the tool's
and holds nothing else, so a user's own schemas and tables are never touched, whatever
`--replace` says.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..engine import ddl
from ..engine.duckdb import Executor
from ..engine.sqltext import quote
from ..errors import InputError, ParamsError

SCHEMA = "setanon"
RUN_PREFIX = "run_"


@dataclass(frozen=True)
class Ids:
    dataset: int
    hierarchy: int
    run: int


def registry_sql(name: str, catalog: str) -> str:
    """A statement of `sql/registry.sql` with its tables qualified by the database's catalog:
    the registry must resolve while new tables go to the connection's scratch memory
    (read-only inspection). The catalog's name is bound as `$catalog` where a statement asks."""
    from ..engine import sqlfiles

    return re.sub(r"\bsetanon\.", f"{quote(catalog)}.setanon.", sqlfiles.statement(name).sql)


class Registry:
    """The registry of one database, through its executor (statements marked bookkeeping, so
    they stay out of the logs a run replays)."""

    def __init__(self, ex: Executor) -> None:
        self.ex = ex
        self.exists = self._check()

    def _q(self, name: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        sql = registry_sql(name, self.ex.catalog)
        if "$catalog" in sql:
            params = {**(params or {}), "catalog": self.ex.catalog}
        return self.ex.execute(sql, params, step=name, bookkeeping=True).dicts()

    def _first(self, name: str, params: dict[str, Any]) -> dict[str, Any] | None:
        """The first row of registry statement `name`, or None when it finds nothing."""
        rows = self._q(name, params)
        return rows[0] if rows else None

    def _check(self) -> bool:
        """Whether the registry exists; refuse a `setanon` schema the tool did not make."""
        if not self._q("registry_schema_exists", {"schema": SCHEMA})[0]["found"]:
            return False
        marker = self._q("registry_marker_table_exists", {"schema": SCHEMA})[0]["found"]
        if not marker or not self._q("registry_marker"):
            raise InputError(
                f"this database has a schema {SCHEMA!r} that setanon-sql did not create; "
                "use another --db (the tool keeps its registry there)"
            )
        return True

    def ensure(self) -> None:
        """Create the registry on first write; clear runs a killed process left marked running."""
        if self.ex.read_only:
            raise InputError("the database is open read-only")
        if not self.exists:
            self._q("registry_create")
            self._q("registry_create_files")
            self.exists = True
            return
        if not self._has_files():
            self._q("registry_create_files")  # a database made before the table
        for stale in self._q("registry_stale_runs"):
            self.drop_schema(stale["name"], force=True)
            self.end_run(stale["run_id"], "failed", message="the process ended during the run")

    def require(self) -> None:
        if not self.exists:
            raise InputError("this database holds no setanon-sql datasets or runs")

    # -- objects ----------------------------------------------------------------------------------
    def next_ids(self) -> Ids:
        row = self._q("registry_next_ids")[0]
        return Ids(row["dataset"], row["hierarchy"], row["run"])

    def name_taken(self, name: str) -> bool:
        return bool(self._q("registry_name_taken", {"name": name})[0]["taken"])

    def owner_of(self, schema: str, table: str | None = None) -> dict[str, Any] | None:
        return self._first("registry_owner_of", {"schema": schema, "table": table})

    def create_schema(self, schema: str, owner: str, owner_id: int) -> None:
        """Record, then create, a schema of the tool's."""
        if self.name_taken(schema):
            raise ParamsError(
                f"cannot create schema {schema!r}: the name is taken in this database"
            )
        self._q(
            "registry_record_object",
            {"schema": schema, "table": None, "owner": owner, "owner_id": owner_id},
        )
        self.ex.execute(ddl.create_schema(schema), step="create_schema")

    def record_tables(self, schema: str, owner: str, owner_id: int) -> None:
        """Record every table now in one of the tool's schemas as the tool's."""
        self._q("registry_record_tables", {"schema": schema, "owner": owner, "owner_id": owner_id})

    def record_table(self, schema: str, table: str, owner: str, owner_id: int) -> None:
        self._q(
            "registry_record_object",
            {"schema": schema, "table": table, "owner": owner, "owner_id": owner_id},
        )

    def foreign_tables(self, schema: str) -> list[str]:
        """The tables of `schema` the tool did not record, in name order."""
        return [r["table_name"] for r in self._q("registry_foreign_tables", {"schema": schema})]

    def record_new_tables(self, schema: str, before: list[str], owner: str, owner_id: int) -> None:
        """Record as the tool's the unrecorded tables of `schema` that were not there
        (`before`, its foreign tables then): what the tool just wrote into its own schema
        (report's and evaluate's eval_* tables), never a table a user put there."""
        for table in sorted(set(self.foreign_tables(schema)) - set(before)):
            self.record_table(schema, table, owner, owner_id)

    def drop_schema(self, schema: str, *, force: bool = False) -> None:
        """Drop one of the tool's schemas. Unless `force` (a schema this very process just made
        and is cleaning up), refuse when it holds a table the tool did not record."""
        if self.owner_of(schema) is None:
            raise ParamsError(f"schema {schema!r} was not created by setanon-sql; not dropped")
        if not force:
            foreign = self.foreign_tables(schema)
            if foreign:
                raise ParamsError(
                    f"schema {schema!r} holds table(s) setanon-sql did not create "
                    f"({', '.join(foreign[:5])}); not dropped"
                )
        self.ex.execute(ddl.drop_schema(schema), step="drop_schema")
        self._q("registry_forget_schema", {"schema": schema})

    def drop_table(self, schema: str, table: str) -> None:
        """Drop a table the tool made outside its own schemas (an --output-table)."""
        if self.owner_of(schema, table) is None:
            raise ParamsError(
                f"table {schema}.{table} was not created by setanon-sql; not replaced"
            )
        self.ex.execute(ddl.drop_table(table, schema), step="drop_table")
        self._q("registry_forget_table", {"schema": schema, "table": table})

    def free_name(self, base: str) -> str:
        """`base`, or `base_2`, `base_3`...: the first name no schema or table has."""
        name, i = base, 2
        while self.name_taken(name):
            name, i = f"{base}_{i}", i + 1
        return name

    # -- datasets and hierarchies ---------------------------------------------------------------------
    def dataset_by_file(
        self, kind: str, source: str, reader: str, size: int, mtime: int
    ) -> dict[str, Any] | None:
        return self._first(
            "registry_dataset_by_file",
            {"kind": kind, "source": source, "reader": reader, "size": size, "mtime": mtime},
        )

    def dataset_by_fingerprint(self, kind: str, fingerprint: str) -> dict[str, Any] | None:
        where = {"kind": kind, "fingerprint": fingerprint}
        return self._first("registry_dataset_by_fingerprint", where)

    def dataset(self, dataset_id: int) -> dict[str, Any]:
        rows = self._q("registry_dataset", {"id": dataset_id})
        if not rows:
            raise ParamsError(f"no dataset {dataset_id} in this database (see `setanon datasets`)")
        return rows[0]

    def datasets(self) -> list[dict[str, Any]]:
        return self._q("registry_datasets") if self.exists else []

    def _has_files(self) -> bool:
        return bool(self._q("registry_files_exists")[0]["found"])

    def sources(self) -> list[dict[str, Any]]:
        """The files (or descriptions) every dataset and hierarchy was read from, and every
        file `record_file` recorded."""
        if not self.exists:
            return []
        found = self._q("registry_sources")
        return found + self._q("registry_file_sources") if self._has_files() else found

    def record_file(self, path: str, owner: str, owner_id: int) -> None:
        """Record that a dataset, hierarchy or run read the file `path` (absolute), which
        `datasets` and `hierarchies` do not name: no output may then replace it."""
        self._q("registry_record_file", {"path": path, "owner": owner, "owner_id": owner_id})

    def add_dataset(self, **row: Any) -> None:
        self._q("registry_add_dataset", row)

    def hierarchy_by_fingerprint(self, dataset: int, fingerprint: str) -> dict[str, Any] | None:
        where = {"dataset": dataset, "fingerprint": fingerprint}
        return self._first("registry_hierarchy_by_fingerprint", where)

    def hierarchy(self, hierarchy_id: int) -> dict[str, Any]:
        rows = self._q("registry_hierarchy", {"id": hierarchy_id})
        if not rows:
            raise ParamsError(f"no hierarchy {hierarchy_id} in this database")
        return rows[0]

    def hierarchies_of(self, dataset: int) -> list[dict[str, Any]]:
        return self._q("registry_hierarchies_of", {"dataset": dataset})

    def add_hierarchy(self, **row: Any) -> None:
        self._q("registry_add_hierarchy", row)

    # -- runs ---------------------------------------------------------------------------------------
    def check_run_name(self, name: str, *, replace: bool) -> dict[str, Any] | None:
        """The live run a new run of this name replaces (with `replace`), else None; refuse a
        name taken by anything the tool did not make as a run."""
        live = self._q("registry_run_by_name", {"name": name})
        if live:
            if not replace:
                raise ParamsError(f"run {name!r} exists already in this database (use --replace)")
            return live[0]
        if self.name_taken(name):
            raise ParamsError(
                f"{name!r} names a schema or table setanon-sql did not create in this database; "
                "choose another --run name (--replace never touches it)"
            )
        return None

    def check_replaceable(self, schema: str) -> None:
        """Refuse, before any work, to replace a run whose schema holds a table the tool did
        not create (it would not be dropped at the end)."""
        if self.owner_of(schema) is None:
            return
        foreign = self.foreign_tables(schema)
        if foreign:
            raise ParamsError(
                f"run {schema!r} holds table(s) setanon-sql did not create "
                f"({', '.join(foreign[:5])}); it is not replaced (choose another --run name)"
            )

    def swap_run(self, old: dict[str, Any], built: str, name: str, run_id: int) -> None:
        """Put the run built in schema `built` in place of the live run `old` of `name`: drop
        the old run's schema, copy the new one's tables under `name`, drop `built`. DuckDB
        renames no schema, so the tables are copied; the caller holds one transaction around
        this, so an interrupt leaves the old run whole."""
        if self.owner_of(old["name"]) is not None:
            self.drop_schema(old["name"])
        self.retire_run(old["run_id"])
        self.create_schema(name, "run", run_id)
        for row in self._q("registry_tables_of", {"schema": built}):
            table = row["table_name"]
            copy = ddl.select_all(table, built)
            self.ex.execute(
                ddl.create_table_as(table, copy, schema=name, replace=False),
                step="swap_copy",
                bookkeeping=True,
            )
        self.record_tables(name, "run", run_id)
        self.drop_schema(built, force=True)
        self._q("registry_rename_run", {"id": run_id, "name": name})

    def start_run(self, **row: Any) -> None:
        row["params"] = json.dumps(row["params"], default=str, sort_keys=True)
        self._q("registry_start_run", row)

    def end_run(
        self,
        run_id: int,
        status: str,
        *,
        seconds: float | None = None,
        results: dict[str, Any] | None = None,
        message: str | None = None,
    ) -> None:
        self._q(
            "registry_end_run",
            {
                "id": run_id,
                "status": status,
                "seconds": seconds,
                "results": json.dumps(results, default=str) if results is not None else None,
                "message": message,
            },
        )

    def retire_run(self, run_id: int, status: str = "replaced") -> None:
        self._q("registry_retire_run", {"id": run_id, "status": status})

    def run(self, name: str) -> dict[str, Any]:
        """The complete (or running) run of this name."""
        rows = self._q("registry_run_by_name", {"name": name}) if self.exists else []
        if not rows:
            raise ParamsError(f"no run named {name!r} in this database (see `setanon runs`)")
        return rows[0]

    def runs(self) -> list[dict[str, Any]]:
        if not self.exists:
            return []
        out = self._q("registry_runs")
        for r in out:
            r["params"] = json.loads(r["params"]) if r["params"] else {}
            r["results"] = json.loads(r["results"]) if r["results"] else {}
        return out
