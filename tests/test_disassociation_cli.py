"""Disassociation through the command line (#28): inputs of every kind, the release folder,
its verifier, evaluate/report/compare/sweep, reconstruct, replay, and exit codes of bad input."""

from __future__ import annotations

import json

import duckdb
import pytest
from helpers.cli import EX, cli

from setanon_sql.errors import ExitCode

BASKETS = [
    ["bread", "milk"], ["bread", "milk", "eggs"], ["bread", "eggs"], ["milk", "eggs"],
    ["bread", "milk", "jam"], ["bread", "milk"], ["milk", "eggs", "jam"], ["bread", "eggs"],
    ["bread", "milk", "eggs"], ["tea"], ["bread", "tea"], ["milk", "tea", "eggs"],
]  # fmt: skip


@pytest.fixture
def baskets(tmp_path):
    """The same baskets as lines, long CSV, Parquet and a table of a DuckDB file."""
    lines = tmp_path / "b.txt"
    lines.write_text("\n".join(" ".join(b) for b in BASKETS) + "\n")
    csv = tmp_path / "b.csv"
    csv.write_text("tid,item\n" + "".join(f"t{i},{x}\n" for i, b in enumerate(BASKETS) for x in b))
    parquet = tmp_path / "b.parquet"
    con = duckdb.connect()
    con.execute(f"COPY (SELECT * FROM read_csv('{csv}')) TO '{parquet}' (FORMAT parquet)")
    db = tmp_path / "source.duckdb"
    dcon = duckdb.connect(str(db))
    dcon.execute(f"CREATE TABLE baskets AS SELECT * FROM read_csv('{csv}')")
    dcon.close()
    return {
        "lines": [lines],
        "csv": [csv],
        "parquet": [parquet],
        "duckdb": [db, "--table", "baskets"],
    }


def anonymize(*args):
    return cli("anonymize", *args, "-a", "disassociation", "--json", "-q")


@pytest.mark.parametrize("kind", ["lines", "csv", "parquet", "duckdb"])
def test_every_input_kind_gives_a_verified_release_folder(tmp_path, baskets, kind):
    out = tmp_path / "release"
    r = anonymize(*baskets[kind], "-k", 2, "-m", 2, "-o", out, "--files", "csv")
    assert r.code == 0, r.stderr
    assert r.json()["verified"] is True
    manifest = json.loads((out / "release.json").read_text())
    assert manifest["release"] == "disassociation" and manifest["k"] == 2
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(manifest["files"] + ["release.json"])
    assert "cluster_members.csv" not in names
    con = duckdb.connect()
    items = {
        x
        for (x,) in con.execute(f"SELECT item FROM read_csv('{out}/record_chunks.csv')").fetchall()
    }
    terms = {
        x for (x,) in con.execute(f"SELECT item FROM read_csv('{out}/term_chunks.csv')").fetchall()
    }
    assert items | terms <= {"bread", "milk", "eggs", "jam", "tea"}
    columns = con.execute(f"DESCRIBE SELECT * FROM read_csv('{out}/record_chunks.csv')")
    assert [c[0] for c in columns.fetchall()] == ["cluster", "chunk", "row", "item"]


def test_parquet_files_and_the_folder_rules(tmp_path, baskets):
    out = tmp_path / "rel"
    r = anonymize(*baskets["csv"], "-k", 2, "-m", 2, "-o", out, "--files", "parquet")
    assert r.code == 0, r.stderr
    assert (out / "record_chunks.parquet").is_file()
    again = anonymize(*baskets["csv"], "-k", 2, "-m", 2, "-o", out)
    assert again.code == ExitCode.USAGE and "--replace" in again.stderr
    replaced = anonymize(*baskets["csv"], "-k", 2, "-m", 2, "-o", out, "--replace")
    assert replaced.code == 0, replaced.stderr
    assert (out / "record_chunks.csv").is_file() and not (out / "record_chunks.parquet").exists()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    refused = anonymize(*baskets["csv"], "-k", 2, "-m", 2, "-o", mine, "--replace")
    assert refused.code == ExitCode.USAGE and "not written by setanon-sql" in refused.stderr
    assert (mine / "notes.txt").read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("-k", 50, "-m", 2), ExitCode.INPUT, "larger than the data"),
        (("-k", 2), ExitCode.USAGE, "needs m"),
        (("-k", 2, "-m", 2, "--option", "max_cluster=1"), ExitCode.USAGE, "max_cluster"),
        (("-k", 2, "-m", 2, "--option", "refine=maybe"), ExitCode.USAGE, "refine"),
        (("-k", 2, "-m", 2, "--per-transaction"), ExitCode.USAGE, "--per-transaction"),
        (("-k", 2, "-m", 2, "--files", "parquet"), ExitCode.USAGE, "--files goes with -o"),
        (("-k", 2, "-m", 2, "-o", "x.csv", "--files", "xml"), ExitCode.USAGE, "--files"),
    ],
)
def test_bad_input_exit_codes(baskets, args, code, message):
    r = anonymize(*baskets["csv"], *args)
    assert r.code == code, r.stderr
    assert message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_files_is_refused_for_other_algorithms(tmp_path):
    r = cli(
        "anonymize", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-a", "aa", "-k", 2,
        "-m", 2, "-o", tmp_path / "r.csv", "--files", "csv",
    )  # fmt: skip
    assert r.code == ExitCode.USAGE and "--files" in r.stderr


def test_a_hierarchy_is_not_needed_but_may_be_given(tmp_path):
    no_h = anonymize(EX / "fig2.csv", "-k", 2, "-m", 2)
    assert no_h.code == 0, no_h.stderr
    with_h = anonymize(EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-k", 2, "-m", 2)
    assert with_h.code == 0, with_h.stderr


def test_stored_run_verify_metrics_evaluate_report_reconstruct(tmp_path, baskets):
    db = tmp_path / "w.duckdb"
    r = anonymize(*baskets["lines"], "-k", 2, "-m", 2, "--db", db, "--run", "d")
    assert r.code == 0, r.stderr
    v = cli("verify", "--db", db, "--run", "d", "--json")
    assert v.code == 0 and v.json()["ok"] is True
    assert v.json()["release"] == "disassociated"
    metrics = cli("metrics", "--db", db, "--run", "d", "--json")
    assert metrics.code == 0 and 0 <= metrics.json()["term_chunk_share"] <= 1
    ev = cli("evaluate", "--db", db, "--run", "d", "--queries", 50, "--targets", 50, "--json")
    assert ev.code == 0, ev.stderr
    data = ev.json()
    assert {"itemset_queries", "frequent_queries", "attacks", "promise_holds"} <= set(data)
    assert data["promise_holds"] is True
    assert all(a["below_k"] == 0 for a in data["attacks"] if a["promised"])
    page = tmp_path / "r.html"
    rep = cli("report", "--db", db, "--run", "d", "-o", page, "--queries", 50, "--targets", 50)
    assert rep.code == 0, rep.stderr
    assert "disassociation" in page.read_text()
    out = tmp_path / "rec.csv"
    rec = cli("reconstruct", "d", "-o", out, "--db", db, "--json")
    assert rec.code == 0, rec.stderr
    con = duckdb.connect()
    got = con.execute(f"SELECT count(*), count(DISTINCT tid) FROM read_csv('{out}')").fetchone()
    # every item occurrence of the chunks is there; term-chunk terms once per cluster
    assert got[1] <= len(BASKETS) and got[0] == rec.json()["items"]
    not_dis = cli("anonymize", *baskets["lines"], "--fanout", 2, "-a", "partition", "-k", 2,
                  "--db", db, "--run", "p", "-q")  # fmt: skip
    assert not_dis.code == 0, not_dis.stderr
    wrong = cli("reconstruct", "p", "-o", tmp_path / "x.csv", "--db", db)
    assert wrong.code == ExitCode.USAGE and "not a disassociation run" in wrong.stderr
    for line in (
        ("verify", "--model", "k"),
        ("verify", "--multiset"),
        ("verify", "--allow-suppression"),
        ("metrics", "--per-copy"),
        ("metrics", "--multiset"),
    ):  # options of generalized releases are refused on a disassociated one
        refused = cli(line[0], "--db", db, "--run", "d", *line[1:])
        assert refused.code == ExitCode.USAGE, (line, refused.stderr)
        assert "disassociated" in refused.stderr, refused.stderr


def test_compare_and_sweep_take_disassociation_beside_others(tmp_path, baskets):
    db = tmp_path / "w.duckdb"
    r = cli(
        "sweep", *baskets["lines"], "--fanout", 2, "-a", "aa,partition,disassociation",
        "-k", 2, "-m", 2, "--db", db, "--queries", 30, "--targets", 30, "--json",
    )  # fmt: skip
    assert r.code == 0, r.stderr
    rows = {row["algorithm"]: row for row in r.json()}
    assert set(rows) == {"aa", "partition", "disassociation"}
    assert rows["disassociation"]["promise_holds"] is True
    assert rows["disassociation"]["are_1"] is not None


def test_a_disassociation_run_replays_on_a_fresh_duckdb(tmp_path, baskets):
    db = tmp_path / "w.duckdb"
    r = anonymize(*baskets["lines"], "-k", 2, "-m", 2, "--db", db, "--run", "d")
    assert r.code == 0, r.stderr
    script = cli("sql", "--db", db, "--run", "d")
    assert script.code == 0
    fresh = duckdb.connect()
    fresh.execute(script.stdout)
    con = duckdb.connect(str(db), read_only=True)
    for table in ("clusters", "record_chunks", "term_chunks", "cluster_members"):
        query = f"SELECT * FROM d.{table} ORDER BY ALL"
        assert fresh.execute(query).fetchall() == con.execute(query).fetchall()


def test_two_runs_shuffle_rows_differently(tmp_path):
    lines = tmp_path / "many.txt"
    lines.write_text("".join("a b\n" if i % 3 else "a c\n" for i in range(60)))
    orders = []
    for run in ("r1", "r2"):
        r = anonymize(lines, "-k", 5, "-m", 2, "--db", tmp_path / "w.duckdb", "--run", run)
        assert r.code == 0, r.stderr
        con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
        orders.append(con.execute(
            f"SELECT list(\"row\" ORDER BY \"row\") FROM {run}.record_chunks WHERE item = 'c'"
        ).fetchone()[0])  # fmt: skip
        con.close()
    in_tid_order = list(range(1, 60, 3))  # the records holding c are lines 0, 3, 6, ...
    assert len(orders[0]) == len(orders[1]) == 20
    assert orders[0] != orders[1]  # a new random order on every run (1 in C(60, 20) alike)
    assert in_tid_order not in orders
