"""`setanon anonymize-rt --set-release disassociate` (issue 41): the table file and the chunks'
folder written together and verified; what does not apply refused in one line (exit 2); a
stored run judged by `verify`, `metrics`, `evaluate`, `report` and `compare`."""

from __future__ import annotations

import json

import duckdb
import pytest

from setanon_sql.errors import ExitCode
from tests.helpers.cli import cli

ITEM_EDGES = (("a", "A"), ("b", "A"), ("c", "B"), ("d", "B"), ("A", "*"), ("B", "*"))
GOOD = "sex,items\nF,a;b\nF,a\nM,c\nM,c;d\n"


def _rt(tmp_path, *extra):
    table = tmp_path / "t.csv"
    table.write_text(GOOD)
    tree = tmp_path / "h.csv"
    tree.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in ITEM_EDGES))
    return cli(
        "anonymize-rt", table, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
        "-H", tree, "-k", "2", "-m", "1", *extra,
    )  # fmt: skip


def test_the_table_and_its_chunks_are_written_and_verified(tmp_path):
    out, chunks = tmp_path / "rel.csv", tmp_path / "chunks"
    r = _rt(tmp_path, "--set-release", "disassociate", "-o", out, "--chunks-output", chunks,
            "--json")  # fmt: skip
    assert r.code == 0, r.stderr
    assert r.json()["verified"]["ok"] and r.json()["item_ncp"] == 0
    assert out.read_text().splitlines() == ["sex,set_cluster", "F,1", "F,1", "M,2", "M,2"]
    manifest = json.loads((chunks / "release.json").read_text())
    assert manifest["release"] == "disassociation" and manifest["table"] == "rel.csv"
    assert (chunks / "record_chunks.csv").read_text().splitlines() == [
        "cluster,chunk,row,item", "1,1,1,a", "1,1,2,a", "2,1,1,c", "2,1,2,c",
    ]  # fmt: skip
    assert sorted((chunks / "term_chunks.csv").read_text().splitlines()) == [
        "1,b", "2,d", "cluster,item",
    ]  # fmt: skip
    # the chunks are a disassociated release `estimate` reads: a, b once each in cluster 1
    e = cli("estimate", chunks, "-i", "a", "-i", "a b", "--json")
    assert e.code == 0, e.stderr
    assert [a["estimate"] for a in e.json()["answers"]] == [2.0, 1.0]


def test_the_chunks_folder_says_what_was_suppressed_as_the_transaction_folder_does(tmp_path):
    """One class of 2k records whose cover is repaired by suppressing one occurrence (the
    transactions of test_verify_folder's suppression case): the folder's manifest says so, and
    the folder verifies against the set column's transactions; without it, `a` is held more
    often than the release allows."""
    table, tree = tmp_path / "t.csv", tmp_path / "h.csv"
    table.write_text("sex,items\nF,a;c\nF,a\nF,a\nF,c\nF,c\nF,d\n")
    tree.write_text("child,parent\na,*\nc,*\nd,*\n")
    out, chunks, db = tmp_path / "rel.csv", tmp_path / "chunks", tmp_path / "w.duckdb"
    r = cli(
        "anonymize-rt", table, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
        "-H", tree, "-k", 3, "-m", 2, "--set-release", "disassociate", "--no-refine",
        "-o", out, "--chunks-output", chunks, "--db", db, "--run", "c", "-q",
    )  # fmt: skip
    assert r.code == 0, r.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        (cut,) = con.execute("SELECT count(*) FROM c.suppressed_items").fetchone()
    assert cut == 1
    assert json.loads((chunks / "release.json").read_text())["suppressed"] == cut
    transactions = tmp_path / "tx.txt"
    transactions.write_text("a c\na\na\nc\nc\nd\n")
    v = cli("verify", transactions, "-r", chunks)
    assert v.code == 0, v.stdout + v.stderr


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (("--set-release", "disassociate", "-o", "{out}"), "--chunks-output"),
        (("--set-release", "disassociate", "--item-search", "lift"), "--item-search"),
        (("--max-cluster", "5"), "--set-release disassociate"),
        (("--set-release", "disassociate", "--no-refine", "--joint-size", "4"), "--no-refine"),
        (("--set-release", "disassociate", "--max-cluster", "1"), "--max-cluster must be"),
    ],
)
def test_what_does_not_apply_is_refused_and_nothing_written(tmp_path, extra, says):
    out = tmp_path / "rel.csv"
    r = _rt(tmp_path, *[str(out) if x == "{out}" else x for x in extra])
    assert r.code == ExitCode.USAGE, r.stderr
    assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_a_folder_of_other_files_is_refused_before_the_work(tmp_path):
    chunks = tmp_path / "chunks"
    chunks.mkdir()
    (chunks / "mine.txt").write_text("keep me")
    r = _rt(tmp_path, "--set-release", "disassociate", "-o", tmp_path / "rel.csv",
            "--chunks-output", chunks)  # fmt: skip
    assert r.code == ExitCode.USAGE, r.stderr
    assert (chunks / "mine.txt").read_text() == "keep me"
    assert not (tmp_path / "rel.csv").exists()


def test_a_stored_run_is_verified_measured_evaluated_reported_and_compared(tmp_path):
    db = tmp_path / "w.duckdb"
    r = _rt(tmp_path, "--set-release", "disassociate", "--db", db, "--run", "d", "-q")
    assert r.code == 0, r.stderr
    g = _rt(tmp_path, "--db", db, "--run", "g", "-q")  # the generalized release, same table
    assert g.code == 0, g.stderr
    v = cli("verify", "--db", db, "--run", "d", "--json")
    assert v.code == 0 and v.json()["ok"] and v.json()["set_release"] == "disassociate"
    m = cli("metrics", "--db", db, "--run", "d", "--json")
    assert m.code == 0 and m.json()["item_ncp"] == 0
    e = cli("evaluate", "--db", db, "--run", "d", "--json")
    assert e.code == 0, e.stderr
    ev = e.json()
    assert ev["set_release"] == "disassociate"
    # F rows: a;b and a, one cluster: a on both rows of its record chunk, b a term: exact
    assert [q["size"] for q in ev["mixed_queries"]] == [1, 2]
    assert all(q["mean_relative_error"] == 0 for q in ev["mixed_queries"])
    assert [(a["known_items"], a["below_k"], a["fewest"]) for a in ev["attacks"]] == [
        (1, 0, 2), (2, 0, 2),
    ]  # fmt: skip
    ge = cli("evaluate", "--db", db, "--run", "g", "--json")
    assert ge.code == 0 and ge.json()["set_release"] == "generalize"
    page = tmp_path / "d.html"
    rep = cli("report", "--db", db, "--run", "d", "-o", page)
    assert rep.code == 0, rep.stderr
    html = page.read_text()
    assert "disassociated" in html and "judged by query error" in html
    c = cli("compare", "d", "g", "--db", db, "--json")
    assert c.code == 0, c.stderr
    rows = {row["run"]: row for row in c.json()}
    assert rows["d"]["set_release"] == "disassociate" and rows["d"]["item_ncp"] == 0
    assert rows["g"]["set_release"] == "generalize" and rows["d"]["promise_holds"]
    assert "mixed_are_2" in rows["d"] and "below_k_1" in rows["d"]
    shown = cli("compare", "d", "g", "--db", db, "--report", tmp_path / "c.html")
    assert shown.code == 0, shown.stderr
    assert "disassociated (orange)" in (tmp_path / "c.html").read_text()


def test_sweep_rt_disassociates_every_point_and_compare_judges_them(tmp_path):
    from tests.test_rt_sweep import _files

    db = tmp_path / "w.duckdb"
    base = [a for a in _files(tmp_path) if a not in ("--item-search", "lift")]
    r = cli(*base, "--class-size", "2,4", "--set-release", "disassociate", "--max-cluster", "3",
            "--db", db, "--json")  # fmt: skip
    assert r.code == 0, r.stderr
    points = r.json()
    assert [p["set_release"] for p in points] == ["disassociate"] * 2
    assert all(p["verified"] and p["item_ncp"] == 0 for p in points)
    c = cli("compare", *[p["run"] for p in points], "--db", db, "--json")
    assert c.code == 0, c.stderr
    assert all(row["set_release"] == "disassociate" and row["promise_holds"] for row in c.json())
    bad = cli(*base, "--set-release", "disassociate", "--item-search", "lift", "--db", db)
    assert bad.code == ExitCode.USAGE and "--item-search" in bad.stderr
