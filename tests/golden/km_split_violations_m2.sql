SELECT
  ["item_1"] AS "itemset"
FROM (
  SELECT
    "i1"."node" AS "item_1",
    COUNT(*) AS "support"
  FROM "split_expanded" AS "i1"
  GROUP BY
    "i1"."node"
  HAVING
    COUNT(*) < $k
) AS s1
UNION ALL
SELECT
  ["item_1", "item_2"] AS "itemset"
FROM (
  SELECT
    "i1"."node" AS "item_1",
    "i2"."node" AS "item_2",
    COUNT(*) AS "support"
  FROM "split_expanded" AS "i1"
  JOIN "split_expanded" AS "i2"
    ON (
      "i2"."tid" = "i1"."tid" AND "i2"."node" > "i1"."node"
    )
    AND "i2"."node" > "i1"."last"
  GROUP BY
    "i1"."node",
    "i2"."node"
  HAVING
    COUNT(*) < $k
) AS s2
