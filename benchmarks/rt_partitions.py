"""How low can the relational NCP of (k, k^m) classes of at least s rows go on Adult (issue 41)?

The (k, k^m) target on adult_wv2_rt.csv needs classes of about 1,000 rows for the items (item
NCP 0.104 at --class-size 1000) and relational NCP <= 0.32 on them; k-ANON-CF gives 0.400 there.
This measures, on the loaded table's combinations of QI values (the package's loader and
taxonomies, the release's cost: per QI the LM cost of the node closing a class's leaves):

    floor           a lower bound no partition into classes of >= s rows can beat: a row's
                    class is closed by a generalization (a node per QI) holding the class, so
                    >= s rows of the table; every row costs at least the cheapest such
                    generalization above it (found by a walk over every generalization holding
                    >= s rows).
    lagrangian      a higher floor: such a partition has at most rows // s classes, so at most
                    that many closures; a Lagrangian relaxation of choosing them (see
                    `lagrangian_floor`); also below every partition into classes of >= s rows.
    mondrian-gain   Mondrian's binary cuts, top-down: a part is cut in two along one QI's leaf
                    order (preorder: a taxonomy's branches are ranges of it, a numeric QI's
                    values in order), both sides >= s rows, at the cut lowering the loss on the
                    cut QI most (ties: the most even; as `rt_cuts` weighs its cuts); parts no
                    cut splits are the classes.
    mondrian-all    the same, the cut lowering the loss on all QIs together most (a cut along
                    one QI may narrow the others' closures too).
    mondrian-median strict Mondrian: the QI of the costliest closure, cut at its row-weighted
                    median (the cut nearest it leaving >= s rows a side).

Relational only: on this data the item loss depends on the class sizes alone (the pages are
paired with the rows at random). Python over the ~18,000 combinations, not the engine: a
measurement, not a release. Example:

    python benchmarks/rt_partitions.py --size 500 700 1000 1500
    python benchmarks/rt_partitions.py --size 1000 --method lagrangian --rounds 300 --upper 0.4
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from setanon_sql.store.hierarchy import preorder_children

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
TAX = ROOT / "examples" / "adult"
QI = ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
      "native-country"]  # fmt: skip


@dataclass(frozen=True)
class Table:
    """Rows as combinations of leaves (one per QI) with their row counts, and the QIs' trees
    as preorder arrays: `last[a][n]` the last node under n, `parent[a][n]`, `cost[a][n]`."""

    weight: Sequence[int]
    leaves: Sequence[Sequence[int]]
    last: Sequence[Sequence[int]]
    parent: Sequence[Sequence[int]]
    cost: Sequence[Sequence[float]]

    @property
    def rows(self) -> int:
        return sum(self.weight)


def closure(last: Sequence[int], parent: Sequence[int], lo: int, hi: int) -> int:
    """The deepest node whose preorder interval holds leaves lo..hi."""
    node = lo
    while not (node <= lo and last[node] >= hi):
        node = parent[node]
    return node


def class_cost(t: Table, members: Sequence[int]) -> float:
    """The loss of one class: rows times the mean over QIs of its closure's cost."""
    total = 0.0
    for a in range(len(t.cost)):
        vals = [t.leaves[i][a] for i in members]
        total += t.cost[a][closure(t.last[a], t.parent[a], min(vals), max(vals))]
    return sum(t.weight[i] for i in members) * total / len(t.cost)


def relational_ncp(t: Table, classes: Sequence[Sequence[int]]) -> float:
    """The release's relational NCP: every row at its class's closure, averaged."""
    return sum(class_cost(t, c) for c in classes) / t.rows


@dataclass(frozen=True)
class Generalizations:
    """Every generalization (a node per QI) holding >= size rows, as flat entries: the
    combination `row[e]` lies under the generalization `gen[e]`, whose cost is `cost[gen[e]]`
    (the mean over QIs of its nodes' costs: a class it closes costs that per row)."""

    cost: np.ndarray
    row: np.ndarray
    gen: np.ndarray


def generalizations(t: Table, size: int) -> Generalizations:
    """Walk down from the root, refining one QI to a child at a time (QIs in order, so each
    generalization is met once), keeping those that hold >= size rows: the others' refinements
    hold fewer still."""
    attrs = len(t.cost)
    leaves, weight = np.array(t.leaves, dtype=np.int64), np.array(t.weight, dtype=np.int64)
    costs: list[float] = []
    members: list[np.ndarray] = []

    def walk(under: np.ndarray, nodes: list[int], start: int, cost: float) -> None:
        costs.append(cost)
        members.append(under)
        for a in range(start, attrs):
            for child in preorder_children(t.last[a], nodes[a]):
                inside = (leaves[under, a] >= child) & (leaves[under, a] <= t.last[a][child])
                if weight[under[inside]].sum() >= size:
                    step = (t.cost[a][child] - t.cost[a][nodes[a]]) / attrs
                    walk(under[inside], [*nodes[:a], child, *nodes[a + 1 :]], a, cost + step)

    walk(np.arange(len(t.weight)), [0] * attrs, 0, sum(c[0] for c in t.cost) / attrs)
    sizes = [len(m) for m in members]
    return Generalizations(
        np.array(costs), np.concatenate(members),
        np.repeat(np.arange(len(costs)), sizes),
    )  # fmt: skip


def floor(t: Table, size: int, g: Generalizations | None = None) -> float:
    """The relational NCP no partition into classes of >= size rows goes below: every row
    costs at least the cheapest generalization above it holding >= size rows."""
    g = g or generalizations(t, size)
    best = np.ones(len(t.weight))
    np.minimum.at(best, g.row, g.cost[g.gen])
    return float((best * np.array(t.weight)).sum() / t.rows)


def lagrangian_floor(
    t: Table, size: int, rounds: int = 300, upper: float = 0.4, g: Generalizations | None = None
) -> float:
    """A higher floor, using that a partition into classes of >= size rows has at most
    P = rows // size classes: their closures are at most P generalizations of the walk, every
    row under one of them and costing its cost. Relaxing "every row under exactly one open
    generalization" with a price u per row gives, for every u, a value no partition goes below:

        L(u) = sum_r w_r u_r + (sum of the P most negative v_g),
        v_g = sum over rows r under g of w_r min(0, cost_g - u_r);

    the prices start at each row's cheapest cost (L = `floor`) and climb by subgradient steps
    (Polyak's, towards `upper`, a relational NCP some release reached: it only sets the step).
    The best L over the rounds."""
    g = g or generalizations(t, size)
    w = np.array(t.weight, dtype=float)
    opened = min(t.rows // size, len(g.cost))
    entry_cost, entry_w = g.cost[g.gen], w[g.row]
    u = np.ones(len(w))
    np.minimum.at(u, g.row, entry_cost)
    best, theta, stall = -np.inf, 1.0, 0
    for _ in range(rounds):
        v = np.bincount(g.gen, weights=entry_w * np.minimum(0.0, entry_cost - u[g.row]),
                        minlength=len(g.cost))  # fmt: skip
        chosen = np.argpartition(v, opened - 1)[:opened]
        value = float((w * u).sum() + v[chosen].sum())
        if value > best + 1e-12:
            best, stall = value, 0
        else:
            stall += 1
            if stall >= 10:
                theta, stall = theta / 2, 0
        open_ = np.zeros(len(g.cost), dtype=bool)
        open_[chosen[v[chosen] < 0]] = True
        used = open_[g.gen] & (entry_cost < u[g.row])
        grad = w * (1 - np.bincount(g.row[used], minlength=len(w)))
        norm = float((grad * grad).sum())
        if norm == 0:
            break
        u = u + theta * max(upper * t.rows - value, 0.0) / norm * grad
    return best / t.rows


Split = tuple[int, int]  # (attribute, last leaf of the left side)
Chooser = Callable[[Table, list[int], int], "Split | None"]


def _cuts(t: Table, part: list[int], a: int, size: int) -> list[tuple[int, int, list[int]]]:
    """Every cut of `part` along attribute a leaving >= size rows a side: (last leaf of the
    left side, its rows, the part's leaves in order)."""
    rows: dict[int, int] = {}
    for i in part:
        rows[t.leaves[i][a]] = rows.get(t.leaves[i][a], 0) + t.weight[i]
    order = sorted(rows)
    total, left, out = sum(rows.values()), 0, []
    for leaf in order[:-1]:
        left += rows[leaf]
        if left >= size and total - left >= size:
            out.append((leaf, left, order))
    return out


def by_gain(t: Table, part: list[int], size: int) -> Split | None:
    """The cut lowering the loss on the cut attribute most (ties: the most even)."""
    total = sum(t.weight[i] for i in part)
    best: tuple[tuple[float, float], Split] | None = None
    for a in range(len(t.cost)):
        last, parent, cost = t.last[a], t.parent[a], t.cost[a]
        for leaf, left, order in _cuts(t, part, a, size):
            after = next(x for x in order if x > leaf)
            whole = cost[closure(last, parent, order[0], order[-1])]
            lo = cost[closure(last, parent, order[0], leaf)]
            hi = cost[closure(last, parent, after, order[-1])]
            key = (total * whole - left * lo - (total - left) * hi, -abs(2 * left - total))
            if best is None or key > best[0]:
                best = (key, (a, leaf))
    return None if best is None else best[1]


def by_total_gain(t: Table, part: list[int], size: int) -> Split | None:
    """The cut lowering the part's loss on every QI together most (a cut along one QI may also
    narrow the closures of the others); ties: the most even."""
    attrs, total = len(t.cost), sum(t.weight[i] for i in part)
    best: tuple[tuple[float, float], Split] | None = None
    for a in range(attrs):
        ordered = sorted(part, key=lambda i: t.leaves[i][a])
        spans, lo, hi, rows = [], list(t.leaves[ordered[0]]), list(t.leaves[ordered[0]]), 0
        for i in ordered:  # the left side's span after each combination
            lo = [min(x, y) for x, y in zip(lo, t.leaves[i], strict=True)]
            hi = [max(x, y) for x, y in zip(hi, t.leaves[i], strict=True)]
            rows += t.weight[i]
            spans.append((rows, lo, hi))
        right: list[tuple[list[int], list[int]]] = [([], [])] * len(ordered)
        lo, hi = list(t.leaves[ordered[-1]]), list(t.leaves[ordered[-1]])
        for j in range(len(ordered) - 1, -1, -1):
            lo = [min(x, y) for x, y in zip(lo, t.leaves[ordered[j]], strict=True)]
            hi = [max(x, y) for x, y in zip(hi, t.leaves[ordered[j]], strict=True)]
            right[j] = (lo, hi)
        whole = _span_cost(t, spans[-1][1], spans[-1][2])
        for j in range(len(ordered) - 1):
            left, llo, lhi = spans[j]
            if t.leaves[ordered[j]][a] == t.leaves[ordered[j + 1]][a]:
                continue
            if left < size or total - left < size:
                continue
            after = left * _span_cost(t, llo, lhi) + (total - left) * _span_cost(t, *right[j + 1])
            key = (total * whole - after, -abs(2 * left - total))
            if best is None or key > best[0]:
                best = (key, (a, t.leaves[ordered[j]][a]))
    return None if best is None else best[1]


def _span_cost(t: Table, lo: Sequence[int], hi: Sequence[int]) -> float:
    """The mean cost over QIs of the closures of leaves lo..hi."""
    attrs = range(len(t.cost))
    return sum(t.cost[a][closure(t.last[a], t.parent[a], lo[a], hi[a])] for a in attrs) / len(
        t.cost
    )


def by_median(t: Table, part: list[int], size: int) -> Split | None:
    """Strict Mondrian: the attribute of costliest closure that can be cut, at its weighted
    median (the allowed cut nearest it)."""
    total = sum(t.weight[i] for i in part)
    ranked = []
    for a in range(len(t.cost)):
        vals = [t.leaves[i][a] for i in part]
        ranked.append((t.cost[a][closure(t.last[a], t.parent[a], min(vals), max(vals))], -a))
    for _, neg in sorted(ranked, reverse=True):
        cuts = _cuts(t, part, -neg, size)
        if cuts:
            leaf = min(cuts, key=lambda c: abs(2 * c[1] - total))[0]
            return (-neg, leaf)
    return None


def mondrian(t: Table, size: int, choose: Chooser) -> list[list[int]]:
    """Cut the table top-down with `choose` until no part can be cut: the classes (lists of
    combinations). Raises ValueError when the table has fewer than `size` rows."""
    if t.rows < size:
        raise ValueError(f"the table has {t.rows} rows, fewer than a class of {size}")
    open_parts, done = [list(range(len(t.weight)))], []
    while open_parts:
        part = open_parts.pop()
        split = choose(t, part, size)
        if split is None:
            done.append(part)
            continue
        a, leaf = split
        open_parts.append([i for i in part if t.leaves[i][a] <= leaf])
        open_parts.append([i for i in part if t.leaves[i][a] > leaf])
    return done


def load_adult() -> Table:
    """adult_wv2_rt.csv's complete rows, the 8 QIs, as `rt_tradeoff.py` loads them."""
    from setanon_sql import Store
    from setanon_sql.relational.data import load_table
    from setanon_sql.relational.taxonomy import lm_cost, measure

    taxonomies = {"age": "median:10"} | {q: str(TAX / f"{q}.csv") for q in QI[1:]}
    store = Store()
    data = load_table(
        store, str(DATA / "adult_wv2_rt.csv"), qi=QI, taxonomies=taxonomies, drop_missing="?",
        measure=measure("lm"),
    )  # fmt: skip
    combos = store.query("SELECT weight, leaf FROM rel_combo ORDER BY cid")
    return Table(
        [int(w) for w, _ in combos], [list(leaf) for _, leaf in combos],
        [list(tr.last) for tr in data.trees], [list(tr.parent) for tr in data.trees],
        [[lm_cost(tr, n) for n in range(tr.size)] for tr in data.trees],
    )  # fmt: skip


METHODS = {"mondrian-gain": by_gain, "mondrian-all": by_total_gain, "mondrian-median": by_median}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, nargs="+", default=[500, 700, 1000, 1500])
    ap.add_argument("--method", nargs="+", default=["floor", *METHODS],
                    choices=["floor", "lagrangian", *METHODS])  # fmt: skip
    ap.add_argument("--rounds", type=int, default=300, help="Subgradient rounds (lagrangian).")
    ap.add_argument("--upper", type=float, default=0.4,
                    help="A relational NCP some release reached (lagrangian's step only).")  # fmt: skip
    args = ap.parse_args()
    t = load_adult()
    print(f"{t.rows} rows, {len(t.weight)} combinations of QI values")
    print(f"{'s':>5} {'method':16} {'classes':>7} {'rel NCP':>8} {'smallest':>8} {'largest':>8} "
          f"{'CPU s':>6}")  # fmt: skip
    for size in args.size:
        for method in args.method:
            start = time.process_time()
            if method == "floor":
                value, shape = floor(t, size), ("", "", "")
            elif method == "lagrangian":
                value = lagrangian_floor(t, size, args.rounds, args.upper)
                shape = (f"<={t.rows // size}", "", "")
            else:
                classes = mondrian(t, size, METHODS[method])
                value = relational_ncp(t, classes)
                sizes = sorted(sum(t.weight[i] for i in c) for c in classes)
                shape = (str(len(classes)), str(sizes[0]), str(sizes[-1]))
            cpu = time.process_time() - start
            print(f"{size:5d} {method:16} {shape[0]:>7} {value:8.4f} {shape[1]:>8} {shape[2]:>8} "
                  f"{cpu:6.1f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
