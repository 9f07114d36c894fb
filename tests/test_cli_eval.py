"""evaluate, report, compare and sweep through the command line."""

from __future__ import annotations

import pytest
from helpers.cli import DATA, cli, fig2

from setanon_sql.errors import ExitCode


def test_evaluate_a_stored_run_and_a_release_file_alike(tmp_path):
    db, out = tmp_path / "w.duckdb", tmp_path / "rel.csv"
    r = fig2("anonymize", "-a", "partition", "-k", 2, "--db", db, "-o", out, "--json", "-q")
    assert r.code == 0, r.stderr
    run = r.json()["run"]
    stored = cli("evaluate", "--db", db, "--run", run, "--seed", 3, "--json")
    assert stored.code == 0, stored.stderr
    from_file = fig2("evaluate", "-r", out, "--k", 2, "--seed", 3, "--json")
    assert from_file.code == 0, from_file.stderr
    a, b = stored.json(), from_file.json()
    assert a["itemset_queries"] == b["itemset_queries"] and a["promise_holds"]
    runs = cli("runs", "--db", db, "--json").json()
    assert [x["status"] for x in runs] == ["complete"]


def test_report_and_compare(tmp_path):
    db = tmp_path / "w.duckdb"
    names = []
    for algo in ("aa", "partition"):
        extra = ("-m", 2) if algo == "aa" else ()
        r = fig2("anonymize", "-a", algo, "-k", 2, *extra, "--db", db, "--json", "-q")
        names.append(r.json()["run"])
    page = tmp_path / "r.html"
    assert cli("report", "--db", db, "--run", names[0], "-o", page).code == 0
    text = page.read_text()
    assert "<svg" in text and names[0] in text and 'src="http' not in text
    r = cli("compare", *names, "--db", db, "--json", "--report", tmp_path / "c.html")
    assert r.code == 0, r.stderr
    assert [row["run"] for row in r.json()] == names
    assert (tmp_path / "c.html").exists()


def test_sweep_over_two_leaf_orders(tmp_path):
    r = cli(
        "sweep", DATA / "good_lines.txt", "--fanout", 2, "--order", "id,support",
        "-a", "partition", "-k", "1,2", "--queries", 50, "--targets", 50, "--json",
    )  # fmt: skip
    assert r.code == 0, r.stderr
    rows = r.json()
    assert sorted((x["hierarchy"], x["k"]) for x in rows) == [
        ("id", 1), ("id", 2), ("support", 1), ("support", 2),
    ]  # fmt: skip
    assert all(x["promise_holds"] for x in rows)


def test_evaluate_needs_a_run_or_a_release():
    assert fig2("evaluate").code == ExitCode.USAGE
    assert cli("evaluate", "--run", "x").code == ExitCode.USAGE


def test_synth_writes_seeded_baskets_that_anonymize(tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    for path in (a, b):
        r = cli("synth", path, "-n", 300, "--items", 50, "--seed", 4, "--json")
        assert r.code == 0, r.stderr
    assert a.read_bytes() == b.read_bytes()
    r = cli("anonymize", a, "--fanout", 5, "-a", "partition", "-k", 5, "--json", "-q")
    assert r.code == 0 and r.json()["verified"], r.stderr
    assert cli("synth", tmp_path / "x.csv", "-n", 3).code == ExitCode.USAGE


def test_metrics_per_copy_matches_the_multiset_measure_on_a_clump_run(tmp_path):
    db = tmp_path / "w.duckdb"
    run = fig2("anonymize", "-a", "clump", "-k", 2, "--db", db, "--json", "-q").json()["run"]
    per_copy = cli("metrics", "--db", db, "--run", run, "--per-copy", "--json").json()
    multiset = cli("metrics", "--db", db, "--run", run, "--json").json()
    assert per_copy["release"] == "per copy" and per_copy["unmatched_copies"] == 0
    assert per_copy["ncp"] == pytest.approx(multiset["ncp"])


def test_an_unknown_run_is_named_as_such(tmp_path):
    db = tmp_path / "w.duckdb"
    assert fig2("load", "--db", db).code == 0
    for args in (("report", "-o", tmp_path / "r.html"), ("compare",), ("evaluate",)):
        cmd, *rest = args
        extra = ("nosuch",) if cmd == "compare" else ("--run", "nosuch")
        r = cli(cmd, *extra, *rest, "--db", db)
        assert r.code == ExitCode.USAGE and "no run named 'nosuch'" in r.stderr, r.stderr
    assert not (tmp_path / "r.html").exists()
