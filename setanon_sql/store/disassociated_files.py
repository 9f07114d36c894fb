"""A disassociated release as files, and one random reconstruction of it (#28).

`-o DIR` writes the release tables of a disassociation run as one file each in a folder
(`clusters`, `record_chunks`, `term_chunks`, and with refinement `joint_clusters`,
`shared_chunks`; CSV or Parquet) with a `release.json` that says what they are. Never
`cluster_members` or `suppressed_items`: they link records to tids. The folder is built under
a hidden name beside DIR and renamed into place, so a failure leaves nothing half-written;
an existing non-empty DIR is refused unless its `release.json` says the tool wrote every file
in it and `--replace` is given; only the files that manifest lists are ever deleted
(`outputs`).

`reconstruct` draws one dataset consistent with the release: in every cluster the rows of
each chunk go to distinct records at random, shared rows to distinct records of their joint
cluster, and each term-chunk term to one record (first to records left empty). It is one
possible original, not the original: rows of different chunks are recombined at random, so
its co-occurrences across chunks are chance, and every term-chunk term appears once per
cluster.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..engine import ddl, sqlfiles
from ..errors import ParamsError
from . import outputs
from .database import Store
from .outputs import MANIFEST, Publication
from .release_io import copy_to_file

FILE_FORMATS = ("csv", "parquet")
TABLES = ("clusters", "record_chunks", "term_chunks")
REFINED_TABLES = ("joint_clusters", "shared_chunks")


def check_folder(
    path: str | Path, inputs: Iterable[str | Path | None], *, replace: bool, fmt: str
) -> Path:
    """The release folder, checked before any work (`outputs.check_folder`), and its files'
    format."""
    if fmt not in FILE_FORMATS:
        raise ParamsError(f"--files must be one of {', '.join(FILE_FORMATS)}, got {fmt!r}")
    return outputs.check_folder(path, inputs, replace=replace)


def write_folder(
    store: Store,
    path: str | Path,
    *,
    fmt: str,
    refined: bool,
    manifest: dict[str, Any],
    publication: Publication | None = None,
) -> Path:
    """Write the current run's release tables into folder `path`, staged beside it and put in
    place by `publication` (one of its own when none is given)."""
    path = outputs.target_of(path)
    if publication is None:
        with Publication().written() as own:
            return write_folder(
                store, path, fmt=fmt, refined=refined, manifest=manifest, publication=own
            )
    tmp = publication.folder(path)
    tables = TABLES + (REFINED_TABLES if refined else ())
    for table in tables:
        sql = sqlfiles.statement(f"release_file_{table}").sql
        store.execute(ddl.copy_to(sql, str(tmp / f"{table}.{fmt}"), fmt), step=f"write_{table}")
    files = [f"{t}.{fmt}" for t in tables]
    text = json.dumps({"tool": "setanon-sql", "files": files, **manifest}, indent=2)
    (tmp / MANIFEST).write_text(text + "\n", encoding="utf-8")
    return path


def reconstruct(
    store: Store, path: str | Path, inputs: Iterable[str | Path | None] = ()
) -> dict[str, Any]:
    """Write one random reconstruction of the current run's release as long (tid, item)
    transactions (CSV or Parquet by the file's extension), atomically; never over one of
    `inputs`."""
    path, fmt = outputs.check_file(path, inputs, replace=True)  # the CLI asks --replace before
    store.run("reconstruct_slots")
    store.run("reconstruct_rows")
    store.run("reconstruct_terms")
    sql = sqlfiles.statement("reconstructed_file").sql
    copy_to_file(store, sql, path, fmt, step="write_reconstruction")
    row = store.run("reconstructed_size").one()
    return {
        "output": str(path),
        "transactions": int(row["transactions"]),
        "items": int(row["items"]),
    }
