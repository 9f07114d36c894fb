"""The (k, k^m) trade-off on adult_wv2_rt.csv (issue 41): relational NCP against item NCP as the
class size of the QIs grows, for both ways of making the classes, beside the peer's point and
the naive composition's curve (anonymize-table -k s, then AA on each class's pages).

Each setting runs `setanon anonymize-rt` in its own process (peak RSS is that run's own),
--repeat times: medians of wall, CPU and peak memory; the losses are deterministic. Examples:

    python benchmarks/rt_tradeoff.py --classes cuts --size 1000 1500 2000
    python benchmarks/rt_tradeoff.py --classes cover --size 500 700 --repeat 3
    python benchmarks/rt_tradeoff.py --classes cover --size 10 --item-search lift   # first cut
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
TAX = ROOT / "examples" / "adult"
QI = ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
      "native-country"]  # fmt: skip
PEER = {"peer RMERGE delta 0.65 (issue 41)": (0.635, 0.241, 652.0)}
NAIVE = {"naive s=600 (issue 41)": (0.353, 0.251, None), "naive s=1500": (0.460, 0.102, None)}


def command(classes: str, size: int, k: int, m: int, search: str) -> list[str]:
    """The anonymize-rt command line of one setting."""
    taxonomies = ["age=median:10"] + [f"{q}={TAX / (q + '.csv')}" for q in QI[1:]]
    cmd = [sys.executable, "-m", "setanon_sql", "anonymize-rt", str(DATA / "adult_wv2_rt.csv"),
           "--drop-missing", "?", "--items", "pages", "-H",
           str(DATA / "bms-webview-2.hierarchy.txt"), "-k", str(k), "-m", str(m),
           "--class-size", str(size), "--classes", classes, "--item-search", search, "--json"]  # fmt: skip
    for q in QI:
        cmd += ["--qi", q]
    for t in taxonomies:
        cmd += ["-t", t]
    return cmd


def one(cmd: list[str]) -> dict:
    """Run once in a child process: its summary, wall seconds, CPU seconds and peak RSS (MB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"exit {done.returncode}: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {**json.loads(done.stdout), "wall": wall, "cpu": cpu, "rss": after.ru_maxrss / 1024}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--classes", choices=["cover", "cuts"], default="cuts")
    ap.add_argument("--size", type=int, nargs="+", default=[1000, 1500, 2000])
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--m", type=int, default=2)
    ap.add_argument("--item-search", choices=["lift", "topdown"], default="topdown")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    print(f"{'setting':34} {'classes':>7} {'rel NCP':>8} {'item NCP':>8} {'wall s':>7} "
          f"{'CPU s':>6} {'peak MB':>7} verified")  # fmt: skip
    for name, (rel, item, wall) in {**PEER, **NAIVE}.items():
        print(f"{name:34} {'':>7} {rel:8.3f} {item:8.3f} {wall or float('nan'):7.1f}")
    for size in args.size:
        runs = [
            one(command(args.classes, size, args.k, args.m, args.item_search))
            for _ in range(args.repeat)
        ]
        r = runs[0]
        med = {x: statistics.median(run[x] for run in runs) for x in ("wall", "cpu")}
        rss = max(run["rss"] for run in runs)  # children's peak: the largest run's own
        print(
            f"{args.classes + ' ' + args.item_search + ' ' + str(size):34} {r['classes']:7d} "
            f"{r['relational_ncp']:8.3f} {r['item_ncp']:8.3f} {med['wall']:7.1f} "
            f"{med['cpu']:6.1f} {rss:7.0f} {r['verified']['ok']}",
            flush=True,
        )


if __name__ == "__main__":
    main()
