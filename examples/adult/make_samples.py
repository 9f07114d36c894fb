"""Regenerate the small files the README's table examples read, so that they run from a clone
with nothing beside it: `adult_sample.data`, the first 2,000 lines of UCI Adult's
`adult.data` as they are (Becker & Kohavi 1996, CC BY 4.0,
https://archive.ics.uci.edu/dataset/2/adult); `adult_rt_sample.csv`, its rows without `?`
with a header and a `pages` column (`;`-joined items of seeded synthetic baskets,
`setanon synth`, standing for BMS-WebView-2's pages, which are not ours to ship); and
`pages_hierarchy.csv`, a fan-out 4 hierarchy over those items (`setanon hierarchy build`).

Run from the repository root: python examples/adult/make_samples.py ../shared/data/adult.data
"""

from __future__ import annotations

import csv
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from setanon_sql.cli import run_cli  # noqa: E402

HERE = Path(__file__).resolve().parent
ROWS = 2000
COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
    "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week",
    "native-country", "income",
]  # fmt: skip


def main(adult: Path) -> None:
    with open(adult, newline="") as f:
        lines = [line for _, line in zip(range(ROWS), f, strict=False)]
    (HERE / "adult_sample.data").write_text("".join(lines))
    rows = [r for r in csv.reader(lines, skipinitialspace=True) if len(r) == 15 and "?" not in r]
    with tempfile.TemporaryDirectory() as tmp:
        baskets = Path(tmp) / "pages.parquet"
        synth = ["synth", str(baskets), "-n", str(len(rows)), "--items", "300", "--seed", "1"]
        assert run_cli([*synth, "--json"]) == 0
        tree = ["hierarchy", "build", str(baskets), "--fanout", "4", "--order", "id"]
        assert run_cli([*tree, "-o", str(HERE / "pages_hierarchy.csv"), "--json"]) == 0
        pairs = pq.read_table(baskets).to_pylist()
    pages: dict[int, list[str]] = {}
    for pair in pairs:
        pages.setdefault(int(pair["tid"]), []).append(str(pair["item"]))
    with open(HERE / "adult_rt_sample.csv", "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow([*COLUMNS, "pages"])
        for row, tid in zip(rows, sorted(pages), strict=True):
            out.writerow([*row, ";".join(sorted(set(pages[tid]), key=int))])
    print(f"{len(lines)} lines of {adult}; {len(rows)} records with pages")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
