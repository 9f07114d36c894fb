"""GEN-COVER-CF (Kenig & Tassa, Algorithm 4) and cover-to-clustering (Algorithm 2).

The greedy weighted set cover chooses, among the supports of the closed frequent records, the
one of least ratio d(R) / min(|S ∩ U|, 2k-1) (U: rows not yet covered), cutting a support
larger than 2k-1 down to 2k-1 uncovered rows, or to the uncovered rows padded with covered ones
up to k (lines 8-14). Ratios only grow as rows get covered, so the greedy is evaluated lazily:
a record's ratio is recomputed when it reaches the top of the heap, and it is taken when it
stays there. Ties go to the lower cost, then the lower record number; rows go in rid order.

Supports are row bitsets: the support of a record is the AND of its nodes' row sets (one per
attribute, built once from `rel_value`), so no per-record membership is stored or queried;
the sequential choice is Python bookkeeping over the mined `closed_cost` table.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

import pyarrow as pa

from ..progress import Progress, quiet
from ..store.database import Store


class RowSets:
    """Row bitsets (bit i = i-th row in rid order) of every taxonomy node of every attribute."""

    def __init__(self, store: Store) -> None:
        table = store.run_arrow("rel_cover_rows")
        self.rids: list[int] = table["rid"].to_pylist()
        nodes = store.run("rel_cover_nodes").tuples("attr", "id", "parent")
        rows_at: dict[tuple[int, int], bytearray] = {}
        size = (len(self.rids) + 7) // 8
        for i, leaves in enumerate(table["leaf"].to_pylist()):
            for j, leaf in enumerate(leaves, 1):
                rows_at.setdefault((j, leaf), bytearray(size))[i >> 3] |= 1 << (i & 7)
        bits: dict[tuple[int, int], int] = {}
        for attr, node, parent in nodes:  # children before parents (preorder ids, descending)
            here = bits.get((attr, node), 0)
            if (attr, node) in rows_at:
                here |= int.from_bytes(rows_at[(attr, node)], "little")
            bits[(attr, node)] = here
            if parent is not None:
                bits[(attr, parent)] = bits.get((attr, parent), 0) | here
        attrs = max(a for a, _ in bits)
        self.bits: list[list[int]] = [
            [bits[(j, n)] for n in range(1 + max(i for a, i in bits if a == j))]
            for j in range(1, attrs + 1)
        ]
        self.all = (1 << len(self.rids)) - 1

    def support(self, node: Sequence[int], within: int) -> int:
        """The rows of `within` that the record supports (stops early once none is left)."""
        out = within
        for bits, n in zip(self.bits, node, strict=True):
            out &= bits[n]
            if not out:
                break
        return out


def lowest(bits: int, count: int) -> list[int]:
    """Positions of the `count` lowest set bits."""
    out: list[int] = []
    while bits and len(out) < count:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def take(support: int, uncovered: int, k: int) -> int:
    """Lines 8-14: the rows of a chosen support that join the cover, as a bitset."""
    cap = 2 * k - 1
    if support.bit_count() <= cap:
        return support
    fresh = support & uncovered
    gain = fresh.bit_count()
    if gain >= cap:
        return sum(1 << i for i in lowest(fresh, cap))
    return fresh | sum(1 << i for i in lowest(support & ~uncovered, max(k, gain) - gain))


def ratio_rows(k: int, cap: float | None) -> int:
    """How many new rows a support's ratio counts at most: 2k-1 in the paper; with `cap`,
    round(cap * k) (at least 1, at most 2k-1)."""
    if cap is None:
        return 2 * k - 1
    return max(1, min(2 * k - 1, round(cap * k)))


def gen_cover(
    store: Store,
    k: int,
    *,
    cap: float | None = None,
    rows: RowSets | None = None,
    progress: Progress = quiet,
) -> list[tuple[int, list[int]]]:
    """The greedy cover: (closed record, its chosen rids) in the order chosen.

    With `cap`, a support's ratio counts at most round(cap * k) new rows instead of 2k-1: a
    large cheap support then no longer outbids a small record that fits its rows tightly, and
    the cover's sets are nearer k rows (the rows taken are still cut down as in the paper).
    """
    rows = rows or RowSets(store)
    cap = ratio_rows(k, cap)
    cand = store.run_arrow("rel_cover_candidates")
    node_of = dict(zip(cand["rec"].to_pylist(), cand["node"].to_pylist(), strict=True))
    heap = [
        (cost / min(sup, cap), cost, rec)
        for rec, cost, sup in zip(
            cand["rec"].to_pylist(),
            cand["cost"].to_pylist(),
            cand["support"].to_pylist(),
            strict=True,
        )
    ]
    heapq.heapify(heap)
    uncovered = rows.all
    n = len(rows.rids)
    chosen: list[tuple[int, list[int]]] = []
    while uncovered:
        _, cost, rec = heapq.heappop(heap)
        fresh = rows.support(node_of[rec], uncovered)
        if not fresh:
            continue
        gain = fresh.bit_count()
        entry = (cost / min(gain, cap), cost, rec)
        if heap and entry > heap[0]:
            heapq.heappush(heap, entry)
            continue
        picked = take(rows.support(node_of[rec], rows.all), uncovered, k)
        uncovered &= ~picked
        chosen.append((rec, [rows.rids[i] for i in lowest(picked, n)]))
        heapq.heappush(heap, entry)  # a support cut down may be chosen again for its other rows
        progress("cover", n - uncovered.bit_count(), n)
    return chosen


def store_cover(store: Store, chosen: list[tuple[int, list[int]]]) -> None:
    """The chosen cover as table `cover(set_id, rec, rid)`."""
    sets, recs, rids = [], [], []
    for i, (rec, rows) in enumerate(chosen):
        sets.extend([i] * len(rows))
        recs.extend([rec] * len(rows))
        rids.extend(rows)
    store.put_arrow(
        "cover",
        pa.table(
            {
                "set_id": pa.array(sets, pa.int32()),
                "rec": pa.array(recs, pa.int64()),
                "rid": pa.array(rids, pa.int64()),
            }
        ),
    )


def cover_to_clustering(cover: Sequence[Sequence[int]], k: int) -> list[list[int]]:
    """Algorithm 2: while two sets share a row, drop it from one larger than k, or merge the
    two (both of size k, so the union has at most 2k-1 rows). Sets are taken in cover order."""
    sets: dict[int, set[int]] = {i: set(s) for i, s in enumerate(cover)}
    holders: dict[int, list[int]] = {}
    for i, s in sets.items():
        for r in s:
            holders.setdefault(r, []).append(i)
    shared = sorted(r for r, h in holders.items() if len(h) > 1)
    while shared:
        r = shared.pop()
        while len(holders[r]) > 1:
            a, b = sorted(holders[r])[:2]
            drop = b if len(sets[b]) > k else a if len(sets[a]) > k else None
            if drop is not None:
                sets[drop].discard(r)
                holders[r].remove(drop)
                continue
            for x in sets.pop(b):
                hx = holders[x]
                hx.remove(b)
                if a not in hx:
                    hx.append(a)
                    sets[a].add(x)
                    if len(hx) > 1:
                        shared.append(x)
    return [sorted(s) for _, s in sorted(sets.items())]
