"""benchmarks/README.md lists every script of benchmarks/ with the question it answers (issue
43): a script added without its line there fails here."""

from __future__ import annotations

import re
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def unlisted(folder: Path = BENCHMARKS) -> list[str]:
    """The scripts of `folder` that no row of its README's scripts table names."""
    readme = (folder / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([\w.]+\.py)` \|", readme, flags=re.M))
    return sorted(p.name for p in folder.glob("*.py") if p.name not in listed)


def test_every_benchmark_script_is_listed_in_the_readme():
    assert unlisted() == []


def test_the_check_sees_a_script_without_its_row(tmp_path):
    (tmp_path / "README.md").write_text("| `a.py` | outside | what a answers |\nb.py in prose\n")
    (tmp_path / "a.py").write_text("")
    (tmp_path / "b.py").write_text("")
    assert unlisted(tmp_path) == ["b.py"]
