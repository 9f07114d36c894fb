"""One front door for both engines (#43): `api.anonymize` runs the same steps on a DuckDB
`Store` and on a `SparkStore` (only the run's making differs), and what a run writes is decided
by the library from what was asked, checked before any work (before a JVM starts on Spark)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers.papers import AB_TREE, TABLE2_TX

from setanon_sql import api
from setanon_sql.algorithms import on_engine
from setanon_sql.errors import InfeasibleError, ParamsError
from setanon_sql.params import Params
from setanon_sql.store.hierarchy_spec import HierarchySpec
from setanon_sql.store.publish import RunOutputs
from setanon_sql.store.spark_release import check_outputs
from setanon_sql.store.spark_store import SparkSource


def write_parquet(path: Path, transactions: dict) -> Path:
    rows = [(tid, item) for tid, items in transactions.items() for item in items]
    pq.write_table(pa.table({"tid": [r[0] for r in rows], "item": [r[1] for r in rows]}), path)
    return path


SPEC = HierarchySpec(edges=tuple(AB_TREE))


def test_spark_runs_the_algorithms_of_one_list():
    assert on_engine("spark") == ("aa", "da", "partition")
    with pytest.raises(ParamsError, match="runs algorithm aa, da, partition only, not 'clump'"):
        api.open_spark(SparkSource(path="x.parquet"), SPEC, Params(algorithm="clump", k=2))


@pytest.mark.parametrize(
    ("asked", "message"),
    [
        (RunOutputs(path=Path("rel.csv")), "Parquet folder: --output X.parquet"),
        (RunOutputs(table=("main", "t")), "no --output-table or --files"),
        (RunOutputs(path=Path("rel.parquet"), folder="csv"), "no --output-table or --files"),
        (RunOutputs(path=Path("in.parquet")), "is not a Parquet folder Spark wrote"),
        (RunOutputs(sql_log=Path("in.parquet")), "in.parquet"),
    ],
)
def test_spark_outputs_are_refused_before_any_work(tmp_path, monkeypatch, asked, message):
    monkeypatch.chdir(tmp_path)
    write_parquet(tmp_path / "in.parquet", TABLE2_TX)
    with pytest.raises(ParamsError, match=message):
        check_outputs(asked, [tmp_path / "in.parquet"], replace=True)


def test_an_input_spark_wrote_is_never_a_release(tmp_path):
    """A Parquet folder Spark wrote may be replaced by a release, unless it is the input."""
    source = tmp_path / "in.parquet"
    source.mkdir()
    write_parquet(source / "part-0.parquet", TABLE2_TX)
    (source / "_SUCCESS").touch()
    with pytest.raises(ParamsError, match="names or holds an input"):
        check_outputs(RunOutputs(path=source), [source], replace=True)
    assert sorted(p.name for p in source.iterdir()) == ["_SUCCESS", "part-0.parquet"]


def test_a_folder_spark_did_not_write_is_refused(tmp_path):
    (tmp_path / "rel.parquet").mkdir()
    (tmp_path / "rel.parquet" / "notes.txt").write_text("mine")
    with pytest.raises(ParamsError, match="is not a Parquet folder Spark wrote"):
        check_outputs(RunOutputs(path=tmp_path / "rel.parquet"), [], replace=True)
    assert (tmp_path / "rel.parquet" / "notes.txt").read_text() == "mine"


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    from setanon_sql.engine.spark import session

    s = session("local[2]", warehouse=tmp_path_factory.mktemp("front-door-warehouse"))
    yield s
    s.stop()


def warehouse_of(spark) -> Path:
    return Path(spark.conf.get("spark.sql.warehouse.dir").removeprefix("file:"))


@pytest.mark.spark
def test_one_front_door_gives_the_same_release_on_both_engines(spark, tmp_path):
    source = write_parquet(tmp_path / "tx.parquet", TABLE2_TX)
    params = Params(algorithm="partition", k=2, run_name="door_run")
    store, _ = api.open_store(source, hierarchy_spec=SPEC)
    with store:
        duck = api.anonymize(store, params, outputs=RunOutputs(path=tmp_path / "duck.parquet"))
    asked = RunOutputs(path=tmp_path / "spark.parquet", sql_log=tmp_path / "spark.sql")
    on_spark, _ = api.open_spark(SparkSource(path=source), SPEC, params, spark=spark)
    with on_spark:
        result = api.anonymize(on_spark, params, outputs=asked, read=[source])
    assert result.run == duck.run == "door_run" and result.report.ok
    assert result.report.as_dict() | {"schema": None} == duck.report.as_dict() | {"schema": None}
    assert result.loss == pytest.approx(duck.loss)
    key = lambda r: (r["tid"], r["item"])  # noqa: E731 - Spark's folder holds parts
    rows = pq.read_table(tmp_path / "spark.parquet").to_pylist()
    assert sorted(rows, key=key) == sorted(
        pq.read_table(tmp_path / "duck.parquet").to_pylist(), key=key
    )
    assert "statement log of Spark run door_run" in (tmp_path / "spark.sql").read_text()
    folder = warehouse_of(spark)
    info = {
        r["key"]: r["value"] for r in pq.read_table(folder / "door_run.db" / "run_info").to_pylist()
    }
    assert info["engine"] == "spark" and info["algorithm"] == "partition" and info["k"] == "2"
    assert not [p.name for p in folder.iterdir() if p.name.startswith("setanon_")]


@pytest.mark.spark
def test_a_store_closed_or_failed_before_its_swap_leaves_nothing(spark, tmp_path):
    source = write_parquet(tmp_path / "tx.parquet", TABLE2_TX)
    folder = warehouse_of(spark)
    params = Params(algorithm="partition", k=2, run_name="left_run")
    store, _ = api.open_spark(SparkSource(path=source), SPEC, params, spark=spark)
    assert (folder / "setanon_staging__left_run.db").is_dir()
    store.close()
    too_big = Params(algorithm="partition", k=100, run_name="left_run")
    store, _ = api.open_spark(SparkSource(path=source), SPEC, too_big, spark=spark)
    with store, pytest.raises(InfeasibleError):
        api.anonymize(store, too_big, outputs=RunOutputs(path=tmp_path / "rel.parquet"))
    assert not [p.name for p in folder.iterdir() if "left_run" in p.name]
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith((".rel", "rel"))]
