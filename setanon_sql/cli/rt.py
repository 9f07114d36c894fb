"""`setanon anonymize-rt`: (k, k^m)-anonymity of a table with a set-valued column: the QIs
k-anonymous, and inside every class the set column k^m-anonymous."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from . import options as o
from .app import app
from .rt_flags import flags_named, item_hierarchy
from .table import DEFAULT_W

ItemSearchGiven = Annotated[str | None, o.ItemSearch.__metadata__[0]]
"""--item-search, None when not given (refused with --set-release disassociate)."""


@app.command("anonymize-rt")
def anonymize_rt_cmd(
    source: o.TableSource,
    qi: o.Qi,
    taxonomy: o.Taxonomy,
    items: Annotated[
        str,
        typer.Option(
            "--items",
            help="The set-valued column (a LIST, or text joined); with --items-table, the "
            "item column of the item rows.",
        ),
    ],
    hierarchy: o.Hierarchy = None,
    hierarchy_format: o.HierarchyFormat = None,
    code_prefix: o.CodePrefix = False,
    hierarchy_encoding: o.HierarchyEncoding = None,
    items_sep: Annotated[
        str | None,
        typer.Option("--items-sep", help="Separator of the items of a text set column (;)."),
    ] = None,
    items_table: Annotated[
        str | None,
        typer.Option(
            "--items-table",
            help="The items as (key, item) rows: a CSV or Parquet file, or a table of the "
            "DuckDB input; joined to the records on --key.",
        ),
    ] = None,
    key: Annotated[
        str | None,
        typer.Option("--key", help="With --items-table: the column both tables join on."),
    ] = None,
    items_output: Annotated[
        Path | None,
        typer.Option(
            "--items-output",
            help="With --items-table and -o: the released (key, item) rows (.csv or .parquet).",
        ),
    ] = None,
    k: o.K = 10,
    m: o.ItemsKnown = 2,
    keep: o.Keep = None,
    drop: o.Drop = None,
    class_size: Annotated[
        int | None,
        typer.Option(
            "--class-size",
            help="Fewest rows of a class of the QIs (default k): larger classes cost the QIs "
            "more and the items less; about 1,000-2,000 on Adult for an item NCP near 0.1.",
            min=1,
        ),
    ] = None,
    classes: o.RtClasses = "cover",
    item_search: ItemSearchGiven = None,
    set_release: Annotated[
        str,
        typer.Option(
            "--set-release",
            help="How the set column is released: 'generalize' (items generalized in the "
            "hierarchy inside each class) or 'disassociate' (items as given, disassociated "
            "inside each class: the table without the set column, each row with its "
            "set_cluster, and the chunks written by --chunks-output; classes may be as small "
            "as k).",
        ),
    ] = "generalize",
    chunks_output: Annotated[
        Path | None,
        typer.Option(
            "--chunks-output",
            help="With --set-release disassociate and -o: the folder of the disassociated "
            "chunks (clusters, record_chunks, term_chunks, joint_clusters, shared_chunks and "
            "release.json), in -o's format.",
        ),
    ] = None,
    max_cluster: o.MaxCluster = None,
    joint_size: Annotated[
        int | None,
        typer.Option(
            "--joint-size",
            help="With --set-release disassociate: clusters of a class per REFINE joint "
            "cluster (8).",
        ),
    ] = None,
    no_refine: Annotated[
        bool,
        typer.Option(
            "--no-refine",
            help="With --set-release disassociate: no REFINE (no joint clusters, no shared "
            "chunks).",
        ),
    ] = False,
    delta: Annotated[
        float | None,
        typer.Option(
            "--delta",
            help="Merge the classes while the relational NCP stays at most DELTA (0-1], the "
            "pairs that save most item loss per relational loss first (RTMERGE); "
            "--class-size is then where the merging starts (about 100 on Adult).",
        ),
    ] = None,
    sensitive: o.Sensitive = None,
    l: o.Ell = None,  # noqa: E741
    output: o.TableOutput = None,
    columns: o.Columns = None,
    table: o.TableOfFile = None,
    missing: o.DropMissing = None,
    encoding: o.TableEncoding = None,
    run: o.TableRun = None,
    replace: o.TableReplace = False,
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    as_json: o.Json = False,
    quiet: o.Quiet = False,
) -> None:
    """Make a table with a set-valued column (k, k^m)-anonymous: classes of at least k on the
    QIs (the table engine), and inside each the items generalized in their hierarchy until
    every itemset of at most m items is held by none or at least k records; verified before it
    is written."""
    from ..relational.rt import anonymize_rt
    from ..relational.rt_pairs import item_rows
    from ..store import outputs
    from ..store.database import Store

    o.refuse_unless(
        l is not None or sensitive is None,
        "--sensitive is the l-diversity's (--l); without --l it changes nothing",
    )
    o.refuse_unless(
        not replace or run is not None or output is not None,
        "--replace replaces the run named by --run or the outputs of -o",
    )
    o.refuse_unless((items_table is None) == (key is None), "--items-table and --key go together")
    o.refuse_unless(
        items_table is None or items_sep is None,
        "--items-sep splits a text set column; item rows hold one item each",
    )
    o.refuse_unless(
        items_output is None or items_table is not None,
        "--items-output writes released item rows; give the items as --items-table",
    )
    o.refuse_unless(
        items_table is None or (output is None) == (items_output is None),
        "the release of records and item rows is two files: give -o and --items-output",
    )
    dis = o.disassociates(set_release, item_search)
    o.refuse_unless(
        dis or (chunks_output, max_cluster, joint_size, no_refine) == (None, None, None, False),
        "--chunks-output, --max-cluster, --joint-size and --no-refine are for "
        "--set-release disassociate",
    )
    o.refuse_unless(
        not dis or (output is None) == (chunks_output is None),
        "a disassociated release is the table and its chunks: give -o and --chunks-output",
    )
    o.refuse_unless(
        joint_size is None or not no_refine,
        "--joint-size sizes REFINE's joints: not with --no-refine",
    )
    set_options: dict[str, object] = {"refine": not no_refine} if dis else {}
    if max_cluster is not None:
        set_options["max_cluster"] = max_cluster
    if joint_size is not None:
        set_options["joint_size"] = joint_size
    rows = item_rows(items_table, key, source) if items_table and key is not None else None
    spec = item_hierarchy(hierarchy, hierarchy_format, code_prefix, hierarchy_encoding, dis)
    dbo = o.DbOpts(db, memory_limit, temp_dir, threads)
    specs = o.taxonomies(taxonomy)
    read = [source, db, hierarchy, *o.taxonomy_files(specs)]
    if rows is not None and rows.path is not None:
        read.append(rows.path)
    if output is not None:
        outputs.check_file(output, read, replace=replace)
    if items_output is not None:
        outputs.check_file(items_output, [*read, output], replace=replace)
    if chunks_output is not None:
        outputs.check_folder(chunks_output, [*read, output], replace=replace)
    names = [c.strip() for c in columns.split(",")] if columns is not None else None
    with Store(db, **dbo.settings()) as store, flags_named():
        result = anonymize_rt(
            store, source, qi=qi, taxonomies=specs, items=items,
            hierarchy=spec, k=k, m=m, items_sep=items_sep, sensitive=sensitive, l=l,
            w=DEFAULT_W, columns=names,
            table=table, drop_missing=missing, encoding=encoding, run_name=run,
            replace=replace, output=output, read=read, class_size=class_size, classes=classes,
            item_search=item_search or "topdown", item_rows=rows, rows_output=items_output,
            delta=delta, set_release=set_release, set_options=set_options,
            chunks_output=chunks_output, keep=keep or (), drop=drop or (),
        )  # fmt: skip
    summary = {**result.as_dict(), "output": str(output) if output else None}
    if items_output is not None:
        summary["items_output"] = str(items_output)
    if chunks_output is not None:
        summary["chunks_output"] = str(chunks_output)
    if as_json:
        typer.echo(json.dumps(summary, default=str))
        return
    if not quiet:
        typer.echo(
            f"release (verified (k, k^m)): {summary['rows']} rows, {summary['classes']} classes, "
            f"relational NCP {summary['relational_ncp']:.4f}, item NCP "
            f"{summary['item_ncp']:.4f}, {summary['seconds']} s, run {summary['run']}"
            + (f", written to {output}" if output else "")
            + (f" and {items_output}" if items_output else "")
            + (f" and {chunks_output}" if chunks_output else "")
        )
