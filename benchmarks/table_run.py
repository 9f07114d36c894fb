"""Benchmark of relational k-ANON-CF: time, peak RSS and LM per dataset, QI set, k and ℓ.

Each configuration runs in its own process (peak RSS is that run's own) under a time limit,
--repeat times (medians of wall, CPU and peak memory); issue 14's ARX figures are printed beside.
Examples:

    python benchmarks/table_run.py --dataset adult5 adult8 --k 10 30 50
    python benchmarks/table_run.py --dataset adult8 --k 50 --l 1.2
    python benchmarks/table_run.py --dataset adult14 --k 10 --timeout 600
    python benchmarks/table_run.py --dataset adult8 --k 10 --beam 0   # exact mining
    python benchmarks/table_run.py --dataset adult8 --k 10 --no-improve   # the cover alone
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
from run import print_table  # noqa: E402 - the sibling runner's table printer

DATA = ROOT.parent / "shared" / "data"
ADULT_TAX = ROOT / "examples" / "adult"
ADULT = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
    "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week",
    "native-country", "income",
]  # fmt: skip
NURSERY = [
    "parents", "has_nurs", "form", "children", "housing", "finance", "social", "health", "class",
]  # fmt: skip
QI = {
    "adult5": ["age", "education", "marital-status", "race", "sex"],
    "adult8": ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
               "native-country"],
    "adult14": ADULT[:14],
    "nursery": NURSERY[:8],
}  # fmt: skip


ARX = {  # issue 14: ARX 3.9.2 local recoding on Adult, 8 QIs, all rows kept (LM, wall s, MB)
    ("adult8", 10, None): (0.0861, 13.5, 677),
    ("adult8", 50, None): (0.1634, 24, 596),
    ("adult8", 100, None): (0.2024, 21.5, 581),
    ("adult8", 50, 1.2): (0.5132, None, None),  # withholds 12,413 rows
}


def config(dataset: str) -> dict:
    """Keyword arguments of anonymize_table for a dataset name."""
    if dataset == "nursery":
        return {
            "source": DATA / "nursery.data",
            "columns": NURSERY,
            "sensitive": "class",
            "taxonomies": {c: "suppress" for c in QI[dataset]},
        }
    return {"source": DATA / "adult.data", "columns": ADULT, "drop_missing": "?",
            "sensitive": "income",
            "taxonomies": {c: ADULT_TAX / f"{c}.csv" for c in QI[dataset]}}  # fmt: skip


def one(
    dataset: str,
    k: int,
    l: float | None,  # noqa: E741
    beam: int | None,
    improve: bool,
    cover_cap: float | None,
) -> dict:
    """Run a single configuration in this process and return its figures."""
    sys.path.insert(0, str(ROOT))
    from setanon_sql import Store
    from setanon_sql.relational import anonymize_table

    kwargs = config(dataset)
    if l is None:
        kwargs.pop("sensitive")
    t0 = time.perf_counter()

    def progress(step: str, done: int, total: int | None) -> None:
        if step == "mine":  # the last line tells how far a timed-out run got
            print(
                f"mining level {done} at {time.perf_counter() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    if beam is not None:  # else the library's default
        kwargs["mine_beam"] = beam or None
    if cover_cap is not None:  # else the library's default
        kwargs["cover_cap"] = cover_cap or None
    declared = {*QI[dataset], kwargs["sensitive"]}
    kwargs["drop"] = [c for c in kwargs["columns"] if c not in declared]
    result = anonymize_table(
        Store(),
        kwargs.pop("source"),
        qi=QI[dataset],
        k=k,
        l=l,
        improve=improve,
        progress=progress,
        **kwargs,
    )
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "dataset": dataset,
        "rows": result.data.rows,
        "qi": len(QI[dataset]),
        "k": k,
        "l": l,
        "beam": result.info["mine_beam"],
        "improve": improve,
        "seconds": round(time.perf_counter() - t0, 1),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
        "load_avg": round(os.getloadavg()[0], 1),
        "peak_rss_mb": round(usage.ru_maxrss / 1024),
        "lm": round(result.lm, 4),
        "clusters": result.clusters,
        "closed": result.info["closed_records"],
        "member_rows": result.info["member_rows"],
        "moves": result.info["improve_moves"],
        "splits": result.info["improve_splits"],
        "start": result.info["start"],
    }


def run_once(cmd: list[str], ds: str, k: int, l: float | None, timeout: float) -> dict:  # noqa: E741
    """One configuration in its own process: its figures, or the error it ended with."""
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as log:
        try:
            done = subprocess.run(
                cmd, stdout=subprocess.PIPE, stderr=log, text=True, timeout=timeout
            )
            row = json.loads(done.stdout.strip().splitlines()[-1]) if not done.returncode else None
        except subprocess.TimeoutExpired:
            done = None
        log.seek(0)
        last = (log.read().strip().splitlines() or ["no output"])[-1]
    if done is None:
        error = f"timed out after {time.perf_counter() - started:.0f} s ({last})"
        return {"dataset": ds, "k": k, "l": l, "error": error}
    return row if row is not None else {"dataset": ds, "k": k, "l": l, "error": last[:200]}


def median_row(runs: list[dict]) -> dict:
    """The first run's row with time, CPU and peak memory as medians over the runs (the
    release itself is deterministic); any failed run makes the row that failure."""
    failed = [r for r in runs if "error" in r]
    if failed:
        return failed[0]
    row = dict(runs[0], runs=len(runs))
    for key in ("seconds", "cpu_s", "peak_rss_mb", "load_avg"):
        row[key] = statistics.median(r[key] for r in runs)
    return row


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dataset", choices=sorted(QI), nargs="+", default=["adult8"])
    p.add_argument("--k", type=int, nargs="+", default=[10, 30, 50, 75, 100, 150, 200])
    p.add_argument("--l", type=float, default=None, help="l-diversity of the class column")
    p.add_argument("--timeout", type=float, default=900, help="seconds per configuration")
    p.add_argument(
        "--beam", type=int, default=None, help="records each mining level keeps (0: all)"
    )
    p.add_argument("--no-improve", action="store_true", help="the cover's clusters as they are")
    p.add_argument(
        "--cover-cap", type=float, default=None, help="the capped cover's cap (0: paper's alone)"
    )
    p.add_argument("--repeat", type=int, default=3, help="runs per configuration (medians)")
    p.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.single:
        figures = one(
            args.dataset[0], args.k[0], args.l, args.beam, not args.no_improve, args.cover_cap
        )
        print(json.dumps(figures))
        return
    rows = []
    for ds in args.dataset:
        for k in args.k:
            cmd = [sys.executable, __file__, "--single", "--dataset", ds, "--k", str(k)]
            cmd += ["--l", str(args.l)] if args.l else []
            cmd += ["--beam", str(args.beam)] if args.beam is not None else []
            cmd += ["--no-improve"] if args.no_improve else []
            cmd += ["--cover-cap", str(args.cover_cap)] if args.cover_cap is not None else []
            runs = [run_once(cmd, ds, k, args.l, args.timeout) for _ in range(args.repeat)]
            row = median_row(runs)
            arx = ARX.get((ds, k, args.l))
            if arx:
                row["arx_lm"], row["arx_s"], row["arx_mb"] = arx
            rows.append(row)
            print(json.dumps(row), flush=True)
    cols = ["dataset", "rows", "qi", "k", "l", "beam", "improve", "runs", "seconds", "cpu_s", "load_avg", "peak_rss_mb", "lm", "clusters",
            "closed", "member_rows", "moves", "splits", "start", "arx_lm", "arx_s", "arx_mb",
            "error"]  # fmt: skip
    print_table(rows, cols)


if __name__ == "__main__":
    main()
