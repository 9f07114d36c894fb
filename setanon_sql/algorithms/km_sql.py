"""sqlglot builders for the k^m cut algorithms' variable-shape SQL (itemsets of any size).

Itemsets travel as `itemset INTEGER[]` lists of node ids so that one table holds every size.
Each builder returns an expression and never executes it.
"""

from __future__ import annotations

from sqlglot import exp, select

from ..queries import col, itemset_supports


def _as_itemsets(inner: exp.Select, size: int) -> exp.Select:
    """`inner`'s item_1..item_size columns folded into one list column `itemset`."""
    items = exp.Array(
        expressions=[exp.column(f"item_{j}", quoted=True) for j in range(1, size + 1)]
    )
    return select(items.as_("itemset", quoted=True), exp.column("support", quoted=True)).from_(
        inner.subquery(f"supports_{size}", copy=False)
    )


def _union(parts: list[exp.Select]) -> exp.Expression:
    out: exp.Expression = parts[0]
    for part in parts[1:]:
        out = exp.union(out, part, distinct=False)
    return out


def not_descendant(earlier: str, later: str) -> exp.Expression:
    """`later` lies outside the subtree of `earlier` (both from `expanded`, ids increasing)."""
    return exp.GT(this=col(later, "node"), expression=col(earlier, "last"))


def generalized_supports(size: int, *, below: str | None = "$k") -> exp.Select:
    """Support of every `size`-itemset of the generalized transactions (under `below` if set)."""
    return _as_itemsets(itemset_supports("generalized", size, below=below), size)


def expanded_violations(m: int) -> exp.Expression:
    """Every itemset of 1..m nodes of the expanded transactions, no node with its own ancestor,
    with support under $k: the itemsets DA must fix and OA must keep out of its cut."""
    return _union(
        [
            _as_itemsets(itemset_supports("expanded", s, pair_condition=not_descendant), s)
            for s in range(1, m + 1)
        ]
    )


def candidate_supports(sizes: list[int]) -> exp.Expression:
    """Support in `expanded` of every itemset of table `candidates(size, item_1, ...)`.

    Items come rarest first, so each join starts from the shortest list of transactions.
    Itemsets held by no transaction give no row (support 0).
    """
    parts = []
    for size in sizes:
        q = select(
            exp.Array(expressions=[col("c", f"item_{j}") for j in range(1, size + 1)]).as_(
                "itemset", quoted=True
            ),
            exp.Count(this=exp.Star()).as_("support", quoted=True),
        ).from_(exp.table_("candidates", quoted=True).as_("c", quoted=True))
        for j in range(1, size + 1):
            on: exp.Expression = exp.EQ(this=col(f"e{j}", "node"), expression=col("c", f"item_{j}"))
            if j > 1:
                on = exp.and_(exp.EQ(this=col(f"e{j}", "tid"), expression=col("e1", "tid")), on)
            q = q.join(exp.table_("expanded", quoted=True).as_(f"e{j}", quoted=True), on=on)
        q = q.where(exp.EQ(this=col("c", "size"), expression=exp.Literal.number(size))).group_by(
            *[col("c", f"item_{j}") for j in range(1, size + 1)]
        )
        parts.append(q)
    return _union(parts)


def in_paper_order(table: str) -> exp.Select:
    """The itemsets of `table` in the paper's count-tree order: each itemset's nodes by
    `node_rank`, itemsets compared as rank lists (a prefix before its extensions)."""
    ranks = (
        select(exp.func("list", col("r", "rank")))
        .from_(
            exp.Unnest(
                expressions=[col("v", "itemset")],
                alias=exp.TableAlias(
                    this=exp.to_identifier("u", quoted=True),
                    columns=[exp.to_identifier("x", quoted=True)],
                ),
            )
        )
        .join(
            exp.table_("node_rank", quoted=True).as_("r", quoted=True),
            on=exp.EQ(this=col("r", "id"), expression=col("u", "x")),
        )
    )
    key = exp.func("list_sort", ranks.subquery())
    return (
        select(col("v", "itemset"), col("v", "support"))
        .from_(exp.table_(table, quoted=True).as_("v", quoted=True))
        .order_by(key)
    )
