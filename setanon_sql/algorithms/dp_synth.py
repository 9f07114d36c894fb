"""Baskets from dpsets' noisy estimates (#44): post-processing, so it spends no budget.

Why greedy cliques: the frequent pairs of basket data live in long transactions, so the pair
estimates of an item add up to several times its own estimate. Releasing each pair as a basket
of two (the first design) either inflates the items or drops the pairs; a basket of m items
answers C(m, 2) pairs at once. So baskets are grown greedily: start from the pair with the most
estimated support still unanswered, add the item whose pairs with every basket item have the
most left, while that is at least `fill` of the basket's copies, and release the basket as many
times as its least pair and item allow. What is left of each item's estimate becomes baskets of
that item alone.

What holds (tested against a brute force): every item's support in the release is its estimate;
every pair's is at most its estimate; and a pair falls short only where one of its items is
spent. The work is on the noisy estimates alone: a matrix over the candidate items (at most a
few hundred), never the data.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence

import numpy as np

Basket = tuple[tuple[int, ...], int]
"""Items (sorted) and how many copies of that transaction to release."""


def _grow(left: np.ndarray, rest: np.ndarray, a: int, b: int, fill: float, longest: int):  # type: ignore[no-untyped-def]
    """The basket grown from the pair (a, b), and its copies."""
    basket = [a, b]
    copies = int(min(left[a, b], rest[a], rest[b]))
    while len(basket) < longest:
        room = left[basket, :].min(axis=0).astype(np.float64)
        room[basket] = -1
        room = np.minimum(room, rest)
        best = int(np.argmax(room))
        if room[best] < max(1.0, fill * copies):
            break
        basket.append(best)
        copies = int(min(copies, room[best]))
    return basket, copies


def largest_first(left: np.ndarray) -> Iterator[tuple[int, int]]:
    """The pairs (a < b) of `left` in the order of their current value, largest first (ties:
    smallest a, then b), while one of at least 1 is left; `left` may only go down meanwhile.
    A heap whose stale entries are pushed again at their current value: the first scan of the
    whole matrix per basket made 1,000 kept items take 391 s (notes/dp-utility.md)."""
    upper = np.triu(left, 1)
    rows, cols = np.nonzero(upper >= 1)
    heap = [(-int(upper[r, c]), int(r), int(c)) for r, c in zip(rows, cols, strict=True)]
    heapq.heapify(heap)
    while heap:
        key, a, b = heapq.heappop(heap)
        now = int(left[a, b])
        if now == -key:
            yield a, b
            if left[a, b] >= 1:  # not answered whole: it comes again at its new value
                heapq.heappush(heap, (-int(left[a, b]), a, b))
        elif now >= 1:
            heapq.heappush(heap, (-now, a, b))


def baskets(
    items: Sequence[int],
    item_estimates: Sequence[int],
    pairs: Sequence[tuple[int, int, int]],
    *,
    fill: float = 0.1,
    longest: int = 12,
) -> list[Basket]:
    """Baskets whose item supports are `item_estimates` and whose pair supports come as close
    to the pairs' estimates `(a, b, estimate)` from below as the items allow (see the module)."""
    index = {item: i for i, item in enumerate(items)}
    rest = np.array([max(0, int(e)) for e in item_estimates], dtype=np.int64)
    wanted = sorted({index[a] for a, _, _ in pairs} | {index[b] for _, b, _ in pairs})
    local = {g: i for i, g in enumerate(wanted)}
    left = np.zeros((len(wanted), len(wanted)), dtype=np.int64)
    for a, b, estimate in pairs:
        x, y = local[index[a]], local[index[b]]
        left[x, y] = left[y, x] = max(0, int(estimate))
    own = rest[wanted] if wanted else np.zeros(0, dtype=np.int64)
    out: list[Basket] = []
    for a, b in largest_first(left):
        if min(own[a], own[b]) < 1:
            left[a, b] = left[b, a] = 0  # an item of it is spent: no basket can answer it
            continue
        basket, copies = _grow(left, own, a, b, fill, longest)
        for x in basket:
            own[x] -= copies
            for y in basket:
                if x != y:
                    left[x, y] -= copies
        out.append((tuple(sorted(items[wanted[x]] for x in basket)), copies))
    for x, g in enumerate(wanted):
        rest[g] = own[x]
    out += [((items[i],), int(r)) for i, r in enumerate(rest) if r >= 1]
    return out
