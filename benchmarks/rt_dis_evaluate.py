"""`setanon evaluate` on both shapes of a (k, k^m) release of adult_wv2_rt.csv (issue 41): the
set column generalized (`--item-search topdown`) and disassociated inside every class, on the
same classes, judged on the same mixed queries ("rows with this QI value holding these pages")
and attacks (a row's QIs and 1..m+1 of its pages), drawn by the same seed: mixed-query ARE per
size, targets below k per known items, and the evaluate call timed (whole-process, medians of
--repeat, in its own child process under /usr/bin/time). Example:

    python benchmarks/rt_dis_evaluate.py --size 300 --max-cluster 11 --repeat 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rt_tradeoff import command, one  # noqa: E402


def anonymize(release: str, db: Path, args: argparse.Namespace) -> dict:
    """Store one release as run `release` in `db`, timed once."""
    cmd = command("cover", args.size, args.k, args.m, "topdown")
    if release == "disassociate":
        i = cmd.index("--item-search")
        del cmd[i : i + 2]
        cmd += ["--set-release", "disassociate", "--max-cluster", str(args.max_cluster)]
    return one([*cmd, "--db", str(db), "--run", release])


def evaluate(release: str, db: Path, args: argparse.Namespace) -> dict:
    """`setanon evaluate --run release`, --repeat times: the figures and the median times."""
    cmd = [sys.executable, "-m", "setanon_sql", "evaluate", "--db", str(db), "--run", release,
           "--queries", str(args.queries), "--targets", str(args.targets), "--sizes", "1,2,3",
           "--seed", str(args.seed), "--memory-limit", "3.5GB", "--json"]  # fmt: skip
    runs = [one(cmd) for _ in range(args.repeat)]
    med = {x: statistics.median(r[x] for r in runs) for x in ("wall", "cpu", "rss")}
    return {**runs[0], **med}


def row(release: str, made: dict, ev: dict) -> str:
    are = {q["size"]: 100 * q["mean_relative_error"] for q in ev["mixed_queries"]}
    below = {a["known_items"]: f"{a['below_k']}/{a['targets']}" for a in ev["attacks"]}
    cells = [release, f"{made['relational_ncp']:.3f}", f"{made['item_ncp']:.3f}",
             *(f"{are.get(s, float('nan')):.1f}" for s in (1, 2, 3)),
             *(below.get(p, "") for p in (1, 2, 3)),
             f"{ev['wall']:.1f}", f"{ev['cpu']:.1f}", f"{ev['rss']:.0f}"]  # fmt: skip
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=300, help="--class-size of both runs.")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--m", type=int, default=2)
    ap.add_argument("--max-cluster", type=int, default=11)
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--targets", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(
        "| release | relational NCP | item NCP | mixed ARE 1 % | 2 % | 3 % | below k, 1 item "
        "| 2 | 3 | evaluate wall s | CPU s | peak MB |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        db = Path(work) / "rt.duckdb"
        for release in ("generalize", "disassociate"):
            made = anonymize(release, db, args)
            print(row(release, made, evaluate(release, db, args)), flush=True)


if __name__ == "__main__":
    main()
