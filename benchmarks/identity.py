"""Identity and timing against an older commit: the same CLI command on this tree and on REV,
whole processes taking turns, the releases' md5 and the wall-time ratio pair by pair.

Issue 43's "Done when", in one command (every algorithm of this tree's catalog on WV1 and WV2,
k 5 and 10, m 2 and 3 where the algorithm takes m; 3 pairs each; a verdict line at the end):

    python benchmarks/identity.py --against 7869cb1

A restructure must not change what the tool releases, nor cost time (issue 27: "md5-identical
before and after for every algorithm on WV1, WV2 and a synthetic 10^5 (k 5 and 10, m 2 and 3);
whole-process times within 5 % (paired runs against the old commit)"). Each configuration runs
`setanon anonymize INPUT -a ALGO -k K [-m M] -o release.csv` as its own process, once per
revision and repeat, in turns that swap which revision goes first (A B, B A, ...: a first run
warms the page cache for the second); the release file's lines are sorted before hashing (row order is
not part of a release). The timing ratio is the median of the pairs' ratios, so a machine whose
speed drifts during the run still compares fairly.

    python benchmarks/identity.py --against d71f1f5 --repeat 3 --datasets wv1 wv2 synth-1e5
    python benchmarks/identity.py --against d71f1f5 --datasets wv1 --algorithms aa --k 5 --m 2

Disassociation writes a folder: its hash is over each file's name and sorted lines. Every
process runs under `--memory-limit` (3.5GB by default: the machine is shared).

Bytecode: an installed package runs from compiled bytecode (pip compiles it at install), but a
shell with PYTHONDONTWRITEBYTECODE=1 makes every process compile the whole package from source
again, which times the size of the code rather than what it does (0.2 s of CPU per process
more for this tree than for 7869cb1 on fig2). By default (`--bytecode cached`) each revision
gets its own compiled cache, filled before the first run (`compileall`); `--bytecode source`
times the from-source start-up as the shell does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT.parent / "shared" / "data"
SYNTH = Path(os.environ.get("TMPDIR", "/tmp")) / "setanon-synth" / "identity_1e5.parquet"
sys.path.insert(0, str(ROOT))
try:  # the registry (issue 43); an older commit keeps it in catalog.py
    from setanon_sql.algorithms import ALGORITHMS as CATALOG  # noqa: E402
except ImportError:
    from setanon_sql.catalog import ALGORITHMS as CATALOG  # type: ignore[attr-defined,no-redef]  # noqa: E402

KM = tuple(name for name, a in CATALOG.items() if a.needs_m)
ALGORITHMS = tuple(n for n, a in CATALOG.items() if a.model != "dp")  # noise: never identical
FOLDERS = tuple(
    name
    for name, a in CATALOG.items()
    if getattr(a, "disassociated", False)
    or getattr(getattr(a, "kind", None), "value", "") == "disassociated"
)
MANIFEST = "release.json"
"""A folder's manifest is left out of its hash: it names the run, and 7869cb1's has no
`suppressed` field (every other file of the folder is hashed)."""
WITHIN = 0.05
"""The issue's bound on the paired wall-time ratio: at most 5 % slower than the older commit
(one-sided: a faster run is no miss)."""
DATASETS = {
    "wv1": ["--fanout", "5"],
    "wv2": ["--hierarchy", str(DATA / "bms-webview-2.hierarchy.txt")],
    "synth-1e5": ["--fanout", "5"],
}
SOURCES = {
    "wv1": DATA / "bms-webview-1.spmf.txt",
    "wv2": DATA / "bms-webview-2.spmf.txt",
    "synth-1e5": SYNTH,
}
# Runs an older revision's CLI from its own tree, whatever the virtual environment installed.
LAUNCH = "import sys; sys.path.insert(0, sys.argv.pop(1)); from setanon_sql.cli import main; main()"


def configs(args: argparse.Namespace) -> list[tuple[str, str, int, int | None]]:
    """(dataset, algorithm, k, m) for every asked combination; m only for k^m algorithms."""
    out = []
    for ds in args.datasets:
        for algo in args.algorithms:
            for k in args.k:
                for m in args.m if algo in KM else [None]:
                    out.append((ds, algo, k, m))
    return out


def child_env(code: str, bytecode: str, cache: Path) -> dict[str, str]:
    """The environment of a revision's processes: its own bytecode cache under `cache`,
    compiled up front, or (`source`) none, every module compiled at each start."""
    env = dict(os.environ)
    if bytecode == "source":
        return env | {"PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache / hashlib.md5(code.encode()).hexdigest()[:12])
    pkg = str(Path(code) / "setanon_sql")
    subprocess.run([sys.executable, "-m", "compileall", "-q", pkg], env=env, check=True)
    return env


def command(
    code: str, ds: str, algo: str, k: int, m: int | None, out: Path, memory: str
) -> list[str]:
    hierarchy = [] if algo in FOLDERS else DATASETS[ds]
    cmd = [sys.executable, "-c", LAUNCH, code, "anonymize", str(SOURCES[ds]), *hierarchy]
    cmd += ["-a", algo, "-k", str(k), *(["-m", str(m)] if m else []), "-o", str(out)]
    if memory and "--memory-limit" in _help(code):
        cmd += ["--memory-limit", memory]
    return cmd + ["--quiet"] if "--quiet" in _help(code) else cmd


_HELP: dict[str, str] = {}


def _help(code: str) -> str:
    """The anonymize command's help text of a revision (to pass only flags it has)."""
    if code not in _HELP:
        done = subprocess.run(
            [sys.executable, "-c", LAUNCH, code, "anonymize", "--help"],
            capture_output=True,
            text=True,
        )
        _HELP[code] = done.stdout
    return _HELP[code]


def release_md5(out: Path) -> tuple[str, int]:
    """md5 and line count of a release file's sorted lines (row order is not part of a
    release); of a folder, each file's name then its canonical lines, files in name order."""
    if not out.is_dir():
        lines = sorted(out.read_bytes().splitlines())
        return hashlib.md5(b"\n".join(lines)).hexdigest(), len(lines)
    digest, rows = hashlib.md5(), 0
    for f in sorted(p for p in out.rglob("*") if p.is_file() and p.name != MANIFEST):
        lines = canonical_lines(f.read_bytes().splitlines())
        rows += len(lines)
        digest.update(f.relative_to(out).as_posix().encode() + b"\0" + b"\n".join(lines) + b"\0")
    return digest.hexdigest(), rows


def canonical_lines(lines: list[bytes]) -> list[bytes]:
    """A chunk file's lines with its rows' numbers left out: a chunk is a multiset of rows, each
    a set of items, and the numbers a row gets vary from run to run (of one commit too); each
    row becomes `key,items...` (its items sorted), the rows sorted. Other files: sorted lines."""
    head, body = (lines[0].split(b","), lines[1:]) if lines else ([], [])
    if b"row" not in head or b"item" not in head:
        return sorted(lines)
    row, item = head.index(b"row"), head.index(b"item")
    grouped: dict[tuple[bytes, ...], list[bytes]] = {}
    for line in body:
        cells = line.split(b",")
        key = tuple(c for i, c in enumerate(cells) if i != item)
        grouped.setdefault(key, []).append(cells[item])
    out = []
    for key, items in grouped.items():
        rest = b",".join(c for i, c in enumerate(key) if i != (row if row < item else row - 1))
        out.append(rest + b"|" + b",".join(sorted(items)))
    return [b",".join(head)] + sorted(out)


def run(cmd: list[str], out: Path, timeout: float, env: dict[str, str]) -> dict[str, Any]:
    """One whole process: wall, CPU of the child, exit code and the sorted release's md5."""
    if out.is_dir():
        shutil.rmtree(out)
    out.unlink(missing_ok=True)
    before = os.times()
    t0 = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    row: dict[str, Any] = {"rc": done.returncode, "wall_s": wall, "cpu_s": cpu}
    if done.returncode:
        row["note"] = (done.stderr.strip().splitlines() or ["?"])[-1][:120]
        return row | {"status": "refused" if done.returncode == 3 else "error"}
    row["md5"], rows = release_md5(out)
    return row | {"status": "ok", "rows": rows}


def compare(args: argparse.Namespace, old_code: str) -> list[dict[str, Any]]:
    """Every configuration on both revisions, taking turns, `repeat` pairs each."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="setanon-identity-") as tmp:
        new_env = child_env(str(ROOT), args.bytecode, Path(tmp))
        old_env = child_env(old_code, args.bytecode, Path(tmp))
        for ds, algo, k, m in configs(args):
            out = Path(tmp) / ("release" if algo in FOLDERS else "release.csv")
            pairs = []
            mem = args.memory_limit
            for turn in range(args.repeat):
                sides = [(str(ROOT), new_env), (old_code, old_env)]
                done = [
                    run(command(code, ds, algo, k, m, out, mem), out, args.timeout, env)
                    for code, env in (sides if turn % 2 == 0 else sides[::-1])
                ]
                new, old = done if turn % 2 == 0 else done[::-1]
                pairs.append((new, old))
                if new["status"] != "ok" or old["status"] != "ok":
                    break
            row = summary(ds, algo, k, m, pairs)
            print(json.dumps(row), file=sys.stderr, flush=True)
            rows.append(row)
    return rows


def summary(
    ds: str, algo: str, k: int, m: int | None, pairs: list[tuple[dict, dict]]
) -> dict[str, Any]:
    """One configuration's verdict: same status, same md5, median wall and pairwise ratio."""
    new, old = pairs[0]
    row: dict[str, Any] = {"dataset": ds, "algorithm": algo, "k": k, "m": m or ""}
    row |= {"status": new["status"], "old status": old["status"]}
    if new["status"] == old["status"] == "ok":
        same = all(a["md5"] == new["md5"] and b["md5"] == new["md5"] for a, b in pairs)
        row |= {"rows": new["rows"], "md5": new["md5"][:12], "identical": same}
    elif new["status"] == old["status"]:
        row |= {"identical": new.get("note") == old.get("note"), "note": new.get("note", "")}
    else:
        row |= {"identical": False, "note": f"{new.get('note', '')} / {old.get('note', '')}"}
    timed = [(a, b) for a, b in pairs if "wall_s" in a and "wall_s" in b]
    if timed:
        row["wall_s"] = round(statistics.median(a["wall_s"] for a, _ in timed), 2)
        row["old wall_s"] = round(statistics.median(b["wall_s"] for _, b in timed), 2)
        row["ratio"] = round(statistics.median(a["wall_s"] / b["wall_s"] for a, b in timed), 3)
        row["cpu ratio"] = round(
            statistics.median(a["cpu_s"] / max(b["cpu_s"], 1e-9) for a, b in timed), 3
        )
        row["pairs"] = len(timed)
        row["within 5 %"] = row["ratio"] <= 1 + WITHIN
    return row


def ensure_synth() -> None:
    """The synthetic 10^5 input (SynthSpec defaults, seed 1), written once."""
    if SYNTH.exists():
        return
    sys.path.insert(0, str(ROOT))
    from setanon_sql.measure.synthetic import SynthSpec, write_baskets

    SYNTH.parent.mkdir(parents=True, exist_ok=True)
    write_baskets(SYNTH, SynthSpec(transactions=100_000, seed=1))


def checkout(rev: str) -> Path:
    """REV in a temporary git worktree (removed by `remove`)."""
    path = Path(tempfile.mkdtemp(prefix="setanon-identity-rev-")) / "rev"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
        check=True,
        capture_output=True,
    )
    return path


def remove(path: Path) -> None:
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], capture_output=True
    )
    shutil.rmtree(path.parent, ignore_errors=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--against", metavar="REV", default="7869cb1", help="default 7869cb1")
    p.add_argument("--datasets", nargs="+", choices=list(DATASETS), default=["wv1", "wv2"])
    p.add_argument("--algorithms", nargs="+", choices=ALGORITHMS, default=list(ALGORITHMS))
    p.add_argument("--k", type=int, nargs="+", default=[5, 10])
    p.add_argument("--m", type=int, nargs="+", default=[2, 3])
    p.add_argument("--repeat", type=int, default=3, help="pairs per configuration")
    p.add_argument("--memory-limit", default="3.5GB", help="each process's DuckDB limit")
    p.add_argument("--timeout", type=float, default=1200, help="seconds per run")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument(
        "--bytecode",
        choices=["cached", "source"],
        default="cached",
        help="each revision from its own compiled cache (as installed), or from source",
    )
    args = p.parse_args()
    if "synth-1e5" in args.datasets:
        ensure_synth()
    old = checkout(args.against)
    try:
        rows = compare(args, str(old))
    finally:
        remove(old)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    sys.path.insert(0, str(HERE))
    from run import print_table

    cols = ["dataset", "algorithm", "k", "m", "status", "rows", "md5", "identical",
            "wall_s", "old wall_s", "ratio", "cpu ratio", "pairs", "within 5 %", "note"]  # fmt: skip
    print_table(rows, cols)
    print(verdict(rows, args.against) + f"\nbytecode: {args.bytecode}")


def verdict(rows: list[dict[str, Any]], rev: str) -> str:
    """The closing lines: how many releases are identical, the median ratio, those more than
    5 % slower."""
    same = sum(bool(r.get("identical")) for r in rows)
    lines = [f"\nidentical to {rev}: {same} of {len(rows)}"]
    timed = [r for r in rows if "ratio" in r]
    if timed:
        median = statistics.median(r["ratio"] for r in timed)
        cpu = statistics.median(r["cpu ratio"] for r in timed)
        beyond = [f"{r['dataset']} {r['algorithm']} k{r['k']} m{r['m']}: {r['ratio']}"
                  for r in timed if not r["within 5 %"]]  # fmt: skip
        lines.append(
            f"median wall ratio over {len(timed)} configurations {median:.3f} (CPU {cpu:.3f}); "
            f"{len(timed) - len(beyond)} within 5 % (or faster)"
            + (f"; more than 5 % slower: {', '.join(beyond)}" if beyond else "")
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
