-- rt_eval_draw (sql/rt_evaluate.sql) as Spark SQL; $name parameters left unbound
SELECT
  v.rid,
  c.leaf AS leaves,
  (
    SELECT
      COLLECT_LIST(t.item)
    FROM rt_tx AS t
    WHERE
      t.rid = v.rid
  ) AS items
FROM rel_value AS v
JOIN rel_combo AS c
  ON c.cid = v.cid
ORDER BY
  HASH(v.rid, $seed) NULLS LAST,
  v.rid NULLS LAST
LIMIT $n;
