"""The set-valued column of a table with relational and transaction attributes (RT): read it as
items of each record, encode them as leaves of the item hierarchy, and make every class of the
QIs k^m-anonymous on it by lifting its own cut of the hierarchy, level by level.

The search is AA's (Terrovitis et al. 2008) made local: each class has its own cut
(`rt_cut(cluster, item, node)`), and for itemset sizes i = 1..m one statement counts, in every
class at once, the i-itemsets of the generalized records held by 1..k-1 of the class's records;
Python picks, per violating itemset, one node to lift to its parent (the lift that adds least
item loss in the class, `LiftCost`, read from one count per round), all classes' lifts are
applied in one statement, and the count is repeated until the level holds no violation. Why that is enough: a lift only coarsens, so an itemset of size j <= i
held by some record is the image of one of its old j-itemsets, held by at least k records after
level j, each of which holds the image (see km_aa). Every class has at least k records and
every record an item, so the root alone is always anonymous and the search ends.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

import pyarrow as pa

from ..engine import ddl
from ..engine.builders import render
from ..engine.rt_builders import class_violations, set_column_copy
from ..errors import InputError, ParamsError
from ..progress import Progress
from ..store import hierarchy
from ..store.database import Store
from ..store.hierarchy_spec import HierarchySpec
from ..store.textfile import MARK, quoting

LIST_TYPE_SUFFIX = "[]"
DEFAULT_SEP = ";"
"""What joins the items of a text set column unless told, and a LIST column's in a CSV file."""


@dataclass(frozen=True)
class SetColumn:
    """The set column as loaded: its name, whether it is a LIST (else text joined by `sep`)."""

    name: str
    is_list: bool
    sep: str


def set_column(name: str, kind: str, sep: str | None, qi: Sequence[str], source: str) -> SetColumn:
    """Refuse a set column that is a QI, of nested type, or neither text nor a list, and a
    separator (`sep`, None: `;`) that cannot apply: given for a list, empty, or holding the
    quote that protects an item holding it."""
    if name in qi:
        raise ParamsError(f"column {name!r} cannot be both the set column and a quasi-identifier")
    is_list = kind.endswith(LIST_TYPE_SUFFIX)
    if is_list and sep is not None:
        raise ParamsError(
            f"--items-sep splits a text set column; {name!r} is a list, its items already apart"
        )
    sep = DEFAULT_SEP if sep is None else sep
    if not sep:
        raise ParamsError("--items-sep must be a non-empty string")
    if '"' in sep or MARK in sep:
        raise ParamsError(
            "--items-sep cannot hold a double quote (it quotes an item holding the separator)"
            " or the control character U+001F"
        )
    inner = kind[: -len(LIST_TYPE_SUFFIX)] if is_list else kind
    if any(t in inner.upper() for t in ("[", "STRUCT", "MAP", "UNION")):
        raise InputError(
            f"{source}: set column {name!r} has nested type {kind}; it must be text or a list "
            "of scalars"
        )
    if is_list and inner != "VARCHAR":
        raise InputError(
            f"{source}: set column {name!r} is a list of {inner}; its items must be text (the "
            "hierarchy's labels)"
        )
    if not is_list and kind != "VARCHAR":
        raise InputError(
            f"{source}: set column {name!r} has type {kind}; it must be text (items joined "
            "by --items-sep) or a list"
        )
    return SetColumn(name, is_list, sep)


class _Items:
    """The data's items, for a hierarchy built over them (`HierarchySpec.build`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def item_labels(self) -> list[str]:
        return [r[0] for r in self.store.run("rt_item_labels").rows]

    def build_fanout(self, fanout: int, *, by_support: bool) -> hierarchy.Hierarchy:
        raise ParamsError(
            "a fan-out hierarchy is not available with a set column yet: give a hierarchy file"
        )


def load_sets(
    store: Store, column: SetColumn, spec: HierarchySpec | None, source: str, *, copy: bool = True
) -> hierarchy.Hierarchy:
    """Read the set column of `rel_source` (or, without `copy`, the `rt_set` made from item
    rows) into `rt_labels` and `rt_tx`, with the item hierarchy as `rt_node` (no `spec`: every
    item a leaf under one root, for a set column released as it is); refuse empty sets, blank
    items and items that are no leaf."""
    if copy:
        query = set_column_copy(column.name)
        store.execute(ddl.create_table_as("rt_set", render(query)), step="rt_set")
    empty = store.run("rt_set_problems").one()["empty_sets"]
    if empty:
        raise InputError(
            f"{source}: {empty} record(s) have no items in set column {column.name!r}; every "
            "record needs at least one (drop them, or give them an item)"
        )
    if column.is_list:
        store.run("rt_labels_from_list")
    else:
        store.run("rt_labels_from_quoted_text", quoting(column.sep))
    tree = spec.build(_Items(store)) if spec is not None else flat(_Items(store).item_labels())
    store.put_arrow("rt_node", node_table(tree))
    found = store.run("rt_label_problems").one()
    if found["blank"]:
        why = (
            "NULL or blank in a list"
            if column.is_list
            else (f"two separators {column.sep!r} in a row, one at an end, or a quote left open?")
        )
        raise InputError(
            f"{source}: {found['blank']} blank item(s) in set column {column.name!r} ({why})"
        )
    if found["unknown"]:
        shown = ", ".join(map(repr, found["examples"]))
        raise InputError(
            f"{source}: {found['unknown']} item(s) of column {column.name!r} are no leaf of the "
            f"hierarchy, e.g. {shown}"
        )
    store.run("rt_make_tx")
    return tree


def flat(items: list[str]) -> hierarchy.Hierarchy:
    """Every item a leaf under one root: the items of a set column released as they are.

    Example:
        >>> flat(["b", "a"]).labels
        ('*', 'a', 'b')
    """
    root = hierarchy.fresh_label(hierarchy.ROOT_LABEL, set(items))
    return hierarchy.from_edges([(item, root) for item in items], source="the items as given")


def described(spec: HierarchySpec | None) -> str:
    """How the items' hierarchy was given, for the run's record."""
    return spec.describe() if spec is not None else "none (items as given)"


def node_table(tree: hierarchy.Hierarchy) -> pa.Table:
    """The hierarchy as rows `rt_node(id, label, parent, last, leaf_count, depth)`."""
    i32 = pa.int32()
    return pa.table(
        {
            "id": pa.array(range(tree.size), i32),
            "label": pa.array(tree.labels, pa.string()),
            "parent": pa.array([p if p >= 0 else None for p in tree.parent], i32),
            "last": pa.array(tree.last, i32),
            "leaf_count": pa.array(tree.leaf_count, i32),
            "depth": pa.array(tree.depth, i32),
        }
    )


class LiftCost:
    """What lifting a class's cut to a node adds to the item loss (in leaves, unnormalized):
    every record of the class holding a cut node under it pays the node's leaves minus the
    cut node's. Read from `rt_class_node_counts` once per round, so a pair's lift falls on the
    node whose instances are few, not on the one of smaller id.

    Example:
        >>> t = hierarchy.from_edges([("a", "A"), ("b", "A"), ("A", "*")])
        >>> ids = t.id_of()
        >>> LiftCost(t, [(0, ids["a"], 3), (0, ids["b"], 1)]).of(0, ids["A"])
        4
    """

    def __init__(self, tree: hierarchy.Hierarchy, counts: Sequence[tuple[int, int, int]]) -> None:
        self.tree = tree
        by: dict[int, tuple[list[int], list[int], list[int]]] = {}
        for cluster, node, n in sorted(counts):
            nodes, held, paid = by.setdefault(cluster, ([], [0], [0]))
            nodes.append(node)
            held.append(held[-1] + n)
            paid.append(paid[-1] + n * (tree.leaf_count[node] - 1))
        self.by = by

    def of(self, cluster: int, node: int) -> int:
        nodes, held, paid = self.by[cluster]
        lo = bisect_left(nodes, node)
        hi = bisect_right(nodes, self.tree.last[node])
        return (self.tree.leaf_count[node] - 1) * (held[hi] - held[lo]) - (paid[hi] - paid[lo])


@dataclass(frozen=True)
class SearchStats:
    rounds: int
    violations: int
    lifts: int


def choose_lifts(
    tree: hierarchy.Hierarchy,
    found: Sequence[tuple[int, tuple[int, ...]]],
    cost: LiftCost | None = None,
) -> list[tuple[int, int]]:
    """One lift per violating itemset (cluster, nodes), in the order given: of its nodes' nearest
    wider ancestors (`_wider`), the one that costs the class least (`cost`: item loss added;
    without it, fewest leaves; ties: the smaller id), unless a lift already chosen in the class
    overlaps its itemset; the lifts of a class are disjoint subtrees.

    Example:
        >>> t = hierarchy.from_edges([("a", "A"), ("b", "A"), ("c", "B"), ("A", "*"), ("B", "*")])
        >>> ids = t.id_of()
        >>> choose_lifts(t, [(0, (ids["a"],)), (0, (ids["b"],)), (1, (ids["a"], ids["c"]))])
        [(0, 1), (1, 1)]
    """
    chosen: dict[int, list[int]] = {}
    for cluster, nodes in found:
        taken = chosen.setdefault(cluster, [])
        if any(_overlaps(tree, t, n) for t in taken for n in nodes):
            continue  # counted again next round, under the lifted cut
        up = [a for a in (_wider(tree, n) for n in nodes) if a is not None]
        if not up:
            raise AssertionError(f"class {cluster}: an itemset of the root alone violates")
        if cost is None:
            target = min(up, key=lambda a: (tree.leaf_count[a], a))
        else:
            target = min(up, key=lambda a: (cost.of(cluster, a), tree.leaf_count[a], a))
        taken[:] = [t for t in taken if not _overlaps(tree, target, t)]
        taken.append(target)
    return [(c, t) for c, ts in chosen.items() for t in ts]


def _wider(tree: hierarchy.Hierarchy, node: int) -> int | None:
    """The nearest ancestor covering more leaves than `node` (a parent with one child would
    change only the label), None for a node covering them all."""
    a = tree.parent[node]
    while a >= 0 and tree.leaf_count[a] == tree.leaf_count[node]:
        a = tree.parent[a]
    return a if a >= 0 else None


def _overlaps(tree: hierarchy.Hierarchy, a: int, b: int) -> bool:
    """Two subtrees share a node (one holds the other)."""
    return a <= b <= tree.last[a] or b <= a <= tree.last[b]


def km_in_classes(
    store: Store, tree: hierarchy.Hierarchy, k: int, m: int, progress: Progress
) -> SearchStats:
    """Make every class k^m-anonymous on its items (see the module's docstring)."""
    store.run("rt_cut_start")
    rounds = violations = lifts = 0
    for level in range(1, m + 1):
        progress(f"items level {level}", level - 1, m)
        sql = render(class_violations(level))
        while True:
            store.run("rt_generalized")
            rounds += 1
            store.execute(
                ddl.create_table_as(f"rt_violations_l{level}", sql), {"k": k}, step="rt_violations"
            )
            found = _read_violations(store, level)
            if not found:
                break
            violations += len(found)
            counts = store.run("rt_class_node_counts").tuples("cluster", "node", "n")
            chosen = choose_lifts(tree, found, LiftCost(tree, counts))
            lifts += len(chosen)
            store.put_arrow(
                "rt_lift",
                pa.table(
                    {
                        "cluster": pa.array([c for c, _ in chosen], pa.int32()),
                        "node": pa.array([n for _, n in chosen], pa.int32()),
                    }
                ),
            )
            store.run("rt_apply_lifts")
    store.run("rt_generalized")
    return SearchStats(rounds, violations, lifts)


def _read_violations(store: Store, level: int) -> list[tuple[int, tuple[int, ...]]]:
    """The level's violations, rarest first within each class (then by nodes)."""
    table = store.arrow(ddl.select_all(f"rt_violations_l{level}"))
    data = table.to_pydict()
    rows = [
        (c, s, tuple(data[f"item_{j}"][i] for j in range(1, level + 1)))
        for i, (c, s) in enumerate(zip(data["cluster"], data["support"], strict=True))
    ]
    rows.sort()
    return [(c, nodes) for c, _, nodes in rows]
