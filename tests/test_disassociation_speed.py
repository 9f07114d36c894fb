"""The faster forms of disassociation's Python decisions (#42) against their literal
statements: VERPART's greedy with set tests against the paper's check of every bad itemset,
and the cached itemset shapes of the cover check against a fresh enumeration."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from setanon_sql.algorithms.disassociation import cover, verpart


def literal_greedy(order: list[int], bad: list[tuple[int, ...]]) -> list[list[int]]:
    """The paper's greedy as stated: an item joins the chunk unless a bad itemset holding it
    has all its other terms in the chunk already."""
    chunks: list[list[int]] = []
    left = list(order)
    while left:
        chunk: list[int] = []
        later: list[int] = []
        for item in left:
            if any(item in s and all(o == item or o in chunk for o in s) for s in bad):
                later.append(item)
            else:
                chunk.append(item)
        chunks.append(chunk)
        left = later
    return chunks


@st.composite
def orders_and_bad_sets(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, ...]]]:
    items = draw(st.lists(st.integers(0, 30), min_size=1, max_size=12, unique=True))
    sets = st.lists(st.sampled_from(items), min_size=2, max_size=4, unique=True)
    bad = [tuple(sorted(s)) for s in draw(st.lists(sets, max_size=15))] if len(items) > 1 else []
    return items, bad


@settings(max_examples=300, deadline=None)
@given(orders_and_bad_sets())
def test_greedy_matches_the_papers_check(case: tuple[list[int], list[tuple[int, ...]]]) -> None:
    order, bad = case
    assert verpart.greedy(order, bad) == literal_greedy(order, bad)


def test_greedy_keeps_an_item_without_bad_sets_in_the_first_chunk() -> None:
    assert verpart.greedy([5, 1, 2], [(1, 2)]) == [[5, 1], [2]]
    assert verpart.greedy([1, 2, 3], [(1, 2, 3)]) == [[1, 2], [3]]


def fresh_shapes(c: cover.ClusterShape, m: int) -> list[tuple[int, int, int]]:
    """`itemset_shapes` as first written: enumerated for every cluster."""
    shared = c.shared_chunks if c.joint is not None else 0
    return [
        (p, q, t)
        for p in range(min(m, c.chunks) + 1)
        for q in range(min(m, shared) + 1)
        for t in range(min(m, c.terms) + 1)
        if 1 <= p + q + t <= m and not (p + q == 1 and t == 0)
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 6), st.integers(0, 6), st.integers(0, 9), st.sampled_from([None, 1]),
    st.integers(1, 5),
)  # fmt: skip
def test_cached_itemset_shapes_match_a_fresh_enumeration(
    chunks: int, shared: int, terms: int, joint: int | None, m: int
) -> None:
    c = cover.ClusterShape(1, 20, 10, 5, terms, chunks, joint, 3, shared)
    assert cover.itemset_shapes(c, m) == tuple(fresh_shapes(c, m))


def _random_occurrences(seed: int) -> list[tuple[int, int, int]]:
    """(unit, tid, item) occurrences: a few units of records over a small vocabulary."""
    import random

    rng = random.Random(seed)
    rows = set()
    for tid in range(120):
        unit = tid % 3
        for item in rng.sample(range(12), rng.randint(1, 6)):
            rows.add((unit, tid, item))
    return sorted(rows)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 12))
def test_named_m2_statements_match_the_builders(seed: int, k: int) -> None:
    """`verpart_sets_2`, `verpart_bad_2` and `dv_km_2` (named, no sqlglot) give what the
    builders give for every size."""
    import duckdb

    from setanon_sql.engine import builders, ddl
    from setanon_sql.engine.sqlfiles import statement

    con = duckdb.connect()
    con.execute("CREATE TABLE verpart_candidate_occurrence (unit INT, tid BIGINT, item INT)")
    con.executemany(
        "INSERT INTO verpart_candidate_occurrence VALUES (?, ?, ?)", _random_occurrences(seed)
    )
    built = ddl.create_table_as(
        "verpart_sets_2", builders.render(builders.sets_query(2)), temp=True
    )
    con.execute(built)
    want = sorted(con.execute("SELECT * FROM verpart_sets_2").fetchall())
    want_bad = sorted(con.execute(builders.render(builders.bad_query(2)), {"k": k}).fetchall())
    con.execute(statement("verpart_sets_2").sql)
    assert sorted(con.execute("SELECT * FROM verpart_sets_2").fetchall()) == want
    assert sorted(con.execute(statement("verpart_bad_2").sql, {"k": k}).fetchall()) == want_bad

    con.execute(
        "CREATE TABLE dv_chunk_rows AS SELECT tid, item AS node FROM verpart_candidate_occurrence"
    )
    con.execute(
        "CREATE TABLE dv_chunk_frequent AS SELECT * FROM dv_chunk_rows WHERE node IN "
        "(SELECT node FROM dv_chunk_rows GROUP BY node HAVING count(*) >= $k)",
        {"k": k},
    )
    for m in (1, 2):
        sql = builders.render(
            builders.km_violations(m, singles="dv_chunk_rows", frequent="dv_chunk_frequent")
        )
        want_km = sorted(con.execute(sql, {"k": k}).fetchall())
        con.execute(statement(f"dv_km_{m}").sql, {"k": k})
        assert sorted(con.execute("SELECT * FROM dv_km").fetchall()) == want_km


def test_disassociation_and_its_verifier_load_without_sqlglot() -> None:
    """Importing sqlglot costs a process about 0.2 s of CPU, more than VERPART's work on
    BMS-WebView-2: the default m = 2 run and its verifier must not need it."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import setanon_sql.algorithms.disassociation\n"
        "import setanon_sql.measure.verify_disassociation\n"
        "print('sqlglot' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
