"""Disassociation (#28): whole-process time, CPU and peak memory of `setanon anonymize -a
disassociation`, and the query error and attacks of `setanon evaluate` on its release.

Each anonymize run is its own process (`setanon anonymize ... -q`, the release in memory),
timed from outside: wall and CPU seconds and peak RSS of the child, medians over --repeat
runs. The evaluation anonymizes once more into a temporary DuckDB file and evaluates the run
there (2000 queries and targets per size by default, seed 0), as `setanon evaluate` does.
Needs ../shared/data. Examples:

    python benchmarks/disassociation.py                       # WV2, WV1, mushroom; k=10, m=2
    python benchmarks/disassociation.py --data wv2 --option max_cluster=300 --repeat 5
    python benchmarks/disassociation.py --synthetic 10000000 --memory-limit 4GB --repeat 1

--synthetic N writes seeded synthetic baskets (`setanon synth`, 10,000 items) once into
--data-dir and times the anonymize process only (no evaluation).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path

from child import setanon, timed

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
DATA = {
    "wv2": SHARED / "bms-webview-2.spmf.txt",
    "wv1": SHARED / "bms-webview-1.spmf.txt",
    "mushroom": SHARED / "mushroom.dat",
}


def options(args: argparse.Namespace) -> list[str]:
    out: list[str] = []
    for pair in args.option or []:
        out += ["--option", pair]
    if args.memory_limit:
        out += ["--memory-limit", args.memory_limit]
    return out


def anonymize_runs(path: Path, args: argparse.Namespace) -> dict:
    """Medians of --repeat whole anonymize processes (the release stays in memory)."""
    cmd = setanon(
        "anonymize", str(path), "-a", "disassociation", "-k", str(args.k), "-m", str(args.m),
        "-q", "--json", *options(args),
    )  # fmt: skip
    runs = [timed(cmd) for _ in range(args.repeat)]
    info = json.loads(runs[-1]["stdout"])
    return {
        "wall_s": statistics.median(r["wall"] for r in runs),
        "cpu_s": statistics.median(r["cpu"] for r in runs),
        "peak_mb": statistics.median(r["rss_mb"] for r in runs),
        "runs": len(runs),
        "clusters": info.get("clusters"),
        "suppressed": info.get("suppressed"),
        "term_chunk_share": info.get("term_chunk_share"),
        "unsafe_clusters": info.get("unsafe_clusters"),
    }


def evaluation(path: Path, args: argparse.Namespace) -> dict:
    """The evaluate workloads' figures of one release."""
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.duckdb")
        timed(
            setanon(
                "anonymize", str(path), "-a", "disassociation", "-k", str(args.k),
                "-m", str(args.m), "--db", db, "--run", "bench", "-q", *options(args),
            )
        )  # fmt: skip
        done = timed(
            setanon(
                "evaluate", "--db", db, "--run", "bench", "--queries", str(args.queries),
                "--targets", str(args.queries), "--json",
            )
        )  # fmt: skip
    data = json.loads(done["stdout"])
    out = {f"are_{r['size']}": r["are"] for r in data["itemset_queries"]}
    out |= {f"frequent_are_{r['size']}": r["are"] for r in data["frequent_queries"]}
    out |= {f"below_k_{a['known']}": a["below_k"] for a in data["attacks"]}
    out["promise_holds"] = data["promise_holds"]
    return out


def synthetic(n: int, args: argparse.Namespace) -> Path:
    path = Path(args.data_dir) / f"baskets_n{n}_i10000_s0.parquet"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        timed(setanon("synth", str(path), "-n", str(n), "--items", "10000", "--seed", "0"))
    return path


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", nargs="*", default=list(DATA), choices=list(DATA))
    p.add_argument("--synthetic", type=int, nargs="*", default=[])
    p.add_argument("-k", type=int, default=10)
    p.add_argument("-m", type=int, default=2)
    p.add_argument("--option", action="append", help="algorithm option key=value")
    p.add_argument("--queries", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--memory-limit", default=None)
    p.add_argument("--data-dir", default=os.environ.get("TMPDIR", "/tmp") + "/setanon-synth")
    args = p.parse_args()
    os.chdir(ROOT)
    rows = []
    for name in args.data if not args.synthetic else []:
        row = {"data": name, **anonymize_runs(DATA[name], args), **evaluation(DATA[name], args)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    for n in args.synthetic:
        row = {"data": f"synthetic {n}", **anonymize_runs(synthetic(n, args), args)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(markdown(rows))


def markdown(rows: list[dict]) -> str:
    keys = [k for k in rows[0]] if rows else []
    for r in rows[1:]:
        keys += [k for k in r if k not in keys]
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for r in rows:
        cells = [f"{r[k]:.3g}" if isinstance(r.get(k), float) else str(r.get(k, "")) for k in keys]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
