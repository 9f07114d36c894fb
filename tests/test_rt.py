"""(k, k^m)-anonymity of tables with a set column (issue 41): a release worked by hand, the
SQL verifier against a brute force on random releases and mutations of them, every release of
the search verified, and the bad inputs through the CLI with their exit codes."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql.errors import ExitCode
from setanon_sql.relational.rt import anonymize_rt
from setanon_sql.relational.rt_sets import SetColumn
from setanon_sql.relational.rt_verify import verify_rt
from setanon_sql.store.database import Store
from setanon_sql.store.hierarchy_spec import HierarchySpec
from tests.helpers.cli import cli
from tests.helpers.rt_brute import problems

ITEM_EDGES = (("a", "A"), ("b", "A"), ("c", "B"), ("d", "B"), ("A", "*"), ("B", "*"))
TREE = HierarchySpec(edges=ITEM_EDGES)


def released_rows(store: Store, run: str, columns: list[str]) -> list[dict]:
    """The release's rows in source order, from the run's `table_release`."""
    store.point(run=run)
    from sqlglot import exp, select

    from setanon_sql.engine.builders import render

    sql = render(
        select(*[exp.column(c, quoted=True) for c in columns])
        .from_("table_release")
        .order_by("rid")
    )
    return store.arrow(sql).to_pylist()


def test_a_release_worked_by_hand():
    """Two classes of two records (age 1, age 2), k=2, m=2. Class 1: {a,c},{b,c}: a and b are
    held once, a goes up to A, which covers b: {A,c},{A,c}. Class 2: {a},{a,d}: d (once) goes
    up to B, B (once) to the root, which covers a: {*},{*}. Item NCP: a, b released as A (1/3
    each), c, c exact, a, a, d as * (1 each): (2/3 + 3) / 7."""
    store = Store()
    rows = {"age": ["1", "1", "2", "2"], "items": ["a;c", "b;c", "a", "a;d"]}
    result = anonymize_rt(
        store, rows, qi=["age"], taxonomies={"age": "suppress"}, items="items",
        hierarchy=TREE, k=2, m=2, mine_beam=None,
    )  # fmt: skip
    got = released_rows(store, result.run, ["age", "items"])
    assert got == [
        {"age": "1", "items": "A;c"},
        {"age": "1", "items": "A;c"},
        {"age": "2", "items": "*"},
        {"age": "2", "items": "*"},
    ]
    assert result.report.ok and result.classes == 2
    assert result.relational_ncp == 0
    assert result.item_ncp == pytest.approx((2 / 3 + 3) / 7)


def test_a_list_column_comes_back_a_list(tmp_path):
    store = Store()
    table = pa.table({"sex": ["F", "F", "M", "M"], "codes": [["a", "b"], ["a"], ["c"], ["c", "d"]]})
    path = tmp_path / "t.parquet"
    pq.write_table(table, path)
    out = tmp_path / "rel.parquet"
    result = anonymize_rt(
        store, path, qi=["sex"], taxonomies={"sex": "suppress"}, items="codes", hierarchy=TREE,
        k=2, m=1, mine_beam=None, output=out,
    )  # fmt: skip
    assert result.report.ok
    back = pq.read_table(out).to_pylist()
    assert back == [
        {"sex": "F", "codes": ["A"]},  # b, held once, goes up to A, which covers a
        {"sex": "F", "codes": ["A"]},
        {"sex": "M", "codes": ["B"]},  # d likewise to B
        {"sex": "M", "codes": ["B"]},
    ]


LEAVES = ["a", "b", "c", "d"]
QI_EDGES = {"x": [("0", "01"), ("1", "01"), ("2", "23"), ("3", "23"), ("01", "*"), ("23", "*")]}

records = st.lists(
    st.tuples(
        st.sampled_from(["0", "1", "2", "3"]),
        st.sets(st.sampled_from(LEAVES), min_size=1, max_size=4),
    ),
    min_size=2,
    max_size=14,
)


def _run(data, k, m):
    store = Store()
    rows = {"x": [x for x, _ in data], "items": [";".join(sorted(s)) for _, s in data]}
    result = anonymize_rt(
        store, rows, qi=["x"], taxonomies={"x": _qi_tree_file()}, items="items",
        hierarchy=TREE, k=k, m=m, mine_beam=None,
    )  # fmt: skip
    return store, result


_QI_FILE: list = []


def _qi_tree_file():
    import tempfile
    from pathlib import Path

    if not _QI_FILE:
        path = Path(tempfile.mkdtemp()) / "x.csv"
        path.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in QI_EDGES["x"]))
        _QI_FILE.append(str(path))
    return _QI_FILE[0]


def _brute(data, released, k, m):
    original = [{"x": x, "items": s} for x, s in data]
    rel = [{"x": r["x"], "items": set(r["items"].split(";"))} for r in released]
    return problems(
        original, rel, qi=["x"], qi_edges=QI_EDGES, items="items", item_edges=ITEM_EDGES,
        k=k, m=m,
    )  # fmt: skip


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=records, k=st.integers(1, 3), m=st.integers(1, 2), mutate=st.integers(0, 3))
def test_every_release_passes_and_the_verifier_agrees_with_brute_force(data, k, m, mutate):
    longest = max(len(s) for _, s in data)
    if k > len(data) or m > longest:
        return
    store, result = _run(data, k, m)
    released = released_rows(store, result.run, ["rid", "cluster", "x", "items"])
    assert _brute(data, released, k, m) == []
    assert result.report.ok
    # a mutation of the release: the verifier must say what the brute force says
    i = mutate % len(released)
    changed = [dict(r) for r in released]
    if mutate == 0:
        changed[i]["items"] = ";".join(sorted(data[i][1]))  # the original set, exact
    elif mutate == 1:
        changed[i]["x"] = data[i][0]  # the original QI value
    elif mutate == 2:
        changed[i]["items"] = "d" if "d" not in data[i][1] else "a"  # an item not held
    else:
        changed[i]["x"] = "*"  # more general: a class of one
    store.point(run=result.run)
    store.put_arrow("table_release", pa.Table.from_pylist(changed))
    report = verify_rt(store, ["x"], SetColumn("items", False, ";"), k, m)
    assert report.ok == (_brute(data, changed, k, m) == [])


def _csv(tmp_path, text, name="t.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def _tree(tmp_path):
    return _csv(tmp_path, "child,parent\n" + "".join(f"{c},{p}\n" for c, p in ITEM_EDGES), "h.csv")


def _rt(tmp_path, table, *extra):
    return cli(
        "anonymize-rt", table, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
        "-H", _tree(tmp_path), *extra,
    )  # fmt: skip


GOOD = "sex,items\nF,a;b\nF,a\nM,c\nM,c;d\n"


def test_cli_writes_a_verified_release(tmp_path):
    out = tmp_path / "rel.csv"
    r = _rt(tmp_path, _csv(tmp_path, GOOD), "-k", "2", "-m", "1", "-o", out, "--json")
    assert r.code == 0, r.stderr
    assert r.json()["verified"]["ok"]
    assert out.read_text().splitlines()[0] == "sex,items"


@pytest.mark.parametrize(
    ("table", "extra", "code", "says"),
    [
        ("sex,items\nF,a;b\nF,\nM,c\nM,c;d\n", (), ExitCode.INPUT, "no items"),
        ("sex,items\nF,a;;b\nF,a\nM,c\nM,c;d\n", (), ExitCode.INPUT, "blank item"),
        ("sex,items\nF,a;z\nF,a\nM,c\nM,c;d\n", (), ExitCode.INPUT, "no leaf"),
        (GOOD, ("-m", "3"), ExitCode.INPUT, "longest set"),
        (GOOD, ("-k", "5"), ExitCode.INPUT, "larger than the table"),
        (GOOD, ("--items-sep", ""), ExitCode.USAGE, "--items-sep"),
        (GOOD, ("--qi", "items"), ExitCode.USAGE, "both the set column"),
        ("sex,codes\nF,a\nF,a\nM,c\nM,c\n", (), ExitCode.INPUT, "no set column"),
    ],
)
def test_bad_inputs_say_one_line_and_write_nothing(tmp_path, table, extra, code, says):
    out = tmp_path / "rel.csv"
    r = _rt(tmp_path, _csv(tmp_path, table), "-k", "2", "-m", "1", *extra, "-o", out)
    assert r.code == code, (r.code, r.stderr)
    assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_duplicate_items_collapse(tmp_path):
    r = _rt(
        tmp_path,
        _csv(tmp_path, "sex,items\nF,a;a\nF,a\nM,c\nM,c;c\n"),
        "-k",
        "2",
        "-m",
        "1",
        "--json",
    )
    assert r.code == 0, r.stderr


def test_a_nested_list_is_refused(tmp_path):
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"sex": ["F", "F"], "items": [[["a"]], [["a"]]]}), path)
    r = _rt(tmp_path, path, "-k", "2", "-m", "1")
    assert r.code == ExitCode.INPUT and "nested type" in r.stderr
