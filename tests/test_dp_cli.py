"""-a dpsets through the command line (#44): its release flows through verify, evaluate,
report, compare and the release file; every bad input is one line with its exit code and
leaves nothing behind."""

from __future__ import annotations

import csv

import duckdb
import pytest
from helpers.cli import EX, cli

from setanon_sql.errors import ExitCode

FIG2, FIG2_H, CATALOGUE = EX / "fig2.csv", EX / "fig2_hierarchy.csv", EX / "fig2_catalogue.csv"
DP = ["anonymize", FIG2, "-H", CATALOGUE, "-a", "dpsets"]


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
        # a share more or less than the measurements made: refused, never cut or padded
        (["--option", "split=5,1,1,1,9"], ExitCode.USAGE, "takes 4 shares with max_size 2"),
        (["--option", "split=5,1,1"], ExitCode.USAGE, "takes 4 shares with max_size 2"),
        (["--option", "split=1,2,1,2", "--option", "max_size=1"], ExitCode.USAGE, "takes 2"),
        # no budget is chosen for the user
        ([], ExitCode.USAGE, "-a dpsets needs --epsilon"),
        (["--option", "public_domain=maybe"], ExitCode.USAGE, "public_domain"),
        (["--option", "made_up=0"], ExitCode.USAGE, "made_up"),
        (["--option", "made_up=1.5"], ExitCode.USAGE, "made_up"),
        # the pair options act only where the pairs are measured: refused, never ignored
        (["--option", "max_size=1", "--option", "limit2=3"], ExitCode.USAGE, "limit2 acts only"),
        (["--option", "max_size=1", "--option", "pair_items=9"], ExitCode.USAGE, "pair_items"),
    ],
)
def test_bad_input_is_one_line_with_its_code(tmp_path, args, code, message) -> None:
    db = tmp_path / "w.duckdb"
    given = "epsilon" in message or any("epsilon" in str(a) for a in args)
    budget = [] if given else ["--epsilon", 1]  # each case's one bad input, and a budget
    r = cli(*DP, "--db", db, *budget, *args)
    assert r.code == code, r.stderr
    assert message in one_line(r.stderr)
    if db.exists():  # nothing left behind: no run recorded
        with duckdb.connect(str(db), read_only=True) as con:
            assert con.execute("SELECT count(*) FROM setanon.runs").fetchone() == (0,)


@pytest.mark.parametrize(
    "built", [["--fanout", 2], ["--fanout", 2, "--order", "id"], ["--code-prefix"]]
)
def test_a_tree_built_from_the_data_is_refused_before_anything_is_read(tmp_path, built) -> None:
    """Its leaves are exactly the data's items: an item one transaction holds could be released
    only when that transaction is in the data, a difference no epsilon bounds."""
    db = tmp_path / "w.duckdb"
    r = cli("anonymize", FIG2, *built, "-a", "dpsets", "--epsilon", 1, "--db", db)
    assert r.code == ExitCode.USAGE
    assert "needs a public item domain" in one_line(r.stderr) and "catalogue" in r.stderr
    assert not db.exists()


def test_a_stored_tree_built_from_the_data_is_refused_too(tmp_path) -> None:
    db = tmp_path / "w.duckdb"
    assert cli("load", FIG2, "--fanout", 2, "--order", "id", "--db", db, "-q").code == 0
    r = cli("anonymize", "--db", db, "-a", "dpsets", "--epsilon", 1)
    assert r.code == ExitCode.USAGE and "not a tree built from the data" in one_line(r.stderr)
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM setanon.runs").fetchone() == (0,)


def test_a_file_of_exactly_the_datas_items_is_refused_unless_stated_public(tmp_path) -> None:
    """A tree `hierarchy build` made from the same data, or any file whose leaves are the
    data's items: refused; stated public knowledge with an explicit option, run and recorded."""
    db, built = tmp_path / "w.duckdb", tmp_path / "built.csv"
    assert cli("hierarchy", "build", FIG2, "--fanout", 2, "--order", "id", "-o", built).code == 0
    for tree in (built, FIG2_H):
        r = cli("anonymize", FIG2, "-H", tree, "-a", "dpsets", "--epsilon", 1, "--db", db)
        assert r.code == ExitCode.USAGE, r.stderr
        assert "leaves are exactly the data's items" in one_line(r.stderr)
    public = ["--option", "public_domain=true", "--run", "pub", "-q"]
    assert cli("anonymize", FIG2, "-H", FIG2_H, "-a", "dpsets", "--epsilon", 1, "--db", db,
               *public).code == 0  # fmt: skip
    recorded = cli("runs", "--db", db, "--json").json()
    assert [r["params"]["options"]["public_domain"] for r in recorded] == [True]


def test_items_outside_the_catalogue_are_dropped_unnamed(tmp_path) -> None:
    """An item the catalogue lacks is dropped before any count, never named: naming it (or
    stopping on it) says a transaction holds it."""
    data, out = tmp_path / "d.csv", tmp_path / "rel.csv"
    data.write_text(FIG2.read_text() + "t9,secret_item\nt1,secret_item\n")
    r = cli("anonymize", data, "-H", CATALOGUE, "-a", "dpsets", "--epsilon", 1, "-o", out)
    assert r.code == 0, r.stderr
    assert "secret_item" not in r.stderr + r.stdout
    with out.open() as f:
        assert {row["item"] for row in csv.DictReader(f)} <= {"a1", "a2", "a3", "b1", "b2", "b3"}
    # another algorithm still refuses the file that lacks an item of the data, naming it
    r = cli("anonymize", data, "-H", CATALOGUE, "-a", "aa", "-k", 2, "-m", 2)
    assert r.code == ExitCode.INPUT and "secret_item" in one_line(r.stderr)


def test_an_empty_dataset_is_bad_input(tmp_path) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_text("tid,item\n")
    r = cli("anonymize", empty, "-H", CATALOGUE, "-a", "dpsets", "--epsilon", 1)
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
    assert 0.25 < made["made_up_share"] <= 1  # a share of the rows: never more than all
    assert "the data is small for epsilon 2.0" in r.stderr
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
    assert {r["item"] for r in rows} <= {"a1", "a2", "a3", "b1", "b2", "b3"}
    with duckdb.connect(str(db), read_only=True) as con:
        released = con.execute("SELECT count(DISTINCT tid) FROM dp.release").fetchone()[0]
    assert released == len(tids)


def test_a_sweep_over_epsilon_draws_the_utility_curve(tmp_path) -> None:
    r = cli("sweep", FIG2, "-H", CATALOGUE, "-a", "dpsets,aa", "-k", 2, "--epsilon", "0.5,2",
            "--queries", 20, "--targets", 5, "--json")  # fmt: skip
    assert r.code == 0, r.stderr
    names = sorted(row["run"] for row in r.json())
    assert names == ["run_aa_k2_m2", "run_dpsets_eps0_5", "run_dpsets_eps2"]
    bad = cli("sweep", FIG2, "-H", CATALOGUE, "-a", "dpsets", "--epsilon", "0.5,x")
    assert bad.code == ExitCode.USAGE and "--epsilon" in one_line(bad.stderr)
    bad = cli("sweep", FIG2, "-H", CATALOGUE, "-a", "dpsets", "--epsilon", "0")
    assert bad.code == ExitCode.USAGE and "epsilon" in one_line(bad.stderr)
    bad = cli("sweep", FIG2, "-H", CATALOGUE, "-a", "dpsets,aa", "-k", 2)  # no default budget
    assert bad.code == ExitCode.USAGE and "epsilon" in one_line(bad.stderr)


def test_a_dp_release_is_evaluated_exactly(tmp_path) -> None:
    db = tmp_path / "w.duckdb"
    assert cli(*DP, "--epsilon", 1, "--db", db, "--run", "dp", "-q").code == 0
    r = cli("evaluate", "--db", db, "--run", "dp", "--sample", "0.5")
    assert r.code == ExitCode.USAGE and "exactly" in one_line(r.stderr)


def test_a_seeded_run_is_written_but_says_it_is_not_private(tmp_path, monkeypatch) -> None:
    """The test mode's seed makes the noise reproducible (two runs, one release): the release
    is written so tests can read it, but anonymize and verify exit 1 with a line saying so,
    under --quiet too, and the run records it."""
    from setanon_sql.algorithms.dp_noise import TEST_SEED_ENV

    monkeypatch.setenv(TEST_SEED_ENV, "5")
    db = tmp_path / "w.duckdb"
    made = []
    for run in ("s1", "s2"):
        out = tmp_path / f"{run}.csv"
        r = cli(*DP, "--epsilon", 1, "--db", db, "--run", run, "-o", out, "-q")
        assert r.code == ExitCode.VIOLATED and r.stdout == ""
        assert [x for x in r.stderr.splitlines() if "seeded test run" in x and "NOT" in x]
        made.append(out.read_text())
    assert made[0] == made[1]  # anyone who knows the seed has the noise
    listed = cli("runs", "--db", db, "--json").json()
    assert all(row["results"]["info"]["seeded_test"] for row in listed)
    r = cli("verify", "--db", db, "--run", "s1", "-q")
    assert r.code == ExitCode.VIOLATED
    assert "seeded test run" in one_line(r.stderr) and "not differentially private" in r.stderr
    r = cli("verify", "--db", db, "--run", "s1", "--json")
    assert r.code == ExitCode.VIOLATED and r.json()["seeded_test"] and not r.json()["ok"]
    monkeypatch.delenv(TEST_SEED_ENV)
    r = cli(*DP, "--epsilon", 1, "--db", db, "--run", "real", "-q")
    assert r.code == 0 and "seeded" not in r.stderr
    assert cli("verify", "--db", db, "--run", "real", "-q").code == 0


def test_a_stored_catalogue_is_refused_to_another_algorithm(tmp_path) -> None:
    """The transactions encoded over a catalogue lack the items it lacks: an aa run reading
    that stored tree would release a dataset without them, silently."""
    data, db = tmp_path / "d.csv", tmp_path / "w.duckdb"
    data.write_text(FIG2.read_text() + "t9,secret_item\n")
    assert cli("anonymize", data, "-H", CATALOGUE, "-a", "dpsets", "--epsilon", 1, "--db", db,
               "-q").code == 0  # fmt: skip
    r = cli("anonymize", "--db", db, "-a", "aa", "-k", 2, "-m", 2)
    assert r.code == ExitCode.USAGE and "catalogue" in one_line(r.stderr)
    assert "secret_item" not in r.stderr


def test_a_seeded_sweep_says_its_runs_are_not_private(monkeypatch) -> None:
    from setanon_sql.algorithms.dp_noise import TEST_SEED_ENV

    args = ["sweep", FIG2, "-H", CATALOGUE, "-a", "dpsets", "--epsilon", 2, "--queries", 5,
            "--targets", 5, "--json"]  # fmt: skip
    assert "seeded" not in cli(*args).stderr
    monkeypatch.setenv(TEST_SEED_ENV, "3")
    r = cli(*args)
    assert r.code == 0 and "NOT differentially private" in r.stderr
