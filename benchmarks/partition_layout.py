"""Would Partition's level be cheaper with one row per transaction, its buckets as a list?

Earlier notes (issue 30) named that layout as what the 10^7 target needs: a level's split and
relabelling would touch one row per transaction instead of one per (transaction, expandable
node). This measures it before anyone rewrites `sql/partition.sql` for it. During a real run
(seeded synthetic baskets, fan-out 5, k as given), at each of --levels the frontier is copied
and, on that same state, one DuckDB thread, the best of --repeat:

    rows   partition_split + partition_next_bucket + partition_open_bucket, exactly as
           `sql/partition.sql` has them (retargeted to temporary copies)
    list   the same level in the list layout: `placed` (each transaction's chosen bucket found
           in its own row, joined only with the small partition_balance), `donor`, `open` (the
           children just opened, one list per transaction) and `next` (the new lists)
    group  the buckets' grouping that partition_outcome starts with, over rows or unnested lists

and the two layouts' next frontiers are compared (EXCEPT ALL both ways; the script stops on a
difference). The list layout's SQL lives here, not in sql/: it is an experiment. Example:

    python benchmarks/partition_layout.py --transactions 1000000 --levels 3 6 12
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from setanon_sql import HierarchySpec, Params, anonymize, open_store  # noqa: E402
from setanon_sql.algorithms import partition  # noqa: E402
from setanon_sql.engine import sqlfiles  # noqa: E402
from setanon_sql.measure.synthetic import SynthSpec, write_baskets  # noqa: E402


def retargeted(name: str, *pairs: tuple[str, str]) -> str:
    """A statement of sql/partition.sql writing to and reading from the experiment's copies."""
    sql = sqlfiles.statement(name).sql
    for old, new in pairs:
        sql = sql.replace(old, new)
    return sql


ROW_SPLIT = retargeted(
    "partition_split",
    ("CREATE OR REPLACE TABLE partition_split", "CREATE OR REPLACE TEMP TABLE r_split"),
    ("partition_bucket", "s_bucket"),
)
ROW_NEXT = retargeted(
    "partition_next_bucket",
    ("CREATE OR REPLACE TABLE partition_bucket", "CREATE OR REPLACE TEMP TABLE r_next"),
    ("partition_bucket", "s_bucket"),
    ("partition_split", "r_split"),
)
ROW_OPEN = retargeted(
    "partition_open_bucket",
    ("INSERT INTO partition_bucket", "CREATE OR REPLACE TEMP TABLE r_open AS"),
    ("partition_split", "r_split"),
    ("o.mask::UBIGINT,", "o.mask::UBIGINT AS mask,"),
)

TO_LISTS = """CREATE OR REPLACE TEMP TABLE s_list AS
SELECT tid, pid, list({'expanded': expanded, 'mask': mask, 'gain': tx_gain}) AS bk
FROM s_bucket GROUP BY tid, pid"""

LIST_PLACED = """CREATE OR REPLACE TEMP TABLE l_placed AS
WITH chosen AS (SELECT DISTINCT pid, expanded FROM partition_balance),
own AS (
    SELECT t.tid, t.pid, c.expanded, t.bk,
           list_filter(t.bk, lambda x: x.expanded = c.expanded)[1] AS e
    FROM s_list AS t JOIN chosen AS c ON c.pid = t.pid
)
SELECT o.tid, o.pid, o.expanded, o.bk, o.e.gain AS tx_gain, l.size, l.need, l.new_pid
FROM own AS o
JOIN partition_balance AS l ON l.pid = o.pid AND l.expanded = o.expanded AND l.mask = o.e.mask"""

LIST_DONOR = """CREATE OR REPLACE TEMP TABLE l_donor AS
SELECT tid
FROM (
    SELECT tid, pid, tx_gain, need, size,
           row_number() OVER (PARTITION BY new_pid ORDER BY tx_gain, tid) AS rank_in_bucket
    FROM l_placed
    WHERE need > 0 AND new_pid IS NOT NULL
)
WHERE rank_in_bucket <= size - $k
QUALIFY row_number() OVER (PARTITION BY pid ORDER BY tx_gain, tid) <= need"""

LIST_OPEN = """CREATE OR REPLACE TEMP TABLE l_open AS
WITH moved AS (
    SELECT p.tid, p.expanded FROM l_placed AS p ANTI JOIN l_donor AS d ON d.tid = p.tid
    WHERE p.new_pid IS NOT NULL
), opened AS (
    SELECT s.tid, e.child AS expanded, n.bit, n.gain_units
    FROM moved AS s
    JOIN tx AS t ON t.tid = s.tid
    JOIN partition_expand_step AS e ON e.item = t.item AND e.node = s.expanded
    JOIN partition_expand_step AS n ON n.step = e.next_step
), per_node AS (
    SELECT tid, expanded, bit_or(bit)::UBIGINT AS mask, sum(gain_units)::BIGINT AS gain
    FROM opened GROUP BY tid, expanded
)
SELECT tid, list({'expanded': expanded, 'mask': mask, 'gain': gain}) AS bk
FROM per_node GROUP BY tid"""

LIST_NEXT = """CREATE OR REPLACE TEMP TABLE l_next AS
WITH open_leftover AS (
    SELECT DISTINCT o.pid
    FROM partition_outcome AS o
    ANTI JOIN partition_blocked AS b ON b.pid = o.pid AND b.node = o.node
), fate AS (
    SELECT p.tid, p.pid, p.expanded, p.bk,
           CASE WHEN d.tid IS NULL THEN p.new_pid END AS new_pid
    FROM l_placed AS p LEFT JOIN l_donor AS d ON d.tid = p.tid
)
SELECT f.tid, coalesce(f.new_pid, f.pid) AS pid,
       CASE WHEN f.new_pid IS NULL THEN f.bk
            ELSE list_filter(f.bk, lambda x: x.expanded <> f.expanded) || coalesce(o.bk, [])
       END AS bk
FROM fate AS f
LEFT JOIN l_open AS o ON o.tid = f.tid
WHERE f.new_pid IS NOT NULL OR f.pid IN (SELECT pid FROM open_leftover)"""

ROW_GROUP = """SELECT count(*) FROM (
    SELECT pid, expanded, mask, count(*), sum(tx_gain) FROM s_bucket GROUP BY pid, expanded, mask)"""
LIST_GROUP = """SELECT count(*) FROM (
    SELECT pid, b.expanded, b.mask, count(*), sum(b.gain)
    FROM (SELECT pid, unnest(bk) AS b FROM s_list) GROUP BY ALL)"""

ROWS_NEXT = """SELECT tid, pid, expanded, mask, tx_gain FROM r_next
UNION ALL SELECT tid, new_pid, expanded, mask, tx_gain FROM r_open"""
LISTS_NEXT = """SELECT tid, pid, b.expanded, b.mask, b.gain
FROM (SELECT tid, pid, unnest(bk) AS b FROM l_next)"""
DIFFER = f"""SELECT (SELECT count(*) FROM (({ROWS_NEXT}) EXCEPT ALL ({LISTS_NEXT})))
     + (SELECT count(*) FROM (({LISTS_NEXT}) EXCEPT ALL ({ROWS_NEXT})))"""


def best_ms(con: Any, sql: str, params: dict[str, Any] | None, repeat: int) -> float:
    """The least of `repeat` runs of one statement, in milliseconds."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        con.execute(sql, params).fetchall()
        best = min(best, time.perf_counter() - started)
    return best * 1e3


def measure_level(con: Any, level: int, k: int, repeat: int) -> dict[str, Any]:
    """Both layouts on the frontier copied before this level (the level itself has run)."""
    con.execute(TO_LISTS)
    row = {
        "split": best_ms(con, ROW_SPLIT, {"k": k, "wide": False}, repeat),
        "next": best_ms(con, ROW_NEXT, {"keep_leftover": True}, repeat),
        "open": best_ms(con, ROW_OPEN, {"wide": False}, repeat),
    }
    lists = {
        "placed": best_ms(con, LIST_PLACED, None, repeat),
        "donor": best_ms(con, LIST_DONOR, {"k": k}, repeat),
        "open": best_ms(con, LIST_OPEN, None, repeat),
        "next": best_ms(con, LIST_NEXT, None, repeat),
    }
    differ = con.execute(DIFFER).fetchone()[0]
    if differ:
        raise SystemExit(f"level {level}: the layouts' next frontiers differ in {differ} rows")
    count = con.execute("SELECT count(*) FROM s_bucket").fetchone()[0]
    frontier = con.execute("SELECT count(*) FROM r_split").fetchone()[0]
    return {
        "level": level,
        "bucket_rows": count,
        "frontier": frontier,
        "rows_ms": row,
        "list_ms": lists,
        "group_rows_ms": best_ms(con, ROW_GROUP, None, repeat),
        "group_list_ms": best_ms(con, LIST_GROUP, None, repeat),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--transactions", type=int, default=1_000_000)
    p.add_argument("--items", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--levels", type=int, nargs="+", default=[3, 6, 12])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--data-dir", default="/tmp/setanon-synth")
    args = p.parse_args()
    path = Path(args.data_dir) / f"baskets_n{args.transactions}_i{args.items}_s{args.seed}.parquet"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        spec = SynthSpec(transactions=args.transactions, items=args.items, seed=args.seed)
        write_baskets(path, spec)
    store, _ = open_store(path, hierarchy_spec=HierarchySpec(fanout=5, order="id"))
    con = store.ex.con
    con.execute("SET threads = 1")  # per-statement figures without the other core's noise
    level_of_run = partition._level
    wanted = set(args.levels)

    def level(store_: Any, params: Params, n: int, *rest: Any, **kw: Any) -> tuple[int, int]:
        if n in wanted:
            con.execute("CREATE OR REPLACE TEMP TABLE s_bucket AS SELECT * FROM partition_bucket")
        out = level_of_run(store_, params, n, *rest, **kw)
        if n in wanted:
            report(measure_level(con, n, args.k, args.repeat))
        return out

    partition._level = level  # type: ignore[assignment]
    result = anonymize(store, Params(algorithm="partition", k=args.k))
    print(f"run verified: {result.report.ok}, {result.info.get('levels')} levels")


def report(m: dict[str, Any]) -> None:
    rows, lists = m["rows_ms"], m["list_ms"]
    print(
        f"level {m['level']}: {m['bucket_rows']:,} bucket rows, {m['frontier']:,} frontier "
        f"transactions | rows: split {rows['split']:.0f} + next {rows['next']:.0f} + open "
        f"{rows['open']:.0f} = {sum(rows.values()):.0f} ms | list: placed {lists['placed']:.0f} "
        f"+ donor {lists['donor']:.0f} + open {lists['open']:.0f} + next {lists['next']:.0f} = "
        f"{sum(lists.values()):.0f} ms ({sum(lists.values()) / sum(rows.values()):.2f}x) | "
        f"grouping: rows {m['group_rows_ms']:.0f}, lists {m['group_list_ms']:.0f} ms | "
        "next frontiers identical",
        flush=True,
    )


if __name__ == "__main__":
    main()
