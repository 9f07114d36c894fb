"""Issue 41's list of bad input for a table with a set column, walked through the CLI: each is
one line and its documented exit code (3 bad input, 2 usage), and replacing an earlier run
with it writes nothing and loses nothing: the earlier run still verifies, its file is as it
was. (The two-table layout's own list is in test_rt_pairs.py.)"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from setanon_sql.errors import ExitCode
from tests.helpers.cli import cli, copied

TREE = "child,parent\na,A\nb,A\nc,B\nd,B\nA,*\nB,*\n"
GOOD = "sex,items\nF,a;b\nF,a\nM,c\nM,c;d\n"
SEX = ["F", "F", "M", "M"]


def _table(tmp_path: Path, given: str | pa.Table) -> Path:
    if isinstance(given, str):
        path = tmp_path / "bad.csv"
        path.write_text(given)
    else:
        path = tmp_path / "bad.parquet"
        pq.write_table(given, path)
    return path


def _rt(tmp_path: Path, table: Path, *extra: object):
    return cli(
        "anonymize-rt", table, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
        "-H", tmp_path / "h.csv", "-k", 2, "-m", 1, "--db", tmp_path / "w.duckdb", *extra,
    )  # fmt: skip


CASES = [
    # a set column NULL or empty for some records
    ("sex,items\nF,a;b\nF,\nM,c\nM,c;d\n", (), ExitCode.INPUT, "have no items"),
    (pa.table({"sex": SEX, "items": [["a"], None, ["c"], ["c"]]}), (), ExitCode.INPUT,
     "have no items"),
    (pa.table({"sex": SEX, "items": [["a"], [], ["c"], ["c"]]}), (), ExitCode.INPUT,
     "have no items"),
    (pa.table({"sex": SEX, "items": [["a"], ["a", None], ["c"], ["c"]]}), (), ExitCode.INPUT,
     "NULL or blank in a list"),
    # an item missing from the hierarchy
    ("sex,items\nF,a;z\nF,a\nM,c\nM,c;d\n", (), ExitCode.INPUT, "no leaf of the hierarchy"),
    # a LIST of non-string or nested type
    (pa.table({"sex": SEX, "items": [[1], [1], [2], [2]]}), (), ExitCode.INPUT,
     "is a list of BIGINT"),
    (pa.table({"sex": SEX, "items": [[["a"]], [["a"]], [["c"]], [["c"]]]}), (),
     ExitCode.INPUT, "nested type"),
    (pa.table({"sex": SEX, "items": [1, 1, 2, 2]}), (), ExitCode.INPUT, "must be text"),
    # a separator inside a quoted item: read as one item (no leaf here), or a quote left open
    ('sex,items\nF,"""a;b"";c"\nF,a\nM,c\nM,c;d\n', (), ExitCode.INPUT, "e.g. 'a;b'"),
    ('sex,items\nF,"""a;b"\nF,a\nM,c\nM,c;d\n', (), ExitCode.INPUT, "a quote left open"),
    # m larger than the longest set, k larger than the table
    (GOOD, ("-m", 3), ExitCode.INPUT, "larger than the longest set"),
    (GOOD, ("-k", 5), ExitCode.INPUT, "larger than the table"),
    # a QI (or the sensitive column) that is also the set column
    (GOOD, ("--qi", "items"), ExitCode.USAGE, "both the set column and a quasi-identifier"),
    (GOOD, ("--sensitive", "items", "--l", 2), ExitCode.USAGE,
     "both the set column and the sensitive"),
]  # fmt: skip


@pytest.fixture(scope="module")
def earlier_run(tmp_path_factory) -> Path:
    """A database with the run `r` of GOOD and its file `earlier.csv`, made once for the
    module: each case replaces `r` in its own copy (the same run it made itself before)."""
    folder = tmp_path_factory.mktemp("earlier")
    (folder / "h.csv").write_text(TREE)
    (folder / "good.csv").write_text(GOOD)
    r = _rt(folder, folder / "good.csv", "--run", "r", "-o", folder / "earlier.csv", "-q")
    assert r.code == 0, r.stderr
    return folder


@pytest.mark.parametrize(("given", "extra", "code", "says"), CASES)
def test_bad_input_is_one_line_writes_nothing_and_loses_no_run(
    tmp_path, earlier_run, given, extra, code, says
):
    earlier = copied(earlier_run, tmp_path) / "earlier.csv"
    kept = earlier.read_text()
    assert kept.startswith("sex,items\n") and kept.count("\n") == 5  # the run's 4 rows
    out = tmp_path / "out.csv"
    r = _rt(tmp_path, _table(tmp_path, given), *extra, "--run", "r", "--replace", "-o", out)
    assert r.code == code, (r.code, r.stderr)
    assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert not out.exists()
    assert earlier.read_text() == kept
    r = cli("verify", "--db", tmp_path / "w.duckdb", "--run", "r", "--json")
    assert r.code == 0 and r.json()["rows"] == 4, r.stderr


def test_duplicate_items_in_a_set_count_once(tmp_path):
    """A set holds an item or not: `a;a` is the set {a}, in the release and in the counts."""
    (tmp_path / "h.csv").write_text(TREE)
    out = tmp_path / "out.csv"
    table = _table(tmp_path, "sex,items\nF,a;a\nF,a\nM,c;c\nM,c\n")
    r = _rt(tmp_path, table, "-o", out, "--json")
    assert r.code == 0, r.stderr
    assert r.json()["item_ncp"] == 0  # {a}, {a}, {c}, {c}: 2-anonymous as they are
    assert out.read_text() == "sex,items\nF,a\nF,a\nM,c\nM,c\n"


def test_a_quoted_item_may_hold_the_separator(tmp_path):
    """`"a;b";c` is the set {a;b, c} (CSV quoting inside the field), and an item holding the
    separator is written back quoted, so the release reads as it was meant and verifies."""
    (tmp_path / "h.csv").write_text('child,parent\n"a;b",A\nx,A\nc,B\nd,B\nA,*\nB,*\n')
    out = tmp_path / "out.csv"
    table = _table(tmp_path, 'sex,items\nF,"""a;b"";c"\nF,"""a;b"";c"\nM,c;d\nM,c;d\n')
    r = _rt(tmp_path, table, "-o", out, "--run", "q", "--json")
    assert r.code == 0, r.stderr
    assert r.json()["item_ncp"] == 0  # two equal sets in each class: released as they are
    assert out.read_text() == 'sex,items\nF,"""a;b"";c"\nF,"""a;b"";c"\nM,c;d\nM,c;d\n'
    r = cli("verify", "--db", tmp_path / "w.duckdb", "--run", "q", "-q")
    assert r.code == 0, r.stderr
