"""What a stored run released, told once: its `ReleaseKind` (recorded with the run, or derived
for a run made before kinds were recorded), its promise, and how each command handles each
kind (`route`), so verify, evaluate, report, compare, metrics, reconstruct and the CLI dispatch
on one value instead of each asking the algorithm's name, a flag or a key of its own.

Adding a kind: one `ReleaseKind` member (`catalog.py`); mypy then names every `match` on kinds
that lacks its case (`route` and `label` here, `store.publish.writes_folder`): each ends in
`catalog.unhandled`, which mypy accepts only where no member is left. A kind that needs a
handler of its own adds a `Route` member, and mypy names every handler table on routes (api's,
measure's verify_run, evaluate and report, the CLI's evaluate and anonymize, `to_relational`).
`tests/test_release_kinds.py` says what each command does with each kind;
`tests/test_kinds_exhaustive.py` adds a member to a copy and checks mypy names those places.
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Literal

from .. import runs
from ..algorithms import get
from ..catalog import ReleaseKind
from ..catalog import unhandled as unhandled  # where every dispatch above `catalog` finds it
from ..errors import ParamsError
from ..runs import Promise
from ..store.database import Store

Command = Literal[
    "verify", "evaluate", "report", "compare", "metrics", "reconstruct", "estimate", "anonymize"
]
COMMANDS: tuple[Command, ...] = (
    "verify", "evaluate", "report", "compare", "metrics", "reconstruct", "estimate", "anonymize"
)  # fmt: skip


class Route(Enum):
    """The handler a command runs for a release."""

    GENERALIZED = "generalized"  # release(tid, node): the generalized verifier, NCP, evaluation
    DISASSOCIATED = "disassociated"  # its own tables, verifier and scoring (#28)
    TABLE = "table"  # a generalized table (`relational/`)
    TABLE_SETS = "table-sets"  # a table with a set-valued column (`relational/rt*.py`)
    SYNTHETIC = "synthetic"  # verify checks the budget record (`measure/verify_dp.py`, #44)


# What a run made before its kind was recorded released, from what it recorded then: its
# registry row's kind ("table", "rt") and its algorithm's name. Frozen: newer runs record theirs.
_LEGACY_ROW_KINDS = {"table": ReleaseKind.TABLE, "rt": ReleaseKind.TABLE_SETS}
_LEGACY_ALGORITHMS = {"clump": ReleaseKind.MULTISETS, "disassociation": ReleaseKind.DISASSOCIATED}


def kind_of(store: Store, run: str) -> ReleaseKind:
    """The kind of release of a stored run: the one it recorded in `run_info`, else (a run made
    before kinds were recorded, or a table run, which keeps no run_info) the kind its registry
    row and algorithm said then."""
    row = store.registry.run(run)
    if row["kind"] in _LEGACY_ROW_KINDS:
        return _LEGACY_ROW_KINDS[row["kind"]]
    recorded = runs.recorded_info(store, run).get(runs.KIND_KEY)
    if recorded is not None:
        try:
            return ReleaseKind(recorded)
        except ValueError:
            raise ParamsError(
                f"run {run!r} records a kind of release this version does not know: {recorded!r}"
            ) from None
    return _LEGACY_ALGORITHMS.get(row["algorithm"] or "", ReleaseKind.SETS)


def promise_of(store: Store, run: str, *, kind: str = "transactions") -> Promise:
    """The promise of a stored run whose registry row is of this `kind`: its algorithm's model,
    its k and m, its kind of release. A run of another row kind is refused by name."""
    row = store.registry.run(run)
    if row["kind"] != kind:
        raise ParamsError(
            f"run {run!r} is a {row['kind']} run; this command takes {kind} runs"
            + ("" if row["kind"] != "table" else f" (`setanon evaluate --run {run}` measures it)")
        )
    params = json.loads(row["params"]) if row["params"] else {}
    if "k" not in params:
        raise ParamsError(f"run {run!r} records no k (made by {row['algorithm'] or 'hand'})")
    algo = get(row["algorithm"])
    if algo.model == "dp":
        return dp_promise(store, run, params, algo.name)
    return Promise(
        k=int(params["k"]),
        m=params.get("m"),
        model=algo.model,
        allows_suppression=algo.allows_suppression,
        algorithm=algo.name,
        kind=kind_of(store, run),
    )


def dp_promise(store: Store, run: str, params: dict, algorithm: str) -> Promise:
    """A differentially private run's promise: its epsilon (the run's parameter), the budget
    its record spent and the mechanism (its `run_info`). No candidate count is promised, so
    k is 1, as for a synthesized release file (its parameters record k as null; a run of an
    earlier version holds the default k the algorithm never read)."""
    info = runs.recorded_info(store, run)
    epsilon = params.get("options", {}).get("epsilon")
    spent = info.get("epsilon_spent")
    return Promise(
        k=1,
        model="dp",
        algorithm=algorithm,
        kind=kind_of(store, run),
        epsilon=float(epsilon) if isinstance(epsilon, (int, float)) else None,
        epsilon_spent=None if spent in (None, "None") else float(spent),
        mechanism=info.get("mechanism"),
    )


def route(command: Command, kind: ReleaseKind, what: str = "this release") -> Route:
    """How `command` handles a release of `kind`; a kind it does not take is refused in one
    line (exit 2). `what` names the release in that line."""
    match kind:
        case ReleaseKind.SETS | ReleaseKind.MULTISETS:
            if command == "reconstruct":
                raise ParamsError(f"{what} is not a disassociation run; reconstruct takes one")
            return Route.GENERALIZED
        case ReleaseKind.DISASSOCIATED:
            return Route.DISASSOCIATED
        case ReleaseKind.TABLE:
            if command != "evaluate":
                raise ParamsError(f"{what} is a table run; `setanon evaluate` measures it")
            return Route.TABLE
        case ReleaseKind.TABLE_SETS:  # relational/rt_judge.py, rt_evaluate.py, rt_report.py
            if command not in ("verify", "metrics", "evaluate", "report", "compare"):
                raise ParamsError(
                    f"{what} is a table run with a set column; `setanon evaluate` measures it"
                )
            return Route.TABLE_SETS
        case ReleaseKind.SYNTHETIC:  # new transactions of leaves in release(tid, node) (#44)
            if command == "reconstruct":
                raise ParamsError(f"{what} is not a disassociation run; reconstruct takes one")
            return Route.SYNTHETIC if command == "verify" else Route.GENERALIZED
        case _:
            unhandled(kind)


def to_relational(store: Store, run: str, command: Command) -> bool:
    """Whether `command` hands stored run `run` to `relational/` (a table with a set column)
    rather than to the library's transaction path; a kind it does not take is refused here."""
    kind = kind_of(store, run)
    if kind is ReleaseKind.TABLE:  # the judging commands name the one that measures it
        raise ParamsError(f"run {run!r} is a table run; `setanon evaluate --run {run}` measures it")
    match route(command, kind, f"run {run!r}"):
        case Route.TABLE_SETS:
            return True
        case Route.GENERALIZED | Route.DISASSOCIATED | Route.SYNTHETIC:
            return False
        case Route.TABLE:  # refused above
            raise AssertionError(f"run {run!r}: a table run reached {command}")
        case unknown:
            unhandled(unknown)


def label(kind: ReleaseKind) -> str:
    """The word `anonymize --json` reports under "release" (unchanged since before kinds)."""
    match kind:
        case ReleaseKind.SETS:
            return "set"
        case ReleaseKind.MULTISETS:
            return "multiset"
        case ReleaseKind.DISASSOCIATED:
            return "disassociated"
        case ReleaseKind.TABLE | ReleaseKind.TABLE_SETS | ReleaseKind.SYNTHETIC:
            return kind.value
        case _:
            unhandled(kind)
