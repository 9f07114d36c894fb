"""What dpsets makes of its noisy answers (#44): the length histogram's bins, the cut's kept
share, the modeled sessions, the pairs' estimates, the items' release floor and the kept items.

Why a module of its own: every function here is post-processing, a function of the options and
of noisy answers alone, never of the data, so it spends no budget and the neighbouring-dataset
tests can hold the path to it; `dp_sets` measures and runs.
"""

from __future__ import annotations

import math
from math import comb

TOP_BAND = 256
"""Past `longest`, the length histogram's bins double in width up to this length; one last bin
holds every longer transaction (a few bins, so little noise, for the modeled sessions)."""


def length_bins(longest: int) -> list[tuple[int, int | None]]:
    """The length histogram's bins, from the options alone: one per length 1..`longest` (the
    measured transactions'), then bins doubling in width (the modeled ones'), the last one
    open (`None`: that length or more)."""
    bins: list[tuple[int, int | None]] = [(n, n) for n in range(1, longest + 1)]
    lo, width = longest + 1, longest
    while lo <= TOP_BAND:
        bins.append((lo, lo + width - 1))
        lo, width = lo + width, width * 2
    bins.append((lo, None))
    return bins


def typical(lo: int, hi: int | None) -> int:
    """The length a bin's transactions are taken to have: its middle; the open bin's least."""
    return lo if hi is None else (lo + hi) // 2


def fitted_tail(bins: list[tuple[int, int | None]], lengths: list[int], longest: int) -> list[int]:
    """The noisy length histogram with its bins past `longest` made to rise, then fall
    (`unimodal`: isotonic regression, pool adjacent violators, on the unclamped values; Hay et
    al., "Boosting the accuracy of differentially private histograms through consistency",
    PVLDB 2010), for `kept_share`. Why: each empty long bin's noise, clamped at 0, stood for
    about scale / 2 transactions of its length (up to 385 items), so on small data the share
    the cut keeps came out far too low and every item's estimate too high (WV1's first 3,000
    transactions: frequent items' ARE 2.85, 10,000: 0.64, where an empty release scores 1);
    pooled with its neighbours, the noise of empty bins partly cancels. The modeled sessions
    keep the clamped counts: fitted there too, the frequent triples lost 0.12-0.23 at 20,000-
    45,000 WV1 transactions (benchmarks/notes/dp-model.md). Post-processing of a noisy answer."""
    tail = [i for i, (lo, _) in enumerate(bins) if lo > longest]
    if not tail:
        return list(lengths)
    fitted = unimodal([float(lengths[i]) for i in tail])
    return list(lengths[: tail[0]]) + [round(v) for v in fitted]


def unimodal(values: list[float]) -> list[float]:
    """The least-squares fit of `values` that rises, then falls: over every place the fall may
    start, a non-decreasing fit before it and a non-increasing one from it, the closest kept.
    Why not falling from the largest: on small data a noise peak in an empty bin is the
    largest, and the bins before it would keep their noise.

    Example:
        >>> unimodal([0.0, 9.0, 1.0, 3.0])
        [0.0, 9.0, 2.0, 2.0]
    """
    best: tuple[float, list[float]] | None = None
    for top in range(len(values) + 1):
        rise = [-v for v in nonincreasing([-v for v in values[:top]])]
        fit = rise + nonincreasing(values[top:])
        error = sum((a - b) ** 2 for a, b in zip(fit, values, strict=True))
        if best is None or error < best[0]:
            best = (error, fit)
    return best[1] if best is not None else []


def nonincreasing(values: list[float]) -> list[float]:
    """The least-squares non-increasing fit of `values` (pool adjacent violators).

    Example:
        >>> nonincreasing([5.0, 1.0, 3.0, -2.0, 4.0])
        [5.0, 2.0, 2.0, 1.0, 1.0]
    """
    blocks: list[list[float]] = []  # [mean, size]
    for v in values:
        blocks.append([v, 1.0])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            mean, size = blocks.pop()
            prev = blocks[-1]
            prev[0] = (prev[0] * prev[1] + mean * size) / (prev[1] + size)
            prev[1] += size
    return [mean for mean, size in blocks for _ in range(int(size))]


def made_up_rows(bins: list[tuple[int, int | None]], longest: int, scale: float) -> float:
    """The item occurrences the noise alone is expected to make up in the modeled sessions were
    every bin past `longest` empty: E[max(0, X)] for discrete Laplace noise X of `scale`,
    q / ((1 + q)(1 - q)) with q = e^(-1/scale) (about scale / 2), times each bin's typical
    length. The same whatever the data's size, so small data's release is mostly these
    (README, "Not for small data"). Parameters only: no data is read.

    Example:
        >>> round(made_up_rows(length_bins(12), 12, 20.0))
        9426
    """
    q = math.exp(-1.0 / scale)
    each = q / ((1 + q) * (1 - q)) if q < 1 else math.inf
    return sum(each * typical(lo, hi) for lo, hi in bins if lo > longest)


def kept_share(bins: list[tuple[int, int | None]], lengths: list[int], limit: int) -> float:
    """The share of the item occurrences the cut to `limit` items keeps, estimated from the
    noisy length histogram (`lengths[i]`: transactions in `bins[i]`, clamped at 0, each taken at
    its bin's typical length; `run` gives it the `fitted_tail`): the items' noisy counts are
    scaled up by its inverse.
    Post-processing of a noisy answer."""
    sized = [(typical(*b), max(0, h)) for b, h in zip(bins, lengths, strict=True)]
    whole = sum(h * n for n, h in sized)
    kept = sum(h * min(n, limit) for n, h in sized)
    return kept / whole if whole > 0 and kept > 0 else 1.0


def modeled(
    bins: list[tuple[int, int | None]], lengths: list[int], longest: int
) -> list[tuple[int, int]]:
    """The sessions to draw from the items' estimates: (length, how many) for every bin past
    `longest`, from the noisy histogram clamped at 0. Post-processing of a noisy answer.
    Measured (benchmarks/notes/dp-model.md): shrinking the counts by one or two noise scales
    (against made-up sessions in the empty bins) cost WV1's frequent pairs 0.41 -> 0.52-0.55."""
    return [
        (typical(lo, hi), h)
        for (lo, hi), h in zip(bins, lengths, strict=True)
        if lo > longest and h >= 1
    ]


def pair_scale(lengths: list[int], limit: int, longest: int) -> float:
    """How many pairs the long transactions (limit < n <= longest kept items) hold per pair
    their cut to `limit` items keeps, from the noisy restricted histogram (`lengths[n-1]`,
    clamped at 0): a transaction of n items keeps each of its pairs with probability
    C(limit, 2) / C(n, 2). Post-processing of a noisy answer; 1 when nothing is left."""
    bins = [(n, max(0, h)) for n, h in enumerate(lengths, start=1) if limit < n <= longest]
    kept = sum(h * comb(limit, 2) for _, h in bins)
    return sum(h * comb(n, 2) for n, h in bins) / kept if kept > 0 else 1.0


def pair_estimate(short: int, long: int, scale: float) -> int:
    """A pair's estimate from its two noisy halves: each half is a count, so each is clamped
    at 0 before the long one is scaled up (a negative long half would otherwise take `scale`
    times its noise off the short one). Measured on six seeded runs of WV1 / WV2 at epsilon 1:
    frequent pairs' estimates 0.03 / 0.01 ARE better than clamping their sum. Post-processing."""
    return round(max(0, short) + scale * max(0, long))


def release_floor(noisy: list[int], scale: float, rate: float) -> int:
    """The least noisy count an item is released from: the least t >= 1 at which the items the
    noise alone would lift to t or more are expected to be at most `rate` of those released.
    Why: a leaf that never occurs still gets a noisy count of at least 1 with probability
    q / (1 + q) (q = e^(-1/scale), about 0.47 at scale 10), so a public catalogue of many
    leaves made up most of the release (and of the modeled sessions). How many never occur is
    estimated from the counts at or below 0 (a zero-count leaf lands there with probability
    1 / (1 + q)). Post-processing of noisy answers: no budget."""
    import numpy as np

    q = math.exp(-1.0 / scale)
    values = np.sort(np.asarray(noisy, dtype=np.int64))
    zero = int(np.searchsorted(values, 0, side="right")) * (1 + q)
    if zero == 0 or q == 0.0:  # no leaf at or below 0, or noise too small to lift one to 1
        return 1
    # released(t) is constant on each run of t between two distinct noisy values of at least 1
    # (and past the largest one); on a run holding r, t must be >= log(rate r (1 + q) / zero)
    # / log q: the least t of the first run where that falls within the run.
    tops = np.unique(values[values >= 1])
    lows = np.concatenate([[1], tops + 1])
    highs = np.concatenate([tops, [np.iinfo(np.int64).max]])
    held = len(values) - np.searchsorted(values, lows, side="left")
    need = np.log(rate * np.maximum(held, 1) * (1 + q) / zero) / math.log(q)
    least = np.maximum(lows, np.ceil(need - 1e-9).astype(np.int64))
    return int(least[least <= highs].min())


def top(noisy: list[int], how_many: int, floor: int = 1) -> list[bool]:
    """The `how_many` largest noisy counts of at least `floor` (ties by position): a choice
    from noisy answers alone."""
    order = sorted(range(len(noisy)), key=lambda i: (-noisy[i], i))
    chosen = {i for i in order[:how_many] if noisy[i] >= floor}
    return [i in chosen for i in range(len(noisy))]
