"""Verify a disassociated release folder against the data: exactly what was published (#40).

The folder holds no tid and no cluster membership, so the run's checks that need them
(each chunk exactly the projection of its cluster's records, every term-chunk term held by
fewer than k records of its cluster, no cover) cannot be made from it. What is checked, in
SQL (`sql/release_folder.sql`, and the run verifier's k^m statements):
- the manifest: written by the tool, a disassociated release, its k and m (or --k/--m);
- the tables hold together: every chunk of a released cluster, clusters released once,
  labels of the data, rows that are sets, an item in one place of its cluster;
- every cluster of at least k records, the sizes summing to the data's transactions, no
  chunk with more rows than its (joint) cluster has records, no record left empty;
- every record chunk and shared chunk k^m-anonymous;
- every item's support in the data equal to what the release says of it: its chunk rows
  plus, per term chunk, 1..k-1 records (less the occurrences the manifest says were
  suppressed); and no pair of one chunk released in more rows than the data holds it.
An edited, dropped or added row, a changed size or a raised k shows as a violation.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine import sqlfiles
from ..engine.contract import Workspace
from ..errors import ParamsError
from ..store import release_folder as rf
from . import verify_disassociation as vd

CHECKS = ("folder_structure", "folder_sizes", "folder_supports", "folder_pairs")
UNCHECKED = ("projections", "term_support_per_cluster", "cover")
"""The run verifier's checks that need the records' membership, which a folder never holds."""


@dataclass(frozen=True)
class FolderReport(vd.DisassociationReport):
    """A folder's verdict: the run verifier's report, with the checks it could not make."""

    folder: str = ""

    def as_dict(self) -> dict[str, Any]:
        out = super().as_dict()
        del out["unsafe_clusters"]  # the cover check needs membership: not made
        return out | {"folder": self.folder, "not_checked": list(UNCHECKED)}


def verify_folder(
    store: Workspace, path: str | Path, *, k: int | None = None, m: int | None = None
) -> FolderReport:
    """Check the release folder `path` against the store's dataset, with the manifest's k and
    m unless others are given; the folder's tables and the check's go to the current
    (scratch) schema and the temporary catalog."""
    store.require_data()
    folder = rf.read_manifest(path)
    k, m = folder.k if k is None else k, folder.m if m is None else m
    if k < 1 or m < 1:
        raise ParamsError("k and m must be >= 1")
    rf.read_tables(store, folder)
    store.run("dv_start")
    store.run("dv_labels")
    store.run("dv_released_rows")
    given = {"k": k, "suppressed": folder.suppressed}
    for name in CHECKS:
        sql = sqlfiles.statement(name).sql
        store.run(name, {key: v for key, v in given.items() if f"${key}" in sql} or None)
    problems = dict(store.run("dv_problems").tuples("problem", "n"))
    failing = vd.chunk_km_violations(store, k=k, m=m)
    clusters = int(store.count("clusters"))
    return FolderReport(
        k=k,
        m=m,
        schema=str(folder.path),
        clusters=clusters,
        problems={str(p): int(n) for p, n in problems.items()},
        failing_itemsets=failing,
        folder=str(folder.path),
    )
