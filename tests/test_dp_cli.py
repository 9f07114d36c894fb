"""-a dpsets through the command line (#44): its release flows through verify, evaluate,
report, compare and the release file; every bad input is one line with its exit code and
leaves nothing behind."""

from __future__ import annotations

import csv

import duckdb
import pytest
from helpers.cli import EX, cli

from setanon_sql.errors import ExitCode

FIG2, FIG2_H = EX / "fig2.csv", EX / "fig2_hierarchy.csv"
DP = ["anonymize", FIG2, "-H", FIG2_H, "-a", "dpsets"]


def one_line(stderr: str) -> str:
    lines = [x for x in stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--epsilon", "0"], ExitCode.USAGE, "epsilon"),
        (["--epsilon", "-1"], ExitCode.USAGE, "epsilon"),
        (["--epsilon", "nan"], ExitCode.USAGE, "finite"),
        (["--epsilon", "inf"], ExitCode.USAGE, "finite"),
        (["--option", "epsilon=-0.5"], ExitCode.USAGE, "epsilon"),
        (["--epsilon", "1", "--option", "epsilon=2"], ExitCode.USAGE, "once"),
        (["--option", "seed=3"], ExitCode.USAGE, "voids the differential-privacy promise"),
        (["-k", "5"], ExitCode.USAGE, "-k does not apply"),
        (["-m", "2"], ExitCode.USAGE, "not k^m-anonymity: m does not apply"),
        (["--option", "max_size=3"], ExitCode.USAGE, "max_size"),
        (["--option", "longest=3"], ExitCode.USAGE, "longest"),  # below limit2 = 4
        (["--option", "split=1,x"], ExitCode.USAGE, "split"),
        (["--option", "made_up=0"], ExitCode.USAGE, "made_up"),
        (["--option", "made_up=1.5"], ExitCode.USAGE, "made_up"),
        # the pair options act only where the pairs are measured: refused, never ignored
        (["--option", "max_size=1", "--option", "limit2=3"], ExitCode.USAGE, "limit2 acts only"),
        (["--option", "max_size=1", "--option", "pair_items=9"], ExitCode.USAGE, "pair_items"),
    ],
)
def test_bad_input_is_one_line_with_its_code(tmp_path, args, code, message) -> None:
    db = tmp_path / "w.duckdb"
    r = cli(*DP, "--db", db, *args)
    assert r.code == code, r.stderr
    assert message in one_line(r.stderr)
    if db.exists():  # nothing left behind: no run recorded
        with duckdb.connect(str(db), read_only=True) as con:
            assert con.execute("SELECT count(*) FROM setanon.runs").fetchone() == (0,)


def test_a_support_ordered_tree_is_refused_before_anything_is_read(tmp_path) -> None:
    db = tmp_path / "w.duckdb"
    r = cli("anonymize", FIG2, "--fanout", 2, "-a", "dpsets", "--db", db)
    assert r.code == ExitCode.USAGE
    assert "support-ordered" in one_line(r.stderr)
    assert not db.exists()
    assert cli("anonymize", FIG2, "--fanout", 2, "--order", "id", "-a", "dpsets", "-q").code == 0


def test_a_stored_support_ordered_tree_is_refused_too(tmp_path) -> None:
    db = tmp_path / "w.duckdb"
    assert cli("load", FIG2, "--fanout", 2, "--db", db, "-q").code == 0
    r = cli("anonymize", "--db", db, "-a", "dpsets")
    assert r.code == ExitCode.USAGE and "support-ordered" in one_line(r.stderr)
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM setanon.runs").fetchone() == (0,)


def test_an_empty_dataset_is_bad_input(tmp_path) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_text("tid,item\n")
    r = cli("anonymize", empty, "--fanout", 2, "--order", "id", "-a", "dpsets")
    assert r.code == ExitCode.INPUT and "no transactions" in one_line(r.stderr)


def test_epsilon_is_refused_for_other_algorithms() -> None:
    r = cli("anonymize", FIG2, "-H", FIG2_H, "-a", "aa", "-m", 2, "--epsilon", 1)
    assert r.code == ExitCode.USAGE and "differentially private" in one_line(r.stderr)


def test_the_release_flows_through_every_judging_command(tmp_path) -> None:
    db, out = tmp_path / "w.duckdb", tmp_path / "rel.csv"
    r = cli(*DP, "--epsilon", 2, "--db", db, "--run", "dp", "-o", out, "--json")
    assert r.code == 0, r.stderr
    made = r.json()
    assert made["epsilon"] == 2 and made["epsilon_spent"] == pytest.approx(2)
    assert made["k"] is None and made["m"] is None and made["release"] == "synthetic"
    assert made["checked"].startswith("budget record checked")  # not a checked promise
    assert made["made_up_share"] > 0.25 and "the data is small for epsilon 2.0" in r.stderr
    listed = cli("runs", "--db", db, "--json").json()  # the registry records no k it never read
    assert listed[0]["params"]["k"] is None and listed[0]["params"]["options"]["epsilon"] == 2
    r = cli("verify", "--db", db, "--run", "dp", "--json")
    assert r.code == 0, r.stderr
    verdict = r.json()
    assert verdict["ok"] and verdict["model"] == "dp" and "no check" in verdict["note"]
    assert cli("verify", "--db", db, "--run", "dp", "-k", 2).code == ExitCode.USAGE
    r = cli("evaluate", "--db", db, "--run", "dp", "--json")
    assert r.code == 0, r.stderr
    assert all(not a["promised"] for a in r.json()["attacks"])
    assert cli("report", "--db", db, "--run", "dp", "-o", tmp_path / "r.html").code == 0
    assert cli(*DP[:-2], "-a", "aa", "-k", 2, "-m", 2, "--db", db, "--run", "aa", "-q").code == 0
    assert cli("compare", "--db", db, "dp", "aa").code == 0
    with out.open() as f:  # its own transactions: new tids 1..n, original item labels
        rows = list(csv.DictReader(f))
    tids = sorted({int(r["tid"]) for r in rows})
    assert tids == list(range(1, len(tids) + 1))
    assert {r["item"] for r in rows} <= {"a1", "a2", "b1", "b2"}
    with duckdb.connect(str(db), read_only=True) as con:
        released = con.execute("SELECT count(DISTINCT tid) FROM dp.release").fetchone()[0]
    assert released == len(tids)


def test_a_sweep_over_epsilon_draws_the_utility_curve(tmp_path) -> None:
    r = cli("sweep", FIG2, "-H", FIG2_H, "-a", "dpsets,aa", "-k", 2, "--epsilon", "0.5,2",
            "--queries", 20, "--targets", 5, "--json")  # fmt: skip
    assert r.code == 0, r.stderr
    names = sorted(row["run"] for row in r.json())
    assert names == ["run_aa_k2_m2", "run_dpsets_eps0_5", "run_dpsets_eps2"]
    bad = cli("sweep", FIG2, "-H", FIG2_H, "-a", "dpsets", "--epsilon", "0.5,x")
    assert bad.code == ExitCode.USAGE and "--epsilon" in one_line(bad.stderr)
    bad = cli("sweep", FIG2, "-H", FIG2_H, "-a", "dpsets", "--epsilon", "0")
    assert bad.code == ExitCode.USAGE and "epsilon" in one_line(bad.stderr)


def test_a_dp_release_is_evaluated_exactly(tmp_path) -> None:
    db = tmp_path / "w.duckdb"
    assert cli(*DP, "--db", db, "--run", "dp", "-q").code == 0
    r = cli("evaluate", "--db", db, "--run", "dp", "--sample", "0.5")
    assert r.code == ExitCode.USAGE and "exactly" in one_line(r.stderr)
