"""Differential privacy (#44): `setanon evaluate`'s query error on -a dpsets releases at several
epsilons, side by side with the empty release and the k^m AA release (k = 10, m = 2), and the
whole-process time, CPU and peak memory of `setanon anonymize -a dpsets`.

Every release is judged the same way: `setanon evaluate` (2000 random and frequent 1/2/3-itemset
queries, seed 0, support 0.1 % of the transactions). The noise is OpenDP's, unseeded: each
epsilon runs --repeat times and every figure is the median of the repeats. The empty release is
a release file with no row, evaluated against the data. All use the fan-out 5 tree in id order
(dpsets refuses support order; its release holds the leaves, so the tree does not change it).
Needs ../shared/data. Examples:

    python benchmarks/dp.py                                   # WV1, WV2; eps 0.5 1 2; 3 repeats
    python benchmarks/dp.py --data wv1 --epsilon 1 --repeat 5 --option limit2=4
    python benchmarks/dp.py --synthetic s7.parquet --memory-limit 3.5GB --repeat 1
    python benchmarks/dp.py --data wv1 --epsilon --no-baselines \
        --release "DiffPart eps=1=/tmp/dp/wv1-1.0-s1.csv,/tmp/dp/wv1-1.0-s2.csv"

--before DIR runs the same dpsets rows with the code of another source tree (e.g. main's, from
`git archive main | tar -x -C DIR`) beside this one's, labelled "(before)": the issue's whole
table in one command:

    python benchmarks/dp.py --before /tmp/main-src     # eps 0.5 1 2, WV1 WV2, medians of 3

--catalogue N gives dpsets a tree of the data's items and N more leaves no transaction holds
(a public catalogue larger than what occurs, as README advises giving), flat under groups of
100; `rows` and `items` say how much of the release that made up:

    python benchmarks/dp.py --data wv1 --epsilon 1 --catalogue 50000 --no-baselines

--synthetic FILE times the anonymize process only (no evaluation), on a file written by
`setanon synth FILE -n N --seed 1`.

Every ARE is given twice: unbounded (r1..r3, f1..f3: `setanon evaluate`'s default) and under
the sanity bound of the DP itemset literature (sr1..sr3, sf1..sf3: `evaluate --sanity`, the
error over max(actual support, SANITY x |D|); --sanity, 0.001 unless given).

--release LABEL=FILE[,FILE...] judges an outside release of the one --data file the same way
(e.g. DiffPart's C++ output as tid,item rows, see notes/dp-baselines.md), the median over its
files (one per seed), through `setanon evaluate DATA --release FILE --synthesized`: its
transactions are its own, scored as `evaluate --run` scores a dpsets run's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from child import setanon, timed

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
DATA = {"wv1": SHARED / "bms-webview-1.spmf.txt", "wv2": SHARED / "bms-webview-2.spmf.txt"}
TREE = ["--fanout", "5", "--order", "id"]


def are(evaluated: dict) -> dict[str, float]:
    """The ARE per workload and size: r1..r3 random, f1..f3 frequent; sr.., sf.. bounded."""
    out = {}
    for key, tag in (("itemset_queries", "r"), ("frequent_queries", "f")):
        for row in evaluated[key]:
            out[f"{tag}{row['size']}"] = row["are"]
            if "are_sanity" in row:
                out[f"s{tag}{row['size']}"] = row["are_sanity"]
    return out


def judge(args: argparse.Namespace) -> list[str]:
    """The evaluate options every release is judged with."""
    return ["--json", "--sanity", str(args.sanity)]


def medians(rows: list[dict]) -> dict:
    return {k: statistics.median(r[k] for r in rows) for k in rows[0]}


def catalogue(data: Path, extra: int, path: Path) -> list[str]:
    """A `child,parent` tree of the data's items and `extra` unused leaves; its -H options."""
    items: set[int] = set()
    with data.open() as f:
        for line in f:
            items.update(int(x) for x in line.replace("-1", " ").replace("-2", " ").split())
    leaves = sorted(items) + [max(items) + 1 + i for i in range(extra)]
    groups = sorted({x // 100 for x in leaves})
    rows = [f"{x},g{x // 100}" for x in leaves] + [f"g{g},ALL" for g in groups]
    path.write_text("child,parent\n" + "\n".join(rows) + "\n")
    return ["-H", str(path)]


def dp_release(  # noqa: PLR0913 -- one run's whole setting
    data: Path,
    db: Path,
    eps: float,
    rep: int,
    args: argparse.Namespace,
    code: Path | None = None,
    tree: list[str] = TREE,
) -> dict:
    """One dpsets run and its evaluation (with the source tree `code`, if given)."""
    run = f"dp_{str(eps).replace('.', '_')}_{rep}"
    extra = [x for o in args.option for x in ("--option", o)]
    made = timed(setanon("anonymize", str(data), *tree, "-a", "dpsets", "--epsilon", str(eps),
                         "--db", str(db), "--run", run, "--json", *extra), code)  # fmt: skip
    info = json.loads(made["stdout"])
    judged = json.loads(
        timed(setanon("evaluate", "--db", str(db), "--run", run, *judge(args)), code)["stdout"]
    )
    released = info["released_rows"]
    return {**are(judged), "wall": made["wall"], "cpu": made["cpu"], "rss_mb": made["rss_mb"],
            "rows": released, "items": info["released_l1"]}  # fmt: skip


def release_file(data: Path, release: Path, args: argparse.Namespace) -> dict:
    """An outside synthesized release file judged against `data`."""
    judged = timed(setanon("evaluate", str(data), *TREE, "--release", str(release),
                           "--synthesized", *judge(args)))  # fmt: skip
    return are(json.loads(judged["stdout"]))


def outside(data: Path, args: argparse.Namespace) -> list[dict]:
    """Each --release LABEL=FILES: the medians over its files."""
    rows = []
    for spec in args.release:
        label, files = spec.rsplit("=", 1)
        runs = [release_file(data, Path(f), args) for f in files.split(",")]
        rows.append({"release": f"{label} (median of {len(runs)})", **medians(runs)})
        print(json.dumps(rows[-1]), file=sys.stderr)
    return rows


def baselines(data: Path, db: Path, tmp: Path, args: argparse.Namespace) -> list[dict]:
    """The empty release and AA k = 10, m = 2, judged the same way."""
    empty = tmp / "empty.csv"
    empty.write_text("tid,item\n")
    judged = timed(setanon("evaluate", str(data), *TREE, "--release", str(empty), "-k", "1",
                           *judge(args)))  # fmt: skip
    rows = [{"release": "empty", **are(json.loads(judged["stdout"]))}]
    made = timed(setanon("anonymize", str(data), *TREE, "-a", "aa", "-k", "10", "-m", "2",
                         "--db", str(db), "--run", "aa", "-q"))  # fmt: skip
    judged = timed(setanon("evaluate", "--db", str(db), "--run", "aa", *judge(args)))
    rows.append({"release": "AA k=10 m=2", **are(json.loads(judged["stdout"])),
                 "wall": made["wall"], "cpu": made["cpu"], "rss_mb": made["rss_mb"]})  # fmt: skip
    return rows


def compare(name: str, args: argparse.Namespace) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "dp.duckdb"
        tree = catalogue(DATA[name], args.catalogue, Path(d) / "tree.csv")
        if not args.catalogue:  # the data's own items, stated public (as the --fanout tree was)
            tree += ["--option", "public_domain=true"]
        for eps in args.epsilon:
            runs = [
                dp_release(DATA[name], db, eps, r, args, None, tree) for r in range(args.repeat)
            ]
            rows.append({"data": name, "release": f"dpsets eps={eps:g}", **medians(runs)})
            print(json.dumps(rows[-1]), file=sys.stderr)
            if args.before:
                old = Path(d) / "before.duckdb"  # its own file: the other tree's schema
                runs = [dp_release(DATA[name], old, eps, r, args, args.before, tree)
                        for r in range(args.repeat)]  # fmt: skip
                label = f"dpsets eps={eps:g} (before)"
                rows.append({"data": name, "release": label, **medians(runs)})
                print(json.dumps(rows[-1]), file=sys.stderr)
        rows += [{"data": name, **r} for r in outside(DATA[name], args)]
        if args.baselines:
            rows += [{"data": name, **r} for r in baselines(DATA[name], db, Path(d), args)]
    return rows


def speed(path: Path, eps: float, args: argparse.Namespace) -> dict:
    """Whole-process anonymize times on a synthetic file: medians of --repeat. The tree of its
    items is built beforehand and stated public (dpsets refuses a --fanout tree), so the times
    no longer hold the fan-out build."""
    limit = ["--memory-limit", args.memory_limit] if args.memory_limit else []
    extra = [x for o in [*args.option, "public_domain=true"] for x in ("--option", o)]
    runs = []
    with tempfile.TemporaryDirectory() as d:
        tree = ["-H", str(Path(d) / "tree.csv")]
        timed(setanon("hierarchy", "build", str(path), *TREE, "-o", tree[1]))
        for _ in range(args.repeat):
            made = timed(setanon("anonymize", str(path), *tree, "-a", "dpsets", "--epsilon",
                                 str(eps), *limit, *extra, "-q", "--json"))  # fmt: skip
            runs.append({"wall": made["wall"], "cpu": made["cpu"], "rss_mb": made["rss_mb"]})
    return {"data": path.name, "release": f"dpsets eps={eps:g}", **medians(runs)}


def markdown(rows: list[dict]) -> str:
    keys = ["data", "release", "r1", "r2", "r3", "f1", "f2", "f3", "sr1", "sr2", "sr3", "sf1",
            "sf2", "sf3", "wall", "cpu", "rss_mb", "rows", "items"]  # fmt: skip
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for r in rows:
        cells = []
        for k in keys:
            v = r.get(k, "")
            cells.append(f"{v:.3f}" if isinstance(v, float) and k[0] in "rfs" and k != "rss_mb"
                         else f"{v:.1f}" if isinstance(v, float) else str(v))  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", nargs="*", default=["wv1", "wv2"], choices=sorted(DATA))
    p.add_argument("--epsilon", type=float, nargs="*", default=None,
                   help="epsilons (default 0.5 1 2; with --synthetic, 1)")  # fmt: skip
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--option", action="append", default=[], help="dpsets option key=value")
    p.add_argument("--synthetic", type=Path, nargs="*", default=[])
    p.add_argument("--catalogue", type=int, default=0, metavar="N",
                   help="dpsets' tree: the data's items and N unused leaves (default: fan-out 5)")  # fmt: skip
    p.add_argument("--memory-limit", default=None)
    p.add_argument("--sanity", type=float, default=0.001, help="evaluate --sanity (0.001)")
    p.add_argument("--release", action="append", default=[], metavar="LABEL=FILE[,FILE...]",
                   help="an outside release of the one --data file, judged the same way")  # fmt: skip
    p.add_argument("--before", type=Path, default=None, metavar="DIR",
                   help="also run dpsets with this source tree's code, labelled (before)")  # fmt: skip
    p.add_argument("--baselines", action=argparse.BooleanOptionalAction, default=True,
                   help="the empty release and AA k=10 m=2 (default: on)")  # fmt: skip
    args = p.parse_args()
    if args.release and len(args.data) != 1:
        p.error("--release judges a release of one --data file")
    if args.synthetic and (args.catalogue or args.before or args.release):
        p.error("--synthetic times the anonymize process alone: not with --catalogue, --before "
                "or --release")  # fmt: skip
    if args.synthetic:
        rows = [speed(path, eps, args) for path in args.synthetic for eps in args.epsilon or [1.0]]
    else:
        args.epsilon = args.epsilon or [0.5, 1.0, 2.0]
        rows = [r for name in args.data for r in compare(name, args)]
    print(markdown(rows))


if __name__ == "__main__":
    main()
