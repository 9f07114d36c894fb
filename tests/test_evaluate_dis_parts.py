"""The disassociated evaluate's row counts (#42): for every attack and every cluster releasing
all its items, each chunk part's rows holding the part's items (`de_part_rows`, a pair join
for two items, a group per row for more) against a plain-Python count over the release's rows
(record chunks, and shared chunks with refinement)."""

from __future__ import annotations

from collections import defaultdict

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from setanon_sql import Store
from setanon_sql.measure.evaluate import Workload, evaluate
from tests.helpers.cli import cli

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))


def chunk_rows(con, run: str) -> tuple[dict, dict]:
    """(kind, unit, chunk) -> its rows as label sets, and cluster -> label -> its chunk key."""
    rows: dict = defaultdict(lambda: defaultdict(set))
    for c, ch, r, item in con.execute(f"SELECT * FROM {run}.record_chunks").fetchall():
        rows[("record", c, ch)][r].add(item)
    for j, ch, r, item in con.execute(
        f'SELECT joint, chunk, "row", item FROM {run}.shared_chunks'
    ).fetchall():
        rows[("shared", j, ch)][r].add(item)
    joint = dict(con.execute(f"SELECT cluster, joint FROM {run}.joint_clusters").fetchall())
    place: dict = defaultdict(dict)
    for (kind, unit, ch), by_row in rows.items():
        clusters = [unit] if kind == "record" else [c for c, j in joint.items() if j == unit]
        for c in clusters:
            for items in by_row.values():
                for i in items:
                    place[c][i] = (kind, unit, ch)
    return rows, place


@SETTINGS
@given(
    txs=st.lists(
        st.sets(st.sampled_from("abcdefgh"), min_size=1, max_size=5), min_size=6, max_size=30
    ),
    refine=st.booleans(),
)
def test_part_rows_match_a_count_over_the_rows(tmp_path_factory, txs, refine):
    tmp = tmp_path_factory.mktemp("p")
    data, db = tmp / "tx.txt", tmp / "w.duckdb"
    data.write_text("\n".join(" ".join(sorted(t)) for t in txs) + "\n")
    r = cli(
        "anonymize", data, "-a", "disassociation", "-k", 2, "-m", 3, "--db", db, "--run", "d",
        "--option", f"refine={str(refine).lower()}", "-q",
    )  # fmt: skip
    assume(r.code != 3)
    assert r.code == 0, r.stderr
    store = Store(db)
    try:
        evaluate(store, "d", workload=Workload(queries=0, targets=40))
        con = store.ex.con
        label = dict(con.execute("SELECT item, label FROM temp.de_label").fetchall())
        probes = {
            (w, s, q): {label[i] for i in items}
            for w, s, q, items in con.execute(
                "SELECT workload, size, qid, itemset FROM d.eval_probes WHERE workload = 'attack'"
            ).fetchall()
        }
        got = con.execute(
            "SELECT workload, size, qid, cluster, kind, unit, chunk, rows FROM temp.de_part_rows"
        ).fetchall()
        rows, place = chunk_rows(con, "d")
    finally:
        store.close()
    assume(any(s >= 2 for (_, s, _) in probes))
    seen = set()
    for w, s, q, cluster, kind, unit, chunk, count in got:
        items = {i for i in probes[(w, s, q)] if place[cluster].get(i) == (kind, unit, chunk)}
        assert items, (w, s, q, cluster, kind, unit, chunk)
        truth = sum(1 for row in rows[(kind, unit, chunk)].values() if items <= row)
        assert count == truth, (probes[(w, s, q)], items, cluster, kind, chunk, count, truth)
        seen.add(len(items))
    assume(2 in seen)
