"""Tables handed over from Python as Spark local relations: rows that live in the plan.

Why: the drivers hand Spark small tables every few statements (AA's candidates, counted
supports and cover each batch, Partition's chosen splits). `createDataFrame` of a Python list
pickles the rows to a file, parallelizes them as an RDD and unpickles them in a job; holding
the result then caches and counts it in another. On `local[2]` that was ~0.9 s a table (AA on
WV2: 36 puts, 32 s). Here the rows go over as one Arrow stream that the driver's JVM reads at
once into a `LocalRelation` (PySpark's own path for pandas frames, `ArrowConverters.toDataFrame`):
no job to make the table, none to count it (Python knows its rows), and Spark plans it as a
local table scan, broadcast where it is joined. A table above `LOCAL_ROWS` rows is still made
this way but then held in the cache like any other (a local relation is shipped with every task
that reads it). Nothing is left on the driver's disk that a cluster's executors would need: the
JVM has read the stream before `local_frame` returns.
"""

from __future__ import annotations

from typing import Any

# A table made by a query that Spark's optimizer expects to be at most this large (bytes) is
# collected into a local relation, not cached (`collected`).
LOCAL_BYTES = 1 << 20

# A table of at most this many rows stays a local relation (about 8 MB of four int columns,
# under Spark's spark.sql.execution.arrow.localRelationThreshold of 48 MB); larger ones are
# cached.
LOCAL_ROWS = 200_000

_SCALARS = {"INT": "int32", "BIGINT": "int64", "DOUBLE": "float64", "BOOLEAN": "bool_"}


def arrow_type(spark_type: str) -> Any:
    """The Arrow type Spark reads a column of `spark_type` from (None: not one handed over
    this way, so the caller uses `createDataFrame`).

    Example:
        >>> [str(arrow_type(t)) for t in ("INT", "ARRAY<BIGINT>", "STRING")]
        ['int32', 'list<item: int64>', 'string']
        >>> arrow_type("DECIMAL(38,0)") is None
        True
    """
    import pyarrow as pa

    if spark_type == "STRING":
        return pa.string()
    if spark_type in _SCALARS:
        return getattr(pa, _SCALARS[spark_type])()
    if spark_type.startswith("ARRAY<") and spark_type.endswith(">"):
        inner = arrow_type(spark_type[len("ARRAY<") : -1])
        return None if inner is None else pa.list_(inner)
    return None


def local_frame(spark: Any, columns: list[str], types: list[str], values: list[list[Any]]) -> Any:
    """The columns (`values`, one list per column, of the Spark `types`) as a DataFrame over a
    local relation, or None when a type has no Arrow form here."""
    import pyarrow as pa
    from pyspark.sql import DataFrame
    from pyspark.sql.pandas.serializers import ArrowStreamSerializer
    from pyspark.sql.types import StructField, StructType, _parse_datatype_string

    kinds = [arrow_type(t) for t in types]
    if any(k is None for k in kinds):
        return None
    table = pa.table(
        [pa.array(v, k) for v, k in zip(values, kinds, strict=True)],
        schema=pa.schema([pa.field(c, k) for c, k in zip(columns, kinds, strict=True)]),
    )
    schema = StructType(
        [StructField(c, _parse_datatype_string(t)) for c, t in zip(columns, types, strict=True)]
    )
    jvm, sc = spark._jvm, spark.sparkContext
    batches = table.to_batches() or [pa.record_batch([pa.array([], k) for k in kinds], columns)]
    stream = sc._serialize_to_jvm(
        batches,
        ArrowStreamSerializer(),
        jvm.PythonSQLUtils.readArrowStreamFromFile,
        jvm.ArrowIteratorServer,
    )
    jdf = jvm.PythonSQLUtils.toDataFrame(stream, schema.json(), spark._jsparkSession)
    return DataFrame(jdf, spark)


def expected_bytes(frame: Any) -> int:
    """The optimizer's size of `frame`'s rows, from its leaves' real sizes (cached tables and
    local relations carry theirs) and Spark's rules, which mostly err large (a filter keeps
    its input's size, a join without statistics multiplies them)."""
    return int(str(frame._jdf.queryExecution().optimizedPlan().stats().sizeInBytes()))


def collected(spark: Any, frame: Any) -> tuple[Any, int]:
    """Run `frame`'s query once and keep its rows as a local relation in the driver (the one
    job of the statement): for a small table, caching cost more than the query (persist,
    checkpoint, a cached scan to count it, a leaf, each planned). The rows stay in the JVM:
    they never pass through Python."""
    from pyspark.sql import DataFrame

    rows = frame._jdf.collectAsList()
    jdf = spark._jsparkSession.createDataFrame(rows, frame._jdf.schema())
    return DataFrame(jdf, spark), int(rows.size())


def spark_type_of(kind: Any) -> str:
    """The Spark type of an Arrow column type (those the drivers hand over)."""
    import pyarrow as pa

    if pa.types.is_list(kind):
        return f"ARRAY<{spark_type_of(kind.value_type)}>"
    for test, spark_type in (
        (pa.types.is_int32, "INT"),
        (pa.types.is_int64, "BIGINT"),
        (pa.types.is_boolean, "BOOLEAN"),
        (pa.types.is_floating, "DOUBLE"),
        (pa.types.is_string, "STRING"),
    ):
        if test(kind):
            return spark_type
    raise TypeError(f"no Spark type for Arrow type {kind}")
