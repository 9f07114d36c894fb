"""Where dpsets' frequent-workload error comes from (#44): one seeded run's kept tables split.

For every frequent itemset of 1..3 items (support >= 0.1 % of |D|, all of them, not
`evaluate`'s sample of 2000), the ARE of:
- `release`: the release's support against the truth (what `evaluate` scores);
- `unheld`: the share of itemsets the release cannot hold (an item not kept for the pairs, or
  for items one not released) and their part of the release's ARE (the sum over them / N);
- `exact est`: the estimates of a noise-free run (epsilon 10^6) against the truth: the cut's
  and the left-out transactions' bias, no noise;
- `noisy est`: the noisy estimates themselves (before synthesis) against the truth;
- `synth`: the release against the estimates it was built from (|release - estimate| / truth).
The last three over the held itemsets only. Runs in the test mode (SETANON_DP_TEST_SEED,
seeds 1..N): diagnosis only, no promise. Example:

    python benchmarks/dp_diagnose.py --data wv1 wv2 --seeds 3 --epsilon 1
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb
from dp import catalogue

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
DATA = {
    "wv1": SHARED / "bms-webview-1.spmf.txt",
    "wv2": SHARED / "bms-webview-2.spmf.txt",
    "mushroom": SHARED / "mushroom.dat",
    "chess": SHARED / "chess.dat",
}

TRUTH = """
CREATE OR REPLACE TEMP TABLE t AS SELECT tid, item FROM setanon_d1_h1.tx;
CREATE OR REPLACE TEMP TABLE f1 AS
    SELECT item AS a, count(*) AS n FROM t GROUP BY item HAVING count(*) >= $m;
CREATE OR REPLACE TEMP TABLE tf AS SELECT t.* FROM t SEMI JOIN f1 ON f1.a = t.item;
CREATE OR REPLACE TEMP TABLE f2 AS
    SELECT x.item AS a, y.item AS b, count(*) AS n FROM tf x JOIN tf y
    ON x.tid = y.tid AND x.item < y.item GROUP BY ALL HAVING count(*) >= $m;
CREATE OR REPLACE TEMP TABLE tp AS
    SELECT DISTINCT tf.* FROM tf SEMI JOIN f2 ON tf.item = f2.a OR tf.item = f2.b;
CREATE OR REPLACE TEMP TABLE f3 AS
    SELECT x.item AS a, y.item AS b, z.item AS c, count(*) AS n FROM tp x
    JOIN tp y ON x.tid = y.tid AND x.item < y.item
    JOIN tp z ON z.tid = x.tid AND y.item < z.item
    SEMI JOIN f2 p ON p.a = x.item AND p.b = y.item
    GROUP BY ALL HAVING count(*) >= $m;
"""

RELEASED = """
CREATE OR REPLACE TEMP TABLE r AS SELECT tid, node AS item FROM {run}.release;
CREATE OR REPLACE TEMP TABLE r1 AS SELECT f1.a, count(r.tid) AS n FROM f1 LEFT JOIN r
    ON r.item = f1.a GROUP BY ALL;
CREATE OR REPLACE TEMP TABLE r2 AS SELECT x.item AS a, y.item AS b, count(*) AS n
    FROM r x JOIN r y ON x.tid = y.tid AND x.item < y.item GROUP BY ALL;
CREATE OR REPLACE TEMP TABLE r3 AS SELECT x.item AS a, y.item AS b, z.item AS c, count(*) AS n
    FROM r x JOIN r y ON x.tid = y.tid AND x.item < y.item
    JOIN r z ON z.tid = x.tid AND y.item < z.item
    SEMI JOIN f2 p ON p.a = x.item AND p.b = y.item GROUP BY ALL;
"""


def run(data: Path, db: Path, name: str, eps: float, seed: int, options: list[str]) -> None:
    """One seeded run over a tree of the data's own items, stated public (a diagnosis of the
    error, not a release: dpsets refuses such a tree otherwise)."""
    env = os.environ | {"SETANON_DP_TEST_SEED": str(seed)}
    extra = [x for o in [*options, "public_domain=true"] for x in ("--option", o)]
    tree = catalogue(data, 0, db.with_suffix(".tree.csv"))
    cmd = [sys.executable, "-m", "setanon_sql", "anonymize", str(data), *tree, "-a", "dpsets",
           "--epsilon", str(eps), "--db", str(db), "--run", name, "--keep-intermediate", "-q",
           *extra]  # fmt: skip
    done = subprocess.run(cmd, env=env, check=False)
    if done.returncode not in (0, 1):  # 1: a seeded test run, written and said not private
        raise subprocess.CalledProcessError(done.returncode, cmd)


def split(con: duckdb.DuckDBPyConnection, run: str, exact: str) -> dict[str, float]:
    """The parts of the error of one run (`exact`: the noise-free run's schema)."""
    con.execute(RELEASED.format(run=run))
    out: dict[str, float] = {}
    keys = {1: ["a"], 2: ["a", "b"], 3: ["a", "b", "c"]}
    for size, cols in keys.items():
        on = " AND ".join(f"f.{c} = r.{c}" for c in cols)
        held = " AND ".join(f"f.{c} IN (SELECT a FROM {run}.dp_noisy_l1 WHERE kept)" for c in cols)
        if size == 1:
            held = f"f.a IN (SELECT a FROM {run}.dp_noisy_l1 WHERE released)"
        est = exact_est = "NULL"
        joins = ""
        if size <= 2:
            table = "dp_noisy_l1" if size == 1 else "dp_noisy_l2"
            on_e = " AND ".join(f"f.{c} = e.{c}" for c in cols)
            on_x = " AND ".join(f"f.{c} = x.{c}" for c in cols)
            joins = (f" LEFT JOIN {run}.{table} e ON {on_e}"
                     f" LEFT JOIN {exact}.{table} x ON {on_x}")  # fmt: skip
            est, exact_est = "coalesce(e.estimate, 0)", "coalesce(x.estimate, 0)"
        row = con.sql(f"""
            WITH j AS (
                SELECT f.n AS truth, coalesce(r.n, 0) AS rel, {est} AS est,
                       {exact_est} AS xest, {held} AS held
                FROM f{size} f LEFT JOIN r{size} r ON {on}{joins}
            )
            SELECT avg(abs(rel - truth) / truth),
                   avg(CASE WHEN held THEN 0 ELSE 1 END),
                   sum(CASE WHEN held THEN 0 ELSE abs(rel - truth) / truth END) / count(*),
                   avg(abs(xest - truth) / truth) FILTER (WHERE held),
                   avg(abs(est - truth) / truth) FILTER (WHERE held),
                   avg(abs(rel - est) / truth) FILTER (WHERE held),
                   avg(abs(rel - truth) / truth) FILTER (WHERE held),
                   avg((est - truth) / truth) FILTER (WHERE held),
                   count(*)
            FROM j
        """).fetchall()[0]  # fmt: skip
        names = ["release", "unheld share", "unheld part", "exact est", "noisy est", "synth",
                 "release held", "noisy est signed", "n"]  # fmt: skip
        out |= {f"{name} {size}": v for name, v in zip(names, row, strict=True)}
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", nargs="*", default=["wv1", "wv2"], choices=sorted(DATA))
    p.add_argument("--epsilon", type=float, default=1.0)
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--option", action="append", default=[], help="dpsets option key=value")
    args = p.parse_args()
    for name in args.data:
        with tempfile.TemporaryDirectory() as d:
            db = Path(d) / "diag.duckdb"
            run(DATA[name], db, "exact", 1e6, 0, args.option)
            for seed in range(1, args.seeds + 1):
                run(DATA[name], db, f"s{seed}", args.epsilon, seed, args.option)
            con = duckdb.connect(str(db))
            total = con.sql("SELECT count(DISTINCT tid) FROM setanon_d1_h1.tx").fetchall()[0][0]
            minsup = max(1, -(-total // 1000))
            con.execute(TRUTH.replace("$m", str(minsup)))
            rows = [split(con, f"s{seed}", "exact") for seed in range(1, args.seeds + 1)]
            med = {k: statistics.median(r[k] or 0 for r in rows) for k in rows[0]}
            print(json.dumps({"data": name, "epsilon": args.epsilon, **med}))
            con.close()


if __name__ == "__main__":
    main()
