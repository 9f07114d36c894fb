"""The command line: exit codes, messages on stderr, data on stdout."""

from __future__ import annotations

import duckdb
import pytest
from helpers.cli import DATA, EX, cli, fig2

from setanon_sql.errors import ExitCode


def test_verify_raw_fig2_reports_violations_with_exit_1():
    r = fig2("verify", "--k", 2, "--m", 2, "--json")
    assert r.code == ExitCode.VIOLATED
    data = r.json()
    assert data["failing_itemsets"] == {"1": 0, "2": 2}
    assert {tuple(v["itemset"]) for v in data["examples"]["violations_km"]} == {
        ("a1", "a2"),
        ("a1", "b1"),
    }


def test_verify_k1_passes_and_quiet_prints_nothing():
    r = fig2("verify", "--k", 1)
    assert r.code == ExitCode.OK and "passed" in r.stdout
    r = fig2("verify", "--k", 2, "--m", 2, "-q")
    assert r.code == ExitCode.VIOLATED and r.stdout == ""


def test_bad_hierarchy_is_one_clear_line_and_its_exit_code():
    r = cli("verify", EX / "fig2.csv", "-H", DATA / "bad_two_parents.csv", "--k", 2)
    assert r.code == ExitCode.INPUT
    assert "node with two parents" in r.stderr and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_bad_input_exit_code():
    r = cli("verify", DATA / "bad_unknown_column.csv", "--fanout", 2, "--k", 2)
    assert r.code == ExitCode.INPUT and "no column 'item'" in r.stderr


def test_no_hierarchy_given():
    r = cli("verify", EX / "fig2.csv", "--k", 2)
    assert r.code == ExitCode.INPUT and "no hierarchy" in r.stderr


def test_hierarchy_build_check_show(tmp_path):
    out = tmp_path / "h.csv"
    r = cli("hierarchy", "build", DATA / "good_lines.txt", "--fanout", 2, "-o", out)
    assert r.code == 0, r.stderr
    r = cli("hierarchy", "check", out, "--data", DATA / "good_lines.txt", "--json")
    assert r.code == 0 and r.json()["leaves"] == 3
    r = cli("hierarchy", "show", out)
    assert r.code == 0 and "a,b" in r.stdout


def test_load_into_db_then_verify_from_db(tmp_path):
    db = tmp_path / "w.duckdb"
    assert cli("load", EX / "fig2.csv", "--db", db).code == 0
    r = cli("verify", "--db", db, "-H", EX / "fig2_hierarchy.csv", "--k", 1, "--json")
    assert r.code == 0, r.stderr


def test_sql_lists_and_prints_statements():
    r = cli("sql")
    assert r.code == 0 and "verify_generalizes" in r.stdout
    r = cli("sql", "verify_generalizes")
    assert r.code == 0 and "ANTI JOIN tx" in r.stdout
    assert cli("sql", "no_such_step").code == ExitCode.USAGE


def test_metrics_of_a_release_file(tmp_path):
    rel = tmp_path / "r.csv"
    rel.write_text("tid,item\nt1,A\nt1,b1\nt1,b2\nt2,A\nt2,b1\nt3,A\nt3,b1\nt3,b2\nt4,A\nt4,b2\n")
    r = fig2("metrics", "-r", rel, "--json")
    assert r.code == 0, r.stderr
    assert r.json()["ncp"] == pytest.approx(2.5 / 11)


def test_unknown_algorithm():
    r = fig2("anonymize", "-a", "nope", "--k", 2)
    assert r.code == ExitCode.USAGE and "unknown algorithm 'nope'" in r.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-a", "clump", "--k", 2, "--option", "batch=3"], "batch acts only with method=greedy"),
        (["-a", "disassociation", "--k", 2, "--m", 2, "--option", "refine=false",
          "--option", "joint_size=4"], "joint_size acts only with refine=true"),
    ],
)  # fmt: skip
def test_an_option_that_would_not_act_is_refused(tmp_path, args, message):
    """Every flag acts or is refused (`Option.acts_when`): before any work, one line, exit 2,
    no run left behind."""
    db = tmp_path / "w.duckdb"
    r = fig2("anonymize", *args, "--db", db)
    assert r.code == ExitCode.USAGE and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    if db.exists():
        with duckdb.connect(str(db), read_only=True) as con:
            assert con.execute("SELECT count(*) FROM setanon.runs").fetchone() == (0,)


def test_the_greedy_options_act_with_the_greedy_method(tmp_path):
    r = fig2("anonymize", "-a", "clump", "--k", 2, "--option", "method=greedy",
             "--option", "batch=3", "--db", tmp_path / "w.duckdb", "-q")  # fmt: skip
    assert r.code == 0, r.stderr


def test_algorithms_lists_and_shows_options():
    r = cli("algorithms", "--json")
    assert r.code == 0 and {a["name"] for a in r.json()} >= {"aa", "da", "oa", "partition"}
    models = {a["name"]: a["model"] for a in r.json()}
    assert (models["aa"], models["partition"], models["dpsets"]) == ("k^m", "k", "epsilon-DP")
    r = cli("algorithms", "clump")
    assert r.code == 0 and "reach" in r.stdout and "batch" in r.stdout


def test_a_stored_run_can_be_listed_replayed_and_measured(tmp_path):
    db = tmp_path / "w.duckdb"
    r = fig2("anonymize", "-a", "aa", "--k", 2, "--m", 2, "--db", db, "--json", "-q")
    assert r.code == 0, r.stderr
    run = r.json()["run"]
    assert run == "run_aa_k2_m2"
    runs = cli("runs", "--db", db, "--json").json()
    assert [(x["name"], x["status"], x["algorithm"]) for x in runs] == [(run, "complete", "aa")]
    r = cli("sql", "--db", db, "--run", run)
    assert r.code == 0 and 'CREATE OR REPLACE TABLE "violations_validity" AS' in r.stdout
    r = cli("metrics", "--db", db, "--run", run, "--json")
    assert r.json()["ncp"] == pytest.approx(2.5 / 11)
    r = cli("verify", "--db", db, "--run", run)
    assert r.code == ExitCode.OK, r.stderr


def test_an_internal_error_is_one_line_exit_4_and_debug_shows_the_traceback(monkeypatch):
    import duckdb

    from setanon_sql import api

    def broken(*_: object, **__: object) -> None:
        raise duckdb.IOException("IO Error: disk full\nmore detail")

    monkeypatch.setattr(api, "release_metrics", broken)
    rel = EX / "fig2.csv"
    r = fig2("metrics", "-r", rel)
    assert r.code == ExitCode.INTERNAL
    assert r.stderr.strip().splitlines() == [
        "error: internal error (IOException): IO Error: disk full "
        "(run with --debug for the traceback)"
    ]
    r = cli("--debug", "metrics", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-r", rel)
    assert r.code == ExitCode.INTERNAL and "Traceback" in r.stderr


def test_usage_errors_exit_2():
    assert cli("anonymize", "--no-such-flag").code == ExitCode.USAGE
    assert fig2("anonymize", "--k", 0).code == ExitCode.USAGE
    assert cli("nope").code == ExitCode.USAGE


def test_support_ordered_hierarchy_build_is_deterministic_and_aa_releases_verify(tmp_path):
    data = DATA / "good_lines.txt"
    for name in ("a.csv", "b.csv"):
        r = cli("hierarchy", "build", data, "--fanout", 2, "--order", "support",
                "-o", tmp_path / name)  # fmt: skip
        assert r.code == 0, r.stderr
    text = (tmp_path / "a.csv").read_text()
    assert text == (tmp_path / "b.csv").read_text()
    children = [line.split(",")[0] for line in text.splitlines()[1:]]
    assert sorted(x for x in children if x in "abc") == ["a", "b", "c"]  # each leaf once
    r = cli("anonymize", data, "-H", tmp_path / "a.csv", "-a", "aa", "-k", 2, "-m", 2,
            "--json", "-q")  # fmt: skip
    assert r.code == 0 and r.json()["verified"], r.stderr


def test_support_ordered_builder_from_the_cli(tmp_path):
    r = cli("anonymize", DATA / "good_lines.txt", "--fanout", 2, "--order", "support", "-a",
            "partition", "-k", 2, "--json", "-q")  # fmt: skip
    assert r.code == 0 and r.json()["verified"], r.stderr
    assert "checked" not in r.json()  # only a dp run's check is its budget record
    r = fig2("anonymize", "-a", "partition", "-k", 2, "--order", "support")
    assert r.code == ExitCode.USAGE and "--order applies to the --fanout builder" in r.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("good_lines.txt", "-H", "bad_cycle.csv"), "cycle"),
        (("good_lines.txt", "-H", "bad_two_roots.csv"), "roots"),
        (("good_lines.txt", "-H", "bad_missing_items.csv"), "missing from the hierarchy"),
        (("items_with_internal.txt", "-H", "bad_internal_item.csv"), "internal nodes"),
        (("bad_empty_transaction.txt", "--fanout", "2"), "empty transaction"),
        (("bad_empty_item.csv", "--fanout", "2"), "empty item"),
        (("bad_not_parquet.parquet", "--fanout", "2"), "as parquet"),
        (("bad_unknown_column.csv", "--fanout", "2"), "no column 'item'"),
        (("no_such_file.txt", "--fanout", "2"), "not found"),
    ],
)
def test_bad_input_through_the_cli_is_one_line_and_exit_3(tmp_path, args, message):
    files = [DATA / a if a.endswith((".txt", ".csv", ".parquet")) else a for a in args]
    out = tmp_path / "r.csv"
    r = cli("anonymize", *files, "-a", "partition", "-k", 1, "-o", out)
    assert r.code == ExitCode.INPUT, r.stderr
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists() and not list(tmp_path.iterdir())


def test_duplicate_rows_collapse_with_a_warning():
    r = cli("anonymize", DATA / "dup_rows.csv", "--fanout", 2, "-a", "partition", "-k", 1, "--json")
    assert r.code == 0 and "1 duplicate (tid, item) row(s) collapsed" in r.stderr


def test_verify_and_metrics_say_whether_the_release_is_a_multiset(tmp_path):
    """Clump releases multisets, the other searches sets: verify and metrics say which, as
    anonymize does, and check and measure accordingly."""
    db = tmp_path / "w.duckdb"
    for algo, kind in (("clump", "multiset"), ("partition", "set")):
        made = fig2("anonymize", "-a", algo, "-k", "2", "--db", db, "--run", algo, "--json")
        assert made.code == 0 and made.json()["release"] == kind
        checked = cli("verify", "--db", db, "--run", algo, "--json")
        assert checked.code == 0 and checked.json()["release"] == kind
        measured = cli("metrics", "--db", db, "--run", algo, "--json")
        assert measured.code == 0 and measured.json()["release"] == kind
