"""The verifier: does a release generalize its original, and is it k- or k^m-anonymous?

It runs against the `release(tid, node)` table of the current run schema and leaves the offending
rows in tables of that schema (`violations_validity`, `violations_k`, `violations_km`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..catalog import MAX_K, MAX_M, MODELS
from ..engine import sqlfiles
from ..errors import ParamsError
from ..params import check_whole
from ..store.database import Store, quote


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
    store: Store,
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
        head = "INSERT INTO" if i else "CREATE OR REPLACE TABLE"
        into = "violations_validity" + ("" if i else " AS")
        store.execute(f"{head} {into} {sqlfiles.statement(name).sql}", step=name)
    validity = store.scalar("SELECT count(*) FROM violations_validity")
    if model == "k":
        store.run("k_anonymity_classes")
        store.execute(
            "CREATE OR REPLACE TABLE violations_k AS "
            + sqlfiles.statement("k_anonymity_violations").sql,
            {"k": k},
            step="violations_k",
        )
        classes, failing, tx = store.query(
            "SELECT (SELECT count(*) FROM release_classes), count(*), coalesce(sum(support), 0) "
            "FROM violations_k"
        )[0]
        return VerifyReport(
            model, k, m, schema, validity, failing, int(tx), classes, multiset=multiset
        )
    store.execute(
        "CREATE OR REPLACE TABLE release_set AS SELECT DISTINCT tid, node FROM release",
        step="release_set",
    )
    store.run("release_frequent", {"k": k})
    from ..engine import builders as queries  # sqlglot, needed only for k^m checks

    sql = queries.render(queries.km_violations(m or 1))
    store.execute(f"CREATE OR REPLACE TABLE violations_km AS {sql}", {"k": k}, step="violations_km")
    per_size = dict(store.query("SELECT size, count(*) FROM violations_km GROUP BY size"))
    failing = {s: int(per_size.get(s, 0)) for s in range(1, (m or 1) + 1)}
    return VerifyReport(model, k, m, schema, validity, failing_itemsets=failing, multiset=multiset)


def violations(store: Store, table: str, limit: int = 20) -> list[dict[str, Any]]:
    """The first offending rows of a violations table, with node ids turned into labels."""
    if table == "violations_validity":
        sql = (
            "SELECT t.label AS tid, n.label AS node, v.problem FROM violations_validity v "
            "LEFT JOIN tids t ON t.tid = v.tid LEFT JOIN node n ON n.id = v.node "
            "ORDER BY v.tid, v.node LIMIT $n"
        )
    elif table in ("violations_k", "violations_km"):
        size = "size, " if table == "violations_km" else ""
        sql = (
            f"WITH v AS (SELECT row_number() OVER (ORDER BY support, itemset) AS rn, * "
            f"FROM {quote(table)} ORDER BY rn LIMIT $n), "
            "u AS (SELECT rn, unnest(itemset) AS id, generate_subscripts(itemset, 1) AS pos FROM v) "
            f"SELECT {size}coalesce((SELECT list(n.label ORDER BY u.pos) FROM u JOIN node n "
            "ON n.id = u.id WHERE u.rn = v.rn), []) AS itemset, support FROM v ORDER BY rn"
        )
    else:
        raise ParamsError(f"unknown violations table {table!r}")
    return store.execute(sql, {"n": limit}, step=f"show_{table}").dicts()
