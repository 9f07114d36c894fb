"""Where a Spark run's tables live, and how a new run takes an earlier one's place.

A Spark run keeps its tables as one database of the session catalog, a folder `<run>.db` of
the warehouse. A run is built in a staging database (`setanon_staging__<run>`), and only when
it has succeeded, its release verified and its tables written, does its folder take the run's
name: the earlier run of that name (`--replace`) is moved aside, the staged folder renamed into
its place, and the earlier one deleted. So a replacement that fails or is stopped leaves the
earlier run as it was, and a failed run leaves nothing but what its cleanup removes.

Folders are handled through Hadoop's file system API, as Spark handles its own: the same
calls on a local disk, a shared mount or HDFS.

A run holds a lock while it lives: `fcntl.flock` on `setanon_lock__<run>` in a warehouse on a
local disk or mount (HDFS has none), taken before its staging folder is looked at and removed
when it ends. A staging folder whose lock is held belongs to a live run of another process and
is never touched; one whose lock is free was left by a killed run: it is stale, listed so by
`runs --spark-warehouse`, and `--replace` removes it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import urlparse

from ..errors import InputError
from .spark_sql import create_database, drop_database

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

STAGING = "setanon_staging__"
ASIDE = "setanon_replaced__"
LOCK = "setanon_lock__"
LOCK_WAIT = 2.0
"""Seconds a run retries a busy lock: a `runs` listing probes it for an instant."""


def local_warehouse(warehouse: str) -> Path | None:
    """The warehouse's folder when it is on a local disk or mount (`file:` or a plain path),
    else None (HDFS, object stores: no lock there)."""
    url = urlparse(warehouse)
    if url.scheme not in ("", "file"):
        return None
    return Path(url.path if url.scheme else warehouse)


def lock_path(warehouse: Path, run: str) -> Path:
    """The lock file of run `run` (Spark lower-cases database names)."""
    return warehouse / f"{LOCK}{run.lower()}"


def take_lock(path: Path) -> IO[str] | None:
    """The lock on `path`, held by the open file returned, or None when another process
    holds it. A lock file removed and made anew while we waited is taken again."""
    while True:
        handle = path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return None
        try:
            if os.fstat(handle.fileno()).st_ino == os.stat(path).st_ino:
                return handle
        except FileNotFoundError:
            pass
        handle.close()  # its holder removed the file as we took it: take the new one


def lock_held(path: Path) -> bool:
    """Whether a live process holds the lock on `path` (probed for an instant, never made)."""
    try:
        handle = path.open("r", encoding="utf-8")
    except FileNotFoundError:
        return False
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


def _ident(name: str) -> str:
    """A name as Spark's catalog API takes it (not SQL text run)."""
    return "`" + name.replace("`", "``") + "`"


class Folders:
    """The warehouse's folders through the JVM's Hadoop file system."""

    def __init__(self, spark: SparkSession) -> None:
        self.spark = spark
        self._jvm: Any = spark.sparkContext._jvm
        self._conf = spark.sparkContext._jsc.hadoopConfiguration()

    def of(self, database: str) -> Any:
        """The folder of `database` in the warehouse (Spark lower-cases database names)."""
        warehouse = self.spark.conf.get("spark.sql.warehouse.dir")
        return self._jvm.org.apache.hadoop.fs.Path(warehouse, f"{database.lower()}.db")

    def _fs(self, path: Any) -> Any:
        return path.getFileSystem(self._conf)

    def exists(self, path: Any) -> bool:
        return bool(self._fs(path).exists(path))

    def child(self, path: Any, name: str) -> Any:
        return self._jvm.org.apache.hadoop.fs.Path(path, name)

    def rename(self, source: Any, target: Any) -> None:
        """Rename a folder; the target must not exist (Hadoop would move the source into it)."""
        if self.exists(target) or not self._fs(source).rename(source, target):
            raise InputError(f"cannot rename {source.toString()} to {target.toString()}")

    def delete(self, path: Any) -> None:
        self._fs(path).delete(path, True)

    def tables(self, path: Any) -> list[str]:
        """The table folders of a database folder."""
        return sorted(
            s.getPath().getName() for s in self._fs(path).listStatus(path) if s.isDirectory()
        )


@dataclass
class StagedRun:
    """A run named `run`, built as database `staging` and swapped into place at the end."""

    spark: SparkSession
    run: str
    replace: bool
    _lock: IO[str] | None = field(default=None, repr=False)

    @property
    def staging(self) -> str:
        return STAGING + self.run

    def lock(self) -> None:
        """Hold the run's lock while it lives; refuse when a live process holds it (its
        staging folder is its own, never touched). A warehouse not on a local disk or mount
        has no lock."""
        where = local_warehouse(self.spark.conf.get("spark.sql.warehouse.dir") or "")
        if where is None or not where.is_dir():
            return
        path = lock_path(where, self.run)
        deadline = time.monotonic() + LOCK_WAIT
        while (handle := take_lock(path)) is None:
            if time.monotonic() > deadline:
                raise InputError(
                    f"Spark run {self.run!r} is being made by another process (it holds "
                    f"{path}); its staging folder is left alone: wait, or choose another --run"
                )
            time.sleep(0.1)
        self._lock = handle

    def unlock(self) -> None:
        """Let the lock go at the run's end, and its file with it."""
        if self._lock is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._lock.name)
            self._lock.close()
            self._lock = None

    def check(self) -> None:
        """Before any work, under the run's lock: the run's folder may hold only an earlier run
        of this tool, and only with --replace; a staging folder left by a killed run (its lock
        free) is removed with --replace, and an earlier run a killed swap had moved aside is
        put back."""
        self.lock()
        folders = Folders(self.spark)
        final, staged = folders.of(self.run), folders.of(self.staging)
        aside = folders.of(ASIDE + self.run)
        if folders.exists(aside):  # a swap was killed: after the move aside, or the delete
            if folders.exists(final):
                folders.delete(aside)
            else:
                folders.rename(aside, final)
        if folders.exists(final) and not (
            self.replace and folders.exists(folders.child(final, "run_info"))
        ):
            raise InputError(
                f"Spark database folder {final.toString()} exists: choose another --run, or "
                "--replace a run of this tool"
            )
        if folders.exists(staged):
            if not self.replace:
                why = (
                    "was left by a killed run"
                    if self._lock is not None
                    else "exists (a run of this name is running, or was killed)"
                )
                raise InputError(
                    f"Spark staging folder {staged.toString()} {why}: --replace removes it"
                )
            self._drop(self.staging)

    def swap(self) -> None:
        """Make the staged database the run: the earlier run moved aside, the staged folder
        renamed to the run's, the earlier one deleted; the catalog then names the run's tables
        (as tables at that folder). Called only when everything is written."""
        folders = Folders(self.spark)
        final, staged = folders.of(self.run), folders.of(self.staging)
        aside = folders.of(ASIDE + self.run)
        had = folders.exists(final)
        if had:
            folders.rename(final, aside)
        self.spark.catalog.setCurrentDatabase("default")
        try:  # the earlier run's catalog entry goes first: dropping it deletes its folder
            self.spark.sql(drop_database(self.run))
            folders.rename(staged, final)
        except BaseException:
            if had and not folders.exists(final):
                folders.rename(aside, final)
            raise
        # the staged folder moved: its catalog entry goes (deleting a folder no longer there)
        self.spark.sql(drop_database(self.staging))
        if had:
            folders.delete(aside)
        self.spark.sql(create_database(self.run, if_missing=True))
        for table in folders.tables(final):
            self.spark.catalog.createTable(
                f"{_ident(self.run)}.{_ident(table)}",
                path=folders.child(final, table).toString(),
                source="parquet",
            )

    def _drop(self, database: str) -> None:
        self.spark.sql(drop_database(database))
        folders = Folders(self.spark)
        folders.delete(folders.of(database))

    def discard(self) -> None:
        """Remove the staged run (a failure or a signal): the run's own folder is untouched.
        Never raises: the error that brought us here is the one to report."""
        with contextlib.suppress(Exception):
            self.spark.catalog.setCurrentDatabase("default")
        with contextlib.suppress(Exception):
            self._drop(self.staging)


def database_folder(spark: SparkSession, database: str) -> Path | None:
    """Where Spark's session catalog keeps a database's tables (a local warehouse only)."""
    warehouse = spark.conf.get("spark.sql.warehouse.dir")
    if warehouse is None:
        return None
    if warehouse.startswith("file:"):
        warehouse = warehouse.removeprefix("file:")
    elif "://" in warehouse:
        return None
    return Path(warehouse) / f"{database.lower()}.db"
