"""How often AA and DA cost more than the optimal cut (OA) on small random inputs.

Seeded random hierarchies of 3..8 leaves and 4..12 transactions; for each k and m every
algorithm runs (and is verified) and its NCP is compared with OA's. Example:

    python benchmarks/km_vs_optimal.py --instances 200 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def random_instance(rng: random.Random) -> tuple[list[list[str]], list[tuple[str, str]]]:
    """A random tree over leaves i0.. (groups of 1..3 siblings, level by level) and data."""
    level = [f"i{j}" for j in range(rng.randint(3, 8))]
    leaves = list(level)
    edges: list[tuple[str, str]] = []
    while len(level) > 1:
        following, pos = [], 0
        while pos < len(level):
            group = level[pos : pos + rng.randint(2, 3)]
            pos += len(group)
            parent = f"g{len(edges)}"
            edges.extend((child, parent) for child in group)
            following.append(parent)
        level = following
    txs = [
        rng.sample(leaves, rng.randint(1, min(4, len(leaves)))) for _ in range(rng.randint(4, 12))
    ]
    return txs, edges


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--instances", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    sys.path.insert(0, str(ROOT))
    from setanon_sql import HierarchySpec, Params, anonymize, open_store

    rng = random.Random(args.seed)
    runs = 0
    worse = {"aa": 0, "da": 0}
    excess = {"aa": 0.0, "da": 0.0}
    worst = {"aa": 0.0, "da": 0.0}
    for _ in range(args.instances):
        txs, edges = random_instance(rng)
        store, _ = open_store(txs, hierarchy_spec=HierarchySpec(edges=tuple(edges)))
        for m in (1, 2, 3):
            for k in range(2, min(4, len(txs)) + 1):
                ncp = {
                    a: anonymize(store, Params(algorithm=a, k=k, m=m)).loss["ncp"]
                    for a in ("oa", "aa", "da")
                }
                runs += 1
                for a in ("aa", "da"):
                    gap = ncp[a] - ncp["oa"]
                    if gap > 1e-12:
                        worse[a] += 1
                        excess[a] += gap
                        worst[a] = max(worst[a], gap)
        store.close()
    print(f"{runs} runs ({args.instances} instances, m = 1..3, k = 2..4, seed {args.seed})")
    print("| algorithm | costlier than OA | mean NCP excess when costlier | worst excess |")
    print("|---|---|---|---|")
    for a in ("aa", "da"):
        mean = excess[a] / worse[a] if worse[a] else 0.0
        print(
            f"| {a} | {worse[a]} ({100 * worse[a] / runs:.1f} %) | {100 * mean:.2f} pts "
            f"| {100 * worst[a]:.2f} pts |"
        )


if __name__ == "__main__":
    main()
