"""Relational k-anonymity (and ℓ-diversity) by greedy set cover over closed frequent
generalized records (Kenig & Tassa, "A practical approximation algorithm for optimal
k-anonymity", DMKD 2012): k-ANON-CF, Algorithms 2, 4, 6-8.

Example:
    >>> from setanon_sql import Store
    >>> store = Store()
    >>> tree = [("a", "*"), ("b", "*")]
    >>> result = anonymize_table(store, {"x": ["a", "a", "b"]}, qi=["x"], taxonomies={"x": tree}, k=2)
    >>> result.lm, result.report.ok
    (1.0, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import runs
from ..catalog import MAX_K, check_whole
from ..errors import ParamsError, VerificationError
from ..progress import Progress, quiet
from ..store.database import Store
from ..store.dataset import Dataset
from ..store.outputs import check_file
from ..store.publish import inputs_of
from .cover import RowSets, cover_to_clustering, gen_cover, store_cover
from .data import TableData, TableSource, declare, load_table, record_read, table_dataset
from .diversity import check_feasible, l_diversify
from .improve import ImproveStats
from .improve import improve as improve_clusters
from .mining import mine_closed
from .output import (
    TableOutput,
    TableReport,
    loss,
    make_release,
    store_clusters,
    verify_table,
    write_table_release,
)
from .taxonomy import CostMeasure, TaxonomySpec, measure, spec_files

__all__ = [
    "COVER_CAP",
    "MINE_BEAM",
    "TableResult",
    "anonymize_table",
    "export",
    "write_table_release",
]

MINE_BEAM = 5000
"""Records each mining level keeps by default: on Adult (8 QIs, k = 10) the release from
5,000 is as good as from the whole mining (the improvement phase makes up for the records not
kept) at a fifth of the time and half the memory; `mine_beam=None` mines them all."""

COVER_CAP = 1.1
"""A second greedy cover counts at most round(1.1 k) new rows in a support's ratio (the paper:
2k-1), so its sets hold nearer k rows. On Adult (8 QIs) its start ends cheaper at k = 10, 50 and
100 (LM 0.0821, 0.1560 and 0.2000 against the paper start's 0.0839, 0.1638 and 0.2078); with
all 14 QIs the paper's start ends cheaper (0.2031 against 0.2054) and is kept."""


@dataclass(frozen=True)
class TableResult:
    """A verified relational release: its run schema (holding `table_release`) and figures."""

    run: str
    data: TableData
    k: int
    l: float | None  # noqa: E741
    report: TableReport
    lm: float
    anon: float
    clusters: int
    seconds: float
    info: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "rows": self.data.rows,
            "qi": list(self.data.qi),
            "k": self.k,
            "l": self.l,
            "sensitive": self.data.sensitive,
            "lm": self.lm,
            "anon": self.anon,
            "clusters": self.clusters,
            "seconds": round(self.seconds, 3),
            "verified": self.report.as_dict(),
            "info": self.info,
        }


def anonymize_table(
    store: Store,
    source: TableSource | Dataset,
    *,
    qi: Sequence[str],
    taxonomies: Mapping[str, TaxonomySpec],
    k: int,
    sensitive: str | None = None,
    l: float | None = None,  # noqa: E741
    w: float = 0.15,
    columns: Sequence[str] | None = None,
    table: str | None = None,
    drop_missing: str | None = None,
    encoding: str | None = None,
    cost_measure: str | CostMeasure = "lm",
    run_name: str | None = None,
    replace: bool = False,
    improve: bool = True,
    mine_beam: int | None = MINE_BEAM,
    cover_cap: float | None = COVER_CAP,
    progress: Progress = quiet,
    output: str | Path | None = None,
    read: Sequence[str | Path | None] = (),
    keep: Sequence[str] = (),
    drop: Sequence[str] = (),
) -> TableResult:
    """Load a table, k-anonymize its QI columns by k-ANON-CF (ℓ-diversify them on `sensitive`
    when `l` is given), verify the release and measure its loss. With `improve` (the default)
    the cover's clusters are improved by moves and splits (`improve.py`); with ℓ, the clusters
    ℓ-diversity merged are improved again by splits into ℓ-diverse halves.
    `mine_beam` caps the records each mining level passes on (see `mine_closed`), so the run
    scales with the number of QIs; None mines every closed frequent record (the cover's
    O(ln k) bound then holds against all of them).
    `cover_cap` adds a second start: the greedy cover whose ratios count at most
    round(cover_cap * k) new rows (see `gen_cover`). Both starts are improved (and ℓ-merged),
    and the capped one is released only when it ends no dearer, so the release is never
    dearer than the paper's start gives and the O(ln k) bound holds; None runs the paper's
    cover alone. The kept start's tables are `cover`, `cluster_k` (and `l_merge`); `work` and
    the `improve_*` tables are the last improvement's scratch.

    Every column of the table is declared: a QI, `sensitive`, `keep` (released as given) or
    `drop` (not released); an undeclared one, or a kept one a QI determines or that determines
    a QI, is refused (`load_table`). The release's rows are in the order of their released
    values, never the input's.

    `output` (CSV or Parquet) is checked before the work against `read`, the database and its
    registry's sources, and written as the run takes its place (`runs.making`).

    `source` is read into a dataset of the database (or found there, loaded before), or is a
    table dataset of it (`store.registry`), which needs no file.

    A release failing the verifier raises VerificationError; it is never returned.
    """
    check_whole("k", k, 1, MAX_K)
    if l is not None and (not math.isfinite(l) or l < 1 or not sensitive):
        raise ParamsError("l-diversity needs a finite l >= 1 and a sensitive column")
    if mine_beam is not None and (isinstance(mine_beam, bool) or mine_beam < 1):
        raise ParamsError(f"mine_beam must be a whole number >= 1, got {mine_beam!r}")
    if cover_cap is not None and not 1 <= cover_cap <= 2:
        raise ParamsError(f"cover_cap must lie in [1, 2], got {cover_cap}")
    if not 0 <= w <= 1:
        raise ParamsError(f"w must lie in [0, 1], got {w}")
    started = time.perf_counter()
    fn = measure(cost_measure)
    name = runs.name_for(store, run_name, runs.default_base("table", k, l=l))
    record = {"k": k, "l": l, "w": w, "qi": list(qi), "sensitive": sensitive}
    record |= {"keep": list(keep), "drop": list(drop)}
    record |= {"improve": improve, "mine_beam": mine_beam, "cover_cap": cover_cap}
    out = None
    if output is not None:
        out = TableOutput(check_file(output, inputs_of(store, read), replace=replace)[0])
    dataset = table_dataset(store, source, columns=columns, table=table, encoding=encoding)
    with runs.making(
        store, name, kind="table", algorithm="k-anon-cf", params=record, replace=replace,
        outputs=out, dataset=dataset,
    ) as run:  # fmt: skip
        record_read(store, run, spec_files(taxonomies.values()))
        data = load_table(
            store,
            dataset,
            qi=qi,
            taxonomies=taxonomies,
            sensitive=sensitive,
            columns=columns,
            table=table,
            drop_missing=drop_missing,
            encoding=encoding,
            measure=fn,
        )
        data = declare(store, data, keep=keep, drop=drop)
        runs.check_k(k, data.rows, of="table", unit="rows")
        if out is not None:
            out.columns = list(data.released)
        if l is not None:
            check_feasible(store, l, sensitive)
        clusters, info = cluster_rows(
            store, data, k, l=l, w=w, fn=fn, improve=improve, mine_beam=mine_beam,
            cover_cap=cover_cap, progress=progress,
        )  # fmt: skip
        make_release(store, data.released, data.qi)
        report = verify_table(store, data.qi, k, sensitive, l, kept=data.kept)
        if not report.ok:
            raise VerificationError(
                f"k-ANON-CF produced a release that fails verification: {report.as_dict()}"
            )
        figures = loss(store, data.qi)
        run.results = {"verified": report.as_dict(), "lm": float(figures["lm"])}
    return TableResult(
        run.schema,
        data,
        k,
        l,
        report,
        float(figures["lm"]),
        float(figures["anon"]),
        len(clusters),
        time.perf_counter() - started,
        info,
    )


def cluster_rows(
    store: Store,
    data: TableData,
    k: int,
    *,
    l: float | None,  # noqa: E741
    w: float,
    fn: CostMeasure,
    improve: bool,
    mine_beam: int | None,
    cover_cap: float | None,
    progress: Progress,
) -> tuple[list[list[int]], dict[str, Any]]:
    """Cluster the loaded table's rows into classes of at least k (k-ANON-CF: mining, the
    greedy covers, improvement, ℓ-merging) and keep them as `cluster(rid, cluster)`: what a
    table run releases, and what a run with a set-valued column anonymizes the sets inside."""
    mined = mine_closed(store, k, beam=mine_beam, progress=progress)
    starts = _starts(store, k, cover_cap, progress)
    ends = [_finish(store, data, s, k, l, w, fn, improve, progress) for s in starts]
    end = min(ends, key=lambda e: (e.cost, e.start.name != "paper"))
    start, clusters, merges, improved = end.start, end.clusters, end.merges, end.improved
    store_cover(store, start.cover)
    store_clusters(store, start.clusters, "cluster_k")
    if end.l_merge is not None:
        store.put_arrow("l_merge", end.l_merge)
    store_clusters(store, clusters, "cluster")
    info = {
        "closed_records": mined.closed,
        "processed_records": mined.processed,
        "levels": mined.levels,
        "member_rows": mined.member_rows,
        "mine_beam": mine_beam,
        "cover_sets": len(start.cover),
        "start": start.name,
        "start_costs": {s.name: round(s.cost, 3) for s in starts},
        "l_merges": merges,
        "improve_rounds": improved.rounds,
        "improve_moves": improved.moves,
        "improve_splits": improved.splits,
        "combos": data.combos,
    }
    return clusters, info


def export(store: Store, result: TableResult, path: str | Path, *, fmt: str | None = None) -> Path:
    """Write a result's release (its columns) to CSV or Parquet, atomically."""
    return write_table_release(store, result.run, path, result.data.released, fmt=fmt)


@dataclass(frozen=True)
class Start:
    """A greedy cover, its clustering (Algorithm 2) and that clustering's summed cost."""

    name: str
    cover: list[tuple[int, list[int]]]
    clusters: list[list[int]]
    cost: float


@dataclass(frozen=True)
class End:
    """Where a start ends after ℓ-merging and improvement."""

    start: Start
    clusters: list[list[int]]
    merges: int
    improved: ImproveStats
    cost: float
    l_merge: Any  # with ℓ: a pa.Table of the merges made


def _starts(store: Store, k: int, cap: float | None, progress: Progress) -> list[Start]:
    """The paper's cover, and with `cap` the capped one: each with its clustering's cost."""
    rows = RowSets(store)
    store.run("rel_improve_ancestor")
    out = []
    for name, c in [("paper", None), ("capped", cap)] if cap is not None else [("paper", None)]:
        chosen = gen_cover(store, k, cap=c, rows=rows, progress=progress)
        clusters = cover_to_clustering([r for _, r in chosen], k)
        out.append(Start(name, chosen, clusters, clustering_cost(store, clusters)))
    return out


def clustering_cost(store: Store, clusters: Sequence[Sequence[int]]) -> float:
    """The summed cost (size x d of the closure) of a clustering of the loaded table."""
    store_clusters(store, clusters, "cluster_try")
    return float(store.run("rel_clustering_cost").one()["cost"])


def _finish(
    store: Store,
    data: TableData,
    start: Start,
    k: int,
    l: float | None,  # noqa: E741
    w: float,
    fn: CostMeasure,
    improve: bool,
    progress: Progress,
) -> End:
    """Improve a start's clusters; with ℓ, merge them ℓ-diverse, then improve them again into
    ℓ-diverse halves."""
    clusters, improved, merges, l_merge = start.clusters, ImproveStats(0, 0, 0), 0, None
    if improve:
        clusters, improved = improve_clusters(store, clusters, k, progress=progress)
    if l is not None:
        clusters, merges = l_diversify(store, data, clusters, l, w, fn)
        l_merge = store.run_arrow("rel_l_merge_read")
        if improve:
            clusters, more = improve_clusters(
                store, clusters, k, sensitive=data.sensitive, l=l, progress=progress
            )
            improved = improved + more
    cost = clustering_cost(store, clusters) if clusters is not start.clusters else start.cost
    return End(start, clusters, merges, improved, cost, l_merge)
