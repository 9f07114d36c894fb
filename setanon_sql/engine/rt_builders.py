"""sqlglot builders for tables with a set-valued column ((k, k^m)-anonymity): the set column's
copy, the itemsets of each class under k, the release's classes and its set column. Each
returns an expression and never executes it."""

from __future__ import annotations

from collections.abc import Sequence

from sqlglot import exp, select

from .builders import col, itemset_supports
from .table_release import long_qi


def rt_release_query(
    columns: Sequence[str], items: str, is_list: bool, *, renumber: str | None = None
) -> exp.Select:
    """`table_release` with its set column replaced by the released sets (`rt_release_sets`):
    a list where the source had one, else the labels joined as `text` (quoted where needed).
    The column `renumber` (a key) becomes 1, 2, ... in the order of the other released
    values and the set, so it says nothing of the input's order or keys."""
    value = col("s", "labels") if is_list else col("s", "text")
    picked: list[exp.Expr] = [col("r", "rid"), col("r", "cluster")]
    others = [value if c == items else col("r", c) for c in columns if c != renumber]
    order = [exp.Ordered(this=e.copy()) for e in (*others, col("r", "rid"))]
    for c in columns:
        if c == items:
            picked.append(value.copy().as_(c, quoted=True))
        elif c == renumber:
            number = exp.Window(this=exp.func("row_number"), order=exp.Order(expressions=order))
            picked.append(number.as_(c, quoted=True))
        else:
            picked.append(col("r", c))
    return (
        select(*picked)
        .from_(exp.table_("rt_table_release", quoted=True).as_("r", quoted=True))
        .join(
            exp.table_("rt_release_sets", quoted=True).as_("s", quoted=True),
            on=exp.EQ(this=col("s", "rid"), expression=col("r", "rid")),
        )
        .order_by(col("r", "rid"))
    )


def class_violations(size: int) -> exp.Select:
    """Every class's `size`-itemsets of generalized records held by 1..$k-1 of its records.

    Example:
        >>> print(class_violations(1).sql("duckdb"))  # doctest: +ELLIPSIS
        SELECT "i1"."node" AS "item_1", COUNT(*) AS "support", "i1"."cluster" AS "cluster" ...
    """
    q = itemset_supports("rt_generalized", size, tid="rid", item="node")
    return q.select(col("i1", "cluster").as_("cluster", quoted=True)).group_by(col("i1", "cluster"))


def release_classes(qi: Sequence[str]) -> exp.Select:
    """Every released row's class: rows with the same released QI values share one.

    Example:
        >>> print(release_classes(["age"]).sql("duckdb"))
        SELECT "rid", DENSE_RANK() OVER (ORDER BY "age") AS "class" FROM "table_release"
    """
    rank = exp.Window(
        this=exp.func("dense_rank"),
        order=exp.Order(expressions=[exp.Ordered(this=exp.column(c, quoted=True)) for c in qi]),
    )
    return select(exp.column("rid", quoted=True), rank.as_("class", quoted=True)).from_(
        exp.table_("table_release", quoted=True)
    )


def class_itemsets_below_k(m: int) -> exp.Expr:
    """Every class's itemsets of 1..m released items held by 1..$k-1 of its records."""
    parts: list[exp.Select] = []
    for size in range(1, m + 1):
        q = itemset_supports("rt_released_nodes", size, tid="rid", item="node")
        q = q.select(
            *[
                exp.cast(exp.null(), "INTEGER").as_(f"item_{j}", quoted=True)
                for j in range(size + 1, m + 1)
            ]
        )
        parts.append(
            select(
                col("s", "class"),
                exp.Literal.number(size).as_("size", quoted=True),
                *[col("s", f"item_{j}") for j in range(1, m + 1)],
                col("s", "support"),
            ).from_(
                q.select(col("i1", "class").as_("class", quoted=True))
                .group_by(col("i1", "class"))
                .subquery("s", copy=False)
            )
        )
    out: exp.Query = parts[0]
    for p in parts[1:]:
        out = exp.union(out, p, distinct=False)
    return out


def release_column(name: str) -> exp.Select:
    """The released set column as `(rid, items)`."""
    return select(
        exp.column("rid", quoted=True), exp.column(name, quoted=True).as_("items", quoted=True)
    ).from_(exp.table_("table_release", quoted=True))


def set_column_copy(name: str) -> exp.Select:
    """The set-valued column of `rel_source` as `(rid, items)`, before it is split."""
    source = exp.table_("rel_source", quoted=True).as_("s", quoted=True)
    return select(col("s", "rid"), col("s", name).as_("items", quoted=True)).from_(source)


def _key_text(column: exp.Column) -> exp.Expr:
    """A key as trimmed text: the same key read from a CSV and from Parquet joins."""
    return exp.func("trim", exp.cast(column, "VARCHAR"))


def item_row_query(key: str, items: str) -> exp.Select:
    """The item rows as `(key, item)`, in file order (`row`).

    Example:
        >>> print(item_row_query("id", "code").sql("duckdb"))
        SELECT TRIM(CAST("id" AS TEXT)) AS "key", TRIM("code") AS "item", rowid AS "row" FROM "rel_raw"
    """
    return select(
        _key_text(exp.column(key, quoted=True)).as_("key", quoted=True),
        exp.func("trim", exp.column(items, quoted=True)).as_("item", quoted=True),
        exp.column("rowid").as_("row", quoted=True),
    ).from_(exp.table_("rel_raw", quoted=True))


def record_key_query(key: str) -> exp.Select:
    """Every record's key as `(rid, key)`.

    Example:
        >>> print(record_key_query("id").sql("duckdb"))
        SELECT "rid" AS "rid", TRIM(CAST("id" AS TEXT)) AS "key" FROM "rel_source"
    """
    return select(
        exp.column("rid", quoted=True).as_("rid", quoted=True),
        _key_text(exp.column(key, quoted=True)).as_("key", quoted=True),
    ).from_(exp.table_("rel_source", quoted=True))


def read_keys_query(key: str) -> exp.Select:
    """Every distinct key of the records as read (`rel_raw`), as trimmed text."""
    return (
        select(_key_text(exp.column(key, quoted=True)).as_("key", quoted=True))
        .from_("rel_raw")
        .distinct()
    )


def released_rows_query(run: str, catalog: str, key: str, items: str) -> exp.Select:
    """A run's released `(key, item)` rows: each record's released items, one a row, records
    by their key (renumbered in the release's order) and a record's items by label."""
    release = exp.table_("table_release", db=run, catalog=catalog, quoted=True)
    unnested = (
        select(
            col("r", "rid"),
            col("r", key).as_(key, quoted=True),
            exp.Unnest(expressions=[col("r", items)]).as_("item", quoted=True),
        )
        .from_(release.as_("r", quoted=True))
        .subquery("u", copy=False)
    )
    return (
        select(col("u", key), col("u", "item").as_(items, quoted=True))
        .from_(unnested)
        .order_by(col("u", key), col("u", "item"))
    )


def qi_loss_query(qi: Sequence[str]) -> exp.Select:
    """The release's NCP of every QI: the mean over rows of the cost of its released node.

    Example:
        >>> print(qi_loss_query(["age"]).sql("duckdb"))  # doctest: +ELLIPSIS
        SELECT "a"."name" AS "column", AVG("n"."cost") AS "ncp" FROM (SELECT "rid", 1 AS attr, ...
    """
    released = long_qi(qi, "table_release")
    if not isinstance(released, exp.Query):
        raise TypeError(f"not a query: {released!r}")
    on_node = exp.and_(
        exp.EQ(this=exp.column("attr", "n", quoted=True), expression=exp.column("attr", "r")),
        exp.EQ(this=exp.column("label", "n", quoted=True), expression=exp.column("label", "r")),
    )
    return (
        select(
            exp.column("name", "a", quoted=True).as_("column", quoted=True),
            exp.Avg(this=exp.column("cost", "n", quoted=True)).as_("ncp", quoted=True),
        )
        .from_(released.subquery("r", copy=False))
        .join(exp.table_("rel_node", quoted=True).as_("n", quoted=True), on=on_node)
        .join(
            exp.table_("rel_attr", quoted=True).as_("a", quoted=True),
            on=exp.EQ(
                this=exp.column("attr", "a", quoted=True), expression=exp.column("attr", "r")
            ),
        )
        .group_by(exp.column("attr", "a", quoted=True), exp.column("name", "a", quoted=True))
        .order_by(exp.column("attr", "a", quoted=True))
    )
