"""A disassociated release as files, and one random reconstruction of it (#28).

`-o DIR` writes the release tables of a disassociation run as one file each in a folder
(`clusters`, `record_chunks`, `term_chunks`, and with refinement `joint_clusters`,
`shared_chunks`; CSV or Parquet) with a `release.json` that says what they are. Never
`cluster_members` or `suppressed_items`: they link records to tids. The folder is built under
a temporary name beside DIR and renamed into place, so a failure leaves nothing half-written;
an existing non-empty DIR is refused unless the tool wrote it (its `release.json`) and
`--replace` is given.

`reconstruct` draws one dataset consistent with the release: in every cluster the rows of
each chunk go to distinct records at random, shared rows to distinct records of their joint
cluster, and each term-chunk term to one record (first to records left empty). It is one
possible original, not the original: rows of different chunks are recombined at random, so
its co-occurrences across chunks are chance, and every term-chunk term appears once per
cluster.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..engine import sqlfiles
from ..errors import ParamsError
from .database import Store
from .release_io import check_output, copy_to_file, same_file

MANIFEST = "release.json"
FILE_FORMATS = ("csv", "parquet")
TABLES = ("clusters", "record_chunks", "term_chunks")
REFINED_TABLES = ("joint_clusters", "shared_chunks")


def check_folder(path: str | Path, inputs: list[Path | None], *, replace: bool, fmt: str) -> Path:
    """The release folder, checked before any work: its parent exists and is writable, it is
    no input, and it is new, empty, or a release folder of the tool's with `replace`."""
    path = Path(path)
    if fmt not in FILE_FORMATS:
        raise ParamsError(f"--files must be one of {', '.join(FILE_FORMATS)}, got {fmt!r}")
    parent = path.parent
    if not parent.is_dir():
        raise ParamsError(f"output folder's parent does not exist: {parent}")
    if not os.access(parent, os.W_OK):
        raise ParamsError(f"output folder's parent is not writable: {parent}")
    for source in inputs:
        if source is not None and (same_file(path, Path(source)) or _inside(Path(source), path)):
            raise ParamsError(f"output {path} names or holds an input ({source})")
    if path.exists():
        if not path.is_dir():
            raise ParamsError(f"output {path} exists and is not a folder (a disassociated "
                              "release is a folder of files)")  # fmt: skip
        if any(path.iterdir()):
            if not (path / MANIFEST).is_file():
                raise ParamsError(
                    f"output folder {path} is not empty and was not written by setanon-sql"
                )
            if not replace:
                raise ParamsError(f"output folder {path} exists (use --replace)")
    return path


def _inside(child: Path, folder: Path) -> bool:
    try:
        return child.resolve().is_relative_to(folder.resolve())
    except OSError:
        return False


def write_folder(
    store: Store, path: str | Path, *, fmt: str, refined: bool, manifest: dict[str, Any]
) -> Path:
    """Write the current run's release tables into folder `path`, atomically."""
    path = Path(path)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o777 & ~umask)  # mkdtemp's 0700 is for the name's lifetime only
        tables = TABLES + (REFINED_TABLES if refined else ())
        for table in tables:
            target = tmp / f"{table}.{fmt}"
            sql = sqlfiles.statement(f"release_file_{table}").sql
            copy_to_file(store, sql, target, fmt, step=f"write_{table}")
        files = [f"{t}.{fmt}" for t in tables]
        text = json.dumps({"tool": "setanon-sql", "files": files, **manifest}, indent=2)
        (tmp / MANIFEST).write_text(text + "\n", encoding="utf-8")
        _swap_in(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return path


def _swap_in(tmp: Path, path: Path) -> None:
    """Rename the finished folder into place; an old release folder of the tool's is moved
    aside first and removed only once the new one is in place."""
    if path.exists() and any(path.iterdir()):
        old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent))
        os.rmdir(old)
        os.replace(path, old)
        try:
            os.replace(tmp, path)
        except BaseException:
            os.replace(old, path)
            raise
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, path)


def reconstruct(store: Store, path: str | Path) -> dict[str, Any]:
    """Write one random reconstruction of the current run's release as long (tid, item)
    transactions (CSV or Parquet by the file's extension), atomically."""
    path, fmt = check_output(path)
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
