"""Where a Spark run's tables live, and how a new run takes an earlier one's place.

A Spark run keeps its tables as one database of the session catalog, a folder `<run>.db` of
the warehouse. A run is built in a staging database (`setanon_staging__<run>`), and only when
it has succeeded, its release verified and its tables written, does its folder take the run's
name: the earlier run of that name (`--replace`) is moved aside, the staged folder renamed into
its place, and the earlier one deleted. So a replacement that fails or is stopped leaves the
earlier run as it was, and a failed run leaves nothing but what its cleanup removes.

Folders are handled through Hadoop's file system API, as Spark handles its own: the same
calls on a local disk, a shared mount or HDFS.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .spark_sql import create_database, drop_database

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

STAGING = "setanon_staging__"
ASIDE = "setanon_replaced__"


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

    @property
    def staging(self) -> str:
        return STAGING + self.run

    def check(self) -> None:
        """Before any work: the run's folder may hold only an earlier run of this tool, and only
        with --replace; a staging folder left by a killed run is removed with --replace, and an
        earlier run a killed swap had moved aside is put back."""
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
                raise InputError(
                    f"Spark staging folder {staged.toString()} exists (a run of this name is "
                    "running, or was killed): --replace removes it"
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
