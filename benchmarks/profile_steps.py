"""Per-statement profile of one `setanon` command line, run in this process: for every step
name of the executor's statements, how many ran, their wall and CPU seconds, their share of all
statement seconds and the rows they returned or wrote, plus the process's own figures (imports,
the whole CPU, the part no statement holds: Python's own loops). Why in-process with a wrapper
rather than the store's log: the log keeps seconds, not rows, and a command's log is not
reachable from outside.

    python benchmarks/profile_steps.py --tsv /tmp/p.tsv -- anonymize wv2.txt -a disassociation \
        -k 10 -m 2 -q
    python benchmarks/profile_steps.py -- evaluate --db COPY.duckdb --run dis --json

CPU per statement is `time.process_time()` around it (DuckDB's worker threads included). A
CREATE TABLE AS statement's rows are the count DuckDB returns; a query's, the rows fetched.
"""

from __future__ import annotations

import argparse
import csv
import io
import resource
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def answer_rows(answer: Any) -> int:
    """Rows a statement produced: DuckDB's Count for a write, else the rows fetched."""
    cols = getattr(answer, "columns", None)
    rows = getattr(answer, "rows", None)
    if cols == ["Count"] and rows:
        return int(rows[0][0])
    if rows is not None:
        return len(rows)
    return int(getattr(answer, "num_rows", 0) or 0)


def instrument(totals: dict[str, list[float]]) -> None:
    """Wrap the one executor's entry points so each statement adds to `totals[step]`:
    count, wall, CPU, rows."""
    from setanon_sql.engine.duckdb import Executor as DuckDBExecutor

    def wrap(method: Any, step_of: Any) -> Any:
        def timed(self: Any, *args: Any, **kwargs: Any) -> Any:
            w0, c0 = time.perf_counter(), time.process_time()
            out = method(self, *args, **kwargs)
            row = totals.setdefault(step_of(args, kwargs), [0, 0.0, 0.0, 0])
            row[0] += 1
            row[1] += time.perf_counter() - w0
            row[2] += time.process_time() - c0
            row[3] += answer_rows(out)
            return out

        return timed

    cls = DuckDBExecutor
    cls.execute = wrap(cls.execute, lambda a, k: k.get("step", "sql"))  # type: ignore[method-assign]
    cls.arrow = wrap(cls.arrow, lambda a, k: k.get("step", "sql"))  # type: ignore[method-assign]
    cls.put_arrow = wrap(cls.put_arrow, lambda a, k: f"put_{a[0]}")  # type: ignore[method-assign]
    cls.put_rows = wrap(cls.put_rows, lambda a, k: f"put_{a[0]}")  # type: ignore[method-assign]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tsv", default="", help="write the table here too")
    p.add_argument("--top", type=int, default=25)
    p.add_argument("args", nargs=argparse.REMAINDER, help="-- then the setanon command line")
    a = p.parse_args()
    argv = a.args[1:] if a.args[:1] == ["--"] else a.args
    sys.path.insert(0, str(ROOT))
    c0, w0 = time.process_time(), time.perf_counter()
    from setanon_sql.cli import run_cli

    import_cpu = time.process_time() - c0
    totals: dict[str, list[float]] = {}
    instrument(totals)
    out = io.StringIO()
    with redirect_stdout(out):
        code = run_cli(argv)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    stmt_cpu = sum(r[2] for r in totals.values())
    stmt_wall = sum(r[1] for r in totals.values()) or 1.0
    rows = sorted(totals.items(), key=lambda kv: -kv[1][2])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"# exit {code}; process CPU {cpu:.2f} s, wall {wall:.2f} s, peak {peak:.0f} MiB")
    print(
        f"# importing run_cli {import_cpu:.2f} s CPU (commands load their modules lazily); "
        f"statements {stmt_cpu:.2f} s CPU over "
        f"{sum(int(r[0]) for r in totals.values())} statements; outside statements "
        f"(Python work, lazy imports) {cpu - import_cpu - stmt_cpu:.2f} s CPU"
    )
    print("| statement | n | CPU s | wall s | share (CPU) | rows |")
    print("|---|---|---|---|---|---|")
    for name, (n, w, c, r) in rows[: a.top]:
        print(f"| {name} | {int(n)} | {c:.3f} | {w:.3f} | {c / (stmt_cpu or 1):.1%} | {int(r):,} |")
    if a.tsv:
        with open(a.tsv, "w", newline="") as f:
            tsv = csv.writer(f, delimiter="\t", lineterminator="\n")
            tsv.writerow(["name", "count", "cpu_s", "wall_s", "share_wall", "rows"])
            for name, (n, w, c, r) in rows:
                tsv.writerow([name, int(n), f"{c:.3f}", f"{w:.3f}", f"{w / stmt_wall:.3f}", int(r)])


if __name__ == "__main__":
    main()
