"""`verify DATA -r FOLDER` checks a written disassociated release folder against the data
(issue 40): the folder the tool wrote passes (CSV and Parquet, with refinement and with
suppression), a tampered one fails with exit 1, and a folder that is not a release the tool
wrote is one line with exit 3. Through the command line, with exit codes."""

from __future__ import annotations

import csv
import json
import random
import shutil
from pathlib import Path

import duckdb
import pytest
from helpers.cli import EX, cli

from setanon_sql.errors import ExitCode

K = 5


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """300 baskets over 40 items of falling popularity: clusters, term and shared chunks."""
    rng = random.Random(7)
    items = [f"i{j}" for j in range(40)]
    weights = [1 / (j + 1) for j in range(40)]
    path = tmp_path_factory.mktemp("data") / "baskets.txt"
    lines = [
        " ".join(sorted(set(rng.choices(items, weights, k=rng.randint(1, 6))))) for _ in range(300)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def release(data: Path, out: Path, *extra: object) -> Path:
    r = cli("anonymize", data, "-a", "disassociation", "-k", K, "-m", 2, "-o", out, "-q",
            "--option", "max_cluster=30", *extra)  # fmt: skip
    assert r.code == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def released(data: Path, tmp_path_factory):
    """A copy of the folder the tool wrote with these options, written once per module and
    copied for each test (a test tampers with its own copy)."""
    written: dict[tuple[str, ...], Path] = {}

    def copy(out: Path, *extra: object) -> Path:
        key = tuple(map(str, extra))
        if key not in written:
            written[key] = release(data, tmp_path_factory.mktemp("written") / "rel", *extra)
        shutil.copytree(written[key], out)
        return out

    return copy


def verify(data: Path, folder: Path, *extra: object):
    return cli("verify", data, "-r", folder, "--json", *extra)


def read(path: Path) -> list[list[str]]:
    with path.open(newline="") as f:
        return list(csv.reader(f))


def write(path: Path, rows: list[list[str]]) -> None:
    with path.open("w", newline="") as f:
        csv.writer(f).writerows(rows)


def manifest(folder: Path, **changes: object) -> None:
    found = json.loads((folder / "release.json").read_text())
    for key, value in changes.items():
        if value is None:
            del found[key]
        else:
            found[key] = value
    (folder / "release.json").write_text(json.dumps(found))


@pytest.mark.parametrize("files", ["csv", "parquet"])
def test_the_folder_the_tool_wrote_verifies(data, released, tmp_path, files):
    folder = released(tmp_path / "rel", "--files", files)
    assert (folder / "shared_chunks.csv").exists() or files == "parquet"
    r = verify(data, folder)
    assert r.code == 0, r.stdout + r.stderr
    out = r.json()
    assert out["ok"] and out["k"] == K and out["m"] == 2 and out["clusters"] > 1
    assert "cover" in out["not_checked"]


def _edit_a_row(folder: Path) -> None:
    """A record-chunk row's item changed to a label of the data not in its chunk."""
    rows = read(folder / "record_chunks.csv")
    cluster, chunk = rows[1][0], rows[1][1]
    domain = {r[3] for r in rows[1:] if (r[0], r[1]) == (cluster, chunk)}
    rows[1][3] = next(f"i{j}" for j in range(40) if f"i{j}" not in domain)
    write(folder / "record_chunks.csv", rows)


def _drop_a_row(folder: Path) -> None:
    """A record-chunk row of an item no term chunk lists (so its support is exact) dropped."""
    terms = {r[1] for r in read(folder / "term_chunks.csv")[1:]}
    rows = read(folder / "record_chunks.csv")
    doomed = next(r[:3] for r in rows[1:] if r[3] not in terms)
    write(folder / "record_chunks.csv", [r for r in rows if r[:3] != doomed])


def _change_a_count(folder: Path) -> None:
    rows = read(folder / "clusters.csv")
    rows[1][1] = str(int(rows[1][1]) + 1)
    write(folder / "clusters.csv", rows)


def _raise_k(folder: Path) -> None:
    smallest = min(int(r[1]) for r in read(folder / "clusters.csv")[1:])
    manifest(folder, k=smallest + 1)


def _drop_a_shared_row(folder: Path) -> None:
    """A shared-chunk row holding an item no term chunk lists (so its support is exact).
    One whose items term chunks hold can hide in their 1..k-1 records each, unseen."""
    terms = {r[1] for r in read(folder / "term_chunks.csv")[1:]}
    rows = read(folder / "shared_chunks.csv")
    doomed = next(r[:3] for r in rows[1:] if r[3] not in terms)
    write(folder / "shared_chunks.csv", [r for r in rows if r[:3] != doomed])


def _hide_the_term_chunks(folder: Path) -> None:
    write(folder / "term_chunks.csv", [["cluster", "item"]])


@pytest.mark.parametrize(
    "tamper",
    [_edit_a_row, _drop_a_row, _change_a_count, _raise_k, _drop_a_shared_row,
     _hide_the_term_chunks],
)  # fmt: skip
def test_a_tampered_folder_fails(data, released, tmp_path, tamper):
    folder = released(tmp_path / "rel")
    assert verify(data, folder).code == 0
    tamper(folder)
    r = verify(data, folder)
    assert r.code == ExitCode.VIOLATED, r.stdout + r.stderr
    assert not r.json()["ok"]


def test_a_folder_against_other_data_fails(data, released, tmp_path):
    folder = released(tmp_path / "rel")
    other = tmp_path / "other.txt"
    other.write_text("".join(data.read_text().splitlines(keepends=True)[1:]))
    r = verify(other, folder)
    assert r.code == ExitCode.VIOLATED, r.stderr


def test_suppression_is_accounted_for_by_the_manifest(tmp_path):
    """2k-1 records, one cover repaired by suppressing one occurrence: the folder says so,
    and one that hides it no longer adds up."""
    data = tmp_path / "cover.txt"
    data.write_text("a c\na\na\nc\nc\nd\n")  # d: see test_a_cover_is_found_and_repaired
    out = tmp_path / "rel"
    r = cli("anonymize", data, "-a", "disassociation", "-k", 3, "-m", 2, "-o", out, "-q",
            "--option", "refine=false")  # fmt: skip
    assert r.code == 0, r.stderr
    assert json.loads((out / "release.json").read_text())["suppressed"] == 1
    assert verify(data, out).code == 0
    manifest(out, suppressed=None)
    assert verify(data, out).code == ExitCode.VIOLATED


def _no_manifest(folder: Path) -> None:
    (folder / "release.json").unlink()


def _another_tool(folder: Path) -> None:
    manifest(folder, tool="other")


def _k_not_a_number(folder: Path) -> None:
    manifest(folder, k="five")


def _a_file_missing(folder: Path) -> None:
    (folder / "term_chunks.csv").unlink()


def _other_columns(folder: Path) -> None:
    (folder / "clusters.csv").write_text("cluster,count\n1,5\n")


def _a_size_not_a_number(folder: Path) -> None:
    rows = read(folder / "clusters.csv")
    rows[1][1] = "many"
    write(folder / "clusters.csv", rows)


def _not_parquet(folder: Path) -> None:
    manifest(folder, files=["clusters.parquet", "record_chunks.csv", "term_chunks.csv"])
    (folder / "clusters.parquet").write_text("not parquet")


@pytest.mark.parametrize(
    "spoil",
    [_no_manifest, _another_tool, _k_not_a_number, _a_file_missing, _other_columns,
     _a_size_not_a_number, _not_parquet],
)  # fmt: skip
def test_a_folder_that_is_no_release_is_refused(data, released, tmp_path, spoil):
    folder = released(tmp_path / "rel", "--option", "refine=false")
    spoil(folder)
    r = verify(data, folder)
    assert r.code == ExitCode.INPUT, r.stderr
    assert r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1
    assert str(folder) in r.stderr


def test_options_of_generalized_releases_are_refused(data, released, tmp_path):
    folder = released(tmp_path / "rel")
    r = verify(data, folder, "--model", "k")
    assert r.code == ExitCode.USAGE and "--model" in r.stderr


def test_the_folder_is_left_as_it_was(data, released, tmp_path):
    folder = released(tmp_path / "rel", "--files", "parquet")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert verify(data, folder).code == 0
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    con = duckdb.connect()
    assert con.execute(f"SELECT count(*) FROM '{folder}/clusters.parquet'").fetchone()[0] > 1


@pytest.mark.parametrize("per_transaction", [False, True])
def test_a_folder_of_parquet_parts_verifies(tmp_path, per_transaction):
    """A generalized release as Spark writes it (part files in a folder) is read whole."""
    fig2, tree = EX / "fig2.csv", EX / "fig2_hierarchy.csv"
    whole = tmp_path / "whole.parquet"
    extra = ["--per-transaction"] if per_transaction else []
    r = cli("anonymize", fig2, "-H", tree, "-a", "aa", "-k", 2, "-m", 2, "-o", whole, "-q", *extra)
    assert r.code == 0, r.stderr
    folder = tmp_path / "release.parquet"
    folder.mkdir()
    (folder / "_SUCCESS").write_bytes(b"")
    con = duckdb.connect()
    for part, half in enumerate(("<", ">=")):
        con.execute(f"COPY (SELECT * FROM '{whole}' WHERE hash(tid) % 2 {half} 1) "
                    f"TO '{folder}/part-{part}.parquet' (FORMAT parquet)")  # fmt: skip
    args = ("verify", fig2, "-H", tree, "-r", folder, "-k", 2, "-m", 2, "--json")
    r = cli(*args)
    assert r.code == 0, r.stderr
    (folder / "part-1.parquet").unlink()  # a part lost: its transactions are missing
    assert cli(*args).code == ExitCode.VIOLATED
