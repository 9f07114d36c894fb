"""Disassociation: k^m-anonymity that keeps every original term and hides only which terms of
a record belong together (Terrovitis, Liagouris, Mamoulis & Skiadopoulos, "Privacy
Preservation by Disassociation", PVLDB 5(10), 944-955, 2012), made safe against covers
(Awad, Al Bouna, Couchot & Philippe, "Safe Disassociation of Set-Valued Datasets", 2019).

The paper, in short:
- The records are partitioned horizontally into clusters of at least k and fewer than
  `max_cluster` records, grouping records that share frequent terms (HORPART, horpart.py).
- Each cluster is partitioned vertically (VERPART, verpart.py): its terms held by at least k
  of its records are split greedily, by descending support, into the domains of record
  chunks; a record chunk holds the non-empty projections of the cluster's records on its
  domain and is k^m-anonymous on its own. The cluster's other terms form its term chunk,
  published as a set without counts. The rows of a chunk are shuffled, so an adversary
  cannot tell which rows of two chunks belong to one record.
- REFINE (refine.py) joins neighbouring clusters into joint clusters and moves terms of their
  term chunks that reach k over the joint cluster into shared chunks, k^m-anonymous over the
  joint cluster's records, so that their supports are published too.
- The paper's guarantee: an adversary who knows up to m terms of a target cannot tell which
  of at least k records of a cluster holds them: inside one chunk k^m-anonymity gives at least
  k rows; across chunks the rows cannot be linked; a term-chunk term is linked to the cluster
  (at least k records), never to a row.

The safe-disassociation paper shows that the cluster's shape can still be used: every record
is non-empty and holds at most one row of each chunk, and every term-chunk term is held by at
least one and (the algorithm never puts a term of support >= k there) at most k-1 records of
its cluster. From these alone an adversary may infer, by pigeonhole, that fewer than k
records hold terms that sit in different chunks (a "cover": tightly coupled terms). cover.py
states the inference exactly, checks every cluster, and repairs those that allow it (by
partial suppression, as that paper does) before anything is released; the verifier checks it
again from the release alone.

Python decides, SQL counts: every statement serves every cluster (or HORPART partition) at
once; the statements are in `sql/disassociation.sql`.
"""

from __future__ import annotations

from typing import Any

from ...catalog import Algorithm, Option, ReleaseKind, Settings
from ...engine.contract import Workspace
from ...progress import Progress
from ...runs import check_k

# What the search leaves besides its decisions (dis_item, dis_chunk, dis_term, dis_joint,
# dis_shared, dis_suppressed) and the release: dropped unless --keep-intermediate. `dis_tx`
# is the whole data over the run's item numbers; `horpart_done` maps every tid to a partition.
WORKING_TABLES = ("dis_tx", "horpart_part", "horpart_active", "horpart_done", "cover_figures")


def run(store: Workspace, params: Settings, progress: Progress) -> dict[str, Any]:
    """Disassociate the dataset into the run's release tables; return figures of the search."""
    # imported here, not at the top: the registry imports this module for its ALGORITHM, and
    # a run of another algorithm or `setanon algorithms` need not load pyarrow and sqlglot
    from . import cover, horpart, publish, refine, verpart

    k, m = params.k, params.m or 1
    options = params.options
    check_k(k, store.count("tids"))
    store.run("dis_items")
    store.run("dis_transactions")
    store.run("dis_no_suppression")
    info = horpart.horpart(
        store,
        k=k,
        max_cluster=options["max_cluster"],
        min_split=options["min_split"],
        progress=progress,
    )
    store.run("dis_no_joints")
    store.run("dis_no_shared")

    def rechunk() -> dict[str, Any]:
        progress("verpart", 0, None)
        chunks = verpart.verpart(store, k=k, m=m, units="verpart_units_of_clusters")
        write_chunks(store, chunks)
        store.run("dis_terms")
        return verpart.figures(chunks)

    rechunk()
    progress("cover check", 0, None)
    info.update(cover.make_safe(store, k=k, m=m, rechunk=rechunk))
    info.update(verpart.figures_of(store))
    if options["refine"]:
        progress("refine", 0, None)
        info.update(refine.refine(store, k=k, m=m, joint_size=options["joint_size"]))
        info["joints_undone"] = cover.drop_unsafe_joints(store, k=k, m=m)
    publish.publish(store)
    if not params.keep_intermediate:
        store.drop_tables(*WORKING_TABLES, step="drop_intermediate")
    return info


def write_chunks(store: Workspace, chunks: dict[int, list[list[int]]]) -> None:
    """`dis_chunk(cluster, chunk, item)` from VERPART's domains (bound as lists, so the log
    keeps them as parameters)."""
    from . import verpart

    lists = verpart.domain_lists(chunks)
    store.run(
        "dis_chunks_from_lists",
        {"cluster": lists["unit"], "chunk": lists["chunk"], "item": lists["item"]},
    )


OPTIONS = (
    Option(
        "max_cluster",
        int,
        100,
        "HORPART splits a partition while it holds this many records or more (clusters keep "
        "at least k)",
        minimum=2,
    ),
    Option(
        "min_split",
        int,
        0,
        "HORPART splits off a group of records holding a term only when it has this many "
        "records or more (and k); smaller groups stay with the rest",
        minimum=0,
    ),
    Option(
        "refine",
        bool,
        True,
        "REFINE: join neighbouring clusters and publish their rare terms that reach k over "
        "the joint cluster in shared chunks",
    ),
    Option(
        "joint_size",
        int,
        8,
        "REFINE: clusters per joint cluster (neighbours in HORPART's order; 8 measured best "
        "on BMS-WebView-2 of 2, 8 and 32)",
        minimum=2,
        acts_when=lambda options: bool(options["refine"]),
        acts_when_note="with refine=true",
    ),
)


# k^m-anonymity by disassociation (Terrovitis et al. 2012; Awad et al. 2019), #28
ALGORITHM = Algorithm(
    "disassociation",
    "km",
    ReleaseKind.DISASSOCIATED,
    run,
    allows_suppression=True,
    summary="clusters of record chunks and term chunks, cover-safe (no hierarchy)",
    options=OPTIONS,
    needs_hierarchy=False,
)
