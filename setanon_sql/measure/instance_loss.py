"""Information loss over item instances, each released copy standing for one original item.

The measure of issue 13, usable on any release (set or multiset): a released copy is matched to
one original item under it, an item no copy stands for is suppressed with loss 1. For a
verified multiset release (Clump) it equals `metrics.information_loss(multiset=True)`; a set
release that keeps one node for several of a transaction's items is charged the extra items as
suppressed, so the two kinds of release are measured alike.
"""

from __future__ import annotations

from typing import Any

from ..engine.contract import Workspace


def instance_loss(store: Workspace) -> dict[str, Any]:
    """NCP and LM (in [0, 1]) of the current run's `release` over item instances, with the
    counts of suppressed items and of copies that stand for no item of their transaction.

    One statement per tree level matches copies to items (see sql/instance_loss.sql).
    """
    store.require_hierarchy()
    store.run("instance_nodes")
    store.run("instance_match_start")
    deepest = store.run("instance_depth").one()["depth"]
    for depth in range(int(deepest), -1, -1):
        store.run("instance_match_level", {"depth": depth})
    figures = store.run("instance_loss").one()
    store.drop_tables("instance_node", "instance_match", temp=True, step="drop_instance_tables")
    return figures
