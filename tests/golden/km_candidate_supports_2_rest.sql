SELECT
  LIST_SORT(LIST_DISTINCT(["c"."item_1", "c"."item_2"])) AS "itemset",
  COUNT(*) AS "support"
FROM "candidates" AS "c"
JOIN "expanded" AS "e1"
  ON "e1"."node" = "c"."item_1" AND "e1"."tid" % $share <> 0
JOIN "expanded" AS "e2"
  ON "e2"."tid" * $span + "e2"."node" = "e1"."tid" * $span + "c"."item_2"
  AND "e2"."tid" % $share <> 0
WHERE
  "c"."size" = 2
GROUP BY
  "c"."item_1",
  "c"."item_2"
