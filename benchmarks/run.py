"""Benchmark runner: time, peak memory and information loss per dataset and algorithm.

Each configuration runs in its own process so that peak RSS (DuckDB's native memory included)
belongs to that run alone. Examples:

    python benchmarks/run.py --dataset wv2 --algorithm aa --k 10 --m 2
    python benchmarks/run.py --dataset wv1 --fanout 5 --algorithm partition --k 2 5 10
    python benchmarks/run.py --dataset wv2 --replicate 4 --algorithm partition --k 10
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
DATASETS = {
    "wv1": (DATA / "bms-webview-1.spmf.txt", None),
    "wv2": (DATA / "bms-webview-2.spmf.txt", DATA / "bms-webview-2.hierarchy.txt"),
}


def one(args: argparse.Namespace) -> dict:
    """Run a single configuration in this process and return its figures."""
    sys.path.insert(0, str(ROOT))
    from setanon_sql import HierarchySpec, Params, anonymize, open_store

    source, shipped = DATASETS[args.dataset]
    spec = (
        HierarchySpec(fanout=args.fanout, order="id")
        if args.fanout
        else HierarchySpec(path=shipped)
    )
    t0 = time.perf_counter()
    store, _ = open_store(source, hierarchy_spec=spec)
    if args.replicate > 1:
        store.execute(
            "CREATE OR REPLACE TABLE tx AS SELECT r * (SELECT max(tid) + 1 FROM tids) + tid AS tid,"
            " item FROM tx, range($n) AS g(r)",
            {"n": args.replicate},
        )
        store.execute(
            "CREATE OR REPLACE TABLE tids AS SELECT DISTINCT tid, CAST(tid AS VARCHAR) AS label FROM tx"
        )
    load_s = time.perf_counter() - t0
    options = json.loads(args.options) if args.options else {}
    params = Params(algorithm=args.algorithm, k=args.k, m=args.m, options=options)
    cpu0, steal0 = time.process_time(), _steal_ticks()
    result = anonymize(store, params)
    cpu_s, steal = time.process_time() - cpu0, _steal_ticks() - steal0 if steal0 >= 0 else -1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "dataset": args.dataset + (f"x{args.replicate}" if args.replicate > 1 else ""),
        "hierarchy": f"fanout {args.fanout}" if args.fanout else "shipped",
        "algorithm": args.algorithm,
        "k": args.k,
        "m": args.m,
        "load_s": round(load_s, 2),
        "run_s": round(result.seconds, 2),
        "cpu_s": round(cpu_s, 2),
        # CPU time the hypervisor gave to other guests during the run (all cores): when it
        # is large, wall times are inflated and cpu_s is the figure to compare.
        "steal_s": round(steal / os.sysconf("SC_CLK_TCK"), 2) if steal >= 0 else None,
        "peak_rss_mb": round(peak),
        "ncp_pct": round(100 * result.loss["ncp"], 3),
        "lm_pct": round(100 * result.loss["lm"], 3),
        "suppressed": result.loss["suppressed"],
        **{f"info_{k}": v for k, v in result.info.items() if isinstance(v, (int, float, str))},
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dataset", choices=sorted(DATASETS), nargs="+", default=["wv2"])
    p.add_argument("--algorithm", nargs="+", required=True)
    p.add_argument("--k", type=int, nargs="+", default=[10])
    p.add_argument("--m", type=int, nargs="+", default=[None])
    p.add_argument(
        "--fanout",
        type=int,
        nargs="+",
        default=[None],
        help="balanced fan-out hierarchy (default: the shipped one; WV1 needs one)",
    )
    p.add_argument(
        "--replicate",
        type=int,
        nargs="+",
        default=[1],
        help="copy the data N times with fresh tids",
    )
    p.add_argument("--options", default="", help="algorithm options as JSON")
    p.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.single:
        # the parser takes lists; a single configuration holds one value of each
        for name in ("dataset", "algorithm", "k", "m", "fanout", "replicate"):
            setattr(args, name, getattr(args, name)[0])
        print(json.dumps(one(args)))
        return
    rows = []
    for ds in args.dataset:
        for fan in args.fanout:
            fan = fan if fan or ds == "wv2" else 5
            for rep in args.replicate:
                for algo in args.algorithm:
                    for k in args.k:
                        for m in args.m:
                            cmd = [
                                sys.executable,
                                __file__,
                                "--single",
                                "--dataset",
                                ds,
                                "--algorithm",
                                algo,
                                "--k",
                                str(k),
                                "--replicate",
                                str(rep),
                                "--options",
                                args.options,
                            ]
                            cmd += ["--m", str(m)] if m else []
                            cmd += ["--fanout", str(fan)] if fan else []
                            done = subprocess.run(cmd, capture_output=True, text=True)
                            if done.returncode:
                                err = (done.stderr.strip().splitlines() or ["?"])[-1]
                                row = {
                                    "dataset": ds,
                                    "algorithm": algo,
                                    "k": k,
                                    "m": m,
                                    "error": err,
                                }
                            else:
                                row = json.loads(done.stdout.strip().splitlines()[-1])
                            rows.append(row)
                            print(json.dumps(row), flush=True)
    _table(rows)


def _steal_ticks() -> int:
    """Steal time of the whole machine so far, in clock ticks (-1 where /proc/stat is absent)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        return int(fields[8])
    except (OSError, IndexError, ValueError):
        return -1


def _table(rows: list[dict]) -> None:
    cols = ["dataset", "hierarchy", "algorithm", "k", "m", "run_s", "info_search_s", "cpu_s", "steal_s", "peak_rss_mb", "ncp_pct",
            "lm_pct", "suppressed", "info_ggd", "error"]  # fmt: skip
    print_table(rows, cols)


def print_table(rows: list[dict], cols: list[str]) -> None:
    """The rows as a markdown table, with only the columns some row has."""
    cols = [c for c in cols if any(c in r for r in rows)]
    print("\n| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(str(r.get(c, "")) for c in cols) + " |")


if __name__ == "__main__":
    main()
