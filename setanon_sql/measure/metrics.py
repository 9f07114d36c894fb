"""Information loss of a release: NCP and LM over original item instances, suppressed items."""

from __future__ import annotations

from typing import Any

from ..engine.contract import Workspace

# item instances per information_loss_part statement: its grouping holds each instance once. At
# 10^8 transactions (439 M instances) one statement overflowed a 32 GB spill cap; at 10^7 (44 M)
# under a 3.5 GB limit it spilled 0.8 GB and peaked at 3.5 GB, where 4 ranges spilled nothing
# and peaked at 1.7 GB, a little faster. Below this, one statement as before.
PART_INSTANCES = 10_000_000


def information_loss(
    store: Workspace, *, multiset: bool = False, part_instances: int = PART_INSTANCES
) -> dict[str, Any]:
    """NCP, LM (both in [0, 1]) and the count of suppressed item instances of the current
    run's `release`.

    NCP(p) = 0 for a leaf and |leaves under p| / |all leaves| otherwise (Terrovitis et al. 2008,
    He & Naughton 2009); LM(p) = (|leaves under p| - 1) / (|all leaves| - 1). In a set release a
    node stands for every original item under it; in a multiset release each copy stands for
    one item of its own (the verifier checks that), so the rest are suppressed. A set release's
    instances are charged over ranges of transactions of about `part_instances` each.
    """
    store.require_hierarchy()
    if multiset:
        return store.run("information_loss_multiset").one()
    span = store.run("information_loss_span").one()
    sums: dict[str, Any] = {"instances": 0, "covered": 0, "ncp": 0.0, "lm": 0.0}
    if span["first_tid"] is not None:
        parts = max(1, -(-int(span["instances"]) // part_instances))
        for lo, hi in tid_ranges(int(span["first_tid"]), int(span["last_tid"]), parts):
            part = store.run("information_loss_part", {"lo": lo, "hi": hi}).one()
            for key in sums:
                sums[key] += part[key]
    return store.run("information_loss", sums).one()


def tid_ranges(first: int, last: int, parts: int) -> list[tuple[int, int]]:
    """`parts` contiguous ranges covering first..last, as even as whole numbers allow.

    Example:
        >>> tid_ranges(0, 9, 3)
        [(0, 2), (3, 5), (6, 9)]
        >>> tid_ranges(5, 5, 4)
        [(5, 5)]
    """
    width = last - first + 1
    parts = min(parts, width)
    bounds = [first + width * i // parts for i in range(parts + 1)]
    return [(bounds[i], bounds[i + 1] - 1) for i in range(parts)]
