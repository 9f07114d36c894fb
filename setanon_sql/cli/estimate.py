"""`setanon estimate`: the analyst's side (#42). Itemsets answered from a release alone, with
the bounds the release proves."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from . import options as o
from .app import app
from .output import rows


@app.command("estimate")
def estimate_cmd(
    release: Annotated[
        Path,
        typer.Argument(
            help="A release the tool wrote: a generalized release file (long "
            "tid,item, CSV or Parquet), a disassociated release folder, or a synthetic "
            "release file (with --synthetic)."
        ),
    ],
    itemset: Annotated[
        list[str] | None,
        typer.Option(
            "--itemset", "-i", help="An itemset, its items separated by --sep (repeatable)."
        ),
    ] = None,
    queries: Annotated[
        Path | None,
        typer.Option("--queries", help="A file of itemsets, one a line, items separated by --sep."),
    ] = None,
    sep: Annotated[
        str | None,
        typer.Option("--sep", help="What separates an itemset's items (default: whitespace)."),
    ] = None,
    hierarchy: o.Hierarchy = None,
    items: Annotated[
        str | None,
        typer.Option(
            "--items",
            help="The release is a table with a set column (anonymize-rt's generalized -o): "
            "the column; each row is one record (needs -H).",
        ),
    ] = None,
    items_sep: Annotated[
        str | None,
        typer.Option("--items-sep", help="With --items: what joins its labels (;)."),
    ] = None,
    taxonomy: Annotated[
        list[str] | None,
        typer.Option(
            "--taxonomy",
            "-t",
            help="With --items: COLUMN=FILE, a QI column and the taxonomy file (child,parent "
            "CSV) it was generalized in; itemsets then name its values as COLUMN=VALUE "
            "(repeatable).",
        ),
    ] = None,
    synthetic: Annotated[
        bool,
        typer.Option(
            "--synthetic",
            help="The release is synthetic (-a dpsets): each itemset's count in it, no bounds "
            "(it proves none on the original).",
        ),
    ] = False,
    memory_limit: o.MemoryLimit = None,
    threads: o.Threads = None,
    as_json: o.Json = False,
) -> None:
    """Each itemset's estimated support in the release and the lower and upper bounds it
    proves, from the release files alone (no database, no original). An item the release
    does not hold has support 0 and is listed as unknown. A synthetic release (dpsets')
    proves no bounds: give --synthetic. A table release of anonymize-rt: --items COLUMN, and
    -t COLUMN=FILE for a QI's values in the itemsets (COLUMN=VALUE)."""
    from ..errors import ParamsError
    from ..measure import estimate as est
    from ..measure.estimate_table import SetColumn

    if sep == "":
        raise ParamsError("--sep must not be empty")
    if items is None and items_sep is not None:
        raise ParamsError("--items-sep splits the set column --items names: give --items")
    if items is None and taxonomy:
        raise ParamsError("-t names a QI column of a table release: give --items")
    given = [t.partition("=") for t in taxonomy or []]
    bad = [f"{c}{eq}{f}" for c, eq, f in given if not (c and eq and f)]
    if bad:
        raise ParamsError(f"-t takes COLUMN=FILE, got {bad[0]!r}")
    qis = tuple((c, Path(f)) for c, _, f in given)
    column = None if items is None else SetColumn(items, items_sep, qis)
    found = est.parse_itemsets(itemset or [], sep=sep, source="--itemset", unit="number")
    if queries is not None:
        found += est.read_itemsets(queries, sep=sep)
    result = est.estimate(
        release,
        found,
        hierarchy=hierarchy,
        synthetic=synthetic,
        set_column=column,
        memory_limit=memory_limit,
        threads=threads,
    )
    if as_json:
        import json

        typer.echo(json.dumps(result.as_dict()))
        return
    records = [
        {**a.as_dict(), "itemset": " ".join(a.itemset), "unknown": " ".join(a.unknown)}
        for a in result.answers
    ]
    title = f"{result.kind} release, estimator: {est.ESTIMATORS[result.kind]}"
    rows(records, False, title, ["itemset", "estimate", "lower", "upper", "unknown"])
