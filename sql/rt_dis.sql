-- (k, k^m)-anonymity of a table with a set-valued column, the set column disassociated inside
-- every class of the QIs (issue 41, `relational/rt_dis.py`). Tables of the run: `cluster(rid,
-- cluster)` the classes of the QIs, `rt_labels(rid, label)` every record's items as given; the
-- disassociation statements (`sql/disassociation.sql`) run on `tx_raw(tid, label)` and
-- `tids(tid)` made here from them, a record's tid being its row id.

-- name: rtd_tx_raw
-- The set column as disassociation reads transactions: a record's tid is its row id.
CREATE OR REPLACE TABLE tx_raw AS
SELECT rid AS tid, label FROM rt_labels ORDER BY tid, label;

-- name: rtd_tids
-- Every record of the table once.
CREATE OR REPLACE TABLE tids AS
SELECT DISTINCT rid AS tid FROM rt_labels ORDER BY tid;

-- name: rtd_classes
-- Every record's class: the rows whose QIs are released alike (the same closure of their
-- cluster, `cluster_closure`), numbered from 0. Several clusters of the QIs may share one.
CREATE OR REPLACE TABLE rtd_class AS
WITH keys AS (
    SELECT cluster, list(node ORDER BY attr) AS closure
    FROM cluster_closure
    GROUP BY cluster
)
SELECT c.rid, (dense_rank() OVER (ORDER BY k.closure) - 1)::INTEGER AS class
FROM cluster AS c
JOIN keys AS k ON k.cluster = c.cluster
ORDER BY c.rid;

-- name: rtd_horpart_start
-- HORPART's first partitions are the classes, each final at once when it is smaller than
-- $max; every split stays inside its class. The path starts with the class, so that the
-- clusters of a class are numbered consecutively.
CREATE OR REPLACE TABLE horpart_part AS
SELECT class AS part, [class] AS path, count(*) AS size, count(*) < $max AS final, 0 AS level
FROM rtd_class
GROUP BY class
ORDER BY class;

-- name: rtd_horpart_classes
-- Every record with its first partition (its class's).
CREATE OR REPLACE TEMP TABLE rtd_record_part AS
SELECT c.rid AS tid, p.part, p.final
FROM rtd_class AS c
JOIN horpart_part AS p ON p.part = c.class;

-- name: rtd_horpart_start_active
-- The records of the classes still to split.
CREATE OR REPLACE TABLE horpart_active AS
SELECT tid, part FROM rtd_record_part WHERE NOT final;

-- name: rtd_horpart_start_done
-- The records of the classes that are final at once.
CREATE OR REPLACE TABLE horpart_done AS
SELECT tid, part FROM rtd_record_part WHERE final;

-- name: rtd_cluster_classes
-- Every cluster's class (HORPART never crosses one; the cover repair merges inside one).
SELECT m.cluster, min(c.class) AS class
FROM cluster_members AS m
JOIN rtd_class AS c ON c.rid = m.tid
GROUP BY m.cluster
ORDER BY m.cluster;

-- name: rtd_release_clusters
-- The release's table gets every row's cluster (`table_release.set_cluster`), from the run's
-- `cluster_members`.
CREATE OR REPLACE TABLE rtd_row_cluster AS
SELECT tid AS rid, cluster AS set_cluster FROM cluster_members ORDER BY rid;

-- name: rtd_table_release
-- The released table: every row with its QIs generalized (`rt_table_release`, without the set
-- column) and its cluster of the disassociated set column.
CREATE OR REPLACE TABLE table_release AS
SELECT r.*, c.set_cluster
FROM rt_table_release AS r
JOIN rtd_row_cluster AS c ON c.rid = r.rid
ORDER BY r.rid;

-- name: rtd_verify_shape
-- The release's shape against the classes of its table (`rt_class(rid, class)`, rows of equal
-- released QI values): a cluster whose rows lie in two classes or more, a joint cluster whose
-- clusters do, and a row whose released cluster is not the one the chunks hold it in (or a
-- record of the clusters without its row).
CREATE OR REPLACE TABLE violations_rt_dis AS
WITH row_class AS (
    SELECT r.rid, c.class, r.set_cluster
    FROM table_release AS r
    JOIN rt_class AS c ON c.rid = r.rid
), cluster_class AS (
    SELECT set_cluster AS cluster, count(DISTINCT class) AS classes, min(class) AS class
    FROM row_class
    GROUP BY set_cluster
)
SELECT 'cluster_crosses_classes' AS problem, cluster AS unit, classes AS detail
FROM cluster_class
WHERE classes > 1
UNION ALL
SELECT 'joint_crosses_classes', j.joint, count(DISTINCT c.class)
FROM joint_clusters AS j
JOIN cluster_class AS c ON c.cluster = j.cluster
GROUP BY j.joint
HAVING count(DISTINCT c.class) > 1 OR bool_or(c.classes > 1)
UNION ALL
SELECT 'row_cluster_mismatch', coalesce(r.rid, m.tid), coalesce(r.set_cluster, m.cluster)
FROM table_release AS r
FULL JOIN cluster_members AS m ON m.tid = r.rid
WHERE r.set_cluster IS DISTINCT FROM m.cluster;

-- name: rtd_verify_summary
-- The shape's problems, counted per kind.
SELECT count(*) FILTER (WHERE problem = 'cluster_crosses_classes') AS crossing_clusters,
       count(*) FILTER (WHERE problem = 'joint_crosses_classes') AS crossing_joints,
       count(*) FILTER (WHERE problem = 'row_cluster_mismatch') AS unlinked_rows
FROM violations_rt_dis;
