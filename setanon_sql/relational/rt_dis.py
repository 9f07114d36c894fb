"""(k, k^m)-anonymity of a table with a set-valued column, the set column *disassociated* inside
every class of the QIs instead of generalized (issue 41): items are released as they are.

The model. The classes of the QIs are made as for the generalized release (k-ANON-CF or cuts,
`rt.anonymize_rt`), of at least `class_size` >= k rows. Inside every class the set column is
disassociated (Terrovitis et al., PVLDB 2012; Awad et al., 2019; `algorithms/disassociation`):
HORPART starts from one partition per class (all classes in one statement per level), so every
cluster lies inside one class and holds at least k records; VERPART chunks every cluster; the
cover repair merges an unsafe cluster only with a neighbour of its own class (a class left with
one unsafe cluster is repaired by partial suppression); REFINE's joint clusters never cross a
class either.

The release is two parts: the table (QIs generalized to their class, the kept columns as
given, without the set column, plus every row's `set_cluster`) and the disassociated chunks of
the set column keyed by cluster, in the disassociation release's own tables (`clusters`,
`record_chunks`, `term_chunks`, `joint_clusters`, `shared_chunks`).

What it must not reveal, and why it does not. A table row says which cluster its record is in,
nothing more of its set: the rows of a record chunk are numbered by a keyed hash (a secret key
new on every run, `disassociation/publish.py`) and carry no row id, so nothing links a table
row to a chunk row, nor two chunk rows of one record, beyond what the cluster says. All rows of a
cluster share one class, hence the same released QI values: inside a cluster the table rows are
alike to anyone who knows the QIs. An adversary who knows a target's QI values and up to m of
its items therefore (1) finds its class, at least k rows; (2) inside it, for each cluster of the
class, faces exactly the disassociation paper's setting: the chunks are k^m-anonymous and
cover-safe per cluster (the safe-disassociation paper's attack is checked by
`cover.unsafe` on the cluster's shape, which is all the release shows of it), so every itemset
of at most m items has no candidate record in the cluster or at least k; (3) the cluster's table
rows cannot be told apart, so the candidates among the table rows are those at least k records.
The other columns (released as given, as in the generalized release) are attached to table rows,
never to chunk rows. A cluster crossing two classes would break (3) (its rows would differ in
their QIs, and a class's membership would narrow the cluster's candidates below k): the verifier
refuses it, as it refuses a joint cluster crossing classes.

Item NCP is 0 by definition (no item is generalized); the loss is measured by query error
(`benchmarks/rt_dis_tradeoff.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..algorithms.disassociation import cover, horpart, publish, refine, verpart, write_chunks
from ..engine import ddl
from ..engine.builders import render
from ..engine.table_release import release_query
from ..errors import ParamsError
from ..progress import Progress, quiet
from ..store.database import Run, Store
from ..store.disassociated_files import write_folder
from ..store.outputs import Publication
from .output import TableOutput

SET_RELEASES = ("generalize", "disassociate")
"""How a table's set column is released: generalized in the item hierarchy, or disassociated."""
CLUSTER_COLUMN = "set_cluster"
"""The table release's column naming every row's cluster of the disassociated set column."""
WORKING_TABLES = ("dis_tx", "horpart_part", "horpart_active", "horpart_done", "cover_figures")
DEFAULTS: dict[str, Any] = {"max_cluster": 100, "min_split": 0, "refine": True, "joint_size": 8}
"""The disassociation's options, as `setanon anonymize -a disassociation` defaults them."""


def check_options(options: dict[str, Any], columns: Sequence[str]) -> dict[str, Any]:
    """The disassociation options with their defaults; refuse unknown ones, bad values and a
    table column named as the cluster column."""
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise ParamsError(f"unknown disassociation option(s): {', '.join(unknown)}")
    out = DEFAULTS | dict(options)
    for name, low in (("max_cluster", 2), ("min_split", 0), ("joint_size", 2)):
        if isinstance(out[name], bool) or not isinstance(out[name], int) or out[name] < low:
            raise ParamsError(f"{name} must be a whole number >= {low}, got {out[name]!r}")
    if CLUSTER_COLUMN in columns:
        raise ParamsError(
            f"the table has a column {CLUSTER_COLUMN!r}: the disassociated release adds one "
            "of that name (rename it)"
        )
    return out


def disassociate_in_classes(
    store: Store, *, k: int, m: int, options: dict[str, Any], progress: Progress = quiet
) -> dict[str, Any]:
    """Disassociate the set column (`rt_labels`) inside every class of `cluster(rid, cluster)`
    into the run's release tables; return figures of the search."""
    store.run("rtd_tx_raw")
    store.run("rtd_tids")
    store.run("dis_items")
    store.run("dis_transactions")
    store.run("dis_no_suppression")
    max_cluster = options["max_cluster"]
    store.run("rel_cluster_closure")
    store.run("rtd_classes")
    store.run("rtd_horpart_start", {"max": max_cluster})
    store.run("rtd_horpart_classes")
    store.run("rtd_horpart_start_active")
    store.run("rtd_horpart_start_done")
    seeded = store.count("horpart_part")
    info = horpart.horpart(
        store,
        k=k,
        max_cluster=max_cluster,
        min_split=options["min_split"],
        progress=progress,
        seeded=seeded,
    )
    store.run("dis_no_joints")
    store.run("dis_no_shared")

    def rechunk() -> None:
        progress("verpart", 0, None)
        write_chunks(store, verpart.verpart(store, k=k, m=m, units="verpart_units_of_clusters"))
        store.run("dis_terms")

    rechunk()
    progress("cover check", 0, None)
    info.update(cover.make_safe(store, k=k, m=m, rechunk=rechunk, groups=lambda: groups(store)))
    info.update(verpart.figures_of(store))
    if options["refine"]:
        progress("refine", 0, None)
        joint = options["joint_size"]
        info.update(refine.refine(store, k=k, m=m, joint_size=joint, groups=groups(store)))
        info["joints_undone"] = cover.drop_unsafe_joints(store, k=k, m=m)
    publish.publish(store)
    store.run("rtd_release_clusters")
    store.drop_tables(*WORKING_TABLES, step="drop_intermediate")
    return info | {"set_classes": seeded}


def groups(store: Store) -> dict[int, int]:
    """Every cluster's class: the groups no merge or joint cluster may cross."""
    rows = store.run("rtd_cluster_classes").tuples("cluster", "class")
    return {int(c): int(g) for c, g in rows}


def make_dis_release(store: Store, columns: Sequence[str], qi: Sequence[str]) -> None:
    """`table_release`: the table's rows with the QIs by their class's closure (made by
    `disassociate_in_classes`), `columns` (the table's but the set column) and every row's
    `set_cluster`."""
    store.run("rel_cluster_labels")
    table = render(release_query(columns, qi))
    store.execute(ddl.create_table_as("rt_table_release", table), step="rt_table_release")
    store.run("rtd_table_release")


@dataclass
class DisOutput:
    """The release's files: the table (`TableOutput`) and the folder of the chunks in the
    disassociation release's layout, staged in the run's publication so that both take their
    places together, or neither."""

    table: TableOutput
    chunks: Path
    fmt: str
    refined: bool
    manifest: dict[str, Any]

    def stage(self, store: Store, run: Run, publication: Publication) -> None:
        self.table.stage(store, run, publication)
        manifest = {"run": run.name, "table": self.table.path.name, **self.manifest}
        # the occurrences the cover repair suppressed, as the transaction folder says them, so
        # that `verify DATA -r DIR` accounts for them
        manifest["suppressed"] = store.count("suppressed_items")
        write_folder(
            store, self.chunks, fmt=self.fmt, refined=self.refined, manifest=manifest,
            publication=publication,
        )  # fmt: skip

    def in_swap(self, store: Store, run: Run) -> None:
        """Nothing goes into the database."""
