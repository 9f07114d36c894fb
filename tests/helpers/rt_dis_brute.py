"""A brute-force check, in plain Python, of a table release whose set column is disassociated
inside every QI class: what the SQL verifier (`relational.rt_dis_verify`) is tested against.
Everything is recounted from the rows; only the cover rule (`cover.unsafe`, itself tested
against an enumeration of every reconstruction in tests/test_disassociation_terms.py) is
applied to the cluster shapes counted here. Shared chunks (REFINE) count as the places of their
items; their projections, k^m and covers are left to the SQL checks (tests/test_disassociation*)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from setanon_sql.algorithms.disassociation import cover
from tests.helpers.rt_brute import ancestors


@dataclass
class Release:
    """A release as plain rows: the table (rid, QIs, set_cluster), the chunks keyed by cluster,
    and the run's `cluster_members` and suppressed occurrences the verifier reads."""

    table: list[dict]
    clusters: dict[int, int]  # cluster -> released size
    record_chunks: list[tuple[int, int, int, str]]  # cluster, chunk, row, item
    term_chunks: list[tuple[int, str]]
    joint_clusters: list[tuple[int, int]] = field(default_factory=list)
    shared_chunks: list[tuple[int, int, int, str]] = field(default_factory=list)
    members: dict[int, int] = field(default_factory=dict)  # rid -> cluster
    suppressed: set[tuple[int, str]] = field(default_factory=set)


def problems(
    original: Mapping[int, tuple[str, set[str]]],
    rel: Release,
    *,
    qi_edges: Sequence[tuple[str, str]],
    k: int,
    m: int,
) -> list[str]:
    """Every way the release breaks the model, for a table of one QI `x` (rid -> (x, items))."""
    found: list[str] = []
    rows = {r["rid"]: r for r in rel.table}
    if set(rows) != set(original):
        found.append("table rows are not the original's")
    classes: dict[str, list[int]] = defaultdict(list)
    for rid, r in rows.items():
        if rid in original and r["x"] not in ancestors(qi_edges, original[rid][0]):
            found.append(f"row {rid}: {r['x']!r} does not generalize {original[rid][0]!r}")
        classes[r["x"]].append(rid)
    found += [f"class {c!r}: {len(v)} rows" for c, v in classes.items() if len(v) < k]
    class_of_cluster: dict[int, set[str]] = defaultdict(set)
    for r in rows.values():
        class_of_cluster[r["set_cluster"]].add(r["x"])
    found += [f"cluster {c} in classes {s}" for c, s in class_of_cluster.items() if len(s) > 1]
    joint_classes: dict[int, set[str]] = defaultdict(set)
    for j, c in rel.joint_clusters:
        joint_classes[j] |= class_of_cluster.get(c, set())
    found += [f"joint {j} in classes {s}" for j, s in joint_classes.items() if len(s) > 1]
    if set(rel.members) != set(original):
        found.append("cluster members are not the table's records")
    for rid, r in rows.items():
        if rel.members.get(rid) != r["set_cluster"]:
            found.append(f"row {rid}: released cluster {r['set_cluster']} is not its own")
    for rid, item in rel.suppressed:
        if rid not in original or item not in original[rid][1]:
            found.append(f"suppressed {item!r} of {rid} is no original occurrence")
    for cluster in set(rel.clusters) | set(rel.members.values()):
        found += cluster_problems(cluster, original, rel, k=k, m=m)
    return found


def cluster_problems(
    cluster: int, original: Mapping[int, tuple[str, set[str]]], rel: Release, *, k: int, m: int
) -> list[str]:
    """One cluster's chunks against its records: size, places, projections, k^m, term support,
    cover."""
    found: list[str] = []
    records = {
        rid: {i for i in original[rid][1] if (rid, i) not in rel.suppressed}
        for rid, c in rel.members.items()
        if c == cluster and rid in original
    }
    if rel.clusters.get(cluster) != len(records) or len(records) < k:
        found.append(f"cluster {cluster}: size {rel.clusters.get(cluster)}, {len(records)} records")
    if any(not items for items in records.values()):
        found.append(f"cluster {cluster}: an emptied record")
    chunk_rows: dict[int, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for c, chunk, row, item in rel.record_chunks:
        if c == cluster:
            chunk_rows[chunk][row].add(item)
    terms = [t for c, t in rel.term_chunks if c == cluster]
    domains = {chunk: set().union(*rs.values()) for chunk, rs in chunk_rows.items()}
    held = set().union(*records.values()) if records else set()
    joint = dict((c, j) for j, c in rel.joint_clusters).get(cluster)
    shared = {i for j, _, _, i in rel.shared_chunks if j == joint} & held
    places = Counter(i for d in domains.values() for i in d) + Counter(terms) + Counter(shared)
    if set(places) != held or any(n > 1 for n in places.values()):
        found.append(f"cluster {cluster}: items released {dict(places)}, held {sorted(held)}")
    for chunk, domain in domains.items():
        want = Counter(frozenset(s & domain) for s in records.values() if s & domain)
        got = Counter(frozenset(s) for s in chunk_rows[chunk].values())
        if want != got:
            found.append(f"cluster {cluster} chunk {chunk}: not the records' projection")
        support: Counter = Counter()
        for s in chunk_rows[chunk].values():
            for size in range(1, m + 1):
                support.update(frozenset(x) for x in combinations(sorted(s), size))
        found += [f"chunk {chunk}: {sorted(x)} x{n}" for x, n in support.items() if n < k]
    for t in terms:
        if sum(t in s for s in records.values()) >= k:
            found.append(f"cluster {cluster}: term {t!r} held by k or more")
    n = rel.clusters.get(cluster, 0)
    if joint is None:  # the brute force recounts the shape; shared chunks are not drawn here
        shape = cover.ClusterShape(
            cluster, n, sum(len(r) for r in chunk_rows.values()), len(terms) * min(n, k - 1),
            len(terms), len(chunk_rows), None, 0, 0,
        )  # fmt: skip
        if cover.unsafe([shape], k=k, m=m):
            found.append(f"cluster {cluster}: a cover")
    return found
