"""Information loss of a release: NCP and LM over original item instances, suppressed items."""

from __future__ import annotations

from typing import Any

from ..engine.contract import Workspace


def information_loss(store: Workspace, *, multiset: bool = False) -> dict[str, Any]:
    """NCP, LM (both in [0, 1]) and the count of suppressed item instances of the current
    run's `release`.

    NCP(p) = 0 for a leaf and |leaves under p| / |all leaves| otherwise (Terrovitis et al. 2008,
    He & Naughton 2009); LM(p) = (|leaves under p| - 1) / (|all leaves| - 1). In a set release a
    node stands for every original item under it; in a multiset release each copy stands for
    one item of its own (the verifier checks that), so the rest are suppressed.
    """
    store.require_hierarchy()
    return store.run("information_loss_multiset" if multiset else "information_loss").one()
