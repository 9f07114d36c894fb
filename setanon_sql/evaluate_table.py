"""What a table release exposes: prosecutor risk per row and, with a sensitive column, how
surely a class gives its sensitive value away (the ARX risk view, on the release itself)."""

from __future__ import annotations

from typing import Any

from .errors import ParamsError
from .queries import render
from .relational.output import classes_query
from .store import Store


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
    qi = [r[0] for r in store.query("SELECT name FROM rel_attr ORDER BY attr")]
    with store.in_run(run):
        store.execute(
            f"CREATE OR REPLACE TABLE eval_table_classes AS {render(classes_query(qi, sensitive))}",
            step="eval_table_classes",
        )
        out = store.run("eval_table_risk", {"threshold": threshold}).one()
    out |= {"run": run, "sensitive": sensitive, "threshold": threshold}
    return out
