"""(k, k^m)-anonymity of a table with a set-valued column (Poulis, Loukides, Gkoulalas-Divanis
& Skiadopoulos, "Anonymizing data with relational and transaction attributes", ECML PKDD 2013):
the QIs k-anonymous, and inside every class of the QIs the set column k^m-anonymous, so an
adversary knowing a record's QI values and up to m of its items finds at least k records.

The classes are the table engine's (k-ANON-CF over the QIs, `cluster_rows`) or top-down cuts
along the taxonomies (`rt_cuts`), of at least `class_size` rows; inside them the
sets are generalized by a level-wise search local to each class, all classes in one statement
per round (`rt_sets.km_in_classes`). The release is the table as given, QIs generalized, the set
column generalized (a list where it was one, else joined by the separator), kept columns as
they were; it is verified (`rt_verify`) before anything is written.

Example:
    >>> from setanon_sql import Store, HierarchySpec
    >>> store = Store()
    >>> tree = HierarchySpec(edges=(("a", "A"), ("b", "A"), ("c", "B"), ("d", "B"),
    ...                              ("A", "*"), ("B", "*")))
    >>> rows = {"age": ["1", "1", "2", "2"], "items": ["a;c", "b;c", "a", "a;d"]}
    >>> result = anonymize_rt(store, rows, qi=["age"], taxonomies={"age": "suppress"},
    ...                       items="items", hierarchy=tree, k=2, m=2, mine_beam=None)
    >>> result.report.ok, result.classes
    (True, 2)
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import runs
from ..catalog import MAX_K, check_whole
from ..engine import ddl
from ..engine.builders import render
from ..engine.rt_builders import rt_release_query
from ..engine.table_release import release_query
from ..errors import InfeasibleError, InputError, ParamsError, VerificationError
from ..progress import Progress, quiet
from ..store.database import Store
from ..store.hierarchy_spec import HierarchySpec
from ..store.outputs import check_file, check_folder
from ..store.publish import inputs_of
from . import COVER_CAP, MINE_BEAM, cluster_rows
from .data import (
    TableData,
    TableSource,
    declare,
    load_table,
    record_read,
    source_columns,
    table_dataset,
)
from .diversity import check_feasible
from .output import TableOutput, loss
from .rt_cuts import cut_classes
from .rt_dis import (
    CLUSTER_COLUMN,
    SET_RELEASES,
    DisOutput,
    check_options,
    disassociate_in_classes,
    make_dis_release,
)
from .rt_dis_verify import RtDisReport, verify_rt_dis
from .rt_merge import merge_classes
from .rt_pairs import ItemRows, PairOutput, read_item_rows
from .rt_sets import DEFAULT_SEP, SetColumn, described, km_in_classes, load_sets, set_column
from .rt_topdown import km_topdown
from .rt_verify import RtReport, verify_rt
from .taxonomy import TaxonomySpec, measure, spec_files

RUN_KIND = "rt"
CLASSES = {"cover": "k-anon-cf", "cuts": "cuts"}
"""How the classes of the QIs are made, and the algorithm name a run records for each."""
ITEM_SEARCHES = {"lift": "local-aa", "topdown": "topdown-items"}
"""How each class's items are generalized, and the algorithm name a run records for each."""


@dataclass(frozen=True)
class RtResult:
    """A verified (k, k^m) release: its run schema (holding `table_release`) and figures."""

    run: str
    data: TableData
    k: int
    m: int
    report: RtReport | RtDisReport
    relational_ncp: float
    item_ncp: float
    classes: int
    seconds: float
    info: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "rows": self.data.rows,
            "qi": list(self.data.qi),
            "k": self.k,
            "m": self.m,
            "relational_ncp": self.relational_ncp,
            "item_ncp": self.item_ncp,
            "classes": self.classes,
            "seconds": round(self.seconds, 3),
            "verified": self.report.as_dict(),
            "info": self.info,
        }


def anonymize_rt(
    store: Store,
    source: TableSource,
    *,
    qi: Sequence[str],
    taxonomies: Mapping[str, TaxonomySpec],
    items: str,
    hierarchy: HierarchySpec | None,
    k: int,
    m: int,
    items_sep: str | None = None,
    sensitive: str | None = None,
    l: float | None = None,  # noqa: E741
    w: float = 0.15,
    columns: Sequence[str] | None = None,
    table: str | None = None,
    drop_missing: str | None = None,
    encoding: str | None = None,
    run_name: str | None = None,
    replace: bool = False,
    improve: bool = True,
    mine_beam: int | None = MINE_BEAM,
    cover_cap: float | None = COVER_CAP,
    class_size: int | None = None,
    classes: str = "cover",
    item_search: str = "topdown",
    delta: float | None = None,
    progress: Progress = quiet,
    output: str | Path | None = None,
    read: Sequence[str | Path | None] = (),
    item_rows: ItemRows | None = None,
    rows_output: str | Path | None = None,
    set_release: str = "generalize",
    set_options: Mapping[str, Any] | None = None,
    chunks_output: str | Path | None = None,
    keep: Sequence[str] = (),
    drop: Sequence[str] = (),
) -> RtResult:
    """Load a table with a set-valued column `items`, make it (k, k^m)-anonymous (ℓ-diverse on
    `sensitive` with `l`), verify the release and measure both losses. `class_size` (k unless
    given) is the fewest rows of a class of the QIs, the knob trading relational loss for item
    loss (the items need classes far larger than k); `classes` says how they are made:
    "cover" (k-ANON-CF) or "cuts" (top-down cuts along the taxonomies, `rt_cuts`).
    `item_search` is "topdown" (nodes chosen per class from the root down, `rt_topdown`;
    the default, for its lower item loss at every class size) or "lift" (a cut per class,
    lifted level-wise, `rt_sets`). With `delta` the classes are
    then merged while the relational NCP stays at most delta (`rt_merge`): `class_size` is
    where the merging starts. `output` (CSV or
    Parquet) is checked before the work and written as the run takes its place. With
    `item_rows` the items are `(key, item)` rows of another table (`rt_pairs`), `items` their
    column, and the release is two files: `output` (the records) and `rows_output`.
    `set_release` "disassociate" releases the set column disassociated inside every class
    (`rt_dis`; `set_options` are the disassociation's: max_cluster, min_split, refine,
    joint_size) instead of generalized: the classes may then be as small as k, and the
    hierarchy (None: every item a leaf under one root) only checks the items; with `output`
    its chunks go to the folder `chunks_output` (both or neither). Every column is declared as
    for `anonymize_table` (`keep`, `drop`; the set column and the key are declared by `items`
    and `item_rows`); the release's rows are in the order of their released values, and a key
    (two tables) is renumbered in that order, so neither says anything of the input's order."""
    check_whole("k", k, 1, MAX_K)
    check_whole("m", m, 1, 16)
    size = k if class_size is None else class_size
    if isinstance(size, int) and size < k:
        raise ParamsError(
            f"class_size ({size}) must be at least k ({k}): a class of fewer rows is not "
            "k-anonymous"
        )
    check_whole("class_size", size, k, MAX_K)
    if classes not in CLASSES:
        raise ParamsError(f"classes must be one of {', '.join(CLASSES)}, got {classes!r}")
    if item_search not in ITEM_SEARCHES:
        raise ParamsError(
            f"item_search must be one of {', '.join(ITEM_SEARCHES)}, got {item_search!r}"
        )
    if set_release not in SET_RELEASES:
        raise ParamsError(
            f"set_release must be one of {', '.join(SET_RELEASES)}, got {set_release!r}"
        )
    dis = set_release == "disassociate"
    if not dis and set_options:
        raise ParamsError("set_options are the disassociation's: give set_release='disassociate'")
    if dis and item_rows is not None:
        raise ParamsError("a disassociated set column from item rows is not available yet")
    dis_options = check_options(dict(set_options or {}), ()) if dis else {}
    if delta is not None and not (math.isfinite(delta) and 0 < delta <= 1):
        raise ParamsError(f"delta must be a relational NCP in (0, 1], got {delta}")
    if delta is not None and l is not None:
        raise ParamsError("merging the classes (delta) cannot be combined with l-diversity yet")
    if classes == "cuts" and l is not None:
        raise ParamsError("top-down cuts (classes='cuts') cannot be combined with l-diversity yet")
    if l is not None and (not math.isfinite(l) or l < 1 or not sensitive):
        raise ParamsError("l-diversity needs a finite l >= 1 and a sensitive column")
    if items in qi:
        raise ParamsError(f"column {items!r} cannot be both the set column and a quasi-identifier")
    if items == sensitive:
        raise ParamsError(f"column {items!r} cannot be both the set column and the sensitive one")
    if item_rows is not None and item_rows.key in (*qi, sensitive, items):
        raise ParamsError(
            f"column {item_rows.key!r} cannot be both the key and a quasi-identifier, the "
            "sensitive or the items column"
        )
    if hierarchy is None and not dis:
        raise ParamsError(
            "a generalized set column needs its items' hierarchy (hierarchy); only "
            "set_release='disassociate' releases them as they are"
        )
    if hierarchy is not None:
        hierarchy.check()
    started = time.perf_counter()
    fn = measure("lm")
    name = runs.name_for(store, run_name, runs.default_base("rt", k, m, l=l))
    record: dict[str, Any] = {"k": k, "m": m, "l": l, "w": w, "qi": list(qi), "items": items}
    record |= {"class_size": size, "classes": classes, "item_search": item_search}
    record |= {"delta": delta, "set_release": set_release}
    record |= {"keep": list(keep), "drop": list(drop)}
    if dis:
        record |= {"set_options": dis_options}
    sep = DEFAULT_SEP if items_sep is None else items_sep
    record |= {"items_sep": sep, "sensitive": sensitive, "hierarchy": described(hierarchy)}
    if item_rows is not None:
        record |= {"key": item_rows.key, "items_table": str(item_rows.path or item_rows.table)}
    if dis:
        out: TableOutput | PairOutput | DisOutput | None = _dis_outputs(
            store, output, chunks_output, read, record, replace
        )
    elif chunks_output is not None:
        raise ParamsError("a folder of chunks is for set_release='disassociate'")
    else:
        out = _outputs(store, output, rows_output, item_rows, items, read, replace)
    dataset = table_dataset(
        store, source, columns=columns, table=table, encoding=encoding, kind="table_sets"
    )
    with runs.making(
        store, name, kind=RUN_KIND, params=record,
        algorithm=f"{CLASSES[classes]}+{'disassociation' if dis else ITEM_SEARCHES[item_search]}",
        replace=replace, outputs=out, dataset=dataset,
    ) as run:  # fmt: skip
        given = hierarchy.path if hierarchy is not None else None
        hierarchy_file = [Path(given).resolve()] if given is not None else []
        record_read(store, run, [*spec_files(taxonomies.values()), *hierarchy_file])
        data = load_table(
            store, dataset, qi=qi, taxonomies=taxonomies, sensitive=sensitive, columns=columns,
            table=table, drop_missing=drop_missing, encoding=encoding, measure=fn,
        )  # fmt: skip
        if item_rows is not None:
            read_item_rows(store, item_rows, items, data, source, encoding)
            column = SetColumn(items, True, sep)
        else:
            if items not in data.columns:
                raise_missing(data, items)
            column = set_column(items, source_columns(store)[items], items_sep, qi, data.source)
        own = (items,) if item_rows is None else (items, item_rows.key)
        data = declare(store, data, keep=keep, drop=drop, own=own)
        tree = load_sets(store, column, hierarchy, data.source, copy=item_rows is None)
        runs.check_k(k, data.rows, of="table", unit="rows")
        if size > data.rows:
            raise InfeasibleError(f"class size {size} is larger than the table ({data.rows} rows)")
        longest = int(store.run("rt_longest_set").one()["longest"])
        if m > longest:
            raise InfeasibleError(
                f"m = {m} is larger than the longest set ({longest} items): give m <= {longest}"
            )
        if dis:
            check_options(dis_options, data.columns)
        if isinstance(out, PairOutput):
            out.records.columns = list(data.released)
        elif isinstance(out, DisOutput):
            out.table.columns = dis_columns(data, items)
        elif out is not None:
            out.columns = list(data.released)
            out.list_column = (items, DEFAULT_SEP) if column.is_list else None
        if l is not None:
            check_feasible(store, l, sensitive)
        if classes == "cover":
            clusters, info = cluster_rows(
                store, data, size, l=l, w=w, fn=fn, improve=improve, mine_beam=mine_beam,
                cover_cap=cover_cap, progress=progress,
            )  # fmt: skip
            made = len(clusters)
        else:
            made = cut_classes(store, data.trees, fn, size, progress)
            info = {}
        if delta is not None:
            info["classes_before_merge"] = made
            made = merge_classes(store, data.trees, fn, delta, data.rows)
        report: RtReport | RtDisReport
        if dis:
            info |= disassociate_in_classes(store, k=k, m=m, options=dis_options,
                                            progress=progress)  # fmt: skip
            make_dis_release(store, dis_columns(data, items)[:-1], data.qi)
            report = verify_rt_dis(store, data.qi, k, m, sensitive, l, kept=data.kept)
        else:
            search = km_in_classes if item_search == "lift" else km_topdown
            stats = search(store, tree, k, m, progress)
            info |= {"item_rounds": stats.rounds, "item_violations": stats.violations}
            info |= {"item_lifts": stats.lifts}
            extra = (items,) if item_rows is not None else ()
            key = item_rows.key if item_rows is not None else None
            make_rt_release(store, data, column, (*data.released, *extra), key)
            report = verify_rt(store, data.qi, column, k, m, sensitive, l, kept=data.kept)
        if not report.ok:
            raise VerificationError(
                f"the (k, k^m) search produced a release that fails verification: "
                f"{report.as_dict()}"
            )
        rel = float(loss(store, data.qi)["lm"])
        # a disassociated set column releases every item as given: no generalization loss
        item = 0.0 if dis else float(store.run("rt_item_loss").one()["item_ncp"])
        run.results = {"verified": report.as_dict(), "relational_ncp": rel, "item_ncp": item}
    return RtResult(
        run.schema, data, k, m, report, rel, item, made, time.perf_counter() - started,
        info,
    )  # fmt: skip


def _outputs(
    store: Store,
    output: str | Path | None,
    rows_output: str | Path | None,
    item_rows: ItemRows | None,
    items: str,
    read: Sequence[str | Path | None],
    replace: bool,
) -> TableOutput | PairOutput | None:
    """The release's files, checked before the work: one table's, or the two-table layout's
    records and item rows (both or neither, two different files)."""
    if item_rows is None and rows_output is not None:
        raise ParamsError("a file of released item rows is for item rows given as a table")
    if item_rows is not None and (output is None) != (rows_output is None):
        raise ParamsError(
            "the release of records and item rows is two files: give both outputs or neither"
        )
    if output is None:
        return None
    every = inputs_of(store, read)
    records = TableOutput(check_file(output, every, replace=replace)[0])
    if rows_output is None or item_rows is None:
        return records
    rows = check_file(rows_output, [*every, records.path], replace=replace)[0]
    return PairOutput(records, rows, item_rows.key, items)


def _dis_outputs(
    store: Store,
    output: str | Path | None,
    chunks: str | Path | None,
    read: Sequence[str | Path | None],
    record: dict[str, Any],
    replace: bool,
) -> DisOutput | None:
    """The disassociated release's files, checked before the work: the table and the folder
    of its chunks (both or neither)."""
    if (output is None) != (chunks is None):
        raise ParamsError(
            "a disassociated release is the table and its chunks: give both outputs or neither"
        )
    if output is None or chunks is None:
        return None
    every = inputs_of(store, read)
    path, fmt = check_file(output, every, replace=replace)
    folder = check_folder(chunks, [*every, path], replace=replace)
    options = record["set_options"]
    manifest = {
        "release": "disassociation",  # the chunks read as a disassociated release (`estimate`)
        "model": "(k, k^m) of a table, its set column disassociated in every class",
        "k": record["k"],
        "m": record["m"],
        "options": options,
    }
    return DisOutput(TableOutput(path), folder, fmt, bool(options["refine"]), manifest)


def dis_columns(data: TableData, items: str) -> list[str]:
    """The columns of a release with a disassociated set column: the table's but the set
    column, and every row's cluster."""
    return [*(c for c in data.released if c != items), CLUSTER_COLUMN]


def raise_missing(data: TableData, items: str) -> None:
    """Refuse a set column the table does not have."""
    raise InputError(
        f"{data.source}: no set column {items!r}; columns are {', '.join(map(repr, data.columns))}"
    )


def make_rt_release(
    store: Store,
    data: TableData,
    column: SetColumn,
    columns: Sequence[str],
    key: str | None = None,
) -> None:
    """The release: the table's rows (QIs by their class's closure, `release_query`) with the
    generalized sets, as `columns` (the released ones, and the set column when it came as
    rows, its records' `key` then renumbered in the order of their released values)."""
    store.run("rel_cluster_closure")
    store.run("rel_cluster_labels")
    table = render(release_query(data.released, data.qi))
    store.execute(ddl.create_table_as("rt_table_release", table), step="rt_table_release")
    store.run("rt_release_sets")
    if not column.is_list:
        store.run("rt_release_sets_quoted", {"sep": column.sep})
    sql = render(rt_release_query(columns, column.name, column.is_list, renumber=key))
    store.execute(ddl.create_table_as("table_release", sql), step="table_release")
