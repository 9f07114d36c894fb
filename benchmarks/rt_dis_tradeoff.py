"""The set column disassociated inside each QI class against generalized in it (issue 41), on
adult_wv2_rt.csv: relational NCP, item NCP (0 for the disassociated release: every item is
released as given) and the error of item queries (how many records hold these pages), with
time, CPU and peak memory, at each class size.

Each setting runs `setanon anonymize-rt` in its own process under /usr/bin/time (`rt_tradeoff.one`),
--repeat times (medians of wall, CPU, peak); the releases are written to files and every query
is answered from the files alone by `setanon estimate` (the disassociation estimator on the
chunks' folder; the generalized one, a node standing for each of its leaves alike, on the
generalized sets as long tid,item rows with the WV2 hierarchy). The workloads are drawn as
`evaluate` draws them, from the original rows (the 30,162 without '?'): `random`, per size,
distinct subsets of randomly drawn records; `frequent`, per size, itemsets held by at least
0.1 % of the records, drawn at random. ARE: mean of |estimate - actual| / actual. Example:

    python benchmarks/rt_dis_tradeoff.py --size 10 50 100 300 1000 --queries 300
    python benchmarks/rt_dis_tradeoff.py --size 300 1000 --release disassociate --max-cluster 1000
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rt_tradeoff import DATA, PEER, ROOT, command, one  # noqa: E402

HIERARCHY = DATA / "bms-webview-2.hierarchy.txt"
SIZES = (1, 2, 3)


def original_sets() -> list[frozenset[str]]:
    """The pages of every complete row, in file order (the rows the runs keep)."""
    out = []
    with open(DATA / "adult_wv2_rt.csv", newline="") as f:
        for row in csv.DictReader(f):
            if any(v.strip() == "?" for v in row.values()):
                continue
            out.append(frozenset(p.strip() for p in row["pages"].split(";") if p.strip()))
    return out


def workloads(sets: list[frozenset[str]], n: int, seed: int) -> dict[tuple[str, int], list]:
    """(workload, size) -> itemsets: random subsets of random records (distinct), and
    itemsets of support >= 0.1 % drawn at random (Apriori over the records)."""
    rng = random.Random(seed)
    out: dict[tuple[str, int], list] = {}
    order = list(range(len(sets)))
    rng.shuffle(order)
    for size in SIZES:
        seen: dict[tuple, None] = {}
        for i in order:
            if len(sets[i]) >= size:
                seen.setdefault(tuple(sorted(rng.sample(sorted(sets[i]), size))), None)
            if len(seen) >= n:
                break
        out[("random", size)] = list(seen)
    minsup = max(1, round(0.001 * len(sets)))
    frequent: list[tuple] = []
    level = [(i,) for i, c in Counter(i for s in sets for i in s).items() if c >= minsup]
    for size in SIZES:
        if size > 1:
            keep = set(level)
            items = sorted({i for t in level for i in t})
            counts: Counter = Counter()
            for s in sets:
                held = sorted(s.intersection(items))
                for c in combinations(held, size):
                    if all(sub in keep for sub in combinations(c, size - 1)):
                        counts[c] += 1
            level = [c for c, v in counts.items() if v >= minsup]
        pick = sorted(level)
        rng.shuffle(pick)
        out[("frequent", size)] = pick[:n]
        frequent += pick[:n]
    return out


def actual(sets: list[frozenset[str]], itemsets: list[tuple]) -> list[int]:
    """Every itemset's support in the original rows."""
    want = [frozenset(t) for t in itemsets]
    return [sum(1 for s in sets if w <= s) for w in want]


def estimates(release: Path, itemsets: list[tuple], hierarchy: bool) -> list[float]:
    """`setanon estimate` on the release files alone: every itemset's estimate."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join(" ".join(t) + "\n" for t in itemsets))
    cmd = [sys.executable, "-m", "setanon_sql", "estimate", str(release), "--queries", f.name,
           "--json", "--memory-limit", "3.5GB"]  # fmt: skip
    if hierarchy:
        cmd += ["-H", str(HIERARCHY)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode:
        raise SystemExit(f"estimate exit {done.returncode}: {done.stderr.strip()}")
    answers = json.loads(done.stdout)["answers"]
    return [float(a["estimate"]) for a in answers]


def long_release(table: Path, out: Path) -> None:
    """The generalized release's sets as long tid,item rows (what `estimate` reads)."""
    with open(table, newline="") as f, open(out, "w", newline="") as g:
        w = csv.writer(g)
        w.writerow(["tid", "item"])
        for tid, row in enumerate(csv.DictReader(f)):
            for item in row["pages"].split(";"):
                w.writerow([tid, item.strip().strip('"')])


def are(est: list[float], act: list[int]) -> float:
    return statistics.mean(abs(e - a) / a for e, a in zip(est, act, strict=True))


def run_setting(release: str, size: int, args: argparse.Namespace, work: Path) -> dict:
    """One anonymize-rt setting, timed, its release written to `work`."""
    cmd = command(args.classes, size, args.k, args.m, "topdown")
    table = work / f"{release}_{size}.csv"
    if release == "disassociate":
        i = cmd.index("--item-search")
        del cmd[i : i + 2]
        chunks = work / f"chunks_{size}"
        cmd += ["--set-release", "disassociate", "--chunks-output", str(chunks)]
        if args.max_cluster is not None:
            cmd += ["--max-cluster", str(args.max_cluster)]
    runs = []
    for _ in range(args.repeat):
        for p in (table, work / f"chunks_{size}"):
            if p.is_dir():
                for f in p.iterdir():
                    f.unlink()
                p.rmdir()
            elif p.exists():
                p.unlink()
        runs.append(one([*cmd, "-o", str(table)]))
    r = runs[0]
    med = {x: statistics.median(run[x] for run in runs) for x in ("wall", "cpu", "rss")}
    return {**r, **med, "table": table}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, nargs="+", default=[10, 50, 100, 300, 1000])
    ap.add_argument("--release", nargs="+", default=["disassociate", "generalize"],
                    choices=["disassociate", "generalize"])  # fmt: skip
    ap.add_argument("--classes", choices=["cover", "cuts"], default="cover")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--m", type=int, default=2)
    ap.add_argument("--queries", type=int, default=300, help="Itemsets per workload and size.")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-cluster", type=int, default=None,
                    help="The disassociation's --max-cluster (100 unless given).")  # fmt: skip
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--work", type=Path, default=None, help="Folder of the releases (temp).")
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="rt_dis_"))
    work.mkdir(parents=True, exist_ok=True)
    sets = original_sets()
    loads = workloads(sets, args.queries, args.seed)
    keys = sorted(loads)
    flat = [t for key in keys for t in loads[key]]
    truth = actual(sets, flat)
    cols = " ".join(f"{w[:4]}{s:>2}" for w, s in keys)
    print(f"{'release':12} {'size':>5} {'classes':>7} {'rel NCP':>7} {'itemNCP':>7} "
          f"{'wall s':>6} {'CPU s':>6} {'peakMB':>6} ok  ARE% {cols}")  # fmt: skip
    for name, (rel, item, wall) in PEER.items():
        print(f"{name}: relational {rel}, item NCP {item}, {wall} s")
    for size in args.size:
        for release in args.release:
            r = run_setting(release, size, args, work)
            if release == "disassociate":
                est = estimates(work / f"chunks_{size}", flat, hierarchy=False)
            else:
                long = work / f"long_{size}.csv"
                long_release(r["table"], long)
                est = estimates(long, flat, hierarchy=True)
            errors, at = [], 0
            for key in keys:
                n = len(loads[key])
                errors.append(100 * are(est[at : at + n], truth[at : at + n]))
                at += n
            print(
                f"{release:12} {size:5d} {r['classes']:7d} {r['relational_ncp']:7.3f} "
                f"{r['item_ncp']:7.3f} {r['wall']:6.1f} {r['cpu']:6.1f} {r['rss']:6.0f} "
                f"{str(r['verified']['ok'])[0]}  " + " ".join(f"{e:6.1f}" for e in errors),
                flush=True,
            )


if __name__ == "__main__":
    main()
