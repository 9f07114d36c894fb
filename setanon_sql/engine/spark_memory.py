"""The tables of a Spark run while it runs: computed once, kept in Spark's in-memory columnar
cache, read through a plan that starts at the cached rows, and kept partitioned by tid.

Why each part:
- Cached, not recomputed: Partition rewrites its frontier tables every round, and each round
  reads the last; a table is computed once (one job, whose row count is the statement's) and
  its rows stay in the executors' block stores (compressed columns, spilled to disk when memory
  is short), as DuckDB keeps its tables.
- Read from the cache as a leaf (`leaf`): a plan built on a table's view would otherwise hold
  the table's whole query, and round after round every earlier one (analysis time grows with
  the rounds; a lost block would recompute them all). The leaf also carries the cache's real
  size and row count, so Spark broadcasts the small tables (the hierarchy, a round's chosen
  splits) and plans no shuffle for them.
- Partitioned by tid (`laid_out`): every table with a `tid` column is hash-partitioned by it
  into the session's shuffle partitions, once, when it is made. Spark then joins two such
  tables on tid partition by partition, with no shuffle: Partition's rounds join the frontier
  with `tx` on tid (`partition_open_bucket`: 782 s of a 56-minute 10^7 run when both sides
  were shuffled every round), the verifier and the metrics join the release with `tx`. A
  table whose query already leaves it partitioned so (an aggregate by tid over such a table,
  a join on tid) costs nothing more. Every tid is a BIGINT on Spark (`spark_engine.bind`):
  Spark hashes an INT and a BIGINT differently, so mixed types would not be co-partitioned.
- Checkpointed (`_cut_lineage`): the cache forgets the query that made it.
- Appended in pieces: an INSERT caches only its new rows; the table reads as the union of its
  pieces, merged into one when they are many (`MAX_PIECES`): a table appended every round is
  copied every few rounds only, and a read does not pay a task for each piece of each round.
- Never more parts than the shuffle partitions: a query over a union has the parts of all its
  inputs, and a table appended from itself (`partition_cut`) would double them every round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TID = "tid"
MAX_PIECES = 8


@dataclass
class Held:
    """One table: its cached pieces (DataFrames to unpersist), the ids of their cached columns
    (`cache_id`) and what statements read."""

    pieces: list[Any] = field(default_factory=list)
    leaves: list[Any] = field(default_factory=list)
    ids: list[int | None] = field(default_factory=list)
    rows: int = 0

    def add(self, cached: Any, leaf: Any, rows: int) -> None:
        """A piece: its cached frame (None for a local relation, `spark_local`: nothing
        cached) and the leaf statements read."""
        self.pieces.append(cached)
        self.leaves.append(leaf)
        self.ids.append(None if cached is None else cache_id(cached))
        self.rows += rows

    def view(self) -> Any:
        out = self.leaves[0]
        for leaf in self.leaves[1:]:
            out = out.unionAll(leaf)
        return out

    def release(self, keep: set[int | None] | frozenset[int | None] = frozenset()) -> None:
        """Unpersist the pieces, but none whose cached columns are in `keep`: Spark's cache
        serves every frame of the same plan from one entry, so a table computed again by the
        same statement shares its predecessor's columns, and unpersisting the old table would
        take the new one's rows with it ("Checkpoint block ... not found")."""
        for piece, ident in zip(self.pieces, self.ids, strict=True):
            if piece is not None and (ident is None or ident not in keep):
                piece.unpersist(blocking=False)
        self.pieces.clear()
        self.leaves.clear()
        self.ids.clear()
        self.rows = 0


def cache_id(frame: Any) -> int | None:
    """The id of the cached columns a persisted frame reads (None when it is not cached):
    frames of one plan share them."""
    spark = frame.sparkSession
    cached = spark._jsparkSession.sharedState().cacheManager().lookupCachedData(frame._jdf)
    if cached.isEmpty():
        return None
    return int(cached.get().cachedRepresentation().cacheBuilder().cachedColumnBuffers().id())


def cache(frame: Any, partitions: int) -> tuple[Any, Any, int]:
    """Compute `frame` once into Spark's cache (partitioned by tid when it has a tid column)
    and return the cached frame, the leaf that reads it, and its row count."""
    frame = laid_out(frame, partitions)
    frame = frame.persist()
    try:
        _cut_lineage(frame)
        rows = _build(frame)
    except BaseException:
        frame.unpersist(blocking=False)
        raise
    return frame, leaf(frame), rows


def _build(frame: Any) -> int:
    """Build every partition's cached columns and count their rows: the one job of the
    statement, with no stage of its own. It counts the rows of a scan of the cache that reads
    no column, as an RDD (counted in each task, summed by the driver). `frame.count()` planned
    an aggregate over the cache instead: partial counts shuffled to a one-task final stage,
    and its code generated and compiled, 0.2-0.3 s a table on `local[2]`."""
    return int(frame.select()._jdf.queryExecution().toRdd().count())


def laid_out(frame: Any, partitions: int) -> Any:
    """`frame` hash-partitioned by tid into `partitions` parts when it has a tid column, else in
    at most `partitions` parts, decided from its physical plan alone. Reading the part count
    from the frame's RDD (as this did) runs the plan's preparation, broadcasts included, and
    `persist` then plans and runs them again: every held table paid its broadcasts twice."""
    plan = frame._jdf.queryExecution().executedPlan()
    parting = plan.outputPartitioning()
    if TID in frame.columns:
        if not _hashes_on(parting, _tid_id(frame), partitions):
            return frame.repartition(partitions, TID)
        return frame
    parts = parting.numPartitions()
    if parts == 0 or parts > partitions:  # 0: known only when it runs (a file scan, a union)
        return frame.coalesce(partitions)  # a query over a union adds up its parts
    return frame


def _cut_lineage(frame: Any) -> None:
    """Make the cached columns a local checkpoint: once computed, Spark forgets how (their
    blocks are the data). Otherwise every job would walk the lineage of every table before
    it, round after round, and number a skipped stage for each shuffle there (a 10^6 run
    reached stage 5,600 in its tenth round)."""
    spark = frame.sparkSession
    cached = spark._jsparkSession.sharedState().cacheManager().lookupCachedData(frame._jdf)
    if not cached.isEmpty():
        cached.get().cachedRepresentation().cacheBuilder().cachedColumnBuffers().localCheckpoint()


def _tid_id(frame: Any) -> int | None:
    """The expression id of the frame's own `tid` column (None when it has none)."""
    output = frame._jdf.queryExecution().analyzed().output()
    for i in range(output.length()):
        if output.apply(i).name() == TID:
            return int(output.apply(i).exprId().id())
    return None


def _hashes_on(partitioning: Any, expr_id: int | None, partitions: int) -> bool:
    kind = partitioning.getClass().getSimpleName()
    if kind == "PartitioningCollection":
        parts = partitioning.partitionings()
        return any(_hashes_on(parts.apply(i), expr_id, partitions) for i in range(parts.length()))
    if kind != "HashPartitioning" or partitioning.numPartitions() != partitions:
        return False
    keys = partitioning.expressions()
    if keys.length() != 1:
        return False
    key = keys.apply(0)
    return key.getClass().getSimpleName() == "AttributeReference" and key.exprId().id() == expr_id


def leaf(frame: Any) -> Any:
    """A DataFrame that reads the cached rows of `frame` and nothing else: a plan of one node
    (an RDD scan of the cached columns) with the cache's real size and row count and the
    partitioning the rows were cached with. A plan that started at the cache itself would
    print, in every statement's plan string, the plans of every table it was made from,
    recursively (out of memory after a few Partition rounds)."""
    from pyspark.sql import DataFrame

    spark = frame.sparkSession
    jvm, session = spark._jvm, spark._jsparkSession
    cached = session.sharedState().cacheManager().lookupCachedData(frame._jdf)
    if cached.isEmpty():  # pragma: no cover - Spark caches what it is asked to
        raise RuntimeError("Spark did not cache the table")
    relation = cached.get().cachedRepresentation()
    scan = jvm.org.apache.spark.sql.Dataset.ofRows(session, relation).queryExecution()
    physical = scan.executedPlan()
    rdd_plan = jvm.org.apache.spark.sql.execution.LogicalRDD(
        relation.output(), scan.toRdd(), physical.outputPartitioning(),
        physical.outputOrdering(), False, session,
        jvm.scala.Option.apply(relation.computeStats()), jvm.scala.Option.empty(),
    )  # fmt: skip
    return DataFrame(jvm.org.apache.spark.sql.Dataset.ofRows(session, rdd_plan), spark)
