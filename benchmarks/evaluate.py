"""Benchmark of `evaluate` on BMS-WebView-2 releases: whole-process time, CPU, peak memory and
the figures (ARE per query size, attack shares), medians over several runs.

The releases are made once into a DuckDB file (not timed); each timed run is a fresh process
that opens that file and evaluates one stored run, as `setanon evaluate --db DB --run R` would:

    python benchmarks/evaluate.py --db /tmp/wv2.duckdb --runs aa:10:2 partition:10 clump:10

`--single RUN` evaluates one stored run of `--db` in this process and prints its figures with
`steps`: each named statement's count and seconds from the statement log, the slowest first
(what the 10^6 and 10^7 profiles of benchmarks/notes/partition-scale.md and evaluate.md quote).
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


def prepare(db: Path, specs: list[str]) -> list[str]:
    """Make the releases that are missing from `db`; return their run names."""
    sys.path.insert(0, str(ROOT))
    from setanon_sql import HierarchySpec, Params, anonymize, open_store

    source = DATA / "bms-webview-2.spmf.txt"
    spec = HierarchySpec(path=DATA / "bms-webview-2.hierarchy.txt")
    fresh = not db.exists()
    store, _ = open_store(source if fresh else None, hierarchy_spec=spec if fresh else None, db=db)
    names = []
    try:
        for s in specs:
            algorithm, k, *m = s.split(":")
            name = f"{algorithm}_k{k}" + (f"_m{m[0]}" if m else "")
            if not store.has_table("release", schema=name):
                params = Params(
                    algorithm=algorithm, k=int(k), m=int(m[0]) if m else None, run_name=name
                )
                anonymize(store, params)
            names.append(name)
    finally:
        store.close()
    return names


def one(args: argparse.Namespace) -> dict:
    """Evaluate one stored run in this process; its figures and each statement's seconds."""
    sys.path.insert(0, args.code)
    from setanon_sql import Store
    from setanon_sql.measure.evaluate import Workload, evaluate

    store = Store(args.db, memory_limit=args.memory_limit, temp_dir=args.temp_dir)
    workload = Workload(queries=args.queries, targets=args.targets, seed=args.seed)
    try:
        out = evaluate(store, args.single, workload=workload)
        steps: dict[str, list] = {}
        for entry in store.log:
            step = steps.setdefault(entry.step, [0, 0.0])
            step[0] += 1
            step[1] += entry.seconds
    finally:
        store.close()
    ranked = sorted(steps.items(), key=lambda kv: -kv[1][1])
    return out | {"steps": {name: [n, round(s, 3)] for name, (n, s) in ranked}}


def timed(args: argparse.Namespace, run: str) -> dict:
    """One whole process: wall, CPU and peak RSS of the child, and its figures."""
    cmd = [sys.executable, __file__, "--db", str(args.db), "--single", run]
    cmd += [
        "--queries",
        str(args.queries),
        "--targets",
        str(args.targets),
        "--seed",
        str(args.seed),
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "wall_s": wall,
        "cpu_s": cpu,
        "peak_rss_mb": after.ru_maxrss / 1024,  # the largest child so far
        "out": json.loads(done.stdout.strip().splitlines()[-1]),
    }


def summary(run: str, trials: list[dict]) -> dict:
    """Medians of the timings and the (seeded, identical) figures of the last trial."""
    out = trials[-1]["out"]
    row = {
        "run": run,
        "wall_s": round(statistics.median(t["wall_s"] for t in trials), 2),
        "cpu_s": round(statistics.median(t["cpu_s"] for t in trials), 2),
        "peak_rss_mb": round(max(t["peak_rss_mb"] for t in trials)),
        "ncp_pct": round(100 * out["ncp"], 2),
        "promise_holds": out["promise_holds"],
    }
    for key, tag in (("itemset_queries", "are"), ("frequent_queries", "fre")):
        for r in out[key]:
            row[f"{tag}{r['size']}_pct"] = round(100 * r["are"], 1)
    for a in out["attacks"]:
        row[f"p{a['known']}_below_k"] = round(a["below_k"], 4)
        row[f"p{a['known']}_unique"] = round(a["unique"], 4)
        row[f"p{a['known']}_median"] = a["median_candidates"]
    return row


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, default=Path("/tmp/setanon-wv2-eval.duckdb"))
    p.add_argument("--runs", nargs="+", default=["aa:10:2", "partition:10", "clump:10"])
    p.add_argument("--queries", type=int, default=2000)
    p.add_argument("--targets", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--repeat", type=int, default=3, help="timed processes per run")
    p.add_argument(
        "--code", default=str(ROOT), help="the package tree to import (another commit's)"
    )
    p.add_argument("--memory-limit", help="DuckDB's memory limit, e.g. 3.5GB")
    p.add_argument("--temp-dir", help="DuckDB's spill folder")
    p.add_argument("--single", metavar="RUN", help="evaluate this run here; print the figures")
    args = p.parse_args()
    if args.single:
        out = one(args)
        print(json.dumps(out, default=float))
        return
    for run in prepare(args.db, args.runs):
        trials = [timed(args, run) for _ in range(args.repeat)]
        print(json.dumps(summary(run, trials)), flush=True)


if __name__ == "__main__":
    main()
