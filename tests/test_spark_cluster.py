"""The Spark engine on a standalone cluster: a master and two workers, each its own JVM started
by this test with the `spark-class` that ships with pyspark, all bound to 127.0.0.1.

Partition and AA run there through the command line, as a user pointing `--spark-master` at a
cluster would: the driver is this process, the executors are JVMs the workers start, so every
shuffle crosses processes and nothing may rest on the driver's memory or files (the input and
the warehouse are on storage every process sees). Their releases must be DuckDB's, row for
row. Every JVM of the cluster listens on the loopback address only.
"""

from __future__ import annotations

import ipaddress
import os
import random
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers.cli import cli
from helpers.sockets import listening

from setanon_sql.engine.spark import session


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A standalone master and its workers, each a `spark-class` JVM of its own."""

    def __init__(self, folder: Path, workers: int) -> None:
        from pyspark.find_spark_home import _find_spark_home

        self.folder = folder
        folder.mkdir(parents=True)
        self.home = Path(_find_spark_home())
        self.port = free_port()
        self.url = f"spark://127.0.0.1:{self.port}"
        self.env = dict(os.environ, SPARK_HOME=str(self.home), SPARK_LOCAL_IP="127.0.0.1")
        self.procs: list[subprocess.Popen] = []
        self.logs: list[Path] = []
        self._start("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                    "--port", str(self.port), "--webui-port", str(free_port()))  # fmt: skip
        self._wait(self.logs[0], "I have been elected leader")
        for i in range(workers):
            work = folder / f"worker{i}"
            work.mkdir()
            self._start(f"worker{i}", "org.apache.spark.deploy.worker.Worker", "--host",
                        "127.0.0.1", "--cores", "1", "--memory", "1g", "--work-dir", str(work),
                        "--webui-port", str(free_port()), self.url)  # fmt: skip
        for log in self.logs[1:]:
            self._wait(log, "Successfully registered with master")

    def _start(self, name: str, main: str, *args: str) -> None:
        log = self.folder / f"{name}.log"
        with log.open("w") as out:
            self.procs.append(
                subprocess.Popen(
                    [str(self.home / "bin" / "spark-class"), main, *args],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=self.env,
                    start_new_session=True,
                )
            )
        self.logs.append(log)

    def _wait(self, log: Path, line: str, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while line not in log.read_text():
            assert all(p.poll() is None for p in self.procs), log.read_text()
            assert time.monotonic() < deadline, f"{log.name}: no {line!r}\n{log.read_text()}"
            time.sleep(0.3)

    def jvms(self) -> list[int]:
        """The master's and workers' JVMs (`spark-class` execs java) and the executors the
        workers started (their children running CoarseGrainedExecutorBackend)."""
        workers = {p.pid for p in self.procs[1:]}
        executors = []
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
                command = (proc / "cmdline").read_bytes()
            except (OSError, ValueError):
                continue
            if ppid in workers and b"CoarseGrainedExecutorBackend" in command:
                executors.append(int(proc.name))
        return [p.pid for p in self.procs] + executors

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    c = Cluster(tmp_path / "cluster", workers=2)
    try:
        yield c
    finally:
        c.stop()


def baskets(path: Path) -> None:
    """150 transactions over 27 items with a fan-out-3 tree (three levels): enough for Partition
    to split every level and AA to walk violations of pairs, small enough for CI."""
    r = random.Random(29)
    rows = [
        (tid, f"i{item}")
        for tid in range(150)
        for item in sorted({r.randint(0, 26) for _ in range(r.randint(1, 6))})
    ]
    pq.write_table(pa.table({"tid": [t for t, _ in rows], "item": [i for _, i in rows]}), path)


def released(path: Path) -> list[tuple[str, str]]:
    return sorted((str(r["tid"]), r["item"]) for r in pq.read_table(path).to_pylist())


def test_partition_and_aa_on_a_standalone_cluster(tmp_path, cluster):
    data = tmp_path / "baskets.parquet"
    baskets(data)
    warehouse = tmp_path / "warehouse"
    spark = session(cluster.url, warehouse=warehouse, config={"spark.executor.memory": "512m"})
    try:
        assert spark.sparkContext.master == cluster.url
        for algorithm, extra in (("partition", []), ("aa", ["-m", "2"])):
            common = [data, "--fanout", "3", "-a", algorithm, "-k", "5", *extra]
            on_spark = tmp_path / f"{algorithm}-spark.parquet"
            out = cli("anonymize", *common, "--engine", "spark", "--spark-master", cluster.url,
                      "--run", f"cluster_{algorithm}", "-o", on_spark, "--json")  # fmt: skip
            assert out.code == 0, out.stderr
            assert out.json()["verified"] is True
            on_duck = tmp_path / f"{algorithm}-duck.parquet"
            ref = cli("anonymize", *common, "-o", on_duck, "--json")
            assert ref.code == 0, ref.stderr
            assert released(on_spark) == released(on_duck)
            assert out.json()["ncp"] == pytest.approx(ref.json()["ncp"], abs=1e-12)
            assert (warehouse / f"cluster_{algorithm}.db" / "release").is_dir()
        executors = spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1
        assert executors == 2  # the work ran on both workers' executors
        jvms = [spark.sparkContext._jvm.ProcessHandle.current().pid(), *cluster.jvms()]
        assert len(jvms) == 1 + 3 + 2  # driver, master, workers, executors
        for pid in jvms:
            addresses = listening(pid)
            assert addresses, f"JVM {pid} listens on nothing"
            assert all(ipaddress.ip_address(a).is_loopback for a in addresses), (pid, addresses)
    finally:
        spark.stop()
