"""Shape matrix: every transaction algorithm on data of different shapes, each named
statement's time and rows, and the same run on an older commit beside it.

A plan that explodes on one shape of data hides on the others (issue 26: NCP's statement joined
every released node to its whole subtree on a large vocabulary with an id-order tree, and no
WV1/WV2 figure showed it). Shapes:

    wv1          BMS-WebView-1: sparse, 497 items (fan-out 5 tree, the default support order)
    wv2          BMS-WebView-2: sparse, 3,340 items, the shipped hierarchy
    retail-like  88,162 synthetic baskets of 16,470 items, mean length 10.4 (the public retail
                 data of the issue), fan-out 8 tree in id order
    mushroom     FIMI mushroom: dense, 8,124 x 23 items of 119 (fan-out 5 tree)
    chess        FIMI chess: dense, 3,196 x 37 items of 75 (fan-out 5 tree)
    synth-1e5    10^5 synthetic baskets of 10,000 items (fan-out 5, id order; as scale.py)
    synth-1e6    10^6 of them

Each configuration (dataset, algorithm, k; m = 2 for the k^m algorithms) runs in a process of
its own, so wall, CPU and peak RSS are its alone; DuckDB's profiler is on (`plans.py`) and
gives each statement's result rows and its widest operator. A run an algorithm refuses (DA's
max_itemsets, OA's max_cuts: exit 3) is reported as refused, an algorithm the commit does not
have as absent.

With --against REV the same matrix runs on REV too, checked out into a temporary git worktree
and imported from there (same virtual environment: REV must need the same dependencies), the
two sides taking turns; the tables then give the ratio new / REV per run and per statement and
flag a run or statement over 20 % slower, a statement whose rows or widest operator grew, and a
release or NCP that differs. Examples:

    python benchmarks/shapes.py --datasets wv1 wv2 --algorithms partition aa --k 5
    flock /tmp/setanon-bench.lock python benchmarks/shapes.py --against d71f1f5 \\
        --datasets wv1 wv2 retail-like mushroom chess synth-1e5
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT.parent / "shared" / "data"
ALGORITHMS = ("aa", "da", "oa", "partition", "lgr", "clump", "disassociation")
KM = ("aa", "da", "oa", "disassociation")
SLOWER = 1.2  # a run or statement this much slower than on REV is flagged
NOISE_S = 0.05  # ... when it is also this many seconds slower (small steps flicker)
GROWTH = 1.2  # a widest operator this much larger than on REV is flagged
NOISE_ROWS = 1000  # ... when it is also this many rows larger


@dataclass(frozen=True)
class Shape:
    """A dataset: its source (a file of ../shared/data, or synthetic) and its hierarchy."""

    source: str  # file name in DATA, or "synth"
    fanout: int | None = None  # None: the shipped hierarchy
    order: str | None = None  # the fan-out builder's order (None: its default)
    hierarchy: str | None = None  # shipped hierarchy file in DATA
    synth: tuple[tuple[str, Any], ...] = ()  # SynthSpec fields


SHAPES = {
    "wv1": Shape("bms-webview-1.spmf.txt", fanout=5),
    "wv2": Shape("bms-webview-2.spmf.txt", hierarchy="bms-webview-2.hierarchy.txt"),
    "retail-like": Shape(
        "synth",
        fanout=8,
        order="id",
        synth=(
            ("transactions", 88_162),
            ("items", 16_470),
            ("min_length", 4.5),
            ("fanout", 8),
            ("seed", 1),
        ),
    ),
    "mushroom": Shape("mushroom.dat", fanout=5),
    "chess": Shape("chess.dat", fanout=5),
    "synth-1e5": Shape(
        "synth", fanout=5, order="id", synth=(("transactions", 100_000), ("seed", 1))
    ),
    "synth-1e6": Shape(
        "synth", fanout=5, order="id", synth=(("transactions", 1_000_000), ("seed", 1))
    ),
}


# -- one configuration, in its own process --------------------------------------------------------
def one(args: argparse.Namespace) -> dict[str, Any]:
    """Load, anonymize (verify, measure) one configuration with the code of `args.code`."""
    sys.path.insert(0, args.code)
    sys.path.insert(0, str(HERE))
    import plans
    from scale import statement_seconds

    from setanon_sql import (
        HierarchySpec,
        Params,
        algorithms,  # the registry (#43); catalog.py held it in between
        anonymize,
        open_store,
    )
    from setanon_sql.errors import ExitCode, SetAnonError

    if not hasattr(algorithms, "get"):
        from setanon_sql import catalog as algorithms

    shape = SHAPES[args.dataset]
    row: dict[str, Any] = {"dataset": args.dataset, "algorithm": args.algorithm, "k": args.k}
    try:
        algorithms.get(args.algorithm)
    except SetAnonError:
        return row | {"status": "absent"}
    spec = (
        HierarchySpec(path=DATA / shape.hierarchy)
        if shape.hierarchy
        else HierarchySpec(fanout=shape.fanout, order=shape.order)
    )
    wall0, cpu0 = time.perf_counter(), time.process_time()
    store, _ = open_store(args.path, hierarchy_spec=spec)
    load_s = time.perf_counter() - wall0
    log = plans.PlanLog(store.ex.con)
    if args.plans:
        plans.enable(store.ex.con)
    m = 2 if args.algorithm in KM else None
    try:
        with store.ex.recording(log):
            result = anonymize(store, Params(algorithm=args.algorithm, k=args.k, m=m))
    except SetAnonError as e:
        if e.exit_code != ExitCode.INPUT:
            raise
        return row | {"status": "refused", "note": str(e).splitlines()[0][:120]}
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    steps = {}
    for name, count, seconds, _ in statement_seconds(log):
        mine = [p for p in log.plans if p.step == name]
        steps[name] = {
            "n": count,
            "s": round(seconds, 4),
            "rows": sum(p.rows for p in mine) if mine else None,
            "widest": max((p.widest().rows for p in mine if p.operators), default=None),
        }
    return row | {
        "status": "ok",
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "load_s": round(load_s, 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "ncp": result.loss["ncp"],
        "lm": result.loss["lm"],
        "verified": result.report.ok,
        "release_md5": release_md5(store, result.run),
        "statements": steps,
    }


DISASSOCIATED = ("dis_chunk", "dis_item", "dis_joint", "dis_shared", "dis_suppressed", "dis_term")


def release_md5(store: Any, run: str) -> str:
    """An order-free fingerprint of a release by labels (so two commits' runs compare); a
    disassociated run has no `release` table: its chunk tables' rows are fingerprinted instead
    (internal ids, stable while the encoding is)."""
    with store.in_run(run):
        if store.scalar(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'dis_chunk' "
            "AND schema_name = current_schema()"
        ):
            parts = [
                str(
                    store.scalar(
                        f"SELECT md5(coalesce(string_agg(CAST(x AS VARCHAR), chr(10) "
                        f"ORDER BY CAST(x AS VARCHAR)), '')) FROM {table} AS x"
                    )
                )
                for table in DISASSOCIATED
            ]
            return hashlib.md5("".join(parts).encode()).hexdigest()
        return str(
            store.scalar(
                "SELECT md5(string_agg(CAST(t.label AS VARCHAR) || chr(9) || n.label, chr(10) "
                "ORDER BY CAST(t.label AS VARCHAR), n.label)) FROM release AS r "
                "JOIN tids AS t ON t.tid = r.tid JOIN node AS n ON n.id = r.node"
            )
        )


# -- the matrix ---------------------------------------------------------------------------------
def source(args: argparse.Namespace, name: str) -> Path:
    """The dataset's input file; synthetic ones are written once into --data-dir."""
    shape = SHAPES[name]
    if shape.source != "synth":
        return DATA / shape.source
    sys.path.insert(0, str(ROOT))
    try:
        from setanon_sql.measure.synthetic import SynthSpec, write_baskets
    except ImportError:  # an older revision's layout
        from setanon_sql.synthetic import SynthSpec, write_baskets

    spec = SynthSpec(**dict(shape.synth))
    tag = "_".join(f"{k}{v}" for k, v in shape.synth)
    path = Path(args.data_dir) / f"shape_{tag}.parquet"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        info = write_baskets(path, spec)
        print(f"# wrote {path}: {info['rows']} item rows in {info['seconds']} s", flush=True)
    return path


def run_one(args: argparse.Namespace, code: str, path: Path, ds: str, algo: str, k: int) -> dict:
    """One configuration in a fresh process with the code of `code`."""
    cmd = [sys.executable, __file__, "--single", "--code", code, "--path", str(path)]
    cmd += ["--datasets", ds, "--algorithms", algo, "--k", str(k)]
    cmd += [] if args.plans else ["--no-plans"]
    base = {"dataset": ds, "algorithm": algo, "k": k}
    try:
        done = subprocess.run(
            cmd, capture_output=True, text=True, timeout=args.timeout, cwd=tempfile.gettempdir()
        )
    except subprocess.TimeoutExpired:
        return base | {"status": "timeout", "note": f"over {args.timeout:g} s"}
    if done.returncode:
        lines = [x for x in done.stderr.strip().splitlines() if x.strip(" ^~")]
        return base | {"status": "error", "note": (lines or ["?"])[-1][:160]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def median_of(runs: list[dict]) -> dict:
    """The first run's figures with times and memory as medians over the runs."""
    row = dict(runs[0])
    ok = [r for r in runs if r.get("status") == "ok"]
    if len(ok) < 2:
        return row
    for key in ("wall_s", "cpu_s", "load_s", "peak_rss_mb"):
        row[key] = round(statistics.median(r[key] for r in ok), 3)
    steps = {}
    for name, step in row["statements"].items():
        times = [r["statements"][name]["s"] for r in ok if name in r["statements"]]
        steps[name] = step | {"s": round(statistics.median(times), 4)}
    row["statements"] = steps
    row["runs"] = len(ok)
    return row


@dataclass
class Worktree:
    """REV checked out into a temporary git worktree, removed afterwards."""

    rev: str
    path: Path | None = None

    def __enter__(self) -> str:
        self.path = Path(tempfile.mkdtemp(prefix="setanon-shapes-")) / "rev"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(self.path), self.rev],
            check=True,
            capture_output=True,
        )
        return str(self.path)

    def __exit__(self, *exc: object) -> None:
        assert self.path is not None
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(self.path)],
            capture_output=True,
        )
        shutil.rmtree(self.path.parent, ignore_errors=True)


def matrix(args: argparse.Namespace, rev_code: str | None) -> list[tuple[dict, dict | None]]:
    """Every configuration, on this tree and (taking turns) on REV: (new, old) medians."""
    out = []
    for ds in args.datasets:
        path = source(args, ds)
        for algo in args.algorithms:
            for k in args.k:
                new_runs, old_runs = [], []
                for _ in range(args.repeat):
                    new_runs.append(run_one(args, str(ROOT), path, ds, algo, k))
                    if rev_code:
                        old_runs.append(run_one(args, rev_code, path, ds, algo, k))
                    if new_runs[-1].get("status") != "ok":
                        break  # refused, absent, failed: once is enough
                pair = (median_of(new_runs), median_of(old_runs) if old_runs else None)
                print(json.dumps({"new": _brief(pair[0]), "old": _brief(pair[1])}), flush=True)
                out.append(pair)
    return out


def _brief(row: dict | None) -> dict | None:
    return None if row is None else {k: v for k, v in row.items() if k != "statements"}


# -- tables -------------------------------------------------------------------------------------
def ratio(new: float | None, old: float | None) -> str:
    return f"{new / old:.2f}" if new is not None and old else ""


def run_flags(new: dict, old: dict | None) -> list[str]:
    """What a run's figures say against REV's."""
    if old is None or new.get("status") != "ok" or old.get("status") != "ok":
        return [] if old is None or new.get("status") == old.get("status") else ["status"]
    flags = []
    if new["wall_s"] > SLOWER * old["wall_s"] and new["wall_s"] - old["wall_s"] > NOISE_S:
        flags.append("slower")
    if new["release_md5"] != old["release_md5"]:
        flags.append("release differs")
    if abs(new["ncp"] - old["ncp"]) > 1e-9 or abs(new["lm"] - old["lm"]) > 1e-9:
        flags.append("NCP differs")
    return flags


def step_flags(new: dict | None, old: dict | None) -> list[str]:
    """What one statement's figures say against REV's."""
    if new is None or old is None:
        return []
    flags = []
    if new["s"] > SLOWER * old["s"] and new["s"] - old["s"] > NOISE_S:
        flags.append("slower")
    if new["rows"] is not None and old["rows"] is not None and new["rows"] > old["rows"]:
        flags.append("more rows")
    grown = new["widest"] or 0
    before = old["widest"] or 0
    if grown > GROWTH * before and grown - before > NOISE_ROWS:
        flags.append("widest grew")
    return flags


def print_runs(pairs: list[tuple[dict, dict | None]], against: str | None) -> None:
    from run import print_table

    rows = []
    for new, old in pairs:
        row = {c: new.get(c, "") for c in ("dataset", "algorithm", "k", "status")}
        if new.get("status") == "ok":
            row |= {
                "wall_s": new["wall_s"],
                "cpu_s": new["cpu_s"],
                "peak_mb": new["peak_rss_mb"],
                "ncp_pct": None if new["ncp"] is None else round(100 * new["ncp"], 3),
                "verified": new["verified"],
            }
        else:
            row["note"] = new.get("note", "")
        if against and old is not None:
            row |= {
                f"wall_s {against}": old.get("wall_s", old.get("status")),
                "wall ratio": ratio(new.get("wall_s"), old.get("wall_s")),
                "cpu ratio": ratio(new.get("cpu_s"), old.get("cpu_s")),
                "flags": ", ".join(run_flags(new, old)),
            }
        rows.append(row)
    cols = ["dataset", "algorithm", "k", "status", "wall_s", "cpu_s", "peak_mb", "ncp_pct",
            "verified", f"wall_s {against}", "wall ratio", "cpu ratio", "flags", "note"]  # fmt: skip
    print_table(rows, cols)


def print_statements(
    pairs: list[tuple[dict, dict | None]], against: str | None, slowest: int
) -> None:
    """Per run, its `slowest` statements (0: all) and every flagged one."""
    from run import print_table

    rows = []
    for new, old in pairs:
        mine = new.get("statements") or {}
        theirs = (old or {}).get("statements") or {}
        names = sorted(set(mine) | set(theirs), key=lambda s: -(mine.get(s) or {"s": 0})["s"])
        for rank, name in enumerate(names):
            a, b = mine.get(name), theirs.get(name)
            if slowest and rank >= slowest and not step_flags(a, b):
                continue
            row = {"dataset": new["dataset"], "algorithm": new["algorithm"], "k": new["k"]}
            row |= {"statement": name, "n": (a or {}).get("n", ""), "s": (a or {}).get("s", "")}
            row |= {"rows": (a or {}).get("rows", ""), "widest": (a or {}).get("widest", "")}
            if against:
                row |= {
                    f"s {against}": (b or {}).get("s", ""),
                    "ratio": ratio((a or {}).get("s"), (b or {}).get("s")),
                    f"rows {against}": (b or {}).get("rows", ""),
                    f"widest {against}": (b or {}).get("widest", ""),
                    "flags": ", ".join(step_flags(a, b)),
                }
            rows.append(row)
    cols = ["dataset", "algorithm", "k", "statement", "n", "s", "rows", "widest",
            f"s {against}", "ratio", f"rows {against}", f"widest {against}", "flags"]  # fmt: skip
    print_table(rows, cols)


def print_tables(
    header: str | None, pairs: list[tuple[dict, dict | None]], against: str | None, slowest: int
) -> None:
    """The run table and the statement table, the same whether just run or read back."""
    if header is not None:
        print(header)
    print_runs(pairs, against)
    print_statements(pairs, against, slowest)


def write_json(
    path: Path, header: str, pairs: list[tuple[dict, dict | None]], against: str | None
) -> None:
    """Every run's figures with what `--from-json` needs to print the same tables: the
    header line and the REV they were run against."""
    runs = [{"new": a, "old": b} for a, b in pairs]
    path.write_text(json.dumps({"header": header, "against": against, "runs": runs}, indent=1))


def read_json(
    files: list[str], against: str | None = None
) -> tuple[str | None, str | None, list[tuple[dict, dict | None]]]:
    """(header, REV, pairs) of `write_json` files; a file of an older version (a bare list of
    runs) names no REV, so its runs against one are labelled `against` or "REV". Files run
    against different REVs are refused: one table has one REV column."""
    headers, revs, pairs = [], set(), []
    for f in files:
        data = json.loads(Path(f).read_text())
        runs = data["runs"] if isinstance(data, dict) else data
        pairs += [(r["new"], r["old"]) for r in runs]
        if isinstance(data, dict):
            headers.append(data.get("header"))
            revs.add(data.get("against"))
        elif any(r["old"] is not None for r in runs):
            revs.add(against or "REV")
    revs.discard(None)
    if against is None and len(revs) > 1:
        raise SystemExit(f"--from-json: files run against different commits: {sorted(revs)}")
    rev = against or (revs.pop() if revs else None)
    header = headers[0] if len(headers) == 1 and headers[0] else None
    return header, rev, pairs


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--datasets", nargs="+", choices=sorted(SHAPES), default=list(SHAPES))
    p.add_argument("--algorithms", nargs="+", choices=ALGORITHMS, default=list(ALGORITHMS))
    p.add_argument("--k", type=int, nargs="+", default=[5, 100])
    p.add_argument("--against", metavar="REV", help="also run on this commit, side by side")
    p.add_argument("--repeat", type=int, default=1, help="runs per configuration (medians)")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    p.add_argument("--no-plans", dest="plans", action="store_false",
                   help="DuckDB's profiler off: times only, no rows per statement")  # fmt: skip
    p.add_argument("--data-dir", default=os.environ.get("TMPDIR", "/tmp") + "/setanon-synth")
    p.add_argument(
        "--statements",
        type=int,
        default=10,
        metavar="N",
        help="per run, print its N slowest statements and the flagged ones (0: all)",
    )
    p.add_argument("--json", metavar="FILE", help="also write every run's figures as JSON")
    p.add_argument(
        "--from-json",
        nargs="+",
        metavar="FILE",
        help="print the tables of earlier --json files instead of running",
    )
    p.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--code", default=str(ROOT), help=argparse.SUPPRESS)
    p.add_argument("--path", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.single:
        args.dataset, args.algorithm, args.k = args.datasets[0], args.algorithms[0], args.k[0]
        print(json.dumps(one(args)))
        return
    if args.from_json:
        header, against, pairs = read_json(args.from_json, args.against)
        print_tables(header, pairs, against, args.statements)
        return
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    header = (f"# {platform.node()}: {os.cpu_count()} cores, Python {platform.python_version()}, "
              f"HEAD {head}" + (f" against {args.against}" if args.against else ""))  # fmt: skip
    print(header)
    if args.against:
        with Worktree(args.against) as rev_code:
            pairs = matrix(args, rev_code)
    else:
        pairs = matrix(args, None)
    if args.json:
        write_json(Path(args.json), header, pairs, args.against)
    print_tables(None, pairs, args.against, args.statements)


if __name__ == "__main__":
    main()
