"""Plain-Python references the SQL is checked against: no DuckDB, no cleverness."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import combinations


class Tree:
    """A hierarchy given as (child, parent) label pairs."""

    def __init__(self, edges: Iterable[tuple[str, str]]) -> None:
        self.parent = dict(edges)
        nodes = set(self.parent) | set(self.parent.values())
        self.root = next(n for n in nodes if n not in self.parent)
        self.children: dict[str, list[str]] = {n: [] for n in nodes}
        for c, p in self.parent.items():
            self.children[p].append(c)
        self.nodes = nodes
        self.leaf_set = {n for n in nodes if not self.children[n]}

    def ancestors(self, node: str) -> list[str]:
        """The node itself and every node above it."""
        out = [node]
        while out[-1] in self.parent:
            out.append(self.parent[out[-1]])
        return out

    def leaves_under(self, node: str) -> set[str]:
        if not self.children[node]:
            return {node}
        return set().union(*(self.leaves_under(c) for c in self.children[node]))

    def ncp(self, node: str) -> float:
        n = len(self.leaves_under(node))
        return 0.0 if node in self.leaf_set else n / len(self.leaf_set)

    def lm(self, node: str) -> float:
        total = len(self.leaf_set)
        return (len(self.leaves_under(node)) - 1) / (total - 1) if total > 1 else 0.0


def generalizes(
    original: set[str], released: list[str], tree: Tree, *, allow_suppression: bool = False
) -> bool:
    """Every released node covers an original item; every original item is covered."""
    covers = {r: tree.leaves_under(r) & original for r in released}
    if any(not c for c in covers.values()):
        return False
    covered = set().union(*covers.values()) if covers else set()
    return allow_suppression or covered == original


def is_k_anonymous(release: Mapping[object, Iterable[str]], k: int) -> bool:
    classes = Counter(tuple(sorted(items)) for items in release.values())
    return all(n >= k for n in classes.values())


def km_violations(release: Mapping[object, Iterable[str]], k: int, m: int) -> set[tuple[str, ...]]:
    counts: Counter[tuple[str, ...]] = Counter()
    for items in release.values():
        s = sorted(set(items))
        for size in range(1, m + 1):
            counts.update(combinations(s, size))
    return {itemset for itemset, n in counts.items() if n < k}


def is_km_anonymous(release: Mapping[object, Iterable[str]], k: int, m: int) -> bool:
    return not km_violations(release, k, m)


def information_loss(
    original: Mapping[object, set[str]], release: Mapping[object, Iterable[str]], tree: Tree
) -> tuple[float, float, int]:
    """(NCP, LM, suppressed) averaged over original item instances, as metrics.sql defines."""
    ncp = lm = 0.0
    suppressed = instances = 0
    for tid, items in original.items():
        released = set(release.get(tid, ()))
        for item in items:
            instances += 1
            cover = [r for r in released if item in tree.leaves_under(r)]
            if cover:
                ncp += min(tree.ncp(r) for r in cover)
                lm += min(tree.lm(r) for r in cover)
            else:
                ncp += 1.0
                lm += 1.0
                suppressed += 1
    return ncp / instances, lm / instances, suppressed


def natural_key(label: str) -> tuple[int, int, str]:
    """Integer labels (ASCII digits, optional minus) numerically and first, then by label."""
    if label and all(c in "0123456789" for c in label.removeprefix("-")) and label != "-":
        return (0, int(label), label)
    return (1, 0, label)


def fanout_edges(
    supports: Mapping[str, int], fanout: int, by_support: bool
) -> set[tuple[str, str]]:
    """The fan-out builder's tree, the plain way: leaves by (support,) natural order, grouped
    `fanout` by `fanout` level by level, nodes named `first,last`, a clash with a taken label
    suffixed ` (2)`, ` (3)`..., the root `*`."""

    def fresh(label: str) -> str:
        candidate, n = label, 1
        while candidate in taken:
            n += 1
            candidate = f"{label} ({n})"
        taken.add(candidate)
        return candidate

    def key(label: str) -> tuple:
        return ((-supports[label],) if by_support else ()) + natural_key(label)

    level = [(x, x, x) for x in sorted(supports, key=key)]
    taken = set(supports)
    edges: set[tuple[str, str]] = set()
    while len(level) > fanout:
        nxt = []
        for i in range(0, len(level), fanout):
            group = level[i : i + fanout]
            if len(group) == 1:
                nxt.append(group[0])
                continue
            node = (fresh(f"{group[0][1]},{group[-1][2]}"), group[0][1], group[-1][2])
            edges |= {(g[0], node[0]) for g in group}
            nxt.append(node)
        level = nxt
    root = fresh("*")
    return edges | {(g[0], root) for g in level}
