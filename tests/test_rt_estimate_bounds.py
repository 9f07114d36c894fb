"""`setanon estimate` on a generalized (k, k^m) table release (`anonymize-rt -o`, `--items`):
the bounds it proves are exactly the least and the most support an itemset has over every
reconstruction of the release, enumerated in plain Python on small random tables. A
reconstruction gives each released row any set of leaves such that each leaf lies under one of
the row's released labels and each label lies above one of the leaves (what the brute-force
verifier, tests/helpers/rt_brute.py, asks of a release row by row); the rows are independent,
so an itemset's least support counts the rows every such set holds it in, its most the rows
some set does. The original lies among the reconstructions: its support is inside too."""

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
        released = [set(row["items"].split(";")) for row in csv.DictReader(f)]
    leaves = sorted({c for c, _ in edges} - {p for _, p in edges})
    rng = random.Random(seed)
    queries = sorted(
        {tuple(sorted(rng.sample(leaves, rng.randint(1, min(3, len(leaves)))))) for _ in range(12)}
        | {tuple(sorted(items))[:3] for _, items in data[:4]}
    )
    ask = tmp / "q.txt"
    ask.write_text("".join(" ".join(q) + "\n" for q in queries))
    e = cli("estimate", rel, "-H", tree, "--items", "items", "--queries", ask, "--json")
    assert e.code == 0, e.stderr
    got = {tuple(a["itemset"]): a for a in e.json()["answers"]}
    options = [list(reconstructions(labels, edges, leaves)) for labels in released]
    assert all(options), "the original is a reconstruction: every row has one"
    for q in queries:
        least = sum(all(set(q) <= s for s in row) for row in options)
        most = sum(any(set(q) <= s for s in row) for row in options)
        truth = sum(set(q) <= items for _, items in data)
        a = got[q]
        assert (a["lower"], a["upper"]) == (least, most), (q, released, a)
        assert least <= truth <= most
        assert a["lower"] - 1e-9 <= a["estimate"] <= a["upper"] + 1e-9, (q, a)
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
