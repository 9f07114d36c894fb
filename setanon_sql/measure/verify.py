"""The verifier: does a release generalize its original, and is it k- or k^m-anonymous?

It runs against the `release(tid, node)` table of the current run schema and leaves the offending
rows in tables of that schema (`violations_validity`, `violations_k`, `violations_km`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..catalog import MAX_K, MAX_M, MODELS, check_whole
from ..engine import ddl, sqlfiles
from ..engine.contract import Workspace
from ..errors import ParamsError
from ..runs import Promise


@dataclass(frozen=True)
class VerifyReport:
    """Counts of offending rows per check; `ok` when every check found none.

    `failing_itemsets[i]` counts violating i-itemsets; for i >= 2 only those whose every item is
    frequent on its own (an itemset with an infrequent item is reported through that item).
    """

    model: str
    k: int
    m: int | None
    schema: str
    validity_problems: int
    failing_classes: int = 0
    transactions_in_failing_classes: int = 0
    classes: int = 0
    failing_itemsets: dict[int, int] = field(default_factory=dict)
    multiset: bool = False  # checked as a multiset release (Clump's), or as sets

    @property
    def ok(self) -> bool:
        return (
            self.validity_problems == 0
            and self.failing_classes == 0
            and not any(self.failing_itemsets.values())
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ok": self.ok,
            "model": self.model,
            "k": self.k,
            "m": self.m,
            "release": "multiset" if self.multiset else "set",
            "schema": self.schema,
            "validity_problems": self.validity_problems,
        }
        if self.model == "k":
            out |= {
                "classes": self.classes,
                "failing_classes": self.failing_classes,
                "transactions_in_failing_classes": self.transactions_in_failing_classes,
            }
        else:
            out["failing_itemsets"] = {str(s): n for s, n in self.failing_itemsets.items()}
        return out


def verify(
    store: Workspace,
    *,
    k: int,
    model: str = "k",
    m: int | None = None,
    allow_suppression: bool = False,
    multiset: bool = False,
) -> VerifyReport:
    """Check the current run schema's `release` against the dataset.

    model "k": every released transaction occurs >= k times; "km": every itemset of <= m released
    items has support 0 or >= k. `multiset` releases may repeat a node per transaction and are
    checked by Hall's condition (each copy stands for its own original item).
    """
    if model not in MODELS:
        raise ParamsError(f"unknown privacy model {model!r}; one of {MODELS}")
    if model == "km" and not m:
        raise ParamsError("the k^m model needs m")
    check_whole("k", k, 1, MAX_K)
    if m is not None:
        check_whole("m", m, 1, MAX_M)
    store.require_hierarchy()
    schema = store.current_schema()
    checks = (
        ["verify_unknown_tids", "verify_generalizes"]
        + ([] if allow_suppression else ["verify_covers"])
        + (["verify_matching"] if multiset else [])
    )
    # One statement per check: in one UNION ALL their hash tables are built side by side, and
    # at 10^7 transactions they do not fit a 4 GB limit together (each alone does).
    for i, name in enumerate(checks):
        found = sqlfiles.statement(name).sql
        keep = ddl.insert_into if i else ddl.create_table_as
        store.execute(keep("violations_validity", found), step=name)
    validity = store.count("violations_validity")
    if model == "k":
        store.run("k_anonymity_classes")
        store.run("k_anonymity_violations", {"k": k})
        classes = store.run("k_anonymity_summary").one()
        return VerifyReport(
            model,
            k,
            m,
            schema,
            validity,
            failing_classes=classes["failing"],
            transactions_in_failing_classes=int(classes["transactions"]),
            classes=classes["classes"],
            multiset=multiset,
        )
    store.run("release_set")
    store.run("release_frequent", {"k": k})
    from ..engine import builders as queries  # sqlglot, needed only for k^m checks

    sql = queries.render(queries.km_violations(m or 1))
    store.execute(ddl.create_table_as("violations_km", sql), {"k": k}, step="violations_km")
    per_size = dict(store.run("km_violations_per_size").tuples("size", "itemsets"))
    failing = {s: int(per_size.get(s, 0)) for s in range(1, (m or 1) + 1)}
    return VerifyReport(model, k, m, schema, validity, failing_itemsets=failing, multiset=multiset)


def verify_promise(store: Workspace, promise: Promise) -> VerifyReport:
    """The verdict on the current release against what it was made to satisfy (a stored run's
    promise, or the one an algorithm gives for its parameters)."""
    return verify(
        store,
        k=promise.k,
        model=promise.model,
        m=promise.m,
        allow_suppression=promise.allows_suppression,
        multiset=promise.multiset,
    )


def violations(store: Workspace, table: str, limit: int = 20) -> list[dict[str, Any]]:
    """The first offending rows of a violations table, with node ids turned into labels."""
    if table not in ("violations_validity", "violations_k", "violations_km"):
        raise ParamsError(f"unknown violations table {table!r}")
    return store.run(f"{table}_shown", {"n": limit}).dicts()
