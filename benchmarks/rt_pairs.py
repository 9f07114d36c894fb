"""What the two-table layout costs (issue 41): adult_wv2_rt.csv as one table with a `pages`
column joined by ';', against the same data as records (an `id` column added) and (id, page)
rows in two CSV files, each released in its own layout, same settings (cover classes of 1,000,
topdown items, k = 10, m = 2, --memory-limit 3.5GB). Each run is its own process under
/usr/bin/time, --repeat times: medians of wall and CPU seconds and peak RSS; the losses must be
equal. The two files are written into --work (once).

    python benchmarks/rt_pairs.py --work /tmp/rt_pairs --repeat 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import duckdb
from rt_tradeoff import DATA, command, one


def split(work: Path) -> tuple[Path, Path]:
    """The one-table CSV as records.csv (with `id`, the row number) and pages.csv (id, page)."""
    records, rows = work / "records.csv", work / "pages.csv"
    if records.exists() and rows.exists():
        return records, rows
    work.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE t AS SELECT row_number() OVER () AS id, * FROM "
        "read_csv(?, all_varchar = true, header = true)",
        [str(DATA / "adult_wv2_rt.csv")],
    )
    con.execute(f"COPY (SELECT * EXCLUDE (pages) FROM t ORDER BY id) TO '{records}' (HEADER)")
    con.execute(
        "COPY (SELECT id, unnest(string_split(pages, ';')) AS page FROM t ORDER BY id) "
        f"TO '{rows}' (HEADER)"
    )
    return records, rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--work", type=Path, required=True)
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    records, rows = split(a.work)
    base = command("cover", 1000, 10, 2, "topdown") + ["--memory-limit", "3.5GB"]
    pairs = [records if x == str(DATA / "adult_wv2_rt.csv") else x for x in base]
    pairs = [str(x) for x in pairs]
    at = pairs.index("pages")
    pairs[at] = "page"
    pairs += ["--items-table", str(rows), "--key", "id"]
    for name, cmd in (("one table", base), ("records + item rows", pairs)):
        runs = [one(cmd) for _ in range(a.repeat)]
        s = runs[0]
        print(json.dumps({
            "layout": name, "classes": s["classes"], "relational_ncp": round(s["relational_ncp"], 4),
            "item_ncp": round(s["item_ncp"], 4), "verified": s["verified"]["ok"],
            "wall_s": round(statistics.median(r["wall"] for r in runs), 1),
            "cpu_s": round(statistics.median(r["cpu"] for r in runs), 1),
            "peak_mb": round(statistics.median(r["rss"] for r in runs)),
        }), flush=True)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
