"""What DuckDB did for each statement: its operators' output rows, read from DuckDB's profiler.

`PlanLog` is a statement log (pass it to `Executor.recording`) that, as each statement is
recorded, reads the profile DuckDB kept of it: every operator with its output rows, and the
tables it scanned. A plan that explodes shows here as an operator whose rows dwarf the tables
the statement reads, whatever the statement's own result.

Only the standard library and DuckDB: `benchmarks/shapes.py` uses it on older commits of the
package too, whose code knows nothing of it.

Example:
    >>> import duckdb
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE t AS SELECT range AS x FROM range(10)")
    >>> enable(con)
    >>> _ = con.execute("SELECT a.x FROM t AS a, t AS b").fetchall()
    >>> plan = read_plan(con)
    >>> plan.rows, plan.widest().rows, plan.tables
    (100, 100, ('memory.main.t',))
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

# operators that hand rows on to the client or into a table; the operator below them made them
SINKS = ("RESULT_COLLECTOR", "EXPLAIN_ANALYZE", "CREATE_TABLE_AS", "BATCH_CREATE_TABLE_AS",
         "INSERT", "BATCH_INSERT")  # fmt: skip
# the output-row count of an operator: DuckDB 2.x names it intermediate_rows, 1.x
# operator_cardinality
ROW_KEYS = ("intermediate_rows", "operator_cardinality")
_PART = re.compile(r'"((?:[^"]|"")*)"|([^."]+)')


@dataclass(frozen=True)
class Operator:
    name: str
    rows: int
    detail: str  # its join conditions or scanned table, to say which one it was


@dataclass
class Plan:
    """One statement as it ran: its step name, result rows, operators and scanned tables."""

    step: str
    seconds: float
    rows: int  # rows the statement produced (returned, or written into its table)
    operators: list[Operator] = field(default_factory=list)
    tables: tuple[str, ...] = ()
    table_rows: dict[str, int] = field(default_factory=dict)  # with PlanLog(sizes=True)

    def widest(self) -> Operator:
        """The operator that output the most rows."""
        return max(self.operators, key=lambda o: o.rows)


def enable(con: Any) -> None:
    """Keep a profile of every statement on this DuckDB connection, printing nothing."""
    con.execute("SET enable_profiling = 'no_output'")


def read_plan(con: Any, step: str = "", seconds: float = 0.0) -> Plan:
    """The profile of the statement the connection ran last."""
    profile = json.loads(con.get_profiling_information(format="json"))
    operators: list[Operator] = []
    tables: list[str] = []
    rows: int | None = None

    def walk(node: dict[str, Any]) -> None:
        nonlocal rows
        name = str(node.get("name", "")).strip()
        count = next((node[k] for k in ROW_KEYS if k in node), None)
        if count is None:
            raise KeyError(f"DuckDB's profile has none of {ROW_KEYS} for operator {name}")
        info = node.get("extra_info") or {}
        info = info if isinstance(info, dict) else {}
        children = node.get("children") or []
        if name not in SINKS:
            if rows is None and name != "CTE":  # a CTE's rows come from its last child
                rows = int(count)
            table = info.get("Table")
            if table:
                tables.append(str(table))
            detail = table or info.get("Conditions") or ""
            operators.append(Operator(name, int(count), " ".join(_flat(detail))))
        if name == "CTE":  # its definition first, then the query reading it
            children = children[-1:] + children[:-1]
        for child in children:
            walk(child)

    for top in profile.get("operator", []):
        walk(top)
    return Plan(step, seconds, rows or 0, operators, tuple(dict.fromkeys(tables)))


def _flat(detail: Any) -> list[str]:
    return [str(d) for d in detail] if isinstance(detail, list) else [str(detail)]


def table_rows(con: Any, table: str) -> int:
    """The rows of a table named as DuckDB's profile names it (`catalog.schema.table`, a part
    in double quotes where it needs them), from DuckDB's catalog: no query of the table."""
    parts = [q.replace('""', '"') if q else p for q, p in _PART.findall(table)]
    found = con.execute(
        "SELECT estimated_size FROM duckdb_tables() "
        "WHERE database_name = $1 AND schema_name = $2 AND table_name = $3",
        parts,
    ).fetchall()
    if len(parts) != 3 or len(found) != 1:
        raise LookupError(f"no single table {table!r} in the catalog")
    return int(found[0][0])


class PlanLog(list):
    """A statement log that also keeps each statement's `Plan` (in `plans`), read from the
    connection's profile as the executor records the statement; with `sizes`, also the rows
    of every table it scanned, counted at once (a temporary table may be gone later).

    Statements that hand DuckDB rows from Python (`put_*`) run several commands; they are
    recorded without a plan.
    """

    def __init__(self, con: Any, *, sizes: bool = False) -> None:
        super().__init__()
        self.con = con
        self.sizes = sizes
        self.plans: list[Plan] = []

    def append(self, entry: Any) -> None:
        super().append(entry)
        if entry.step.startswith("put_"):
            return
        plan = read_plan(self.con, entry.step, entry.seconds)
        if self.sizes:
            plan.table_rows = {t: table_rows(self.con, t) for t in plan.tables}
        self.plans.append(plan)
