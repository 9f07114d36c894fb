"""The load phase alone: reading a source, making its dataset and hierarchy, in a fresh process.

Prints wall, CPU, peak RSS (DuckDB's native memory included), the statements the load ran and
the slowest of them; medians over --repeat whole-process runs. Examples:

    python benchmarks/load_phase.py ../shared/data/bms-webview-2.spmf.txt \
        --hierarchy ../shared/data/bms-webview-2.hierarchy.txt
    python benchmarks/load_phase.py baskets.parquet --fanout 5 --memory-limit 4GB --repeat 1
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


def one(args: argparse.Namespace) -> dict:
    """Open a store on the source in this process; its figures."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    sys.path.insert(0, str(ROOT))
    from setanon_sql import HierarchySpec, open_store

    imported = time.perf_counter() - wall0
    spec = (
        HierarchySpec(path=args.hierarchy) if args.hierarchy else HierarchySpec(fanout=args.fanout)
    )
    store, _ = open_store(
        args.source,
        hierarchy_spec=spec,
        memory_limit=args.memory_limit or None,
        threads=args.threads,
    )
    log = store.ex.log
    slowest = sorted(log, key=lambda e: -e.seconds)[:5]
    figures = {
        "import_s": round(imported, 3),
        "load_s": round(time.perf_counter() - wall0, 3),
        "cpu_s": round(time.process_time() - cpu0, 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "statements": len(log),
        "slowest": ", ".join(f"{e.step} {e.seconds:.3f}" for e in slowest),
    }
    store.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("--hierarchy")
    parser.add_argument("--fanout", type=int, default=5)
    parser.add_argument("--memory-limit", default="")
    parser.add_argument("--threads", type=int)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args)))
        return
    runs = []
    for _ in range(args.repeat):
        out = subprocess.run(
            [sys.executable, __file__, *sys.argv[1:], "--one"],
            check=True,
            capture_output=True,
            text=True,
        )
        runs.append(json.loads(out.stdout.splitlines()[-1]))
    for key in ("import_s", "load_s", "cpu_s", "peak_rss_mb", "statements"):
        print(f"{key:12} median {statistics.median(r[key] for r in runs)}")
    print(f"slowest (last run): {runs[-1]['slowest']}")


if __name__ == "__main__":
    main()
