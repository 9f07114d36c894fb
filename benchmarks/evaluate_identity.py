"""Does `evaluate` report the same figures as an older commit on the same releases?

For each dataset (`shapes.py`'s shapes) and algorithm, one release is made with this tree's
code into a DuckDB file; each commit then evaluates a copy of that file in a process of its own
(default workload and seed), and every figure `evaluate` returns (ARE, median error, shares
per query size; attack shares and candidates per known-item count; NCP, LM) is compared, numbers
to 1e-9 (relative, or absolute below 1). Exit status 1 when any figure differs.

    python benchmarks/evaluate_identity.py --against c86914d \\
        --datasets wv1 wv2 retail-like synth-1e5 --algorithms aa partition da
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from shapes import DATA, KM, SHAPES, Worktree, source  # noqa: E402

TOLERANCE = 1e-9
SKIP = {"seconds", "run"}  # what may differ between two evaluations of one release


def one(args: argparse.Namespace) -> dict[str, Any]:
    """Evaluate one stored run with the code of `args.code`; its figures and seconds."""
    sys.path.insert(0, args.code)
    from setanon_sql import Store
    from setanon_sql.measure.evaluate import evaluate

    store = Store(args.db)
    try:
        started = time.perf_counter()
        out = evaluate(store, args.run)
        out["process_evaluate_s"] = round(time.perf_counter() - started, 3)
    finally:
        store.close()
    return out


def prepare(args: argparse.Namespace, dataset: str) -> tuple[Path, list[str]]:
    """The dataset's releases (made with this tree's code) in one DuckDB file; their runs."""
    sys.path.insert(0, str(ROOT))
    from setanon_sql import HierarchySpec, Params, anonymize, open_store
    from setanon_sql.errors import ExitCode, SetAnonError

    shape = SHAPES[dataset]
    db = Path(args.db_dir) / f"{dataset}.duckdb"
    spec = (
        HierarchySpec(path=DATA / shape.hierarchy)
        if shape.hierarchy
        else HierarchySpec(fanout=shape.fanout, order=shape.order)
    )
    fresh = not db.exists()
    store, _ = open_store(
        source(args, dataset) if fresh else None, hierarchy_spec=spec if fresh else None, db=db
    )
    names = []
    try:
        for algorithm in args.algorithms:
            name = f"{algorithm}_k{args.k}"
            if not store.has_table("release", schema=name):
                m = 2 if algorithm in KM else None
                params = Params(algorithm=algorithm, k=args.k, m=m, run_name=name)
                try:
                    anonymize(store, params)
                except SetAnonError as e:
                    if e.exit_code != ExitCode.INPUT:
                        raise
                    print(f"# {dataset} {algorithm}: refused ({str(e).splitlines()[0][:100]})")
                    continue
            names.append(name)
    finally:
        store.close()
    return db, names


def evaluated(args: argparse.Namespace, code: str, db: Path, run: str) -> dict[str, Any]:
    """One evaluation in a fresh process on a copy of `db` (evaluate writes its tables)."""
    with tempfile.TemporaryDirectory(prefix="setanon-evalid-") as tmp:
        copy = Path(tmp) / db.name
        shutil.copyfile(db, copy)
        cmd = [sys.executable, __file__, "--single", "--code", code, "--db", str(copy)]
        done = subprocess.run(
            cmd + ["--run", run], capture_output=True, text=True, check=True, cwd=tmp
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


def differences(new: Any, old: Any, where: str = "") -> list[str]:
    """Every place where two evaluations' figures differ (numbers beyond TOLERANCE)."""
    if isinstance(new, dict) and isinstance(old, dict):
        out = []
        for key in sorted(set(new) | set(old)):
            if key not in SKIP and key != "process_evaluate_s":
                out += differences(new.get(key), old.get(key), f"{where}.{key}")
        return out
    if isinstance(new, list) and isinstance(old, list):
        if len(new) != len(old):
            return [f"{where}: {len(new)} rows against {len(old)}"]
        return [
            d
            for i, (a, b) in enumerate(zip(new, old, strict=True))
            for d in differences(a, b, f"{where}[{i}]")
        ]
    numbers = (int, float)
    if isinstance(new, numbers) and isinstance(old, numbers) and not isinstance(new, bool):
        if math.isclose(new, old, rel_tol=TOLERANCE, abs_tol=TOLERANCE):
            return []
    elif new == old:
        return []
    return [f"{where}: {new!r} against {old!r}"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--against", default="c86914d", metavar="REV")
    p.add_argument("--datasets", nargs="+", default=["wv1", "wv2", "retail-like", "synth-1e5"])
    p.add_argument("--algorithms", nargs="+", default=["aa", "partition", "da"])
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--db-dir", default=str(Path(tempfile.gettempdir()) / "setanon-evalid"))
    p.add_argument("--data-dir", default=str(Path(tempfile.gettempdir()) / "setanon-synth"))
    p.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--code", help=argparse.SUPPRESS)
    p.add_argument("--db", help=argparse.SUPPRESS)
    p.add_argument("--run", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.single:
        print(json.dumps(one(args), default=float))
        return
    Path(args.db_dir).mkdir(parents=True, exist_ok=True)
    differ = 0
    with Worktree(args.against) as old_code:
        for dataset in args.datasets:
            db, names = prepare(args, dataset)
            for run in names:
                new = evaluated(args, str(ROOT), db, run)
                old = evaluated(args, old_code, db, run)
                found = differences(new, old)
                differ += bool(found)
                row = {
                    "dataset": dataset,
                    "run": run,
                    "identical": not found,
                    "evaluate_s": new["process_evaluate_s"],
                    f"evaluate_s {args.against}": old["process_evaluate_s"],
                    "are_random": [round(r["are"], 6) for r in new["itemset_queries"]],
                    "are_frequent": [round(r["are"], 6) for r in new["frequent_queries"]],
                    "below_k": [r["below_k"] for r in new["attacks"]],
                    "differences": found[:5],
                }
                print(json.dumps(row), flush=True)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
