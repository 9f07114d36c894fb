"""Partition's last rounds in Python, once the frontier is small.

Why: the recursion ends in a long tail of rounds in which a few partitions refine one node
each (BMS-WebView-1 with a fan-out-5 hierarchy, k=5: 50 of 62 rounds hold 22 transactions). A
round of `sql/partition.sql` is eight statements whatever their size, about 20 ms, while the
same round over a few hundred bucket rows in Python takes well under 1 ms. So when the
buckets left fit in `TAIL_ROWS`, the driver reads them (with the blocked nodes, cuts, items
and expansion steps they need) and finishes here; the partitions, moves, cuts and blocked
nodes made are appended to the same tables the SQL rounds fill, so everything after the
recursion (the release, LGR) reads one result whichever way it was made.

Every rule below mirrors the statement of the same name in `sql/partition.sql`, tie-breaks
included; tests run both ways on random data and require the same release.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from ..engine.contract import Workspace
from ..engine.log import Rows
from ..progress import Progress

TAIL_ROWS = 4_000  # buckets left when the rounds move to Python (0: never)


class Bucket(NamedTuple):
    """One row of partition_bucket: the children `tid` holds under cut node `node` of `pid`."""

    tid: int
    pid: int
    node: int
    mask: int | None
    wide: tuple[int, ...] | None
    gain: int


class Step(NamedTuple):
    """One row of partition_expand_step: from `node` towards an item, one step down."""

    child: int
    rank: int
    bit: int | None
    gain: int


@dataclass
class Candidate:
    """One (partition, node) that may be expanded, with what its split would do."""

    node: int
    gain: int
    sizes: dict[tuple, int]  # bucket key (mask, wide) -> transactions
    realized: int = 0
    need: int = 0
    rolled_back: bool = False


@dataclass
class Context:
    """What the rounds read besides the buckets: loaded once when the tail starts."""

    k: int
    realized: bool
    first_only: bool
    keep_leftover: bool
    blocked: set[tuple[int, int]]
    cuts: dict[int, list[int]]
    items: dict[int, list[int]]
    steps: dict[tuple[int, int], Step]
    child_at: dict[tuple[int, int], int] = field(default_factory=dict)
    under: dict[tuple[int, int], list[int]] = field(default_factory=dict)  # see `opened`


@dataclass
class Made:
    """What the tail adds to partition_tree, partition_moves, partition_cut, partition_blocked."""

    tree: list[tuple] = field(default_factory=list)
    moves: list[tuple[int, int, int]] = field(default_factory=list)
    cuts: list[tuple[int, int]] = field(default_factory=list)
    blocked: list[tuple[int, int]] = field(default_factory=list)


def run_tail(
    store: Workspace, ctx_options: dict, progress: Progress, *, level: int, next_pid: int
) -> tuple[int, int]:
    """Finish the rounds from the buckets now in partition_bucket; return (levels, made)."""
    rows = [
        Bucket(tid, pid, expanded, mask, _wide(wide), int(gain))
        for tid, pid, expanded, mask, wide, gain in _read(
            store, "buckets", "tid", "pid", "expanded", "mask", "wide", "tx_gain"
        )
    ]
    ctx = load_context(store, **ctx_options)
    made = Made()
    first = next_pid
    while rows:
        level += 1
        progress("partition level", level, None)
        rows, next_pid = round_(rows, ctx, level, next_pid, made)
    write_back(store, made)
    return level, next_pid - first


def load_context(
    store: Workspace, *, k: int, realized: bool, first_only: bool, keep_leftover: bool
) -> Context:
    """The blocked nodes, cuts, items and steps of the transactions still in the frontier."""
    cuts: dict[int, list[int]] = defaultdict(list)
    for pid, node in _read(store, "cuts", "pid", "node"):
        cuts[pid].append(node)
    items: dict[int, list[int]] = defaultdict(list)
    for tid, item in _read(store, "items", "tid", "item"):
        items[tid].append(item)
    steps = {
        (item, node): Step(child, rank, bit, int(gain))
        for item, node, child, rank, bit, gain in _read(
            store, "steps", "item", "node", "child", "rank", "bit", "gain_units"
        )
    }
    ctx = Context(
        k,
        realized,
        first_only,
        keep_leftover,
        {(p, n) for p, n in _read(store, "blocked", "pid", "node")},
        dict(cuts),
        dict(items),
        steps,
    )
    ctx.child_at = {(node, s.rank): s.child for (_, node), s in steps.items()}
    return ctx


def _read(store: Workspace, what: str, *columns: str) -> list[tuple]:
    """The rows of statement `partition_tail_{what}`, as tuples of these columns."""
    return store.run(f"partition_tail_{what}").tuples(*columns)


def _wide(value: Iterable[int] | None) -> tuple[int, ...] | None:
    return tuple(value) if value is not None else None


def round_(
    rows: list[Bucket], ctx: Context, level: int, next_pid: int, made: Made
) -> tuple[list[Bucket], int]:
    """One round over the frontier; returns the next frontier's buckets and the next pid."""
    by_node: dict[tuple[int, int], list[Bucket]] = defaultdict(list)
    for b in rows:
        by_node[(b.pid, b.node)].append(b)
    candidates = gains(by_node, ctx)
    chosen = {pid: choose(cands, ctx) for pid, cands in candidates.items()}
    new_pid = balance(chosen, ctx.k, next_pid)
    fate = split(chosen, by_node, new_pid, ctx.k)
    frontier = grow(chosen, by_node, new_pid, fate, ctx, level, made)
    if ctx.keep_leftover:
        block(candidates, chosen, by_node, fate, ctx, made)
    return next_buckets(rows, chosen, fate, candidates, ctx), next_pid + frontier


def gains(by_node: dict[tuple[int, int], list[Bucket]], ctx: Context) -> dict[int, list[Candidate]]:
    """partition_gain and partition_outcome: every unblocked node of every partition, ranked
    (realized gain if asked, then gain, then id), with the verdict on its split."""
    k = ctx.k
    out: dict[int, list[Candidate]] = defaultdict(list)
    for (pid, node), bucket_rows in by_node.items():
        if (pid, node) in ctx.blocked:
            continue
        sizes: dict[tuple, int] = defaultdict(int)
        bucket_gain: dict[tuple, int] = defaultdict(int)
        for b in bucket_rows:
            sizes[(b.mask, b.wide)] += 1
            bucket_gain[(b.mask, b.wide)] += b.gain
        c = Candidate(node, sum(b.gain for b in bucket_rows), dict(sizes))
        c.realized = sum(g for key, g in bucket_gain.items() if sizes[key] >= k)
        small = sum(n for n in sizes.values() if n < k)
        spares = sum(n - k for n in sizes.values() if n >= k)
        c.need = k - small if 1 <= small <= k - 1 else 0
        c.rolled_back = not any(n >= k for n in sizes.values()) or (c.need > spares)
        out[pid].append(c)
    for cands in out.values():
        cands.sort(key=lambda c: (-c.realized if ctx.realized else 0, -c.gain, c.node))
    return out


def choose(ranked: list[Candidate], ctx: Context) -> Candidate:
    """The node a partition expands: its best-ranked that is not rolled back, else its first;
    always its first with first_only."""
    if ctx.first_only:
        return ranked[0]
    return next((c for c in ranked if not c.rolled_back), ranked[0])


def _order(pid: int, key: tuple) -> tuple:
    """partition_balance's order of new buckets: pid, mask, wide; NULLs last as in DuckDB."""
    mask, wide = key
    return (pid, mask is None, mask or 0, wide is None, wide or ())


def balance(chosen: dict[int, Candidate], k: int, next_pid: int) -> dict[tuple, int]:
    """partition_balance: ids for the buckets of k or more of splits that stand."""
    keys = [
        (pid, key)
        for pid, c in chosen.items()
        if not c.rolled_back
        for key, n in c.sizes.items()
        if n >= k
    ]
    keys.sort(key=lambda pk: _order(*pk))
    return {pk: next_pid + i for i, pk in enumerate(keys)}


def split(
    chosen: dict[int, Candidate],
    by_node: dict[tuple[int, int], list[Bucket]],
    new_pid: dict[tuple, int],
    k: int,
) -> dict[int, int | None]:
    """partition_split: the new partition of every transaction that moves; None for those that
    stay (small bucket, given to the leftover, or rolled back)."""
    fate: dict[int, int | None] = {}
    for pid, c in chosen.items():
        rows = by_node[(pid, c.node)]
        donors = _donors(rows, c, pid, new_pid, k) if c.need and not c.rolled_back else set()
        for b in rows:
            target = None if c.rolled_back else new_pid.get((pid, (b.mask, b.wide)))
            fate[b.tid] = None if b.tid in donors else target
    return fate


def _donors(
    rows: list[Bucket], c: Candidate, pid: int, new_pid: dict[tuple, int], k: int
) -> set[int]:
    """The `need` transactions of least gain (ties: smallest tid) that large buckets can spare
    beyond their k of largest gain."""
    spare: list[tuple[int, int]] = []
    per_bucket: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
    for b in rows:
        if (pid, (b.mask, b.wide)) in new_pid:
            per_bucket[(b.mask, b.wide)].append((b.gain, b.tid))
    for key, members in per_bucket.items():
        spare.extend(sorted(members)[: c.sizes[key] - k])
    return {tid for _, tid in sorted(spare)[: c.need]}


def grow(
    chosen: dict[int, Candidate],
    by_node: dict[tuple[int, int], list[Bucket]],
    new_pid: dict[tuple, int],
    fate: dict[int, int | None],
    ctx: Context,
    level: int,
    made: Made,
) -> int:
    """partition_grow_tree, add_cuts and move: record the partitions made."""
    for (pid, key), child_pid in sorted(new_pid.items(), key=lambda kv: kv[1]):
        node = chosen[pid].node
        mask, wide = key
        made.tree.append((level, child_pid, pid, node, mask, list(wide) if wide else None))
        opened = [ctx.child_at[(node, r)] for r in range(64) if mask is not None and mask >> r & 1]
        cut = [n for n in ctx.cuts[pid] if n != node] + opened + list(wide or ())
        ctx.cuts[child_pid] = cut
        made.cuts.extend((child_pid, n) for n in cut)
    for pid, c in chosen.items():
        made.moves.extend(
            (level, b.tid, dest)
            for b in by_node[(pid, c.node)]
            if (dest := fate[b.tid]) is not None
        )
    return len(new_pid)


def block(
    candidates: dict[int, list[Candidate]],
    chosen: dict[int, Candidate],
    by_node: dict[tuple[int, int], list[Bucket]],
    fate: dict[int, int | None],
    ctx: Context,
    made: Made,
) -> None:
    """partition_block: rolled-back nodes ranked above the chosen one (all of them when it is
    rolled back too), and the chosen node where some transactions stay."""
    for pid, ranked in candidates.items():
        c = chosen[pid]
        rank = ranked.index(c)
        failed = {
            x.node for i, x in enumerate(ranked) if x.rolled_back and (i < rank or c.rolled_back)
        }
        if any(fate[b.tid] is None for b in by_node[(pid, c.node)]):
            failed.add(c.node)
        for node in sorted(failed):
            if (pid, node) not in ctx.blocked:
                ctx.blocked.add((pid, node))
                made.blocked.append((pid, node))


def next_buckets(
    rows: list[Bucket],
    chosen: dict[int, Candidate],
    fate: dict[int, int | None],
    candidates: dict[int, list[Candidate]],
    ctx: Context,
) -> list[Bucket]:
    """partition_next_bucket and partition_open_bucket: moved transactions keep their other
    nodes' buckets and open the children they now hold; those that stay keep theirs while
    their partition has a node left to try (with keep_leftover)."""
    open_left = {
        pid
        for pid, ranked in candidates.items()
        if ctx.keep_leftover and any((pid, c.node) not in ctx.blocked for c in ranked)
    }
    out: list[Bucket] = []
    for b in rows:
        if b.pid not in chosen:
            continue
        target = fate.get(b.tid)
        if target is None:
            if b.pid in open_left:
                out.append(b)
        elif b.node != chosen[b.pid].node:
            out.append(Bucket(b.tid, target, b.node, b.mask, b.wide, b.gain))
        else:
            out.extend(opened(b.tid, target, b.node, ctx))
    return out


def opened(tid: int, pid: int, expanded: int, ctx: Context) -> list[Bucket]:
    """The buckets of the children `tid` holds under `expanded`: the grandchildren covering
    its items below each (none below a leaf).

    Each child's items are kept (`ctx.under`), so opening it later reads only them, not every
    item of the transaction again (long transactions stay longest in the tail)."""
    acc: dict[int, list] = {}
    kids: dict[int, list[int]] = defaultdict(list)
    for item in ctx.under.get((tid, expanded)) or ctx.items[tid]:
        step = ctx.steps.get((item, expanded))
        if step is None:
            continue
        below = ctx.steps.get((item, step.child))
        if below is None:
            continue
        kids[step.child].append(item)
        mask, wide, gain = acc.setdefault(step.child, [None, set(), 0])
        if below.bit is not None:
            mask = (mask or 0) | below.bit
        else:
            wide.add(below.child)
        acc[step.child] = [mask, wide, gain + below.gain]
    ctx.under.update(((tid, child), items) for child, items in kids.items())
    return [
        Bucket(tid, pid, child, mask, tuple(sorted(wide)) if wide else None, gain)
        for child, (mask, wide, gain) in acc.items()
    ]


def write_back(store: Workspace, made: Made) -> None:
    """Append what the tail made to the tables the SQL rounds fill."""
    tables = {
        "tree": _columns(
            made.tree,
            ("level", "INTEGER"),
            ("pid", "BIGINT"),
            ("parent", "BIGINT"),
            ("expanded", "INTEGER"),
            ("mask", "UBIGINT"),
            ("wide", "INTEGER[]"),
        ),
        "moves": _columns(made.moves, ("level", "INTEGER"), ("tid", "INTEGER"), ("pid", "INTEGER")),
        "cuts": _columns(made.cuts, ("pid", "BIGINT"), ("node", "INTEGER")),
        "blocked": _columns(made.blocked, ("pid", "BIGINT"), ("node", "INTEGER")),
    }
    for what, table in tables.items():
        name = f"partition_tail_new_{what}"
        store.put_rows(name, table, temp=True)
        store.run(f"partition_tail_append_{what}")
        store.drop_tables(name, temp=True, step="partition_tail_drop")


def _columns(rows: list[tuple], *cols: tuple[str, str]) -> Rows:
    """Python rows as typed columns (a DuckDB type each) for `Workspace.put_rows`."""
    return Rows({name: (kind, [r[i] for r in rows]) for i, (name, kind) in enumerate(cols)})
