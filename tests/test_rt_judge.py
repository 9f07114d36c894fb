"""Judging stored (k, k^m) runs (issue 41): `verify --run` passes a run as made and fails it,
exit 1, once its release is tampered with; `metrics --run` gives the losses the run reported;
options that do not apply are refused with exit 2."""

from __future__ import annotations

import duckdb
import pytest

from setanon_sql.errors import ExitCode
from tests.helpers.cli import cli

EDGES = (("a", "A"), ("b", "A"), ("c", "B"), ("d", "B"), ("A", "*"), ("B", "*"))
TABLE = "sex,items\nF,a;b\nF,a\nF,b\nF,a;b\nM,c\nM,c;d\nM,d\nM,c\n"


@pytest.fixture
def made(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text(TABLE)
    h = tmp_path / "h.csv"
    h.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in EDGES))
    db = tmp_path / "w.duckdb"
    r = cli(
        "anonymize-rt", table, "--qi", "sex", "-t", "sex=suppress", "--items", "items", "-H", h,
        "-k", "2", "-m", "2", "--db", db, "--run", "r", "--item-search", "topdown", "--json",
    )  # fmt: skip
    assert r.code == 0, r.stderr
    return db, r.json()


def test_a_run_as_made_passes_and_its_metrics_are_the_reported_ones(made):
    db, summary = made
    r = cli("verify", "--db", db, "--run", "r", "--json")
    assert r.code == 0, r.stderr
    assert r.json()["ok"] and r.json()["m"] == 2 and r.json()["classes"] == 2
    r = cli("metrics", "--db", db, "--run", "r", "--json")
    assert r.code == 0, r.stderr
    assert r.json()["relational_ncp"] == pytest.approx(summary["relational_ncp"])
    assert r.json()["item_ncp"] == pytest.approx(summary["item_ncp"])


def test_a_tampered_release_fails_with_exit_1(made):
    db, _ = made
    with duckdb.connect(str(db)) as con:  # an item no record of the class holds
        con.execute(
            "UPDATE r.table_release SET items = 'd' WHERE rid = (SELECT min(rid) FROM r.table_release)"
        )
    r = cli("verify", "--db", db, "--run", "r", "--json")
    assert r.code == 1, r.stderr
    assert not r.json()["ok"] and r.json()["item_problems"] > 0


@pytest.mark.parametrize(
    ("command", "extra", "says"),
    [
        ("verify", ("--k", "3"), "verified with its own k and m"),
        ("verify", ("--multiset",), "verified with its own k and m"),
        ("metrics", ("--per-copy",), "for transaction releases"),
    ],
)
def test_options_that_do_not_apply_are_refused(made, command, extra, says):
    db, _ = made
    r = cli(command, "--db", db, "--run", "r", *extra)
    assert r.code == ExitCode.USAGE and says in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
