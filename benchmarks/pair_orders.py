"""Issue 17's pair-aimed hierarchy candidates, measured against the support order.

Each candidate groups the leaves `fanout` by `fanout` (upper levels by summed support, like
`--order support`), is written as a child,parent CSV, and is swept with one whole-process
`setanon sweep -H ... --json` (AA m=2 and Partition, k=10). Supports and pair co-occurrence
counts come from one SQL statement each; Python only decides the grouping. Candidates:

- support:  the shipped `--order support` grouping (the reference);
- spread:   within each window of fanout^2 items in support order, each item joins the group
            it co-occurs least with, so frequent pairs do not collapse into one node;
- together: each group is an item and its fanout-1 strongest co-occurring partners left;
- safe:     items with no more frequent partner of co-support 1..k-1 first (AA has no pair
            to fix on them), then the rest, each part in support order.

    python benchmarks/pair_orders.py ../shared/data/bms-webview-2.spmf.txt --fanout 4
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from setanon_sql import open_store  # noqa: E402
from setanon_sql.store.database import qualified  # noqa: E402
from setanon_sql.store.hierarchy import ROOT_LABEL, from_edges, natural_key, write_csv  # noqa: E402

Counts = dict[str, dict[str, int]]
Grouping = Callable[[list[str], dict[str, int], Counts, int, int], list[list[str]]]


def counts(source: str) -> tuple[dict[str, int], Counts]:
    """Item supports and every co-occurring pair's support (one statement each)."""
    store, _ = open_store(source)
    try:
        assert store.dataset is not None
        raw = qualified(store.dataset.schema, "tx_raw")
        supports = dict(store.query(f"SELECT label, count(DISTINCT tid) FROM {raw} GROUP BY label"))
        rows = store.query(
            f"SELECT a.label, b.label, count(*) FROM {raw} AS a JOIN {raw} AS b "
            "ON a.tid = b.tid AND a.label < b.label GROUP BY a.label, b.label",
            step="pair_counts",
        )
    finally:
        store.close()
    co: Counts = defaultdict(dict)
    for a, b, c in rows:
        co[a][b] = co[b][a] = c
    return supports, co


def support_groups(order: list[str], sup: dict[str, int], co: Counts, f: int, k: int):
    return [order[i : i + f] for i in range(0, len(order), f)]


def spread_groups(order: list[str], sup: dict[str, int], co: Counts, f: int, k: int):
    groups: list[list[str]] = []
    for w in range(0, len(order), f * f):
        window = order[w : w + f * f]
        slots: list[list[str]] = [[] for _ in range(min(f, len(window)))]
        cap = -(-len(window) // len(slots))
        for x in window:
            free = [i for i in range(len(slots)) if len(slots[i]) < cap]
            best = min(free, key=lambda i: (sum(co[x].get(y, 0) for y in slots[i]), i))
            slots[best].append(x)
        groups += [s for s in slots if s]
    return groups


def together_groups(order: list[str], sup: dict[str, int], co: Counts, f: int, k: int):
    rank = {x: i for i, x in enumerate(order)}
    left, groups = set(order), []
    for x in order:
        if x not in left:
            continue
        partners = sorted((y for y in co[x] if y in left and y != x), key=lambda y: -co[x][y])
        group = [x] + sorted(partners[: f - 1], key=rank.__getitem__)
        left -= set(group)
        groups.append(group)
    return groups


def safe_groups(order: list[str], sup: dict[str, int], co: Counts, f: int, k: int):
    rank = {x: i for i, x in enumerate(order)}
    unsafe = {
        x
        for x in order
        if sup[x] < k or any(1 <= c < k and rank[y] < rank[x] for y, c in co[x].items())
    }
    ranked = [x for x in order if x not in unsafe] + [x for x in order if x in unsafe]
    return support_groups(ranked, sup, co, f, k)


CANDIDATES: dict[str, Grouping] = {
    "support": support_groups,
    "spread": spread_groups,
    "together": together_groups,
    "safe": safe_groups,
}


def tree_edges(groups: Sequence[list[str]], sup: dict[str, int], f: int) -> list[tuple[str, str]]:
    """Leaf groups under fresh nodes, then level by level `f` by `f` by summed support."""
    edges: list[tuple[str, str]] = []
    level: list[tuple[str, int]] = []
    for n, g in enumerate(groups):
        if len(g) == 1:
            level.append((g[0], sup[g[0]]))
            continue
        edges += [(x, f"g{n}") for x in g]
        level.append((f"g{n}", sum(sup[x] for x in g)))
    depth = 0
    while len(level) > f:
        depth += 1
        level.sort(key=lambda t: (-t[1], t[0]))
        nxt = []
        for i in range(0, len(level), f):
            part = level[i : i + f]
            label = f"u{depth}_{i // f}"
            edges += [(c, label) for c, _ in part]
            nxt.append((label, sum(s for _, s in part)))
        level = nxt
    return edges + [(c, ROOT_LABEL) for c, _ in level]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("source")
    p.add_argument("--fanout", type=int, default=4)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--algorithm", default="aa,partition")
    p.add_argument("--queries", type=int, default=2000)
    p.add_argument("--minsup", type=float, default=0.001)
    p.add_argument("--candidates", default=",".join(CANDIDATES))
    args = p.parse_args()
    sup, co = counts(args.source)
    order = sorted(sup, key=lambda label: (-sup[label], natural_key(label)))
    names = args.candidates.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for name in names:
            groups = CANDIDATES[name](order, sup, co, args.fanout, args.k)
            assert sorted(x for g in groups for x in g) == sorted(order), name
            path = Path(tmp) / f"{name}.csv"
            write_csv(from_edges(tree_edges(groups, sup, args.fanout)), path)
            files.append(str(path))
        cmd = [sys.executable, "-m", "setanon_sql", "sweep", args.source, "-H", ",".join(files)]
        cmd += ["-a", args.algorithm, "-k", str(args.k), "-m", "2", "--json"]
        cmd += ["--queries", str(args.queries), "--targets", "200", "--minsup", str(args.minsup)]
        rows = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    print("order      algorithm  NCP %   ARE1 %  ARE2 %  freq1 %  freq2 %  verified")
    for row in rows:
        name = names[int(row["run"].rsplit("_h", 1)[1]) - 1]
        figures = [row[c] * 100 for c in ("ncp", "are_1", "are_2", "frequent_are_1")]
        figures.append(row["frequent_are_2"] * 100)
        print(f"{name:<10} {row['algorithm']:<10}", *(f"{x:6.2f}" for x in figures), end="")
        print(f"  {row['promise_holds']}")


if __name__ == "__main__":
    main()
