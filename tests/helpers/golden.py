"""Golden Spark translations: every named statement Spark can run, as Spark SQL, so that a
sqlglot upgrade (or a change to a statement or to `engine.spark.rewrite`) shows as a diff of
`tests/golden/spark/*.sql`, without a JVM.

The statements Spark can run are derived, not listed: those named (as a string, or an f-string
or concatenation whose fixed parts match) by a module the Spark path imports, from
Spark's store (`store/spark_store`, `store/spark_release`), the front door `api` and the
modules of the algorithms Spark runs down (imports inside functions count).
That over-counts a little (a module imported for one helper brings all its statements) and
never misses one named in place; `test_spark.py` checks a Spark run's statements are all here.

Each file holds the statement (its `:spark` variant where it has one) transpiled the way
`SparkExecutor` does it (`engine.spark.bind` then `engine.spark.rewrite`), pretty-printed, with
its `$name` parameters left in place instead of bound values.

Regenerate after a reviewed change, from the repository's root:

    python -m tests.helpers.golden --update
"""

from __future__ import annotations

import ast
import re
import sys
from functools import cache
from pathlib import Path

import sqlglot
from sqlglot import exp

from setanon_sql import algorithms
from setanon_sql.engine import sqlfiles
from setanon_sql.engine.spark import DIALECT, bind, rewrite

FOLDER = Path(__file__).resolve().parents[1] / "golden" / "spark"
PACKAGE = Path(algorithms.__file__).resolve().parents[1]


@cache
def names() -> list[str]:
    """The named statements Spark can run (a Spark variant is read in its statement's place)."""
    every = sorted(n for n in sqlfiles.statements() if ":" not in n)
    patterns = {p for module in spark_modules() for p in named_in(source(module))}
    return [n for n in every if any(p.fullmatch(n) for p in patterns)]


def spark_modules() -> set[str]:
    """Spark's store, the front door, the modules of the algorithms Spark runs, and every module
    they import, but for those named after an algorithm or a privacy model Spark refuses (its search, its
    release's verifier)."""
    runs_on_spark = algorithms.on_engine("spark")
    start = ["setanon_sql.store.spark_store", "setanon_sql.store.spark_release", "setanon_sql.api"]
    start += [algorithms.get(a).run.__module__ for a in runs_on_spark]
    refused = [a for a in algorithms.ALGORITHMS if a not in runs_on_spark]
    spark_models = {algorithms.get(a).model for a in runs_on_spark}
    refused += sorted({a.model for a in algorithms.ALGORITHMS.values()} - spark_models)
    seen: set[str] = set()
    while start:
        module = start.pop()
        words = re.split(r"[._]", module)
        if module not in seen and not any(a in words for a in refused):
            seen.add(module)
            start.extend(imported(module))
    return seen


def source(module: str) -> Path:
    """The file of a module of the package (a package's `__init__.py`)."""
    base = PACKAGE.parent / module.replace(".", "/")
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def imported(module: str) -> set[str]:
    """The package's modules `module` imports, at its top or inside its functions."""
    path = source(module)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            parts = package.split(".")[: len(package.split(".")) - max(node.level - 1, 0)]
            base = ".".join(parts + [node.module] if node.module else parts)
            if not node.level:
                base = node.module or ""
            found |= {f"{base}.{a.name}" for a in node.names} | {base}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {m for m in found if m.startswith("setanon_sql") and source(m).is_file()}


def named_in(path: Path) -> set[re.Pattern[str]]:
    """What a module may name a statement by: its strings, and its f-strings and `"a_" + x`
    concatenations with the computed parts as wildcards (those whose fixed parts read as a
    piece of a name, e.g. f"partition_{step}", not f"i{j}")."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(re.escape(node.value))
        elif isinstance(node, (ast.JoinedStr, ast.BinOp)):
            parts = node.values if isinstance(node, ast.JoinedStr) else [node.left, node.right]
            if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.Add):
                continue
            fixed = "".join(_fixed(v) for v in parts)
            if len(fixed) >= 4 and re.fullmatch(r"[a-z0-9_]+", fixed):
                out.add("".join(re.escape(_fixed(v)) if _fixed(v) else ".*" for v in parts))
    return {re.compile(p) for p in out}


def _fixed(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return ""


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
