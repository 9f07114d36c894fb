"""A table release of `anonymize-rt` (its set column generalized, `-o`) read for `estimate`:
one record a row, its released labels read back as the rt verifier reads them, and its QI
columns, with their taxonomies, as further "items" named `COLUMN=VALUE`. A mixed query ("rows
with QI value v holding items I", `evaluate`'s) is then the itemset I plus `COLUMN=v`, answered
by the generalized estimator over one forest of the item hierarchy and the taxonomies: per row,
1 / leaves of the released QI label covering v times the items' chances; bounds from the rows
where both are certain and those where both are possible.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

from ..engine import ddl
from ..engine.duckdb import Executor
from ..errors import InputError, ParamsError, first_line
from ..store import hierarchy as hierarchy_files
from ..store.textfile import quoting

ROW = "est_row_number"
"""The column numbering a table release's rows (`est_rt_numbered`)."""


@dataclass(frozen=True)
class SetColumn:
    """The set column of a table release and what joins its labels when it is text (`sep`,
    `;` when not given; read with CSV quoting respected, as `anonymize-rt` writes it; a
    list column takes none), and the QI columns asked about with their taxonomy files."""

    name: str
    sep: str | None = None
    taxonomies: tuple[tuple[str, Path], ...] = ()

    def __post_init__(self) -> None:
        if not self.name or self.sep == "":
            raise ParamsError("the set column and its separator must not be empty")
        columns = [c for c, _ in self.taxonomies]
        if any(not c for c in columns) or len(set(columns)) < len(columns):
            raise ParamsError(f"give each QI column's taxonomy once, got {columns}")
        if self.name in columns:
            raise ParamsError(f"{self.name!r} is the set column, not a quasi-identifier")


def qi_label(column: str, label: str) -> str:
    """A QI column's label as an item of the release: `COLUMN=label`."""
    return f"{column}={label}"


def qi_edges(column: SetColumn) -> list[tuple[str, str]]:
    """Every QI taxonomy's (child, parent) edges, labels as `qi_label`s."""
    edges = []
    for qi, path in column.taxonomies:
        tree = hierarchy_files.read(path)
        edges += [(qi_label(qi, c), qi_label(qi, p)) for c, p in tree.edges()]
    return edges


def read_table(ex: Executor, path: Path, column: SetColumn) -> None:
    """The table release read as `est_file_table` into `release(tid, item)`: each row's
    released set, and its QI labels as `qi_label`s."""
    described = ex.execute(ddl.describe("est_file_table"), step="est_file_table_columns")
    types = dict(described.tuples("column_name", "column_type"))
    for name, what in ((column.name, "set"), *((c, "QI") for c, _ in column.taxonomies)):
        if name not in types:
            raise InputError(f"{path}: no {what} column {name!r} (its columns: {', '.join(types)})")
    ex.run("est_rt_numbered")
    rows = ddl.table("est_file_rows", temp=True)
    chosen = ddl.select_renamed(rows, [(ROW, "rid"), (column.name, "items")])
    ex.execute(ddl.create_table_as("rt_release_column", chosen, temp=True), step="est_set")
    sep = ";" if column.sep is None else column.sep
    try:
        if types[column.name].endswith("[]"):
            if column.sep is not None:
                raise ParamsError(
                    f"--items-sep splits a text set column; {column.name!r} of {path} is a list"
                )
            ex.run("rt_release_set_list")
        else:
            ex.run("rt_release_set_quoted_text", quoting(sep))
    except duckdb.Error as e:
        raise InputError(f"{path}: set column {column.name!r} unreadable ({first_line(e)})") from e
    blank = ex.run("est_rt_blank").one()
    if blank["n"]:
        raise InputError(
            f"{path}: {blank['n']} row(s) of set column {column.name!r} hold a blank label, "
            f"the first row {blank['first']} (is --items-sep {sep!r} the one it was written "
            "with?)"
        )
    ex.run("est_rt_release")
    for qi, _ in column.taxonomies:
        chosen = ddl.select_renamed(rows, [(ROW, "rid"), (qi, "label")])
        ex.execute(ddl.create_table_as("est_file_qi", chosen, temp=True), step="est_qi")
        blank = ex.run("est_rt_qi_blank").one()
        if blank["n"]:
            raise InputError(
                f"{path}: {blank['n']} row(s) have no value in QI column {qi!r}, the first "
                f"row {blank['first']}"
            )
        ex.run("est_rt_qi_release", {"prefix": qi_label(qi, "")})
