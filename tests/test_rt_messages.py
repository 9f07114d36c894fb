"""`anonymize-rt` and `sweep-rt` speak in their own flags: no advice to give a `--fanout` they
do not have, no hierarchy demanded for a set column disassociated as it is (that shape never
uses one), and the library's refusals name the flag (`--class-size`), never the parameter
(`class_size`)."""

from __future__ import annotations

import re

import pytest
from helpers.cli import cli

from setanon_sql.errors import ExitCode

TABLE = "sex,items\nF,a;b\nF,a\nM,c\nM,c;d\n"
TREE = "child,parent\na,A\nb,A\nc,B\nd,B\nA,*\nB,*\n"
# a library parameter's name in a message: a word with an underscore, or `name=` (`classes=`)
PARAMETER = re.compile(r"(?<![-\w])[a-z]+_[a-z_]+\b|\b[a-z_]+='")


def _table(tmp_path) -> tuple:
    table, tree = tmp_path / "t.csv", tmp_path / "h.csv"
    table.write_text(TABLE)
    tree.write_text(TREE)
    return table, tree


def _rt(tmp_path, *extra, command="anonymize-rt"):
    table, _ = _table(tmp_path)
    return cli(command, table, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
               "-k", 2, "-m", 1, *extra)  # fmt: skip


def test_a_missing_hierarchy_names_the_flags_the_command_has(tmp_path):
    for command in ("anonymize-rt", "sweep-rt"):
        extra = ("--class-size", 2) if command == "sweep-rt" else ()
        r = _rt(tmp_path, *extra, command=command)
        assert r.code == ExitCode.USAGE, r.stderr
        assert "--fanout" not in r.stderr and "-H FILE" in r.stderr, r.stderr
        assert ("--code-prefix" in r.stderr) == (command == "anonymize-rt"), r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_a_disassociated_set_column_needs_no_hierarchy(tmp_path):
    out, chunks = tmp_path / "rel.csv", tmp_path / "chunks"
    r = _rt(tmp_path, "--set-release", "disassociate", "-o", out, "--chunks-output", chunks,
            "--db", tmp_path / "w.duckdb", "--run", "dis", "--json")  # fmt: skip
    assert r.code == 0, r.stderr
    assert r.json()["verified"]["ok"] and (chunks / "release.json").exists()
    assert cli("verify", "--db", tmp_path / "w.duckdb", "--run", "dis").code == 0
    e = cli("evaluate", "--db", tmp_path / "w.duckdb", "--run", "dis", "--json")
    assert e.code == 0, e.stderr
    s = _rt(tmp_path, "--set-release", "disassociate", "--class-size", 2, command="sweep-rt")
    assert s.code == 0, s.stderr


@pytest.mark.parametrize(
    ("extra", "flag"),
    [
        (("--class-size", 1), "--class-size"),
        (("--classes", "kmeans"), "--classes"),
        (("--item-search", "sideways"), "--item-search"),
        (("--delta", 2), "--delta"),
        (("--delta", 0.5, "--sensitive", "sex", "--l", 2), "--delta"),
        (("--classes", "cuts", "--sensitive", "sex", "--l", 2), "--classes cuts"),
        (("--set-release", "disassociate", "--max-cluster", 1), "--max-cluster"),
        (("--set-release", "disassociate", "--joint-size", 0), "--joint-size"),
        (("-m", 40), "-m"),
    ],
)
def test_refusals_name_the_flag_not_the_parameter(tmp_path, extra, flag):
    _, tree = _table(tmp_path)
    r = _rt(tmp_path, "-H", tree, *extra)
    assert r.code == ExitCode.USAGE, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert flag in r.stderr and not PARAMETER.search(r.stderr), r.stderr
