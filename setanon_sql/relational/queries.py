"""sqlglot builders for the variable-shape SQL of the mining: one column per attribute.

The combinations' ancestor paths are kept one column per attribute (`a1..ar`), and so are the
children of a frontier record's nodes its supporting combinations fall under (`c1..cr`, carried
from level to level, only the narrowed attribute's recomputed): a plain column per attribute
groups several times faster in DuckDB than unnesting a list per row. Each builder returns an
expression and never executes it; the identifiers are generated here, never taken from input.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp


def _parse(sql: str) -> exp.Expression:
    return sqlglot.parse_one(sql, read="duckdb")


def combo_paths(r: int) -> exp.Expression:
    """Each combination's weight and its ancestor path (root..leaf) per attribute as a1..ar."""
    cols = ", ".join(f"path[{j}] AS a{j}" for j in range(1, r + 1))
    return _parse(f"SELECT cid, weight, {cols} FROM rel_combo")


def start_member(r: int) -> exp.Expression:
    """The all-root record's supporting combinations: all, each with its child per attribute."""
    cols = ", ".join(f"a{j}[2] AS c{j}" for j in range(1, r + 1))
    return _parse(f"SELECT 0::BIGINT AS rec, cid, weight, {cols} FROM rel_combo_path")


def narrowings(r: int) -> exp.Expression:
    """Support of every frequent (>= $k) immediate narrowing of every frontier record, and
    whether it keeps the record's whole support."""
    parts = " UNION ALL ".join(
        f"SELECT rec, {j} AS attr, c{j} AS child, sum(weight)::BIGINT AS support "
        f"FROM frontier_member WHERE c{j} IS NOT NULL GROUP BY rec, c{j} HAVING sum(weight) >= $k"
        for j in range(1, r + 1)
    )
    return _parse(
        f"SELECT n.rec, n.attr, n.child, n.support, n.support = f.support AS same "
        f"FROM ({parts}) AS n JOIN frontier AS f ON f.rec = n.rec"
    )


def next_member(r: int) -> exp.Expression:
    """The combinations supporting each next record (its parent's that fall under its new
    node), with their children per attribute: only the narrowed attribute's child changes."""

    def branch(j: int) -> str:
        kids = ", ".join(
            f"p.a{i}[x.depth[{i}] + 2] AS c{i}" if i == j else f"k.c{i}" for i in range(1, r + 1)
        )
        return (
            f"SELECT x.rec, k.cid, k.weight, {kids} FROM next_frontier AS x "
            f"JOIN frontier_member AS k ON k.rec = x.parent AND k.c{j} = x.child "
            f"JOIN rel_combo_path AS p ON p.cid = k.cid WHERE x.attr = {j}"
        )

    return _parse(" UNION ALL ".join(branch(j) for j in range(1, r + 1)))
