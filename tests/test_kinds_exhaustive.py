"""Adding a release kind or a route is found by the type checker: a copy of the library with
one more `ReleaseKind` (or `Route`) member fails mypy at every dispatch that lacks a case for
it, named here, so a dispatch that slips back to an `if`/`else` (which mypy cannot check) fails
this test instead of silently sending the new kind down the generalized path."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# every function that dispatches on a ReleaseKind (in `measure/kinds.py`) or on a Route
KIND_DISPATCH = {
    ("measure/kinds.py", "route"),
    ("measure/kinds.py", "label"),
    ("store/publish.py", "writes_folder"),
}
ROUTE_DISPATCH = {
    ("api.py", "checked_release"),
    ("api.py", "release_metrics"),
    ("measure/verify_run.py", "verify_run"),
    ("measure/evaluate.py", "evaluate"),
    ("measure/report.py", "run_report"),
    ("measure/kinds.py", "to_relational"),
    ("cli/judge.py", "evaluate_cmd"),
    ("cli/anonymize.py", "refuse_release_options"),
}


def mypy_with_member(tmp_path: Path, enum: str, source: str) -> set[tuple[str, str]]:
    """(file, function) of each error mypy reports on a copy whose `enum` has one more member."""
    shutil.copytree(ROOT / "setanon_sql", tmp_path / "setanon_sql")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    path = tmp_path / "setanon_sql" / source
    text = path.read_text()
    head = f"class {enum}("
    assert text.count(head) == 1, f"{source} no longer declares {enum}"
    at = text.index(":\n", text.index(head)) + 2
    doc_end = text.index('"""', text.index('"""', at) + 3) + 3 + 1  # after the docstring line
    path.write_text(text[:doc_end] + '    FAKE = "fake"\n' + text[doc_end:])
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "setanon_sql"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    return {where(tmp_path, line) for line in done.stdout.splitlines() if ": error:" in line}


def where(root: Path, line: str) -> tuple[str, str]:
    """The file and top-level function of one mypy error line."""
    name, number = line.split(":")[:2]
    lines = (root / name).read_text().splitlines()[: int(number)]
    defs = [m.group(1) for s in lines if (m := re.match(r"def (\w+)", s))]
    return str(Path(name).relative_to("setanon_sql")), defs[-1]


@pytest.mark.slow
def test_a_new_release_kind_fails_the_type_check_where_it_is_dispatched(tmp_path: Path) -> None:
    assert mypy_with_member(tmp_path, "ReleaseKind", "catalog.py") == KIND_DISPATCH


@pytest.mark.slow
def test_a_new_route_fails_the_type_check_at_every_handler_table(tmp_path: Path) -> None:
    assert mypy_with_member(tmp_path, "Route", "measure/kinds.py") == ROUTE_DISPATCH


def test_every_route_dispatch_is_a_checked_match() -> None:
    """No `is Route.X` / `in (Route.X, ...)` test left outside a match: those mypy cannot see."""
    unchecked = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in sorted((ROOT / "setanon_sql").rglob("*.py"))
        for n, s in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"\b(is|is not|==|!=|in)\s*\(?\s*Route\.", s)
    ]
    assert unchecked == []
