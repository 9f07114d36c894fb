"""`setanon estimate` (#42): what an analyst can count from a release alone.

Given only a release the tool wrote (a generalized release file with the hierarchy it was made
with, `anonymize-rt`'s table release (`estimate_table`), a disassociated release folder, or a
synthetic release file), and itemsets, answer each with its estimated support and the lower and
upper bounds the release proves. No database, private table or original is read: the files go
into an in-memory DuckDB and `sql/estimate.sql` answers every itemset in one statement per
step, the same blocks an analyst can run on the files. What would make the bounds false is
refused first (exit 3): a released label that is no node of the hierarchy given (a release
made with another one), a folder whose files do not hold together with its manifest's k.

What each estimator assumes (README, "Counting from a release"):
- generalized: a released node over L leaves stands for each of them with chance 1/L (COAT,
  PCTA), copies add; bounds: the transactions releasing every item as itself (or as a node over
  it alone) hold it, those covering every item may. The statements are `evaluate`'s own
  (`GENERALIZED_ESTIMATOR`), run on the release file's distinct transactions;
- disassociated: exact inside one chunk, chunks and term chunk independent, a term-chunk term
  held by occurrences / T records of its cluster, where the term chunk holds at least one
  occurrence per record left without a row (a record is never empty); bounds from the chunks'
  row counts, the records' one row per chunk, and cap = min(n, k-1) for a term-chunk term;
- synthetic (dpsets, #44): the release's own count, and no bounds: its transactions are drawn
  from noisy counts, not made of the original's, so it proves nothing about the original's.
  A file cannot say it is synthetic, so the analyst says so (`synthetic=True`).
All count the data as released: occurrences an algorithm suppressed are not in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from ..engine import ddl
from ..engine.duckdb import Executor
from ..engine.log import Rows
from ..errors import InputError, ParamsError, SetAnonError, first_line
from ..store import hierarchy as hierarchy_files
from ..store import release_folder as rf
from ..store.disassociated_files import REFINED_TABLES, TABLES
from ..store.outputs import MANIFEST
from . import estimate_table
from .estimate_table import SetColumn, qi_edges

DISASSOCIATED_STEPS = (
    "est_dis_rows",
    "est_dis_clusters",
    "est_dis_places",
    "est_dis_parts",
    "est_dis_cluster_answers",
    "est_dis_answers",
)
GENERALIZED_ESTIMATOR = (
    "est_gen_class_nodes",
    "est_gen_covers",
    "est_gen_node_tuples",
    "est_gen_scores",
)
"""The generalized estimator's statements, on `eval_classes` and `eval_probes`: `evaluate` runs
them on a stored run, `estimate` on a release file's classes (one implementation)."""
GENERALIZED_STEPS = (
    "est_gen_node",
    "closure",
    "est_gen_classes",
    "est_gen_probes",
    *GENERALIZED_ESTIMATOR,
    "est_gen_answers",
)
ESTIMATORS = {
    "disassociation": "disassociated: exact in a chunk, independent across chunks, "
    "term-chunk terms at their least occurrences",
    "generalized": "uniform: a node over L leaves stands for each with chance 1/L",
    "synthetic": "the release's own count; a synthetic release proves no bound on the original",
}


@dataclass(frozen=True)
class Answer:
    """One itemset's answer: its estimated support and the bounds the release proves (None
    where it proves none: a synthetic release)."""

    itemset: tuple[str, ...]
    estimate: float
    lower: int | None
    upper: int | None
    unknown: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {
            "itemset": list(self.itemset),
            "estimate": round(self.estimate, 6),
            "lower": self.lower,
            "upper": self.upper,
            "unknown": list(self.unknown),
        }


def parse_itemsets(
    lines: Iterable[str], *, sep: str | None, source: str, unit: str = "line"
) -> list[tuple[str, ...]]:
    """Itemsets, one a line, items split on `sep` (whitespace when None); an empty one is
    refused with its `unit` and number. A repeated item counts once (set semantics)."""
    found: list[tuple[str, ...]] = []
    for number, line in enumerate(lines, start=1):
        items = line.split(sep) if sep is not None else line.split()
        items = [i for i in (x.strip() for x in items) if i]
        if not items:
            raise InputError(f"{source} {unit} {number}: empty itemset")
        found.append(tuple(dict.fromkeys(items)))
    return found


def read_itemsets(path: str | Path, *, sep: str | None) -> list[tuple[str, ...]]:
    """The itemsets of a file of queries, one a line (UTF-8)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read queries {path}: {e}") from e
    found = parse_itemsets(text.splitlines(), sep=sep, source=str(path))
    if not found:
        raise InputError(f"{path}: no itemsets")
    return found


@dataclass(frozen=True)
class Estimates:
    """The answers of one release, with what it is and which estimator answered."""

    release: str
    kind: str
    answers: list[Answer]

    def as_dict(self) -> dict[str, Any]:
        return {
            "release": self.release,
            "kind": self.kind,
            "estimator": ESTIMATORS[self.kind],
            "answers": [a.as_dict() for a in self.answers],
        }


def estimate(
    release: str | Path,
    itemsets: Sequence[tuple[str, ...]],
    *,
    hierarchy: str | Path | None = None,
    synthetic: bool = False,
    set_column: SetColumn | None = None,
    memory_limit: str | None = None,
    threads: int | None = None,
) -> Estimates:
    """Answer `itemsets` from `release` alone: a disassociated release folder, a generalized
    release file with its `hierarchy` (a table's, `anonymize-rt`'s, with its `set_column`), or
    a `synthetic` release file (dpsets')."""
    path = Path(release)
    if not itemsets:
        raise ParamsError("give itemsets: --itemset ITEMS (repeatable) or --queries FILE")
    if not path.exists():
        raise InputError(f"release not found: {path}")
    if set_column is not None and (synthetic or path.is_dir()):
        raise ParamsError(
            "--items names the set column of a generalized table release (anonymize-rt's -o); "
            f"{path} is {'a folder' if path.is_dir() else 'synthetic'}"
        )
    ex = Executor(memory_limit=memory_limit, threads=threads)
    folder: rf.Folder | None = None
    try:
        put_queries(ex, itemsets)
        if path.is_dir() and synthetic:
            raise ParamsError(
                f"--synthetic applies to a release file (dpsets'); {path} is a folder "
                "(a disassociated release)"
            )
        if synthetic:
            if hierarchy is not None:
                raise ParamsError(
                    "-H applies to a generalized release; a synthetic one holds original "
                    "items only and needs none"
                )
            kind, known = "synthetic", read_synthetic(ex, path)
            steps: tuple[str, ...] = ("est_syn_answers",)
        elif path.is_dir():
            if hierarchy is not None:
                raise ParamsError(
                    "-H applies to a generalized release file; "
                    f"{path} is a folder (a disassociated release needs none)"
                )
            folder = rf.read_manifest(path)
            kind, known = "disassociation", read_folder(ex, folder)
            steps = DISASSOCIATED_STEPS
        else:
            if hierarchy is None:
                raise ParamsError(
                    f"{path} is a generalized release: give the hierarchy it was made with, "
                    "-H FILE (child,parent CSV or leaf;parent;...;root lines; a built one is "
                    "written by `setanon hierarchy build -o`), or --synthetic for a dpsets release"
                )
            kind = "generalized"
            known = read_generalized(ex, path, Path(hierarchy), itemsets, set_column)
            steps = GENERALIZED_STEPS
        params: dict[str, dict[str, Any]] = {
            "est_dis_clusters": {"k": folder.k} if folder is not None else {},
            "est_gen_class_nodes": {"multiset": True},  # a set release has one copy a node
        }
        for step in steps:
            ex.run(step, params.get(step))
        rows = ex.run("est_answers_read").tuples("qid", "estimate", "lower", "upper")
    finally:
        ex.close()
    crossed = [qid for qid, _, lo, hi in rows if lo is not None and hi is not None and lo > hi]
    if crossed:  # the checks above admit only releases whose bounds hold together
        raise SetAnonError(
            f"bug: itemset {' '.join(itemsets[crossed[0]])!r} got lower bound > upper bound "
            f"on {path}; please report it"
        )
    answers = [
        Answer(
            itemsets[qid],
            float(est),
            None if lo is None else int(lo),
            None if hi is None else int(hi),
            tuple(i for i in itemsets[qid] if i not in known),
        )
        for qid, est, lo, hi in rows
    ]
    return Estimates(str(path), kind, answers)


def put_queries(ex: Executor, itemsets: Sequence[tuple[str, ...]]) -> None:
    """`queries(qid, item)`: one row per item of each itemset, numbered from 0."""
    qids = [q for q, items in enumerate(itemsets) for _ in items]
    items = [i for its in itemsets for i in its]
    ex.put_rows("queries", Rows({"qid": ("BIGINT", qids), "item": ("VARCHAR", items)}), temp=True)


def read_folder(ex: Executor, folder: rf.Folder) -> set[str]:
    """Read a disassociated release's files into the tables `sql/estimate.sql` reads, refused
    unless they hold together with the manifest's k (`est_dis_problems`); the items it
    releases."""
    for table in TABLES + REFINED_TABLES:
        file = folder.files.get(table)
        if file is None:  # the manifest lists every table but the refined ones
            ex.run(f"est_no_{table}")
            continue
        read_file(ex, file, f"est_file_{table}")
        try:
            ex.run(f"est_read_{table}")
        except duckdb.Error as e:  # a column missing or not a number: not the tool's file
            raise InputError(f"{file}: not a {table} file of a release ({first_line(e)})") from e
    found = ex.run("est_dis_problems", {"k": folder.k}).tuples("problem", "detail", "n")
    if found:
        problem, detail, n = found[0]
        more = f"; {len(found) - 1} other kind(s) of problem" if len(found) > 1 else ""
        raise InputError(
            f"{folder.path}: not a disassociated release as its {MANIFEST} describes (k = "
            f"{folder.k}): {problem} ({detail}{f', and {n - 1} more' if n > 1 else ''}){more}; "
            "a folder edited after the tool wrote it answers nothing"
        )
    return {row[0] for row in ex.run("est_dis_items").rows}


def read_generalized(
    ex: Executor,
    path: Path,
    hierarchy: Path,
    itemsets: Sequence[tuple[str, ...]],
    set_column: SetColumn | None = None,
) -> set[str]:
    """Read a generalized release file (long tid,item, or a table's rows with a `set_column`)
    and its hierarchy; refuse an itemset naming a generalized node, and a release with a
    label that is no node of the hierarchy (made with another one: every answer would be
    wrong); the hierarchy's leaves."""
    tree = hierarchy_files.read(hierarchy)
    extra = qi_edges(set_column) if set_column is not None else []
    clash = set(tree.labels) & {label for edge in extra for label in edge}
    if clash:
        raise InputError(
            f"{hierarchy}: label {sorted(clash)[0]!r} is also a QI value as COLUMN=VALUE; the "
            "itemsets could not tell them apart"
        )
    edges = tree.edges() + extra
    ex.put_rows(
        "hierarchy",
        Rows(
            {
                "child": ("VARCHAR", [c for c, _ in edges]),
                "parent": ("VARCHAR", [p for _, p in edges]),
            }
        ),
        temp=True,
    )
    children = {c for c, _ in edges}
    leaves = children - {p for _, p in edges}
    inner = {p for _, p in edges}
    for items in itemsets:
        named = [i for i in items if i in inner]
        if named:
            raise InputError(
                f"itemset {' '.join(items)!r}: {named[0]!r} is a generalized node of the "
                "hierarchy; itemsets name leaves (original items)"
            )
    if set_column is None:
        read_release(ex, path, "; a table release of anonymize-rt: give --items COLUMN")
    else:
        read_file(ex, path, "est_file_table")
        estimate_table.read_table(ex, path, set_column)
    foreign = ex.run("est_gen_foreign_labels").one()
    if foreign:
        raise InputError(
            f"{path}: {foreign['labels']} released label(s) are no node of the hierarchy "
            f"{hierarchy}{' nor of a QI taxonomy' if extra else ''}, e.g. {foreign['label']!r} ({foreign['occurrences']} times): the "
            "release was made with another hierarchy; give the one it was made with"
        )
    return leaves


def read_synthetic(ex: Executor, path: Path) -> set[str]:
    """Read a synthetic release file (long tid,item of original items); the queried items it
    holds (`queries` is in place)."""
    read_release(ex, path)
    return {item for (item,) in ex.run("est_syn_items").tuples("item")}


def read_release(ex: Executor, path: Path, hint: str = "") -> None:
    """A long tid,item release file into `release`, refused with its name (and `hint`) when it
    is not one."""
    read_file(ex, path, "est_file_release")
    columns = ex.run("est_file_columns").columns
    missing = [c for c in ("tid", "item") if c not in {n.lower() for n in columns}]
    if missing:
        raise InputError(
            f"{path}: not a long tid,item release file: no column {missing[0]} "
            f"(its columns: {', '.join(columns)}){hint}"
        )
    try:
        ex.run("est_read_release")
    except duckdb.Error as e:
        raise InputError(f"{path}: not a long tid,item release file ({first_line(e)})") from e


def read_file(ex: Executor, path: Path, table: str) -> None:
    """A CSV (as text) or Parquet file into a temporary table, refused with its name when
    DuckDB cannot read it."""
    parquet = path.suffix.lower() in (".parquet", ".pq")
    reader = ddl.read_parquet(str(path)) if parquet else ddl.read_csv(str(path), all_varchar=True)
    try:
        ex.execute(ddl.create_table_as(table, ddl.select_from(reader), temp=True), step=table)
    except duckdb.Error as e:
        raise InputError(f"cannot read {path}: {first_line(e)}") from e
