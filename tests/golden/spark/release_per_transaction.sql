-- release_per_transaction (sql/verify.sql, its :spark variant) as Spark SQL; $name parameters left unbound
SELECT
  t.label AS tid,
  COALESCE(
    TRANSFORM(
      ARRAY_SORT(
        COLLECT_LIST(STRUCT(r.node AS node, n.label AS label)) FILTER(WHERE
          NOT n.label IS NULL)
      ),
      x -> x.label
    ),
    ARRAY()
  ) AS items
FROM tids AS t
LEFT JOIN release AS r
  ON r.tid = t.tid
LEFT JOIN node AS n
  ON n.id = r.node
GROUP BY
  t.tid,
  t.label
ORDER BY
  t.tid NULLS LAST;
