"""A table's input DuckDB file may be the --db itself, as it may for `anonymize`; a set column's
text reads back exactly as the tool writes it, whatever its separator; --items-sep acts or is
refused; a LIST set column written to CSV reads back as the same sets."""

from __future__ import annotations

import csv

import duckdb
import pytest
from helpers.cli import cli

from setanon_sql.errors import ExitCode

# labels holding what a naive reader would split at or choke on: the separators, a quote, the
# `, ` and `]` of DuckDB's text of a list
LABELS = ("a::b", 'say "hi"', "x, y", "z]", "p:", ":q", "plain")
EDGES = [(label, "*") for label in LABELS]


def tree_file(tmp_path):
    tree = tmp_path / "h.csv"
    with tree.open("w", newline="") as f:
        csv.writer(f).writerows([("child", "parent"), *EDGES])
    return tree


def split(text: str, sep: str) -> list[str]:
    """The reference reader of a joined set: items split at `sep`, an item in double quotes
    may hold it (a doubled quote is one)."""
    items, i = [], 0
    while True:
        if text.startswith('"', i):
            j, item = i + 1, ""
            while True:
                k = text.index('"', j)
                item += text[j:k]
                if text.startswith('""', k):
                    item, j = item + '"', k + 2
                    continue
                i = k + 1
                break
        else:
            k = text.find(sep, i)
            item, i = (text[i:], len(text)) if k < 0 else (text[i:k], k)
        items.append(item)
        if i >= len(text):
            return items
        assert text.startswith(sep, i), (text, i)
        i += len(sep)


def quoted(label: str, sep: str) -> str:
    if any(c in label for c in sep) or '"' in label:
        return '"' + label.replace('"', '""') + '"'
    return label


def released_sets(path, column="items", sep=";"):
    """The released sets, each sorted, in sorted order: rows come out sorted by their released
    values, not in the input's order."""
    with path.open(newline="") as f:
        return sorted(sorted(split(row[column], sep)) for row in csv.DictReader(f))


@pytest.mark.parametrize("sep", ["::", ";", "<>"])
def test_a_joined_set_column_reads_back_as_written(tmp_path, sep):
    rows = [sorted(LABELS[i % len(LABELS)] for i in range(s, s + 3)) for s in range(8)]
    table = tmp_path / "t.csv"
    with table.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["sex", "items"])
        w.writerows([("F" if r % 2 else "M", sep.join(quoted(x, sep) for x in items))
                     for r, items in enumerate(rows)])  # fmt: skip
    out = tmp_path / "rel.csv"
    r = cli("anonymize-rt", table, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
            "-H", tree_file(tmp_path), "--items-sep", sep, "-k", 1, "-m", 1, "-o", out, "--json")  # fmt: skip
    assert r.code == 0, r.stderr
    assert r.json()["verified"]["ok"]
    assert released_sets(out, sep=sep) == sorted(rows)  # k = 1: every item released as it was


def test_an_unquoted_item_holding_a_quote_passes_its_own_verification(tmp_path):
    table = tmp_path / "t.csv"  # as a user writes it: the quote inside, the item not quoted
    table.write_text('sex,items\nF,"plain::say ""hi"""\nM,plain\n')
    out = tmp_path / "rel.csv"
    r = cli("anonymize-rt", table, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
            "-H", tree_file(tmp_path), "--items-sep", "::", "-k", 1, "-m", 1, "-o", out)  # fmt: skip
    assert r.code == 0, r.stderr
    assert released_sets(out, sep="::") == [["plain"], ["plain", 'say "hi"']]


def test_a_separator_holding_a_quote_is_refused(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text("sex,items\nF,plain\n")
    r = cli("anonymize-rt", table, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
            "-H", tree_file(tmp_path), "--items-sep", '";', "-k", 1, "-m", 1)  # fmt: skip
    assert r.code == ExitCode.USAGE and "--items-sep" in r.stderr, r.stderr


def list_table(tmp_path, rows):
    src = tmp_path / "t.parquet"
    with duckdb.connect() as con:
        con.execute("CREATE TABLE t (sex VARCHAR, items VARCHAR[])")
        con.executemany(
            "INSERT INTO t VALUES (?, ?)", [("FM"[i % 2], r) for i, r in enumerate(rows)]
        )
        con.execute(f"COPY t TO '{src}' (FORMAT parquet)")
    return src


def test_items_sep_with_a_list_column_is_refused(tmp_path):
    src = list_table(tmp_path, [["plain"], ["x, y"]])
    r = cli("anonymize-rt", src, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
            "-H", tree_file(tmp_path), "--items-sep", "|", "-k", 1, "-m", 1)  # fmt: skip
    assert r.code == ExitCode.USAGE and "--items-sep" in r.stderr, r.stderr


def test_a_list_column_written_to_csv_reads_back_as_the_same_sets(tmp_path):
    rows = [sorted(LABELS[i % len(LABELS)] for i in range(s, s + 3)) for s in range(6)]
    src = list_table(tmp_path, rows)
    out = tmp_path / "rel.csv"
    r = cli("anonymize-rt", src, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
            "-H", tree_file(tmp_path), "-k", 1, "-m", 1, "-o", out, "--json")  # fmt: skip
    assert r.code == 0, r.stderr
    assert released_sets(out) == sorted(rows)
    # and the tool reads its own CSV back as a text set column: the same release again
    again = tmp_path / "again.csv"
    r = cli("anonymize-rt", out, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
            "-H", tree_file(tmp_path), "-k", 1, "-m", 1, "-o", again, "--json")  # fmt: skip
    assert r.code == 0, r.stderr
    assert released_sets(again) == released_sets(out)  # rows sorted by the text, not the list
    assert sorted(again.read_text().splitlines()) == sorted(out.read_text().splitlines())


# -- the input DuckDB file is the --db ------------------------------------------------------------
@pytest.fixture
def same_db(tmp_path):
    db = tmp_path / "w.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE people (sex VARCHAR, age VARCHAR, items VARCHAR)")
        con.execute(
            "INSERT INTO people VALUES ('F', '20', 'plain'), ('F', '21', 'plain;x, y'), "
            "('M', '20', 'z]'), ('M', '21', 'z];plain')"
        )
    return db


@pytest.mark.parametrize("command", ["anonymize-table", "anonymize-rt"])
def test_a_table_of_the_db_itself_is_read(same_db, tmp_path, command):
    extra = (
        ("--items", "items", "-H", tree_file(tmp_path), "-m", 1, "--drop", "age")
        if command == "anonymize-rt"
        else ("--drop", "age", "--drop", "items")
    )
    out = tmp_path / "rel.csv"
    r = cli(command, same_db, "--table", "people", "--qi", "sex", "-t", "sex=suppress",
            "-k", 2, "--db", same_db, "-o", out, "--run", "r", *extra)  # fmt: skip
    assert r.code == 0, r.stderr
    with out.open(newline="") as f:
        assert len(list(csv.DictReader(f))) == 4
    with duckdb.connect(str(same_db), read_only=True) as con:  # the user's table untouched
        assert con.execute("SELECT count(*) FROM main.people").fetchone() == (4,)
