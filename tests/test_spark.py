"""The Spark engine: the same statements and drivers on a Spark session (`local[2]`).

One Spark session serves the whole module (starting the JVM costs seconds). Each case loads
the same Parquet file on DuckDB and on Spark: Partition's releases must be identical, row for
row, both must pass the verifier, and the verifier's verdicts on random releases must agree.
"""

from __future__ import annotations

import itertools
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli_helpers import EX, cli, interrupt
from conftest import AB_TREE, TABLE2_TX
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import databases

from setanon_sql import api
from setanon_sql.algorithms import partition_tail
from setanon_sql.engine import sqlfiles
from setanon_sql.engine.log import Rows
from setanon_sql.engine.spark import SparkExecutor, session, to_spark
from setanon_sql.measure.verify import verify
from setanon_sql.params import Params
from setanon_sql.spark_run import SparkSource, SparkStore, load
from setanon_sql.spark_run import anonymize as spark_anonymize
from setanon_sql.store.hierarchy_spec import HierarchySpec

_names = itertools.count(1)


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    s = session("local[2]", warehouse=tmp_path_factory.mktemp("spark-warehouse"))
    yield s
    s.stop()


def write_parquet(folder: Path, transactions: dict | list) -> Path:
    """Long (tid, item) Parquet of the transactions; list positions become integer tids."""
    pairs = transactions.items() if isinstance(transactions, dict) else enumerate(transactions)
    rows = [(tid, item) for tid, items in pairs for item in items]
    path = folder / f"tx{next(_names)}.parquet"
    pq.write_table(pa.table({"tid": [r[0] for r in rows], "item": [r[1] for r in rows]}), path)
    return path


def spark_store(spark, path: Path, edges) -> SparkStore:
    store = SparkStore(SparkExecutor(spark, f"t_run{next(_names)}"))
    load(store, SparkSource(path=path), HierarchySpec(edges=tuple(edges)))
    return store


def duck_release(path: Path, edges, params: Params) -> tuple[list[tuple], api.Result]:
    store, _ = api.open_store(path, hierarchy_spec=HierarchySpec(edges=tuple(edges)))
    with store:
        result = api.anonymize(store, params)
        with store.in_run(result.run):
            return store.run("release_labelled").rows, result


def spark_release(spark, path: Path, edges, params: Params) -> tuple[list[tuple], api.Result]:
    store = spark_store(spark, path, edges)
    try:
        result = spark_anonymize(store, params)
        return store.run("release_labelled").rows, result
    finally:
        store.ex.drop_database()


def assert_same_release(spark, path: Path, edges, params: Params) -> None:
    duck, d = duck_release(path, edges, params)
    on_spark, s = spark_release(spark, path, edges, params)
    assert d.report.ok and s.report.ok
    assert s.report.as_dict() | {"schema": None} == d.report.as_dict() | {"schema": None}
    assert [tuple(map(str, r)) for r in on_spark] == [tuple(map(str, r)) for r in duck]
    assert s.loss["ncp"] == pytest.approx(d.loss["ncp"], abs=1e-12)
    assert s.loss["suppressed"] == d.loss["suppressed"]


@pytest.mark.parametrize("order", ["support", "id"])
def test_fanout_builder_builds_the_duckdb_tree(spark, tmp_path, order):
    """The --fanout builder's statements (sql/hierarchy_build.sql) on Spark: the same tree as
    on DuckDB, with signed, zero-padded and long integers and labels that clash with built
    names."""
    big = "1" + "0" * 30
    items = ["-12", "-3", "007", "7", "9", big, "x", "7,9", "*", "a,b", "b", "a", "-"]
    txs = [items[: 3 + i % len(items)] for i in range(20)]
    path = write_parquet(tmp_path, txs)
    spec = HierarchySpec(fanout=3, order=order)
    store = SparkStore(SparkExecutor(spark, f"t_run{next(_names)}"))
    try:
        load(store, SparkSource(path=path), spec)
        on_spark = spec.build(store)
    finally:
        store.ex.drop_database()
    duck, _ = api.open_store(path, hierarchy_spec=spec)
    with duck:
        assert sorted(on_spark.edges()) == sorted(spec.build(duck).edges())


def test_statements_bind_parameters_as_literals_not_text():
    """A value that looks like SQL stays a string literal; DuckDB-only DDL is rewritten."""
    (text,) = to_spark("SELECT * FROM t WHERE label = $v", {"v": "x' OR '1'='1"})
    assert text.endswith("label = 'x\\' OR \\'1\\'=\\'1'")
    steps = to_spark("CREATE OR REPLACE TABLE t AS SELECT 1::UBIGINT << 2 AS b FROM t")
    assert steps[0].startswith("DROP TABLE IF EXISTS") and steps[-1].startswith("ALTER TABLE")
    assert "UBIGINT" not in " ".join(steps)


def test_spark_variants_sit_next_to_their_statement():
    for name in ("source_check", "k_anonymity_classes", "partition_final"):
        variant = sqlfiles.statement(name, "spark")
        assert variant.name == f"{name}:spark"
        assert variant.file == sqlfiles.statement(name).file
        assert variant.sql != sqlfiles.statement(name).sql


@pytest.mark.parametrize("tail", [0, partition_tail.TAIL_ROWS])
def test_paper_example_same_release(spark, tmp_path, tail, monkeypatch):
    """He & Naughton's Table 2, k=2: through the SQL rounds (tail 0) and the Python tail."""
    edges = [("A", "ALL"), ("B", "ALL"), ("a1", "A"), ("a2", "A"), ("b1", "B"), ("b2", "B")]
    monkeypatch.setattr(partition_tail, "TAIL_ROWS", tail)
    path = write_parquet(tmp_path, TABLE2_TX)
    assert_same_release(spark, path, edges, Params(algorithm="partition", k=2))


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    db=databases(max_leaves=9, max_tx=14, max_len=4),
    k=st.integers(1, 3),
    leftover=st.sampled_from(["split", "final"]),
)
def test_random_same_release(spark, tmp_path_factory, db, k, leftover):
    """Random data and trees, the SQL rounds all the way on both engines (no Python tail)."""
    txs, edges = db
    k = min(k, len(txs))
    path = write_parquet(tmp_path_factory.mktemp("rand"), txs)
    before = partition_tail.TAIL_ROWS
    partition_tail.TAIL_ROWS = 0
    try:
        params = Params(algorithm="partition", k=k, options={"leftover": leftover})
        assert_same_release(spark, path, edges, params)
    finally:
        partition_tail.TAIL_ROWS = before


def random_release(txs: list[list[str]], edges, rnd: random.Random) -> list[tuple[int, str]]:
    """Each item kept, generalized to a random ancestor, dropped, or (rarely) replaced by an
    unrelated node: releases that pass and fail each check."""
    parent = dict(edges)
    nodes = sorted(set(parent) | set(parent.values()))
    out = set()
    for tid, items in enumerate(txs):
        for item in items:
            roll = rnd.random()
            if roll < 0.1:
                continue
            if roll < 0.15:
                out.add((tid, rnd.choice(nodes)))
                continue
            node = item
            while node in parent and rnd.random() < 0.5:
                node = parent[node]
            out.add((tid, node))
    return sorted(out)


def put_release(store, ids: dict[str, int], release: list[tuple[int, str]]) -> None:
    store.put_rows(
        "release",
        Rows(
            {
                "tid": ("BIGINT", [t for t, _ in release]),
                "node": ("INTEGER", [ids[n] for _, n in release]),
            }
        ),
    )


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(db=databases(max_leaves=8, max_tx=12, max_len=4), seed=st.integers(0, 10**6))
def test_verifier_verdicts_agree(spark, tmp_path_factory, db, seed):
    """The k and k^m verdicts (and their counts) on random releases, DuckDB against Spark."""
    txs, edges = db
    path = write_parquet(tmp_path_factory.mktemp("verify"), txs)
    duck, _ = api.open_store(path, hierarchy_spec=HierarchySpec(edges=tuple(edges)))
    on_spark = spark_store(spark, path, edges)
    ids = dict(duck.query("SELECT label, id FROM node"))
    rnd = random.Random(seed)
    try:
        for _ in range(3):
            release = random_release(txs, edges, rnd)
            put_release(on_spark, ids, release)
            k, m = rnd.randint(1, 3), rnd.randint(1, 3)
            with duck.scratch():
                put_release(duck, ids, release)
                expect = [
                    verify(duck, k=k, model="k").as_dict(),
                    verify(duck, k=k, model="km", m=m).as_dict(),
                ]
            got = [
                verify(on_spark, k=k, model="k").as_dict(),  # type: ignore[arg-type]
                verify(on_spark, k=k, model="km", m=m).as_dict(),  # type: ignore[arg-type]
            ]
            for g, e in zip(got, expect, strict=True):
                assert g | {"schema": None} == e | {"schema": None}
    finally:
        duck.close()
        on_spark.ex.drop_database()


def test_cli_end_to_end(spark, tmp_path):
    """`anonymize --engine spark` writes the DuckDB release, verified; misuse exits 2."""
    path = write_parquet(tmp_path, TABLE2_TX)
    tree = tmp_path / "tree.csv"
    tree.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in AB_TREE))
    common = [path, "-H", tree, "-a", "partition", "-k", "2"]
    out = cli("anonymize", *common, "--engine", "spark", "--run", "cli_run",
              "-o", tmp_path / "spark.parquet", "--json")  # fmt: skip
    assert out.code == 0, out.stderr
    assert out.json()["verified"] is True and out.json()["engine"] == "spark"
    ref = cli("anonymize", *common, "-o", tmp_path / "duck.parquet", "--json")
    assert ref.code == 0, ref.stderr
    assert out.json()["ncp"] == pytest.approx(ref.json()["ncp"])
    on_spark = pq.read_table(tmp_path / "spark.parquet").to_pylist()
    on_duck = pq.read_table(tmp_path / "duck.parquet").to_pylist()
    key = lambda r: (r["tid"], r["item"])  # noqa: E731 - Spark's folder holds parts
    assert sorted(on_spark, key=key) == sorted(on_duck, key=key)
    again = cli("anonymize", *common, "--engine", "spark", "--run", "cli_run")
    assert again.code == 3 and "exists" in again.stderr
    other = cli("anonymize", *common[:-4], "-a", "aa", "-m", "2", "-k", "2", "--engine", "spark")
    assert other.code == 2
    assert other.stderr.strip() == "error: --engine spark runs algorithm partition only, not 'aa'"
    with_db = cli("anonymize", *common, "--engine", "spark", "--db", tmp_path / "x.duckdb")
    assert with_db.code == 2 and "--db" in with_db.stderr


@pytest.mark.parametrize(
    ("value", "shown"),
    [("{'a': 'x'}", "struct<a:string>"), ("[{'a': 'x'}]", "array<struct<a:string>>")],
)
def test_a_nested_item_column_is_refused_on_spark(spark, tmp_path, value, shown):
    """Issue 26, item 10: cast to text, a STRUCT would be anonymized as one string."""
    path = tmp_path / "nested.parquet"
    duckdb.connect().execute(
        f"COPY (SELECT range AS tid, {value} AS item FROM range(3)) TO ? (FORMAT parquet)",
        [str(path)],
    )
    out = cli("anonymize", path, "--fanout", "2", "-a", "partition", "-k", "1",
              "--engine", "spark", "--run", "nested_run")  # fmt: skip
    assert out.code == 3
    assert out.stderr.strip() == (
        f"error: {path}: column 'item' has nested type {shown}; an item column must be a "
        "scalar (text, number, date...) or a list of scalars"
    )


def test_examples_fig2_from_a_spark_table_with_a_list_column(spark, tmp_path):
    """The bundled example as a Spark table of one row per transaction (items in an array
    column), against DuckDB reading it as long Parquet: Fig. 2 with its hierarchy file, k=2."""
    import csv

    txs: dict[str, list[str]] = {}
    for r in csv.DictReader((EX / "fig2.csv").open()):
        txs.setdefault(r["tid"], []).append(r["item"])
    edges = [tuple(r.values()) for r in csv.DictReader((EX / "fig2_hierarchy.csv").open())]
    params = Params(algorithm="partition", k=2)
    duck, d = duck_release(write_parquet(tmp_path, txs), edges, params)
    frame = spark.createDataFrame(list(txs.items()), "tid STRING, items ARRAY<STRING>")
    frame.write.saveAsTable("default.fig2_baskets")
    store = SparkStore(SparkExecutor(spark, f"t_run{next(_names)}"))
    try:
        source = SparkSource(table="default.fig2_baskets", item_col="items")
        load(store, source, HierarchySpec(edges=tuple(edges)))
        result = spark_anonymize(store, params)
        assert result.report.ok and d.report.ok
        assert store.run("release_labelled").rows == duck
    finally:
        store.ex.drop_database()
        spark.sql("DROP TABLE default.fig2_baskets")


def test_keep_intermediate_tables_and_the_sql_log(spark, tmp_path):
    """`--keep-intermediate` on Spark keeps what DuckDB keeps, as Parquet tables an analyst can
    read without Spark; the round tables (held in memory while the run ran) are among them.
    `setanon sql --run RUN --spark-warehouse DIR` prints the run's statements as Spark SQL and
    says in one line that replay is DuckDB-only."""
    from setanon_sql.engine.spark import database_folder

    path = write_parquet(tmp_path, TABLE2_TX)
    tree = tmp_path / "tree.csv"
    tree.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in AB_TREE))
    common = [path, "-H", tree, "-a", "partition", "-k", "2", "--keep-intermediate"]
    out = cli("anonymize", *common, "--engine", "spark", "--run", "kept_run", "--json")
    assert out.code == 0, out.stderr
    db = tmp_path / "kept.duckdb"
    ref = cli("anonymize", *common, "--db", db, "--run", "kept_run", "--json")
    assert ref.code == 0, ref.stderr
    con = duckdb.connect(str(db), read_only=True)
    try:
        names = con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'kept_run'"
        ).fetchall()
    finally:
        con.close()
    kept = {t for (t,) in names}
    folder = database_folder(spark, "kept_run")
    assert folder is not None
    on_spark = {t.name for t in spark.catalog.listTables("kept_run")}
    assert {p.name for p in folder.iterdir() if p.is_dir()} == on_spark
    assert {"partition_bucket", "partition_outcome", "partition_gain_log"} <= on_spark
    assert kept - {"sql_log"} <= on_spark, kept - on_spark
    assert not [t for t in spark.catalog.listTables() if t.isTemporary]  # nothing left in memory
    gains = pq.read_table(folder / "partition_gain_log").to_pylist()
    assert gains and {"level"} <= gains[0].keys()
    assert (
        spark.table("kept_run.partition_tree").count()
        == pq.read_table(folder / "partition_tree").num_rows
    )

    script = cli("sql", "--run", "kept_run", "--spark-warehouse", folder.parent)
    assert script.code == 0, script.stderr
    assert script.stdout.startswith("-- setanon-sql: statement log of Spark run kept_run")
    assert (
        "partition_outcome" in script.stdout and "CREATE OR REPLACE TEMPORARY VIEW" in script.stdout
    )
    assert script.stderr.strip() == (
        "note: kept_run ran on Spark; this is its log, replay is DuckDB-only"
    )
    runs = cli("runs", "--spark-warehouse", folder.parent, "--json")
    assert runs.code == 0, runs.stderr
    (listed,) = [r for r in runs.json() if r["name"] == "kept_run"]
    assert listed["algorithm"] == "partition" and listed["engine"] == "spark"
    assert set(listed["tables"]) == on_spark
    missing = cli("sql", "--run", "no_such_run", "--spark-warehouse", folder.parent)
    assert missing.code == 3 and "no Spark run 'no_such_run'" in missing.stderr
    spark.sql("DROP DATABASE kept_run CASCADE")


def jvms_of(warehouse: Path) -> list[int]:
    """Processes whose command line names this warehouse (the JVM a run started)."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and str(warehouse) in (proc / "cmdline").read_text():
                pids.append(int(proc.name))
        except OSError:
            continue
    return pids


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_mid_run_leaves_nothing_on_spark(tmp_path, sig, code):
    """Ctrl-C and SIGTERM stop a Spark run as they stop a DuckDB one: exit 130 / 143 with one
    line, no release (nor its temporary folder), no run database, no JVM left running."""
    r = random.Random(7)
    txs = [[f"i{r.randint(0, 3000)}" for _ in range(r.randint(3, 12))] for _ in range(20_000)]
    path = write_parquet(tmp_path, txs)
    warehouse = tmp_path / "warehouse"
    out = tmp_path / "rel.parquet"
    cmd = [sys.executable, "-m", "setanon_sql", "anonymize", str(path), "--fanout", "4",
           "-a", "partition", "-k", "10", "--engine", "spark", "--run", "sig_run",
           "--spark-warehouse", str(warehouse), "-o", str(out), "-q"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (warehouse / "sig_run.db").exists() and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)
    time.sleep(3)  # into the load and the rounds
    interrupt(proc, sig, code)
    assert not out.exists()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".rel.parquet")]
    assert not (warehouse / "sig_run.db").exists()
    time.sleep(2)
    assert jvms_of(warehouse) == []
