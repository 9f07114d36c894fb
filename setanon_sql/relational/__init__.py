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

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..algorithms import Progress, quiet
from ..errors import InfeasibleError, ParamsError, VerificationError
from ..store import Store
from .cover import cover_to_clustering, gen_cover
from .data import TableData, TableSource, load_table
from .diversity import check_feasible, l_diversify
from .improve import ImproveStats
from .improve import improve as improve_clusters
from .mining import mine_closed
from .output import (
    TableReport,
    loss,
    make_release,
    store_clusters,
    verify_table,
    write_table_release,
)
from .taxonomy import CostMeasure, TaxonomySpec, measure

__all__ = ["MINE_BEAM", "TableResult", "anonymize_table", "export", "write_table_release"]

MINE_BEAM = 5000
"""Records each mining level keeps by default: on Adult (8 QIs, k = 10) the release from
5,000 is as good as from the whole mining (the improvement phase makes up for the records not
kept) at a fifth of the time and half the memory; `mine_beam=None` mines them all."""


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
    source: TableSource,
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
    cost_measure: str | CostMeasure = "lm",
    run_name: str | None = None,
    replace: bool = False,
    improve: bool = True,
    mine_beam: int | None = MINE_BEAM,
    progress: Progress = quiet,
) -> TableResult:
    """Load a table, k-anonymize its QI columns by k-ANON-CF (ℓ-diversify them on `sensitive`
    when `l` is given), verify the release and measure its loss. With `improve` (the default)
    the cover's clusters are improved by moves and splits (`improve.py`); with ℓ, the clusters
    ℓ-diversity merged are improved again by splits into ℓ-diverse halves.
    `mine_beam` caps the records each mining level passes on (see `mine_closed`), so the run
    scales with the number of QIs; None mines every closed frequent record (the cover's
    O(ln k) bound then holds against all of them).

    A release failing the verifier raises VerificationError; it is never returned.
    """
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise ParamsError(f"k must be a whole number >= 1, got {k!r}")
    if l is not None and (l < 1 or not sensitive):
        raise ParamsError("l-diversity needs l >= 1 and a sensitive column")
    if mine_beam is not None and (isinstance(mine_beam, bool) or mine_beam < 1):
        raise ParamsError(f"mine_beam must be a whole number >= 1, got {mine_beam!r}")
    if not 0 <= w <= 1:
        raise ParamsError(f"w must lie in [0, 1], got {w}")
    started = time.perf_counter()
    fn = measure(cost_measure)
    name = run_name or store.new_run_name(
        f"table_k{k}" + (f"_l{l:g}".replace(".", "_") if l else "")
    )
    record = {"k": k, "l": l, "w": w, "qi": list(qi), "sensitive": sensitive}
    record |= {"improve": improve, "mine_beam": mine_beam}
    with store.run_schema(
        name, kind="table", algorithm="k-anon-cf", params=record, replace=replace
    ) as run:
        data = load_table(
            store,
            source,
            qi=qi,
            taxonomies=taxonomies,
            sensitive=sensitive,
            columns=columns,
            table=table,
            drop_missing=drop_missing,
            measure=fn,
        )
        if k > data.rows:
            raise InfeasibleError(f"k = {k} is larger than the table ({data.rows} rows)")
        if l is not None:
            check_feasible(store, l, sensitive)
        mined = mine_closed(store, k, beam=mine_beam, progress=progress)
        chosen = gen_cover(store, k, progress=progress)
        clusters = cover_to_clustering([rows for _, rows in chosen], k)
        store_clusters(store, clusters, "cluster_k")
        improved = ImproveStats(0, 0, 0)
        merges = 0
        if improve:
            clusters, improved = improve_clusters(store, clusters, k, progress=progress)
        if l is not None:
            clusters, merges = l_diversify(store, data, clusters, l, w, fn)
            if improve:
                clusters, more = improve_clusters(
                    store, clusters, k, sensitive=sensitive, l=l, progress=progress
                )
                improved = improved + more
        store_clusters(store, clusters, "cluster")
        make_release(store, data.columns, data.qi)
        report = verify_table(store, data.qi, k, sensitive, l)
        if not report.ok:
            raise VerificationError(
                f"k-ANON-CF produced a release that fails verification: {report.as_dict()}"
            )
        figures = loss(store, data.qi)
        run.results = {"verified": report.as_dict(), "lm": float(figures["lm"])}
    info = {
        "closed_records": mined.closed,
        "processed_records": mined.processed,
        "levels": mined.levels,
        "member_rows": mined.member_rows,
        "mine_beam": mine_beam,
        "cover_sets": len(chosen),
        "l_merges": merges,
        "improve_rounds": improved.rounds,
        "improve_moves": improved.moves,
        "improve_splits": improved.splits,
        "combos": data.combos,
    }
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


def export(store: Store, result: TableResult, path: str | Path, *, fmt: str | None = None) -> Path:
    """Write a result's release (the source's columns) to CSV or Parquet, atomically."""
    return write_table_release(store, result.run, path, result.data.columns, fmt=fmt)
