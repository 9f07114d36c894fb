"""Every statement the package runs is a named statement from sql/, a sqlglot expression, or
text made by engine/ddl.py from quoted names and literal values: no SQL handed to an
executor as a string literal, an f-string or a concatenation (issue 27)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "setanon_sql"
RUNNERS = {"execute", "scalar", "query", "arrow", "_raw"}


def pasted_sql(path: Path, root: Path = PACKAGE) -> list[str]:
    """Calls in `path` that hand a runner SQL text written in place, as `file:line: text`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in RUNNERS or not node.args:
            continue
        first = node.args[0]
        written = isinstance(first, (ast.JoinedStr, ast.BinOp)) or (
            isinstance(first, ast.Constant) and isinstance(first.value, str)
        )
        if written:
            found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(first)[:80]}")
    return found


def test_no_statement_is_pasted_together_outside_sql_and_ddl():
    found = [hit for path in sorted(PACKAGE.rglob("*.py")) for hit in pasted_sql(path)]
    assert found == []


def test_the_check_sees_literals_and_f_strings(tmp_path):
    sample = tmp_path / "m.py"
    sample.write_text(
        "def f(ex, t):\n"
        '    ex.execute(f"SELECT * FROM {t}")\n'
        '    ex.scalar("SELECT 1")\n'
        '    ex.run("named", {"k": 2})\n'
    )
    hits = [hit.split(": ", 1)[1] for hit in pasted_sql(sample, tmp_path)]
    assert hits == ["f'SELECT * FROM {t}'", "'SELECT 1'"]


ENGINE = PACKAGE / "engine"
STATEMENT = re.compile(
    r"^\s*(SELECT|WITH|CREATE|INSERT|UPDATE|DELETE|DROP|ALTER|ATTACH|DETACH|COPY|DESCRIBE"
    r"|PRAGMA|SET|EXPLAIN)\s+\S"
)


def sql_outside_the_engine(path: Path, root: Path = PACKAGE) -> list[str]:
    """SQL written in a module outside `engine/` (issue 43): an import of sqlglot (statements
    are built by engine/ builders) or a string, not a docstring, that opens as a statement."""
    tree = ast.parse(path.read_text())
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    found = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            if any((n or "").split(".")[0] == "sqlglot" for n in names):
                found.append(f"{where}: imports sqlglot")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docs
            and STATEMENT.match(node.value)
        ):
            found.append(f"{where}: {node.value[:60]!r}")
    return found


def test_no_sql_text_outside_sql_and_the_engine():
    found = [
        hit
        for path in sorted(PACKAGE.rglob("*.py"))
        if ENGINE not in path.parents
        for hit in sql_outside_the_engine(path)
    ]
    assert found == []


def test_the_sql_check_sees_imports_and_statements_not_docstrings(tmp_path):
    sample = tmp_path / "m.py"
    sample.write_text(
        '"""SELECT in a docstring is prose."""\n'
        "import sqlglot.exp\n"
        "from sqlglot import exp\n"
        "def f(t):\n"
        '    """CREATE TABLE, said in a docstring."""\n'
        '    q = "SELECT * FROM t"\n'
        '    return f"DROP TABLE {t}", "drop the table", "SET"\n'
    )
    hits = [hit.split(": ", 1)[1] for hit in sql_outside_the_engine(sample, tmp_path)]
    assert hits == ["imports sqlglot", "imports sqlglot", "'SELECT * FROM t'", "'DROP TABLE '"]
