"""Growth with |D|: Partition, LGR and AA on seeded synthetic baskets of 10^5 .. 10^7
transactions (fan-out-5 hierarchy over the items, Parquet input).

Each configuration runs in its own process, so peak RSS (DuckDB's native memory included)
belongs to that run alone; the figures are medians over --repeat runs. The baskets are
written once per (transactions, items, seed) into --data-dir and reused. Examples:

    python benchmarks/scale.py --transactions 100000 1000000 --algorithm partition aa
    nice -n 5 python benchmarks/scale.py --transactions 10000000 --algorithm partition \
        --memory-limit 4GB --timeout 3600
    python benchmarks/scale.py --transactions 1000000 --profile /tmp/prof/

With --profile PREFIX every run also writes PREFIX<transactions>_<algorithm>_k<k>_r<run>.tsv:
per statement name (the step of the process's statement log, loading included) the number of
statements, their seconds and their share of all statement seconds, slowest first, so a
change can aim at where the time goes.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def baskets(args: argparse.Namespace, n: int) -> Path:
    """The Parquet file of n transactions, written on first use."""
    sys.path.insert(0, str(ROOT))
    from setanon_sql.measure.synthetic import SynthSpec, write_baskets

    path = Path(args.data_dir) / f"baskets_n{n}_i{args.items}_s{args.seed}.parquet"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        info = write_baskets(path, SynthSpec(transactions=n, items=args.items, seed=args.seed))
        print(f"# wrote {path}: {info['rows']} item rows in {info['seconds']} s", flush=True)
    return path


def one(args: argparse.Namespace) -> dict:
    """Load, anonymize and verify one configuration in this process; return its figures."""
    sys.path.insert(0, str(ROOT))
    from setanon_sql import HierarchySpec, Params, anonymize, open_store

    wall0, cpu0 = time.perf_counter(), time.process_time()
    store, _ = open_store(
        args.path,
        hierarchy_spec=HierarchySpec(fanout=args.fanout, order="id"),
        memory_limit=args.memory_limit or None,
        temp_dir=args.temp_dir or None,
    )
    load_s, load_cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    rows = store.scalar("SELECT count(*) FROM tx")
    params = Params(algorithm=args.algorithm, k=args.k, m=args.m or None)
    cpu1 = time.process_time()
    try:
        result = anonymize(store, params)
    finally:  # a run that fails late (10^8: the spill cap in information_loss) keeps its profile
        if args.profile:
            write_profile(Path(args.profile), statement_seconds(store.log))
    anonymize_cpu = time.process_time() - cpu1  # every thread's: DuckDB's workers too
    return {
        "transactions": args.n,
        "item_rows": rows,
        "algorithm": args.algorithm,
        "k": args.k,
        "m": args.m or None,
        "load_s": round(load_s, 2),
        "load_cpu_s": round(load_cpu, 2),
        "search_s": result.info.get("search_s"),
        "anonymize_s": round(result.seconds, 2),
        "anonymize_cpu_s": round(anonymize_cpu, 2),
        "wall_s": round(time.perf_counter() - wall0, 2),
        "cpu_s": round(time.process_time() - cpu0, 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "ncp_pct": _pct(result.loss.get("ncp")),  # None: a disassociated release has no NCP
        "verified": result.report.ok,
        **work_figures(
            args.algorithm, result.info | {"anonymize_cpu_s": anonymize_cpu}, args.n, len(store.log)
        ),
    }


# The figures of each algorithm's info that measure its work, the unit first: the data's work
# whatever the engine, so that search seconds per unit stay flat when the cost grows with it.
# Partition, LGR: bucket rows the SQL rounds read (a transaction once per round it stays in the
# frontier, per expandable node of its cut). AA, DA: support statements times the rows of
# `expanded` each one scans, beside the itemsets whose supports they found. Clump and
# disassociation: the transactions, beside the clusters they make.
WORK: dict[str, tuple[str, ...]] = {
    "partition": ("bucket_rows", "levels", "partitions_made"),
    "lgr": ("bucket_rows", "levels", "waiting", "lgr_rounds", "moved"),
    "aa": ("support_rows", "support_queries", "counted_itemsets", "violations", "expanded_rows"),
    "da": ("support_rows", "support_queries", "counted_itemsets", "violations_walked",
           "expanded_rows"),
    "oa": ("cuts",),
    "clump": ("transactions", "clusters", "pairs_tried", "exchanges"),
    "disassociation": ("transactions", "clusters", "horpart_levels", "joint_clusters"),
    "dpsets": ("transactions", "released_rows", "candidates_l2", "released_l2"),
}  # fmt: skip


def work_figures(algorithm: str, info: dict, transactions: int, statements: int) -> dict:
    """The algorithm's work figures (WORK), the SQL statements the run executed, the search's
    wall microseconds per unit of work, and the CPU microseconds of the whole anonymize call
    (search, verification, loss) per unit: on a shared machine wall time follows the load,
    CPU time much less."""
    info = dict(info, transactions=transactions)
    if info.get("support_queries") is not None and info.get("expanded_rows"):
        info["support_rows"] = info["support_queries"] * info["expanded_rows"]
    names = WORK.get(algorithm, ())
    out = {name: info[name] for name in names if info.get(name) is not None}
    out["statements"] = statements
    unit, search_s = (names[0] if names else None), info.get("search_s")
    if unit and out.get(unit) and search_s is not None:
        out["work_unit"] = unit
        out["us_per_unit"] = round(1e6 * search_s / out[unit], 4)
        if info.get("anonymize_cpu_s") is not None:
            out["cpu_us_per_unit"] = round(1e6 * info["anonymize_cpu_s"] / out[unit], 4)
    return out


def statement_seconds(log: list) -> list[tuple[str, int, float, float]]:
    """Per step name of a statement log: count, total seconds and share of all, slowest first."""
    totals: dict[str, list] = {}
    for entry in log:
        row = totals.setdefault(entry.step, [0, 0.0])
        row[0] += 1
        row[1] += entry.seconds
    whole = sum(seconds for _, seconds in totals.values()) or 1.0
    rows = [(name, n, seconds, seconds / whole) for name, (n, seconds) in totals.items()]
    return sorted(rows, key=lambda r: (-r[2], r[0]))


def write_profile(path: Path, rows: list[tuple[str, int, float, float]]) -> None:
    """The per-statement seconds as a tab-separated file (name, count, seconds, share)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        out = csv.writer(f, delimiter="\t", lineterminator="\n")
        out.writerow(["name", "count", "seconds", "share"])
        out.writerows((n, c, f"{s:.3f}", f"{share:.3f}") for n, c, s, share in rows)


def median_row(runs: list[dict]) -> dict:
    """The runs' figures, numbers as medians."""
    row = dict(runs[0])
    for key, value in row.items():
        if isinstance(value, float) or key in ("peak_rss_mb",):  # bucket_rows: same every run
            row[key] = round(statistics.median(r[key] for r in runs), 2)
    row["runs"] = len(runs)
    return row


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--transactions", type=int, nargs="+", default=[100_000, 1_000_000])
    p.add_argument("--algorithm", nargs="+", default=["partition"])
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--m", type=int, default=2, help="for the algorithms that take m")
    p.add_argument("--items", type=int, default=10_000)
    p.add_argument("--fanout", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--memory-limit", default="", help="DuckDB memory_limit, e.g. 4GB")
    p.add_argument("--temp-dir", default="", help="DuckDB spill folder (default: a fresh one)")
    p.add_argument("--timeout", type=float, default=900, help="seconds per run")
    p.add_argument("--data-dir", default=os.environ.get("TMPDIR", "/tmp") + "/setanon-synth")
    p.add_argument("--profile", default="", help="write per-statement seconds to PREFIX...tsv")
    p.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--path", help=argparse.SUPPRESS)
    p.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.single:
        args.algorithm = args.algorithm[0]
        print(json.dumps(one(args)))
        return
    print(
        f"# {platform.node()}: {os.cpu_count()} cores, {_memory_gb()} GB, {platform.python_version()}"
    )
    rows = []
    for n in args.transactions:
        path = baskets(args, n)
        for algorithm in args.algorithm:
            m = args.m if needs_m(algorithm) else None
            runs = [_run(args, path, n, algorithm, m, i) for i in range(1, args.repeat + 1)]
            ok = [r for r in runs if "error" not in r]
            row = median_row(ok) if ok else runs[0]
            rows.append(row)
            print(json.dumps(row), flush=True)
    cols = ["transactions", "item_rows", "algorithm", "k", "m", "load_s", "load_cpu_s", "search_s",
            "anonymize_s", "anonymize_cpu_s", "wall_s", "cpu_s", "peak_rss_mb", "ncp_pct", "verified",
            "statements", "work_unit", "us_per_unit", "cpu_us_per_unit", "runs", "error"]  # fmt: skip
    work = [name for row in rows for name in WORK.get(row["algorithm"], ())]
    cols[-2:-2] = [name for name in dict.fromkeys(work) if name != "transactions"]
    from run import print_table

    print_table(rows, cols)


def _run(
    args: argparse.Namespace, path: Path, n: int, algorithm: str, m: int | None, i: int
) -> dict:
    cmd = [sys.executable, __file__, "--single", "--path", str(path), "--n", str(n)]
    cmd += ["--algorithm", algorithm, "--k", str(args.k), "--fanout", str(args.fanout)]
    cmd += ["--m", str(m)] if m else ["--m", "0"]
    cmd += ["--memory-limit", args.memory_limit] if args.memory_limit else []
    cmd += ["--temp-dir", args.temp_dir] if args.temp_dir else []
    if args.profile:
        cmd += ["--profile", f"{args.profile}{n}_{algorithm}_k{args.k}_r{i}.tsv"]
    started = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return {"transactions": n, "algorithm": algorithm, "error": f"timeout {args.timeout} s"}
    if done.returncode:
        lines = [x for x in done.stderr.strip().splitlines() if x.strip(" ^~")]
        print("\n".join(f"# {x}" for x in lines[-6:]), file=sys.stderr)
        return {"transactions": n, "algorithm": algorithm, "error": (lines or ["?"])[-1],
                "wall_s": round(time.perf_counter() - started, 2)}  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def _pct(share: float | None) -> float | None:
    return None if share is None else round(100 * share, 3)


def needs_m(algorithm: str) -> bool:
    sys.path.insert(0, str(ROOT))
    try:  # the registry: algorithms/ again since #43; catalog.py kept it before
        from setanon_sql.algorithms import get
    except ImportError:
        from setanon_sql.catalog import get  # type: ignore[attr-defined,no-redef]

    return get(algorithm).needs_m


def _memory_gb() -> float:
    return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)


if __name__ == "__main__":
    main()
