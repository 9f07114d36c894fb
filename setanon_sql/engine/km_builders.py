"""sqlglot builders for the k^m cut algorithms' variable-shape SQL (itemsets of any size).

Violation tables hold one itemset per row as columns `item_1 .. item_w` of node ids in increasing
order (NULL past the itemset's size), its `support`, and its position `pos` in the paper's walk
order. Supports found so far are kept as `itemset_supports(itemset INTEGER[], support, exact)`
(`exact` false: `support` is only a bound on the side of k that decided, see km_cut.Supports).
Each builder returns an expression and never executes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlglot import exp, select

from .builders import col, itemset_supports


def _items(table: str, width: int) -> list[exp.Column]:
    return [col(table, f"item_{j}") for j in range(1, width + 1)]


def _node_list(nodes: Sequence[exp.Expr]) -> exp.Expr:
    """The non-NULL nodes as a sorted list without duplicates."""
    return exp.func("list_sort", exp.func("list_distinct", exp.Array(expressions=nodes)))


def not_descendant(earlier: str, later: str) -> exp.Expr:
    """`later` lies outside the subtree of `earlier` (both from `expanded`, ids increasing)."""
    return exp.GT(this=col(later, "node"), expression=col(earlier, "last"))


def generalized_supports(size: int, *, below: str | None = "$k") -> exp.Select:
    """Support of every `size`-itemset of the generalized transactions (under `below` if set)."""
    return itemset_supports("generalized", size, below=below)


def below_k(table: str) -> exp.Select:
    """The rows of a table of supports whose support is under $k."""
    return (
        select("*")
        .from_(exp.table_(table, quoted=True))
        .where(exp.LT(this=exp.column("support"), expression=exp.Placeholder(this="k")))
    )


def expanded_supports(size: int, source: str = "expanded") -> exp.Select:
    """Support under $k of every `size`-itemset of the expanded transactions in `source` with
    no node together with its own ancestor."""
    return itemset_supports(source, size, pair_condition=not_descendant)


def split_violations(m: int) -> exp.Select:
    """What every itemset of 1..m nodes of `split_expanded` (no node with its own ancestor)
    holding a child of a candidate, with support under $k, needs to lie in the cut: the
    candidates it needs split (`split_1..`, the children's `split_of`) and kept whole
    (`kept_1..`, its `whole` nodes), NULL where a node adds none; distinct rows.

    Why only those: an itemset of cut nodes alone names no split (km_specialize.choose ignores
    it), and counted over the touched transactions only, its support is not even its own.
    Itemsets of two or more nodes are counted over the `open` rows only: a child under k is
    reported alone and forbids its parent's split, and an itemset holding any child of that
    parent would only forbid splits that need that parent's split too. Why the needs and not the
    itemsets: on a 16,470-item vocabulary (retail-like, k=10, m=2) the pass found 1.48 M pairs
    of children under k, 1.4 GB held in Python, that come down to the pairs of their parents.
    """
    parts = []
    for size in range(1, m + 1):
        inner = itemset_supports("split_expanded", size, pair_condition=not_descendant)
        aliases = [f"i{j}" for j in range(1, size + 1)]
        keep = exp.or_(*[col(a, "is_child") for a in aliases])
        if size > 1:
            keep = exp.and_(keep, *[col(a, "open") for a in aliases])
        q = select(
            *[_role(j, size, "split_of", "split") for j in range(1, m + 1)],
            *[_role(j, size, "whole", "kept") for j in range(1, m + 1)],
        ).from_(inner.where(keep, copy=False).subquery(f"s{size}", copy=False))
        for j in range(1, size + 1):
            q = q.join(
                exp.table_("split_node", quoted=True).as_(f"r{j}", quoted=True),
                on=exp.EQ(this=col(f"r{j}", "node"), expression=col(f"s{size}", f"item_{j}")),
            )
        parts.append(q)
    out: exp.Query = parts[0]
    for q in parts[1:]:
        out = exp.union(out, q, distinct=False)
    return select("*").from_(out.subquery("needs", copy=False)).distinct()


def _role(j: int, size: int, column: str, name: str) -> exp.Expr:
    """Node j's split candidate (`split_of`) or, if it is kept whole, the node (`whole`);
    NULL past the itemset's size."""
    if j > size:
        value: exp.Expr = exp.cast(exp.null(), "INTEGER")
    elif column == "split_of":
        value = col(f"r{j}", "split_of")
    else:
        value = exp.If(this=col(f"r{j}", "whole"), true=col(f"r{j}", "node"))
    return value.as_(f"{name}_{j}", quoted=True)


def _sorted_ranks(ranks: list[exp.Expr]) -> list[exp.Expr]:
    """The ranks in increasing order, as separate columns: for one or two ranks plain integers
    (LEAST, GREATEST), which sort in half the time of lists (3.9M pairs: 2.7 s CPU against
    4.3 s); for more, the elements of the sorted list."""
    if len(ranks) == 1:
        return ranks
    if len(ranks) == 2:
        return [exp.func("least", *ranks), exp.func("greatest", *ranks)]
    ordered = exp.func("list_sort", exp.Array(expressions=ranks))
    # sqlglot writes index j as DuckDB's 1-based j + 1
    return [
        exp.Bracket(this=ordered, expressions=[exp.Literal.number(j)]) for j in range(len(ranks))
    ]


def in_walk_order(parts: dict[int, exp.Select]) -> exp.Select:
    """Itemsets of several sizes (size -> query of item_1.., support) in one table, numbered in
    the paper's count-tree order: nodes by `node_rank`, itemsets compared as sorted rank lists,
    so a prefix comes before its extensions. The sorted ranks are columns `walk_1..` (NULL past
    the itemset's size, NULLs first: a prefix first), which sort as the lists would."""
    width = max(parts)
    keyed = []
    for size, inner in sorted(parts.items()):
        ranks = _sorted_ranks([col(f"r{j}", "rank") for j in range(1, size + 1)])
        q = select(
            *[
                (col("s", f"item_{j}") if j <= size else exp.cast(exp.null(), "INTEGER")).as_(
                    f"item_{j}", quoted=True
                )
                for j in range(1, width + 1)
            ],
            col("s", "support"),
            *[
                (ranks[j - 1] if j <= size else exp.cast(exp.null(), "BIGINT")).as_(
                    f"walk_{j}", quoted=True
                )
                for j in range(1, width + 1)
            ],
        ).from_(inner.subquery("s", copy=False))
        for j in range(1, size + 1):
            q = q.join(
                exp.table_("node_rank", quoted=True).as_(f"r{j}", quoted=True),
                on=exp.EQ(this=col(f"r{j}", "id"), expression=col("s", f"item_{j}")),
            )
        keyed.append(q)
    union: exp.Query = keyed[0]
    for q in keyed[1:]:
        union = exp.union(union, q, distinct=False)
    pos = exp.Window(
        this=exp.func("row_number"),
        order=exp.Order(
            expressions=[
                exp.Ordered(this=exp.column(f"walk_{j}", quoted=True), nulls_first=True)
                for j in range(1, width + 1)
            ]
        ),
    )
    return (
        select(
            pos.as_("pos", quoted=True),
            *[exp.column(f"item_{j}", quoted=True) for j in range(1, width + 1)],
            exp.column("support", quoted=True),
        )
        .from_(union.subquery("keyed", copy=False))
        .order_by(exp.column("pos", quoted=True))
    )


def walk_batch(table: str, width: int) -> exp.Select:
    """The violations at positions $lo..$hi of `table` with their image under the current cut
    (`cover(node, cover)` lists the nodes generalized away) and whether the image moved."""
    covers = [col(f"c{j}", "cover") for j in range(1, width + 1)]
    q = select(
        col("v", "pos"),
        _node_list(_items("v", width)).as_("itemset", quoted=True),
        _node_list(
            [exp.func("coalesce", c, i) for c, i in zip(covers, _items("v", width), strict=True)]
        ).as_("image", quoted=True),
        exp.or_(*[exp.Not(this=exp.Is(this=c, expression=exp.null())) for c in covers]).as_(
            "moved", quoted=True
        ),
    ).from_(exp.table_(table, quoted=True).as_("v", quoted=True))
    for j in range(1, width + 1):
        q = q.join(
            exp.table_("cover", quoted=True).as_(f"c{j}", quoted=True),
            on=exp.EQ(this=col(f"c{j}", "node"), expression=col("v", f"item_{j}")),
            join_type="left",
        )
    return q.where(
        exp.Between(
            this=col("v", "pos"),
            low=exp.Placeholder(this="lo"),
            high=exp.Placeholder(this="hi"),
        )
    )


def _in_part(alias: str, part: str) -> exp.Expr:
    """The row's transaction is in the sample (tid % $share = 0) or in the rest."""
    mod = exp.Mod(this=col(alias, "tid"), expression=exp.Placeholder(this="share"))
    zero = exp.Literal.number(0)
    return (
        exp.EQ(this=mod, expression=zero)
        if part == "sample"
        else exp.NEQ(this=mod, expression=zero)
    )


def _pair_key(tid: exp.Expr, node: exp.Expr) -> exp.Expr:
    """A (transaction, node) pair as one BIGINT, tid * $span + node: one hash join key."""
    return exp.Add(this=exp.Mul(this=tid, expression=exp.Placeholder(this="span")), expression=node)


def candidate_supports(
    sizes: list[int], *, part: str | None = None, by_transaction: frozenset[int] = frozenset()
) -> exp.Expr:
    """Support in `expanded` of every itemset of table `candidates(size, item_1, ...)`, or with
    `part` in the "sample" of the transactions (tid % $share = 0) or in the "rest" only: the
    support is the sum of the two.

    The itemsets of a size in `by_transaction` are counted by joining the transactions of their
    nodes (`_by_transaction`), the others from their rarest node (`_by_rarest_node`): the same
    counts, at costs that differ by 5x either way (km_cut.Supports chooses). Itemsets held by no
    transaction give no row (support 0).
    """
    parts = [
        (_by_transaction if size in by_transaction else _by_rarest_node)(size, part)
        for size in sizes
    ]
    out: exp.Expr = parts[0]
    for q in parts[1:]:
        out = exp.union(out, q, distinct=False)
    return out


def _by_rarest_node(size: int, part: str | None) -> exp.Select:
    """The `size`-itemsets' supports from each one's transactions: items come rarest first, so
    each join starts from the shortest list of transactions; the later items are found by the
    packed key of their (transaction, node) pair ($span: more than any node id), in the sample
    among `sample_keys`, a share of the rows to scan (`km_cut.sample_share`) and no key to
    compute. Costs the rarest node's support per itemset."""
    q = select(
        _node_list(_items("c", size)).as_("itemset", quoted=True),
        exp.Count(this=exp.Star()).as_("support", quoted=True),
    ).from_(exp.table_("candidates", quoted=True).as_("c", quoted=True))
    for j in range(1, size + 1):
        e = f"e{j}"
        on: exp.Expr = exp.EQ(this=col(e, "node"), expression=col("c", f"item_{j}"))
        key = _pair_key(col("e1", "tid"), col("c", f"item_{j}"))
        table = "expanded"
        if j > 1 and part == "sample":
            on, table = exp.EQ(this=col(e, "key"), expression=key), "sample_keys"
        elif j > 1:
            on = exp.EQ(this=_pair_key(col(e, "tid"), col(e, "node")), expression=key)
        if part and table == "expanded":  # on every scan, to drop the other rows early
            on = exp.and_(on, _in_part(e, part))
        q = q.join(exp.table_(table, quoted=True).as_(e, quoted=True), on=on)
    return q.where(exp.EQ(this=col("c", "size"), expression=exp.Literal.number(size))).group_by(
        *_items("c", size)
    )


def _by_transaction(size: int, part: str | None) -> exp.Select:
    """The `size`-itemsets' supports from the transactions' combinations of candidate nodes:
    position j's rows of `expanded` are those of the nodes some itemset has at position j, they
    are joined on the transaction and the combinations that are itemsets are counted. Costs the
    combinations, about the product of the positions' supports over |D|^(size-1): cheaper than
    `_by_rarest_node` when the itemsets are most of the combinations of few nodes (the walk's
    late batches: 15,000 pairs of 174 nodes)."""
    sized = exp.EQ(this=col("c", "size"), expression=exp.Literal.number(size))
    q = select(
        _node_list(_items("c", size)).as_("itemset", quoted=True),
        exp.Count(this=exp.Star()).as_("support", quoted=True),
    )
    for j in range(1, size + 1):
        e = f"e{j}"
        nodes = (
            select(col("c", f"item_{j}"))
            .from_(exp.table_("candidates", quoted=True).as_("c", quoted=True))
            .where(sized)
        )
        held: exp.Expr = exp.In(this=col(e, "node"), query=nodes.subquery())
        if part:
            held = exp.and_(held, _in_part(e, part))
        rows = (
            select(col(e, "tid"), col(e, "node"))
            .from_(exp.table_("expanded", quoted=True).as_(e, quoted=True))
            .where(held)
            .subquery(exp.to_identifier(e, quoted=True), copy=False)
        )
        if j == 1:
            q = q.from_(rows)
        else:
            q = q.join(rows, on=exp.EQ(this=col(e, "tid"), expression=col("e1", "tid")))
    on = exp.and_(
        sized,
        *[
            exp.EQ(this=col("c", f"item_{j}"), expression=col(f"e{j}", "node"))
            for j in range(1, size + 1)
        ],
    )
    return q.join(exp.table_("candidates", quoted=True).as_("c", quoted=True), on=on).group_by(
        *_items("c", size)
    )
