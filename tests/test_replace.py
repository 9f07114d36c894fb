"""`--run R --replace` never loses the good run R: the replacement is built under a name of its
own and swapped in at the end, so R survives every failure and signal of its replacement
(issue 26, defect 1). Each case goes through the command line, with its exit code."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from helpers.cli import EX, as_from_a_terminal, cli, fig2, holding, interrupt, working
from helpers.user_files import baskets

from setanon_sql.errors import ExitCode

ADULT = EX / "adult"


def snapshot(db: Path, run: str) -> dict[str, object]:
    """What a user sees of run `run`: its registry row and a checksum of every table it has."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute(
            "SELECT run_id, status, algorithm, params, results FROM setanon.runs "
            "WHERE name = ? AND status = 'complete'",
            [run],
        ).fetchall()
        tables = [
            t
            for (t,) in con.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = ? "
                "ORDER BY 1",
                [run],
            ).fetchall()
        ]
        sums = {
            t: con.execute(
                f'SELECT count(*), sum(hash(columns(*))) FROM "{run}"."{t}"'  # noqa: S608
            ).fetchall()
            for t in tables
            if t != "sql_log"
        }
        leftovers = con.execute(
            "SELECT schema_name FROM information_schema.schemata "
            "WHERE schema_name LIKE '%replacing%'"
        ).fetchall()
    finally:
        con.close()
    return {"row": row, "tables": sums, "leftovers": leftovers}


def good_run(db: Path) -> dict[str, object]:
    r = fig2("anonymize", "-a", "aa", "-k", 2, "-m", 2, "--db", db, "--run", "r", "-q")
    assert r.code == 0, r.stderr
    before = snapshot(db, "r")
    assert before["row"] and before["tables"]
    return before


def test_a_failing_replacement_keeps_the_run(tmp_path):
    db = tmp_path / "w.duckdb"
    before = good_run(db)
    args = ("anonymize", "--db", db, "--run", "r", "--replace", "-k", 2, "-m", 2, "-q")
    r = fig2(*args, "-a", "oa", "--option", "max_cuts=1")
    assert r.code == ExitCode.INPUT, r.stderr
    assert snapshot(db, "r") == before
    assert cli("verify", "--db", db, "--run", "r", "-q").code == 0
    # a replacement that succeeds takes the name, and the old one is gone
    r = fig2(*args, "-a", "da", "--json")
    assert r.code == 0, r.stderr
    after = snapshot(db, "r")
    assert after["row"][0][0] != before["row"][0][0] and after["row"][0][2] == "da"
    assert after["leftovers"] == []
    assert cli("verify", "--db", db, "--run", "r", "-q").code == 0
    runs = cli("runs", "--db", db, "--json").json()
    assert sorted(x["status"] for x in runs if x["name"] == "r") == ["complete", "replaced"]


def test_a_replacement_that_cannot_spill_keeps_the_run(tmp_path):
    db = tmp_path / "w.duckdb"
    before = good_run(db)
    spill = tmp_path / "ro"
    spill.mkdir()
    spill.chmod(0o500)
    if os.access(spill, os.W_OK):  # root writes anywhere: the folder cannot be made read-only
        spill.chmod(0o700)
        spill = tmp_path / "nowhere.txt"
        spill.write_text("a file, not a folder")
    r = fig2("anonymize", "--db", db, "--run", "r", "--replace", "-a", "partition", "-k", 2,
             "--temp-dir", spill, "-q")  # fmt: skip
    assert r.code in (ExitCode.USAGE, ExitCode.INPUT), r.stderr
    assert "internal error" not in r.stderr
    assert snapshot(db, "r") == before


def test_a_table_replacement_checked_after_loading_keeps_the_run(tmp_path):
    db = tmp_path / "w.duckdb"
    table = tmp_path / "t.csv"
    table.write_text("sex,age\nF,30\nM,31\nF,32\nM,33\n")
    sex = tmp_path / "sex.csv"
    sex.write_text("child,parent\nF,*\nM,*\n")
    base = ("anonymize-table", table, "--qi", "sex", "-t", f"sex={sex}", "--db", db, "--run", "t",
            "--drop", "age")  # fmt: skip
    assert cli(*base, "-k", 2, "-q").code == 0
    before = snapshot(db, "t")
    r = cli(*base, "-k", 5, "--replace", "-q")  # k larger than the table
    assert r.code == ExitCode.INPUT and "larger than the table" in r.stderr
    assert snapshot(db, "t") == before
    sex.write_text("child,parent\nF,*\n")  # a taxonomy missing a value of the column
    r = cli(*base, "-k", 2, "--replace", "-q")
    assert r.code == ExitCode.INPUT, r.stderr
    assert snapshot(db, "t") == before


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_during_the_replacement_keeps_the_run(tmp_path, sig, code):
    data = tmp_path / "big.txt"
    baskets(data)
    db = tmp_path / "w.duckdb"
    setanon = [sys.executable, "-m", "setanon_sql"]
    first = [*setanon, "anonymize", str(data), "--fanout", "4", "--db", str(db), "--run", "r"]
    subprocess.run([*first, "-a", "partition", "-k", "50", "-q"], check=True, capture_output=True)
    before = snapshot(db, "r")
    cmd = [*setanon, "anonymize", "--db", str(db), "--run", "r", "--replace", "-q"]
    proc = subprocess.Popen(
        [*cmd, "-a", "aa", "-k", "10", "-m", "2"],
        preexec_fn=as_from_a_terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    holding(proc, db)
    working(proc, 2.0)  # into the work: 2 CPU seconds past opening the database (of ~23)
    interrupt(proc, sig, code)
    assert snapshot(db, "r") == before
    con = duckdb.connect(str(db), read_only=True)
    try:
        statuses = con.execute("SELECT status FROM setanon.runs ORDER BY run_id").fetchall()
    finally:
        con.close()
    # the replacement is marked failed, unless the signal came before it was recorded at all
    assert statuses[0] == ("complete",) and set(statuses[1:]) <= {("failed",)}
