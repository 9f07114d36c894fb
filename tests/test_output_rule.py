"""One rule for every output on disk: nothing the tool did not write is replaced without
--replace (a file as a folder), and never an input: one known only by its content (a dataset
or hierarchy found in the registry though loaded from another file), nor the taxonomies and
hierarchy of a table or (k, k^m) run. Each case through the command line, with its exit code
and the file checked intact afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import EX, cli

from setanon_sql.errors import ExitCode

FIG2 = EX / "fig2.csv"
FIG2_H = EX / "fig2_hierarchy.csv"
ITEM_EDGES = (("a", "A"), ("b", "A"), ("c", "B"), ("d", "B"), ("A", "*"), ("B", "*"))
TABLE = "sex,age,items\nF,20,a;b\nF,21,a\nM,20,c\nM,21,c;d\n"
AGES = "child,parent\n20,*\n21,*\n"


def rt(tmp_path: Path, *extra: object, tree: Path | None = None, ages: Path | None = None):
    table = tmp_path / "t.csv"
    table.write_text(TABLE)
    if tree is None:
        tree = tmp_path / "h.csv"
        tree.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in ITEM_EDGES))
    tax = "age=suppress" if ages is None else f"age={ages}"
    return cli(
        "anonymize-rt", table, "--qi", "sex", "--qi", "age", "-t", "sex=suppress", "-t", tax,
        "--items", "items", "-H", tree, "-k", "2", "-m", "1", "-q", *extra,
    )  # fmt: skip


# -- a disassociated (k, k^m) release is replaced with --replace ---------------------------------
def test_a_disassociated_rt_release_is_replaced_with_replace(tmp_path):
    out, chunks, db = tmp_path / "rel.csv", tmp_path / "chunks", tmp_path / "w.duckdb"
    args = ("--set-release", "disassociate", "-o", out, "--chunks-output", chunks)
    assert rt(tmp_path, *args, "--db", db, "--run", "r").code == 0
    written = {p.name: p.read_bytes() for p in chunks.iterdir()}
    again = rt(tmp_path, *args, "--db", db, "--run", "r")
    assert again.code == ExitCode.USAGE and "--replace" in again.stderr, again.stderr
    r = rt(tmp_path, *args, "--db", db, "--run", "r", "--replace")
    assert r.code == 0, r.stderr
    assert {p.name: p.read_bytes() for p in chunks.iterdir()} == written  # the same run again


# -- inputs the registry knows by content, and a table run's -H / -t -----------------------------
@pytest.mark.parametrize(
    "command", [("report", "--run", "{run}", "-o"), ("compare", "{run}", "--report")]
)
def test_a_source_deduplicated_by_content_is_never_written_over(tmp_path, command):
    db = tmp_path / "w.duckdb"
    assert cli("anonymize", FIG2, "-H", FIG2_H, "--db", db, "--run", "ra", "-k", 2, "-m", 2,
               "-q").code == 0  # fmt: skip
    copy = tmp_path / "same.html"  # the same transactions, read as CSV: found by content
    copy.write_bytes(FIG2.read_bytes())
    r = cli("anonymize", copy, "--format", "csv", "-H", FIG2_H, "--db", db, "--run", "rb",
            "-k", 2, "-m", 2, "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    args = [a.replace("{run}", "rb") for a in command]
    for extra in ((), ("--replace",)):
        r = cli(*args, copy, "--db", db, *extra)
        assert r.code == ExitCode.USAGE and "input" in r.stderr, r.stderr
        assert copy.read_bytes() == FIG2.read_bytes()


def test_a_hierarchy_found_by_its_edges_is_never_written_over(tmp_path):
    db = tmp_path / "w.duckdb"
    assert cli("anonymize", FIG2, "-H", FIG2_H, "--db", db, "--run", "ra", "-k", 2, "-m", 2,
               "-q").code == 0  # fmt: skip
    tree = tmp_path / "tree.html"
    tree.write_bytes(FIG2_H.read_bytes())
    r = cli("anonymize", FIG2, "-H", tree, "--hierarchy-format", "csv", "--db", db, "--run",
            "rb", "-k", 2, "-m", 2, "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    for extra in ((), ("--replace",)):
        r = cli("report", "--run", "rb", "-o", tree, "--db", db, *extra)
        assert r.code == ExitCode.USAGE and "input" in r.stderr, r.stderr
        assert tree.read_bytes() == FIG2_H.read_bytes()


def test_an_rt_runs_hierarchy_and_taxonomy_are_never_written_over(tmp_path):
    db = tmp_path / "w.duckdb"
    tree = tmp_path / "items.html"
    tree.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in ITEM_EDGES))
    ages = tmp_path / "ages.html"
    ages.write_text(AGES)
    kept = {tree: tree.read_bytes(), ages: ages.read_bytes()}
    r = rt(tmp_path, "--db", db, "--run", "r", "--hierarchy-format", "csv", tree=tree, ages=ages)
    assert r.code == 0, r.stderr
    for target in (tree, ages):
        for command in (("report", "--run", "r", "-o"), ("compare", "r", "--report")):
            for extra in ((), ("--replace",)):
                r = cli(*command, target, "--db", db, *extra)
                assert r.code == ExitCode.USAGE and "input" in r.stderr, (command, r.stderr)
                assert {p: p.read_bytes() for p in kept} == kept


def test_a_table_runs_taxonomy_is_never_written_over(tmp_path):
    db = tmp_path / "w.duckdb"
    table = tmp_path / "t.csv"
    table.write_text("age,zip\n" + "".join(f"{20 + i % 2},{i % 3}\n" for i in range(8)))
    ages = tmp_path / "ages.csv"
    ages.write_text(AGES)
    r = cli("anonymize-table", table, "--qi", "age", "-t", f"age={ages}", "--drop", "zip", "-k", 2,
            "--db", db, "--run", "t", "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    for extra in ((), ("--replace",)):  # a later run of the database, its release over it
        r = cli("anonymize", FIG2, "-H", FIG2_H, "-k", 2, "-m", 2, "--db", db, "-q", "-o", ages,
                *extra)  # fmt: skip
        assert r.code == ExitCode.USAGE and "input" in r.stderr, r.stderr
        assert ages.read_text() == AGES


# -- an existing file needs --replace, as a folder does ------------------------------------------
@pytest.fixture
def stored(tmp_path):
    db = tmp_path / "w.duckdb"
    assert cli("anonymize", FIG2, "-H", FIG2_H, "--db", db, "--run", "ra", "-k", 2, "-m", 2,
               "-q").code == 0  # fmt: skip
    assert cli("anonymize", "--db", db, "--run", "rb", "-a", "disassociation", "-k", 2, "-m", 2,
               "-q").code == 0  # fmt: skip
    return db


def writers(db: Path, tmp_path: Path) -> list[tuple[tuple, str]]:
    table = tmp_path / "people.csv"
    table.write_text("age,zip\n" + "".join(f"{20 + i % 2},{i % 3}\n" for i in range(8)))
    return [
        (("anonymize", FIG2, "-H", FIG2_H, "-k", 2, "-m", 2, "-q", "-o"), ".csv"),
        (("anonymize", "--db", db, "-k", 2, "-m", 2, "-q", "--sql-log"), ".sql"),
        (("anonymize-table", table, "--qi", "age", "-t", "age=suppress", "--drop", "zip", "-k", 2,
          "-q", "-o"), ".csv"),
        (("report", "--run", "ra", "--db", db, "-o"), ".html"),
        (("compare", "ra", "--db", db, "--report"), ".html"),
        (("reconstruct", "rb", "--db", db, "-o"), ".csv"),
        (("hierarchy", "build", FIG2, "--fanout", 2, "-o"), ".csv"),
        (("sweep", FIG2, "-a", "aa", "-k", 2, "-H", FIG2_H, "--report"), ".html"),
    ]  # fmt: skip


def test_an_existing_file_is_replaced_only_with_replace(stored, tmp_path):
    for i, (command, suffix) in enumerate(writers(stored, tmp_path)):
        mine = tmp_path / f"mine{i}{suffix}"
        mine.write_text("the user's own\n")
        r = cli(*command, mine)
        assert r.code == ExitCode.USAGE and "--replace" in r.stderr, (command, r.stderr)
        assert mine.read_text() == "the user's own\n", command
        r = cli(*command, mine, "--replace")
        assert r.code == 0, (command, r.stderr)
        assert mine.read_text() != "the user's own\n", command


def test_replace_with_nothing_to_replace_is_refused(stored):
    r = cli("compare", "ra", "--db", stored, "--replace")
    assert r.code == ExitCode.USAGE and "--report" in r.stderr, r.stderr


def test_a_spark_release_folder_is_replaced_only_with_replace(tmp_path):
    from setanon_sql.errors import ParamsError
    from setanon_sql.store.publish import RunOutputs
    from setanon_sql.store.spark_release import check_outputs

    out = tmp_path / "rel.parquet"  # a folder Spark wrote
    out.mkdir()
    (out / "part-0.parquet").write_bytes(b"PAR1")
    (out / "_SUCCESS").touch()
    with pytest.raises(ParamsError, match="exists \\(use --replace\\)"):
        check_outputs(RunOutputs(path=out), [], replace=False)
    check_outputs(RunOutputs(path=out), [], replace=True)
    assert sorted(p.name for p in out.iterdir()) == ["_SUCCESS", "part-0.parquet"]
