"""What was accepted silently and then ignored or misread is refused in one line (issue 40):
two `-t` for one column (the last one won), and `--encoding utf-16` on UTF-8 data (a line
file read as one transaction of one CJK-looking item)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import EX, cli

from setanon_sql.errors import ExitCode

BASKETS = "1 2 3\n2 3\n1 3 4\n1 2\n"


@pytest.fixture
def table(tmp_path: Path) -> dict[str, Path]:
    t, sex = tmp_path / "t.csv", tmp_path / "sex.csv"
    t.write_text("sex,age\nF,30\nM,31\nF,32\nM,33\n")
    sex.write_text("child,parent\nF,*\nM,*\n")
    return {"table": t, "sex": sex}


def test_two_taxonomies_for_one_column_are_refused(table) -> None:
    r = cli("anonymize-table", table["table"], "--qi", "sex", "-t", f"sex={table['sex']}",
            "-t", "sex=suppress", "-k", 2, "-q")  # fmt: skip
    assert r.code == ExitCode.USAGE, r.stderr
    assert "--taxonomy sex= given twice" in r.stderr and len(r.stderr.splitlines()) == 1


def test_one_taxonomy_a_column_is_taken(table) -> None:
    r = cli("anonymize-table", table["table"], "--qi", "sex", "--qi", "age",
            "-t", f"sex={table['sex']}", "-t", "age=suppress", "-k", 2, "-q")  # fmt: skip
    assert r.code == ExitCode.OK, r.stderr


def one_line(r, *said: str) -> None:
    assert r.code == ExitCode.INPUT, (r.code, r.stderr)
    assert all(s in r.stderr for s in said) and len(r.stderr.splitlines()) == 1, r.stderr


@pytest.mark.parametrize("encoding", ["utf-16", "UTF-16LE", "utf-32"])
def test_utf8_lines_said_to_be_utf16_are_refused(tmp_path, encoding) -> None:
    data = tmp_path / "b.txt"
    data.write_text(BASKETS)  # an even number of bytes: decodes as UTF-16 without an error
    r = cli("load", data, "--encoding", encoding, "--db", tmp_path / "w.duckdb", "--json")
    one_line(r, f"{data} is not", "--encoding utf-8")


def test_utf8_csv_said_to_be_utf16_is_refused(tmp_path) -> None:
    data = tmp_path / "b.csv"
    data.write_text("tid,item\n1,a\n1,b\n2,a\n")
    r = cli("load", data, "--encoding", "utf-16", "--db", tmp_path / "w.duckdb")
    one_line(r, f"{data} is not utf-16 text")


def test_a_utf8_table_said_to_be_utf16_is_refused(table) -> None:
    r = cli("anonymize-table", table["table"], "--qi", "sex", "-t", "sex=suppress", "-k", 2,
            "-q", "--encoding", "utf-16")  # fmt: skip
    one_line(r, f"{table['table']} is not utf-16 text")


def test_a_utf8_hierarchy_said_to_be_utf16_is_refused() -> None:
    r = cli("anonymize", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-a", "aa", "-k", 2,
            "-m", 2, "-q", "--hierarchy-encoding", "utf-16")  # fmt: skip
    one_line(r, "fig2_hierarchy.csv is not utf-16 text", "--hierarchy-encoding utf-8")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_utf16_text_is_read(tmp_path, encoding) -> None:
    data = tmp_path / "b.txt"
    data.write_text(BASKETS, encoding=encoding)
    r = cli("load", data, "--encoding", encoding, "--db", tmp_path / "w.duckdb", "--json")
    assert r.code == ExitCode.OK, r.stderr
    assert r.json()["transactions"] == 4 and r.json()["items"] == 4


def test_a_utf16_table_is_read(tmp_path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("sex,age\nF,30\nM,31\nF,32\nM,33\n", encoding="utf-16")
    r = cli("anonymize-table", table, "--qi", "sex", "-t", "sex=suppress", "-k", 2, "-q",
            "--encoding", "utf-16", "--drop", "age")  # fmt: skip
    assert r.code == ExitCode.OK, r.stderr
