"""Sweep the knobs of the (k, k^m) model (issue 41) into a trade-off: one verified run per
class size x delta, each point its relational and item NCP, the picture a user chooses a
release from (`measure.rt_sweep_page`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .relational.rt import anonymize_rt
from .store.database import Store


def point_name(size: int, delta: float | None, prefix: str = "run_rt_sweep") -> str:
    """The run of one point: `run_rt_sweep_s500`, `run_rt_sweep_s100_d0_32`.

    Example:
        >>> point_name(100, 0.32), point_name(500, None)
        ('run_rt_sweep_s100_d0_32', 'run_rt_sweep_s500')
    """
    return f"{prefix}_s{size}" + ("" if delta is None else f"_d{delta:g}".replace(".", "_"))


def sweep_rt(
    store: Store,
    source: Any,
    *,
    sizes: Sequence[int],
    deltas: Sequence[float | None] = (None,),
    replace: bool = False,
    progress: Callable[[str], None] = lambda _: None,
    **options: Any,
) -> list[dict[str, Any]]:
    """Anonymize `source` once per class size x delta (`options` as `anonymize_rt` takes
    them), each point a run of its own; a row per point, in the order swept."""
    rows = []
    for size in sizes:
        for delta in deltas:
            name = point_name(size, delta)
            progress(name)
            r = anonymize_rt(
                store, source, class_size=size, delta=delta, run_name=name, replace=replace,
                **options,
            )  # fmt: skip
            rows.append(
                {"run": name, "classes_by": options.get("classes", "cover"),
                 "set_release": options.get("set_release", "generalize"),
                 "item_search": options.get("item_search", "topdown"), "k": r.k, "m": r.m,
                 "class_size": size, "delta": delta, "classes": r.classes,
                 "relational_ncp": r.relational_ncp, "item_ncp": r.item_ncp,
                 "seconds": round(r.seconds, 2), "verified": r.report.ok}
            )  # fmt: skip
    return rows
