"""Where a run's item hierarchy comes from, as a value: a file, edges, the fan-out builder over
the data's items, or code prefixes. Checked before any work; built against the data in use."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..errors import ParamsError
from . import hierarchy, textfile

CATALOGUE = " (catalogue)"
"""How the registry marks a tree the transactions were encoded over as a catalogue: the items
it lacks were dropped, so only a differentially private run may use it."""


class ItemSource(Protocol):
    """What building a tree over the data needs: the items, and the SQL fan-out builder (a
    DuckDB or a Spark store)."""

    def item_labels(self) -> list[str]: ...

    def build_fanout(self, fanout: int, *, by_support: bool) -> hierarchy.Hierarchy: ...


@dataclass(frozen=True)
class HierarchySpec:
    """Where the hierarchy comes from: a file, edges, a fan-out over the items, or code
    prefixes."""

    path: str | Path | None = None
    format: str | None = None
    edges: tuple[tuple[str, str], ...] | None = None
    fanout: int | None = None
    code_prefix: bool = False
    order: str | None = None  # the --fanout builder's leaf order; None: hierarchy.DEFAULT_ORDER
    encoding: str | None = None  # of the file; None: UTF-8
    catalogue: bool = False  # a public item list: the data's items it lacks are dropped (dpsets)

    @property
    def leaf_order(self) -> str:
        """The order the --fanout builder uses; unset, the measured default (support)."""
        return self.order or hierarchy.DEFAULT_ORDER

    def check(self) -> None:
        chosen = [self.path, self.edges, self.fanout].count(None) + (not self.code_prefix)
        if chosen != 3:
            raise ParamsError("give exactly one of --hierarchy FILE, --fanout F, --code-prefix")
        if self.leaf_order not in hierarchy.ORDERS:
            raise ParamsError(f"--order must be one of {', '.join(hierarchy.ORDERS)}")
        if self.order is not None and self.fanout is None:
            raise ParamsError("--order applies to the --fanout builder")
        if self.encoding is not None and self.path is None:
            raise ParamsError("--hierarchy-encoding applies to a --hierarchy file")
        if self.catalogue and self.path is None and self.edges is None:
            raise ParamsError(
                "a catalogue is a --hierarchy file or edges, never built from the data"
            )

    def build(self, store: ItemSource) -> hierarchy.Hierarchy:
        """The tree: read from its file or edges, or built over the items of the store's
        dataset (the fan-out builder runs in SQL there)."""
        self.check()
        if self.edges is not None:
            return self._as_given(hierarchy.from_edges(self.edges))
        if self.path is not None:
            return self._as_given(hierarchy.read(self.path, self.format, self.encoding))
        if self.fanout is not None:
            return store.build_fanout(self.fanout, by_support=self.leaf_order == "support")
        return hierarchy.build_code_prefix(store.item_labels())

    def _as_given(self, tree: hierarchy.Hierarchy) -> hierarchy.Hierarchy:
        """A given tree, marked a catalogue when asked (its encoding drops the items it lacks)."""
        return dataclasses.replace(tree, catalogue=True) if self.catalogue else tree

    def describe(self) -> str:
        """How the tree was made, for the registry."""
        if self.path is not None or self.edges is not None:
            given = "edges" if self.path is None else str(textfile.shown(Path(self.path)))
            return given + (CATALOGUE if self.catalogue else "")
        if self.fanout is not None:
            return f"fanout {self.fanout}" + (" by support" if self.leaf_order == "support" else "")
        return "code-prefix"


def refuse_catalogue(tree: Any, algorithm: str) -> None:
    """Refuse a tree (a registered `HierarchyRef`, or None) that a dpsets run encoded the
    transactions over as a catalogue, the items it lacks dropped: another algorithm's release
    would silently lack them."""
    if tree is not None and str(tree.source).endswith(CATALOGUE):
        raise ParamsError(
            f"the dataset's hierarchy {tree.source} is a differentially private run's catalogue, "
            f"which drops the items it lacks: give -a {algorithm} its own tree with -H"
        )
