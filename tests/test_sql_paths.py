"""Every statement the package runs is a named statement from sql/, a sqlglot expression, or
text made by engine/ddl.py from quoted names and literal values: no SQL handed to an
executor as a string literal, an f-string or a concatenation (issue 27)."""

from __future__ import annotations

import ast
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
