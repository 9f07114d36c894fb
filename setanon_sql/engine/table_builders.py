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

from sqlglot import exp

WORD = 64
ALL_ONES = (1 << WORD) - 1


def _col(name: str, table: str | None = None) -> exp.Column:
    return exp.column(name, table=table)


def _num(value: int) -> exp.Expr:
    return exp.Literal.number(value)


def _at(array: exp.Expr, index: int | exp.Expr) -> exp.Bracket:
    """array[index], 1-based as in DuckDB (sqlglot keeps literal indices 0-based inside)."""
    if isinstance(index, int):
        return exp.Bracket(this=array, expressions=[_num(index - 1)])
    return exp.Bracket(this=array, expressions=[index])


def _ubigint(value: exp.Expr) -> exp.Cast:
    return exp.cast(value, exp.DataType.Type.UBIGINT)


def _integer(value: exp.Expr) -> exp.Cast:
    return exp.cast(value, exp.DataType.Type.INT)


def _union(selects: Sequence[exp.Select]) -> exp.Query:
    """The selects glued by UNION ALL, left-deep as the parser builds them."""
    query: exp.Query = selects[0]
    for select in selects[1:]:
        query = exp.union(query, select, distinct=False)
    return query


@dataclass(frozen=True)
class Field:
    """Where an attribute's child id sits: word number (1-based), shift and mask; the mask
    itself (all ones) stands for "no child" (the record's node is a leaf)."""

    word: int
    shift: int
    mask: int

    def get(self, alias: str) -> exp.Paren:
        """((alias.wN >> shift) & mask)"""
        shifted = exp.paren(
            exp.BitwiseRightShift(this=_col(f"w{self.word}", alias), expression=_num(self.shift))
        )
        return exp.paren(exp.BitwiseAnd(this=shifted, expression=_num(self.mask)))

    def put(self, value: exp.Expr) -> exp.Paren:
        """(coalesce(value, mask)::UBIGINT << shift)"""
        filled = exp.Coalesce(this=value, expressions=[_num(self.mask)])
        return exp.paren(exp.BitwiseLeftShift(this=_ubigint(filled), expression=_num(self.shift)))

    def keep_others(self, alias: str) -> exp.Paren:
        """(alias.wN & ~field::UBIGINT): the word with this field cleared."""
        others = _ubigint(_num(ALL_ONES ^ (self.mask << self.shift)))
        return exp.paren(exp.BitwiseAnd(this=_col(f"w{self.word}", alias), expression=others))


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


def _bit_or(parts: Sequence[exp.Expr]) -> exp.Expr:
    word = parts[0]
    for part in parts[1:]:
        word = exp.BitwiseOr(this=word, expression=part)
    return word


def combo_paths(r: int) -> exp.Select:
    """Each combination's weight and its ancestor path (root..leaf) per attribute as a1..ar."""
    paths = [_at(_col("path"), j).as_(f"a{j}") for j in range(1, r + 1)]
    return exp.select("cid", "weight", *paths).from_("rel_combo")


def start_member(fields: Sequence[Field]) -> exp.Select:
    """The all-root record's supporting combinations: all, with their children of the roots."""
    words = [
        _bit_or([f.put(_at(_col(f"a{j}"), 2)) for j, f in enumerate(fields, 1) if f.word == w]).as_(
            f"w{w}"
        )
        for w in _words(fields)
    ]
    head = [
        _num(0).as_("rec"),
        _integer(_col("cid")).as_("cid"),
        _integer(_col("weight")).as_("weight"),
    ]
    return exp.select(*head, *words).from_("rel_combo_path")


def narrowings(fields: Sequence[Field]) -> exp.Select:
    """Support of every frequent (>= $k) immediate narrowing of every frontier record, and
    whether it keeps the record's whole support."""

    def part(j: int, f: Field) -> exp.Select:
        support = exp.Sum(this=_col("weight", "m"))
        return (
            exp.select(
                _col("rec", "m"),
                _num(j).as_("attr"),
                _integer(f.get("m")).as_("child"),
                exp.cast(support, exp.DataType.Type.BIGINT).as_("support"),
            )
            .from_(exp.to_table("frontier_member").as_("m"))
            .where(exp.NEQ(this=f.get("m"), expression=_num(f.mask)))
            .group_by(_col("rec", "m"), _col("child"))
            .having(exp.GTE(this=support.copy(), expression=exp.Parameter(this=exp.var("k"))))
        )

    parts = _union([part(j, f) for j, f in enumerate(fields, 1)]).subquery("n")
    same = exp.EQ(this=_col("support", "n"), expression=_col("support", "f")).as_("same")
    return (
        exp.select(*(_col(c, "n") for c in ("rec", "attr", "child", "support")), same)
        .from_(parts)
        .join(
            exp.to_table("frontier").as_("f"),
            on=exp.EQ(this=_col("rec", "f"), expression=_col("rec", "n")),
        )
    )


def next_member(fields: Sequence[Field]) -> exp.Query:
    """The combinations supporting each next record (its parent's that fall under its new
    node), with their children: only the narrowed attribute's field changes."""

    def branch(j: int, f: Field) -> exp.Select:
        child = _at(
            _col(f"a{j}", "p"), exp.Add(this=_at(_col("depth", "x"), j), expression=_num(2))
        )
        words = [
            (
                exp.BitwiseOr(this=f.keep_others("k"), expression=f.put(child))
                if w == f.word
                else _col(f"w{w}", "k")
            ).as_(f"w{w}")
            for w in _words(fields)
        ]
        member_on = exp.and_(
            exp.EQ(this=_col("rec", "k"), expression=_col("parent", "x")),
            exp.EQ(this=f.get("k"), expression=_col("child", "x")),
        )
        return (
            exp.select(
                _integer(_col("rec", "x")).as_("rec"), _col("cid", "k"), _col("weight", "k"), *words
            )
            .from_(exp.to_table("next_frontier").as_("x"))
            .join(exp.to_table("frontier_member").as_("k"), on=member_on)
            .join(
                exp.to_table("rel_combo_path").as_("p"),
                on=exp.EQ(this=_col("cid", "p"), expression=_col("cid", "k")),
            )
            .where(exp.EQ(this=_col("attr", "x"), expression=_num(j)))
        )

    return _union([branch(j, f) for j, f in enumerate(fields, 1)])


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
) -> exp.Select:
    """Every combination's cheapest class (ties: lowest number) whose closure generalizes it,
    among `classes` less the classes in table `skip`; with `two`, also its two cheapest
    as a list `best` of {target, cost} (a row's cheapest other than its own class is in it);
    with `only`, just the combinations (`cid`) of that table.

    Classes are matched on attribute j by equality (the closure node is one of the leaf's
    ancestors), then on the others by preorder intervals, one column per attribute: DuckDB
    filters plain columns far faster than lists.
    """
    combo = exp.select("cid", *(_at(_col("leaf"), i).as_(f"l{i}") for i in range(1, r + 1)))
    combo = combo.from_("rel_combo")
    if only:
        combo = combo.where(
            exp.In(this=_col("cid"), query=exp.select("cid").from_(only).subquery())
        )
    spans = [
        e
        for i in range(1, r + 1)
        for e in (_at(_col("node"), i).as_(f"n{i}"), _at(_col("last"), i).as_(f"e{i}"))
    ]
    klass = exp.select("cluster", "cost", *spans).from_(classes)
    inside: list[exp.Expr] = [
        exp.Between(this=_col(f"l{i}", "c"), low=_col(f"n{i}", "t"), high=_col(f"e{i}", "t"))
        for i in range(1, r + 1)
        if i != j
    ]
    if skip:
        taken = exp.In(
            this=_col("cluster", "t"), query=exp.select("cluster").from_(skip).subquery()
        )
        inside.append(exp.Not(this=taken))
    order = exp.Tuple(expressions=[_col("cost", "t"), _col("cluster", "t")])
    chosen = [
        _col("cid", "c"),
        exp.ArgMin(this=_col("cluster", "t"), expression=order).as_("target"),
        exp.Min(this=_col("cost", "t")).as_("cost"),
    ]
    if two:
        pair = exp.Struct(
            expressions=[
                exp.PropertyEQ(this=exp.to_identifier("target"), expression=_col("cluster", "t")),
                exp.PropertyEQ(this=exp.to_identifier("cost"), expression=_col("cost", "t")),
            ]
        )
        chosen.append(exp.ArgMin(this=pair, expression=order.copy(), count=_num(2)).as_("best"))
    ancestor_on = exp.and_(
        exp.EQ(this=_col("attr", "a"), expression=_num(j)),
        exp.EQ(this=_col("leaf", "a"), expression=_col(f"l{j}", "c")),
    )
    return (
        exp.select(*chosen)
        .from_(exp.to_table("combo").as_("c"))
        .join(exp.to_table("rel_ancestor").as_("a"), on=ancestor_on)
        .join(
            exp.to_table("class").as_("t"),
            on=exp.EQ(this=_col(f"n{j}", "t"), expression=_col("node", "a")),
        )
        .where(exp.and_(*inside) if inside else exp.true())
        .group_by(_col("cid", "c"))
        .with_("combo", as_=combo)
        .with_("class", as_=klass)
    )
