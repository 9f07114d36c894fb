"""`setanon estimate` on a generalized (k, k^m) table release (`anonymize-rt -o`, `--items`):
the bounds it proves are exactly the least and the most support an itemset has over every
reconstruction of the release, enumerated in plain Python on small random tables. A
reconstruction gives each released row any set of leaves such that each leaf lies under one of
the row's released labels and each label lies above one of the leaves (what the brute-force
verifier, tests/helpers/rt_brute.py, asks of a release row by row); the rows are independent,
so an itemset's least support counts the rows every such set holds it in, its most the rows
some set does. A mixed query (`x=v` and items, with the QI's taxonomy) also asks that the row's
value, any leaf under its released QI label, be v. The original lies among the reconstructions:
its support is inside too."""

from __future__ import annotations

import csv
import random
from itertools import combinations
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers.cli import cli
from tests.helpers.rt_brute import ancestors
from tests.helpers.strategies import trees

QI_EDGES = [("0", "01"), ("1", "01"), ("2", "23"), ("3", "23"), ("01", "*"), ("23", "*")]


@st.composite
def tables(draw):  # type: ignore[no-untyped-def]
    """An item tree (nodes over one leaf among its nodes) and 4..14 rows of a QI over 0..3
    and 1..4 of its leaves."""
    edges = draw(trees(max_leaves=6, max_fanout=3))
    leaves = sorted({c for c, _ in edges} - {p for _, p in edges})
    row = st.tuples(
        st.sampled_from("0123"), st.sets(st.sampled_from(leaves), min_size=1, max_size=4)
    )
    return edges, draw(st.lists(row, min_size=4, max_size=14))


def reconstructions(labels: set[str], edges: list[tuple[str, str]], leaves: list[str]):  # type: ignore[no-untyped-def]
    """Every set of leaves a released row of `labels` may stand for."""
    under = {x: ancestors(edges, x) for x in leaves}
    for size in range(1, len(leaves) + 1):
        for held in combinations(leaves, size):
            if all(under[x] & labels for x in held) and all(
                any(lab in under[x] for x in held) for lab in labels
            ):
                yield set(held)


def ancestors_of_leaves(label: str) -> set[str]:
    """The QI values (leaves of QI_EDGES) a released QI label may stand for."""
    return {x for x in "0123" if label in ancestors(QI_EDGES, x)}


def write_csv(path: Path, head: tuple[str, ...], rows: list[tuple]) -> Path:
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows([head, *rows])
    return path


SETTINGS = settings(
    max_examples=20, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)  # fmt: skip


@SETTINGS
@given(
    table=tables(), k=st.integers(1, 3), m=st.integers(1, 2),
    search=st.sampled_from(["topdown", "lift"]), seed=st.integers(0, 99),
)  # fmt: skip
def test_bounds_are_the_least_and_most_support_over_the_reconstructions(
    tmp_path_factory, table, k, m, search, seed
):
    edges, data = table
    if k > len(data) or m > max(len(items) for _, items in data):
        return
    tmp = tmp_path_factory.mktemp("rt")
    source = write_csv(tmp / "t.csv", ("x", "items"), [(x, ";".join(sorted(s))) for x, s in data])
    tree = write_csv(tmp / "h.csv", ("child", "parent"), edges)
    qi = write_csv(tmp / "qi.csv", ("child", "parent"), QI_EDGES)
    rel = tmp / "rel.csv"
    r = cli(
        "anonymize-rt", source, "--qi", "x", "-t", f"x={qi}", "--items", "items", "-H", tree,
        "-k", k, "-m", m, "--item-search", search, "--class-size", k, "-o", rel, "-q",
    )  # fmt: skip
    assert r.code == 0, r.stderr
    with open(rel, newline="") as f:
        released = [(row["x"], set(row["items"].split(";"))) for row in csv.DictReader(f)]
    leaves = sorted({c for c, _ in edges} - {p for _, p in edges})
    rng = random.Random(seed)
    itemsets = {
        tuple(sorted(rng.sample(leaves, rng.randint(1, min(3, len(leaves)))))) for _ in range(12)
    } | {tuple(sorted(items))[:3] for _, items in data[:4]}
    # plain item queries, and mixed ones: rows with QI value x=v holding the items
    queries = sorted((None, q) for q in itemsets) + [
        (rng.choice("0123"), q) for q in sorted(itemsets)[:8]
    ]
    asked = [(f"x={v} " if v else "") + " ".join(q) for v, q in queries]
    ask = tmp / "q.txt"
    ask.write_text("".join(line + "\n" for line in asked))
    e = cli("estimate", rel, "-H", tree, "--items", "items", "-t", f"x={qi}", "--queries", ask,
            "--json")  # fmt: skip
    assert e.code == 0, e.stderr
    got = {" ".join(a["itemset"]): a for a in e.json()["answers"]}
    values = [ancestors_of_leaves(label) for label, _ in released]
    options = [list(reconstructions(labels, edges, leaves)) for _, labels in released]
    assert all(options), "the original is a reconstruction: every row has one"
    for (v, q), line in zip(queries, asked, strict=True):
        least = sum(
            (v is None or values[i] == {v}) and all(set(q) <= s for s in row)
            for i, row in enumerate(options)
        )
        most = sum(
            (v is None or v in values[i]) and any(set(q) <= s for s in row)
            for i, row in enumerate(options)
        )
        truth = sum((v is None or x == v) and set(q) <= items for x, items in data)
        a = got[line]
        assert (a["lower"], a["upper"]) == (least, most), (line, released, a)
        assert least <= truth <= most
        assert a["lower"] - 1e-9 <= a["estimate"] <= a["upper"] + 1e-9, (line, a)
        assert a["unknown"] == []


def test_a_list_set_column_is_read_as_the_text_one_and_takes_no_separator(tmp_path):
    """The same table as text and as a Parquet LIST column: the same answers; --items-sep
    with the list is refused (it would split nothing)."""
    tree = write_csv(tmp_path / "h.csv", ("child", "parent"), [
        ("a", "A"), ("b", "A"), ("c", "B"), ("d", "B"), ("A", "*"), ("B", "*"),
    ])  # fmt: skip
    sets = [["a", "b"], ["a"], ["c"], ["c", "d"], ["b"], ["d"]]
    text = write_csv(tmp_path / "t.csv", ("sex", "items"),
                     [("FFMMFM"[i], ";".join(s)) for i, s in enumerate(sets)])  # fmt: skip
    listed = tmp_path / "t.parquet"
    pq.write_table(pa.table({"sex": list("FFMMFM"), "items": sets}), listed)
    answers = []
    for source, out in ((text, tmp_path / "r.csv"), (listed, tmp_path / "r.parquet")):
        r = cli("anonymize-rt", source, "--qi", "sex", "-t", "sex=suppress", "--items", "items",
                "-H", tree, "-k", 2, "-m", 1, "-o", out, "-q")  # fmt: skip
        assert r.code == 0, r.stderr
        e = cli("estimate", out, "-H", tree, "--items", "items", "-i", "a", "-i", "c d", "--json")
        assert e.code == 0, e.stderr
        answers.append(e.json()["answers"])
    assert answers[0] == answers[1]
    assert [(a["lower"], a["upper"]) for a in answers[0]] == [(2, 2), (1, 1)]
    r = cli("estimate", out, "-H", tree, "--items", "items", "--items-sep", ",", "-i", "a")
    assert (r.code, r.stdout) == (2, "") and "is a list" in r.stderr


def test_a_qi_taxonomy_that_does_not_match_the_release_is_refused(tmp_path):
    tree = write_csv(tmp_path / "h.csv", ("child", "parent"), [("a", "*"), ("b", "*")])
    ages = write_csv(tmp_path / "age.csv", ("child", "parent"), [
        ("1", "1-2"), ("2", "1-2"), ("3", "3-4"), ("4", "3-4"), ("1-2", "*"), ("3-4", "*"),
    ])  # fmt: skip
    other = write_csv(tmp_path / "other.csv", ("child", "parent"), [
        ("1", "*"), ("2", "*"), ("3", "*"), ("4", "*"),
    ])  # fmt: skip
    source = write_csv(tmp_path / "t.csv", ("age", "items"),
                       [("1", "a"), ("2", "a;b"), ("3", "b"), ("4", "a")])  # fmt: skip
    out = tmp_path / "r.csv"
    r = cli("anonymize-rt", source, "--qi", "age", "-t", f"age={ages}", "--items", "items",
            "-H", tree, "-k", 2, "-m", 1, "-o", out, "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    assert {row.split(",")[0] for row in out.read_text().splitlines()[1:]} == {"1-2", "3-4"}
    ask = ("estimate", out, "-H", tree, "--items", "items", "-i", "age=1 a", "--json")
    e = cli(*ask, "-t", f"age={ages}")
    assert e.code == 0, e.stderr
    (a,) = e.json()["answers"]
    # both rows of 1-2 released as {*} over a, b: each 1/2 (age 1 of 1-2) x 1/2 (a of *)
    assert out.read_text().splitlines()[1:3] == ["1-2,*", "1-2,*"]
    assert (a["estimate"], a["lower"], a["upper"]) == (0.5, 0, 2)
    r = cli(*ask, "-t", f"age={other}")
    assert (r.code, r.stdout) == (3, "") and "nor of a QI taxonomy" in r.stderr, r.stderr
