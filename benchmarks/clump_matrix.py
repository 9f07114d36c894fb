"""Clump's matrix for issue 13: NCP over item instances and GGD on WV1 (fan-out 5) and WV2.

Each configuration runs `--repeat` times, each in its own process (so peak RSS is its own);
the table gives medians of wall time, CPU time and peak RSS, and the loss (deterministic).
NCP is `instance_loss`: every released copy stands for one original item, items no copy
stands for are suppressed with loss 1. Examples:

    python benchmarks/clump_matrix.py                       # k = 5, 10, 25; runs and greedy
    python benchmarks/clump_matrix.py --k 10 --variant runs --repeat 5
    python benchmarks/clump_matrix.py --variant runs runs-exact-counts  # the order's coarse counts
    python benchmarks/clump_matrix.py --variant '{"passes": 0}'   # any options as JSON
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
VARIANTS = {
    "runs": {},
    "runs-exact-counts": {"coarse": 1},
    "runs-no-exchange": {"passes": 0},
    "greedy": {"method": "greedy"},
}


def one(dataset: str, k: int, options: dict) -> dict:
    """Load, run Clump, measure; this process's figures."""
    sys.path.insert(0, str(ROOT))
    from setanon_sql import HierarchySpec, Params, anonymize, open_store
    from setanon_sql.measure.instance_loss import instance_loss

    if dataset == "wv1":
        source, spec = DATA / "bms-webview-1.spmf.txt", HierarchySpec(fanout=5, order="id")
    else:
        source = DATA / "bms-webview-2.spmf.txt"
        spec = HierarchySpec(path=DATA / "bms-webview-2.hierarchy.txt")
    store, _ = open_store(source, hierarchy_spec=spec)
    wall, cpu = time.perf_counter(), time.process_time()
    result = anonymize(store, Params(algorithm="clump", k=k, options=options))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    with store.in_run(result.run):
        loss = instance_loss(store)
    return {
        "run_s": wall,
        "search_s": result.info["search_s"],
        "cpu_s": cpu,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "ncp_pct": round(100 * loss["ncp"], 2),
        "suppressed": loss["suppressed"],
        "unmatched_copies": loss["unmatched_copies"],
        "ggd": round(result.info["ggd"]),
        "verified": result.report.ok,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dataset", nargs="+", choices=["wv1", "wv2"], default=["wv1", "wv2"])
    p.add_argument("--k", type=int, nargs="+", default=[5, 10, 25])
    p.add_argument("--variant", nargs="+", default=["runs", "greedy"])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--single", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.single:
        dataset, k, options = args.single
        print(json.dumps(one(dataset, int(k), json.loads(options))))
        return
    print(
        "| dataset | k | variant | run_s | search_s | cpu_s | peak_rss_mb | NCP % | suppressed | GGD |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for dataset in args.dataset:
        for k in args.k:
            for variant in args.variant:
                options = VARIANTS[variant] if variant in VARIANTS else json.loads(variant)
                cmd = [sys.executable, __file__, "--single", dataset, str(k), json.dumps(options)]
                runs = [
                    json.loads(
                        subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
                    )
                    for _ in range(args.repeat)
                ]
                med = {
                    f: round(statistics.median(r[f] for r in runs), 2)
                    for f in ("run_s", "search_s", "cpu_s", "peak_rss_mb")
                }
                last = runs[-1]
                assert last["verified"] and last["unmatched_copies"] == 0
                print(
                    f"| {dataset} | {k} | {variant} | {med['run_s']} | {med['search_s']} | "
                    f"{med['cpu_s']} | {med['peak_rss_mb']:.0f} | {last['ncp_pct']} | "
                    f"{last['suppressed']} | {last['ggd']} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
