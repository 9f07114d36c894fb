"""Spark is given memory and its running out of it is said as the machine's: the driver's JVM
gets `--memory-limit` (or the share DuckDB gets by default; Spark's own 1 GiB ran a Partition
of 10^6 transactions out of memory after 4 minutes), a size it cannot start with is refused
before a JVM starts, and Spark's out-of-memory errors are exit 5 in one line, not "internal
error" with Java's stack."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers.cli import cli

from setanon_sql.engine import limits
from setanon_sql.engine.spark_session import driver_memory, out_of_memory, settings_for
from setanon_sql.errors import ExitCode, ParamsError, ResourceError

# the first line of the error of the 10^6 run (Spark 3.5, local[2], 1 GiB driver)
SPARK_OOM = (
    "An error occurred while calling o1234.collectToPython.\n: org.apache.spark.SparkException: "
    "Job aborted due to stage failure: Task 1 in stage 57.0 failed 1 times, most recent "
    "failure: Lost task 1.0 in stage 57.0 (TID 201) (127.0.0.1 executor driver): "
    "org.apache.spark.memory.SparkOutOfMemoryError: [UNABLE_TO_ACQUIRE_MEMORY] Unable to "
    "acquire 65536 bytes of memory, got 0.\n\tat org.apache.spark.memory.MemoryConsumer"
)


def test_the_driver_gets_the_memory_limit_or_duckdbs_default(monkeypatch) -> None:
    assert settings_for("local[2]", memory_limit="2GiB")["spark.driver.memory"] == "2048m"
    assert settings_for("local[2]", memory_limit="3GB")["spark.driver.memory"] == "2861m"
    # half the memory available, as DuckDB's default (a machine with 12 GiB free)
    monkeypatch.setattr(limits, "physical_memory", lambda: 24 << 30)
    monkeypatch.setattr(limits, "available_memory", lambda: 12 << 30)
    assert settings_for("local[2]")["spark.driver.memory"] == "6144m"
    with pytest.raises(ParamsError, match="Spark's driver needs to start"):
        driver_memory("100MB")


def test_out_of_memory_is_the_machines_in_one_line() -> None:
    e = out_of_memory(RuntimeError(SPARK_OOM), "953m")
    assert isinstance(e, ResourceError) and e.exit_code == ExitCode.RESOURCES
    assert len(str(e).splitlines()) == 1 and "953m" in str(e) and "--memory-limit" in str(e)
    heap = RuntimeError("java.lang.OutOfMemoryError: Java heap space")
    assert isinstance(out_of_memory(heap, None), ResourceError)
    assert out_of_memory(RuntimeError("[TABLE_OR_VIEW_NOT_FOUND] no table x"), "1g") is None


def test_a_driver_memory_spark_cannot_start_with_is_refused_before_a_jvm(tmp_path) -> None:
    path = tmp_path / "tx.parquet"
    pq.write_table(pa.table({"tid": [1, 1, 2], "item": ["a", "b", "a"]}), path)
    r = cli("anonymize", path, "--fanout", 2, "-a", "partition", "-k", 2, "--engine", "spark",
            "--memory-limit", "100MB", "-q")  # fmt: skip
    assert r.code == ExitCode.USAGE, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "--memory-limit" in r.stderr
    r = cli("anonymize", path, "--fanout", 2, "-a", "partition", "-k", 2, "--engine", "spark",
            "--memory-limit", "lots", "-q")  # fmt: skip
    assert r.code == ExitCode.USAGE and "not a size" in r.stderr, r.stderr


class _Conf:
    def get(self, key: str) -> str:
        assert key == "spark.driver.memory"
        return "953m"


class _Session:
    """As much of a SparkSession as the executor's error handling reads."""

    class sparkContext:  # noqa: N801 - the attribute's name in PySpark
        @staticmethod
        def getConf() -> _Conf:
            return _Conf()


def test_the_executor_says_spark_out_of_memory_as_the_machines() -> None:
    from types import SimpleNamespace

    from setanon_sql.engine.spark import SparkExecutor

    ex = SimpleNamespace(spark=_Session())
    said = r"Spark ran out of memory \(its driver has 953m\)"
    with pytest.raises(ResourceError, match=said), SparkExecutor.interruptible(ex):
        raise RuntimeError(SPARK_OOM)
    other = "TABLE_OR_VIEW_NOT_FOUND"
    with pytest.raises(RuntimeError, match=other), SparkExecutor.interruptible(ex):
        raise RuntimeError(f"[{other}] no table x")
