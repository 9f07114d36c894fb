"""`setanon hierarchy build | check | show`: item hierarchies on their own."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import ParamsError
from . import options as o
from .app import hierarchy_app
from .output import console, emit, warn
from .stores import open_data


@hierarchy_app.command("build")
def hierarchy_build(
    output: Annotated[Path, typer.Option("--output", "-o", help="child,parent CSV to write.")],
    source: o.Source = None,
    format: o.Format = None,
    table: o.Table = None,
    tid_col: o.TidCol = None,
    item_col: o.ItemCol = None,
    encoding: o.Encoding = None,
    fanout: Annotated[
        int | None,
        typer.Option("--fanout", help="Balanced fan-out over the items.", min=2, max=10**6),
    ] = None,
    code_prefix: Annotated[
        bool, typer.Option("--code-prefix", help="Drop trailing code digits level by level.")
    ] = False,
    order: Annotated[
        str | None,
        typer.Option("--order", help="Leaf order for --fanout: support (default) or id."),
    ] = None,
    replace: o.ReplaceOutput = False,
    as_json: o.Json = False,
) -> None:
    """Build a balanced fan-out (leaves by id or by support) or a code-prefix hierarchy over the
    data's items."""
    from ..store import hierarchy, outputs
    from ..store.hierarchy_spec import HierarchySpec

    if source is None:
        raise ParamsError("hierarchy build needs the transactions file")
    if (fanout is None) == (not code_prefix):
        raise ParamsError("give exactly one of --fanout F or --code-prefix")
    spec = HierarchySpec(fanout=fanout, code_prefix=code_prefix, order=order)
    spec.check()
    output = outputs.check_file(output, [source], replace=replace, formats=("csv",))[0]
    src = o.SourceOpts(source, format, table, tid_col, item_col, encoding=encoding)
    with open_data(src, o.HierOpts(), o.DbOpts()) as store:
        h = spec.build(store)
    hierarchy.write_csv(h, output)
    emit(hierarchy.describe(h) | {"output": str(output)}, as_json, "hierarchy written")


@hierarchy_app.command("check")
def hierarchy_check(
    path: Annotated[Path, typer.Argument(help="Hierarchy file.")],
    data: Annotated[
        Path | None, typer.Option("--data", help="Also check it covers these transactions.")
    ] = None,
    hierarchy_format: Annotated[
        str | None, typer.Option("--hierarchy-format", help="csv or paths.")
    ] = None,
    fmt: Annotated[str | None, typer.Option("--format", help="Format of --data.")] = None,
    hierarchy_encoding: o.HierarchyEncoding = None,
    as_json: o.Json = False,
) -> None:
    """Validate a hierarchy (one root, no cycles, one parent each) and that it covers the data."""
    from ..store import hierarchy

    o.refuse_unless(fmt is None or data is not None, "--format is the format of --data; give it")
    h = hierarchy.read(path, hierarchy_format, hierarchy_encoding)
    if data is not None:
        hier = o.HierOpts(
            hierarchy=path, hierarchy_format=hierarchy_format, hierarchy_encoding=hierarchy_encoding
        )
        open_data(o.SourceOpts(source=data, format=fmt), hier, o.DbOpts()).close()
    warn(h.warnings)
    emit(hierarchy.describe(h) | {"covers data": bool(data)}, as_json, f"{path}: valid")


@hierarchy_app.command("show")
def hierarchy_show(
    path: Annotated[Path, typer.Argument(help="Hierarchy file.")],
    depth: Annotated[
        int, typer.Option("--depth", help="Levels to print below the root.", min=0)
    ] = 2,
    hierarchy_format: Annotated[
        str | None, typer.Option("--hierarchy-format", help="csv or paths.")
    ] = None,
    hierarchy_encoding: o.HierarchyEncoding = None,
) -> None:
    """Print the top levels of a hierarchy as a tree, with leaf counts."""
    from rich.markup import escape
    from rich.tree import Tree

    from ..store import hierarchy

    h = hierarchy.read(path, hierarchy_format, hierarchy_encoding)
    trees = {0: Tree(f"{escape(h.labels[0])} [dim]({h.leaf_count[0]} leaves)[/]")}
    for i in range(1, h.size):
        if h.depth[i] <= depth:
            note = "" if h.is_leaf(i) else f" [dim]({h.leaf_count[i]} leaves)[/]"
            trees[i] = trees[h.parent[i]].add(f"{escape(h.labels[i])}{note}")
    console().print(trees[0])
