"""What a table release is worth and what it exposes, on the release itself: COUNT queries
with equality and range predicates over its quasi-identifiers, answered under the uniform
assumption; prosecutor risk per row and, with a sensitive column, how surely a class gives its
sensitive value away (the ARX risk view)."""

from __future__ import annotations

from typing import Any

from ..engine import ddl
from ..engine.builders import render
from ..engine.table_release import classes_query
from ..errors import ParamsError
from ..store.database import Store


def table_utility(
    store: Store, run: str, *, queries: int = 2000, dims: tuple[int, ...] = (1, 2, 3), seed: int = 0
) -> dict[str, Any]:
    """Relative error of seeded COUNT queries over 1..3 quasi-identifiers of a stored table
    run, per number of constrained attributes; the queries stay in `eval_queries` and
    `eval_table_predicates` of the run's schema."""
    if queries < 0 or not dims or min(dims) < 1:
        raise ParamsError("the number of queries must be >= 0 and each dimension >= 1")
    if not store.has_table("cluster_closure", run):
        raise ParamsError(f"run {run!r} holds no table release")
    with store.in_run(run):
        store.run("eval_table_predicates", {"dims": list(dims), "n": queries, "seed": seed})
        store.run("eval_table_queries")
        rows = store.run("eval_query_figures").dicts()
    return {"table_queries": [{k: v for k, v in r.items() if k != "workload"} for r in rows]}


def table_exposure(
    store: Store, run: str, *, sensitive: str | None = None, threshold: float = 0.2
) -> dict[str, Any]:
    """Risk figures of a stored table run's `table_release`, its classes kept as
    `eval_table_classes` in the run's schema.

    A row's prosecutor risk is 1 / the size of its class; `over_threshold` is the share of rows
    whose risk exceeds `threshold`.
    """
    if not 0 < threshold <= 1:
        raise ParamsError(f"the risk threshold lies in (0, 1], got {threshold}")
    if not store.has_table("table_release", run):
        raise ParamsError(f"run {run!r} holds no table release")
    with store.in_run(run):
        qi = [name for (name,) in store.run("rel_qi_names").tuples("name")]
        described = store.run("rel_release_columns").tuples("column_name")
        columns = [name for (name,) in described]
        if sensitive is not None and (sensitive not in columns or sensitive in qi):
            raise ParamsError(
                f"--sensitive {sensitive!r} is not a released column of run {run!r} apart from "
                f"its quasi-identifiers; its columns are {', '.join(map(repr, columns))}"
            )
        classes = render(classes_query(qi, sensitive))
        store.execute(ddl.create_table_as("eval_table_classes", classes), step="eval_table_classes")
        out = store.run("eval_table_risk", {"threshold": threshold}).one()
    out |= {"run": run, "sensitive": sensitive, "threshold": threshold}
    return out
