"""Golden Spark translations: every named statement of `sql/` as Spark SQL, so that a sqlglot
upgrade (or a change to a statement or to `engine.spark.rewrite`) shows as a diff of
`tests/golden/spark/*.sql`, without a JVM.

Each file holds the statement (its `:spark` variant where it has one) transpiled the way
`SparkExecutor` does it (`engine.spark.bind` then `engine.spark.rewrite`), pretty-printed, with
its `$name` parameters left in place instead of bound values.

Regenerate after a reviewed change, from the repository's root:

    python -m tests.helpers.golden --update
"""

from __future__ import annotations

import sys
from pathlib import Path

import sqlglot
from sqlglot import exp

from setanon_sql.engine import sqlfiles
from setanon_sql.engine.spark import DIALECT, bind, rewrite

FOLDER = Path(__file__).resolve().parents[1] / "golden" / "spark"


def names() -> list[str]:
    """Every named statement (its Spark variant is read in its place, not listed apart)."""
    return sorted(n for n in sqlfiles.statements() if ":" not in n)


def _keep_parameter(node: exp.Expression) -> exp.Expression:
    if isinstance(node, exp.Placeholder) and node.name:
        return exp.var(f"${node.name}")
    return node


def spark_text(name: str) -> str:
    """The named statement as Spark SQL, with a first line saying where it comes from."""
    st = sqlfiles.statement(name, DIALECT)
    variant = ", its :spark variant" if st.name != name else ""
    out = []
    for tree in sqlglot.parse(st.sql, read="duckdb"):
        if tree is None:
            continue
        bound = bind(tree.transform(_keep_parameter), {})
        out.extend(s.sql(DIALECT, pretty=True) for s in rewrite(bound))
    head = f"-- {name} (sql/{st.file}{variant}) as Spark SQL; $name parameters left unbound"
    return head + "\n" + ";\n\n".join(out) + ";\n"


def path(name: str) -> Path:
    return FOLDER / f"{name}.sql"


def update() -> list[str]:
    """Write every golden file anew and remove those of statements that are gone."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    wanted = names()
    for name in wanted:
        path(name).write_text(spark_text(name), encoding="utf-8")
    stale = [p.stem for p in FOLDER.glob("*.sql") if p.stem not in wanted]
    for name in stale:
        path(name).unlink()
    return stale


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python -m tests.helpers.golden --update")
    gone = update()
    print(f"wrote {len(names())} files under {FOLDER}" + (f"; removed {gone}" if gone else ""))
