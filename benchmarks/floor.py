"""The whole-process floor on small inputs: what a run pays before its search starts.

Issue 15 asks for whole-process times 10x below a pure-Python Partition on BMS-WebView-1
(fan-out-5 hierarchy) and BMS-WebView-2. This prints, per dataset, the median wall and CPU
seconds and peak RSS of processes that stop earlier and earlier:

    start   python -c "import duckdb"                    (interpreter and engine)
    help    setanon --help                               (the CLI's start-up)
    load    open_store(...) in a fresh process           (start-up, reading, checks, encoding)
    A k=K   setanon anonymize ... -a A -k K -q           (the whole run, release verified, written)

next to the peer's time / 10 where the issue gives the peer's time (the issue holds Partition
and LGR to the same peer). Example:

    python benchmarks/floor.py --dataset wv1 wv2 --algorithm partition lgr --k 5 10 --repeat 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
SOURCES = {
    "wv1": [str(DATA / "bms-webview-1.spmf.txt"), "--fanout", "5", "--order", "id"],
    "wv2": [str(DATA / "bms-webview-2.spmf.txt"), "-H", str(DATA / "bms-webview-2.hierarchy.txt")],
}
LOAD = {
    "wv1": "HierarchySpec(fanout=5, order='id')",
    "wv2": f"HierarchySpec(path={str(DATA / 'bms-webview-2.hierarchy.txt')!r})",
}
PEER_S = {("wv1", 10): 2.51, ("wv1", 5): 4.22, ("wv2", 10): 7.74}  # issue 15, Partition


def measure(cmd: list[str], repeat: int) -> dict:
    """Median wall, CPU and peak RSS of `repeat` runs of cmd after one warm-up."""
    runs = [_one(cmd) for _ in range(repeat + 1)][1:]
    return {
        key: round(statistics.median(r[key] for r in runs), 3) for key in ("wall_s", "cpu_s", "mb")
    }


def _one(cmd: list[str]) -> dict:
    """One run: wall from outside, CPU and peak RSS from the kernel's account of that child."""
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            err.seek(0)
            raise SystemExit(f"{' '.join(cmd)} failed: {err.read().decode()[-400:]}")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "mb": usage.ru_maxrss / 1024}


def stages(
    dataset: str, algorithms: list[str], ks: list[int], out: Path
) -> list[tuple[str, list[str]]]:
    """The commands of one dataset, shortest first."""
    py, setanon = sys.executable, str(Path(sys.executable).with_name("setanon"))
    source = SOURCES[dataset][0]
    load = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
        "from setanon_sql import HierarchySpec, open_store; "
        f"open_store({source!r}, hierarchy_spec={LOAD[dataset]})"
    )
    rows = [
        ("start", [py, "-c", "import duckdb"]),
        ("help", [setanon, "--help"]),
        ("load", [py, "-c", load]),
    ]
    for algorithm in algorithms:
        for k in ks:
            cmd = [setanon, "anonymize", *SOURCES[dataset], "-a", algorithm, "-k", str(k), "-q"]
            release = out / f"{dataset}_{algorithm}_k{k}.csv"
            rows.append((f"{algorithm} k={k}", [*cmd, "-o", str(release)]))
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dataset", nargs="+", default=["wv1", "wv2"], choices=sorted(SOURCES))
    p.add_argument("--algorithm", nargs="+", default=["partition"], choices=["partition", "lgr"])
    p.add_argument("--k", type=int, nargs="+", default=[5, 10, 25, 50, 100])
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    print("| dataset | stage | wall s | CPU s | peak MiB | peer / 10 |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="setanon-floor-") as out:
        for dataset in args.dataset:
            for stage, cmd in stages(dataset, args.algorithm, args.k, Path(out)):
                m = measure(cmd, args.repeat)
                k = int(stage.split("k=")[1]) if "k=" in stage else None
                target = PEER_S.get((dataset, k))
                goal = f"{target / 10:.2f}" if target else ""
                print(
                    f"| {dataset} | {stage} | {m['wall_s']} | {m['cpu_s']} | {m['mb']:.0f} | {goal} |"
                )
    print(f"# load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
