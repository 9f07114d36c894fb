"""The Spark session the tool runs on: its settings, the driver's JVM started apart from our
process group, every component bound to the loopback address on this machine, and the shuffle
partitions sized to the data."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError, ParamsError, ResourceError
from . import limits

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def session(
    master: str = "local[2]",
    *,
    warehouse: str | Path | None = None,
    app: str = "setanon-sql",
    config: Mapping[str, str] | None = None,
    memory_limit: str | None = None,
) -> SparkSession:
    """A Spark session for the tool: UI off, few shuffle partitions (small local data; a run
    sizes them to its data, `shuffle_partitions`), tables written as Parquet under `warehouse`
    so an analyst can read them after the run. Constraint propagation is off: it infers
    IS NOT NULL and equality predicates over every join of a plan, a cost paid per statement
    in the optimizer for filters the statements do not need.

    On a local master (or a cluster on this machine's loopback address) every component binds
    to 127.0.0.1 (`LOOPBACK`). The driver's JVM is started in a process session of its own
    (`start_gateway`), so that a signal sent to our process group stops the run through
    Python's cleanup, not by killing the JVM under it.

    The driver's JVM gets `memory_limit` (`--memory-limit`), or the share of the machine's
    memory DuckDB gets when none is given (`limits.default_memory_limit`): Spark's own default
    of 1 GiB ran a Partition of 10^6 transactions out of memory. On a local master the driver
    runs the tasks too, so this is the memory they share. It applies when this call starts the
    JVM: a limit given to a process whose Spark already runs is refused."""
    try:
        from pyspark import SparkConf, SparkContext
        from pyspark.sql import SparkSession
    except ImportError as e:  # pragma: no cover - pyspark is a declared extra
        raise InputError('--engine spark needs pyspark: pip install "setanon-sql[spark]"') from e
    if memory_limit is not None and SparkContext._gateway is not None:
        raise ParamsError(
            "memory_limit sizes the Spark driver as it starts; this process's Spark already "
            "runs (stop it first)"
        )
    settings = settings_for(master, warehouse, app, config, memory_limit)
    start_gateway(SparkConf(loadDefaults=False).setAll(list(settings.items())), master)
    builder = SparkSession.builder
    for key, value in settings.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("OFF" if not debugging() else "ERROR")
    return spark


def settings_for(
    master: str,
    warehouse: str | Path | None = None,
    app: str = "setanon-sql",
    config: Mapping[str, str] | None = None,
    memory_limit: str | None = None,
) -> dict[str, str]:
    """The settings `session` starts Spark with (see there).

    Example:
        >>> settings_for("local[2]", memory_limit="3GB")["spark.driver.memory"]
        '2861m'
    """
    settings = {
        "spark.master": master,
        "spark.app.name": app,
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.sql.sources.default": "parquet",
        "spark.sql.constraintPropagation.enabled": "false",
        # plans fixed when made: every shuffle makes exactly spark.sql.shuffle.partitions
        # parts, so the tid-keyed tables stay co-partitioned (spark_memory), and the cached
        # tables' real sizes decide broadcasts up front
        "spark.sql.adaptive.enabled": "false",
        # a join of two tables partitioned alike builds a hash table of the smaller side
        # instead of sorting both
        "spark.sql.join.preferSortMergeJoin": "false",
        **(LOOPBACK if on_loopback(master) else {}),
        "spark.driver.memory": driver_memory(memory_limit),
    }
    if warehouse is not None:
        settings["spark.sql.warehouse.dir"] = str(Path(warehouse).resolve())
    if not debugging():
        settings["spark.driver.extraJavaOptions"] = (
            f"-Dlog4j2.configurationFile={LOG_CONFIG.as_uri()}"
        )
    settings.update(config or {})
    return settings


def driver_memory(memory_limit: str | None) -> str:
    """The driver's heap as the JVM takes it (`2861m`): `memory_limit` in DuckDB's units
    (checked as DuckDB's is), or DuckDB's default share of the machine's memory.

    Example:
        >>> driver_memory("512MiB"), driver_memory("1GB")
        ('512m', '953m')
    """
    if memory_limit is None:
        memory_limit = limits.default_memory_limit() or "1GiB"
    size = limits.check_memory_limit(memory_limit) or 0.0
    if not math.isfinite(size):  # a share of a machine that does not say its memory
        size = limits.MIN_BYTES
    if size < DRIVER_MIN:
        raise ParamsError(
            f"--memory-limit {memory_limit!r} is below the {limits.mib(DRIVER_MIN)} Spark's "
            "driver needs to start"
        )
    return f"{int(size) >> 20}m"


DRIVER_MIN = 512 << 20  # Spark refuses a driver under 450 MiB ("System memory ... must be")


# how the JVM and Spark say memory ran out (SparkOutOfMemoryError [UNABLE_TO_ACQUIRE_MEMORY],
# java.lang.OutOfMemoryError: Java heap space / GC overhead limit exceeded)
OUT_OF_MEMORY = ("OutOfMemoryError", "UNABLE_TO_ACQUIRE_MEMORY", "Java heap space",
                 "GC overhead limit exceeded")  # fmt: skip


def out_of_memory(e: BaseException, memory: str | None) -> ResourceError | None:
    """Spark's out-of-memory error as the machine's (exit 5, one line naming the driver's
    memory and the flag that sets it), or None for any other error. Spark wraps it in a job
    failure whose message holds the task's stack; only its marker is looked for.

    Example:
        >>> out_of_memory(RuntimeError("[UNABLE_TO_ACQUIRE_MEMORY] Unable to acquire"), "953m")
        ResourceError('Spark ran out of memory (its driver has 953m): give --memory-limit a larger size, or run on --engine duckdb, which spills to disk')
        >>> out_of_memory(RuntimeError("[TABLE_OR_VIEW_NOT_FOUND]"), "953m") is None
        True
    """
    text = str(e)
    if not any(marker in text for marker in OUT_OF_MEMORY):
        return None
    has = f" (its driver has {memory})" if memory else ""
    return ResourceError(
        f"Spark ran out of memory{has}: give --memory-limit a larger size, or run on --engine "
        "duckdb, which spills to disk"
    )


LOG_CONFIG = Path(__file__).with_name("spark_log4j2.properties")


def debugging() -> bool:
    """Whether Spark may say what it says by default (`--debug` sets SETANON_DEBUG): its
    start-up lines and warnings; otherwise the driver logs errors only."""
    import os

    return os.environ.get("SETANON_DEBUG", "") not in ("", "0")


# Every listening socket of a local Spark on the loopback address: the driver's RPC and block
# manager (bind and advertised address), and through SPARK_LOCAL_IP what a JVM would otherwise
# pick from the machine's interfaces ("hostname resolves to a loopback address ... using
# 192.0.2.2 instead").
LOOPBACK = {"spark.driver.bindAddress": "127.0.0.1", "spark.driver.host": "127.0.0.1"}


def on_loopback(master: str) -> bool:
    """Whether every Spark process runs on this machine: a local master, or a cluster whose
    master listens on the loopback address (as the tests' standalone cluster does). A real
    cluster's executors must reach the driver, so it is left to the cluster's configuration.

    Example:
        >>> [on_loopback(m) for m in ("local[2]", "spark://127.0.0.1:7077", "spark://h:7077")]
        [True, True, False]
    """
    if master == "local" or master.startswith(("local[", "local-cluster[")):
        return True
    host = master.split("://", 1)[-1].split(":", 1)[0]
    return host in ("127.0.0.1", "localhost")


def start_gateway(conf: Any, master: str) -> None:
    """Start the driver's JVM as PySpark does (`spark-submit`, with the session's settings),
    unless this process has one, but in a process session of its own: a Ctrl-C or SIGTERM sent
    to our process group (a terminal, `timeout`, a scheduler) then reaches only Python, whose
    handlers cancel the Spark jobs and clean up (`interrupts`) while the JVM still answers.
    PySpark only makes the JVM ignore SIGINT; SIGTERM killed it first, and the run ended in
    "ConnectionRefusedError" with its database left behind. The JVM still ends with us: it
    exits when its standard input, a pipe from this process, closes."""
    import os

    from pyspark import SparkContext
    from pyspark.java_gateway import launch_gateway

    if SparkContext._gateway is not None:
        return
    loopback = on_loopback(master) and "SPARK_LOCAL_IP" not in os.environ
    if loopback:  # read by the JVM at start; launch_gateway copies our environment
        os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    try:
        gateway = launch_gateway(conf, popen_kwargs={"start_new_session": True})
    finally:
        if loopback:
            del os.environ["SPARK_LOCAL_IP"]
    SparkContext._ensure_initialized(gateway=gateway)


def shuffle_partitions(rows: int, cores: int) -> int:
    """Shuffle partitions for data of `rows` rows on `cores` cores: one per 2 million rows, a
    multiple of the cores and at least one per core (Spark's default of 200 is sized for a
    cluster: on small data each partition is a task's fixed cost for a few rows).

    Example:
        >>> shuffle_partitions(300_000, 2), shuffle_partitions(7_000_000, 2)
        (2, 4)
    """
    wanted = max(1, -(-rows // 2_000_000))
    return min(4000, -(-wanted // max(cores, 1)) * max(cores, 1))
