SELECT
  ROW_NUMBER() OVER (ORDER BY "walk_1" NULLS FIRST, "walk_2" NULLS FIRST) AS "pos",
  "item_1",
  "item_2",
  "support"
FROM (
  SELECT
    "s"."item_1" AS "item_1",
    CAST(NULL AS INT) AS "item_2",
    "s"."support",
    "r1"."rank" AS "walk_1",
    CAST(NULL AS BIGINT) AS "walk_2"
  FROM (
    SELECT
      "i1"."node" AS "item_1",
      COUNT(*) AS "support"
    FROM "expanded" AS "i1"
    GROUP BY
      "i1"."node"
    HAVING
      COUNT(*) < $k
  ) AS s
  JOIN "node_rank" AS "r1"
    ON "r1"."id" = "s"."item_1"
  UNION ALL
  SELECT
    "s"."item_1" AS "item_1",
    "s"."item_2" AS "item_2",
    "s"."support",
    LEAST("r1"."rank", "r2"."rank") AS "walk_1",
    GREATEST("r1"."rank", "r2"."rank") AS "walk_2"
  FROM (
    SELECT
      "i1"."node" AS "item_1",
      "i2"."node" AS "item_2",
      COUNT(*) AS "support"
    FROM "expanded" AS "i1"
    JOIN "expanded" AS "i2"
      ON (
        "i2"."tid" = "i1"."tid" AND "i2"."node" > "i1"."node"
      )
      AND "i2"."node" > "i1"."last"
    GROUP BY
      "i1"."node",
      "i2"."node"
    HAVING
      COUNT(*) < $k
  ) AS s
  JOIN "node_rank" AS "r1"
    ON "r1"."id" = "s"."item_1"
  JOIN "node_rank" AS "r2"
    ON "r2"."id" = "s"."item_2"
) AS keyed
ORDER BY
  "pos"
