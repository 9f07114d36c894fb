"""The command line: exit codes, messages on stderr, data on stdout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from setanon_sql.cli import app
from setanon_sql.errors import ExitCode

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
DATA = Path(__file__).parent / "data"
runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_verify_raw_fig2_reports_violations_with_exit_1():
    r = invoke(
        "verify", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "--k", 2, "--m", 2, "--json"
    )
    assert r.exit_code == ExitCode.VIOLATED
    data = json.loads(r.stdout)
    assert data["failing_itemsets"] == {"1": 0, "2": 2}
    assert {tuple(v["itemset"]) for v in data["examples"]["violations_km"]} == {
        ("a1", "a2"),
        ("a1", "b1"),
    }


def test_verify_k1_passes():
    r = invoke("verify", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "--k", 1)
    assert r.exit_code == ExitCode.OK, r.output


def test_bad_hierarchy_is_one_clear_line_and_its_exit_code():
    r = invoke("verify", EX / "fig2.csv", "-H", DATA / "bad_two_parents.csv", "--k", 2)
    assert r.exit_code == ExitCode.HIERARCHY
    assert "node with two parents" in r.stderr and r.stdout == ""


def test_bad_input_exit_code():
    r = invoke("verify", DATA / "bad_unknown_column.csv", "--fanout", 2, "--k", 2)
    assert r.exit_code == ExitCode.INPUT and "no column 'item'" in r.stderr


def test_no_hierarchy_given():
    r = invoke("verify", EX / "fig2.csv", "--k", 2)
    assert r.exit_code == ExitCode.HIERARCHY and "no hierarchy" in r.stderr


def test_hierarchy_build_check_show(tmp_path):
    out = tmp_path / "h.csv"
    r = invoke("hierarchy", "build", DATA / "good_lines.txt", "--fanout", 2, "-o", out)
    assert r.exit_code == 0, r.output
    r = invoke("hierarchy", "check", out, "--data", DATA / "good_lines.txt", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["leaves"] == 3
    r = invoke("hierarchy", "show", out)
    assert r.exit_code == 0 and "a,b" in r.stdout


def test_load_into_db_then_verify_from_db(tmp_path):
    db = tmp_path / "w.duckdb"
    assert invoke("load", EX / "fig2.csv", "--db", db).exit_code == 0
    r = invoke("verify", "--db", db, "-H", EX / "fig2_hierarchy.csv", "--k", 1, "--json")
    assert r.exit_code == 0, r.output


def test_sql_lists_and_prints_statements():
    r = invoke("sql")
    assert r.exit_code == 0 and "verify_generalizes" in r.stdout
    r = invoke("sql", "verify_generalizes")
    assert r.exit_code == 0 and "ANTI JOIN tx" in r.stdout
    assert invoke("sql", "no_such_step").exit_code == ExitCode.USAGE


def test_metrics_of_a_release_file(tmp_path):
    rel = tmp_path / "r.csv"
    rel.write_text("tid,item\nt1,A\nt1,b1\nt1,b2\nt2,A\nt2,b1\nt3,A\nt3,b1\nt3,b2\nt4,A\nt4,b2\n")
    r = invoke("metrics", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-r", rel, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["ncp"] == pytest.approx(2.5 / 11)


def test_unknown_algorithm():
    r = invoke(
        "anonymize", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-a", "nope", "--k", 2
    )
    assert r.exit_code == ExitCode.PARAMS and "unknown algorithm 'nope'" in r.stderr


def test_a_stored_run_can_be_listed_replayed_and_measured(tmp_path):
    db = tmp_path / "w.duckdb"
    r = invoke(
        "anonymize",
        EX / "fig2.csv",
        "-H",
        EX / "fig2_hierarchy.csv",
        "-a",
        "aa",
        "--k",
        2,
        "--m",
        2,
        "--db",
        db,
        "--json",
        "-q",
    )
    assert r.exit_code == 0, r.output
    runs = json.loads(invoke("runs", "--db", db, "--json").stdout)
    assert [x["run"] for x in runs] == ["aa_k2_m2"] and "cut" in runs[0]["tables"]
    r = invoke("sql", "--db", db, "--run", "aa_k2_m2")
    assert r.exit_code == 0 and "CREATE OR REPLACE TABLE violations_validity AS" in r.stdout
    r = invoke("metrics", "--db", db, "--run", "aa_k2_m2", "--json")
    assert json.loads(r.stdout)["ncp"] == pytest.approx(2.5 / 11)
    r = invoke("verify", "--db", db, "--run", "aa_k2_m2", "--k", 2, "--m", 2)
    assert r.exit_code == ExitCode.OK, r.output


def test_console_entry_turns_a_database_error_into_one_line(monkeypatch, capsys):
    import duckdb

    from setanon_sql import cli

    def broken(**_: object) -> None:
        raise duckdb.IOException("IO Error: disk full\nmore detail")

    monkeypatch.setattr(cli, "app", broken)
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code == ExitCode.INTERNAL
    assert "internal error (please report): IO Error: disk full" in capsys.readouterr().err
