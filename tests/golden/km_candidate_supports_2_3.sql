SELECT
  LIST_SORT(LIST_DISTINCT(["c"."item_1", "c"."item_2"])) AS "itemset",
  COUNT(*) AS "support"
FROM "candidates" AS "c"
JOIN "expanded" AS "e1"
  ON "e1"."node" = "c"."item_1"
JOIN "expanded" AS "e2"
  ON "e2"."tid" * $span + "e2"."node" = "e1"."tid" * $span + "c"."item_2"
WHERE
  "c"."size" = 2
GROUP BY
  "c"."item_1",
  "c"."item_2"
UNION ALL
SELECT
  LIST_SORT(LIST_DISTINCT(["c"."item_1", "c"."item_2", "c"."item_3"])) AS "itemset",
  COUNT(*) AS "support"
FROM "candidates" AS "c"
JOIN "expanded" AS "e1"
  ON "e1"."node" = "c"."item_1"
JOIN "expanded" AS "e2"
  ON "e2"."tid" * $span + "e2"."node" = "e1"."tid" * $span + "c"."item_2"
JOIN "expanded" AS "e3"
  ON "e3"."tid" * $span + "e3"."node" = "e1"."tid" * $span + "c"."item_3"
WHERE
  "c"."size" = 3
GROUP BY
  "c"."item_1",
  "c"."item_2",
  "c"."item_3"
