"""Partition (He & Naughton 2009) and LGR (Kim 2023): the paper's example, exact small cases,
and properties on random databases checked against the plain-Python reference."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers.papers import AB_TREE
from helpers.reference import Tree, generalizes, information_loss, is_k_anonymous
from helpers.stores import make_store, original_of, release_of
from helpers.strategies import databases
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from setanon_sql import Params, anonymize
from setanon_sql.errors import InfeasibleError, ParamsError

ALGORITHMS = [("partition", "final"), ("partition", "split"), ("lgr", "split")]


def run(
    store,
    algorithm: str,
    k: int,
    leftover: str = "final",
    gain: str = "drop",
    pick="realized",
    **kw,
):
    options = {"leftover": leftover, "gain": gain, "pick": pick}
    return anonymize(store, Params(algorithm=algorithm, k=k, options=options, **kw))


@pytest.mark.parametrize(("leftover", "gain"), [("final", "drop"), ("split", "ncp")])
def test_table2_local_recoding(table2, leftover, gain):
    result = run(table2, "partition", 2, leftover, gain)
    assert release_of(table2, result.run) == {
        "T1": ["A"],
        "T2": ["A"],
        "T3": ["b1", "b2"],
        "T4": ["b1", "b2"],
        "T5": ["B", "a1", "a2"],
        "T6": ["B", "a1", "a2"],
        "T7": ["B", "a1", "a2"],
    }
    # A and B cost 1/2 per item they cover: 1 + 2 in T1, T2, and 1 + 1 + 2 in T5-T7.
    assert result.loss["ncp"] == pytest.approx(3.5 / 17)


@pytest.mark.parametrize("gain", ["ncp", "drop"])
def test_table2_information_gain_of_partition_a_b(table2, gain):
    result = run(table2, "partition", 2, gain=gain, keep_intermediate=True)
    with table2.in_run(result.run):
        rows = table2.query(
            "WITH cut AS (SELECT pid, list(n.label ORDER BY n.label) AS labels "
            "FROM partition_cut JOIN node n ON n.id = partition_cut.node GROUP BY pid) "
            "SELECT n.label, g.gain FROM partition_gain_log g JOIN cut USING (pid) "
            "JOIN node n ON n.id = g.node WHERE cut.labels = ['A', 'B'] ORDER BY n.label"
        )
    gains = {label: Fraction(gain).limit_denominator(100) for label, gain in rows}
    assert gains == {"A": Fraction(3, 17), "B": Fraction(2, 17)}


def test_leftover_takes_the_least_gain_transaction_of_a_large_bucket():
    # Expanding ALL gives buckets {A} (tids 0-2) and {B} (tid 3): the leftover needs one more
    # transaction; the {A} bucket can spare one, all gains tie, so the smallest tid goes.
    store = make_store([["a1"], ["a1"], ["a1"], ["b1"]], AB_TREE)
    result = run(store, "partition", 2)
    assert release_of(store, result.run) == {"0": ["ALL"], "1": ["a1"], "2": ["a1"], "3": ["ALL"]}
    assert result.info["classes"] == 2


def test_lgr_makes_a_new_class_of_waiting_transactions():
    # Partition rolls the only split back (bucket {A} has one transaction, no bucket can spare
    # one): everything stays at ALL. LGR rolls the transactions up to level 1: {A, B} is shared
    # by tids 0 and 3, {B} by tids 1 and 4. The ALL class keeps k = 2 of its 5, so it lets go
    # of the 3 of largest saving (tids 3, 0, then 1 before 4 on the tie); {B} would get only
    # tid 1 and is not made. In the next round the ALL class (1, 2, 4) can spare just one.
    store = make_store([["a2", "b1"], ["b2"], ["a1", "a2"], ["a1", "a2", "b2"], ["b1"]], AB_TREE)
    partition = run(store, "partition", 2, "split")
    lgr = run(store, "lgr", 2)
    assert set(map(tuple, release_of(store, partition.run).values())) == {("ALL",)}
    assert release_of(store, lgr.run) == {
        "0": ["A", "B"],
        "1": ["ALL"],
        "2": ["ALL"],
        "3": ["A", "B"],
        "4": ["ALL"],
    }
    assert lgr.info["moved"] == 2 and lgr.info["new_classes"] == 1
    assert lgr.loss["ncp"] == pytest.approx(6.5 / 9) and partition.loss["ncp"] == 1


def test_split_leftover_tries_the_other_nodes():
    # Tid 0 (least gain) is given to {a1}'s leftover; {A, B} (tids 2, 3) fails on B (gain 6,
    # buckets {b1, b2} and {b2} of one each). "final" stops there; "split" expands A instead.
    store = make_store([["a1", "b1"], ["a1"], ["a1", "b1", "b2"], ["a1", "b2"]], AB_TREE)
    final = run(store, "partition", 2, "final", pick="nominal")
    split = run(store, "partition", 2, "split", pick="nominal")
    ends = {"0": ["ALL"], "1": ["ALL"]}
    assert release_of(store, final.run) == ends | {"2": ["A", "B"], "3": ["A", "B"]}
    assert release_of(store, split.run) == ends | {"2": ["B", "a1"], "3": ["B", "a1"]}
    assert (final.loss["ncp"], split.loss["ncp"]) == (
        pytest.approx(5.5 / 8),
        pytest.approx(4.5 / 8),
    )


def test_realized_pick_ranks_nodes_by_the_gain_their_split_keeps():
    # In partition {A, B}, A has the larger gain (12 items x 3 leaves = 36 vs 10 x 2 = 20) but
    # only tids 0, 1 share a bucket under it: it realizes 18, B (one bucket of all five) 20.
    # "nominal" expands A and leaves tids 2-4 at {A, B}; "realized" expands B first, then A,
    # and tids 2-4 keep b1, b2.
    tree = [("A", "ALL"), ("B", "ALL"), ("a1", "A"), ("a2", "A"), ("a3", "A")]
    tree += [("b1", "B"), ("b2", "B")]
    a = [["a1", "a2", "a3"], ["a1", "a2", "a3"], ["a1", "a2"], ["a2", "a3"], ["a1", "a3"]]
    store = make_store([items + ["b1", "b2"] for items in a], tree)
    nominal = run(store, "partition", 2, "final", pick="nominal")
    realized = run(store, "partition", 2, "final")
    assert release_of(store, nominal.run)["2"] == ["A", "B"]
    assert release_of(store, realized.run)["2"] == ["A", "b1", "b2"]
    assert (nominal.loss["ncp"], realized.loss["ncp"]) == (
        pytest.approx(6 / 22),
        pytest.approx(3.6 / 22),
    )


def test_wide_fanout_buckets_are_told_apart():
    # 70 leaves under the root: children of rank >= 64 are kept in a list beside the bit mask.
    # Tid 9 is alone in its bucket; the {i1} bucket can spare one (all gains tie: tid 4).
    tree = [(f"i{j}", "ALL") for j in range(70)]
    txs = [["i66"], ["i66"], ["i67"], ["i67"], ["i1"], ["i1"], ["i1"]]
    txs += [["i1", "i66"], ["i1", "i66"], ["i69"]]
    store = make_store(txs, tree)
    result = run(store, "partition", 2)
    expected = {str(t): items for t, items in enumerate(txs)} | {"4": ["ALL"], "9": ["ALL"]}
    assert release_of(store, result.run) == expected


@pytest.mark.parametrize("leaves", [64, 65])
def test_wide_lists_are_used_from_65_children_on(leaves):
    # The rounds leave the wide list out of their keys when no node has more than 64 children
    # (every child then has a bit): at 64 leaves that must change nothing, at 65 the child of
    # rank 64 must still tell {a, j} apart from {a}, whichever leaf it is.
    labels = [f"i{j:02d}" for j in range(leaves)]
    tree = [(label, "ALL") for label in labels]
    txs = [[labels[0]], [labels[0]]]
    txs += [[labels[0], label] for label in labels[1:] for _ in range(2)]
    store = make_store(txs, tree)
    result = run(store, "partition", 2)
    assert release_of(store, result.run) == {str(t): items for t, items in enumerate(txs)}


def test_intermediate_tables_are_kept_only_on_request(table2):
    lean = run(table2, "partition", 2)
    full = run(table2, "partition", 2, keep_intermediate=True)
    for result, kept in ((lean, False), (full, True)):
        tables = {
            r[0]
            for r in table2.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = $s",
                {"s": result.run},
            )
        }
        assert {"release", "partition_of", "partition_cut", "partition_final"} <= tables
        assert ("partition_bucket" in tables) == kept


def test_data_smaller_than_k_is_infeasible(table2):
    with pytest.raises(InfeasibleError, match=r"k = 8 is larger than the data \(7 transactions\)"):
        run(table2, "partition", 8)


def test_unknown_options(table2):
    with pytest.raises(ParamsError, match="option leftover of partition must be one of split"):
        run(table2, "partition", 2, "keep")
    with pytest.raises(ParamsError, match="option gain of lgr must be one of ncp, drop"):
        run(table2, "lgr", 2, gain="entropy")
    with pytest.raises(ParamsError, match="option pick of partition must be one of"):
        run(table2, "partition", 2, pick="best")
    with pytest.raises(ParamsError, match="unknown option.*nonsense; valid keys: leftover, gain"):
        Params(algorithm="partition", k=2, options={"nonsense": 1})
    with pytest.raises(
        ParamsError, match="partition gives transactional k-anonymity and takes no m"
    ):
        Params(algorithm="partition", k=2, m=2)


def checked(store, result, edges, k) -> tuple[dict, dict]:
    """The release, after checking it with the plain-Python reference."""
    tree = Tree(edges)
    original = original_of(store)
    release = release_of(store, result.run)
    assert set(release) == set(original)
    assert all(generalizes(original[t], release[t], tree) for t in release)
    assert is_k_anonymous(release, k)
    ncp, _, suppressed = information_loss(original, release, tree)
    assert suppressed == 0 and result.loss["ncp"] == pytest.approx(ncp)
    return original, release


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    db=databases(),
    k=st.integers(1, 4),
    gain=st.sampled_from(["drop", "ncp"]),
    pick=st.sampled_from(["realized", "nominal"]),
)
def test_outputs_are_k_anonymous_generalizations(db, k, gain, pick):
    txs, edges = db
    store = make_store(txs, edges)
    ncp = {}
    for algorithm, leftover in ALGORITHMS:
        if len(txs) < k:
            with pytest.raises(InfeasibleError):
                run(store, algorithm, k, leftover, gain, pick)
            continue
        result = run(store, algorithm, k, leftover, gain, pick)
        checked(store, result, edges, k)
        ncp[algorithm, leftover] = result.loss["ncp"]
    if ncp:
        # The leftover going on splitting only refines it; LGR only makes moves that lower NCP.
        assert ncp["lgr", "split"] <= ncp["partition", "split"] + 1e-12
        assert ncp["partition", "split"] <= ncp["partition", "final"] + 1e-12
    store.close()


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(db=databases(max_tx=5), k=st.integers(1, 3))
def test_k_anonymous_input_comes_back_unchanged(db, k):
    txs, edges = db
    copies = [t for t in txs for _ in range(k)]
    store = make_store(copies, edges)
    for algorithm, leftover in ALGORITHMS:
        result = run(store, algorithm, k, leftover)
        original, release = checked(store, result, edges, k)
        assert result.loss["ncp"] == 0
        assert {t: set(items) for t, items in release.items()} == original
    store.close()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(db=databases(max_tx=16), k=st.integers(2, 3))
def test_lgr_finds_every_partition_whose_cut_fits_a_waiting_transaction(db, k):
    # LGR walks the partition tree to find the classes a waiting transaction could move into;
    # the pairs it finds must be exactly those a brute force over every partition's cut finds.
    txs, edges = db
    assume(len(txs) >= k)
    store = make_store(txs, edges)
    tree, original = Tree(edges), original_of(store)
    partition = release_of(store, run(store, "partition", k, "split", "ncp").run)
    lgr = run(store, "lgr", k, "split", "ncp", keep_intermediate=True)
    with store.in_run(lgr.run):
        found = set(
            store.query(
                "SELECT CAST(t.label AS VARCHAR), f.pid FROM lgr_fit f JOIN tids t USING (tid)"
            )
        )
        cuts = store.query(
            "SELECT c.pid, list(n.label) FROM partition_cut c JOIN node n ON n.id = c.node "
            "WHERE c.pid <= $made GROUP BY c.pid",
            {"made": lgr.info["partitions_made"]},
        )
    waiting = {t for t, items in partition.items() if set(items) != original[t]}
    expected = {
        (t, pid) for t in waiting for pid, cut in cuts if generalizes(original[t], cut, tree)
    }
    assert found == expected
    store.close()
