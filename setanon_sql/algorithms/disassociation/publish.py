"""The release of a disassociation run: the tables of its own format, written in the run's
schema (`clusters`, `record_chunks`, `term_chunks`, and with refinement `joint_clusters`,
`shared_chunks`), with the items' own labels.

No tid is released. The rows of a chunk are numbered in the order of sha256(key, cluster,
chunk, tid) with a key of 32 random bytes from the operating system (`secrets`), new on every
run and never chosen by the user: the rows of one record in two chunks get unrelated numbers,
and the order says nothing of the tids. The key is a parameter of the logged statement, so the
run's `sql_log` replays it exactly; the log stays in the database and is never part of the
release. `cluster_members(cluster, tid)` stays in the run's schema for the verifier only.
"""

from __future__ import annotations

import secrets

from ...engine.contract import Workspace

RELEASE_TABLES = ("clusters", "record_chunks", "term_chunks", "joint_clusters", "shared_chunks")


def publish(store: Workspace) -> None:
    """Write the release tables from the run's decisions (dis_chunk, dis_term, dis_joint,
    dis_shared, dis_suppressed); `joint_clusters` and `shared_chunks` are empty without
    refinement. `suppressed_items(tid, item)` (labels) stays beside them for the verifier."""
    key = secrets.token_hex(32)
    store.run("dis_release_clusters")
    store.run("dis_release_record_chunks", {"key": key})
    store.run("dis_release_term_chunks")
    store.run("dis_release_joint_clusters")  # empty without refinement
    store.run("dis_release_shared_chunks", {"key": key})
    store.run("dis_suppressed_items")
