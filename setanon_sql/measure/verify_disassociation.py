"""The verifier of disassociated releases (#28), from the released tables and the original data.

Checks (each one statement of `sql/verify_disassociation.sql`, every cluster at once):
- every transaction is in exactly one cluster, every cluster is released with its size, and
  holds at least k records; suppressed occurrences are original ones and empty no record;
- an item is released in one place of its cluster only (record chunk, shared chunk or term
  chunk), every item of the cluster's records is released there and nothing else;
- every record chunk is exactly the projection of its cluster's records on its domain, and
  every shared chunk of its joint cluster's (the same multiset of non-empty subrecords);
- every record chunk and shared chunk is k^m-anonymous: no itemset of at most m of its items
  is held by 1..k-1 of its rows;
- every term-chunk term is held by fewer than k records of its cluster (the format's promise);
- no inference pins an itemset (#40): every itemset of at most m terms has, over the
  reconstructions consistent with the release, no candidates or at least k (the candidates
  of a placement of the rows are the records that hold the itemset in some placement of the
  term chunk's terms; `algorithms/disassociation/cover.py` states the adversary and derives
  the counts). With n records, R record-chunk rows, T term-chunk terms, cap = min(n, k-1),
  slack = R + T cap - n and room = slack - t for an itemset of one term of each of p record
  chunks and t term-chunk terms, a cluster without shared chunks fails exactly when
  - p >= 2 and 1 <= room // (p - 1) <= k - 1 (a cover: chunk terms coupled across chunks), or
  - p = 0 and room = -1 and n - R <= k - 1 (term-chunk terms that fit only on the records
    left without a row, e.g. `a b` x5 and `hiv` x4, k=5: hiv on exactly those 4);
  a chunk term with term-chunk terms (p = 1) is held by its rows or by no reconstruction.
  Shared chunks are judged on the safe side (a placement with k holders must be found).
  The counts come from one statement over every cluster (`dv_cover_shapes`).

The check's working tables are temporary; the offending rows stay in `dv_violations`.
"""

from __future__ import annotations

from typing import Any

from ..algorithms.disassociation.checks import CHECKS as CHECKS
from ..algorithms.disassociation.checks import DisassociationReport as DisassociationReport
from ..algorithms.disassociation.checks import check, prepare
from ..algorithms.disassociation.checks import chunk_km_violations as chunk_km_violations
from ..engine.contract import Workspace
from ..errors import ParamsError


def verify(store: Workspace, *, k: int, m: int) -> DisassociationReport:
    """Check the current run schema's disassociated release against the dataset."""
    if k < 1 or m < 1:
        raise ParamsError("k and m must be >= 1")
    store.require_data()
    return check(store, k=k, m=m)


def information_loss(store: Workspace, *, prepared: bool = False) -> dict[str, Any]:
    """What a disassociated release loses, over the original item instances: the share
    released only in term chunks (their co-occurrence and count are not published), in
    shared chunks, suppressed; the share of distinct items released in no record or shared
    chunk. NCP and LM (generalization costs) do not apply: every term is released as is.
    `prepared`: the verifier's tables are there already (right after `verify`)."""
    if not prepared:
        prepare(store)
    row = store.run("dv_loss").one()
    instances = max(int(row["instances"]), 1)
    return {
        "ncp": None,
        "lm": None,
        "suppressed": int(row["suppressed"]),
        "instances": int(row["instances"]),
        "term_chunk_share": int(row["term_chunk_instances"]) / instances,
        "shared_chunk_share": int(row["shared_chunk_instances"]) / instances,
        "record_chunk_share": int(row["record_chunk_instances"]) / instances,
        "suppressed_share": int(row["suppressed"]) / instances,
        "term_only_items": int(row["term_only_items"]) / max(int(row["items"]), 1),
        "clusters": int(row["clusters"]),
        "record_chunks": int(row["record_chunks"]),
        "shared_chunks": int(row["shared_chunks"]),
    }


def violations(store: Workspace, limit: int = 20) -> list[dict[str, Any]]:
    """The first offending rows found by the last check."""
    return store.run("dv_violations_shown", {"n": limit}).dicts()
