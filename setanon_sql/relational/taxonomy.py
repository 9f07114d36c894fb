"""Taxonomies of quasi-identifier columns: read, built from specs, checked against the data.

A taxonomy is a `hierarchy.Hierarchy` whose leaves are a column's values (as text). Besides a
child,parent file it can be given as a laminar family of named value sets, or built for a
numeric column from nested bin edges, nested bin widths or a fan-out over the sorted values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from ..errors import HierarchyError
from ..store import hierarchy
from ..store.hierarchy import ROOT_LABEL, Hierarchy

TaxonomySpec = str | Path | Hierarchy | Sequence[tuple[str, str]] | Mapping[str, Iterable[str]]
"""A file path; "suppress"; "fanout:F"; "widths:W1,W2,..."; "edges:E,E,...;E,..." (finest level
first); "median" or "median:N" (data-driven: the cuts Mondrian would choose, see
`intervals_by_median`); a Hierarchy; (child, parent) pairs; or {node label: its leaf values}."""

CostMeasure = Callable[[Hierarchy, int], float]
"""Cost of generalizing to a node: 0 at a leaf, 1 at the root, monotone along every path."""


def lm_cost(tree: Hierarchy, node: int) -> float:
    """Loss metric: (leaves under the node - 1) / (all leaves - 1)."""
    n = tree.n_leaves
    return (tree.leaf_count[node] - 1) / (n - 1) if n > 1 else 0.0


MEASURES: dict[str, CostMeasure] = {"lm": lm_cost}


def measure(name_or_fn: str | CostMeasure) -> CostMeasure:
    """The cost measure named (or given as a function), so other measures plug in."""
    if callable(name_or_fn):
        return name_or_fn
    try:
        return MEASURES[name_or_fn.lower()]
    except KeyError:
        raise HierarchyError(
            f"unknown cost measure {name_or_fn!r}; known: {', '.join(sorted(MEASURES))}"
        ) from None


@dataclass(frozen=True)
class Attribute:
    """One quasi-identifier column with its taxonomy."""

    column: str
    tree: Hierarchy


def build(
    column: str,
    spec: TaxonomySpec | None,
    values: Sequence[str],
    counts: Sequence[int] | None = None,
    *,
    encoding: str | None = None,
) -> Hierarchy:
    """The taxonomy of `column` from its spec, checked to cover exactly the data's values
    (`counts`: rows per value, which data-driven intervals need; one each when not given; a
    taxonomy file is read in `encoding`, UTF-8 unless given)."""
    tree = _from_spec(column, spec, values, counts or [1] * len(values), encoding)
    check_values(column, tree, values)
    return tree


def _from_spec(
    column: str,
    spec: TaxonomySpec | None,
    values: Sequence[str],
    counts: Sequence[int],
    encoding: str | None,
) -> Hierarchy:
    source = f"taxonomy of column {column!r}"
    if spec is None:
        raise HierarchyError(f"no taxonomy for quasi-identifier column {column!r}")
    if isinstance(spec, Hierarchy):
        return spec
    if isinstance(spec, Mapping):
        return from_sets(spec, values, source=source)
    if isinstance(spec, (list, tuple)):
        return hierarchy.from_edges(spec, source=source)
    text = str(spec)
    kind, _, arg = text.partition(":")
    kind = kind.strip().lower()
    if kind == "suppress" and not arg:
        return suppression(values, source=source)
    if kind == "median":
        least = _int(arg, source) if arg else 1
        weights = dict(zip(values, counts, strict=True))
        numbers = _numeric_values(column, values)
        return intervals_by_median(numbers, [weights[t] for _, t in numbers], least, source=source)
    if kind in ("fanout", "widths", "edges") and arg:
        numbers = _numeric_values(column, values)
        if kind == "fanout":
            return intervals_by_fanout(numbers, _int(arg, source), source=source)
        if kind == "widths":
            return intervals_by_widths(numbers, _decimals(arg, source), source=source)
        levels = [_decimals(level, source) for level in arg.split(";")]
        return intervals_by_edges(numbers, levels, source=source)
    return hierarchy.read(Path(text), encoding=encoding, option="--encoding")


def spec_files(specs: Iterable[TaxonomySpec | None]) -> list[Path]:
    """The files these taxonomies are read from (absolute), which a run records as read."""
    return [
        Path(spec).resolve()
        for spec in specs
        if isinstance(spec, (str, Path)) and Path(spec).is_file()
    ]


def check_values(column: str, tree: Hierarchy, values: Sequence[str]) -> None:
    """Every value of the data must be a leaf of its column's taxonomy."""
    ids = tree.id_of()
    missing = [v for v in values if v not in ids]
    if missing:
        shown = ", ".join(repr(v) for v in missing[:10])
        raise HierarchyError(
            f"column {column!r}: {len(missing)} value(s) of the data are not in its taxonomy: {shown}"
        )
    inner = [v for v in values if not tree.is_leaf(ids[v])]
    if inner:
        shown = ", ".join(repr(v) for v in inner[:10])
        raise HierarchyError(
            f"column {column!r}: value(s) of the data are internal nodes of its taxonomy: {shown}"
        )


def suppression(values: Iterable[str], *, source: str = "taxonomy") -> Hierarchy:
    """Every value directly under the root: generalizing means suppressing."""
    return hierarchy.from_edges(((v, ROOT_LABEL) for v in sorted(set(values))), source=source)


def from_sets(
    sets: Mapping[str, Iterable[str]], values: Iterable[str], *, source: str = "taxonomy"
) -> Hierarchy:
    """A taxonomy from named sets of values; they must be laminar (nested or disjoint)."""
    family = {name: frozenset(members) for name, members in sets.items()}
    names = sorted(family, key=lambda s: (-len(family[s]), s))
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            overlap = family[a] & family[b]
            if overlap and not family[b] <= family[a]:
                raise HierarchyError(
                    f"{source}: sets {a!r} and {b!r} overlap without one containing the other "
                    f"(common: {', '.join(sorted(overlap)[:5])}); a taxonomy must be laminar"
                )
            if family[a] == family[b]:
                raise HierarchyError(f"{source}: sets {a!r} and {b!r} hold the same values")
    leaves = set(values).union(*family.values())
    edges = []
    for node, members in [(v, frozenset([v])) for v in sorted(leaves)] + [
        (s, family[s]) for s in names
    ]:
        if node in family and node in leaves:
            raise HierarchyError(f"{source}: {node!r} names both a set and a value")
        supersets = [s for s in names if s != node and members < family[s]]
        smallest = min(supersets, key=lambda s: (len(family[s]), s)) if supersets else None
        if smallest is None and node in family and family[node] == leaves:
            continue  # this set is the root
        edges.append((node, smallest or _root_of(family, leaves)))
    return hierarchy.from_edges(edges, source=source)


def _root_of(family: Mapping[str, frozenset[str]], leaves: set[str]) -> str:
    whole = [s for s, m in family.items() if m == leaves]
    return whole[0] if whole else ROOT_LABEL


# -- numeric columns ------------------------------------------------------------------------------
def _int(text: str, source: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise HierarchyError(f"{source}: expected a whole number, got {text!r}") from None


def _decimals(text: str, source: str) -> list[Decimal]:
    try:
        out = [Decimal(x.strip()) for x in text.split(",") if x.strip()]
    except InvalidOperation:
        raise HierarchyError(
            f"{source}: expected numbers separated by commas, got {text!r}"
        ) from None
    if not out or any(not x.is_finite() for x in out):
        raise HierarchyError(f"{source}: expected numbers separated by commas, got {text!r}")
    return out


def _numeric_values(column: str, values: Iterable[str]) -> list[tuple[Decimal, str]]:
    """The column's values as (number, text), sorted by number."""
    out, bad = [], []
    for v in set(values):
        try:
            out.append((Decimal(v), v))
        except InvalidOperation:
            bad.append(v)
    if bad or any(not d.is_finite() for d, _ in out):
        shown = ", ".join(repr(b) for b in sorted(bad)[:5])
        raise HierarchyError(
            f"column {column!r} is not numeric (values {shown}): give a taxonomy file"
        )
    return sorted(out)


def _nest(levels: list[list[list[str]]], values: list[str], *, source: str) -> Hierarchy:
    """Edges leaf -> interval -> coarser interval -> root from partitions of the sorted values
    into runs, finest level first; an interval equal to its only child is skipped."""
    edges: list[tuple[str, str]] = []
    below = [(v, 1) for v in values]  # (label, number of values covered)
    for level in levels:
        here, pos = [], 0
        for group in level:
            kids, covered = [], 0
            while covered < len(group):
                label, size = below[pos]
                kids.append(label)
                covered += size
                pos += 1
            if len(kids) == 1:
                here.append((kids[0], covered))
                continue
            label = f"[{group[0]}..{group[-1]}]"
            edges.extend((kid, label) for kid in kids)
            here.append((label, covered))
        below = here
    edges.extend((label, ROOT_LABEL) for label, _ in below)
    return hierarchy.from_edges(edges, source=source)


def _partition(values: list[tuple[Decimal, str]], cuts: Sequence[Decimal]) -> list[list[str]]:
    groups: list[list[str]] = []
    current: list[str] = []
    idx = 0
    for number, text in values:
        while idx < len(cuts) and number >= cuts[idx]:
            idx += 1
            if current:
                groups.append(current)
                current = []
        current.append(text)
    if current:
        groups.append(current)
    return groups


def intervals_by_edges(
    values: list[tuple[Decimal, str]], levels: Sequence[Sequence[Decimal]], *, source: str
) -> Hierarchy:
    """Intervals [e_i, e_i+1) per level, finest first; every coarser edge must be a finer one."""
    for finer, coarser in zip(levels, levels[1:], strict=False):
        stray = sorted(set(coarser) - set(finer))
        if stray:
            raise HierarchyError(
                f"{source}: bin edges {', '.join(map(str, stray))} of a coarser level are not "
                "edges of the finer level below it, so the intervals are not laminar"
            )
    parts = [_partition(values, sorted(set(level))) for level in levels]
    return _nest(parts, [t for _, t in values], source=source)


def intervals_by_widths(
    values: list[tuple[Decimal, str]], widths: Sequence[Decimal], *, source: str
) -> Hierarchy:
    """Bins of each width aligned at 0, finest first; each width must divide the next."""
    for w in widths:
        if w <= 0:
            raise HierarchyError(f"{source}: bin widths must be positive, got {w}")
    for a, b in zip(widths, widths[1:], strict=False):
        if b % a != 0:
            raise HierarchyError(
                f"{source}: width {b} is not a multiple of width {a}, so the bins are not laminar"
            )
    lo, hi = values[0][0], values[-1][0]
    levels = []
    for w in widths:
        start = math.floor(lo / w) * w
        count = int((hi - start) // w) + 1
        levels.append([start + i * w for i in range(1, count + 1)])
    return _nest(
        [_partition(values, cuts) for cuts in levels], [t for _, t in values], source=source
    )


def intervals_by_fanout(
    values: list[tuple[Decimal, str]], fanout: int, *, source: str
) -> Hierarchy:
    """A balanced tree over the sorted values: runs of `fanout` siblings, level by level."""
    if fanout < 2:
        raise HierarchyError(f"{source}: fan-out must be >= 2, got {fanout}")
    texts = [t for _, t in values]
    levels: list[list[list[str]]] = []
    groups = [[t] for t in texts]
    while len(groups) > fanout:
        groups = [
            [x for g in groups[i : i + fanout] for x in g] for i in range(0, len(groups), fanout)
        ]
        levels.append(groups)
    return _nest(levels, texts, source=source)


def intervals_by_median(
    values: list[tuple[Decimal, str]], counts: Sequence[int], least: int = 1, *, source: str
) -> Hierarchy:
    """Data-driven intervals: the sorted values cut in two at the weighted median, recursively,
    as Mondrian cuts a numeric column (so dense ranges get narrow intervals); a range is not cut
    when a side would hold fewer than `least` rows (its values hang directly under it: a class
    of k rows never generalizes to an interval of fewer than k rows, so `least` = k loses
    nothing and keeps the tree small)."""
    if least < 1:
        raise HierarchyError(f"{source}: the least rows per interval must be >= 1, got {least}")
    texts = [t for _, t in values]
    prefix = [0]
    for c in counts:
        prefix.append(prefix[-1] + c)
    edges: list[tuple[str, str]] = []

    def label(lo: int, hi: int) -> str:
        return ROOT_LABEL if (lo, hi) == (0, len(texts)) else f"[{texts[lo]}..{texts[hi - 1]}]"

    def cut(lo: int, hi: int) -> int | None:
        """The cut nearest the weighted median of values lo..hi-1 leaving >= least rows a side."""
        half = (prefix[lo] + prefix[hi]) / 2
        ok = [
            m
            for m in range(lo + 1, hi)
            if min(prefix[m] - prefix[lo], prefix[hi] - prefix[m]) >= least
        ]
        return min(ok, key=lambda m: (abs(prefix[m] - half), m)) if ok else None

    stack = [(0, len(texts))]
    while stack:
        lo, hi = stack.pop()
        parent = label(lo, hi)
        m = cut(lo, hi) if hi - lo > 1 else None
        if m is None:
            edges.extend((texts[i], parent) for i in range(lo, hi) if texts[i] != parent)
            continue
        for a, b in ((lo, m), (m, hi)):
            edges.append((texts[a] if b - a == 1 else label(a, b), parent))
            if b - a > 1:
                stack.append((a, b))
    return hierarchy.from_edges(edges, source=source)
