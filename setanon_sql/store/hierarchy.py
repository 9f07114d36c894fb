"""The item hierarchy: load, validate and build it; number its nodes in preorder.

A node's id is its preorder number and `last` is the largest id in its subtree, so "a is an
ancestor-or-self of d" is the range test `a.id <= d.id <= a.last` in SQL.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import HierarchyError, InputError
from . import textfile

ROOT_LABEL = "*"


def natural_key(label: str) -> tuple[int, int, str]:
    """Sort integers (ASCII digits, optional minus, taken exactly as written) numerically before
    other labels, so item 9 comes before item 10; the SQL builder (sql/hierarchy_build.sql)
    orders leaves by the same key."""
    if _INTEGER.fullmatch(label):
        return (0, int(label), label)
    return (1, 0, label)


_INTEGER = re.compile(r"-?[0-9]+")


def preorder_children(last: Sequence[int], node: int) -> list[int]:
    """A node's children in a preorder numbering: each starts right after its elder sibling's
    subtree ends."""
    out, c = [], node + 1
    while c <= last[node]:
        out.append(c)
        c = last[c] + 1
    return out


@dataclass(frozen=True)
class Hierarchy:
    """A rooted tree with nodes numbered in preorder (children in natural label order)."""

    labels: tuple[str, ...]
    parent: tuple[int, ...]  # -1 for the root
    depth: tuple[int, ...]
    last: tuple[int, ...]
    leaf_count: tuple[int, ...]
    warnings: tuple[str, ...] = field(default=())
    catalogue: bool = False
    """A public list of the items (dpsets): the data's items it lacks are dropped when the
    transactions are encoded over it, never named (which ones are there leaks the data)."""

    @property
    def size(self) -> int:
        return len(self.labels)

    @property
    def n_leaves(self) -> int:
        return self.leaf_count[0]

    def is_leaf(self, node: int) -> bool:
        return self.last[node] == node

    def children(self, node: int) -> list[int]:
        return preorder_children(self.last, node)

    def leaves(self) -> list[int]:
        return [i for i in range(self.size) if self.is_leaf(i)]

    def id_of(self) -> dict[str, int]:
        return {lab: i for i, lab in enumerate(self.labels)}

    def height(self) -> int:
        return max(self.depth)

    def edges(self) -> list[tuple[str, str]]:
        """(child, parent) label pairs in preorder, the CSV form."""
        return [(self.labels[i], self.labels[p]) for i, p in enumerate(self.parent) if p >= 0]


def from_edges(edges: Iterable[tuple[str, str]], *, source: str = "hierarchy") -> Hierarchy:
    """Validate (child, parent) pairs as one rooted tree and number it.

    Raises HierarchyError for a node with two parents, a cycle, several roots or none.
    """
    parent_of: dict[str, str] = {}
    nodes: dict[str, None] = {}
    conflicts: list[str] = []
    for child, parent in edges:  # labels are kept exactly as given, spaces included
        if parent_of.get(child) == parent:
            continue  # an edge met before, checked then (paths repeat theirs once per leaf)
        if not child.strip() or not parent.strip():
            raise HierarchyError(f"{source}: empty node label in edge ({child!r}, {parent!r})")
        if child == parent:
            raise HierarchyError(f"{source}: cycle: node {child!r} is its own parent")
        nodes.setdefault(child)
        nodes.setdefault(parent)
        old = parent_of.setdefault(child, parent)
        if old != parent and len(conflicts) < 5:
            conflicts.append(f"{child!r} under {old!r} and {parent!r}")
    if conflicts:
        raise HierarchyError(f"{source}: node with two parents: " + "; ".join(conflicts))
    if not nodes:
        raise HierarchyError(f"{source}: the hierarchy has no edges")
    roots = [n for n in nodes if n not in parent_of]
    if len(roots) > 1:
        shown = ", ".join(repr(r) for r in sorted(roots, key=natural_key)[:5])
        raise HierarchyError(f"{source}: {len(roots)} roots ({shown}); a hierarchy has one root")
    children: dict[str, list[str]] = defaultdict(list)
    for c, p in parent_of.items():
        children[p].append(c)
    reached = _number(roots[0], children) if roots else None
    if reached is None or len(reached[0]) < len(nodes):
        seen = set(reached[0]) if reached else set()
        raise HierarchyError(f"{source}: cycle: {_find_cycle(parent_of, seen)}")
    order, parent_idx, depth, last = reached
    leaf_count = [0] * len(order)
    for i in range(len(order) - 1, -1, -1):
        if last[i] == i:
            leaf_count[i] = 1
        if parent_idx[i] >= 0:
            leaf_count[parent_idx[i]] += leaf_count[i]
    return Hierarchy(
        labels=tuple(order),
        parent=tuple(parent_idx),
        depth=tuple(depth),
        last=tuple(last),
        leaf_count=tuple(leaf_count),
        warnings=tuple(_near_duplicates(order)),
    )


def _number(
    root: str, children: dict[str, list[str]]
) -> tuple[list[str], list[int], list[int], list[int]]:
    order: list[str] = []
    parent_idx: list[int] = []
    depth: list[int] = []
    stack: list[tuple[str, int, int]] = [(root, -1, 0)]
    while stack:
        label, par, d = stack.pop()
        order.append(label)
        parent_idx.append(par)
        depth.append(d)
        me = len(order) - 1
        for c in sorted(children.get(label, ()), key=natural_key, reverse=True):
            stack.append((c, me, d + 1))
    last = list(range(len(order)))
    for i in range(len(order) - 1, 0, -1):
        p = parent_idx[i]
        last[p] = max(last[p], last[i])
    return order, parent_idx, depth, last


def _find_cycle(parent_of: dict[str, str], reached: set[str]) -> str:
    for start in parent_of:
        if start in reached:
            continue
        path, seen = [start], {start}
        node = start
        while node in parent_of:
            node = parent_of[node]
            if node in seen:
                cyc = path[path.index(node) :] + [node]
                return " -> ".join(repr(n) for n in cyc)
            path.append(node)
            seen.add(node)
    return "nodes unreachable from the root"


def _near_duplicates(labels: Sequence[str]) -> list[str]:
    groups: dict[str, list[str]] = defaultdict(list)
    for lab in labels:  # runs of white space as one space, none at the ends
        groups[" ".join(lab.split()).casefold()].append(lab)
    return [
        "labels differ only by case or white space: " + ", ".join(repr(x) for x in g)
        for g in groups.values()
        if len(g) > 1
    ][:5]


def read_csv(path: str | Path, encoding: str | None = None) -> Hierarchy:
    """Read `child,parent` rows (a header row naming child and parent is skipped). Labels are
    kept exactly; errors name the file's own line numbers."""
    path = Path(path)
    return parse_csv(_text(path, encoding), str(path))


def parse_csv(text: str, source: str) -> Hierarchy:
    """`child,parent` rows of a hierarchy file's text (see `read_csv`)."""
    try:
        reader = csv.reader(io.StringIO(text, newline=""))
        rows = [(reader.line_num, r) for r in reader if r and any(x.strip() for x in r)]
    except csv.Error as e:
        raise HierarchyError(f"cannot read hierarchy {source}: {e}") from e
    if rows and [x.strip().lower() for x in rows[0][1][:2]] == ["child", "parent"]:
        rows = rows[1:]
    bad = [line for line, r in rows if len(r) != 2]
    if bad:
        raise HierarchyError(
            f"{source}: expected 2 columns child,parent; line(s) {bad[:5]} have a different count"
        )
    return from_edges(((r[0], r[1]) for _, r in rows), source=source)


def read_paths(path: str | Path, encoding: str | None = None) -> Hierarchy:
    """Read `leaf;parent;...;root` lines; consecutive repeated nodes (padding) collapse."""
    path = Path(path)
    return parse_paths(_text(path, encoding), str(path))


def parse_paths(text: str, source: str) -> Hierarchy:
    """`leaf;parent;...;root` lines of a hierarchy file's text (see `read_paths`)."""
    edges: list[tuple[str, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.split(";")  # labels are kept exactly as given
        stripped = [p.strip() for p in parts]
        if not any(stripped):
            continue
        if not all(stripped):
            raise HierarchyError(f"{source}: empty node on line {number}: {line!r}")
        chain = [p for i, p in enumerate(parts) if i == 0 or p != parts[i - 1]]
        edges.extend(zip(chain, chain[1:], strict=False))
        if len(chain) == 1:
            raise HierarchyError(f"{source}: line {number} names a leaf without any parent")
    return from_edges(edges, source=source)


ENCODING_OPTION = "--hierarchy-encoding"


def _text(path: Path, encoding: str | None, option: str = ENCODING_OPTION) -> str:
    """The hierarchy file's text: gzip'd or not, its byte order mark dropped (`option` names
    the encoding's option in an error)."""
    if not (path.is_file() or textfile.is_stream(path)):  # read once: `-H <(cmd)` works
        raise HierarchyError(f"hierarchy file not found: {path}")
    try:
        return textfile.read_text(path, encoding, option)
    except OSError as e:
        raise HierarchyError(f"cannot read hierarchy {path}: {e}") from e
    except InputError as e:
        raise HierarchyError(str(e)) from e


def read(
    path: str | Path,
    fmt: str | None = None,
    encoding: str | None = None,
    *,
    option: str = ENCODING_OPTION,
) -> Hierarchy:
    """Read a hierarchy file (gzip'd or not; UTF-8 unless `encoding`), telling the
    path-per-line format by its `;` separators."""
    path = Path(path)
    if fmt not in (None, "paths", "csv"):
        raise HierarchyError(f"unknown hierarchy format {fmt!r} (csv or paths)")
    text = _text(path, encoding, option)
    if fmt is None:
        head = text[:4096]
        fmt = "paths" if ";" in head and "," not in head.split("\n")[0].split(";")[0] else "csv"
    if fmt == "paths":
        return parse_paths(text, str(path))
    return parse_csv(text, str(path))


ORDERS = ("id", "support")
# The default leaf order of the --fanout builder: measured on BMS-WebView-1/2 and synthetic
# baskets (issue 17), support order lowers NCP and query error for AA and Partition alike.
DEFAULT_ORDER = "support"


def label_fanout(rows: Iterable[tuple], leaves: int, fanout: int) -> Hierarchy:
    """Name the nodes of a fan-out tree built in SQL (`fanout_edges` rows: child, parent, child
    label, first and last leaf position of the parent) and make it a Hierarchy.

    Internal nodes are named `first,last` after the first and last leaf they cover, the root `*`
    (the papers' artificial hierarchies, and the format of the shipped WV2 tree), in the order
    the nodes were made, each made unique against the items and earlier nodes (`fresh_label`).
    """
    rows = list(rows)
    label = {child: text for child, _, text, _, _ in rows if child < leaves}
    if not label:
        raise HierarchyError("cannot build a hierarchy over no items")
    taken = set(label.values())
    edges: list[tuple[str, str]] = []
    root: str | None = None
    for child, parent, _, lo, hi in rows:
        if parent is None:
            root = root or fresh_label(ROOT_LABEL, taken)
            edges.append((label[child], root))
            continue
        if parent not in label:
            label[parent] = fresh_label(f"{label[lo]},{label[hi]}", taken)
        edges.append((label[child], label[parent]))
    return from_edges(edges, source=f"fan-out {fanout} hierarchy")


def fresh_label(label: str, taken: set[str]) -> str:
    """`label`, or `label (2)`, `label (3)`... when an item or an earlier node holds it: a
    built node must never share its label with an item (the release would be ambiguous)."""
    candidate, n = label, 1
    while candidate in taken:
        n += 1
        candidate = f"{label} ({n})"
    taken.add(candidate)
    return candidate


def build_code_prefix(items: Iterable[str]) -> Hierarchy:
    """Generalize codes by dropping trailing characters: 12345 -> 1234* -> 123* -> ... -> *.

    Chains with a single child are collapsed, so every internal node generalizes >= 2 codes.
    """
    codes = sorted(set(items), key=natural_key)
    if not codes:
        raise HierarchyError("cannot build a hierarchy over no items")
    starred = [c for c in codes if "*" in c]
    if starred:
        raise HierarchyError(
            f"the code-prefix builder names its nodes with '*'; items already hold it: "
            f"{', '.join(repr(c) for c in starred[:5])}"
        )
    parent_of: dict[str, str] = {}
    for code in codes:
        node = code
        for cut in range(len(code) - 1, -1, -1):
            par = code[:cut] + "*"
            if node in parent_of:
                break
            parent_of[node] = par
            node = par
    parent_of.pop(ROOT_LABEL, None)
    kids: dict[str, list[str]] = defaultdict(list)
    for c, p in parent_of.items():
        kids[p].append(c)

    def lift(p: str) -> str:
        while p != ROOT_LABEL and len(kids[p]) == 1 and p not in codes_set:
            p = parent_of[p]
        return p

    codes_set = set(codes)
    edges = [(c, lift(p)) for c, p in parent_of.items() if c in codes_set or len(kids[c]) != 1]
    return from_edges(edges, source="code-prefix hierarchy")


def write_csv(h: Hierarchy, path: str | Path) -> None:
    """Write `child,parent` rows (with a header), atomically (`outputs`)."""
    from .outputs import Publication, target_of

    with Publication().written() as files:
        tmp = files.file(target_of(path))
        with tmp.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["child", "parent"])
            w.writerows(h.edges())


def describe(h: Hierarchy) -> dict[str, int | str]:
    """Size figures of a hierarchy for a summary line."""
    per_level: dict[int, int] = defaultdict(int)
    for i in range(h.size):
        if not h.is_leaf(i):
            per_level[h.depth[i]] += 1
    return {
        "nodes": h.size,
        "leaves": h.n_leaves,
        "height": h.height(),
        "root": h.labels[0],
        "internal nodes per level": " / ".join(str(per_level[d]) for d in sorted(per_level)),
    }
