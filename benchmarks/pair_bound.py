"""How many frequent pairs any hierarchy could leave exact under k^m-anonymity (m=2, global
recoding): the bound behind issue 17's frequent-pairs figure.

Among the frequent items (support >= --minsup of the transactions), a pair that meets in 1..k-1
transactions forces one of its items to be generalized. The items that may all stay leaves form
an independent set of that "bad pair" graph; a greedy one (fewest bad partners first) shows how
many frequent pairs could keep both items as leaves, and so be counted exactly.

    python benchmarks/pair_bound.py ../shared/data/bms-webview-2.spmf.txt --k 10 --minsup 0.002
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from setanon_sql import open_store  # noqa: E402
from setanon_sql.store.database import qualified  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("source")
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--minsup", type=float, default=0.002)
    args = p.parse_args()
    store, _ = open_store(args.source)
    try:
        assert store.dataset is not None
        raw = qualified(store.dataset.schema, "tx_raw")
        n = store.scalar(f"SELECT count(DISTINCT tid) FROM {raw}")
        minsup = math.ceil(args.minsup * n)
        pairs = store.query(
            f"WITH f AS (SELECT tid, label FROM {raw} WHERE label IN "
            f"(SELECT label FROM {raw} GROUP BY label HAVING count(*) >= $m)) "
            "SELECT a.label, b.label, count(*) FROM f AS a JOIN f AS b "
            "ON a.tid = b.tid AND a.label < b.label GROUP BY ALL",
            {"m": minsup},
        )
        items = [
            r[0]
            for r in store.query(
                f"SELECT label FROM {raw} GROUP BY label HAVING count(*) >= $m", {"m": minsup}
            )
        ]
    finally:
        store.close()
    bad: dict[str, set[str]] = defaultdict(set)
    frequent = []
    for a, b, s in pairs:
        if s < args.k:
            bad[a].add(b)
            bad[b].add(a)
        if s >= minsup:
            frequent.append((a, b))
    keep: set[str] = set()
    left = set(items)
    while left:
        x = min(left, key=lambda i: (len(bad[i] & left), i))
        keep.add(x)
        left -= bad[x] | {x}
    all_pairs = len(items) * (len(items) - 1) // 2
    n_bad = sum(len(v) for v in bad.values()) // 2
    exact = sum(1 for a, b in frequent if a in keep and b in keep)
    print(f"transactions {n}, minimum support {minsup}, frequent items {len(items)}")
    print(f"pairs of frequent items meeting 1..{args.k - 1} times: {n_bad} of {all_pairs}")
    print(f"frequent pairs {len(frequent)}; both items can stay leaves for {exact}")
    print(f"(greedy independent set of {len(keep)} items)")


if __name__ == "__main__":
    main()
