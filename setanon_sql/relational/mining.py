"""Mining the closed frequent generalized records (Kenig & Tassa, Algorithms 6-7).

Start at the all-root record and narrow one attribute to a child at a time, level by level (a
narrowing adds one to the summed depth, so each record is met on one level only and is
processed once). Narrowings with support < k are pruned. A record is closed when no immediate
narrowing keeps its whole support; when one does, only the first such narrowing (by attribute,
then child id) is processed (Lemma 3), which still reaches every closed record below.

SQL counts: one statement computes the supports of the narrowings of a whole level, others
pick the next level and its supporting rows. Python only walks the levels.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import ddl
from ..engine import table_builders as queries
from ..engine.builders import render
from ..progress import Progress, quiet
from ..store.database import Store


@dataclass(frozen=True)
class MiningStats:
    levels: int
    processed: int
    closed: int
    member_rows: int


def mine_closed(
    store: Store, k: int, *, beam: int | None = None, progress: Progress = quiet
) -> MiningStats:
    """Fill `closed_record` and `closed_cost` (and the per-level figures `mining_level`) in the
    current run schema.

    With a `beam`, each level passes on only the `beam` records of least greedy ratio (cost
    over min(support, 2k - 1)): the mining then scales with the number of attributes, and the
    cover still covers every row (the all-root record is always mined), but its O(ln k) bound
    holds only against the records kept.
    """
    sizes = [n for (n,) in store.run("rel_taxonomy_sizes").tuples("nodes")]
    r, fields = len(sizes), queries.layout(sizes)
    with store.unordered():  # every order the mining depends on is explicit
        return _mine(store, k, r, fields, beam, progress)


def _mine(
    store: Store,
    k: int,
    r: int,
    fields: list[queries.Field],
    beam: int | None,
    progress: Progress,
) -> MiningStats:
    paths = render(queries.combo_paths(r))
    store.execute(ddl.create_table_as("rel_combo_path", paths), step="rel_combo_path")
    store.run("rel_make_closed_record")
    store.run("rel_mine_start")
    members = render(queries.start_member(fields))
    store.execute(ddl.create_table_as("frontier_member", members), step="start_member")
    narrowing = ddl.create_table_as("narrowing", render(queries.narrowings(fields)))
    next_member = ddl.create_table_as("next_member", render(queries.next_member(fields)))
    level, processed, offset = 0, 0, 1
    levels: list[int] = []
    records: list[int] = []
    member_rows: list[int] = []
    while True:
        size = store.count("frontier")
        if not size:
            break
        progress("mine", level, None)
        processed += size
        store.execute(narrowing, {"k": k}, step="narrowing")
        store.run("rel_closed_from_frontier", {"level": level})
        store.run("rel_next_frontier", {"offset": offset, "k": k, "beam": beam})
        store.execute(next_member, step="next_member")
        levels.append(level)
        records.append(size)
        member_rows.append(store.count("frontier_member"))
        offset += store.count("next_frontier")
        store.run("rel_advance_frontier")
        level += 1
    mined = ("frontier", "frontier_member", "next_frontier", "narrowing", "rel_combo_path")
    store.drop_tables(*mined, step="drop_mining_tables")
    store.run("rel_closed_cost")
    store.run("rel_mining_level", {"l": levels, "r": records, "m": member_rows})
    closed = store.count("closed_record")
    return MiningStats(level, processed, closed, sum(member_rows))
