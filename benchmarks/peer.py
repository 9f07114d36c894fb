"""Side by side with the pure-Python peer from 10^5 transactions up (issue 30).

The peer is the public pure-Python Partition of He & Naughton (qiyuangong's
`Partition_for_Transaction`), ported to Python 3 outside this repository; `--peer DIR` names
that port, whose `run_peer.py DATA TREE K` reads SPMF lines and a child,parent CSV tree, runs
its `partition()` once and prints `NCP x% ...`. Its code never enters this repository.

Per size this writes setanon's own synthetic baskets (`setanon synth`, a vocabulary like the
issue's third row: 870 items) as SPMF lines, builds one fan-out-5 tree with `setanon hierarchy
build --fanout 5 --order id`, and gives the same two files to both tools. Then it runs rounds,
each ours per algorithm then the peer (`setanon anonymize DATA -H TREE -a A -k K -q -o
release.csv --json`: input checks, load, search, verifier, NCP, release written), so the two
alternate A B A B; the first `--warmup` rounds are not counted. It prints medians of wall and
CPU seconds, the medians of the pairwise ratios peer / ours (wall and CPU), both NCPs and our
median peak RSS, with the load average before and after each size. Ours goes first in a round
so that a peer stopped by `--peer-timeout` (its row then says so) still leaves ours measured. Every release of ours is verified by anonymize itself
(its JSON says `"verified": true`; this script stops if not). Example:

    python benchmarks/peer.py --peer /tmp/peer --size 100000 --repeat 3
    python benchmarks/peer.py --peer /tmp/peer --size 1000000 --repeat 1 --warmup 0
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

SPMF_SQL = (
    "COPY (SELECT string_agg(item::VARCHAR, ' ' ORDER BY item) FROM read_parquet($src) "
    "GROUP BY tid ORDER BY tid) TO '{dst}' (HEADER false, QUOTE '', DELIMITER '\t')"
)


def run(cmd: list[str], timeout: float | None = None) -> dict:
    """One whole process: wall from outside, CPU and peak RSS from the kernel's account of it."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            wall = time.perf_counter() - started
            if pid:
                break
            if timeout is not None and wall > timeout:
                proc.kill()
                os.wait4(proc.pid, 0)
                return {"timeout": True, "wall_s": wall}
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed: {err.read().decode()[-400:]}")
        return {
            "wall_s": wall,
            "cpu_s": usage.ru_utime + usage.ru_stime,
            "mib": usage.ru_maxrss / 1024,
            "stdout": out.read().decode(),
        }


def prepare(size: int, items: int, seed: int, setanon: str, work: Path) -> tuple[Path, Path]:
    """Synthetic baskets as SPMF lines and one fan-out-5 tree over them."""
    parquet, spmf, tree = work / f"s{size}.parquet", work / f"s{size}.txt", work / f"s{size}.csv"
    synth = ["synth", str(parquet), "-n", str(size), "--items", str(items), "--seed", str(seed)]
    subprocess.run([setanon, *synth], check=True, stdout=subprocess.DEVNULL)
    duckdb.connect().execute(SPMF_SQL.format(dst=spmf), {"src": str(parquet)})
    build = ["hierarchy", "build", str(spmf), "-o", str(tree), "--fanout", "5", "--order", "id"]
    subprocess.run([setanon, *build], check=True, stdout=subprocess.DEVNULL)
    return spmf, tree


def peer_once(peer: Path, spmf: Path, tree: Path, k: int, timeout: float) -> dict:
    """The peer's whole process; its NCP read from its output."""
    r = run([sys.executable, str(peer / "run_peer.py"), str(spmf), str(tree), str(k)], timeout)
    if not r.get("timeout"):
        r["ncp"] = float(re.search(r"NCP ([0-9.]+)%", r["stdout"]).group(1))
    return r


def ours_once(setanon: str, spmf: Path, tree: Path, algorithm: str, k: int, work: Path) -> dict:
    """Our whole process; stop unless its release was verified."""
    release = work / f"release_{algorithm}.csv"
    release.unlink(missing_ok=True)
    cmd = [setanon, "anonymize", str(spmf), "-H", str(tree), "-a", algorithm, "-k", str(k)]
    r = run([*cmd, "-q", "-o", str(release), "--json"])
    info = json.loads(r["stdout"])
    if not info.get("verified"):
        raise SystemExit(f"{algorithm}: release not verified: {info}")
    r["ncp"], r["search_s"] = info["ncp"] * 100, info.get("search_s")
    return r


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--peer", type=Path, required=True, help="the ported peer (outside the repo)")
    p.add_argument("--size", type=int, nargs="+", default=[100_000])
    p.add_argument("--algorithm", nargs="+", default=["partition", "lgr"])
    p.add_argument("--items", type=int, default=870)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--peer-timeout", type=float, default=1800)
    p.add_argument("--work", type=Path, help="keep data here (default a temporary folder)")
    args = p.parse_args()
    setanon = str(Path(sys.executable).with_name("setanon"))
    print(f"# {os.cpu_count()} cores")
    print(
        "| size | algorithm | ours wall s | ours CPU s | peer wall s | peer CPU s "
        "| peer / ours wall | peer / ours CPU | NCP % ours / peer | ours peak MiB | load avg |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="setanon-peer-") as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for size in args.size:
            spmf, tree = prepare(size, args.items, args.seed, setanon, work)
            load0 = os.getloadavg()[0]
            peers, ours = [], {a: [] for a in args.algorithm}
            for round_ in range(args.warmup + args.repeat):
                row = {a: ours_once(setanon, spmf, tree, a, args.k, work) for a in args.algorithm}
                pr = peer_once(args.peer, spmf, tree, args.k, args.peer_timeout)
                print(f"# round {round_} peer {pr['wall_s']:.1f} s", file=sys.stderr, flush=True)
                if round_ >= args.warmup:
                    peers.append(pr)
                    for a in args.algorithm:
                        ours[a].append(row[a])
            load1 = os.getloadavg()[0]
            for a in args.algorithm:
                report(size, a, ours[a], peers, load0, load1)


def med(runs: list[dict], key: str) -> float:
    """Median of one figure over the counted runs."""
    return statistics.median(r[key] for r in runs)


def report(
    size: int, algorithm: str, ours: list[dict], peers: list[dict], load0: float, load1: float
) -> None:
    """One table row; a peer that hit its timeout is shown as such."""
    if any(r.get("timeout") for r in peers):
        peer_wall = f"> {med(peers, 'wall_s'):.0f} (timeout)"
        peer_cpu, ratio, cpu_ratio, peer_ncp = "", "", "", "-"
    else:
        pairs = list(zip(peers, ours, strict=True))
        peer_wall, peer_cpu = f"{med(peers, 'wall_s'):.2f}", f"{med(peers, 'cpu_s'):.2f}"
        ratio = f"{statistics.median(p['wall_s'] / o['wall_s'] for p, o in pairs):.1f}x"
        cpu_ratio = f"{statistics.median(p['cpu_s'] / o['cpu_s'] for p, o in pairs):.1f}x"
        peer_ncp = f"{peers[0]['ncp']:.3f}"
    print(
        f"| {size:,} | {algorithm} | {med(ours, 'wall_s'):.2f} | {med(ours, 'cpu_s'):.2f} "
        f"| {peer_wall} | {peer_cpu} | {ratio} | {cpu_ratio} | {ours[0]['ncp']:.3f} / {peer_ncp} "
        f"| {med(ours, 'mib'):.0f} | {load0:.1f}-{load1:.1f} |",
        flush=True,
    )


if __name__ == "__main__":
    main()
