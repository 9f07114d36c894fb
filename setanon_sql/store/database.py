"""A DuckDB database as the tool sees it: the executor, the registry, the dataset and hierarchy
in use, and the run being made.

Algorithms see only the executor's interface (`execute`, `run`, `query`, `scalar`, `arrow`,
`put_arrow`, `unordered`) and unqualified table names, which resolve to the current run's schema
first, then to the hierarchy's (`node`, `closure`, `tx`), then to the dataset's (`tids`,
`tx_raw`). A run's schema, its registry row and its `sql_log` are made and, on any failure or
interrupt, removed here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

from ..engine.contract import Forwarding
from ..engine.duckdb import Executor
from ..engine.log import Logged, replay_script
from ..engine.sqltext import literal, qualified, quote
from ..errors import HierarchyError, InputError, ParamsError
from .dataset import LOG_TABLE as LOG
from .dataset import (
    Dataset,
    HierarchyRef,
    Loaded,
    attach_hierarchy,
    item_labels,
)
from .hierarchy import Hierarchy
from .loading import Source, load_dataset
from .registry import Registry

__all__ = ["Run", "Store", "literal", "quote"]

EVAL_PREFIX = "eval_"
"""The tables evaluate and report write into a stored run's schema are named so."""


@dataclass
class Run:
    """The run being made: the schema it is built in, its registry id and name, the SQL it
    ran, its results."""

    schema: str
    id: int
    name: str = ""  # the name the run is kept by (its schema once a replacement is swapped in)
    log: list[Logged] = field(default_factory=list)
    results: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.name = self.name or self.schema

    def table(self, name: str) -> str:
        return f"{quote(self.schema)}.{quote(name)}"


def renamed_schema(entry: Logged, old: str, new: str) -> Logged:
    """A logged statement that names the schema `old` (its creation, the search path), written
    with `new`: a replacement run is built under a name of its own, and its log must rebuild it
    under the name it is kept by. Other statements use unqualified names and stay as they are.

    Example:
        >>> renamed_schema(Logged("create_schema", 'CREATE SCHEMA "r_x"'), "r_x", "r").sql
        'CREATE SCHEMA "r"'
    """
    if entry.step not in ("create_schema", "search_path"):
        return entry
    return dataclasses.replace(entry, sql=entry.sql.replace(quote(old), quote(new)))


class Store(Forwarding):
    """A DuckDB database: a file, or in memory.

    Example:
        >>> s = Store()  # in-memory
        >>> s.current_schema()
        'main'
    """

    ex: Executor  # the DuckDB engine: its file, catalog, search path and transactions too

    def __init__(
        self,
        db: str | Path | None = None,
        *,
        read_only: bool = False,
        memory_limit: str | None = None,
        temp_dir: str | Path | None = None,
        threads: int | None = None,
    ) -> None:
        self.ex = Executor(
            db,
            read_only=read_only,
            memory_limit=memory_limit,
            temp_dir=temp_dir,
            threads=threads,
        )
        try:
            self.registry = Registry(self.ex)
        except BaseException:
            self.ex.close()
            raise
        self.dataset: Dataset | None = None
        self.hierarchy: HierarchyRef | None = None
        self.run_ctx: Run | None = None

    # -- the executor, as algorithms use it ---------------------------------------------------------
    @property
    def path(self) -> Path | None:
        return self.ex.path

    def current_schema(self) -> str:
        """The schema unqualified tables are created in now; for a run being made, the name it
        will be kept by (a replacement is built under another and swapped in at the end)."""
        if self.run_ctx is not None:
            return self.run_ctx.name
        return str(self.ex.run("current_schema").one()["schema"])

    def has_table(self, name: str, schema: str | None = None) -> bool:
        """Whether a table of this name exists in `schema` (default: the current run's)."""
        where = schema or (self.run_ctx.schema if self.run_ctx else None)
        if where is None:
            return False
        found = self.ex.run(
            "table_exists", {"catalog": self.ex.catalog, "schema": where, "table": name}
        )
        return bool(found.one()["found"])

    # -- the dataset and hierarchy in use -------------------------------------------------------------
    def data_schemas(self) -> tuple[str, ...]:
        """Where unqualified dataset names resolve: the hierarchy's schema, then the dataset's."""
        out = []
        if self.hierarchy is not None:
            out.append(self.hierarchy.schema)
        if self.dataset is not None:
            out.append(self.dataset.schema)
        return tuple(out)

    def point(self, *, run: str | None = None, scratch: bool | None = None) -> None:
        """Resolve unqualified names in `run`, then the hierarchy's and dataset's schemas; with
        none of them, in the database's own `main` again, so nothing resolves in a run that
        was read before (a read of a run's tables must name its run). With `scratch` (always
        when the database is open read-only) new tables go to the connection's memory."""
        schemas = ((run,) if run else ()) + self.data_schemas()
        scratch = self.ex.read_only if scratch is None else scratch
        self.ex.set_path(*(schemas or ("main",)), scratch=scratch)

    def load(self, source: Source) -> Loaded:
        """Load a source (a `load.SourceSpec`, transactions held in Python, or a table's
        `tables.TableInput`) as a dataset, or find it loaded already. Transactions are then
        the data in use; a table is copied into each run that reads it (`tables.copy_raw`)."""
        loaded = load_dataset(self.ex, self.registry, source)
        if loaded.dataset.kind == "transactions":
            self.use(loaded.dataset)
        else:  # building it pointed at its schema
            self.point(run=self.run_ctx.schema if self.run_ctx else None)
        return loaded

    def use(self, dataset: Dataset, hierarchy: HierarchyRef | None = None) -> None:
        self.dataset, self.hierarchy = dataset, hierarchy
        self.ex.fit_threads(dataset.rows)
        self.point()

    def use_dataset_id(self, dataset_id: int | None) -> Dataset:
        """A dataset stored in the database: the one asked for, or the only one there is."""
        rows = self.registry.datasets()
        rows = [r for r in rows if r["kind"] == "transactions"]
        if dataset_id is not None:
            chosen = Dataset.of(self.registry.dataset(dataset_id))
            if chosen.kind != "transactions":
                raise InputError(
                    f"dataset {dataset_id} is a {chosen.kind.replace('_', ' with ')}, not "
                    "transactions (see `setanon datasets`)"
                )
        elif len(rows) == 1:
            chosen = Dataset.of(self.registry.dataset(rows[0]["dataset_id"]))
        elif not rows:
            raise InputError("no transactions loaded: give an INPUT file or a --db holding one")
        else:
            ids = ", ".join(str(r["dataset_id"]) for r in rows)
            raise InputError(f"the database holds several datasets ({ids}): choose with --dataset")
        self.use(chosen)
        return chosen

    def use_stored_hierarchy(self) -> HierarchyRef | None:
        """The dataset's hierarchy when it has exactly one."""
        self.require_data()
        assert self.dataset is not None
        rows = self.registry.hierarchies_of(self.dataset.id)
        if len(rows) == 1:
            self.use(self.dataset, HierarchyRef.of(rows[0]))
        return self.hierarchy

    def use_hierarchy(self, h: Hierarchy, source: str = "hierarchy") -> bool:
        """Use this tree with the dataset: store it (or find it stored). Returns whether it was
        stored already."""
        self.require_data()
        assert self.dataset is not None
        ref, reused = attach_hierarchy(self.ex, self.registry, self.dataset, h, source)
        self.use(self.dataset, ref)
        return reused

    def require_data(self) -> None:
        if self.dataset is None:
            raise InputError("no transactions loaded: give an INPUT file or a --db holding one")

    def require_hierarchy(self) -> None:
        self.require_data()
        if self.hierarchy is None:
            raise HierarchyError("no hierarchy: give --hierarchy FILE, --fanout F or --code-prefix")

    def item_labels(self) -> list[str]:
        self.require_data()
        assert self.dataset is not None
        return item_labels(self.ex, self.dataset)

    def build_fanout(self, fanout: int, *, by_support: bool) -> Hierarchy:
        """The balanced fan-out tree over the dataset's items, built in SQL (fanout.py)."""
        from . import fanout as builder

        self.require_data()
        return builder.build(self.ex, fanout, by_support=by_support)

    def hierarchy_from_db(self) -> Hierarchy:
        """Rebuild the Hierarchy object from the stored `node` table."""
        from .hierarchy import from_edges

        self.require_hierarchy()
        edges = self.run("hierarchy_edges").tuples("child", "parent")
        return from_edges(edges, source="stored hierarchy")

    def stats(self) -> dict[str, Any]:
        self.require_data()
        return self.run("dataset_stats").one()

    # -- runs -------------------------------------------------------------------------------------------
    @contextmanager
    def in_run(self, name: str, *, scratch: bool | None = None) -> Iterator[dict[str, Any]]:
        """Resolve unqualified names in a stored run, with its own dataset and hierarchy.

        With `scratch` (always when the database is open read-only) new tables go to the
        connection's memory, so the run and the file stay as they were. Without it, the tables
        made here (evaluate's and report's eval_*) are recorded as the run's when it ends,
        also when it fails: a later `--replace` of the run drops them with it."""
        row = self.registry.run(name)
        saved = (self.dataset, self.hierarchy)
        did = row["dataset_id"]
        self.dataset = Dataset.of(self.registry.dataset(did)) if did else None
        hid = row["hierarchy_id"]
        self.hierarchy = HierarchyRef.of(self.registry.hierarchy(hid)) if hid else None
        scratch = self.ex.read_only if scratch is None else scratch
        before = [] if scratch else self._writable_run(name)
        self.point(run=name, scratch=scratch)
        try:
            yield row
        except BaseException:
            if not scratch:  # what a failed evaluation left is the tool's all the same
                with suppress(Exception):
                    self.registry.record_new_tables(name, before, "run", row["run_id"])
            raise
        else:
            if not scratch:
                self.registry.record_new_tables(name, before, "run", row["run_id"])
        finally:
            self.dataset, self.hierarchy = saved
            self.point(run=self.run_ctx.schema if self.run_ctx else None)

    def _writable_run(self, name: str) -> list[str]:
        """The tables of run `name` the tool did not create, before it writes there; refuse
        when one has a name the tool writes (`eval_*`), which it would overwrite."""
        foreign = self.registry.foreign_tables(name)
        clash = [t for t in foreign if t.startswith(EVAL_PREFIX)]
        if clash:
            raise ParamsError(
                f"run {name!r} holds table(s) setanon-sql did not create ({', '.join(clash[:5])}) "
                "under names it writes there; rename them first"
            )
        return foreign

    @contextmanager
    def scratch(self) -> Iterator[None]:
        """New tables go to the connection's memory; dataset names resolve as usual."""
        self.point(scratch=True)
        try:
            yield
        finally:
            self.point(run=self.run_ctx.schema if self.run_ctx else None)

    def replay_script(self, name: str, *, title_name: str | None = None) -> str:
        """The SQL that rebuilds a stored run on a fresh DuckDB holding the same input files:
        its dataset's statements, its hierarchy's, then its own (`title_name`: the name the
        run is kept by, when it is still being built under another)."""
        row = self.registry.run(name)
        parts = []
        if row["dataset_id"]:
            parts.append(self.registry.dataset(row["dataset_id"])["schema_name"])
        if row["hierarchy_id"]:
            parts.append(self.registry.hierarchy(row["hierarchy_id"])["schema_name"])
        parts.append(name)
        entries: list[Logged] = []
        for schema in parts:
            entries.extend(self.stored_log(schema))
        title = f"setanon-sql: replay of run {title_name or name}"
        return replay_script(entries, title=title)

    def stored_log(self, schema: str, step: str | None = None) -> list[Logged]:
        """The `sql_log` one of the tool's schemas keeps."""
        import json

        if self.registry.owner_of(schema) is None:
            raise InputError(f"no schema {schema!r} of setanon-sql in this database")
        log = qualified(self.ex.catalog, schema, LOG)
        rows = self.ex.run("sql_log_read", {"log": log, "step": step}).dicts()
        return [
            Logged(
                r["step"],
                r["sql"],
                json.loads(r["params"]) if r["params"] else None,
                r["seconds"] or 0.0,
            )
            for r in rows
        ]

    def write_sql_log(self, path: str | Path, entries: list[Logged] | None = None) -> None:
        """Write the SQL that ran, step by step, to a .sql file an analyst can re-read."""
        text = replay_script(entries if entries is not None else self.ex.log)
        Path(path).write_text(text, encoding="utf-8")

    def close(self) -> None:
        self.ex.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
