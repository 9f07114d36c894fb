"""What the tool says is right and said once (issue 26, defects 9 and 10): a table run judged
by a transactions command is named as such, an unknown tid is named once, a figure that does
not apply is not printed, and `report` works after README's install command."""

from __future__ import annotations

import re
from importlib.metadata import requires

from helpers.cli import EX, cli

from setanon_sql.errors import ExitCode


def _table_run(tmp_path):
    db = tmp_path / "w.duckdb"
    table, sex = tmp_path / "t.csv", tmp_path / "sex.csv"
    table.write_text("sex,age\nF,30\nM,31\nF,32\nM,33\n")
    sex.write_text("child,parent\nF,*\nM,*\n")
    r = cli("anonymize-table", table, "--qi", "sex", "-t", f"sex={sex}", "-k", 2, "--db", db,
            "--run", "t", "--drop", "age", "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    return db


def test_report_and_compare_name_a_table_run_as_such(tmp_path) -> None:
    db = _table_run(tmp_path)
    for line in (("report", "--run", "t", "-o", tmp_path / "r.html"), ("compare", "t")):
        r = cli(*line, "--db", db)
        assert r.code == ExitCode.USAGE, r.stderr
        assert "table run" in r.stderr and "give k" not in r.stderr
        assert "setanon evaluate --run t" in r.stderr


def test_an_unknown_tid_of_a_release_file_is_named_once(tmp_path) -> None:
    release = tmp_path / "r.csv"
    release.write_text("tid,item\nt1,a1\nzz,b1\nzz,b2\n")
    r = cli("verify", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-r", release, "-k", 2)
    assert r.code == ExitCode.INPUT
    assert r.stderr.count("'zz'") == 1, r.stderr


def test_the_result_table_leaves_out_what_does_not_apply() -> None:
    r = cli("anonymize", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-a", "aa",
            "-k", 2, "-m", 2)  # fmt: skip
    assert r.code == 0
    assert "output_table" not in r.stdout and "None" not in r.stdout


def test_report_needs_no_extra_beyond_the_install_command() -> None:
    """README's first command installs the package alone; `report` draws with matplotlib."""
    plain = [d for d in requires("setanon-sql") or [] if "extra ==" not in d]
    assert any(re.match(r"matplotlib\b", d) for d in plain), plain
