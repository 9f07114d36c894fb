"""What every engine's executor shares: the statements it ran (`Logged`), the values handed to it
from Python (`Rows`), what a statement returns (`Answer`), and the log rendered as a script that
replays on a fresh DuckDB (`replay_script`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from . import ddl
from .sqltext import inline_params, literal

if TYPE_CHECKING:  # importing pyarrow (and the numpy it pulls in) costs ~0.1 s a process
    import pyarrow as pa


@dataclass
class Logged:
    """One executed statement. For an Arrow table handed to DuckDB, `data` holds its rows and
    `types` its DuckDB column types, written out as SQL only when a script asks for them."""

    step: str
    sql: str
    params: dict[str, Any] | None = None
    seconds: float = 0.0
    data: pa.Table | Rows | None = None
    types: tuple[str, ...] = ()
    temp: bool = False

    def replay_text(self) -> str:
        """The statement as it can run again on its own: parameters written in as literals,
        Arrow rows (or `Rows`) written out."""
        if self.data is not None:
            name = self.step.removeprefix("put_")
            return data_script(name, self.data, list(self.types), temp=self.temp)
        return inline_params(self.sql, self.params or {})


@dataclass(frozen=True)
class Rows:
    """Columns of Python values for `Executor.put_rows`: name -> (DuckDB type, values). Why
    not Arrow: a run that only hands DuckDB a few small tables need not import pyarrow."""

    columns: dict[str, tuple[str, list]]

    @property
    def column_names(self) -> list[str]:
        return list(self.columns)

    @property
    def num_rows(self) -> int:
        return len(next(iter(self.columns.values()))[1]) if self.columns else 0

    @property
    def types(self) -> list[str]:
        return [kind for kind, _ in self.columns.values()]

    def to_pylist(self) -> list[dict[str, Any]]:
        names = self.column_names
        values = [v for _, v in self.columns.values()]
        return [dict(zip(names, row, strict=True)) for row in zip(*values, strict=True)]


@dataclass(frozen=True)
class Answer:
    """A statement's whole result: column names and rows."""

    columns: list[str]
    rows: list[tuple]

    def one(self) -> dict[str, Any]:
        return dict(zip(self.columns, self.rows[0], strict=True)) if self.rows else {}

    def dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, r, strict=True)) for r in self.rows]

    def tuples(self, *names: str) -> list[tuple]:
        """The rows as tuples of these columns, in this order: read by name, as cheap as the
        rows themselves when the statement already returns exactly these columns.

        Example:
            >>> Answer(["a", "b"], [(1, 2)]).tuples("b", "a"), Answer(["a"], [(1,)]).tuples("a")
            ([(2, 1)], [(1,)])
        """
        where = [self.columns.index(n) for n in names]
        if where == list(range(len(self.columns))):
            return self.rows
        if len(where) == 1:
            return [(r[where[0]],) for r in self.rows]
        pick = itemgetter(*where)
        return [pick(r) for r in self.rows]


def row_count(result: Answer) -> int:
    """The rows a CREATE TABLE AS, INSERT, UPDATE or DELETE wrote (the `Count` it reports).

    Example:
        >>> row_count(Answer(["Count"], [(3,)])), row_count(Answer([], []))
        (3, 0)
    """
    return int(result.one().get("Count", 0))


def data_script(name: str, table: pa.Table | Rows, types: list[str], *, temp: bool) -> str:
    """CREATE + INSERT statements that rebuild an Arrow table (or `Rows`) handed to DuckDB."""
    columns = list(zip(table.column_names, types, strict=True))
    out = [ddl.create_table(name, columns, temp=temp)]
    rows = list(zip(*(literals(values) for values in column_values(table)), strict=True))
    for start in range(0, len(rows), 1000):
        chunk = rows[start : start + 1000]
        values = ",\n".join("(" + ", ".join(r) + ")" for r in chunk)
        out.append(ddl.insert_into(name, f"VALUES\n{values}"))
    return ";\n".join(out)


def column_values(table: pa.Table | Rows) -> list[list]:
    """The columns of an Arrow table or `Rows` as Python lists, in order."""
    if isinstance(table, Rows):
        return [values for _, values in table.columns.values()]
    return [table.column(i).to_pylist() for i in range(table.num_columns)]


def literals(values: list) -> list[str]:
    """`literal` of every value of a column; a whole number written directly. Why: a run's log
    keeps the rows Python handed DuckDB (Partition's last rounds: some 7,500 rows on
    BMS-WebView-1) and writing them value by value through `literal` took a tenth of a run.

    Example:
        >>> literals([1, None, True, "a'b", [2]])
        ['1', 'NULL', 'TRUE', "'a''b'", '[2]']
    """
    return [str(v) if type(v) is int else literal(v) for v in values]


class StatementLog:
    """What every engine's executor shares: the log of statements run (and the sinks a block
    records into), and the conveniences built on `execute`. Executor runs on DuckDB;
    spark_engine.SparkExecutor runs the same statements on Spark."""

    log: list[Logged]
    _sinks: list[list[Logged]]

    def execute(
        self,
        sql: str,
        params: Mapping[str, Any] | None = None,
        *,
        step: str = "sql",
        bookkeeping: bool = False,
    ) -> Answer:
        """Run one statement, record it, return its whole result: each engine's own."""
        raise NotImplementedError

    def run(self, name: str, params: Mapping[str, Any] | None = None) -> Answer:
        """Run the named statement of `sql/` (the engine's variant of it): each engine's own."""
        raise NotImplementedError

    def _record(self, entry: Logged, *, bookkeeping: bool = False) -> None:
        self.log.append(entry)
        if not bookkeeping:
            for sink in self._sinks:
                sink.append(entry)

    def record(self, entry: Logged) -> None:
        """Log a statement its caller ran outside `execute` (Spark's release, written by a
        DataFrame writer), so the run's log still shows everything that ran."""
        self._record(entry)

    def query(
        self, sql: str, params: Mapping[str, Any] | None = None, *, step: str = "sql"
    ) -> list[tuple]:
        return self.execute(sql, params, step=step).rows

    def scalar(
        self, sql: str, params: Mapping[str, Any] | None = None, *, step: str = "sql"
    ) -> Any:
        rows = self.execute(sql, params, step=step).rows
        return rows[0][0] if rows else None

    @contextmanager
    def recording(self, log: list[Logged]) -> Iterator[list[Logged]]:
        """Also record every statement of the block into `log`."""
        self._sinks.append(log)
        try:
            yield log
        finally:
            self._sinks.remove(log)


PRIVATE = (
    "Keep this script as private as the database it came from: it names the input files,\n"
    "may hold their data, and holds the random key that orders a disassociated release's\n"
    "chunk rows (with the key and the tids, the rows of one record in different chunks are\n"
    "linked). Never publish it with a release."
)
"""Said at the head of every replay script (`sql --run`, `--sql-log`): why it is not public."""


def replay_script(entries: list[Logged], *, title: str = "") -> str:
    """A log as one SQL script: each statement with its step name, parameters written in,
    under the note that it is as private as the database (`PRIVATE`)."""
    out = ([f"-- {title}"] if title else []) + [f"-- {line}" for line in PRIVATE.splitlines()]
    for i, e in enumerate(entries, 1):
        head = f"-- {i}: {e.step}" + (f"  params: {e.params}" if e.params else "")
        out.append(f"{head}\n{e.replay_text().rstrip().rstrip(';')};\n")
    return "\n".join(out)
