"""Partition or AA on Spark `local[2]` against DuckDB, whole process per run (issues 16, 29).

    python benchmarks/spark.py --data wv2 --engine duckdb spark --k 10 --repeat 3
    python benchmarks/spark.py --data wv2 synth:1000000 --algorithm aa --m 2 --k 10 --repeat 1
    python benchmarks/spark.py --data synth:1000000 --engine spark --k 10 --repeat 1
    python benchmarks/spark.py --data parquet:/tmp/setanon-synth/baskets_n1000000_i10000_s1.parquet \
        --engine spark --repeat 1 --driver-memory 8g --trace

Each run is a fresh Python process (this script with --worker) that loads the Parquet input,
runs the algorithm (`--algorithm partition` or `aa`), verifies and measures, and prints one JSON line
with the seconds of each step (the statements of one name summed). Spark's work happens in a JVM
that Python starts and never reaps, so the CPU and peak memory of a Spark run are read from the
JVM's /proc entries just before it stops and added to the Python process's own. Inputs: WV2
(`../shared/data`, its shipped hierarchy) converted once to long Parquet; `synth:N` is
`setanon synth -n N` with a fan-out-5 hierarchy; `parquet:FILE` is a Parquet file of long
(tid, item) rows or baskets (`benchmarks/scale.py`), with a fan-out-5 hierarchy. The median of
each figure is printed, then both engines' steps side by side (seconds and statements per step,
the first run of each, the slowest on Spark first; `--top` of them); the releases of the two
engines are compared row for row. `--trace` prints every Spark statement's seconds (the slowest
first) after each run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
TICK = os.sysconf("SC_CLK_TCK")


def prepare(data: str, work: Path) -> tuple[Path, dict]:
    """The input as long Parquet and the hierarchy spec (as HierarchySpec keywords)."""
    work.mkdir(parents=True, exist_ok=True)
    if data == "wv2":
        out = work / "wv2.parquet"
        if not out.exists():
            from setanon_sql import open_store
            from setanon_sql.engine.sqltext import literal

            store, _ = open_store(SHARED / "bms-webview-2.spmf.txt")
            with store:  # COPY takes no bound parameter: the path as a quoted literal
                store.execute(
                    "COPY (SELECT t.label AS tid, r.label AS item FROM tx_raw r JOIN tids t "
                    f"USING (tid) ORDER BY r.tid, r.label) TO {literal(str(out))} (FORMAT parquet)"
                )
        return out, {"path": str(SHARED / "bms-webview-2.hierarchy.txt")}
    if data.startswith("parquet:"):
        return Path(data.removeprefix("parquet:")).resolve(), {"fanout": 5}
    n = int(data.split(":")[1])
    out = work / f"synth_{n}.parquet"
    if not out.exists():
        subprocess.run(
            [sys.executable, "-m", "setanon_sql", "synth", "-n", str(n), str(out)], check=True
        )
    return out, {"fanout": 5}


def proc_figures(pid: int) -> tuple[float, float]:
    """CPU seconds (with reaped children) and peak RSS in MiB of a live process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = sum(int(x) for x in fields[11:15]) / TICK
    peak = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1]) / 1024
    return cpu, peak


def stamp(step: str, done: int, total: int | None) -> None:
    """A PROGRESS line on stderr, for watching a long worker run on its own."""
    print(
        f"PROGRESS {time.strftime('%H:%M:%S')} {step} {done}/{total}", file=sys.stderr, flush=True
    )


def worker(args: argparse.Namespace) -> None:
    """One whole run in this process; prints its figures as JSON."""
    from setanon_sql.params import Params
    from setanon_sql.store.hierarchy_spec import HierarchySpec

    spec = HierarchySpec(**json.loads(args.hierarchy))
    params = Params(algorithm=args.algorithm, k=args.k, m=args.m)
    started = time.perf_counter()
    out: dict = {"engine": args.worker, "algorithm": args.algorithm, "k": args.k, "m": args.m}
    if args.worker == "duckdb":
        from setanon_sql import api
        from setanon_sql.store import release_io as release

        store, _ = api.open_store(args.input, hierarchy_spec=spec)
        out["load_s"] = time.perf_counter() - started
        with store:
            result = api.anonymize(store, params)
            with store.in_run(result.run):
                if args.release:
                    release.write_release(store, args.release)
        out["statements"] = len(store.ex.log)
        steps = profile(store.ex.log)
        jvm_cpu = jvm_peak = 0.0
    else:
        from setanon_sql import api
        from setanon_sql.engine import spark as spark_engine
        from setanon_sql.store.publish import RunOutputs
        from setanon_sql.store.spark_store import SparkSource, SparkStore, load

        warehouse = Path(args.work) / f"warehouse-{os.getpid()}"
        spark = spark_engine.session(
            args.master,
            warehouse=warehouse,
            config={
                "spark.driver.memory": args.driver_memory,
                "spark.local.dir": str(Path(args.work) / "spark-local"),
            },
        )
        ex = spark_engine.SparkExecutor(spark, "bench")
        spark_store = SparkStore(ex)
        load(spark_store, SparkSource(path=args.input), spec)
        out["load_s"] = time.perf_counter() - started
        outputs = RunOutputs(path=Path(args.release)) if args.release else None
        result = api.anonymize(spark_store, params, progress=stamp, outputs=outputs)
        out["statements"] = len(ex.log)
        steps = profile(ex.log)
        if args.trace:
            for i, e in sorted(enumerate(ex.log, 1), key=lambda ie: -ie[1].seconds):
                head = " ".join(e.sql.split())[:100]
                print(f"TRACE {e.seconds:8.3f}s #{i} {e.step}: {head}", file=sys.stderr)
        if args.stages:
            seconds: dict[str, float] = {}
            for e in ex.log:
                seconds[e.step] = seconds.get(e.step, 0.0) + e.seconds
            for step, (jobs, stages) in ex.stages().items():
                print(f"STAGES {step}: jobs {jobs} stages {stages} seconds {seconds[step]:.2f}",
                      file=sys.stderr)  # fmt: skip
        jvm_pid = spark.sparkContext._jvm.ProcessHandle.current().pid()
        jvm_cpu, jvm_peak = proc_figures(jvm_pid)
        spark.stop()
        shutil.rmtree(warehouse, ignore_errors=True)
    me = resource.getrusage(resource.RUSAGE_SELF)
    out |= {
        "total_s": time.perf_counter() - started,
        "search_s": result.info.get("search_s"),
        "levels": result.info.get("levels"),
        "cpu_s": me.ru_utime + me.ru_stime + jvm_cpu,
        "jvm_cpu_s": jvm_cpu,
        "peak_mb": max(me.ru_maxrss / 1024, jvm_peak),
        "py_peak_mb": me.ru_maxrss / 1024,
        "ncp_pct": 100 * result.loss["ncp"],
        "verified": result.report.ok,
        "steps": steps,
    }
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in out.items()}))


def profile(log: list) -> dict[str, list]:
    """Per step: [seconds, statements], summed over the log's entries of that step."""
    steps: dict[str, list] = {}
    for e in log:
        got = steps.setdefault(e.step, [0.0, 0])
        got[0] += e.seconds
        got[1] += 1
    return {k: [round(v[0], 3), v[1]] for k, v in steps.items()}


def side_by_side(data: str, profiles: dict[str, dict[str, list]], top: int) -> None:
    """Both engines' steps in one table, the slowest on Spark (or the last engine) first."""
    engines = list(profiles)
    lead = "spark" if "spark" in profiles else engines[-1]
    steps = sorted(profiles[lead], key=lambda s: -profiles[lead][s][0])[:top]
    head = "".join(f" | {e} s | {e} n" for e in engines)
    print(f"STEPS {data}: step{head}")
    for step in steps:
        cells = "".join(" | {:.2f} | {}".format(*profiles[e].get(step, [0.0, 0])) for e in engines)
        print(f"STEPS {data}: {step}{cells}")
    totals = "".join(
        f" | {sum(v[0] for v in profiles[e].values()):.2f} | "
        f"{sum(v[1] for v in profiles[e].values())}"
        for e in engines
    )
    print(f"STEPS {data}: all statements{totals}", flush=True)


def release_rows(path: Path) -> list[tuple]:
    import pyarrow.parquet as pq

    return sorted((str(r["tid"]), r["item"]) for r in pq.read_table(path).to_pylist())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", default=["wv2"], help="wv2, synth:N and/or parquet:FILE")
    ap.add_argument("--engine", nargs="+", default=["duckdb", "spark"])
    ap.add_argument("--algorithm", default="partition", choices=["partition", "aa"])
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--m", type=int, default=None, help="AA's m (default 2 with --algorithm aa)")
    ap.add_argument("--top", type=int, default=25, help="steps shown side by side")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--work", default="/tmp/setanon-spark-bench")
    ap.add_argument("--stages", action="store_true", help="Spark jobs and stages per step")
    ap.add_argument("--trace", action="store_true", help="seconds of every Spark statement")
    ap.add_argument("--driver-memory", default="6g", help="Spark driver heap (local mode)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--input", help=argparse.SUPPRESS)
    ap.add_argument("--hierarchy", help=argparse.SUPPRESS)
    ap.add_argument("--release", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.algorithm == "aa" and args.m is None:
        args.m = 2
    if args.worker:
        worker(args)
        return
    work = Path(args.work)
    for data in args.data:
        source, spec = prepare(data, work)
        releases = {}
        profiles: dict[str, dict[str, list]] = {}
        for engine in args.engine:
            runs = []
            for i in range(args.repeat):
                rel = work / f"release-{engine}.parquet" if i == 0 else None
                cmd = [sys.executable, __file__, "--worker", engine, "--input", str(source),
                       "--hierarchy", json.dumps(spec), "--k", str(args.k),
                       "--algorithm", args.algorithm,
                       "--master", args.master, "--work", str(work)]  # fmt: skip
                cmd += ["--driver-memory", args.driver_memory]
                cmd += ["--m", str(args.m)] if args.m is not None else []
                cmd += ["--stages"] if args.stages else []
                cmd += ["--trace"] if args.trace else []
                if rel is not None:
                    cmd += ["--release", str(rel)]
                    releases[engine] = rel
                done = subprocess.run(cmd, check=True, capture_output=True, text=True)
                if args.stages or args.trace:
                    sys.stdout.write("".join(ln + "\n" for ln in done.stderr.splitlines()
                                             if ln.startswith(("STAGES", "TRACE"))))  # fmt: skip
                runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
                profiles.setdefault(engine, runs[-1].pop("steps"))
                print(data, json.dumps(runs[-1]), flush=True)
            keys = [k for k, v in runs[0].items() if isinstance(v, (int, float))]
            medians = {k: statistics.median(r[k] for r in runs) for k in keys}
            print(f"MEDIAN {data} {engine} x{len(runs)}: {json.dumps(medians)}", flush=True)
        side_by_side(data, profiles, args.top)
        if {"duckdb", "spark"} <= releases.keys():
            same = release_rows(releases["duckdb"]) == release_rows(releases["spark"])
            print(f"{data}: Spark release identical to DuckDB's: {same}", flush=True)
        for rel in releases.values():
            shutil.rmtree(rel, ignore_errors=True) if rel.is_dir() else rel.unlink(True)


if __name__ == "__main__":
    main()
