"""The balanced fan-out hierarchy builder (`--fanout F [--order support|id]`), run as SQL over
the dataset in use: one statement orders the leaves, one statement per level groups them F by F
(sql/hierarchy_build.sql). Python only decides how many levels and names the nodes."""

from __future__ import annotations

from ..engine import ddl
from ..engine.contract import Engine
from ..engine.log import Answer
from ..errors import HierarchyError
from .hierarchy import Hierarchy, label_fanout


def levels(leaves: int, fanout: int) -> int:
    """How many grouping levels the tree gets: until a level holds at most `fanout` nodes,
    which then hang from the root."""
    n, level = leaves, 0
    while n > fanout:
        n, level = -(-n // fanout), level + 1
    return level


def build(ex: Engine, fanout: int, *, by_support: bool) -> Hierarchy:
    """The fan-out tree over the items of the dataset on the search path (`tx_raw`); `ex` is
    the DuckDB executor or the Spark one (spark_engine), which runs the same statements."""
    if fanout < 2:
        raise HierarchyError(f"fan-out must be >= 2, got {fanout}")
    try:
        ex.run("fanout_leaves", {"by_support": by_support})
        counted: Answer = ex.execute(ddl.count_rows("fanout_tree"), step="fanout_leaf_count")
        leaves = int(counted.one()["rows"])
        top = levels(leaves, fanout)
        for level in range(top):
            ex.run("fanout_level", {"level": level, "fanout": fanout, "leaves": leaves})
        edges = ex.run("fanout_edges", {"fanout": fanout, "leaves": leaves, "top": top})
        rows = edges.tuples("child", "parent", "child_label", "lo", "hi")
    finally:
        ex.run("fanout_drop")
    return label_fanout(rows, leaves, fanout)
