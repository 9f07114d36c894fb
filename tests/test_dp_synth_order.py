"""dp_synth's baskets take the pairs largest first through a heap (`largest_first`), not by a
scan of the whole matrix per basket: the same baskets as the scan, ties included (#44)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from setanon_sql.algorithms import dp_synth


def baskets_by_scan(items, item_estimates, pairs, *, fill=0.1, longest=12):
    """The reference: the first implementation, a scan (np.argmax) of the matrix per basket."""
    index = {item: i for i, item in enumerate(items)}
    rest = np.array([max(0, int(e)) for e in item_estimates], dtype=np.int64)
    wanted = sorted({index[a] for a, _, _ in pairs} | {index[b] for _, b, _ in pairs})
    local = {g: i for i, g in enumerate(wanted)}
    left = np.zeros((len(wanted), len(wanted)), dtype=np.int64)
    for a, b, estimate in pairs:
        x, y = local[index[a]], local[index[b]]
        left[x, y] = left[y, x] = max(0, int(estimate))
    own = rest[wanted] if wanted else np.zeros(0, dtype=np.int64)
    out = []
    while left.size and left.max() >= 1:
        a, b = (int(v) for v in np.unravel_index(int(np.argmax(left)), left.shape))
        if min(own[a], own[b]) < 1:
            left[a, b] = left[b, a] = 0
            continue
        basket, copies = dp_synth._grow(left, own, a, b, fill, longest)
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


@settings(max_examples=200, deadline=None)
@given(
    estimates=st.lists(st.integers(0, 12), min_size=2, max_size=9),
    data=st.data(),
    fill=st.sampled_from([0.0, 0.1, 0.5]),
)
def test_the_heap_makes_the_scans_baskets(estimates, data, fill) -> None:
    """Small values, so ties are common: the order of equal pairs decides the baskets."""
    items = [7 * i + 2 for i in range(len(estimates))]
    every = list(combinations(items, 2))
    chosen = data.draw(st.lists(st.sampled_from(every), unique=True, max_size=len(every)))
    pairs = [(a, b, data.draw(st.integers(-2, 8))) for a, b in sorted(chosen)]
    assert dp_synth.baskets(items, estimates, pairs, fill=fill) == baskets_by_scan(
        items, estimates, pairs, fill=fill
    )


def test_many_kept_items_hold_every_estimate() -> None:
    """600 items and every pair of them estimated (179,700 pairs: the scan took minutes at
    1,000 items, benchmarks/notes/dp-model.md has the heap's time): each item exactly."""
    rng = np.random.default_rng(7)
    n = 600
    items = list(range(n))
    estimates = rng.integers(50, 400, n).tolist()
    pairs = [(a, b, int(v)) for (a, b), v in
             zip(combinations(items, 2), rng.integers(0, 30, n * (n - 1) // 2), strict=True)]  # fmt: skip
    made = dp_synth.baskets(items, estimates, pairs)
    singles = {}
    for basket, copies in made:
        for item in basket:
            singles[item] = singles.get(item, 0) + copies
    assert singles == {i: e for i, e in zip(items, estimates, strict=True) if e >= 1}
