"""The modeled long sessions of dpsets (#44): post-processing of noisy answers, so no budget.

Why: a transaction of n items holds C(n, 2) pairs, so measuring the pairs of long ones costs
that much noise each, and leaving them out lost a third of the frequent pairs' support on
BMS-WebView-1 and -2. So dpsets measures only the transactions of at most `longest` items and
releases the longer ones as sessions of their noisy histogram's lengths, grown item by item:
each next item is drawn in proportion to its estimate, raised for the kept items by their
affinity to the session's items so far (how much more often the measured transactions hold the
pair than the two items' estimates predict: `lift`). Without the affinity, two items would meet
only as their estimates' product predicts, and the frequent pairs are exactly those that meet
more often (benchmarks/notes/dp-model.md: independent draws held WV2's long sessions' frequent
pairs at 40 % of their support).

The draw's randomness is seeded by a digest of the noisy answers it reads: a function of noisy
answers alone, and the same answers give the same sessions (what the neighbouring-dataset
tests hold the path to). Never used for the noise itself (that is OpenDP's, `dp_noise`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

AFFINITY = 1.0
"""How strongly a kept item's lift with the session's items raises its draw: weight = estimate x
(1 + AFFINITY x max(0, mean lift - 1)). Measured on WV1 / WV2 (benchmarks/notes/dp-model.md)."""
CHUNK = 8192
"""Sessions grown together: bounds the (sessions x kept items) matrices' memory."""
RETRIES = 4
"""Extra steps per item a session may take when a draw lands on an item it already holds."""


def seed_of(*answers: np.ndarray | Sequence[tuple[int, int]]) -> int:
    """A digest of the noisy answers the sessions are drawn from."""
    digest = hashlib.sha256()
    for answer in answers:
        if isinstance(answer, np.ndarray):
            digest.update(np.ascontiguousarray(answer).tobytes())
        else:
            digest.update(repr(list(answer)).encode())
    return int.from_bytes(digest.digest()[:8], "little")


def lift(
    estimates: np.ndarray, kept: np.ndarray, pairs: Sequence[tuple[int, int, int]], measured: int
) -> np.ndarray:
    """The kept items' lift matrix: a pair's estimate over what the `measured` transactions
    would hold if its items met independently (their estimates' product over `measured`);
    `pairs` are (index, index, estimate) into `estimates`, `kept` the indices with a row."""
    where = np.full(len(estimates), -1, dtype=np.int64)
    where[kept] = np.arange(len(kept))
    own = np.maximum(np.asarray(estimates, dtype=np.float64)[kept], 1.0)
    out = np.zeros((len(kept), len(kept)))
    if not len(pairs):
        return out
    a, b, estimate = (np.asarray(c) for c in zip(*pairs, strict=True))
    x, y = where[a], where[b]
    value = np.maximum(estimate, 0) * max(1, measured) / (own[x] * own[y])
    out[x, y] = value
    out[y, x] = value
    return out


def long_sessions(
    estimates: np.ndarray,
    sessions: Sequence[tuple[int, int]],
    kept: np.ndarray | None = None,
    lifts: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """For each (length, how many) of `sessions`, that many sessions of up to that many distinct
    items (indices into `estimates`), grown as the module says (with no `kept`/`lifts`: in
    proportion to the estimates alone). No item is used more often than its estimate: past
    that, its later sessions lose it. Returns (session, item index), sorted by both."""
    empty = np.zeros(0, dtype=np.int64)
    weights = np.maximum(np.asarray(estimates, dtype=np.int64), 0)
    if not weights.any() or not any(c > 0 for _, c in sessions):
        return empty, empty
    kept = np.zeros(0, dtype=np.int64) if kept is None else np.asarray(kept, dtype=np.int64)
    lifts = np.zeros((0, 0)) if lifts is None else lifts
    gen = np.random.Generator(np.random.PCG64(seed_of(weights, sessions, kept, lifts)))
    share = weights / weights.sum()
    outside = share.copy()
    outside[kept] = 0.0
    need = np.concatenate(
        [np.full(c, min(n, int((weights > 0).sum())), dtype=np.int64) for n, c in sessions]
    )
    found = [
        grow(gen, need[lo : lo + CHUNK], lo, share[kept], kept, lifts, outside)
        for lo in range(0, len(need), CHUNK)
    ]
    session = np.concatenate([f[0] for f in found])
    index = np.concatenate([f[1] for f in found])
    return within_estimates(session, index, weights)


def grow(  # noqa: PLR0913 -- the draw's whole state, passed once per chunk
    gen: np.random.Generator,
    need: np.ndarray,
    first: int,
    kept_share: np.ndarray,
    kept: np.ndarray,
    lifts: np.ndarray,
    outside: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """One chunk of sessions (numbered from `first`), grown a step at a time together."""
    rows, width = len(need), len(kept)
    affinity = np.zeros((rows, width))
    taken = np.zeros((rows, width), dtype=bool)
    count = np.zeros(rows, dtype=np.int64)
    outside_taken = np.zeros(rows)
    cumulative = np.cumsum(outside)
    outside_total = float(cumulative[-1]) if len(cumulative) else 0.0
    held: set[int] = set()  # row x items + item of every outside item a session holds
    who: list[np.ndarray] = []
    what: list[np.ndarray] = []
    for _ in range(int(need.max(initial=0)) * (1 + RETRIES)):
        active = np.flatnonzero(count < need)
        if not len(active):
            break
        mean = affinity[active] / np.maximum(count[active], 1)[:, None]
        raised = kept_share * (1.0 + AFFINITY * np.maximum(mean - 1.0, 0.0))
        raised[taken[active]] = 0.0
        inside = raised.sum(axis=1)
        rest = np.maximum(outside_total - outside_taken[active], 0.0)
        draw = gen.random(len(active)) * (inside + rest)
        into = draw < inside
        if into.any():
            rows_in = active[into]
            column = (np.cumsum(raised[into], axis=1) <= draw[into][:, None]).sum(axis=1)
            column = np.minimum(column, width - 1)
            taken[rows_in, column] = True
            affinity[rows_in] += lifts[column]
            count[rows_in] += 1
            who.append(rows_in)
            what.append(kept[column])
        if (~into).any() and outside_total > 0:
            rows_out = active[~into]
            picked = np.searchsorted(cumulative, gen.random(len(rows_out)) * outside_total, "right")
            picked = np.minimum(picked, len(outside) - 1)
            keys = rows_out.astype(np.int64) * len(outside) + picked
            fresh = np.fromiter((k not in held for k in keys.tolist()), bool, len(keys))
            held.update(keys[fresh].tolist())
            outside_taken[rows_out[fresh]] += outside[picked[fresh]]
            count[rows_out[fresh]] += 1
            who.append(rows_out[fresh])
            what.append(picked[fresh])
    session = np.concatenate(who) + first if who else np.zeros(0, dtype=np.int64)
    index = np.concatenate(what) if what else np.zeros(0, dtype=np.int64)
    return session.astype(np.int64), index.astype(np.int64)


def within_estimates(
    session: np.ndarray, index: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each item kept in its first `weights[item]` sessions only; sorted by session, item."""
    order = np.lexsort((session, index))  # by item, then session
    by_item = index[order]
    starts = np.searchsorted(by_item, by_item, side="left")
    keep = np.zeros(len(index), dtype=bool)
    keep[order] = (np.arange(len(order)) - starts) < weights[by_item]
    final = np.lexsort((index[keep], session[keep]))
    return session[keep][final], index[keep][final]
