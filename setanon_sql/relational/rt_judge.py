"""Judging a stored (k, k^m) run (issue 41): `verify --run` re-checks its release against the
original table and items it keeps, `metrics --run` measures both losses, each from the run's
own record (QIs, set column, k, m, ℓ) and in scratch, so the run stays as it was."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..errors import ParamsError
from ..store.database import Store
from .output import loss
from .rt_dis import CLUSTER_COLUMN
from .rt_dis_verify import RtDisReport, verify_rt_dis
from .rt_sets import LIST_TYPE_SUFFIX, SetColumn
from .rt_verify import RtReport, verify_rt

RT_KIND = "rt"


@dataclass(frozen=True)
class StoredRt:
    """What a stored (k, k^m) run recorded about itself."""

    qi: list[str]
    items: str
    sep: str
    k: int
    m: int
    sensitive: str | None
    l: float | None  # noqa: E741
    disassociated: bool = False  # the set column released disassociated (`rt_dis`)
    key: str | None = None  # the records' key, with the items as (key, item) rows


def stored_rt(store: Store, run: str, *, disassociated: bool = False) -> StoredRt:
    """The run's record; a run of another kind is refused, and one whose set column is
    disassociated unless the caller judges that release (`disassociated`)."""
    row = store.registry.run(run)
    if row["kind"] != RT_KIND:
        raise ParamsError(f"run {run!r} is a {row['kind']} run, not a table with a set column")
    p = json.loads(row["params"] or "{}")
    dis = p.get("set_release") == "disassociate"
    if dis and not disassociated:
        raise ParamsError(
            f"run {run!r} releases its set column disassociated: `setanon verify` and "
            "`setanon metrics` judge it, this command not yet"
        )
    return StoredRt(
        list(p["qi"]), p["items"], p["items_sep"], int(p["k"]), int(p["m"]), p.get("sensitive"),
        p.get("l"), dis, p.get("key"),
    )  # fmt: skip


def _column(store: Store, made: StoredRt) -> SetColumn:
    """The released set column as the run wrote it: a list, or text joined by its separator."""
    types = dict(store.run("rel_release_columns").tuples("column_name", "column_type"))
    return SetColumn(made.items, types[made.items].endswith(LIST_TYPE_SUFFIX), made.sep)


def _kept(store: Store, made: StoredRt) -> list[str]:
    """The columns the release holds as given: all but the QIs, the sensitive column, the set
    column, the key (renumbered) and the tool's own (whatever the run declared)."""
    own = {*made.qi, made.sensitive, made.items, made.key, "rid", "cluster", CLUSTER_COLUMN}
    names = store.run("rel_release_columns").tuples("column_name")
    return [c for (c,) in names if c not in own]


def verify_rt_run(store: Store, run: str) -> RtReport | RtDisReport:
    """Check the stored run's release for (k, k^m) (and ℓ) with its own parameters, and that
    none of the columns it releases as given is tied to a QI."""
    made = stored_rt(store, run, disassociated=True)
    with store.in_run(run, scratch=True):
        kept = _kept(store, made)
        if made.disassociated:
            return verify_rt_dis(store, made.qi, made.k, made.m, made.sensitive, made.l,
                                 kept=kept)  # fmt: skip
        return verify_rt(store, made.qi, _column(store, made), made.k, made.m, made.sensitive,
                         made.l, kept=kept)  # fmt: skip


def rt_metrics(store: Store, run: str) -> dict[str, Any]:
    """The run's relational NCP (mean over rows and QIs) and item NCP (over item instances)."""
    made = stored_rt(store, run, disassociated=True)
    with store.in_run(run, scratch=True):
        rel = float(loss(store, made.qi)["lm"])
        # a disassociated set column releases every item as given: no generalization loss
        item = 0.0 if made.disassociated else float(store.run("rt_item_loss").one()["item_ncp"])
    return {"run": run, "k": made.k, "m": made.m, "relational_ncp": rel, "item_ncp": item}
