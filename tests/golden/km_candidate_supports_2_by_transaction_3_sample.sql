SELECT
  LIST_SORT(LIST_DISTINCT(["c"."item_1", "c"."item_2"])) AS "itemset",
  COUNT(*) AS "support"
FROM (
  SELECT
    "e1"."tid",
    "e1"."node"
  FROM "expanded" AS "e1"
  WHERE
    "e1"."node" IN (
      SELECT
        "c"."item_1"
      FROM "candidates" AS "c"
      WHERE
        "c"."size" = 2
    )
    AND "e1"."tid" % $share = 0
) AS "e1"
JOIN (
  SELECT
    "e2"."tid",
    "e2"."node"
  FROM "expanded" AS "e2"
  WHERE
    "e2"."node" IN (
      SELECT
        "c"."item_2"
      FROM "candidates" AS "c"
      WHERE
        "c"."size" = 2
    )
    AND "e2"."tid" % $share = 0
) AS "e2"
  ON "e2"."tid" = "e1"."tid"
JOIN "candidates" AS "c"
  ON "c"."size" = 2 AND "c"."item_1" = "e1"."node" AND "c"."item_2" = "e2"."node"
GROUP BY
  "c"."item_1",
  "c"."item_2"
UNION ALL
SELECT
  LIST_SORT(LIST_DISTINCT(["c"."item_1", "c"."item_2", "c"."item_3"])) AS "itemset",
  COUNT(*) AS "support"
FROM "candidates" AS "c"
JOIN "expanded" AS "e1"
  ON "e1"."node" = "c"."item_1" AND "e1"."tid" % $share = 0
JOIN "sample_keys" AS "e2"
  ON "e2"."key" = "e1"."tid" * $span + "c"."item_2"
JOIN "sample_keys" AS "e3"
  ON "e3"."key" = "e1"."tid" * $span + "c"."item_3"
WHERE
  "c"."size" = 3
GROUP BY
  "c"."item_1",
  "c"."item_2",
  "c"."item_3"
