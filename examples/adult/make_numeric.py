"""Regenerate the interval taxonomies of Adult's numeric columns (child,parent CSV files).

Run from the repository root: python examples/adult/make_numeric.py ../shared/data/adult.data
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from setanon_sql.relational.taxonomy import build  # noqa: E402

COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
    "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week",
    "native-country", "income",
]  # fmt: skip
SPECS = {
    "age": "widths:5,10,20",
    "fnlwgt": "widths:25000,50000,100000,200000,400000",
    "education-num": "widths:2,4,8",
    "capital-gain": "edges:1,1000,2000,3000,4000,5000,7500,10000,15000,20000,50000;1,5000,10000,20000;1",
    "capital-loss": "edges:1,1000,1500,2000,2500,3000;1,2000;1",
    "hours-per-week": "widths:5,10,20,40",
}


def main(data: str) -> None:
    values: dict[str, set[str]] = {c: set() for c in SPECS}
    with open(data, encoding="utf-8") as f:
        for row in csv.reader(f):
            if len(row) == len(COLUMNS) and "?" not in (x.strip() for x in row):
                for c in SPECS:
                    values[c].add(row[COLUMNS.index(c)].strip())
    for column, spec in SPECS.items():
        tree = build(column, spec, sorted(values[column]))
        out = Path(__file__).parent / f"{column}.csv"
        with out.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["child", "parent"])
            w.writerows(tree.edges())


if __name__ == "__main__":
    main(sys.argv[1])
