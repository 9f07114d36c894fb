"""`setanon reconstruct`: one random reconstruction of a disassociated release as plain
transactions, for tools that need baskets (#28)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from . import options as o
from .app import app
from .output import emit
from .stores import open_db, registered


@app.command("reconstruct")
def reconstruct_cmd(
    run: Annotated[str, typer.Argument(help="A disassociation run stored in --db.")],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="Transactions to write: .csv or .parquet.")
    ],
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    replace: o.ReplaceOutput = False,
    as_json: o.Json = False,
) -> None:
    """Write one random reconstruction of a disassociated release as ordinary transactions
    (long tid,item): chunk rows recombined at random, each term-chunk term once per cluster.
    One dataset consistent with the release, for tools that need plain baskets; not the
    original, and its co-occurrences across chunks are chance."""
    from .. import api
    from ..store import outputs

    outputs.check_file(output, [db, *registered(db)], replace=replace)
    with open_db(o.DbOpts(db, memory_limit, temp_dir, threads)) as store:
        data = api.reconstruct(store, run, output)
    emit(data, as_json, "reconstruction written")
