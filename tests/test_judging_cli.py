"""Small defects of the judging commands (issue 40): `verify --run R --json` names the run it
checked, and `sweep -a disassociation` asks for no hierarchy it does not use. Through the
command line, with exit codes."""

from __future__ import annotations

from helpers.cli import EX, cli, fig2

from setanon_sql.errors import ExitCode


def test_verify_of_a_stored_run_names_its_schema(tmp_path):
    db = tmp_path / "w.duckdb"
    assert (
        fig2("anonymize", "-a", "aa", "-k", 2, "-m", 2, "--db", db, "--run", "r1", "-q").code == 0
    )
    r = cli("anonymize", EX / "fig2.csv", "-a", "disassociation", "-k", 2, "-m", 2,
            "--db", db, "--run", "r2", "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    for run in ("r1", "r2"):
        r = cli("verify", "--db", db, "--run", run, "--json")
        assert r.code == 0, r.stderr
        assert r.json()["schema"] == run


def test_sweep_of_disassociation_needs_no_hierarchy(tmp_path):
    db = tmp_path / "w.duckdb"
    r = cli("sweep", EX / "fig2.csv", "-a", "disassociation", "-k", 2, "--queries", 20,
            "--targets", 20, "--db", db, "--json")  # fmt: skip
    assert r.code == 0, r.stderr
    (row,) = r.json()
    assert row["algorithm"] == "disassociation" and row["promise_holds"]


def test_sweep_with_a_generalizing_algorithm_still_needs_one():
    r = cli("sweep", EX / "fig2.csv", "-a", "disassociation,aa", "-k", 2, "--json")
    assert r.code == ExitCode.USAGE and "--hierarchy" in r.stderr
    r = cli("sweep", EX / "fig2.csv", "-a", "disassociation", "-k", 2, "--order", "id")
    assert r.code == ExitCode.USAGE and "--order" in r.stderr
