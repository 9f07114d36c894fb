"""`report` and `compare` on stored (k, k^m) runs (issue 41): the relational loss per QI and
the item loss worked by hand, the mixed-query error and the attacks shown, a tampered release's
verdict FAIL, the trade-off page of relational against item loss, and the transaction
workload's knobs refused with exit 2."""

from __future__ import annotations

import re

import duckdb
import pytest

from setanon_sql.errors import ExitCode
from setanon_sql.relational.rt_report import qi_losses
from setanon_sql.store.database import Store
from tests.helpers.cli import EX, cli, copied

TREE = "child,parent\na,A\nb,A\nc,B\nd,B\nA,*\nB,*\n"
TABLE = "sex,age,items\nF,30,a;b\nF,30,a\nM,30,c\nM,31,c;d\n"
PROBES = ("--queries", 20, "--targets", 20)


@pytest.fixture
def db(runs, tmp_path):
    """Each test's own copy of the database of `runs` (a test may add runs or tamper)."""
    return copied(runs, tmp_path) / "w.duckdb"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A run `r`: classes F {30, 30} and M {30, 31}, k=2, m=1: sex exact, the M class's ages
    released as '*' (age NCP 2/4 = 0.5, relational 0.25); F's b held once goes up to A, which
    covers a, M's d up to B covering c: every item at a node of 2 of 4 leaves, item NCP 1/3.
    And `r4`, k=4. Made once for the module, in its folder."""
    tmp_path = tmp_path_factory.mktemp("runs")
    (tmp_path / "t.csv").write_text(TABLE)
    (tmp_path / "h.csv").write_text(TREE)
    db = tmp_path / "w.duckdb"
    for run, k in (("r", 2), ("r4", 4)):
        r = cli(
            "anonymize-rt", tmp_path / "t.csv", "--qi", "sex", "--qi", "age", "-t",
            "sex=suppress", "-t", "age=suppress", "--items", "items", "-H", tmp_path / "h.csv",
            "-k", k, "-m", 1, "--db", db, "--run", run, "-q",
        )  # fmt: skip
        assert r.code == 0, r.stderr
    return tmp_path


def _text(path) -> str:
    page = re.sub(r"<svg.*?</svg>", "", path.read_text(), flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_the_losses_per_qi_by_hand(db):
    with Store(db) as store:
        assert qi_losses(store, "r") == {"sex": 0.0, "age": 0.5}


def test_report_shows_the_losses_queries_and_attacks(db, tmp_path):
    out = tmp_path / "r.html"
    r = cli("report", "--db", db, "--run", "r", "-o", out, *PROBES)
    assert r.code == 0, r.stderr
    text = _text(out)
    assert "Verdict: pass" in text
    assert "relational (mean over rows and QIs) 0.2500" in text
    assert "sex 0.0000" in text and "age 0.5000" in text
    assert "items (over item instances) 0.3333" in text
    assert "Mixed queries" in text and "Attacks" in text
    assert "<svg" in out.read_text()


def test_a_tampered_release_reports_fail(db, tmp_path):
    with duckdb.connect(str(db)) as con:  # a class of one on sex
        con.execute("UPDATE r.table_release SET sex = 'M' WHERE rid = 0")
    out = tmp_path / "r.html"
    assert cli("report", "--db", db, "--run", "r", "-o", out, *PROBES).code == 0
    assert "Verdict: FAIL" in _text(out)
    r = cli("compare", "r", "--db", db, *PROBES, "--json")
    assert r.code == 0, r.stderr
    assert r.json()[0]["promise_holds"] is False


def test_compare_puts_runs_side_by_side_with_their_trade_off(db, tmp_path):
    page = tmp_path / "c.html"
    r = cli("compare", "r", "r4", "--db", db, *PROBES, "--report", page, "--json")
    assert r.code == 0, r.stderr
    rows = {row["run"]: row for row in r.json()}
    assert rows["r"]["relational_ncp"] == pytest.approx(0.25)
    assert rows["r"]["item_ncp"] == pytest.approx(1 / 3)
    assert rows["r4"]["relational_ncp"] >= rows["r"]["relational_ncp"]  # one class of 4
    for row in rows.values():
        assert {"mixed_are_1", "mixed_are_2", "below_k_1", "below_k_2"} <= set(row)
        assert row["below_k_1"] == 0 and row["promise_holds"] is True
    assert "item NCP" in page.read_text() and "relational NCP" in page.read_text()


def test_compare_takes_a_transaction_run_beside_them(db):
    r = cli("anonymize", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-a", "aa", "-k", 2, "-m", 2,
            "--db", db, "--run", "t", "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    r = cli("compare", "r", "t", "--db", db, *PROBES, "--json")
    assert r.code == 0, r.stderr
    assert "item_ncp" in r.json()[0] and "ncp" in r.json()[1]


@pytest.mark.parametrize(
    ("command", "extra"),
    [("report", ("--minsup", "0.1")), ("report", ("--exact",)), ("compare", ("--minsup", "0.1"))],
)
def test_transaction_workload_knobs_are_refused(db, tmp_path, command, extra):
    args = ("--run", "r", "-o", tmp_path / "r.html") if command == "report" else ("r",)
    r = cli(command, *args, "--db", db, *extra)
    assert r.code == ExitCode.USAGE and "do not apply" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r.html").exists()
