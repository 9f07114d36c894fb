"""Ctrl-C and SIGTERM in the middle of a long run: a clear exit code, nothing partial left, the
database opens and the user's tables are as they were."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from helpers.cli import as_from_a_terminal, holding, interrupt, working
from helpers.user_files import baskets, user_db, user_objects


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_mid_run_leaves_nothing_partial(tmp_path, sig, code):
    data = tmp_path / "big.txt"
    baskets(data)
    db = user_db(tmp_path / "shop.duckdb")
    before = user_objects(db)
    out = tmp_path / "rel.csv"
    spill = tmp_path / "tmp"
    spill.mkdir()
    env = dict(os.environ, TMPDIR=str(spill))
    setanon = [sys.executable, "-m", "setanon_sql"]
    load = [*setanon, "load", str(data), "--fanout", "4", "--db", str(db)]
    subprocess.run(load, check=True, env=env, capture_output=True)
    cmd = [*setanon, "anonymize", "-a", "aa", "-k", "10", "-m", "2", "--db", str(db)]
    cmd += ["-o", str(out), "-q"]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        preexec_fn=as_from_a_terminal,
    )
    holding(proc, db)
    working(proc, 2.0)  # into the work: 2 CPU seconds past opening the database (of ~23)
    interrupt(proc, sig, code)
    assert not out.exists()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".rel.csv")]
    assert list(spill.iterdir()) == []
    assert user_objects(db) == before
    con = duckdb.connect(str(db), read_only=True)
    try:
        status = con.execute("SELECT DISTINCT status FROM setanon.runs").fetchall()
        schemas = {s for (s,) in con.execute("SELECT schema_name FROM duckdb_schemas()").fetchall()}
    finally:
        con.close()
    assert status == [("failed",)]
    assert not [s for s in schemas if s.startswith("run_")]


# Stands in for Ctrl-C landing while Python imports the command line: importing
# setanon_sql.cli raises KeyboardInterrupt, exactly where the signal would.
_INTERRUPT_THE_IMPORT = """
import sys
class Finder:
    def find_spec(self, name, path=None, target=None):
        if name == "setanon_sql.cli":
            raise KeyboardInterrupt
sys.meta_path.insert(0, Finder())
sys.argv = ["setanon", "datasets"]
from setanon_sql.console import main
main()
"""


def test_ctrl_c_while_the_cli_imports_is_one_line_and_130():
    done = subprocess.run(
        [sys.executable, "-c", _INTERRUPT_THE_IMPORT], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 130
    assert done.stderr == "error: interrupted\n"


def test_the_console_entry_runs_the_cli(tmp_path):
    """The installed `setanon` script and `python -m setanon_sql` both go through the console
    module, so the guard above is the one users get."""
    done = subprocess.run(
        [sys.executable, "-m", "setanon_sql", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0 and "anonymize" in done.stdout
    script = Path(sys.executable).with_name("setanon")
    assert "setanon_sql.console" in script.read_text()
