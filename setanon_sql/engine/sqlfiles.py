"""Loads the named, fixed-shape SQL statements kept in the top-level `sql/` folder.

Each block starts with `-- name: NAME`, followed by comment lines saying what the result holds,
then the statement (aiosql's convention). Parameters are DuckDB `$name` placeholders.

A block headed `-- name: NAME :spark` is the Spark variant of NAME, kept next to it: written in
the same DuckDB dialect (and transpiled like every statement), but avoiding what sqlglot cannot
carry over (an ordered `list()` aggregate, for one). It is stored as `NAME:spark`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

_NAME = re.compile(r"^--\s*name:\s*([a-z0-9_]+)(?:\s+:([a-z]+))?\s*$")


@dataclass(frozen=True)
class Statement:
    name: str
    doc: str
    sql: str
    file: str


def sql_dir() -> Path:
    """The folder of .sql files: inside the installed wheel, else the repo's top-level `sql/`."""
    packaged = resources.files("setanon_sql") / "sql"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "sql"


def parse(text: str, file: str) -> dict[str, Statement]:
    """Split one .sql file into its named statements."""
    out: dict[str, Statement] = {}
    name: str | None = None
    doc: list[str] = []
    body: list[str] = []

    def flush() -> None:
        if name is not None:
            out[name] = Statement(
                name, " ".join(doc).strip(), "\n".join(body).strip().rstrip(";"), file
            )

    for line in text.splitlines():
        m = _NAME.match(line.strip())
        if m:
            flush()
            name, doc, body = m.group(1) + (f":{m.group(2)}" if m.group(2) else ""), [], []
        elif name is not None and not body and line.strip().startswith("--"):
            doc.append(line.strip()[2:].strip())
        elif name is not None:
            body.append(line)
    flush()
    return out


@cache
def statements() -> dict[str, Statement]:
    """Every named statement of every file in `sql/`."""
    out: dict[str, Statement] = {}
    for path in sorted(sql_dir().glob("*.sql")):
        for name, st in parse(path.read_text(encoding="utf-8"), path.name).items():
            if name in out:
                raise RuntimeError(f"SQL statement {name!r} is defined twice ({path.name})")
            out[name] = st
    return out


def statement(name: str, dialect: str | None = None) -> Statement:
    """The named statement; with `dialect`, its variant for that engine when it has one."""
    if dialect is not None and f"{name}:{dialect}" in statements():
        return statements()[f"{name}:{dialect}"]
    try:
        return statements()[name]
    except KeyError:
        raise KeyError(f"no SQL statement named {name!r} in {sql_dir()}") from None
