"""Issue 11: the tool is safe inside the user's own DuckDB file. One test per defect found
(each through the command line, with its exit code), exact ids and labels, replayable runs."""

from __future__ import annotations

import csv
import json

import duckdb
import pytest
from helpers.cli import EX, cli, fig2
from helpers.user_files import user_db, user_objects

from setanon_sql.errors import ExitCode

FIG2 = EX / "fig2.csv"
FIG2_H = EX / "fig2_hierarchy.csv"


# -- 1. --run naming a user's schema, even with --replace ------------------------------------------
def test_1_replace_never_drops_a_user_schema(tmp_path):
    db = user_db(tmp_path / "shop.duckdb")
    before = user_objects(db)
    r = fig2("anonymize", "-a", "aa", "--k", 2, "--m", 2, "--db", db, "--run", "sales", "--replace")
    assert r.code == ExitCode.USAGE and "did not create" in r.stderr
    r = fig2("anonymize", "-a", "aa", "--k", 2, "--m", 2, "--db", db, "--run", "customers")
    assert r.code == ExitCode.USAGE
    assert user_objects(db) == before


# -- 2. a second input is a second dataset; a run keeps its own ----------------------------------------
def test_2_two_inputs_live_side_by_side_and_runs_keep_their_dataset(tmp_path):
    db = tmp_path / "w.duckdb"
    first = fig2("anonymize", "-a", "partition", "--k", 2, "--db", db, "--json", "-q").json()
    other = tmp_path / "other.csv"
    other.write_text("tid,item\n1,a1\n2,a1\n3,b1\n3,a2\n4,b2\n")
    r = cli("anonymize", other, "-H", FIG2_H, "-a", "partition", "--k", 2, "--db", db, "--json")
    assert r.code == 0, r.stderr
    datasets = cli("datasets", "--db", db, "--json").json()
    assert len(datasets) == 2
    again = cli("metrics", "--db", db, "--run", first["run"], "--json").json()
    assert again["ncp"] == pytest.approx(first["ncp"])
    assert cli("verify", "--db", db, "--run", first["run"]).code == 0
    # the same source again reuses its dataset
    fig2("load", "--db", db)
    assert len(cli("datasets", "--db", db, "--json").json()) == 2


# -- 3. ids are kept exactly ----------------------------------------------------------------------
def test_3_zero_padded_ids_stay_distinct_and_verify(tmp_path):
    src = tmp_path / "ids.csv"
    src.write_text("tid,item\n01,a1\n1,a1\n001,a1\n01,b1\n1,b1\n001,b2\n")
    out = tmp_path / "rel.csv"
    r = cli("anonymize", src, "-H", FIG2_H, "-a", "aa", "--k", 2, "--m", 2, "-o", out, "--json")
    assert r.code == 0, r.stderr
    with out.open() as f:
        tids = {row["tid"] for row in csv.DictReader(f)}
    assert tids == {"01", "1", "001"}
    r = cli("verify", src, "-H", FIG2_H, "--k", 2, "--m", 2, "-r", out)
    assert r.code == 0, r.stdout + r.stderr


# -- 4. and 5. outputs checked before any work ------------------------------------------------------------
def test_4_output_naming_the_input_is_refused(tmp_path):
    src = tmp_path / "in.csv"
    src.write_bytes(FIG2.read_bytes())
    r = cli("anonymize", src, "-H", FIG2_H, "-a", "aa", "--k", 2, "--m", 2, "-o", src)
    assert r.code == ExitCode.USAGE and "names an input" in r.stderr
    assert src.read_bytes() == FIG2.read_bytes()
    db = tmp_path / "w.duckdb"
    r = fig2("anonymize", "--db", db, "-a", "aa", "--k", 2, "--m", 2, "-o", tmp_path / "w.duckdb")
    assert r.code == ExitCode.USAGE


def test_5_unwritable_output_is_refused_before_the_run(tmp_path):
    db = tmp_path / "w.duckdb"
    r = fig2("anonymize", "-a", "aa", "--k", 2, "--m", 2, "--db", db, "-o", tmp_path / "no/r.csv")
    assert r.code == ExitCode.USAGE and "does not exist" in r.stderr
    assert not db.exists()
    r = fig2("anonymize", "-a", "aa", "--k", 2, "--m", 2, "-o", tmp_path / "r.txt")
    assert r.code == ExitCode.USAGE and "csv, parquet" in r.stderr


# -- 6. typed options ----------------------------------------------------------------------------------------
def test_6_unknown_or_ill_typed_option_lists_the_valid_keys():
    r = fig2("anonymize", "-a", "clump", "--k", 2, "--option", "nonsense=1")
    assert (
        r.code == ExitCode.USAGE
        and "valid keys: method, passes, span, outs, reach, batch, keep" in r.stderr
    )
    r = fig2("anonymize", "-a", "clump", "--k", 2, "--option", "reach=many")
    assert r.code == ExitCode.USAGE and "whole number" in r.stderr


# -- 7. and 8. inspection never creates a database; --db must be DuckDB ------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ("runs",),
        ("datasets",),
        ("metrics", "--run", "x"),
        ("verify", "--run", "x"),
        ("sql", "--run", "x"),
    ],
)
def test_7_inspection_of_a_missing_db_fails_and_creates_nothing(tmp_path, args):
    db = tmp_path / "typo.duckdb"
    r = cli(*args, "--db", db)
    assert r.code == ExitCode.INPUT and "no DuckDB database" in r.stderr
    assert not db.exists()


def test_8_a_db_that_is_not_duckdb_is_refused(tmp_path):
    not_db = tmp_path / "data.csv"
    not_db.write_bytes(FIG2.read_bytes())
    r = fig2("anonymize", "-a", "aa", "--k", 2, "--m", 2, "--db", not_db)
    assert r.code == ExitCode.INPUT and "not a DuckDB" in r.stderr
    assert not_db.read_bytes() == FIG2.read_bytes()


# -- 9. --output-table --------------------------------------------------------------------------------------------
def test_9_output_table_needs_db_and_never_replaces_a_user_table(tmp_path):
    r = fig2("anonymize", "-a", "aa", "--k", 2, "--m", 2, "--output-table", "rel")
    assert r.code == ExitCode.USAGE and "needs --db" in r.stderr
    db = user_db(tmp_path / "shop.duckdb")
    before = user_objects(db)
    args = ("anonymize", "-a", "aa", "--k", 2, "--m", 2, "--db", db)
    r = fig2(*args, "--output-table", "main.customers", "--replace")
    assert r.code == ExitCode.USAGE and "not written by setanon-sql" in r.stderr
    assert fig2(*args, "--output-table", "sales.released", "--run", "r1").code == 0
    assert fig2(*args, "--output-table", "sales.released", "--run", "r2").code == ExitCode.USAGE
    assert fig2(*args, "--output-table", "sales.released", "--run", "r2", "--replace").code == 0
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM sales.released").fetchone()[0] == 10
    con.close()
    assert user_objects(db) == before


# -- 10. exit codes (signals: test_signals.py) ------------------------------------------------------------------
def test_10_k_larger_than_the_data_is_bad_input_not_a_bug():
    r = fig2("anonymize", "-a", "partition", "--k", 99)
    assert r.code == ExitCode.INPUT and "larger than the data" in r.stderr
    assert "Traceback" not in r.stderr


# -- 11. table names are identifiers -----------------------------------------------------------------------------
def test_11_quoted_and_qualified_table_names(tmp_path):
    src = tmp_path / "src.duckdb"
    con = duckdb.connect(str(src))
    con.execute('CREATE SCHEMA "o\'shop"')
    con.execute('CREATE TABLE "o\'shop"."o\'brien" AS SELECT * FROM read_csv(?)', [str(FIG2)])
    con.close()
    for table in ('"o\'shop"."o\'brien"', 'src."o\'shop"."o\'brien"'):
        r = cli("anonymize", src, "--table", table, "-H", FIG2_H, "-a", "aa", "-k", 2, "-m", 2)
        assert r.code == 0, r.stderr
    r = cli("anonymize", src, "--table", "other.main.t", "-H", FIG2_H, "-a", "aa", "-k", 2, "-m", 2)
    assert r.code == ExitCode.INPUT and "catalog" in r.stderr


# -- 12. the smaller ones ------------------------------------------------------------------------------------------
def test_12_lines_format_keeps_minus_one_tokens(tmp_path):
    src = tmp_path / "t.txt"
    src.write_text("a -1 b\na -1\n")
    db = tmp_path / "w.duckdb"
    r = cli("load", src, "--format", "lines", "--db", db, "--json")
    assert r.code == 0 and r.json()["items"] == 3
    r = cli("load", src, "--format", "spmf", "--db", db, "--json")
    assert r.code == 0 and r.json()["items"] == 2


def test_12_builder_labels_never_collide_with_items(tmp_path):
    src = tmp_path / "t.csv"
    src.write_text('tid,item\n1,*\n1,"a,b"\n2,a\n2,b\n3,*\n3,a\n')
    out = tmp_path / "h.csv"
    r = cli("hierarchy", "build", src, "--fanout", 2, "-o", out, "--json")
    assert r.code == 0, r.stderr
    assert r.json()["root"] == "* (2)"
    assert r.json()["leaves"] == 4
    assert cli("hierarchy", "check", out, "--data", src).code == 0


def test_12_hierarchy_errors_name_the_right_line(tmp_path):
    h = tmp_path / "h.csv"
    h.write_text("child,parent\n\na1,A\nb1,B,extra\n")
    r = cli("hierarchy", "check", h)
    assert r.code == ExitCode.INPUT and "line(s) [4]" in r.stderr


def test_12_verify_reads_a_per_transaction_release(tmp_path):
    for suffix in ("csv", "parquet"):
        out = tmp_path / f"rel.{suffix}"
        r = fig2("anonymize", "-a", "aa", "--k", 2, "--m", 2, "-o", out, "--per-transaction")
        assert r.code == 0, r.stderr
        r = fig2("verify", "--k", 2, "--m", 2, "-r", out, "--json")
        assert r.code == 0, r.stdout + r.stderr


def test_12_m_is_refused_by_transactional_algorithms_and_seed_is_gone():
    r = fig2("anonymize", "-a", "partition", "--k", 2, "--m", 2)
    assert r.code == ExitCode.USAGE and "takes no m" in r.stderr
    assert fig2("anonymize", "-a", "partition", "--k", 2, "--seed", 3).code == ExitCode.USAGE


def test_12_table_columns_must_match_the_file(tmp_path):
    src = tmp_path / "t.csv"
    src.write_text("1,a\n2,b\n")
    r = cli("anonymize-table", src, "--columns", "x,y,z", "--qi", "x", "-t", "x=suppress", "--k", 2)
    assert r.code == ExitCode.INPUT and "3 names" in r.stderr


# -- identity -------------------------------------------------------------------------------------------------------
AWKWARD = ["007", "7", " 7", "o'brien", 'say "hi"', "a;b", "a,b", "ünï ✓", "NULL", "0.10"]


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_ids_and_labels_round_trip_exactly(tmp_path, suffix):
    rows = [(t, i) for t in AWKWARD for i in AWKWARD if (len(t) + len(i)) % 3 != 1]
    src = tmp_path / "src.parquet"
    con = duckdb.connect()
    con.execute("CREATE TABLE t (tid VARCHAR, item VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?)", rows)
    con.execute("COPY t TO ? (FORMAT parquet)", [str(src)])
    out = tmp_path / f"rel.{suffix}"
    r = cli("anonymize", src, "--fanout", 3, "-a", "partition", "--k", 1, "-o", out)
    assert r.code == 0, r.stderr
    back = con.execute("SELECT tid, item FROM read_parquet(?)" if suffix == "parquet" else
                       "SELECT tid, item FROM read_csv(?, all_varchar = true, header = true)",
                       [str(out)]).fetchall()  # fmt: skip
    assert sorted(back) == sorted(set(rows))  # k = 1 releases every leaf unchanged
    r = cli("verify", src, "--fanout", 3, "--k", 1, "-r", out)
    assert r.code == 0, r.stdout + r.stderr


def test_integer_tids_stay_integers_in_parquet(tmp_path):
    src = tmp_path / "src.parquet"
    con = duckdb.connect()
    con.execute(
        "COPY (SELECT * FROM (VALUES (10, 'a'), (2, 'b'), (2, 'a')) t(tid, item)) TO ? "
        "(FORMAT parquet)",
        [str(src)],
    )
    out = tmp_path / "rel.parquet"
    assert cli("anonymize", src, "--fanout", 2, "-a", "partition", "-k", 1, "-o", out).code == 0
    types = con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [str(out)]).fetchall()
    assert types[0][:2] == ("tid", "INTEGER")


# -- one SQL path: every run replays --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ("-a", "aa", "-m", 2),
        ("-a", "da", "-m", 2),
        ("-a", "oa", "-m", 2),
        ("-a", "partition"),
        ("-a", "lgr"),
        ("-a", "clump"),
    ],
)
def test_a_run_replays_on_a_fresh_duckdb(tmp_path, args):
    db = tmp_path / "w.duckdb"
    r = fig2("anonymize", "--k", 2, *args, "--db", db, "--json", "-q")
    assert r.code == 0, r.stderr
    run = r.json()["run"]
    script = cli("sql", "--db", db, "--run", run)
    assert script.code == 0
    fresh = duckdb.connect()
    fresh.execute(script.stdout)
    query = "SELECT tid, node FROM {}.release ORDER BY ALL"
    replayed = fresh.execute(query.format(run)).fetchall()
    con = duckdb.connect(str(db), read_only=True)
    assert replayed == con.execute(query.format(run)).fetchall()
    assert replayed


def test_a_table_run_replays_on_a_fresh_duckdb(tmp_path):
    src = tmp_path / "t.csv"
    src.write_text("age,zip\n30,a\n31,a\n40,b\n41,b\n42,a\n")
    db = tmp_path / "w.duckdb"
    r = cli(
        "anonymize-table", src, "--qi", "age", "--qi", "zip", "-t", "age=fanout:2",
        "-t", "zip=suppress", "--k", 2, "--db", db, "--json",
    )  # fmt: skip
    assert r.code == 0, r.stderr
    run = r.json()["run"]
    script = cli("sql", "--db", db, "--run", run).stdout
    fresh = duckdb.connect()
    fresh.execute(script)
    query = "SELECT * FROM {}.table_release ORDER BY ALL"
    con = duckdb.connect(str(db), read_only=True)
    assert fresh.execute(query.format(run)).fetchall() == con.execute(query.format(run)).fetchall()
    runs = cli("runs", "--db", db, "--json").json()
    assert [(x["kind"], x["status"]) for x in runs] == [("table", "complete")]


def test_sql_log_option_writes_the_replay_script(tmp_path):
    log = tmp_path / "run.sql"
    r = fig2("anonymize", "-a", "aa", "--k", 2, "--m", 2, "--sql-log", log, "-q")
    assert r.code == 0, r.stderr
    fresh = duckdb.connect()
    fresh.execute(log.read_text())
    assert fresh.execute("SELECT count(*) FROM run_aa_k2_m2.release").fetchone()[0] == 10


def test_registry_refuses_a_foreign_setanon_schema(tmp_path):
    db = tmp_path / "w.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE SCHEMA setanon")
    con.execute("CREATE TABLE setanon.mine AS SELECT 1 AS x")
    con.close()
    r = fig2("anonymize", "-a", "aa", "--k", 2, "--m", 2, "--db", db)
    assert r.code == ExitCode.INPUT and "did not create" in r.stderr
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT x FROM setanon.mine").fetchall() == [(1,)]


def test_failed_run_leaves_no_schema_and_is_marked(tmp_path, monkeypatch):
    from dataclasses import replace

    from setanon_sql.algorithms import ALGORITHMS

    def broken(store, params, progress):
        store.execute("CREATE TABLE half AS SELECT 1 AS x")
        raise RuntimeError("boom")

    # the registry holds each algorithm's declaration, its run included (#43)
    monkeypatch.setitem(ALGORITHMS, "partition", replace(ALGORITHMS["partition"], run=broken))
    db = tmp_path / "w.duckdb"
    r = fig2("anonymize", "-a", "partition", "--k", 2, "--db", db, "--run", "r1")
    assert r.code == ExitCode.INTERNAL and "boom" in r.stderr
    runs = cli("runs", "--db", db, "--json").json()
    assert [(x["name"], x["status"]) for x in runs] == [("r1", "failed")]
    con = duckdb.connect(str(db), read_only=True)
    schemas = {s for (s,) in con.execute("SELECT schema_name FROM duckdb_schemas()").fetchall()}
    assert "r1" not in schemas
    json.dumps(runs)
