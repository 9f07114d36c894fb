SELECT
  ROW_NUMBER() OVER (ORDER BY "walk_1" NULLS FIRST, "walk_2" NULLS FIRST) AS "pos",
  "item_1",
  "item_2",
  "support"
FROM (
  SELECT
    "s"."item_1" AS "item_1",
    "s"."item_2" AS "item_2",
    "s"."support",
    LEAST("r1"."rank", "r2"."rank") AS "walk_1",
    GREATEST("r1"."rank", "r2"."rank") AS "walk_2"
  FROM (
    SELECT
      "item_1",
      "item_2",
      "support"
    FROM "violations_l2"
    WHERE
      "item_1" IN (
        SELECT
          "node"
        FROM "cut_node"
      )
      AND "item_2" IN (
        SELECT
          "node"
        FROM "cut_node"
      )
  ) AS s
  JOIN "node_rank" AS "r1"
    ON "r1"."id" = "s"."item_1"
  JOIN "node_rank" AS "r2"
    ON "r2"."id" = "s"."item_2"
) AS keyed
ORDER BY
  "pos"
