"""How far OA (the exact optimum over cuts) reaches on BMS-WebView-2: the largest prefix of its
most frequent items that OA solves within a time limit, and there AA's and DA's NCP against
the optimum (issue 13).

A prefix of N items keeps, of every transaction, the items among the N most frequent (support
descending, then id); transactions left empty are dropped. The hierarchy is the shipped one cut
down to those N leaves, with every internal node left with a single child replaced by that
child (it would generalize nothing). Each run is its own process; OA gets `--limit` seconds.
N grows by `--step` until OA fails, then the gap is bisected. Example:

    python benchmarks/oa_reach.py --k 10 --m 2 --limit 60
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def read_wv2() -> tuple[list[list[str]], list[list[str]]]:
    """WV2's transactions (item labels) and hierarchy paths (leaf first, root last)."""
    lines = (DATA / "bms-webview-2.spmf.txt").read_text().splitlines()
    txs = [[x for x in line.split() if x not in ("-1", "-2")] for line in lines if line.strip()]
    paths = []
    for line in (DATA / "bms-webview-2.hierarchy.txt").read_text().splitlines():
        path: list[str] = []
        for node in line.strip().split(";"):
            if not path or path[-1] != node:  # collapse the file's padding repeats
                path.append(node)
        paths.append(path)
    return txs, paths


def prefix(n: int) -> tuple[list[list[str]], list[tuple[str, str]]]:
    """The transactions and hierarchy edges of the n most frequent items."""
    txs, paths = read_wv2()
    support = Counter(x for t in txs for x in set(t))
    kept = set(sorted(support, key=lambda x: (-support[x], int(x)))[:n])
    cut_txs = [sorted(set(t) & kept) for t in txs]
    parent: dict[str, str] = {}
    for path in paths:
        if path[0] in kept:
            parent.update(zip(path, path[1:], strict=False))
    children = Counter(parent.values())
    for node in list(parent):  # replace single-child internal nodes by their child
        up = parent[node]
        while children[up] == 1 and up in parent:
            up = parent[up]
        parent[node] = up
    reachable = {n for n in parent if n in kept or children[n] > 1}
    edges = [(c, p) for c, p in parent.items() if c in reachable]
    return [t for t in cut_txs if t], edges


def single(n: int, algorithm: str, k: int, m: int, options: dict) -> dict:
    """One run in this process."""
    sys.path.insert(0, str(ROOT))
    from setanon_sql import HierarchySpec, Params, anonymize, open_store

    txs, edges = prefix(n)
    store, _ = open_store(txs, hierarchy_spec=HierarchySpec(edges=tuple(edges)))
    cpu = time.process_time()
    result = anonymize(store, Params(algorithm=algorithm, k=k, m=m, options=options))
    return {
        "n": n,
        "algorithm": algorithm,
        "transactions": len(txs),
        "run_s": round(result.seconds, 2),
        "cpu_s": round(time.process_time() - cpu, 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "ncp_pct": 100 * result.loss["ncp"],
        **{f"info_{a}": b for a, b in result.info.items() if isinstance(b, (int, float))},
    }


def measure(n: int, algorithm: str, args: argparse.Namespace, options: dict) -> dict:
    """One run in its own process, stopped after args.limit seconds."""
    cmd = [sys.executable, __file__, "--single", str(n), "--algorithm", algorithm]
    cmd += ["--k", str(args.k), "--m", str(args.m), "--options", json.dumps(options)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.limit)
    except subprocess.TimeoutExpired:
        return {"n": n, "error": f"over {args.limit} s"}
    if done.returncode:
        return {"n": n, "error": (done.stderr.strip().splitlines() or ["?"])[-1][:80]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--m", type=int, default=2)
    p.add_argument("--limit", type=float, default=60.0, help="seconds OA may take")
    p.add_argument("--start", type=int, default=10)
    p.add_argument("--step", type=int, default=10)
    p.add_argument("--single", type=int, help=argparse.SUPPRESS)
    p.add_argument("--algorithm", default="oa", help=argparse.SUPPRESS)
    p.add_argument("--options", default="{}", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.single is not None:
        print(
            json.dumps(
                single(args.single, args.algorithm, args.k, args.m, json.loads(args.options))
            )
        )
        return
    oa_options = {"max_cuts": 10**15, "max_itemsets": 10**10}
    solved: dict[int, dict] = {}

    def solves(n: int) -> bool:
        row = measure(n, "oa", args, oa_options)
        print(json.dumps(row), flush=True)
        if "error" not in row:
            solved[n] = row
        return "error" not in row

    failed = args.start
    while solves(failed):
        failed += args.step
    lo = max(solved, default=0)
    while failed - lo > 1:  # bisect: lo is solved, failed is not
        mid = (lo + failed) // 2
        lo, failed = (mid, failed) if solves(mid) else (lo, mid)
    print(f"\nOA within {args.limit:g} s at k={args.k}, m={args.m}: largest prefix {lo} items")
    print(
        "| items | transactions | cuts | OA NCP % | OA s | AA/OA | AA+spec/OA | DA/OA | DA+spec/OA |"
    )
    print("|" + "---|" * 9)
    for size in sorted(solved, reverse=True)[:4]:
        oa = solved[size]
        aa = measure(size, "aa", args, {"specialize": True})
        da = measure(size, "da", args, {"specialize": True})
        cells = [size, oa["transactions"], oa["info_cuts"], f"{oa['ncp_pct']:.3f}", oa["run_s"]]
        for row in (aa, da):
            if "error" in row:
                cells += [row["error"]] * 2
                continue
            before = 100 * row["info_cut_ncp_before_specialize"]
            cells += [_ratio(before, oa["ncp_pct"]), _ratio(row["ncp_pct"], oa["ncp_pct"])]
        print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)


def _ratio(ncp: float, optimum: float) -> str:
    return f"{ncp / optimum:.3f}" if optimum else ("1 (0 = 0)" if ncp == 0 else "inf")


if __name__ == "__main__":
    main()
