"""The (k, k^m) trade-off on adult_wv2_rt.csv (issue 41): relational NCP against item NCP as the
class size of the QIs grows, for both ways of making the classes, beside the peer's point and
the naive composition's curve (anonymize-table -k s, then AA on each class's pages).

Each setting runs `setanon anonymize-rt` in its own process under /usr/bin/time (peak RSS is
that run's own), --repeat times: medians of wall, CPU and peak memory; the losses are
deterministic. `--plot` draws relational against item NCP. Examples:

    python benchmarks/rt_tradeoff.py --classes cuts --size 1000 1500 2000
    python benchmarks/rt_tradeoff.py --classes cover --size 500 700 --repeat 3
    python benchmarks/rt_tradeoff.py --classes cover --size 10 --item-search lift   # first cut
    python benchmarks/rt_tradeoff.py --classes cover cuts --item-search lift topdown \
        --size 300 500 700 1000 1500 2000 --plot benchmarks/rt_tradeoff.png
    python benchmarks/rt_tradeoff.py --classes cover --size 300 500 700 1000 1500 \
        --start 100 --delta 0.28 0.32 0.36 0.40 0.45 --plot benchmarks/rt_tradeoff_delta.png

`--size` runs each class size alone; `--start` runs each of its sizes merged under every
`--delta` (anonymize-rt --class-size START --delta D). `--plot` draws every setting run: the
class-size curves (labels: --class-size) and one merge curve per start (labels: delta).
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


def command(
    classes: str, size: int, k: int, m: int, search: str, delta: float | None = None
) -> list[str]:
    """The anonymize-rt command line of one setting."""
    taxonomies = ["age=median:10"] + [f"{q}={TAX / (q + '.csv')}" for q in QI[1:]]
    cmd = [sys.executable, "-m", "setanon_sql", "anonymize-rt", str(DATA / "adult_wv2_rt.csv"),
           "--drop-missing", "?", "--items", "pages", "-H",
           str(DATA / "bms-webview-2.hierarchy.txt"), "-k", str(k), "-m", str(m),
           "--class-size", str(size), "--classes", classes, "--item-search", search, "--json",
           "--memory-limit", "3.5GB"]  # fmt: skip
    if delta is not None:
        cmd += ["--delta", str(delta)]
    for q in QI:
        cmd += ["--qi", q]
    cmd += ["--keep", "income"]
    for c in ("fnlwgt", "education-num", "relationship", "capital-gain", "capital-loss",
              "hours-per-week"):  # fmt: skip
        cmd += ["--drop", c]
    for t in taxonomies:
        cmd += ["-t", t]
    return cmd


def one(cmd: list[str]) -> dict:
    """Run once in a child process under /usr/bin/time: its summary, wall seconds, CPU seconds
    and its own peak RSS (MB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, text=True, cwd=ROOT, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"exit {done.returncode}: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss = int(done.stderr.strip().splitlines()[-1]) / 1024
    return {**json.loads(done.stdout), "wall": wall, "cpu": cpu, "rss": rss}


def plot(points: list[dict], path: Path) -> None:
    """Relational NCP against item NCP: our settings (one line per way), the peer, the naive."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5))
    for way in sorted({p["way"] for p in points}):
        mine = sorted((p for p in points if p["way"] == way), key=lambda p: p["label"])
        ax.plot([p["item"] for p in mine], [p["rel"] for p in mine], "o-", label=way)
        for p in mine:
            ax.annotate(f"{p['label']:g}", (p["item"], p["rel"]), fontsize=7)
    ax.plot([v[1] for v in NAIVE.values()], [v[0] for v in NAIVE.values()], "s--",
            label="naive: anonymize-table -k s, AA per class")  # fmt: skip
    for name, (rel, item, _) in PEER.items():
        ax.plot([item], [rel], "k*", markersize=12, label=name)
    ax.plot([0.12], [0.32], "rx", label="issue 41's target")
    ax.set_xlabel("item NCP")
    ax.set_ylabel("relational NCP")
    ax.set_title("adult_wv2_rt.csv, k = 10, m = 2 (labels: --class-size, or delta)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--classes", choices=["cover", "cuts"], nargs="+", default=["cuts"])
    ap.add_argument("--size", type=int, nargs="*", default=[1000, 1500, 2000])
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--m", type=int, default=2)
    ap.add_argument("--item-search", choices=["lift", "topdown"], nargs="+", default=["topdown"])
    ap.add_argument("--start", type=int, nargs="*", default=[],
                    help="Class sizes the merges (--delta) start from.")  # fmt: skip
    ap.add_argument("--delta", type=float, nargs="*", default=[],
                    help="Relational bounds of the merges from every --start.")  # fmt: skip
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--plot", type=Path, help="Also draw the trade-off to this PNG.")
    args = ap.parse_args()
    print(f"{'setting':34} {'classes':>7} {'rel NCP':>8} {'item NCP':>8} {'wall s':>7} "
          f"{'CPU s':>6} {'peak MB':>7} verified")  # fmt: skip
    for name, (rel, item, wall) in {**PEER, **NAIVE}.items():
        print(f"{name:34} {'':>7} {rel:8.3f} {item:8.3f} {wall or float('nan'):7.1f}")
    points = []
    for classes in args.classes:
        for search in args.item_search:
            settings: list[tuple[int, float | None]] = [(s, None) for s in args.size]
            settings += [(s, d) for s in args.start for d in args.delta]
            for size, delta in settings:
                cmd = command(classes, size, args.k, args.m, search, delta)
                runs = [one(cmd) for _ in range(args.repeat)]
                r = runs[0]
                med = {x: statistics.median(run[x] for run in runs) for x in ("wall", "cpu", "rss")}
                name = f"{classes} {search} {size}" + ("" if delta is None else f" d{delta:g}")
                print(
                    f"{name:34} {r['classes']:7d} "
                    f"{r['relational_ncp']:8.3f} {r['item_ncp']:8.3f} {med['wall']:7.1f} "
                    f"{med['cpu']:6.1f} {med['rss']:7.0f} {r['verified']['ok']}",
                    flush=True,
                )
                way = f"{classes}, {search}" + ("" if delta is None else f", from {size}, delta")
                points.append({"way": way, "label": size if delta is None else delta,
                               "rel": r["relational_ncp"], "item": r["item_ncp"]})  # fmt: skip
    if args.plot:
        plot(points, args.plot)


if __name__ == "__main__":
    main()
