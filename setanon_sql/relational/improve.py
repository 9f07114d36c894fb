"""The improvement phase after the greedy cover: local moves and Mondrian-style splits.

k-ANON-CF's clusters hold k..2k-1 rows and cost what their closures cost. Three steps lower
that cost without breaking k, each a few statements for all classes per round:

- a move sends a row to the cheapest class whose closure already generalizes it, when that is
  cheaper than its own class, and at most size - k rows leave a class (or all of them, when
  each finds a cheaper class that is not itself dissolving): the row gets cheaper, the
  destination's closure stays, the source's can only shrink;
- an eviction keeps a class's rows under one child of its closure node on one attribute (at
  least k of them) and sends the others to the cheapest class that covers them, when
  the kept rows' saving outweighs what the others pay more (a destination may cost more
  than the row's class did); a destination that evicts too counts with its kept rows' closure,
  which must cover what it takes in, so two classes can trade rows, and the gain is exact;
- a split cuts a class of at least 2k rows in two along one attribute's leaf order (ties
  ordered by the other attributes; cut between two distinct combinations, both halves >= k,
  and ℓ-diverse when asked) at the cut of least summed cost, when that is below the class's:
  each half's closure lies under the class's.

So the loss never rises and every class keeps k (and ℓ). Rounds alternate until none
changes anything, or one gains little (moves grow classes past 2k, splits then cut them).
Python only counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from ..engine import ddl
from ..engine import table_builders as queries
from ..engine.builders import render
from ..progress import Progress, quiet
from ..store.database import Store
from .diversity import keep_sensitive


@dataclass(frozen=True)
class ImproveStats:
    rounds: int
    moves: int
    splits: int

    def __add__(self, other: ImproveStats) -> ImproveStats:
        return ImproveStats(
            self.rounds + other.rounds, self.moves + other.moves, self.splits + other.splits
        )


def improve(
    store: Store,
    clusters: list[list[int]],
    k: int,
    *,
    sensitive: str | None = None,
    l: float | None = None,  # noqa: E741
    max_rounds: int = 50,
    tolerance: float = 1e-3,
    progress: Progress = quiet,
) -> tuple[list[list[int]], ImproveStats]:
    """Improve a k-clustering (lists of rids) by moves and splits; the result is in `work`.

    With `l` (an ℓ-diverse clustering on `sensitive`) only splits run, into ℓ-diverse halves:
    a cut's halves are checked against the largest count of one value on either side.
    Rounds stop when one changes nothing, or lowers the summed cost by less than `tolerance`
    of it (the last rounds each move a handful of rows for a few millionths of LM).
    """
    rids = [r for rows in clusters for r in rows]
    ids = [i for i, rows in enumerate(clusters) for _ in rows]
    store.put_arrow(
        "work", pa.table({"rid": pa.array(rids, pa.int64()), "cluster": pa.array(ids, pa.int64())})
    )
    store.run("rel_improve_ancestor")
    store.run("rel_improve_leaf")
    store.run("rel_improve_node_rows")
    if l is None:
        store.run("rel_improve_no_value")
    else:
        keep_sensitive(store, sensitive)
        store.run("rel_improve_value")
    moves = splits = rounds = 0
    before = None
    with store.unordered():
        for rounds in range(1, max_rounds + 1):
            progress("improve", rounds, None)
            moved = _move_round(store, k) + _evict_round(store, k) if l is None else 0
            split = _split_round(store, k, l)
            moves, splits = moves + moved, splits + split
            if not moved and not split:
                break
            after = _total_cost(store)
            if before is not None and before - after < tolerance * before:
                break
            before = after
    table = store.run_arrow("rel_improved_clusters")
    return table["rows"].to_pylist(), ImproveStats(rounds, moves, splits)


def _total_cost(store: Store) -> float:
    """The summed cost of the classes of `work` (refreshes `improve_class`)."""
    store.run("rel_improve_classes")
    return float(store.run("rel_improve_total").one()["cost"])


def _swap(store: Store) -> None:
    store.run("rel_improve_swap")


def _match_attribute(store: Store) -> int:
    """The attribute on which classes are matched to rows first: the one whose class closures
    hold the fewest rows in all (`improve_node_rows`), so few (row, class) pairs are tested."""
    return int(store.run("rel_improve_match_attribute").one()["attr"])


def _cover(
    store: Store,
    skip: str | None = None,
    *,
    classes: str = "improve_class",
    only: str | None = None,
) -> None:
    """`improve_cover`: every combination's cheapest covering class and its two cheapest
    (`best`); with `skip`, other `classes` or `only` (the combinations that matter),
    `improve_cover_rest`: the cheapest of `classes` less those in `skip`."""
    r = int(store.run("rel_improve_width").one()["width"])
    rest = skip is not None or only is not None or classes != "improve_class"
    sql = render(
        queries.covering(
            r, _match_attribute(store), skip=skip, two=not rest, classes=classes, only=only
        )
    )
    name = "improve_cover_rest" if rest else "improve_cover"
    store.execute(ddl.create_table_as(name, sql), step=name)


def _refresh(store: Store) -> None:
    """The classes of `work` and their cover."""
    store.run("rel_improve_classes")
    _cover(store)


def _apply_moves(store: Store) -> int:
    moved = store.count("improve_move")
    if moved:
        store.run("rel_improve_apply_moves")
        _swap(store)
    return moved


def _move_round(store: Store, k: int) -> int:
    """One round of moves, then one of dissolving classes; the number of rows moved. Leaves
    `improve_class` and `improve_cover` current."""
    _refresh(store)
    store.run("rel_improve_moves", {"k": k})
    moved = _apply_moves(store)
    if moved:
        _refresh(store)
    store.run("rel_improve_dissolvable")
    if not store.count("improve_dissolvable"):
        return moved
    store.run("rel_improve_dissolvable_combos")
    _cover(store, skip="improve_dissolvable", only="improve_combos")
    store.run("rel_improve_dissolve")
    dissolved = _apply_moves(store)
    if dissolved:
        _refresh(store)
    return moved + dissolved


def _evict_round(store: Store, k: int, settle: int = 5) -> int:
    """One round of evictions (each class at most one), from the current `improve_class` and
    `improve_cover`; the number of rows moved.

    The shrinks chosen are judged again against where their rows can go once every chosen
    class has shrunk (`improve_dest`); those that no longer gain are given up and the rest
    judged again, at most `settle` times, until every one gains: then all apply, exactly.
    """
    store.run("rel_improve_branch")
    store.run("rel_improve_shrink", {"k": k})
    store.run("rel_improve_evict_gain")
    store.run("rel_improve_evict_choice")
    store.run("rel_improve_evict_combos")
    for _ in range(settle):
        if not store.count("improve_evict_choice"):
            return 0
        store.run("rel_improve_dest")
        _cover(store, classes="improve_dest", only="improve_combos")
        store.run("rel_improve_evict_judge")
        failing = store.run("rel_improve_evict_failing").one()["failing"]
        if not failing:
            store.run("rel_improve_evict")
            return _apply_moves(store)
        store.run("rel_improve_evict_drop")
    return 0


def _split_round(store: Store, k: int, l: float | None) -> int:  # noqa: E741
    """One round of splits; the number of classes split."""
    store.run("rel_improve_split_order", {"k": k})
    if not store.count("split_order"):
        return 0
    store.run("rel_improve_classes")
    store.run("rel_improve_split_choice", {"k": k, "l": l})
    split = store.count("split_choice")
    if split:
        store.run("rel_improve_apply_split")
        _swap(store)
    return split
