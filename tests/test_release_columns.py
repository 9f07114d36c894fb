"""Which columns a table release holds, and in what order its rows come: every column is
declared (a QI, sensitive, kept or dropped) or the run is refused; a kept column that is a code
of a QI (one determines the other) is refused, since released as given it would undo the QI's
generalization; and the release's rows, and a two-table release's keys, say nothing of the
input's order (the release of a permuted input is the same file)."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql.errors import ExitCode
from setanon_sql.relational.data import linked_pairs
from setanon_sql.store.database import Store
from tests.helpers.cli import cli

TREE = "child,parent\na,A\nb,A\nc,B\nd,B\nA,*\nB,*\n"
# sex decides the classes (4 rows each, k = 4: nothing generalized); income is kept, and
# neither it nor sex determines the other; edu_code is a one-to-one code of edu
ROWS = [
    # sex, edu, edu_code, income, items
    ("M", "HS", "9", "low", "a;c"),
    ("M", "HS", "9", "low", "a;c"),
    ("M", "BA", "13", "high", "a;c"),
    ("M", "BA", "13", "high", "a;c"),
    ("F", "HS", "9", "low", "b;d"),
    ("F", "BA", "13", "high", "b;d"),
    ("F", "BA", "13", "high", "b;d"),
    ("F", "BA", "13", "low", "b;d"),
]
HEADER = ("sex", "edu", "edu_code", "income", "items")


def _write(path: Path, rows, header=HEADER) -> Path:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return path


def _table(tmp_path, *extra, rows=ROWS, name="t.csv"):
    return cli(
        "anonymize-table", _write(tmp_path / name, rows), "--qi", "sex", "--qi", "edu",
        "-t", "sex=suppress", "-t", "edu=suppress", "-k", 4, "--drop", "items", *extra,
    )  # fmt: skip


def _rt(tmp_path, *extra, rows=ROWS, name="t.csv"):
    (tmp_path / "h.csv").write_text(TREE)
    return cli(
        "anonymize-rt", _write(tmp_path / name, rows), "--qi", "sex", "--qi", "edu",
        "-t", "sex=suppress", "-t", "edu=suppress", "--items", "items", "-H",
        tmp_path / "h.csv", "-k", 4, "-m", 1, *extra,
    )  # fmt: skip


# -- every column declared ----------------------------------------------------------------------
@pytest.mark.parametrize("run", [_table, _rt])
def test_an_undeclared_column_is_refused_naming_it(tmp_path, run):
    out = tmp_path / "o.csv"
    r = run(tmp_path, "--keep", "income", "-o", out)
    assert r.code == ExitCode.USAGE, r.stderr
    assert "'edu_code'" in r.stderr and "--keep" in r.stderr and "--drop" in r.stderr
    assert "'income'" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.parametrize("run", [_table, _rt])
def test_dropped_columns_are_not_released(tmp_path, run):
    out = tmp_path / "o.csv"
    r = run(tmp_path, "--keep", "income", "--drop", "edu_code", "-o", out, "-q")
    assert r.code == 0, r.stderr
    header = out.read_text().splitlines()[0].split(",")
    assert "edu_code" not in header and "income" in header


# -- a code of a QI -----------------------------------------------------------------------------
@pytest.mark.parametrize("run", [_table, _rt])
def test_a_kept_code_of_a_qi_is_refused(tmp_path, run):
    """The adversary reads edu back from edu_code, whatever edu was generalized to: refused
    before anything is written, in one line naming both columns (exit 3)."""
    out = tmp_path / "o.csv"
    r = run(tmp_path, "--keep", "income", "--keep", "edu_code", "-o", out)
    assert r.code == ExitCode.INPUT, r.stderr
    line = r.stderr.strip()
    assert "'edu_code'" in line and "'edu'" in line and len(line.splitlines()) == 1
    assert not out.exists()


def test_a_kept_column_that_determines_a_qi_is_refused_one_way_too(tmp_path):
    """A column whose every value has one QI value (finer than the QI) reveals the QI."""
    rows = [(*r[:2], str(i // 2), *r[3:]) for i, r in enumerate(ROWS)]  # pairs of rows
    r = _table(tmp_path, "--keep", "income", "--keep", "edu_code", rows=rows)
    assert r.code == ExitCode.INPUT and "'edu_code' determines quasi-identifier 'sex'" in r.stderr


def test_a_constant_kept_column_passes(tmp_path):
    rows = [(*r[:2], "same", *r[3:]) for r in ROWS]
    r = _table(tmp_path, "--keep", "income", "--keep", "edu_code", "-q", rows=rows)
    assert r.code == 0, r.stderr


def test_verify_finds_a_released_code_of_a_qi(tmp_path):
    """The stored release's columns are checked too: one tampered to carry a copy of a QI's
    original values fails `verify --run` (exit 1)."""
    import duckdb

    db = tmp_path / "w.duckdb"
    r = _rt(tmp_path, "--keep", "income", "--drop", "edu_code", "--db", db, "--run", "r", "-q")
    assert r.code == 0, r.stderr
    assert cli("verify", "--db", db, "--run", "r", "-q").code == 0
    with duckdb.connect(str(db)) as con:
        con.execute("ALTER TABLE r.table_release ADD COLUMN edu_copy VARCHAR")
        con.execute(
            "UPDATE r.table_release AS t SET edu_copy = s.edu || 'x' FROM r.rel_source AS s "
            "WHERE s.rid = t.rid"
        )
    r = cli("verify", "--db", db, "--run", "r", "--json")
    assert r.code == 1 and r.json()["linked_columns"] == 1


# -- the rows' order ----------------------------------------------------------------------------
def _orders():
    """The rows sorted by a kept column, and permuted at random (fixed seeds)."""
    by_income = sorted(ROWS, key=lambda r: (r[3], r[0]))
    yield by_income
    yield by_income[::-1]
    for seed in range(3):
        shuffled = list(ROWS)
        random.Random(seed).shuffle(shuffled)
        yield shuffled


@pytest.mark.parametrize(
    ("run", "extra"), [(_table, []), (_rt, []), (_rt, ["--set-release", "disassociate"])]
)
def test_the_release_of_a_permuted_input_is_the_same_file(tmp_path, run, extra):
    """Whatever order the input had (here sorted by the kept income, then reversed, then
    shuffled), the release is the same file: its row order carries nothing of the input's."""
    got = set()
    for i, rows in enumerate(_orders()):
        out = tmp_path / f"o{i}.csv"
        chunks = ["--chunks-output", tmp_path / f"c{i}"] if extra else []
        r = run(tmp_path, "--keep", "income", "--drop", "edu_code", "-o", out, "-q", *extra,
                *chunks, rows=rows, name=f"t{i}.csv")  # fmt: skip
        assert r.code == 0, r.stderr
        got.add(out.read_text())
    assert len(got) == 1


def test_two_tables_keys_are_renumbered_in_the_release_order(tmp_path):
    """Records and (key, item) rows: the released keys are 1..n in the order of the released
    rows, whatever the input's keys and order were; the two files stay joined."""
    (tmp_path / "h.csv").write_text(TREE)
    outs = set()
    for i, order in enumerate(_orders()):
        keys = random.Random(i).sample(range(1000, 9999), len(order))
        records = _write(
            tmp_path / f"rec{i}.csv", [(k, *r[:4]) for k, r in zip(keys, order, strict=True)],
            ("id", *HEADER[:4]),
        )  # fmt: skip
        pairs = [(k, item) for k, r in zip(keys, order, strict=True) for item in r[4].split(";")]
        rows = _write(tmp_path / f"rows{i}.csv", pairs, ("id", "code"))
        out, out_rows = tmp_path / f"o{i}.csv", tmp_path / f"r{i}.csv"
        r = cli(
            "anonymize-rt", records, "--qi", "sex", "--qi", "edu", "-t", "sex=suppress",
            "-t", "edu=suppress", "--items", "code", "--items-table", rows, "--key", "id",
            "-H", tmp_path / "h.csv", "-k", 4, "-m", 1, "--keep", "income", "--drop", "edu_code",
            "-o", out, "--items-output", out_rows, "-q",
        )  # fmt: skip
        assert r.code == 0, r.stderr
        outs.add((out.read_text(), out_rows.read_text()))
    assert len(outs) == 1
    released, released_rows = outs.pop()
    ids = [line.split(",")[0] for line in released.splitlines()[1:]]
    assert ids == [str(n) for n in range(1, len(ROWS) + 1)]
    assert {line.split(",")[0] for line in released_rows.splitlines()[1:]} == set(ids)


# -- the dependency check against a brute force -------------------------------------------------
def _brute_linked(kept: dict, qi: dict) -> list[tuple[str, str]]:
    """(kept, QI) pairs of which one determines the other, neither holding one value."""
    out = []
    for k, kv in kept.items():
        for q, qv in qi.items():
            pairs = set(zip(kv, qv, strict=True))
            if len(set(kv)) > 1 and len(set(qv)) > 1 and len(pairs) in (len(set(kv)), len(set(qv))):
                out.append((k, q))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.sampled_from(["a", "b", "c", None]), min_size=n, max_size=n),
             min_size=1, max_size=3),
    st.lists(st.lists(st.sampled_from(["x", "y", "z"]), min_size=n, max_size=n),
             min_size=1, max_size=3),
)))  # fmt: skip
def test_the_dependency_check_matches_a_brute_force(case):
    """Every (kept, QI) pair the one statement finds is one a brute force finds, and no more
    (NULL a value of its own)."""
    kept_cols, qi_cols = case
    kept = {f"k{i}": v for i, v in enumerate(kept_cols)}
    qi = {f"q{i}": v for i, v in enumerate(qi_cols)}
    store = Store()
    columns = {"rid": list(range(len(qi_cols[0]))), **kept, **qi}
    store.put_arrow("rel_source", pa.table({c: pa.array(v) for c, v in columns.items()}))
    got = linked_pairs(store, list(kept), list(qi), "rel_source")
    assert [(k, q) for k, q, _ in got] == _brute_linked(kept, qi)
