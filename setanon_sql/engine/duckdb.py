"""The one path every SQL statement takes: quoting, bound parameters, the log, the engine.

Each statement is executed on one DuckDB connection and recorded (step name, text, parameters,
seconds) in the process log and in every log that is recording at the time: a dataset's, a
hierarchy's, a run's. A recorded log renders as a script that replays on a fresh DuckDB
(`replay_script`): parameters are written in as literals and Arrow tables handed to DuckDB are
written out as rows, so the script needs only the same input files.

The database file, when there is one, is attached under its own name (its file stem, as DuckDB
names it), read-only for inspection; the connection's own in-memory catalog `memory` is then a
scratch space that never touches the file.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

if TYPE_CHECKING:  # importing pyarrow (and the numpy it pulls in) costs ~0.1 s a process
    import pyarrow as pa

from ..errors import InputError, ParamsError, ResourceError, first_line
from . import ddl, interrupts, limits, spill, sqlfiles
from .log import Answer, Logged, Rows, StatementLog
from .sqltext import qualified, quote

SCRATCH = "memory"
DUCKDB_MAGIC = b"DUCK"
DB_SUFFIXES = ("", ".duckdb", ".db", ".ddb")
# Datasets up to this many transactions run on one DuckDB thread when --threads is not given:
# their statements take milliseconds, and a second thread costs more than it brings (WV1 and
# WV2 Partition, whole process: about 9% less CPU and wall, 20 MB less peak memory).
ONE_THREAD_TRANSACTIONS = 200_000
# An input file up to this size is read and encoded on one thread too, before its transactions
# are counted; `fit_threads` gives a larger dataset its threads back once it is loaded.
# Measured in-process, 21 alternating fresh processes each: BMS-WebView-1 (1.5 MB) loads
# 12 ms faster with 27 ms less CPU; BMS-WebView-2 (3.6 MB) would use 32 ms less CPU but take
# 8 ms longer, its grouping and hashing gaining from a second thread, so it keeps them.
ONE_THREAD_BYTES = 2 * 2**20


def check_database_file(path: Path, *, must_exist: bool) -> None:
    """Refuse a --db that is not a DuckDB file (DuckDB would open a CSV as a database of one
    view and store nothing) or, for inspection, one that does not exist."""
    if path.exists():
        if path.is_dir():
            raise InputError(f"--db {path} is a folder, not a DuckDB file")
        with path.open("rb") as f:
            head = f.read(16)
        if head[8:12] != DUCKDB_MAGIC:
            raise InputError(f"--db {path} is not a DuckDB database file")
        return
    if must_exist:
        raise InputError(f"no DuckDB database at {path}")
    if path.suffix.lower() not in DB_SUFFIXES:
        raise InputError(
            f"--db {path}: a new DuckDB file must end in .duckdb, .db or .ddb "
            f"(not {path.suffix!r}, which names another kind of file)"
        )
    if not path.parent.is_dir():
        raise InputError(f"--db {path}: folder {path.parent} does not exist")


# Catalog names DuckDB reserves (`main` too: ATTACH refuses it), and those of the files the
# readers attach beside the database (load.py, relational/data.py).
RESERVED_CATALOGS = ("memory", "system", "temp", "main", "setanon_source", "rel_source_db")


def catalog_name(path: Path) -> str:
    """The catalog DuckDB itself would give the file, its stem, unless DuckDB reserves that
    name or a reader attaches another file under it: `main.duckdb` is catalog `db`.

    Example:
        >>> catalog_name(Path("work.duckdb")), catalog_name(Path("MAIN.duckdb"))
        ('work', 'db')
    """
    stem = path.stem
    return stem if stem and stem.lower() not in RESERVED_CATALOGS else "db"


def names_catalog(ex: Executor, name: str) -> bool:
    """Whether a table name's catalog part names the --db: its catalog, or the file's stem
    (`main.sales.t` for main.duckdb, whose catalog is `db`)."""
    names = {ex.catalog.lower()} | ({ex.path.stem.lower()} if ex.path is not None else set())
    return name.lower() in names


class Executor(StatementLog):
    """A DuckDB connection that every statement goes through, logged.

    Example:
        >>> ex = Executor()
        >>> ex.run("current_schema").one(), ex.log[-1].step
        ({'schema': 'main'}, 'current_schema')
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        read_only: bool = False,
        memory_limit: str | None = None,
        temp_dir: str | Path | None = None,
        threads: int | None = None,
    ) -> None:
        self.path = Path(path) if path else None
        self.read_only = read_only
        self.log: list[Logged] = []
        self._sinks: list[list[Logged]] = []
        self._spill: tempfile.TemporaryDirectory[str] | None = None
        self.threads_given = threads is not None
        self._loading_on_one = False
        self._in_scratch = False  # the last search path set was a scratch one
        if self.path is not None:
            check_database_file(self.path, must_exist=read_only)
        limits.check_threads(threads)
        limits.check_memory_limit(memory_limit)
        if temp_dir is not None:
            limits.check_spill_folder(Path(temp_dir))
        self.con = duckdb.connect(":memory:")
        self.catalog = SCRATCH
        interrupts.watch(self)
        try:
            self._setup(memory_limit, temp_dir, threads)
            if self.path is not None:
                self.catalog = catalog_name(self.path)
                self._raw(ddl.attach(str(self.path), self.catalog, read_only=read_only))
                self._raw(ddl.use(self.catalog))
        except duckdb.Error as e:
            self.close()
            raise InputError(f"cannot open DuckDB database {self.path}: {first_line(e)}") from e
        except BaseException:
            self.close()
            raise

    def _setup(
        self, memory_limit: str | None, temp_dir: str | Path | None, threads: int | None
    ) -> None:
        self._raw(ddl.setting("enable_progress_bar", False))
        if temp_dir is None:  # DuckDB would spill into ./.tmp of wherever it was started
            self._spill = spill.private_folder()
            temp_dir = self._spill.name
        self._raw(ddl.setting("temp_directory", str(temp_dir)))
        self._raw(ddl.setting("max_temp_directory_size", limits.spill_cap(temp_dir)))
        if memory_limit is None:
            memory_limit = limits.default_memory_limit()
        try:
            if memory_limit is not None:
                self._raw(ddl.setting("memory_limit", memory_limit))
            if threads is not None:
                self._raw(ddl.setting("threads", int(threads)))
        except duckdb.Error as e:
            raise ParamsError(f"DuckDB setting refused: {first_line(e)}") from e

    def shortage(self, e: duckdb.Error, step: str) -> ResourceError | None:
        """DuckDB's out-of-memory and out-of-disk errors as what they are: the machine's
        limits, said with the limit in force and what to change (exit 5, not a bug)."""
        text = first_line(e)
        if limits.SPILL_FULL in str(e):  # an out-of-memory error by its type, a full disk by cause
            folder = self.setting("temp_directory")
            cap = self.setting("max_temp_directory_size")
            return ResourceError(
                f"DuckDB's spill files in {folder} reached their cap of {cap} in step {step} "
                f"({text}); the cap is {limits.SPILL_SHARE:.0%} of the disk free there when the "
                "database was opened: free disk space, spill elsewhere with --temp-dir, or "
                "raise --memory-limit"
            )
        if isinstance(e, duckdb.OutOfMemoryException):
            limit = self.setting("memory_limit")
            return ResourceError(
                f"DuckDB ran out of memory in step {step} under its memory limit of "
                f"{limit} ({text}); give it more with --memory-limit, or "
                "free memory on this machine"
            )
        if any(sign in text.lower() for sign in limits.DISK_FULL):
            folder = self.setting("temp_directory")
            return ResourceError(
                f"no room to write in step {step} ({text}): the disk is full or a size limit "
                f"was reached; free space, or spill elsewhere with --temp-dir (now {folder})"
            )
        return None

    def fit_threads(self, transactions: int) -> None:
        """One DuckDB thread for a small dataset, unless the caller chose the threads."""
        if self.threads_given:
            return
        if transactions <= ONE_THREAD_TRANSACTIONS:
            if not self._loading_on_one:
                self._raw(ddl.setting("threads", 1))
            self.threads_given = True
        elif self._loading_on_one:
            self._raw(ddl.reset("threads"))
        self._loading_on_one = False

    def fit_load_threads(self, size: int) -> None:
        """One DuckDB thread to load a small input file (`size` bytes), unless the caller
        chose the threads; `fit_threads` decides again once the transactions are counted."""
        if not self.threads_given and not self._loading_on_one and size <= ONE_THREAD_BYTES:
            self._raw(ddl.setting("threads", 1))
            self._loading_on_one = True

    def _raw(self, sql: str) -> None:
        """Connection set-up that belongs to this process, not to any dataset or run."""
        self.con.execute(sql).fetchall()

    def setting(self, name: str) -> Any:
        """A DuckDB setting's value now, read outside the logs (for messages and restores);
        "?" when DuckDB cannot even answer (out of memory), so the message still gets said."""
        try:
            statement = sqlfiles.statement("setting_value").sql
            row = self.con.execute(statement, {"name": name}).fetchone()
        except duckdb.Error:
            return "?"
        return row[0] if row else "?"

    # -- the one path ---------------------------------------------------------------------------
    def execute(
        self,
        sql: str,
        params: Mapping[str, Any] | None = None,
        *,
        step: str = "sql",
        bookkeeping: bool = False,
    ) -> Answer:
        """Run one statement, record it, fetch its whole result.

        `bookkeeping` statements (the registry's) go to the process log only: they are not part
        of what a dataset's or run's log must replay.
        """
        bound = dict(params) if params else None
        with self._statement(step, sql, bound, bookkeeping=bookkeeping):
            cur = self.con.execute(sql, bound)
            columns = [d[0] for d in cur.description] if cur.description else []
            rows = cur.fetchall() if columns else []
        return Answer(columns, rows)

    @contextmanager
    def _statement(
        self, step: str, sql: str, bound: dict[str, Any] | None, *, bookkeeping: bool = False
    ) -> Iterator[None]:
        """Time and record one statement; an interrupt DuckDB reports as an error is raised
        as the interrupt it is."""
        started = time.perf_counter()
        try:
            yield
        except (duckdb.Error, RuntimeError) as e:
            stop = as_interrupt(e)
            if stop is not None:
                raise stop from e
            if isinstance(e, (duckdb.OutOfMemoryException, duckdb.IOException)):
                short = self.shortage(e, step)
                if short is not None:
                    raise short from e
            raise
        finally:
            entry = Logged(step, sql, bound, time.perf_counter() - started)
            self._record(entry, bookkeeping=bookkeeping)

    def arrow(
        self, sql: str, params: Mapping[str, Any] | None = None, *, step: str = "sql"
    ) -> pa.Table:
        """Run a query and hand its result to Python as an Arrow table (for large results)."""
        bound = dict(params) if params else None
        with self._statement(step, sql, bound):
            return self.con.sql(sql, params=bound).to_arrow_table()

    def run(
        self, name: str, params: Mapping[str, Any] | None = None, *, bookkeeping: bool = False
    ) -> Answer:
        """Run the named statement from `sql/`."""
        return self.execute(
            sqlfiles.statement(name).sql, params, step=name, bookkeeping=bookkeeping
        )

    def put_arrow(
        self, name: str, table: pa.Table, *, temp: bool = False, bookkeeping: bool = False
    ) -> None:
        """Copy an Arrow table into a DuckDB table of the current schema; the log keeps its rows
        so a replay can rebuild it (not for `bookkeeping` tables, such as the logs)."""
        view = f"_arrow_{name}"
        started = time.perf_counter()
        self.con.register(view, table)
        try:
            create = ddl.create_table_as(name, ddl.select_all(view), temp=temp)
            self.con.execute(create).fetchall()
            types = [r[1] for r in self.con.execute(ddl.describe(name)).fetchall()]
        except (duckdb.Error, RuntimeError) as e:  # a signal, as in `_statement`
            stop = as_interrupt(e)
            if stop is None:
                raise
            raise stop from e
        finally:
            self.con.unregister(view)
        seconds = time.perf_counter() - started
        sql = ddl.create_table_as(name, f"<{table.num_rows} rows from Python>", temp=temp)
        if bookkeeping:
            self._record(Logged(f"put_{name}", sql, None, seconds), bookkeeping=True)
        else:
            self._record(Logged(f"put_{name}", sql, None, seconds, table, tuple(types), temp))

    def put_rows(
        self, name: str, rows: Rows, *, temp: bool = False, bookkeeping: bool = False
    ) -> None:
        """Like `put_arrow`, for columns held in Python lists: each column is bound as one
        typed list parameter and unnested, one statement for the whole table."""
        columns = list(zip(rows.column_names, rows.types, strict=True))
        started = time.perf_counter()
        self.con.execute(ddl.create_table(name, columns, temp=temp))
        if rows.columns:
            self.con.execute(
                ddl.insert_into(name, ddl.unnest_columns(rows.types)),
                [bound_column(kind, v) for kind, v in rows.columns.values()],
            )
        seconds = time.perf_counter() - started
        sql = ddl.create_table_as(name, f"<{rows.num_rows} rows from Python>", temp=temp)
        if bookkeeping:
            self._record(Logged(f"put_{name}", sql, None, seconds), bookkeeping=True)
        else:
            self._record(Logged(f"put_{name}", sql, None, seconds, rows, tuple(rows.types), temp))

    # -- context --------------------------------------------------------------------------------
    def set_path(self, *schemas: str, scratch: bool = False) -> None:
        """Resolve unqualified names in these schemas of the database, in order; the first one
        is where unqualified tables are created. With `scratch`, tables are created in the
        connection's own memory instead and the database is only read.

        A scratch path makes `memory` the current catalog, where bare names would resolve (its
        `main`) or fail (a run's schema): the way back is `USE` of the database's catalog,
        outside the logs, so a run's log keeps the bare names a replay on any file resolves."""
        if scratch:
            entries = [qualified(SCRATCH, "main")] + [qualified(self.catalog, s) for s in schemas]
        else:
            if self._in_scratch:
                self._raw(ddl.use(self.catalog))
            entries = [quote(s) for s in schemas]
        self.execute(ddl.setting("search_path", ",".join(entries)), step="search_path")
        self._in_scratch = scratch

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One DuckDB transaction around the block: all of it is committed, or none of it (an
        error or an interrupt rolls it back, so an earlier state survives whole)."""
        self.run("transaction_begin", bookkeeping=True)
        try:
            yield
            self.run("transaction_commit", bookkeeping=True)
        except BaseException:
            with contextlib.suppress(duckdb.Error):  # a failed COMMIT has rolled back already
                self.con.execute(sqlfiles.statement("transaction_rollback").sql)
            raise

    @contextmanager
    def unordered(self) -> Iterator[None]:
        """Let DuckDB write tables in any row order (faster, and parallel), for steps whose SQL
        orders everything it depends on explicitly; the setting comes back afterwards."""
        before = bool(self.setting("preserve_insertion_order"))
        self.execute(ddl.setting("preserve_insertion_order", False), step="unordered")
        try:
            yield
        finally:
            self.execute(ddl.setting("preserve_insertion_order", before), step="ordered")

    def interrupt(self) -> None:
        """Stop the statement running now (called from the signal thread)."""
        self.con.interrupt()

    def close(self) -> None:
        try:
            self.con.close()
        finally:
            if self._spill is not None:
                self._spill.cleanup()
                self._spill = None


# Column types whose values `bound_column` may hand DuckDB as the text of a list.
INTEGER_TYPES = frozenset(
    ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT")
    + ("UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT")
)


def bound_column(kind: str, values: list) -> list | str:
    """One column of `put_rows`, as the parameter its `unnest($i::kind[])` takes: a column of
    whole numbers as the text of its list (`[1, NULL, 3]`), which DuckDB casts to the list
    itself; any other column as the Python list. Why: DuckDB converts a bound Python list
    value by value, about 2.5x slower than it parses the same numbers from one string (the
    cuts and moves of Partition's Python rounds, some 18,000 values on BMS-WebView-1).

    Example:
        >>> bound_column("BIGINT", [1, None, -3]), bound_column("VARCHAR", ["a"])
        ('[1, NULL, -3]', ['a'])
        >>> bound_column("INTEGER", [True, 2])  # a bool is not written as a number
        [True, 2]
    """
    if kind.upper() not in INTEGER_TYPES or not all(type(v) is int or v is None for v in values):
        return values
    return "[" + ", ".join("NULL" if v is None else str(v) for v in values) + "]"


def as_interrupt(e: BaseException) -> BaseException | None:
    """DuckDB reports a Ctrl-C or SIGTERM that stopped a statement as an error: "Query
    interrupted", or, when the signal's KeyboardInterrupt was raised in Python code DuckDB called
    (pyarrow, while scanning a registered Arrow table), an InvalidInputException naming it. It is
    the interrupt itself, so every cleanup and the exit code treat it so."""
    text = str(e)
    if (
        isinstance(e, duckdb.InterruptException)
        or "interrupted" in text.lower()
        or "KeyboardInterrupt" in text
        or interrupts.was_terminated()  # SIGTERM's Terminated, wrapped the same way
    ):
        return (
            interrupts.termination()
            if interrupts.was_terminated()
            else (KeyboardInterrupt("interrupted"))
        )
    return None
