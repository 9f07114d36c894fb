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

from ..engine.builders import render
from ..progress import Progress, quiet
from ..store.database import Store
from . import builders as queries


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
    sizes = [
        row[0]
        for row in store.query(
            "SELECT count(*) FROM rel_node GROUP BY attr ORDER BY attr", step="taxonomy_sizes"
        )
    ]
    r, fields = len(sizes), queries.layout(sizes)
    ordered = store.scalar("SELECT current_setting('preserve_insertion_order')", step="setting")
    store.execute("SET preserve_insertion_order = false", step="setting")  # every order is explicit
    try:
        return _mine(store, k, r, fields, beam, progress)
    finally:
        store.execute(f"SET preserve_insertion_order = {bool(ordered)}", step="setting")


def _mine(
    store: Store,
    k: int,
    r: int,
    fields: list[queries.Field],
    beam: int | None,
    progress: Progress,
) -> MiningStats:
    store.execute(
        f"CREATE OR REPLACE TABLE rel_combo_path AS {render(queries.combo_paths(r))}",
        step="rel_combo_path",
    )
    store.run("rel_make_closed_record")
    store.run("rel_mine_start")
    store.execute(
        f"CREATE OR REPLACE TABLE frontier_member AS {render(queries.start_member(fields))}",
        step="start_member",
    )
    level, processed, offset = 0, 0, 1
    stats_rows = []
    while True:
        size = store.scalar("SELECT count(*) FROM frontier", step="frontier_size")
        if not size:
            break
        progress("mine", level, None)
        processed += size
        store.execute(
            f"CREATE OR REPLACE TABLE narrowing AS {render(queries.narrowings(fields))}",
            {"k": k},
            step="narrowing",
        )
        store.run("rel_closed_from_frontier", {"level": level})
        store.run("rel_next_frontier", {"offset": offset, "k": k, "beam": beam})
        store.execute(
            f"CREATE OR REPLACE TABLE next_member AS {render(queries.next_member(fields))}",
            step="next_member",
        )
        members = store.scalar("SELECT count(*) FROM frontier_member", step="member_size")
        stats_rows.append((level, size, members))
        offset += store.scalar("SELECT count(*) FROM next_frontier", step="next_size")
        store.execute("DROP TABLE frontier", step="drop_frontier")
        store.execute("DROP TABLE frontier_member", step="drop_frontier_member")
        store.execute(
            "CREATE TABLE frontier AS SELECT rec, node, depth, support, cost FROM next_frontier",
            step="advance_frontier",
        )
        store.execute("ALTER TABLE next_member RENAME TO frontier_member", step="advance_member")
        level += 1
    for table in ("frontier", "frontier_member", "next_frontier", "narrowing", "rel_combo_path"):
        store.execute(f"DROP TABLE IF EXISTS {table}", step="drop_mining_tables")
    store.run("rel_closed_cost")
    store.execute(
        "CREATE OR REPLACE TABLE mining_level AS SELECT unnest($l) AS level, "
        "unnest($r) AS records, unnest($m) AS member_rows",
        {
            "l": [r[0] for r in stats_rows],
            "r": [r[1] for r in stats_rows],
            "m": [r[2] for r in stats_rows],
        },
        step="mining_level",
    )
    closed = store.scalar("SELECT count(*) FROM closed_record", step="closed_size")
    return MiningStats(level, processed, int(closed), sum(r[2] for r in stats_rows))
