"""The k x m matrix of issue 13 for the cut searches: NCP of AA and DA, each without and with
the specialization pass, and DA's time, on WV1 (fan-out 5) and WV2 (shipped hierarchy).

Each configuration runs once per repetition as its own process through `benchmarks/run.py`
(wall and CPU seconds are medians over the repetitions; NCP is deterministic). One run with
`specialize=true` gives both NCPs: the search's cut before the pass is in `cut_ncp_before_
specialize`. `--old DIR` adds DA from another checkout (e.g. `git archive` of an older commit).
Example:

    python benchmarks/km_matrix.py --k 5 10 25 50 --m 1 2 3 --repeat 3 --old /tmp/old-da
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The public Python DA of Terrovitis et al. (issue 13), NCP %, where it is known.
PUBLIC_DA = {("wv2", 10, 2): 6.72, ("wv1", 10, 2): 5.82}


def measure(root: Path, dataset: str, algorithm: str, k: int, m: int, options: dict) -> dict:
    """One configuration in its own process, via that checkout's benchmarks/run.py."""
    cmd = [sys.executable, str(root / "benchmarks" / "run.py"), "--single", "--dataset", dataset]
    cmd += [
        "--algorithm",
        algorithm,
        "--k",
        str(k),
        "--m",
        str(m),
        "--options",
        json.dumps(options),
    ]
    cmd += ["--fanout", "5"] if dataset == "wv1" else []
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
    if done.returncode:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def repeated(root: Path, repeat: int, *args) -> dict:
    """The first run's figures with wall and CPU seconds as medians over `repeat` runs."""
    runs = [measure(root, *args) for _ in range(repeat)]
    if "error" in runs[0]:
        return runs[0]
    out = dict(runs[0])
    for key in ("run_s", "cpu_s", "peak_rss_mb"):
        out[key] = statistics.median(r[key] for r in runs)
    return out


def ncp_pair(row: dict) -> tuple[str, str]:
    """(NCP % before the pass, NCP % after), or the error twice."""
    if "error" in row:
        return (row["error"][:40],) * 2
    before = row.get("info_cut_ncp_before_specialize")
    return f"{100 * before:.3f}", f"{row['ncp_pct']:.3f}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dataset", nargs="+", default=["wv1", "wv2"], choices=["wv1", "wv2"])
    p.add_argument("--k", type=int, nargs="+", default=[5, 10, 25, 50])
    p.add_argument("--m", type=int, nargs="+", default=[1, 2, 3])
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--old", type=Path, help="another checkout whose DA to add as 'old DA'")
    p.add_argument("--old-max-m", type=int, default=2, help="run the old DA up to this m")
    args = p.parse_args()
    print(
        "| data | k | m | AA | AA+spec | DA | DA+spec | DA+spec / AA | old DA | public DA "
        "| DA wall s | DA CPU s | DA peak MB | AA wall s |"
    )
    print("|" + "---|" * 14)
    for ds in args.dataset:
        for m in args.m:
            for k in args.k:
                spec = {"specialize": True}
                aa = repeated(ROOT, args.repeat, ds, "aa", k, m, spec)
                da = repeated(ROOT, args.repeat, ds, "da", k, m, spec)
                old = {}
                if args.old and m <= args.old_max_m:
                    old = measure(args.old, ds, "da", k, m, {})
                (aa0, aa1), (da0, da1) = ncp_pair(aa), ncp_pair(da)
                ratio = ""
                if "error" not in da and "error" not in aa:
                    plain = aa["info_cut_ncp_before_specialize"]
                    ratio = f"{da['info_cut_ncp'] / plain:.3f}" if plain else "0 = 0"
                cells = [ds, k, m, aa0, aa1, da0, da1, ratio]
                cells.append(old.get("ncp_pct", old.get("error", "")[:40]) if old else "")
                cells.append(PUBLIC_DA.get((ds, k, m), ""))
                cells += [da.get("run_s", ""), da.get("cpu_s", ""), da.get("peak_rss_mb", "")]
                cells.append(aa.get("run_s", ""))
                print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)


if __name__ == "__main__":
    main()
