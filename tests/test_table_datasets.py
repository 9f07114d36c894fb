"""Tables and tables with a set-valued column are registered datasets, as transactions are
(#41, #43): listed beside them, found again when loaded again, new when the source changes,
and a database made before the change still lists, runs and replays."""

from __future__ import annotations

import gzip
import os
import shutil
from pathlib import Path

import duckdb
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from setanon_sql.errors import ExitCode, InputError, ParamsError
from setanon_sql.store.database import Store
from setanon_sql.store.dataset import DATASET_KINDS, dataset_kind
from setanon_sql.store.tables import TableInput, TableReader
from tests.helpers.cli import DATA, EX, cli

TREE = "child,parent\na,A\nb,A\nc,B\nd,B\nA,*\nB,*\n"
SETS = "sex,items\nF,a;b\nF,a\nM,c\nM,c;d\n"
TABLE = "age,sex,zip\n30,M,1\n31,F,2\n32,M,3\n33,F,4\n"
SEX = "M,*\nF,*\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "h.csv").write_text(TREE)
    (tmp_path / "sets.csv").write_text(SETS)
    (tmp_path / "table.csv").write_text(TABLE)
    (tmp_path / "sex.csv").write_text(SEX)
    return tmp_path


def _table(
    f: Path, db: Path, run: str, *extra: object, source: str = "table.csv", drop: str = "zip"
):
    return cli(
        "anonymize-table", f / source, "--qi", "age", "--qi", "sex", "-t", "age=median:2",
        "-t", f"sex={f / 'sex.csv'}", "--k", 2, "--db", db, "--run", run, "-q", "--drop", drop,
        *extra,
    )  # fmt: skip


def _rt(f: Path, db: Path, run: str, source: str = "sets.csv"):
    return cli(
        "anonymize-rt", f / source, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
        "-H", f / "h.csv", "-k", 2, "-m", 1, "--db", db, "--run", run, "-q",
    )  # fmt: skip


def _tx(db: Path, run: str):
    return cli(
        "anonymize", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-a", "aa", "-k", 2,
        "-m", 2, "--db", db, "--run", run, "-q",
    )  # fmt: skip


def _datasets(db: Path) -> list[dict]:
    r = cli("datasets", "--db", db, "--json")
    assert r.code == 0, r.stderr
    return r.json()


def _runs(db: Path) -> dict[str, dict]:
    r = cli("runs", "--db", db, "--json")
    assert r.code == 0, r.stderr
    return {row["name"]: row for row in r.json()}


def test_datasets_lists_the_three_kinds_with_rows_and_runs(folder):
    db = folder / "w.duckdb"
    for r in (_tx(db, "aa_run"), _table(folder, db, "t"), _rt(folder, db, "s")):
        assert r.code == 0, r.stderr
    found = {d["kind"]: d for d in _datasets(db)}
    assert sorted(found) == sorted(DATASET_KINDS)
    assert (found["table"]["rows"], found["table"]["items"]) == (4, 3)  # rows, columns
    assert (found["table_sets"]["rows"], found["table_sets"]["items"]) == (4, 2)
    assert found["table"]["source"] == str((folder / "table.csv").resolve())
    assert [d["runs"] for d in found.values()] == [1, 1, 1]
    runs = _runs(db)
    assert runs["t"]["dataset_id"] == found["table"]["dataset_id"]
    assert runs["s"]["dataset_id"] == found["table_sets"]["dataset_id"]
    assert runs["aa_run"]["dataset_id"] == found["transactions"]["dataset_id"]
    shown = cli("datasets", "--db", db)
    assert shown.code == 0 and "│ table" in shown.stdout and "│ transa" in shown.stdout


def test_the_same_table_again_reuses_its_dataset(folder):
    """Another run (other QIs), the same content in another file, a touched file: one dataset."""
    db = folder / "w.duckdb"
    assert _table(folder, db, "a").code == 0
    r = cli(
        "anonymize-table", folder / "table.csv", "--qi", "zip", "--qi", "sex", "-t",
        "zip=median:2", "-t", f"sex={folder / 'sex.csv'}", "--k", 2, "--db", db, "--run", "b",
        "-q", "--drop", "age",
    )  # fmt: skip
    assert r.code == 0, r.stderr
    shutil.copy(folder / "table.csv", folder / "copy.csv")
    assert _table(folder, db, "c", source="copy.csv").code == 0
    st_ = (folder / "table.csv").stat()
    os.utime(folder / "table.csv", ns=(st_.st_atime_ns, st_.st_mtime_ns + 10**9))
    assert _table(folder, db, "d").code == 0
    (only,) = _datasets(db)
    assert (only["kind"], only["runs"]) == ("table", 4)
    assert {r["dataset_id"] for r in _runs(db).values()} == {only["dataset_id"]}
    with duckdb.connect(str(db), read_only=True) as con:  # one stored copy, four runs of it
        schemas = con.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = 'table_raw'"
        ).fetchone()
    assert schemas == (1,)


def test_a_run_reads_the_stored_table_not_the_file(folder):
    """Found by its file's size and time, a dataset is not read again: a run reads its copy."""
    db = folder / "w.duckdb"
    assert _table(folder, db, "a").code == 0
    path = folder / "table.csv"
    st_ = path.stat()
    path.write_text(TABLE.replace("30,M", "39,M"))  # same size; time put back as it was
    os.utime(path, ns=(st_.st_atime_ns, st_.st_mtime_ns))
    assert _table(folder, db, "b").code == 0
    assert len(_datasets(db)) == 1
    with duckdb.connect(str(db), read_only=True) as con:
        ages = {a for (a,) in con.execute("SELECT age FROM b.rel_source").fetchall()}
    assert ages == {"30", "31", "32", "33"}


def test_a_changed_source_makes_a_new_dataset(folder):
    db = folder / "w.duckdb"
    assert _table(folder, db, "a").code == 0
    assert _rt(folder, db, "s").code == 0
    with (folder / "table.csv").open("a") as f:
        f.write("34,M,5\n")
    assert _table(folder, db, "b").code == 0
    (folder / "sets.csv").write_text(SETS.replace("M,c\n", "M,d\n"))
    assert _rt(folder, db, "s2").code == 0
    found = _datasets(db)
    assert [(d["kind"], d["rows"], d["runs"]) for d in found] == [
        ("table", 4, 1),
        ("table_sets", 4, 1),
        ("table", 5, 1),
        ("table_sets", 4, 1),
    ]
    runs = _runs(db)
    assert len({runs[n]["dataset_id"] for n in ("a", "b", "s", "s2")}) == 4


def test_other_reading_options_make_another_dataset(folder):
    """The same file read with other column names is another table."""
    db = folder / "w.duckdb"
    (folder / "bare.csv").write_text(TABLE.split("\n", 1)[1])
    for names, run in (("age,sex,zip", "a"), ("age,sex,code", "b"), ("age,sex,zip", "c")):
        r = _table(folder, db, run, "--columns", names, source="bare.csv", drop=names[8:])
        assert r.code == 0, r.stderr
    assert [(d["rows"], d["runs"]) for d in _datasets(db)] == [(4, 2), (4, 1)]


def test_a_table_run_replays_from_its_dataset(folder, tmp_path_factory):
    """`sql --run` of a run that reused its dataset rebuilds the same release on a fresh
    database: the dataset's statements, then the run's copy of it."""
    db = folder / "w.duckdb"
    assert _table(folder, db, "a").code == 0
    assert _table(folder, db, "b").code == 0
    r = cli("sql", "--db", db, "--run", "b")
    assert r.code == 0, r.stderr
    assert "table_raw" in r.stdout
    fresh = tmp_path_factory.mktemp("fresh") / "f.duckdb"
    with duckdb.connect(str(fresh)) as con, duckdb.connect(str(db), read_only=True) as old:
        con.execute(r.stdout)
        query = "SELECT * FROM b.table_release ORDER BY ALL"
        assert con.execute(query).fetchall() == old.execute(query).fetchall()


def test_a_table_dataset_is_no_transactions(folder):
    db = folder / "w.duckdb"
    assert _table(folder, db, "a").code == 0
    (d,) = _datasets(db)
    r = cli("anonymize", "--db", db, "--dataset", d["dataset_id"], "-a", "aa", "-k", 2, "-m", 1)
    assert r.code == ExitCode.INPUT, r.stderr
    assert "is a table, not transactions" in r.stderr and "Traceback" not in r.stderr


@pytest.fixture
def main_made(tmp_path: Path) -> Path:
    """The database main's code made (tests/data/main_made.md), and the files it read."""
    db = tmp_path / "main.duckdb"
    with gzip.open(DATA / "main_made.duckdb.gz") as src, db.open("wb") as out:
        shutil.copyfileobj(src, out)
    for name, text in (("h.csv", TREE), ("sets.csv", SETS), ("table.csv", TABLE)):
        (tmp_path / name).write_text(text)
    (tmp_path / "sex.csv").write_text(SEX)
    return db


def test_a_database_made_before_still_lists_runs_and_replays(main_made):
    folder = main_made.parent
    (tx,) = _datasets(main_made)
    assert tx["kind"] == "transactions"
    runs = _runs(main_made)
    assert [runs[n]["dataset_id"] for n in ("table_main", "rt_main")] == [None, None]
    for run in ("table_main", "rt_main"):
        r = cli("evaluate", "--db", main_made, "--run", run, "--json")
        assert r.code == 0, r.stderr
        assert cli("sql", "--db", main_made, "--run", run).code == 0
    assert cli("verify", "--db", main_made, "--run", "rt_main", "--json").code == 0
    assert cli("verify", "--db", main_made, "--run", "tx_main").code == 0
    # new runs beside them: the old transactions dataset is still the one chosen by default
    assert _table(folder, main_made, "t").code == 0
    assert _rt(folder, main_made, "s").code == 0
    r = cli("anonymize", "--db", main_made, "-a", "aa", "-k", 2, "-m", 1, "--run", "aa_new", "-q")
    assert r.code == 0, r.stderr
    kinds = [(d["dataset_id"], d["kind"], d["runs"]) for d in _datasets(main_made)]
    assert kinds == [(1, "transactions", 2), (2, "table", 1), (3, "table_sets", 1)]


def test_the_kind_is_closed():
    assert dataset_kind(None) == "transactions"
    assert [dataset_kind(k) for k in DATASET_KINDS] == list(DATASET_KINDS)
    with pytest.raises(InputError, match="unknown kind 'graph'"):
        dataset_kind("graph")


rows = st.lists(st.tuples(st.sampled_from("ab"), st.integers(0, 2)), min_size=1, max_size=5)


def _loader(store: Store):
    def load(data: list[tuple[str, int]]) -> int:
        table = {"x": [x for x, _ in data], "n": [n for _, n in data]}
        return store.load(TableInput(table, TableReader(), "table")).dataset.id

    return load


@settings(max_examples=25, deadline=None)
@given(first=rows, second=rows)
@example(first=[("a", 0), ("b", 1)], second=[("b", 1), ("a", 0)])
def test_two_tables_are_one_dataset_exactly_when_equal(first, second):
    """By content, in order: the same rows in the same order are one dataset; anything else
    (another row, another order) is two."""
    with Store() as store:
        load = _loader(store)
        assert (load(first) == load(second)) == (first == second)
        assert load(first) == 1  # found again


@settings(max_examples=15, deadline=None)
@given(data=rows, seed=st.randoms(use_true_random=False))
def test_reordered_rows_are_another_dataset(data, seed):
    """A row's position is part of the table (its row id in the release)."""
    shuffled = list(data)
    seed.shuffle(shuffled)
    with Store() as store:
        load = _loader(store)
        assert (load(data) == load(shuffled)) == (data == shuffled)


def test_a_stored_table_runs_without_its_file(folder):
    """The library runs on a table dataset as stored, its file gone; a transactions dataset is
    no table."""
    from setanon_sql.relational import anonymize_table
    from setanon_sql.store.dataset import Dataset

    db = folder / "w.duckdb"
    assert _table(folder, db, "a").code == 0
    assert _tx(db, "aa_run").code == 0
    (folder / "table.csv").unlink()
    taxes = {"age": "median:2", "sex": folder / "sex.csv"}
    with Store(db) as store:
        found = {r["kind"]: Dataset.of(r) for r in store.registry.datasets()}
        tx, table = found["transactions"], found["table"]
        got = anonymize_table(
            store, table, qi=["age", "sex"], taxonomies=taxes, k=2, run_name="b", drop=["zip"]
        )
        assert (got.report.ok, got.data.rows) == (True, 4)
        with pytest.raises(ParamsError, match="holds transactions, not a table"):
            anonymize_table(store, tx, qi=["age", "sex"], taxonomies=taxes, k=2, run_name="c")
    runs = _runs(db)
    assert runs["b"]["dataset_id"] == table.id and runs["b"]["status"] == "complete"
    assert "c" not in runs  # refused before the run


def test_a_table_loaded_inside_a_run_is_a_bug_of_ours(folder):
    """A run must name its table's dataset (else `sql --run` cannot replay it): loading one
    inside a run is refused as a bug, not done silently."""
    from setanon_sql import runs
    from setanon_sql.relational.data import load_table
    from setanon_sql.relational.taxonomy import measure

    with (
        Store(folder / "w.duckdb") as store,
        pytest.raises(AssertionError, match="making"),
        runs.making(store, "r", kind="table"),
    ):
        load_table(store, folder / "table.csv", qi=["sex"], taxonomies={}, measure=measure("lm"))
