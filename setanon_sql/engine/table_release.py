"""sqlglot builders for a table's load and release (k-ANON-CF, l-diversity, (k, k^m)): the
source trimmed and its empty values, its QI values in long form, the release by cluster
labels, and the release's validity, classes and loss. Each returns an expression and never
executes it; the table names are the tool's own, the column names are quoted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlglot import exp, select


def trimmed_source(cols: Mapping[str, str], drop_missing: str | None) -> exp.Select:
    """`rel_raw` with a row id, text columns trimmed, rows holding the missing-value token out."""
    items: list[exp.Expr] = [exp.column("rowid").as_("rid", quoted=True)]
    for name, kind in cols.items():
        col = exp.column(name, quoted=True)
        value = exp.func("trim", col) if kind == "VARCHAR" else col
        items.append(value.as_(name, quoted=True))
    q = select(*items).from_("rel_raw")
    if drop_missing is not None:
        token = exp.Placeholder(this="missing")
        for name in cols:
            text = exp.func("trim", exp.cast(exp.column(name, quoted=True), "VARCHAR"))
            q = q.where(
                exp.or_(
                    exp.column(name, quoted=True).is_(exp.null()),
                    exp.NEQ(this=text, expression=token),
                )
            )
    return q


def empty_values(columns: Sequence[str]) -> exp.Select:
    """How many rows of `rel_source` hold no value (NULL or blank) in each of these columns,
    one count a column named as it: every column in one scan.

    Example:
        >>> print(empty_values(["age"]).sql("duckdb"))
        SELECT COUNT_IF("age" IS NULL OR TRIM(CAST("age" AS TEXT)) = '') AS "age" FROM "rel_source"
    """
    counts = []
    for name in columns:
        col = exp.column(name, quoted=True)
        blank = exp.EQ(
            this=exp.func("trim", exp.cast(col.copy(), "VARCHAR")),
            expression=exp.Literal.string(""),
        )
        counts.append(
            exp.func("count_if", exp.or_(col.is_(exp.null()), blank)).as_(name, quoted=True)
        )
    return select(*counts).from_(exp.table_("rel_source", quoted=True))


def long_qi(qi: Sequence[str], table: str = "rel_source") -> exp.Expr:
    """One row per (rid, attribute) of `table` with the QI value as trimmed text."""
    parts = [
        select(
            exp.column("rid", quoted=True),
            exp.Literal.number(j).as_("attr"),
            exp.func("trim", exp.cast(exp.column(name, quoted=True), "VARCHAR")).as_("label"),
        ).from_(exp.table_(table, quoted=True))
        for j, name in enumerate(qi, 1)
    ]
    out: exp.Expr = parts[0]
    for p in parts[1:]:
        out = exp.union(out, p, distinct=False)
    return out


def _c(name: str, table: str | None = None) -> exp.Column:
    return exp.column(name, table=table, quoted=True)


def _subquery(query: exp.Expr, alias: str) -> exp.Subquery:
    """A query as a subquery named `alias` (`long_qi` returns a UNION ALL of selects)."""
    if not isinstance(query, exp.Query):
        raise TypeError(f"not a query: {query!r}")
    return query.subquery(alias, copy=False)


def release_query(columns: Sequence[str], qi: Sequence[str]) -> exp.Select:
    """Every source row with its QI columns replaced by its cluster's closure labels."""
    pos = {c: j for j, c in enumerate(qi, 1)}
    items: list[exp.Expr] = [_c("rid", "s"), _c("cluster", "k")]
    for c in columns:
        if c in pos:
            label = exp.Anonymous(
                this="list_extract", expressions=[_c("labels", "l"), exp.Literal.number(pos[c])]
            )
            items.append(label.as_(c, quoted=True))
        else:
            items.append(_c(c, "s"))
    return (
        select(*items)
        .from_(exp.table_("rel_source", quoted=True).as_("s", quoted=True))
        .join(
            exp.table_("cluster", quoted=True).as_("k", quoted=True),
            on=exp.EQ(this=_c("rid", "k"), expression=_c("rid", "s")),
        )
        .join(
            exp.table_("cluster_labels", quoted=True).as_("l", quoted=True),
            on=exp.EQ(this=_c("cluster", "l"), expression=_c("cluster", "k")),
        )
        .order_by(_c("rid", "s"))
    )


def validity_query(qi: Sequence[str]) -> exp.Select:
    """Released QI values that are not the original value or one of its ancestors, and source
    rows missing from the release."""
    released = _subquery(long_qi(qi, "table_release"), "r")
    original = _subquery(long_qi(qi, "rel_source"), "o")
    on_attr = lambda a, b: exp.and_(  # noqa: E731
        exp.EQ(this=_c("attr", a), expression=_c("attr", b)),
        exp.EQ(this=_c("label", a), expression=_c("label", b)),
    )
    return (
        select(
            _c("rid", "o"),
            _c("name", "a").as_("column", quoted=True),
            _c("label", "o").as_("original", quoted=True),
            _c("label", "r").as_("released", quoted=True),
        )
        .from_(original)
        .join(
            exp.table_("rel_attr", quoted=True).as_("a", quoted=True),
            on=exp.EQ(this=_c("attr", "a"), expression=_c("attr", "o")),
        )
        .join(
            exp.table_("rel_node", quoted=True).as_("ol", quoted=True),
            on=on_attr("ol", "o"),
            join_type="left",
        )
        .join(
            released,
            on=exp.and_(
                exp.EQ(this=_c("rid", "r"), expression=_c("rid", "o")),
                exp.EQ(this=_c("attr", "r"), expression=_c("attr", "o")),
            ),
            join_type="left",
        )
        .join(
            exp.table_("rel_node", quoted=True).as_("rn", quoted=True),
            on=on_attr("rn", "r"),
            join_type="left",
        )
        .where(
            exp.not_(
                exp.func(
                    "coalesce",
                    exp.Between(this=_c("id", "ol"), low=_c("id", "rn"), high=_c("last", "rn")),
                    exp.false(),
                )
            )
        )
        .order_by(_c("rid", "o"), _c("attr", "o"))
    )


def classes_query(qi: Sequence[str], sensitive: str | None) -> exp.Select:
    """Every equivalence class of the release (same QI values) with its size and diversity."""
    keys = [_c(c) for c in qi]
    inner = select(*keys, exp.Count(this=exp.Star()).as_("n", quoted=True)).from_("table_release")
    if sensitive:
        inner = inner.select(_c(sensitive))
    inner = inner.group_by(*keys, *([_c(sensitive)] if sensitive else []))
    most = exp.Max(this=_c("n")) if sensitive else exp.Literal.number(1)
    size = exp.Sum(this=_c("n"))
    div = exp.Div(this=exp.cast(size, "DOUBLE"), expression=most) if sensitive else exp.null()
    return (
        select(*keys, size.as_("support", quoted=True), div.as_("diversity", quoted=True))
        .from_(inner.subquery("per_value", copy=False))
        .group_by(*keys)
    )


def loss_query(qi: Sequence[str]) -> exp.Select:
    """The release's cost: per row the mean node cost over the QI attributes (LM by default),
    averaged over rows, and its sum over rows (ANON)."""
    released = _subquery(long_qi(qi, "table_release"), "r")
    per_row = (
        select(_c("rid", "r"), exp.Avg(this=_c("cost", "n")).as_("d", quoted=True))
        .from_(released)
        .join(
            exp.table_("rel_node", quoted=True).as_("n", quoted=True),
            on=exp.and_(
                exp.EQ(this=_c("attr", "n"), expression=_c("attr", "r")),
                exp.EQ(this=_c("label", "n"), expression=_c("label", "r")),
            ),
        )
        .group_by(_c("rid", "r"))
    )
    return select(
        exp.Avg(this=_c("d")).as_("lm", quoted=True), exp.Sum(this=_c("d")).as_("anon", quoted=True)
    ).from_(per_row.subquery("per_row", copy=False))


def release_rows(columns: Sequence[str], run: str, catalog: str) -> exp.Select:
    """A table run's release, its columns in the source's order, its rows sorted by their
    released values (column by column): the order is the release's own, whatever order the
    input had, and rows that tie are alike in every released column.

    Example:
        >>> print(release_rows(["age", "zip"], "r", "db").sql("duckdb"))
        SELECT "age", "zip" FROM "db"."r"."table_release" ORDER BY "age", "zip"
    """
    table = exp.table_("table_release", db=run, catalog=catalog, quoted=True)
    return select(*[_c(c) for c in columns]).from_(table).order_by(*[_c(c) for c in columns])


def linked_columns(kept: Sequence[str], qi: Sequence[str], kept_table: str) -> exp.Select:
    """Every (kept column, QI) pair of which one determines the other (a functional
    dependency: as many distinct (kept, QI) value pairs as values of one of them), the kept
    values read from `kept_table` and the QI values from `rel_source`, joined on `rid`, all
    pairs in one statement. A column holding one value carries nothing and is left out. Each
    row: `kept` and `qi` (1-based positions in the lists), `kept_values`, `qi_values`, `pairs`;
    NULL counts as a value.

    Example:
        >>> print(linked_columns(["code"], ["edu"], "rel_source").sql("duckdb"))  # doctest: +ELLIPSIS
        SELECT "k"."attr" AS "kept", "q"."attr" AS "qi", COUNT(DISTINCT ["k"."label"]) AS ...
    """
    one = lambda *xs: exp.Count(  # noqa: E731
        this=exp.Distinct(expressions=[exp.Array(expressions=list(xs))])
    )
    kept_values = one(_c("label", "k"))
    qi_values = one(_c("label", "q"))
    pairs = one(_c("label", "k"), _c("label", "q"))
    gt_one = lambda e: exp.GT(this=e.copy(), expression=exp.Literal.number(1))  # noqa: E731
    same = lambda a, b: exp.EQ(this=a.copy(), expression=b.copy())  # noqa: E731
    return (
        select(
            _c("attr", "k").as_("kept", quoted=True),
            _c("attr", "q").as_("qi", quoted=True),
            kept_values.as_("kept_values", quoted=True),
            qi_values.as_("qi_values", quoted=True),
            pairs.as_("pairs", quoted=True),
        )
        .from_(_subquery(long_qi(kept, kept_table), "k"))
        .join(
            _subquery(long_qi(qi, "rel_source"), "q"),
            on=exp.EQ(this=_c("rid", "q"), expression=_c("rid", "k")),
        )
        .group_by(_c("attr", "k"), _c("attr", "q"))
        .having(
            exp.and_(
                gt_one(kept_values),
                gt_one(qi_values),
                exp.or_(same(pairs, kept_values), same(pairs, qi_values)),
            )
        )
        .order_by(_c("attr", "k"), _c("attr", "q"))
    )
