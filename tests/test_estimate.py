"""`setanon estimate` (#42): answers from a release alone, with honest bounds.

Worked examples pin the estimators (the term chunk's least occurrences among them); on random
small data, every itemset's support in the data as released (and in a random reconstruction of
a disassociated release) lies within [lower, upper], and the estimate does too.
"""

from __future__ import annotations

import csv
import itertools
import json
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.helpers.cli import EX, cli
from tests.helpers.reference import Tree
from tests.helpers.strategies import databases

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))


def write_folder(folder: Path, k: int, tables: dict[str, list[tuple]]) -> Path:
    """A disassociated release folder written by hand, as the tool writes one."""
    heads = {
        "clusters": ("cluster", "size"),
        "record_chunks": ("cluster", "chunk", "row", "item"),
        "term_chunks": ("cluster", "item"),
    }
    folder.mkdir()
    for name, head in heads.items():
        with open(folder / f"{name}.csv", "w", newline="") as f:
            csv.writer(f).writerows([head, *tables.get(name, [])])
    manifest = {"tool": "setanon-sql", "files": [f"{n}.csv" for n in heads]}
    manifest |= {"release": "disassociation", "k": k, "m": 2}
    (folder / "release.json").write_text(json.dumps(manifest))
    return folder


def answers(*args: object) -> dict[str, dict]:
    r = cli("estimate", *args, "--json")
    assert r.code == 0, r.stderr
    return {" ".join(a["itemset"]): a for a in r.json()["answers"]}


def test_term_chunk_terms_take_the_records_left_without_a_row(tmp_path):
    # 6 records, k=3: a chunk of 3 rows {a}; the term chunk {x, y}. The 3 records without a
    # row hold at least one term each: 3 occurrences over 2 terms, 1.5 each (not 1).
    rel = write_folder(
        tmp_path / "rel",
        3,
        {
            "clusters": [(1, 6)],
            "record_chunks": [(1, 1, r, "a") for r in (1, 2, 3)],
            "term_chunks": [(1, "x"), (1, "y")],
        },
    )
    got = answers(rel, "-i", "a", "-i", "x", "-i", "a x", "-i", "x y", "-i", "zz")
    assert got["a"] | {"unknown": []} == {
        "itemset": ["a"],
        "estimate": 3.0,
        "lower": 3,
        "upper": 3,
        "unknown": [],
    }
    assert (got["x"]["estimate"], got["x"]["lower"], got["x"]["upper"]) == (1.5, 1, 2)
    assert (got["a x"]["estimate"], got["a x"]["lower"], got["a x"]["upper"]) == (0.75, 0, 2)
    assert (got["x y"]["lower"], got["x y"]["upper"]) == (0, 2)
    assert got["zz"] == {
        "itemset": ["zz"],
        "estimate": 0.0,
        "lower": 0,
        "upper": 0,
        "unknown": ["zz"],
    }


def test_a_lone_term_holds_every_record_left_without_a_row(tmp_path):
    # 6 records, k=4: a chunk of 4 rows {a}; the term chunk {x} alone: the 2 records without
    # a row hold x, so x is held by 2..3 records (cap = k - 1).
    rel = write_folder(
        tmp_path / "rel",
        4,
        {
            "clusters": [(1, 6)],
            "record_chunks": [(1, 1, r, "a") for r in (1, 2, 3, 4)],
            "term_chunks": [(1, "x")],
        },
    )
    got = answers(rel, "-i", "x", "-i", "a")
    assert (got["x"]["estimate"], got["x"]["lower"], got["x"]["upper"]) == (2.0, 2, 3)


def test_pairs_across_chunks_are_bounded_by_overlap(tmp_path):
    # 4 records; chunk 1 rows {a}x3, chunk 2 rows {b}x3: at least 2 records hold both.
    rows = [(1, 1, r, "a") for r in (1, 2, 3)] + [(1, 2, r, "b") for r in (1, 2, 3)]
    rel = write_folder(tmp_path / "rel", 2, {"clusters": [(1, 4)], "record_chunks": rows})
    got = answers(rel, "-i", "a b")
    assert (got["a b"]["estimate"], got["a b"]["lower"], got["a b"]["upper"]) == (2.25, 2, 3)


def supports(txs: list[set[str]], items: list[str], most: int = 3) -> dict[str, int]:
    """Brute force: every itemset of 1..most of `items` with its support in `txs`."""
    out = {}
    for size in range(1, most + 1):
        for q in itertools.combinations(sorted(items), size):
            out[" ".join(q)] = sum(1 for t in txs if set(q) <= t)
    return out


def check_within(truth: dict[str, int], got: dict[str, dict], what: str) -> None:
    for q, s in truth.items():
        a = got[q]
        assert a["lower"] <= s <= a["upper"], (what, q, s, a)
        assert a["lower"] - 1e-9 <= a["estimate"] <= a["upper"] + 1e-9, (what, q, a)


def ask_all(release: Path, queries: dict[str, int], tmp: Path, *extra: object) -> dict:
    qfile = tmp / "queries.txt"
    qfile.write_text("\n".join(queries) + "\n")
    return answers(release, "--queries", qfile, *extra)


@SETTINGS
@given(
    txs=st.lists(
        st.sets(st.sampled_from("abcdefg"), min_size=1, max_size=4), min_size=4, max_size=24
    ),
    k=st.integers(2, 3),
    refine=st.booleans(),
)
def test_disassociated_bounds_hold_the_data_and_a_reconstruction(tmp_path_factory, txs, k, refine):
    if len(txs) < k:
        return
    tmp = tmp_path_factory.mktemp("d")
    data = tmp / "tx.txt"
    data.write_text("\n".join(" ".join(sorted(t)) for t in txs) + "\n")
    db, rel = tmp / "w.duckdb", tmp / "rel"
    r = cli(
        "anonymize",
        data,
        "-a",
        "disassociation",
        "-k",
        k,
        "-m",
        2,
        "-o",
        rel,
        "--db",
        db,
        "--run",
        "d",
        "--option",
        f"refine={str(refine).lower()}",
        "-q",
    )
    assume(r.code != 3)  # no cover-safe release of this data at this k
    assert r.code == 0, r.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        cut = con.execute(
            "SELECT CAST(t.label AS INTEGER), s.item FROM d.suppressed_items AS s "
            "JOIN setanon_d1.tids AS t ON t.tid = s.tid"
        ).fetchall()
    released = [set(t) for t in txs]
    for tid, item in cut:
        released[tid].discard(item)
    vocab = sorted(set().union(*txs))
    truth = supports(released, vocab)
    got = ask_all(rel, truth, tmp)
    check_within(truth, got, "data")
    rec = tmp / "rec.csv"
    assert cli("reconstruct", "d", "-o", rec, "--db", db).code == 0
    by_tid: dict[str, set[str]] = {}
    with open(rec, newline="") as f:
        for row in csv.DictReader(f):
            by_tid.setdefault(row["tid"], set()).add(row["item"])
    check_within(supports(list(by_tid.values()), vocab), got, "reconstruction")


@SETTINGS
@given(
    db=databases(max_leaves=6, max_tx=14, max_len=3),
    algorithm=st.sampled_from(["aa", "partition", "clump"]),
)
def test_generalized_bounds_hold_the_released_data(tmp_path_factory, db, algorithm):
    txs, edges = db
    k = 2
    if len(txs) < k:
        return
    tmp = tmp_path_factory.mktemp("g")
    data, hier, rel = tmp / "tx.csv", tmp / "h.csv", tmp / "rel.csv"
    with open(data, "w", newline="") as f:
        csv.writer(f).writerows([("tid", "item")] + [(i, x) for i, t in enumerate(txs) for x in t])
    with open(hier, "w", newline="") as f:
        csv.writer(f).writerows([("child", "parent"), *edges])
    m = ["-m", 2] if algorithm == "aa" else []
    r = cli("anonymize", data, "-H", hier, "-a", algorithm, "-k", k, *m, "-o", rel, "-q")
    assume(r.code != 3)  # k beyond what the data allows
    assert r.code == 0, r.stderr
    tree = Tree(edges)
    release: dict[str, set[str]] = {}
    with open(rel, newline="") as f:
        for row in csv.DictReader(f):
            release.setdefault(row["tid"], set()).add(row["item"])
    # the data as released: an item no released node of its transaction covers was suppressed
    kept = [
        {x for x in t if any(n in tree.ancestors(x) for n in release.get(str(i), ()))}
        for i, t in enumerate(txs)
    ]
    leaves = sorted({c for c, _ in edges} - {p for _, p in edges})
    truth = supports(kept, leaves)
    check_within(truth, ask_all(rel, truth, tmp, "-H", hier), algorithm)


def test_the_bundled_example(tmp_path):
    rel = tmp_path / "fig2_release.csv"
    h = EX / "fig2_hierarchy.csv"
    assert (
        cli(
            "anonymize", EX / "fig2.csv", "-H", h, "-a", "aa", "-k", 2, "-m", 2, "-o", rel, "-q"
        ).code
        == 0
    )
    got = answers(rel, "-H", h, "-i", "a1", "-i", "b1 b2")
    assert (got["a1"]["estimate"], got["a1"]["lower"], got["a1"]["upper"]) == (2.0, 0, 4)
    assert (got["b1 b2"]["estimate"], got["b1 b2"]["lower"], got["b1 b2"]["upper"]) == (2, 2, 2)


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["{rel}", "-i", ""], 3, "--itemset number 1: empty itemset"),
        (["{rel}", "--queries", "{empty_line}"], 3, "line 2: empty itemset"),
        (["{rel}"], 2, "give itemsets"),
        (["{tmp}", "-i", "a"], 3, "is not a disassociated release folder written by setanon"),
        (["{tmp}/nothing", "-i", "a"], 3, "release not found"),
        (["{rel}", "-i", "a", "-H", "{hier}"], 2, "-H applies to a generalized release file"),
        (["{file}", "-i", "a1"], 2, "give the hierarchy it was made with, -H FILE"),
        (["{file}", "-i", "A", "-H", "{hier}"], 3, "'A' is a generalized node"),
        (["{rel}", "-i", "a", "--sep", ""], 2, "--sep must not be empty"),
        (["{rel}", "-i", "a", "--synthetic"], 2, "--synthetic applies to a release file"),
        (["{file}", "-i", "a1", "--synthetic", "-H", "{hier}"], 2, "needs none"),
        (["{hier}", "-i", "a1", "--synthetic"], 3, "not a long tid,item release file"),
        (["{hier}", "-i", "a1", "-H", "{hier}"], 3, "no column tid (its columns: child, parent)"),
        (["{rel}", "-i", "a", "--items", "items"], 2, "--items names the set column"),
        (["{file}", "-i", "a1", "--items-sep", ","], 2, "--items-sep splits the set column"),
        (["{file}", "-i", "a1", "-t", "x={hier}"], 2, "-t names a QI column"),
        (["{file}", "-i", "a1", "--items", "x", "-t", "x"], 2, "-t takes COLUMN=FILE"),
        (["{file}", "-i", "a1", "-H", "{hier}", "--items", "x"], 3, "no set column 'x'"),
    ],
)
def test_bad_input_one_line_and_its_exit_code(tmp_path, args, code, message):
    rel = write_folder(tmp_path / "rel", 2, {"clusters": [(1, 2)], "term_chunks": [(1, "a")]})
    (tmp_path / "q.txt").write_text("a\n\nb\n")
    names = {
        "rel": rel,
        "tmp": tmp_path,
        "hier": EX / "fig2_hierarchy.csv",
        "file": EX / "fig2.csv",
        "empty_line": tmp_path / "q.txt",
    }
    before = sorted(p.name for p in tmp_path.iterdir())
    r = cli("estimate", *[a.format(**names) for a in args])
    assert (r.code, r.stdout) == (code, "")
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_evaluate_reports_the_estimates_estimate_gives_on_the_folder(tmp_path):
    # One implementation: `evaluate` on the stored run and `estimate` on the written folder
    # answer every probe alike.
    data = tmp_path / "tx.txt"
    data.write_text(
        "\n".join(
            [
                "a b c",
                "a b",
                "a c d",
                "b c",
                "a b d",
                "c d e",
                "a e",
                "b c e",
                "a b c d",
                "d e",
                "a d",
                "b e",
            ]
            * 3
            + ["a x", "b y", "c x", "d"]
        )
        + "\n"
    )
    db, rel = tmp_path / "w.duckdb", tmp_path / "rel"
    r = cli(
        "anonymize",
        data,
        "-a",
        "disassociation",
        "-k",
        3,
        "-m",
        2,
        "-o",
        rel,
        "--db",
        db,
        "--run",
        "d",
        "-q",
    )
    assert r.code == 0, r.stderr
    ev = cli("evaluate", "--db", db, "--run", "d", "--queries", 40, "--targets", 5, "--json")
    assert ev.code == 0, ev.stderr
    assert ev.json()["estimator"].startswith("disassociated")
    with duckdb.connect(str(db), read_only=True) as con:
        probes = con.execute(
            "SELECT q.workload, q.size, q.qid, list(i.label ORDER BY i.label), "
            "any_value(q.estimate) FROM d.eval_queries AS q, unnest(q.itemset) AS u(item) "
            "JOIN d.dis_item AS i ON i.item = u.item GROUP BY ALL"
        ).fetchall()
    assert len(probes) > 20 and any("x" in p[3] for p in probes)  # term-chunk terms too
    got = ask_all(rel, {" ".join(p[3]): 0 for p in probes}, tmp_path)
    for *_, items, estimate in probes:
        assert got[" ".join(items)]["estimate"] == pytest.approx(estimate, abs=1e-5), items


RELEASES = st.lists(
    st.tuples(st.integers(1, 8), st.sampled_from(["a", "b", "c", "d", "é,x"])), max_size=30
)
ITEMSETS = st.lists(
    st.lists(st.sampled_from(["a", "b", "c", "d", "é,x", "z"]), min_size=1, max_size=3),
    min_size=1,
    max_size=6,
)


@SETTINGS
@given(rows=RELEASES, itemsets=ITEMSETS)
def test_a_synthetic_release_is_counted_as_it_is_with_no_bounds(tmp_path_factory, rows, itemsets):
    # dpsets' release (#44): each itemset's support is the count of released transactions
    # holding all its items (a repeated row counts once), and the release proves no bound
    from setanon_sql.measure.estimate import estimate

    rel = tmp_path_factory.mktemp("syn") / "rel.csv"
    with open(rel, "w", newline="") as f:
        csv.writer(f).writerows([("tid", "item"), *rows])
    held: dict[int, set[str]] = {}
    for tid, item in rows:
        held.setdefault(tid, set()).add(item)
    asked = [tuple(dict.fromkeys(s)) for s in itemsets]
    got = estimate(rel, asked, synthetic=True)
    assert got.kind == "synthetic" and len(got.answers) == len(asked)
    released = {i for _, i in rows}
    for want, answer in zip(asked, got.answers, strict=True):
        assert answer.itemset == want
        assert answer.estimate == sum(set(want) <= t for t in held.values())
        assert (answer.lower, answer.upper) == (None, None)
        assert answer.unknown == tuple(i for i in want if i not in released)


def test_a_dpsets_release_is_estimated_without_a_hierarchy(tmp_path):
    rel = tmp_path / "rel.csv"
    r = cli("anonymize", EX / "fig2.csv", "-H", EX / "fig2_catalogue.csv", "-a", "dpsets",
            "--epsilon", 2, "-o", rel, "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    with open(rel) as f:
        rows = list(csv.DictReader(f))
    pairs = {(r["tid"], r["item"]) for r in rows}
    tids = {t for t, _ in pairs}
    want = sum(((t, "a1") in pairs and (t, "b1") in pairs) for t in tids)
    r = cli("estimate", rel, "--synthetic", "-i", "a1 b1", "--json")
    assert r.code == 0, r.stderr
    (answer,) = r.json()["answers"]
    assert r.json()["kind"] == "synthetic" and "proves no bound" in r.json()["estimator"]
    assert (answer["estimate"], answer["lower"], answer["upper"]) == (want, None, None)
