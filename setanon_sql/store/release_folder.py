"""A disassociated release folder read back, to verify exactly what was published (#40).

`-o DIR` of `-a disassociation` writes `release.json` and one CSV or Parquet file per release
table (`disassociated_files`). This reads such a folder into temporary tables of the release's
names (`clusters`, `record_chunks`, `term_chunks`, `joint_clusters`, `shared_chunks`), typed as
the run's, so the verifier's statements read them as they read a run's. A folder that is not a
release the tool wrote (no or another manifest, a file missing or of other columns, a value
that is not a number where one belongs) is bad input: one line, exit 3.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from ..engine import ddl
from ..engine.contract import Workspace
from ..errors import InputError, first_line

MANIFEST = "release.json"
COLUMNS = {
    "clusters": ("cluster", "size"),
    "record_chunks": ("cluster", "chunk", "row", "item"),
    "term_chunks": ("cluster", "item"),
    "joint_clusters": ("joint", "cluster"),
    "shared_chunks": ("joint", "chunk", "row", "item"),
}
"""Each release table's file columns, as `sql/disassociation.sql` writes them."""
REQUIRED = ("clusters", "record_chunks", "term_chunks")
FORMATS = ("csv", "parquet")


@dataclass(frozen=True)
class Folder:
    """What a release folder's manifest promises: k, m, the occurrences suppressed (0 when
    it says none), and the file of each table it holds."""

    path: Path
    k: int
    m: int
    suppressed: int
    files: dict[str, Path]


def is_folder(path: str | Path) -> bool:
    """Whether a release given to verify is a disassociated release folder: a folder with a
    manifest, or one without the Parquet parts of a generalized release (Spark's)."""
    path = Path(path)
    return path.is_dir() and ((path / MANIFEST).exists() or not any(path.glob("*.parquet")))


def read_manifest(path: str | Path) -> Folder:
    """The folder's manifest, checked: written by the tool, a disassociated release, with
    whole k and m and a file for each table it names."""
    path = Path(path)
    bad = f"{path} is not a disassociated release folder written by setanon-sql"
    try:
        found = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{bad}: it has no {MANIFEST}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InputError(f"{bad}: {MANIFEST} is unreadable ({first_line(e)})") from None
    if not isinstance(found, dict) or found.get("tool") != "setanon-sql":
        raise InputError(f"{bad}: {MANIFEST} does not name the tool")
    if found.get("release") != "disassociation":
        raise InputError(f"{bad}: {MANIFEST} names release {found.get('release')!r}")
    k, m, suppressed = (_whole(found, key, bad) for key in ("k", "m", "suppressed"))
    if k < 1 or m < 1:
        raise InputError(f"{bad}: its k and m must be at least 1, got k = {k}, m = {m}")
    return Folder(path, k, m, suppressed, _files(path, found.get("files"), bad))


def _whole(manifest: dict[str, Any], key: str, bad: str) -> int:
    """A whole number of the manifest (`suppressed` may be absent: none)."""
    value = manifest.get(key, 0 if key == "suppressed" else None)
    if type(value) is not int or value < 0:
        raise InputError(f"{bad}: {MANIFEST} gives {key} = {value!r}, not a whole number")
    return value


def _files(path: Path, listed: Any, bad: str) -> dict[str, Path]:
    """The file of each table the manifest lists, present in the folder."""
    if not isinstance(listed, list) or not all(isinstance(f, str) for f in listed):
        raise InputError(f"{bad}: {MANIFEST} lists no files")
    known = {f"{table}.{fmt}": table for table in COLUMNS for fmt in FORMATS}
    files: dict[str, Path] = {}
    for name in listed:
        if name not in known or known[name] in files:
            raise InputError(f"{bad}: {MANIFEST} lists {name!r}")
        if not (path / name).is_file():
            raise InputError(f"{bad}: {name} is missing")
        files[known[name]] = path / name
    missing = [t for t in REQUIRED if t not in files]
    if missing:
        raise InputError(f"{bad}: {MANIFEST} lists no {', '.join(missing)} file")
    return files


def read_tables(store: Workspace, folder: Folder) -> None:
    """The folder's files as temporary tables of the release's names and types (an absent
    refined table as an empty one)."""
    for table in COLUMNS:
        file = folder.files.get(table)
        if file is None:
            store.run(f"folder_{table}_empty")
            continue
        reader = (
            ddl.read_parquet(str(file))
            if file.suffix == ".parquet"
            else ddl.read_csv(str(file), header=True, all_varchar=True)
        )
        try:
            store.execute(
                ddl.create_view_as("folder_file", ddl.select_from(reader), temp=True),
                step="folder_file",
            )
            described = store.execute(ddl.describe("folder_file"), step="folder_columns")
            columns = sorted(name for (name,) in described.tuples("column_name"))
            if columns != sorted(COLUMNS[table]):
                raise InputError(
                    f"{file}: columns {', '.join(columns)}; a release's {table} file has "
                    f"{', '.join(COLUMNS[table])}"
                )
            store.run(f"folder_{table}")
        except duckdb.Error as e:
            raise InputError(f"cannot read release file {file}: {first_line(e)}") from e
        finally:
            store.execute(ddl.drop_view("folder_file"), step="folder_file_drop")
