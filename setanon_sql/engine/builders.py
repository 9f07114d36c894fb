"""sqlglot builders for variable-shape SQL. Each returns an expression and never executes it."""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp, select

Condition = Callable[[str, str], exp.Expr]


def col(table: str, name: str) -> exp.Column:
    return exp.column(name, table=table, quoted=True)


def itemset_supports(
    source: str,
    size: int,
    *,
    tid: str = "tid",
    item: str = "node",
    below: str | None = "$k",
    pair_condition: Condition | None = None,
) -> exp.Select:
    """Support of every `size`-itemset of `source(tid, item)` with items in increasing order.

    `below` keeps only itemsets with support under that bound (a parameter or a number);
    `pair_condition(a, b)` adds a condition on every pair of aliases (e.g. "not an ancestor").

    Example:
        >>> print(itemset_supports("release", 2).sql("duckdb"))  # doctest: +ELLIPSIS
        SELECT "i1"."node" AS "item_1", "i2"."node" AS "item_2", COUNT(*) AS "support" FROM ...
    """
    if size < 1:
        raise ValueError("itemset size must be >= 1")
    aliases = [f"i{j}" for j in range(1, size + 1)]
    q = select(
        *[col(a, item).as_(f"item_{j}", quoted=True) for j, a in enumerate(aliases, 1)],
        exp.Count(this=exp.Star()).as_("support", quoted=True),
    ).from_(exp.table_(source, quoted=True).as_(aliases[0], quoted=True))
    for j in range(1, size):
        prev, cur = aliases[j - 1], aliases[j]
        on: exp.Expr = exp.and_(
            exp.EQ(this=col(cur, tid), expression=col(aliases[0], tid)),
            exp.GT(this=col(cur, item), expression=col(prev, item)),
        )
        if pair_condition is not None:
            for earlier in aliases[:j]:
                on = exp.and_(on, pair_condition(earlier, cur))
        q = q.join(exp.table_(source, quoted=True).as_(cur, quoted=True), on=on)
    q = q.group_by(*[col(a, item) for a in aliases])
    if below is not None:
        bound = exp.Placeholder(this=below[1:]) if below.startswith("$") else exp.convert(below)
        q = q.having(exp.LT(this=exp.Count(this=exp.Star()), expression=bound))
    return q


def km_violations(
    m: int, *, singles: str = "release_set", frequent: str = "release_frequent"
) -> exp.Expr:
    """Itemsets of 1..m released items with support in [1, $k), as (size, itemset, support).

    Sizes >= 2 are counted over `frequent` (the occurrences of items with support >= $k) only:
    an itemset holding an infrequent item is already reported through that item, so the
    verdict is the same and the self-joins stay small (the Apriori property).
    """
    parts = []
    for size in range(1, m + 1):
        source = singles if size == 1 else frequent
        inner = itemset_supports(source, size).subquery(f"s{size}", copy=False)
        items = exp.Array(
            expressions=[exp.column(f"item_{j}", quoted=True) for j in range(1, size + 1)]
        )
        parts.append(
            select(
                exp.Literal.number(size).as_("size", quoted=True),
                items.as_("itemset", quoted=True),
                exp.column("support", quoted=True),
            ).from_(inner)
        )
    out: exp.Expr = parts[0]
    for p in parts[1:]:
        out = exp.union(out, p, distinct=False)
    return out


def release_file(tid: str, item: str | None, *, csv: bool, items: str = "") -> exp.Select:
    """A release file's rows as (tid_label, label) text: long rows (its `tid` and `item`
    columns), or one row per transaction whose `items` are a LIST column or, in CSV, a JSON
    array (`items` "list" or "json"; `item` None). The file is the parameter $path.

    Example:
        >>> print(release_file("t", "i", csv=False).sql("duckdb"))
        SELECT CAST("t" AS TEXT) AS tid_label, CAST("i" AS TEXT) AS label FROM READ_PARQUET($path)
    """
    path = exp.Placeholder(this="path")
    if csv:
        options = [
            exp.EQ(this=exp.column(name), expression=exp.true())
            for name in ("header", "all_varchar")
        ]
        reader: exp.Expr = exp.ReadCSV(this=path, expressions=options)
    else:
        reader = exp.ReadParquet(expressions=[path])
    if item is not None:
        label: exp.Expr = exp.column(item, quoted=True)
    else:
        listed: exp.Expr = exp.column("items", quoted=True)
        if items == "json":
            listed = exp.cast(exp.func("json", listed), "VARCHAR[]", dialect="duckdb")
        label = exp.Unnest(expressions=[listed])
    return select(
        exp.cast(exp.column(tid, quoted=True), "VARCHAR").as_("tid_label"),
        exp.cast(label, "VARCHAR").as_("label"),
    ).from_(exp.Table(this=reader))


def render(expression: exp.Expr) -> str:
    """The SQL text of a built expression, pretty-printed for analysts (DuckDB dialect)."""
    return expression.sql("duckdb", pretty=True)


def sets_query(size: int) -> exp.Select:
    """Every itemset of `size` candidate terms held by some record of a unit, with its support,
    when each of its (size - 1)-subsets is held by at least $k records of the unit.

    Example:
        >>> print(sets_query(2).sql("duckdb"))  # doctest: +ELLIPSIS
        SELECT "o1"."unit" AS "unit", [...] AS "itemset", COUNT(*) AS "support" FROM ...
    """
    if size < 2:
        raise ValueError("itemsets of at least two terms")
    source = "verpart_candidate_occurrence"
    aliases = [f"o{j}" for j in range(1, size + 1)]

    def col(alias: str, name: str) -> exp.Column:
        return exp.column(name, table=alias, quoted=True)

    items = [col(a, "item") for a in aliases]
    q = select(
        col(aliases[0], "unit").as_("unit", quoted=True),
        exp.Array(expressions=items).as_("itemset", quoted=True),
        exp.Count(this=exp.Star()).as_("support", quoted=True),
    ).from_(exp.table_(source, quoted=True).as_(aliases[0], quoted=True))
    for j in range(1, size):
        prev, cur = aliases[j - 1], aliases[j]
        q = q.join(
            exp.table_(source, quoted=True).as_(cur, quoted=True),
            on=exp.and_(
                exp.EQ(this=col(cur, "unit"), expression=col(aliases[0], "unit")),
                exp.EQ(this=col(cur, "tid"), expression=col(aliases[0], "tid")),
                exp.GT(this=col(cur, "item"), expression=col(prev, "item")),
            ),
        )
    if size > 2:  # every (size - 1)-subset must be held by k or more records
        for left_out in range(size):
            sub = [col(a, "item") for j, a in enumerate(aliases) if j != left_out]
            good = f"g{left_out + 1}"
            smaller = exp.table_(f"verpart_sets_{size - 1}", quoted=True).as_(good, quoted=True)
            on = exp.and_(
                exp.EQ(this=col(good, "unit"), expression=col(aliases[0], "unit")),
                exp.EQ(this=col(good, "itemset"), expression=exp.Array(expressions=sub)),
                exp.GTE(this=col(good, "support"), expression=exp.Placeholder(this="k")),
            )
            q = q.join(smaller, on=on, join_type="semi")
    return q.group_by(col(aliases[0], "unit"), *items)


def bad_query(size: int) -> exp.Select:
    """The itemsets of `verpart_sets_{size}` held by fewer than $k records (the table's name
    is computed, so the statement is built, not named).

    Example:
        >>> print(bad_query(2).sql("duckdb"))
        SELECT "unit", "itemset" FROM "verpart_sets_2" WHERE "support" < $k
    """
    return (
        select(exp.column("unit", quoted=True), exp.column("itemset", quoted=True))
        .from_(exp.table_(f"verpart_sets_{size}", quoted=True))
        .where(
            exp.LT(this=exp.column("support", quoted=True), expression=exp.Placeholder(this="k"))
        )
    )
