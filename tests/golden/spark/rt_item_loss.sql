-- rt_item_loss (sql/rt.sql) as Spark SQL; $name parameters left unbound
SELECT
  AVG(
    CASE
      WHEN (
        SELECT
          MAX(leaf_count)
        FROM rt_node
      ) <= 1
      THEN 0.0
      ELSE CAST((
        n.leaf_count - 1
      ) AS DOUBLE) / (
        (
          SELECT
            MAX(leaf_count)
          FROM rt_node
        ) - 1
      )
    END
  ) AS item_ncp
FROM rt_tx AS t
JOIN cluster AS c
  ON c.rid = t.rid
JOIN rt_cut AS u
  ON u.cluster = c.cluster AND u.item = t.item
JOIN rt_node AS n
  ON n.id = u.node;
