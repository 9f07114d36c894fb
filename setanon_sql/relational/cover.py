"""GEN-COVER-CF (Kenig & Tassa, Algorithm 4) and cover-to-clustering (Algorithm 2).

The greedy weighted set cover chooses, among the supports of the closed frequent records, the
one of least ratio d(R) / min(|S ∩ U|, 2k-1) (U: rows not yet covered), cutting a support
larger than 2k-1 down to 2k-1 uncovered rows, or to the uncovered rows padded with covered ones
up to k. Ratios only grow as rows get covered, so the greedy is evaluated lazily: a record's
ratio is recomputed when it reaches the top of the heap, and it is taken when it stays there.
Ties go to the lower cost, then the lower record number; rows are taken in rid order.

The supports are read from `closed_member` in batches of records (one query per batch, the
records next in line); the sequential choice itself is Python bookkeeping over them.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

import pyarrow as pa

from ..algorithms import Progress, quiet
from ..store import Store

BATCH = 4096


@dataclass
class CoverState:
    """Uncovered rows per combination, and the supports (as combinations) read so far."""

    rows_of: list[list[int]]  # cid -> its rids, ascending
    uncovered: list[int]  # cid -> number of its rows not yet covered
    covered: bytearray  # rid -> 1 once covered
    members: dict[int, list[int]]  # rec -> its cids

    def gain(self, rec: int) -> int:
        return sum(self.uncovered[c] for c in self.members[rec])


def _rows_of(store: Store) -> tuple[list[list[int]], int, int]:
    """Each combination's rows, the number of rows, and one more than the largest rid."""
    combos = store.scalar("SELECT count(*) FROM rel_combo", step="combo_count")
    rows_of: list[list[int]] = [[] for _ in range(combos)]
    table = store.arrow("SELECT cid, rid FROM rel_value ORDER BY rid", step="cover_rows")
    top = -1
    for cid, rid in zip(table["cid"].to_pylist(), table["rid"].to_pylist(), strict=True):
        rows_of[cid].append(rid)
        top = max(top, rid)
    return rows_of, len(table), top + 1


def _fetch(store: Store, state: CoverState, recs: Sequence[int]) -> None:
    store.put_arrow("cover_batch", pa.table({"rec": pa.array(recs, pa.int64())}), temp=True)
    table = store.arrow(
        "SELECT m.rec, list(m.cid ORDER BY m.cid) AS cids FROM closed_member AS m "
        "SEMI JOIN cover_batch AS b ON b.rec = m.rec GROUP BY m.rec",
        step="cover_supports",
    )
    for rec, cids in zip(table["rec"].to_pylist(), table["cids"].to_pylist(), strict=True):
        state.members[rec] = cids


def _take(state: CoverState, rec: int, support: int, gain: int, k: int) -> list[int]:
    """Lines 8-14: the rows of the chosen support that join the cover."""
    cap = 2 * k - 1
    rows = sorted(r for c in state.members[rec] for r in state.rows_of[c])
    if support <= cap:
        return rows
    fresh = [r for r in rows if not state.covered[r]]
    if gain >= cap:
        return fresh[:cap]
    old = [r for r in rows if state.covered[r]]
    return sorted(fresh + old[: max(k, gain) - gain])


def gen_cover(store: Store, k: int, *, progress: Progress = quiet) -> list[tuple[int, list[int]]]:
    """The greedy cover: (closed record, its chosen rows) in the order chosen. Fills `cover`."""
    rows_of, n, end = _rows_of(store)
    state = CoverState(rows_of, [len(r) for r in rows_of], bytearray(end), {})
    cap = 2 * k - 1
    cand = store.arrow("SELECT rec, cost, support FROM closed_cost", step="cover_candidates")
    support_of = dict(zip(cand["rec"].to_pylist(), cand["support"].to_pylist(), strict=True))
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
    left = n
    chosen: list[tuple[int, list[int]]] = []
    while left:
        ratio, cost, rec = heapq.heappop(heap)
        if rec not in state.members:
            nxt = [rec] + [e[2] for e in heapq.nsmallest(BATCH, heap) if e[2] not in state.members]
            _fetch(store, state, nxt)
        gain = state.gain(rec)
        if not gain:
            continue
        entry = (cost / min(gain, cap), cost, rec)
        if heap and entry > heap[0]:
            heapq.heappush(heap, entry)
            continue
        rows = _take(state, rec, support_of[rec], gain, k)
        for r in rows:
            if not state.covered[r]:
                state.covered[r] = 1
                left -= 1
        for c in state.members[rec]:
            state.uncovered[c] = sum(1 for r in state.rows_of[c] if not state.covered[r])
        chosen.append((rec, rows))
        heapq.heappush(heap, entry)  # a support cut down may be chosen again for its other rows
        progress("cover", n - left, n)
    _store_cover(store, chosen)
    return chosen


def _store_cover(store: Store, chosen: list[tuple[int, list[int]]]) -> None:
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
