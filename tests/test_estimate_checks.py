"""`setanon estimate` answers only what the release proves: on a generated release with the
hierarchy it was made with, the true supports of a random workload fall inside the bounds; with
another hierarchy (whose leaves are the same items) it is refused in one line, exit 3, as it
would otherwise bound items at [0, 0] that the data holds; a disassociated folder edited after
the tool wrote it (chunk rows added, a cluster size cut below k) is refused the same way, never
answered with a lower bound above the upper."""

from __future__ import annotations

import csv
import random
import shutil
from pathlib import Path

import pytest

from setanon_sql.errors import ExitCode
from tests.helpers.cli import cli
from tests.helpers.reference import Tree


def generated(tmp: Path, seed: int = 7) -> tuple[Path, list[set[str]], list[str]]:
    """120 transactions of 1..5 of 40 items, skewed (a few items frequent, most rare); the
    items they hold."""
    rng = random.Random(seed)
    items = [str(55800 + 3 * i) for i in range(40)]
    weights = [1 / (i + 1) for i in range(len(items))]
    txs = [set(rng.choices(items, weights, k=rng.randint(1, 5))) for _ in range(120)]
    path = tmp / "tx.txt"
    path.write_text("".join(" ".join(sorted(t)) + "\n" for t in txs))
    return path, txs, sorted(set().union(*txs))


def edges_of(path: Path) -> list[tuple[str, str]]:
    with open(path, newline="") as f:
        return [(row["child"], row["parent"]) for row in csv.DictReader(f)]


def test_true_supports_fall_in_the_bounds_and_another_hierarchy_is_refused(tmp_path):
    data, txs, items = generated(tmp_path)
    made_with, other = tmp_path / "h4.csv", tmp_path / "h3.csv"
    for fanout, out in ((4, made_with), (3, other)):
        r = cli("hierarchy", "build", data, "--fanout", fanout, "--order", "id", "-o", out)
        assert r.code == 0, r.stderr
    rel = tmp_path / "rel.csv"
    r = cli("anonymize", data, "-H", made_with, "-a", "aa", "-k", 2, "-m", 1, "-o", rel, "-q")
    assert r.code == 0, r.stderr
    release: dict[str, set[str]] = {}
    with open(rel, newline="") as f:
        for row in csv.DictReader(f):
            release.setdefault(row["tid"], set()).add(row["item"])
    tree = Tree(edges_of(made_with))
    # the data as released: an item no released node of its transaction covers was suppressed
    kept = [
        {x for x in t if any(n in tree.ancestors(x) for n in release.get(str(i), ()))}
        for i, t in enumerate(txs)
    ]
    rng = random.Random(1)
    workload = sorted(
        {tuple(sorted(rng.sample(items, rng.randint(1, 3)))) for _ in range(150)}
        | {tuple(sorted(t))[:2] for t in txs[:50]}
    )
    queries = tmp_path / "q.txt"
    queries.write_text("".join(" ".join(q) + "\n" for q in workload))
    e = cli("estimate", rel, "-H", made_with, "--queries", queries, "--json")
    assert e.code == 0, e.stderr
    answers = {tuple(a["itemset"]): a for a in e.json()["answers"]}
    truth = {q: sum(set(q) <= t for t in kept) for q in workload}
    a = answers
    outside = [(q, n, a[q]) for q, n in truth.items() if not a[q]["lower"] <= n <= a[q]["upper"]]
    assert outside == []
    assert all(a["unknown"] == [] for a in answers.values())
    assert any(a["lower"] > 0 for a in answers.values())  # the workload is no trivial one
    foreign = {n for s in release.values() for n in s} - {x for e in edges_of(other) for x in e}
    assert foreign, "the two hierarchies name some released node differently"
    r = cli("estimate", rel, "-H", other, "--queries", queries)
    assert (r.code, r.stdout) == (ExitCode.INPUT, "")
    assert "no node of the hierarchy" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_an_item_outside_the_hierarchy_is_unknown_not_silently_zero(tmp_path):
    data, _, _ = generated(tmp_path)
    tree, rel = tmp_path / "h.csv", tmp_path / "rel.csv"
    assert cli("hierarchy", "build", data, "--fanout", 4, "-o", tree).code == 0
    assert cli("anonymize", data, "-H", tree, "-a", "aa", "-k", 3, "-m", 1, "-o", rel).code == 0
    e = cli("estimate", rel, "-H", tree, "-i", "55800 nosuch", "--json")
    assert e.code == 0, e.stderr
    (a,) = e.json()["answers"]
    assert (a["lower"], a["upper"], a["unknown"]) == (0, 0, ["nosuch"])


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A disassociated release of the generated data, k = 3, written by the tool."""
    tmp = tmp_path_factory.mktemp("dis")
    data, _, _ = generated(tmp)
    out = tmp / "rel"
    r = cli("anonymize", data, "-a", "disassociation", "-k", 3, "-m", 2, "-o", out, "-q")
    assert r.code == 0, r.stderr
    return out


def _rows_added(folder: Path) -> None:
    """Rows of the first record chunk's first item added, past the cluster's size."""
    with open(folder / "clusters.csv", newline="") as f:
        sizes = {row["cluster"]: int(row["size"]) for row in csv.DictReader(f)}
    with open(folder / "record_chunks.csv", newline="") as f:
        first = next(csv.DictReader(f))
    size = sizes[first["cluster"]]
    with open(folder / "record_chunks.csv", "a", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(
            (first["cluster"], first["chunk"], size + r, first["item"]) for r in range(1, size + 2)
        )


def _size_cut(folder: Path) -> None:
    """Every cluster's size cut to 1, below k."""
    with open(folder / "clusters.csv", newline="") as f:
        clusters = [row["cluster"] for row in csv.DictReader(f)]
    with open(folder / "clusters.csv", "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(
            [("cluster", "size"), *((c, 1) for c in clusters)]
        )


@pytest.mark.parametrize("tamper", [_rows_added, _size_cut])
def test_a_tampered_folder_is_refused_not_answered(folder, tmp_path, tamper):
    with open(folder / "record_chunks.csv", newline="") as f:
        item = next(csv.DictReader(f))["item"]
    good = cli("estimate", folder, "-i", item, "--json")
    assert good.code == 0, good.stderr
    edited = tmp_path / "rel"
    shutil.copytree(folder, edited)
    tamper(edited)
    r = cli("estimate", edited, "-i", item, "--json")
    assert (r.code, r.stdout) == (ExitCode.INPUT, ""), r.stdout
    assert "not a disassociated release as its release.json describes" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
