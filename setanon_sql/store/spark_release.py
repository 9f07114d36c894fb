"""A Spark run's files: its release, a Parquet folder Spark writes (checked before any work,
written under a temporary name and renamed into place as the run takes its place), and its SQL
log. The library writes them; the command line only says where."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.log import Logged
from ..errors import ParamsError
from . import outputs
from .outputs import staged_name

if TYPE_CHECKING:
    from ..engine.spark import SparkExecutor
    from .publish import RunOutputs

PARQUET = (".parquet", ".pq")


def check_outputs(asked: RunOutputs, read: Iterable[str | Path | None], *, replace: bool) -> None:
    """What a Spark run writes, checked before any work: a Parquet release folder (no table, no
    disassociated folder: the release is Spark's) and a `.sql` log, neither an input nor
    holding one, and new unless `replace`."""
    inputs = list(read)
    if asked.table is not None or asked.folder is not None:
        raise ParamsError("--engine spark writes a Parquet folder: no --output-table or --files")
    if asked.path is not None:
        if Path(asked.path).suffix.lower() not in PARQUET:
            raise ParamsError(
                "--engine spark writes the release as a Parquet folder: --output X.parquet"
            )
        check_spark_output(Path(asked.path), inputs, replace=replace)
    if asked.sql_log is not None:
        outputs.check_file(
            asked.sql_log, [*inputs, asked.path], replace=replace, fmt="sql", formats=("sql",)
        )


def write_log(log: list[Logged], run: str, path: str | Path) -> None:
    """The run's statements as they ran on Spark, to `path` (a log to read: replay is
    DuckDB-only)."""
    from ..engine.log import replay_script
    from .spark_runs import LOG_TITLE

    script = replay_script(log, title=LOG_TITLE.format(run=run))
    checked = outputs.check_file(path, replace=True, fmt="sql", formats=("sql",))[0]  # before
    outputs.write_text(checked, script)


def check_spark_output(output: Path, inputs: list[str | Path | None], *, replace: bool) -> None:
    """A Spark release folder, checked before any work: no input, holding none, and new or,
    with `replace`, a folder Spark wrote holding nothing else (only Spark's own files are ever
    deleted)."""
    if output.exists() and not is_spark_output(output):
        raise ParamsError(f"output {output} exists and is not a Parquet folder Spark wrote")
    if not output.parent.is_dir():
        raise ParamsError(f"output folder does not exist: {output.parent}")
    for source in outputs.protected(inputs):
        if outputs.same_file(output, source) or outputs.inside(source, output):
            raise ParamsError(f"output {output} names or holds an input ({source})")
    foreign = sorted(p.name for p in output.iterdir() if not _sparks(p)) if output.exists() else []
    if foreign:
        raise ParamsError(
            f"output folder {output} holds files Spark did not write ({', '.join(foreign[:5])}); "
            "move them or choose another folder"
        )
    if output.exists() and not replace:
        raise ParamsError(f"output folder {output} exists (use --replace)")
    outputs.repair(output)


def _sparks(path: Path) -> bool:
    """A file Spark writes in a Parquet folder: its parts, its marker, their checksums."""
    name = path.name.removeprefix(".").removesuffix(".crc")
    return path.is_file() and (name == "_SUCCESS" or name.startswith("part-"))


def write_release(ex: SparkExecutor, path: str | Path, *, per_transaction: bool = False) -> Path:
    """The release with the original ids and labels as a Parquet folder written by Spark (one
    dataset to Spark, DuckDB's `read_parquet('DIR/*.parquet')` and pyarrow): one row per
    (transaction, item), or with `per_transaction` one per transaction with its list of
    items. Returns the folder it was written to, beside `path` under a temporary name: the
    caller renames it into place (`replace_folder`) when the run has taken its place."""
    from ..engine import sqlfiles
    from ..engine.spark import DIALECT, to_spark

    name = "release_per_transaction" if per_transaction else "release_labelled"
    (text,) = to_spark(sqlfiles.statement(name, DIALECT).sql)
    path = Path(path)
    tmp = staged_name(path, "tmp")  # Spark makes it; a killed run's is repaired by the next
    started = time.perf_counter()
    try:
        with ex.interruptible():
            ex.spark.sql(text).write.mode("overwrite").parquet(str(tmp))
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    ex.record(Logged("write_release", text, None, time.perf_counter() - started))
    return tmp


def replace_folder(new: Path, path: Path) -> None:
    """Rename the folder `new` to `path`, replacing the Spark output folder there (moved aside
    first: a folder cannot be renamed onto a full one)."""
    if not path.exists():
        os.replace(new, path)
        return
    old = staged_name(path, "old")  # Spark's files only (`check_spark_output`)
    os.replace(path, old)
    os.replace(new, path)
    shutil.rmtree(old)


def is_spark_output(path: Path) -> bool:
    """A folder Spark wrote (its `_SUCCESS` marker), which a new release may replace."""
    return path.is_dir() and (path / "_SUCCESS").is_file()
