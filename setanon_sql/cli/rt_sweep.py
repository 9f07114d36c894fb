"""`setanon sweep-rt`: the (k, k^m) model's knobs swept into a trade-off of relational against
item loss (issue 41): one verified run per class size x delta, a table and, with --report, the
picture."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import ParamsError
from . import options as o
from .app import app
from .rt import ItemSearchGiven
from .rt_flags import flags_named, item_hierarchy
from .table import DEFAULT_W

COLUMNS = ["run", "set_release", "class_size", "delta", "classes", "relational_ncp", "item_ncp", "seconds",
           "verified"]  # fmt: skip


def deltas(text: str | None) -> list[float | None]:
    """`0.3,0.35` as [0.3, 0.35], each checked before any run; none given: [None] (no
    merging)."""
    if text is None:
        return [None]
    try:
        found = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ParamsError(f"--delta wants numbers separated by commas, got {text!r}") from None
    for d in found:
        if not (math.isfinite(d) and 0 < d <= 1):
            raise ParamsError(f"delta must be a relational NCP in (0, 1], got {d}")
    return [*found] or [None]


@app.command("sweep-rt")
def sweep_rt_cmd(
    source: o.TableSource,
    qi: o.Qi,
    taxonomy: o.Taxonomy,
    items: Annotated[
        str, typer.Option("--items", help="The set-valued column (a LIST, or text joined).")
    ],
    hierarchy: o.Hierarchy = None,
    hierarchy_format: o.HierarchyFormat = None,
    hierarchy_encoding: o.HierarchyEncoding = None,
    items_sep: Annotated[
        str | None,
        typer.Option("--items-sep", help="Separator of the items of a text set column (;)."),
    ] = None,
    k: o.K = 10,
    m: o.ItemsKnown = 2,
    keep: o.Keep = None,
    drop: o.Drop = None,
    class_size: Annotated[
        str,
        typer.Option(
            "--class-size",
            help="Class sizes to sweep, e.g. 300,500,1000 (the start of the merging with --delta).",
        ),
    ] = "300,500,700,1000,1500",
    delta: Annotated[
        str | None,
        typer.Option(
            "--delta",
            help="Relational bounds to sweep, e.g. 0.28,0.32,0.36: each "
            "class size's classes merged while the relational NCP stays under it.",
        ),
    ] = None,
    classes: o.RtClasses = "cover",
    item_search: ItemSearchGiven = None,
    set_release: Annotated[
        str,
        typer.Option(
            "--set-release",
            help="'generalize' (the items generalized inside each class) or 'disassociate' "
            "(items as given, disassociated inside each class: item NCP 0, judge the points "
            "with `setanon compare`'s mixed-query error).",
        ),
    ] = "generalize",
    max_cluster: o.MaxCluster = None,
    columns: o.Columns = None,
    table: o.TableOfFile = None,
    missing: o.DropMissing = None,
    encoding: o.TableEncoding = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace earlier sweep runs and the --report page.")
    ] = False,
    report: Annotated[
        Path | None, typer.Option("--report", help="Also write the trade-off page (HTML).")
    ] = None,
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    as_json: o.Json = False,
) -> None:
    """Anonymize a table with a set-valued column once per --class-size x --delta, each a
    verified (k, k^m) run (`run_rt_sweep_s500`, `run_rt_sweep_s100_d0_32`), and print the
    trade-off of relational against item NCP (and draw it, with --report)."""
    from ..store.database import Store
    from ..sweep_rt import sweep_rt
    from .judge import page

    set_options = _set_options(set_release, item_search, max_cluster)
    sizes = o.whole_numbers(class_size, "--class-size")
    o.refuse_unless(bool(sizes), "--class-size wants at least one size")
    dis = set_release == "disassociate"
    spec = item_hierarchy(hierarchy, hierarchy_format, None, hierarchy_encoding, dis)
    dbo = o.DbOpts(db, memory_limit, temp_dir, threads)
    specs = o.taxonomies(taxonomy)
    read = [source, db, hierarchy, *o.taxonomy_files(specs)]
    if report is not None:
        page(report, read, replace=replace)
    names = [c.strip() for c in columns.split(",")] if columns is not None else None
    with Store(db, **dbo.settings()) as store, flags_named():
        target = page(report, read, store, replace=replace) if report is not None else None
        found = sweep_rt(
            store, source, sizes=sizes, deltas=deltas(delta), replace=replace, qi=qi,
            taxonomies=specs, items=items, hierarchy=spec, k=k, m=m,
            items_sep=items_sep, w=DEFAULT_W, columns=names, table=table, drop_missing=missing,
            encoding=encoding, classes=classes, item_search=item_search or "topdown",
            set_release=set_release, set_options=set_options, keep=keep or (), drop=drop or (),
        )  # fmt: skip
    if target is not None:
        from ..measure.rt_sweep_page import render_rt_sweep_html
        from ..store import outputs

        outputs.write_text(target, render_rt_sweep_html(found))
    _print(found, as_json)


def _set_options(
    set_release: str, item_search: str | None, max_cluster: int | None
) -> dict[str, Any]:
    """The disassociation's options of every point; what does not apply refused."""
    dis = o.disassociates(set_release, item_search)
    o.refuse_unless(dis or max_cluster is None, "--max-cluster is for --set-release disassociate")
    return {} if max_cluster is None else {"max_cluster": max_cluster}


def _print(found: list[dict[str, Any]], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(found, default=str))
        return
    typer.echo("  ".join(f"{c:>14}" for c in COLUMNS))
    for r in found:
        cells = [f"{r[c]:.4f}" if isinstance(r[c], float) else str(r[c]) for c in COLUMNS]
        typer.echo("  ".join(f"{c:>14}" for c in cells))
