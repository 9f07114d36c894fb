"""sqlglot builders for the variable-shape SQL of the mining.

The combinations' ancestor paths are kept one column per attribute (`a1..ar`). The children of
a frontier record's nodes that its supporting combinations fall under are packed as bit fields
into a few UBIGINT words (`w1..`), carried from level to level with only the narrowed
attribute's field recomputed: DuckDB groups and copies a packed word several times faster
than a list per row or a column per attribute. Each builder returns an expression and never
executes it; the identifiers are generated here, never taken from input. Member rows hold
INTEGER ids and weights, which group faster than BIGINT.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

WORD = 64
ALL_ONES = (1 << WORD) - 1


@dataclass(frozen=True)
class Field:
    """Where an attribute's child id sits: word number (1-based), shift and mask; the mask
    itself (all ones) stands for "no child" (the record's node is a leaf)."""

    word: int
    shift: int
    mask: int

    def get(self, alias: str) -> str:
        return f"(({alias}.w{self.word} >> {self.shift}) & {self.mask})"

    def put(self, value: str) -> str:
        return f"(coalesce({value}, {self.mask})::UBIGINT << {self.shift})"

    def keep_others(self, alias: str) -> str:
        return f"({alias}.w{self.word} & {ALL_ONES ^ (self.mask << self.shift)}::UBIGINT)"


def layout(sizes: Sequence[int]) -> list[Field]:
    """Bit fields for attributes whose taxonomies have these numbers of nodes."""
    fields, word, shift = [], 1, 0
    for size in sizes:
        bits = size.bit_length()
        if shift + bits > WORD:
            word, shift = word + 1, 0
        fields.append(Field(word, shift, (1 << bits) - 1))
        shift += bits
    return fields


def _words(fields: Sequence[Field]) -> range:
    return range(1, fields[-1].word + 1)


def _parse(sql: str) -> exp.Expr:
    return sqlglot.parse_one(sql, read="duckdb")


def combo_paths(r: int) -> exp.Expr:
    """Each combination's weight and its ancestor path (root..leaf) per attribute as a1..ar."""
    cols = ", ".join(f"path[{j}] AS a{j}" for j in range(1, r + 1))
    return _parse(f"SELECT cid, weight, {cols} FROM rel_combo")


def start_member(fields: Sequence[Field]) -> exp.Expr:
    """The all-root record's supporting combinations: all, with their children of the roots."""
    words = ", ".join(
        " | ".join(f.put(f"a{j}[2]") for j, f in enumerate(fields, 1) if f.word == w) + f" AS w{w}"
        for w in _words(fields)
    )
    return _parse(
        f"SELECT 0 AS rec, cid::INTEGER AS cid, weight::INTEGER AS weight, {words} "
        "FROM rel_combo_path"
    )


def narrowings(fields: Sequence[Field]) -> exp.Expr:
    """Support of every frequent (>= $k) immediate narrowing of every frontier record, and
    whether it keeps the record's whole support."""
    parts = " UNION ALL ".join(
        f"SELECT m.rec, {j} AS attr, {f.get('m')}::INTEGER AS child, "
        f"sum(m.weight)::BIGINT AS support FROM frontier_member AS m "
        f"WHERE {f.get('m')} <> {f.mask} GROUP BY m.rec, child HAVING sum(m.weight) >= $k"
        for j, f in enumerate(fields, 1)
    )
    return _parse(
        f"SELECT n.rec, n.attr, n.child, n.support, n.support = f.support AS same "
        f"FROM ({parts}) AS n JOIN frontier AS f ON f.rec = n.rec"
    )


def next_member(fields: Sequence[Field]) -> exp.Expr:
    """The combinations supporting each next record (its parent's that fall under its new
    node), with their children: only the narrowed attribute's field changes."""

    def branch(j: int, f: Field) -> str:
        words = ", ".join(
            (
                f"{f.keep_others('k')} | {f.put(f'p.a{j}[x.depth[{j}] + 2]')}"
                if w == f.word
                else f"k.w{w}"
            )
            + f" AS w{w}"
            for w in _words(fields)
        )
        return (
            f"SELECT x.rec::INTEGER AS rec, k.cid, k.weight, {words} FROM next_frontier AS x "
            f"JOIN frontier_member AS k ON k.rec = x.parent AND {f.get('k')} = x.child "
            f"JOIN rel_combo_path AS p ON p.cid = k.cid WHERE x.attr = {j}"
        )

    return _parse(" UNION ALL ".join(branch(j, f) for j, f in enumerate(fields, 1)))


def sensitive_values(column: str) -> exp.Select:
    """Every source row's value of the sensitive column, as text: (rid, value)."""
    value = exp.cast(exp.column(column, quoted=True), "VARCHAR").as_("value")
    return exp.select(exp.column("rid"), value).from_("rel_source")


def covering(
    r: int,
    j: int,
    *,
    skip: str | None = None,
    two: bool = False,
    classes: str = "improve_class",
    only: str | None = None,
) -> exp.Expr:
    """Every combination's cheapest class (ties: lowest number) whose closure generalizes it,
    among `classes` less the classes in table `skip`; with `two`, also its two cheapest
    as a list `best` of {target, cost} (a row's cheapest other than its own class is in it);
    with `only`, just the combinations (`cid`) of that table.

    Classes are matched on attribute j by equality (the closure node is one of the leaf's
    ancestors), then on the others by preorder intervals, one column per attribute: DuckDB
    filters plain columns far faster than lists.
    """
    leaves = ", ".join(f"leaf[{i}] AS l{i}" for i in range(1, r + 1))
    spans = ", ".join(f"node[{i}] AS n{i}, last[{i}] AS e{i}" for i in range(1, r + 1))
    inside = [f"c.l{i} BETWEEN t.n{i} AND t.e{i}" for i in range(1, r + 1) if i != j]
    if skip:
        inside.append(f"t.cluster NOT IN (SELECT cluster FROM {skip})")
    where = f" WHERE cid IN (SELECT cid FROM {only})" if only else ""
    return _parse(
        f"WITH combo AS (SELECT cid, {leaves} FROM rel_combo{where}), "
        f"class AS (SELECT cluster, cost, {spans} FROM {classes}) "
        "SELECT c.cid, arg_min(t.cluster, (t.cost, t.cluster)) AS target, min(t.cost) AS cost"
        + (
            ", arg_min({'target': t.cluster, 'cost': t.cost}, (t.cost, t.cluster), 2) AS best "
            if two
            else " "
        )
        + f"FROM combo AS c JOIN rel_ancestor AS a ON a.attr = {j} AND a.leaf = c.l{j} "
        f"JOIN class AS t ON t.n{j} = a.node WHERE {' AND '.join(inside) or 'true'} "
        "GROUP BY c.cid"
    )
