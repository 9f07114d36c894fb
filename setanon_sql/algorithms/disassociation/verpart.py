"""VERPART: the vertical partitioning of a cluster (Terrovitis et al., PVLDB 2012, Section 4.2),
and the same greedy over joint clusters for REFINE's shared chunks.

The paper: the terms held by fewer than k records of the cluster go to its term chunk. The
others are taken in order of descending support; the first record chunk's domain collects
every term whose addition keeps the chunk k^m-anonymous (every itemset of at most m of its
terms is held by none or by at least k of the cluster's records), the second chunk does the
same with the terms left over, and so on. A single term of support >= k is k^m-anonymous on
its own, so every frequent term ends up in some record chunk.

Why the check needs no query per candidate: a domain is k^m-anonymous exactly when it holds no
*bad* itemset, one of 2..m candidate terms held by 1..k-1 records, and only minimal bad
itemsets matter (a domain holding a bad set holds its minimal bad subsets). So SQL counts, for
every unit at once, the itemsets of 2..m candidate terms whose every smaller subset is held by
k or more records (Apriori: one statement per size, `verpart_sets_{size}`), and Python runs the
paper's greedy over the bad ones: a candidate joins the chunk unless some bad itemset holding
it has all its other terms in the chunk already.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from ...engine import ddl
from ...engine.contract import Workspace

Unit = int
Item = int
NONE: frozenset[int] = frozenset()


def count_sets(store: Workspace, m: int, k: int) -> None:
    """`verpart_sets_2..m` over `verpart_candidate_occurrence`."""
    store.run("verpart_frequent_sets_1")
    for size in range(2, m + 1):
        if size == 2:  # the named statement: no sqlglot to import for the default m = 2
            store.run("verpart_sets_2")
            continue
        from ...engine.builders import render, sets_query

        name = f"verpart_sets_{size}"
        store.execute(
            ddl.create_table_as(name, render(sets_query(size)), temp=True), {"k": k}, step=name
        )


def candidates(store: Workspace) -> dict[Unit, list[Item]]:
    """Every unit's candidate terms, by descending support (ties by the global order)."""
    rows = store.run("verpart_candidates").tuples("unit", "items")
    return {int(unit): list(items) for unit, items in rows}


def bad_sets(store: Workspace, m: int, k: int) -> dict[Unit, list[tuple[Item, ...]]]:
    """Every unit's minimal bad itemsets: 2..m candidate terms held by 1..k-1 records."""
    out: dict[Unit, list[tuple[Item, ...]]] = defaultdict(list)
    for size in range(2, m + 1):
        if size == 2:
            answer = store.run("verpart_bad_2", {"k": k})
        else:
            from ...engine.builders import bad_query, render

            answer = store.execute(render(bad_query(size)), {"k": k}, step=f"verpart_bad_{size}")
        rows = answer.tuples("unit", "itemset")
        for unit, itemset in rows:
            out[int(unit)].append(tuple(itemset))
    return out


def greedy(order: list[Item], bad: Iterable[tuple[Item, ...]]) -> list[list[Item]]:
    """The paper's chunking of one unit: domains in the order they are made.

    Example:
        >>> greedy([1, 2, 3, 4], [(1, 2), (2, 3, 4)])
        [[1, 3, 4], [2]]
    """
    pairs, longer = partners(bad)
    chunks: list[list[Item]] = []
    left = list(order)
    while left:
        domain: set[Item] = set()
        chunk, later = [], []
        for item in left:
            if not pairs.get(item, NONE).isdisjoint(domain) or any(
                domain.issuperset(rest) for rest in longer.get(item, ())
            ):
                later.append(item)
            else:
                domain.add(item)
                chunk.append(item)
        chunks.append(chunk)
        left = later
    return chunks


def partners(
    bad: Iterable[tuple[Item, ...]],
) -> tuple[dict[Item, set[Item]], dict[Item, list[tuple[Item, ...]]]]:
    """For every item, the other terms of the bad itemsets holding it: the partners of its bad
    pairs as a set (a set test per item, which is most of VERPART's Python time on m = 2), and
    the rest of each longer bad itemset.

    Example:
        >>> partners([(1, 2), (2, 3, 4)])
        ({1: {2}, 2: {1}}, {2: [(3, 4)], 3: [(2, 4)], 4: [(2, 3)]})
    """
    pairs: dict[Item, set[Item]] = {}
    longer: dict[Item, list[tuple[Item, ...]]] = {}
    for itemset in bad:
        if len(itemset) == 2:
            a, b = itemset
            pairs.setdefault(a, set()).add(b)
            pairs.setdefault(b, set()).add(a)
            continue
        for j, item in enumerate(itemset):
            longer.setdefault(item, []).append(itemset[:j] + itemset[j + 1 :])
    return pairs, longer


def verpart(store: Workspace, *, k: int, m: int, units: str) -> dict[Unit, list[list[Item]]]:
    """Chunk every unit: `units` is `verpart_units_of_clusters` (record chunks) or
    `verpart_units_of_joints` (shared chunks). Returns unit -> chunk domains."""
    store.run(units)
    store.run("verpart_frequent", {"k": k})
    store.run("verpart_frequent_occurrence")
    count_sets(store, m, k)
    bad = bad_sets(store, m, k)
    return {unit: greedy(order, bad.get(unit, ())) for unit, order in candidates(store).items()}


def domain_lists(chunks: dict[Unit, list[list[Item]]]) -> dict[str, list[int]]:
    """Chunk domains as the three lists `dis_chunks_from_lists` unnests: unit, chunk, item."""
    out: dict[str, list[int]] = {"unit": [], "chunk": [], "item": []}
    for unit in sorted(chunks):
        for number, domain in enumerate(chunks[unit], start=1):
            for item in domain:
                out["unit"].append(unit)
                out["chunk"].append(number)
                out["item"].append(item)
    return out


def figures(chunks: dict[Unit, list[list[Item]]]) -> dict[str, Any]:
    """How many chunks were made and how wide they are."""
    sizes = [len(d) for domains in chunks.values() for d in domains]
    return {"chunks": len(sizes), "chunk_terms": sum(sizes)}


def figures_of(store: Workspace) -> dict[str, Any]:
    """The clusters and record chunks as they stand (after any repair)."""
    row = store.run("dis_chunk_figures").one()
    return {k: int(row[k] or 0) for k in ("clusters", "chunks", "chunk_terms")}
