"""Files a user brings: a DuckDB file with the user's own tables, and a large basket file."""

from __future__ import annotations

import random
from pathlib import Path

import duckdb


def user_db(path: Path) -> Path:
    """A DuckDB file holding the user's own schema `sales` with a table."""
    con = duckdb.connect(str(path))
    con.execute("CREATE SCHEMA sales")
    con.execute("CREATE TABLE sales.orders AS SELECT range AS id, range * 2 AS qty FROM range(50)")
    con.execute("CREATE TABLE main.customers AS SELECT 'c' || range AS name FROM range(7)")
    con.close()
    return path


def user_objects(path: Path) -> dict[str, object]:
    """Row counts and a checksum of every user table."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {
            "orders": con.execute(
                "SELECT count(*), sum(hash(id, qty)) FROM sales.orders"
            ).fetchall(),
            "customers": con.execute(
                "SELECT count(*), sum(hash(name)) FROM main.customers"
            ).fetchall(),
        }
    finally:
        con.close()


def baskets(path: Path, n: int = 150_000) -> None:
    """A plain-lines file of `n` random baskets (seeded): long enough to interrupt a run."""
    r = random.Random(7)
    with path.open("w") as f:
        for _ in range(n):
            f.write(" ".join(f"i{r.randint(0, 20000)}" for _ in range(r.randint(3, 12))) + "\n")
