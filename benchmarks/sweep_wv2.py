"""The issue-12 sweep on BMS-WebView-2: aa, partition, lgr, clump at k = 5, 10, 25 (m = 2),
each release evaluated with the default seeded workload (2000 queries and targets per size).

    python benchmarks/sweep_wv2.py --db /tmp/sweep.duckdb --json sweep.json --html sweep.html
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, default=Path("/tmp/setanon-wv2-sweep.duckdb"))
    p.add_argument("--algorithm", nargs="+", default=["aa", "partition", "lgr", "clump"])
    p.add_argument("--k", type=int, nargs="+", default=[5, 10, 25])
    p.add_argument("--m", type=int, nargs="+", default=[2])
    p.add_argument("--json", type=Path, help="write the rows here")
    p.add_argument("--html", type=Path, help="write the trade-off page here")
    args = p.parse_args()
    sys.path.insert(0, str(ROOT))
    from setanon_sql import HierarchySpec, open_store
    from setanon_sql.measure.report import compare_markdown, render_compare_html
    from setanon_sql.sweep import sweep

    started = time.perf_counter()
    fresh = not args.db.exists()
    store, _ = open_store(
        DATA / "bms-webview-2.spmf.txt" if fresh else None,
        hierarchy_spec=HierarchySpec(path=DATA / "bms-webview-2.hierarchy.txt") if fresh else None,
        db=args.db,
    )
    try:
        rows = sweep(
            store,
            algorithm_names=args.algorithm,
            ks=args.k,
            ms=args.m,
            replace=True,
            progress=lambda run: print(f"{time.perf_counter() - started:7.1f} s  {run}"),
        )
    finally:
        store.close()
    print(compare_markdown(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, default=float, indent=1), encoding="utf-8")
    if args.html:
        args.html.write_text(render_compare_html(rows), encoding="utf-8")


if __name__ == "__main__":
    main()
